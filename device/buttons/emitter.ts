/** The listener bookkeeping every button source shares (press / release / hold per button). */
import type { ButtonName } from '../../shared/game.js';
import type { Logger } from '../log.js';
import type { ButtonEvent, ButtonSource, SourceStatus } from '../types.js';

type Listener = (button: ButtonName) => void;

export abstract class ButtonEmitter implements ButtonSource {
  private readonly listeners: Record<ButtonEvent, Set<Listener>> = { press: new Set(), release: new Set(), hold: new Set() };
  protected current: SourceStatus;

  constructor(
    readonly kind: string,
    protected readonly log: Logger,
  ) {
    this.current = { kind, ok: false, message: 'not started' };
  }

  abstract start(): Promise<void>;
  abstract stop(): Promise<void>;

  on(event: ButtonEvent, listener: Listener): void {
    this.listeners[event].add(listener);
  }

  off(event: ButtonEvent, listener: Listener): void {
    this.listeners[event].delete(listener);
  }

  status(): SourceStatus {
    return { ...this.current };
  }

  /** Sets the status, logging a change (not-ok as a warning unless `quiet`, e.g. a normal stop). */
  protected setStatus(ok: boolean, message: string, quiet = false): void {
    const changed = ok !== this.current.ok || message !== this.current.message;
    this.current = { kind: this.kind, ok, message };
    if (changed) (ok || quiet ? this.log.info : this.log.warn)(`buttons ${this.kind}: ${message}`);
  }

  /** A throwing listener is logged and does not stop the others (a button must never crash the table). */
  protected emit(event: ButtonEvent, button: ButtonName): void {
    for (const listener of [...this.listeners[event]]) {
      try {
        listener(button);
      } catch (error) {
        this.log.error(`buttons ${this.kind}: a ${event} listener for ${button} threw`, { error: (error as Error).message });
      }
    }
  }
}

export const BUTTON_NAMES: readonly ButtonName[] = ['NEXT', 'BACK', 'READ', 'OK'];

export function isButtonName(text: string): text is ButtonName {
  return (BUTTON_NAMES as readonly string[]).includes(text);
}
