/**
 * Debounce, press, release and hold for one button, as a pure step function on timestamps.
 *
 * A raw level counts only once it has stayed unchanged for `debounceMs` (contact bounce and short
 * electrical glitches never reach the table, and a bouncing button gives exactly one press and
 * one release). `press` is sent when the press is accepted, `hold` once when it has lasted
 * `holdMs` since the first edge, and `release` when the release is accepted.
 * The caller feeds raw edges and wakes the machine at `wakeAt` (see `ButtonMachine`).
 */
import type { ButtonEvent } from '../types.js';

export interface Timing {
  debounceMs: number;
  holdMs: number;
}

export interface ButtonState {
  /** The accepted (debounced) level. */
  pressed: boolean;
  /** The last raw level seen, and since when. */
  raw: boolean;
  rawSince: number;
  /** Hold already sent for this press. */
  held: boolean;
}

export type ButtonInput = { kind: 'edge'; pressed: boolean; at: number } | { kind: 'tick'; at: number };

export interface Step {
  state: ButtonState;
  events: ButtonEvent[];
  /** When the machine must be woken next (a pending level or hold), or null when idle. */
  wakeAt: number | null;
}

export function initialButtonState(pressed: boolean, at: number): ButtonState {
  // A button already down at start is taken as down, and held (no press or hold for it):
  // a stuck or floating pin must not fire the moment clew starts.
  return { pressed, raw: pressed, rawSince: at, held: pressed };
}

export function stepButton(state: ButtonState, input: ButtonInput, timing: Timing): Step {
  let s = state;
  if (input.kind === 'edge' && input.pressed !== s.raw) s = { ...s, raw: input.pressed, rawSince: input.at };
  const events: ButtonEvent[] = [];
  const at = input.at;
  if (s.raw !== s.pressed && at - s.rawSince >= timing.debounceMs) {
    s = { ...s, pressed: s.raw, held: false };
    events.push(s.pressed ? 'press' : 'release');
  }
  if (s.pressed && !s.held && at - s.rawSince >= timing.holdMs) {
    s = { ...s, held: true };
    events.push('hold');
  }
  return { state: s, events, wakeAt: nextWake(s, timing) };
}

function nextWake(s: ButtonState, timing: Timing): number | null {
  if (s.raw !== s.pressed) return s.rawSince + timing.debounceMs;
  if (s.pressed && !s.held) return s.rawSince + timing.holdMs;
  return null;
}
