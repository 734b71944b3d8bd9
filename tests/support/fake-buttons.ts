/** Buttons for tests: the hardware edge, behind the same ButtonSource interface. `press()` is the finger. */
import type { SelectedButtons } from '../../device/select.js';
import type { ButtonEvent } from '../../device/types.js';
import type { ButtonName } from '../../shared/game.js';

export class FakeButtons implements SelectedButtons {
  readonly kind = 'test-buttons';
  private listeners = new Map<ButtonEvent, Set<(b: ButtonName) => void>>();
  running = false;

  async start(): Promise<void> {
    this.running = true;
  }
  async stop(): Promise<void> {
    this.running = false;
  }
  on(event: ButtonEvent, listener: (b: ButtonName) => void): void {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
  }
  off(event: ButtonEvent, listener: (b: ButtonName) => void): void {
    this.listeners.get(event)?.delete(listener);
  }
  press(button: ButtonName): void {
    for (const l of this.listeners.get('press') ?? []) l(button);
  }
  status() {
    return { kind: this.kind, ok: this.running, message: this.running ? 'ready' : 'stopped' };
  }
}
