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

/** What a source says about itself for `/api/health`: working or not, and why, in plain words. */
export interface SourceStatus {
  kind: string;
  ok: boolean;
  message: string;
}

export interface FrameSource {
  readonly kind: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  frames(): AsyncIterable<CameraFrame>;
  /** Every source in device/ has it; optional so that hand-written fakes stay valid. */
  status?(): SourceStatus;
  /**
   * A replay's cue that the table wants dice and the tray shows the dice read already: a replay of
   * several rolls plays its next one (device/camera/replay.ts). Real cameras have none.
   */
  replayDiceWanted?(): void;
}

export type ButtonEvent = 'press' | 'release' | 'hold';

export interface ButtonSource {
  readonly kind: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  on(event: ButtonEvent, listener: (button: ButtonName) => void): void;
  off(event: ButtonEvent, listener: (button: ButtonName) => void): void;
  status?(): SourceStatus;
}

export interface StatusLed {
  start(): Promise<void>;
  stop(): Promise<void>;
  set(mode: 'off' | 'on' | 'blink'): void;
}
