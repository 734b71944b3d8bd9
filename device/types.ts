/**
 * The hardware ports. Only `device/gpio/*` imports onoff and only `device/serial/*` imports
 * serialport; everything else sees these interfaces. Constructors do no I/O: `start()` opens pins,
 * ports and processes and `stop()` releases them.
 */
import type { ButtonName } from '../shared/game.js';

/** One JPEG frame from a camera source, with the time it arrived (ms, monotonic clock). */
export interface CameraFrame {
  jpeg: Uint8Array;
  at: number;
}

export interface FrameSource {
  readonly kind: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  frames(): AsyncIterable<CameraFrame>;
}

export type ButtonEvent = 'press' | 'release' | 'hold';

export interface ButtonSource {
  readonly kind: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  on(event: ButtonEvent, listener: (button: ButtonName) => void): void;
  off(event: ButtonEvent, listener: (button: ButtonName) => void): void;
}

export interface StatusLed {
  start(): Promise<void>;
  stop(): Promise<void>;
  set(mode: 'off' | 'on' | 'blink'): void;
}
