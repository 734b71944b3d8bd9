/**
 * Runs `stepButton` for a set of buttons on a clock: raw edges in (from GPIO), events out, and a
 * timer per button for the pending debounce or hold. The only state is what `stepButton` returns.
 */
import type { ButtonName } from '../../shared/game.js';
import type { Clock, TimerHandle } from '../clock.js';
import type { ButtonEvent } from '../types.js';
import { initialButtonState, stepButton, type ButtonInput, type ButtonState, type Timing } from './button-logic.js';

export class ButtonMachine {
  private readonly states = new Map<ButtonName, ButtonState>();
  private readonly timers = new Map<ButtonName, TimerHandle>();

  constructor(
    private readonly clock: Clock,
    private readonly timing: Timing,
    private readonly onEvent: (event: ButtonEvent, button: ButtonName) => void,
  ) {}

  /** Registers a button with its level at start. */
  add(button: ButtonName, pressed: boolean): void {
    this.states.set(button, initialButtonState(pressed, this.clock.now()));
  }

  /** A raw edge from the pin (the level after the edge). */
  edge(button: ButtonName, pressed: boolean): void {
    this.feed(button, { kind: 'edge', pressed, at: this.clock.now() });
  }

  isPressed(button: ButtonName): boolean {
    return this.states.get(button)?.pressed ?? false;
  }

  /** Cancels every pending timer (on stop). */
  clear(): void {
    for (const handle of this.timers.values()) this.clock.clearTimeout(handle);
    this.timers.clear();
    this.states.clear();
  }

  private feed(button: ButtonName, input: ButtonInput): void {
    const state = this.states.get(button);
    if (!state) return;
    const step = stepButton(state, input, this.timing);
    this.states.set(button, step.state);
    const pending = this.timers.get(button);
    if (pending) this.clock.clearTimeout(pending);
    this.timers.delete(button);
    if (step.wakeAt !== null) {
      const delay = Math.max(0, step.wakeAt - this.clock.now());
      this.timers.set(button, this.clock.setTimeout(() => this.feed(button, { kind: 'tick', at: this.clock.now() }), delay));
    }
    for (const event of step.events) this.onEvent(event, button);
  }
}
