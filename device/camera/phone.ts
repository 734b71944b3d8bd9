/**
 * The phone camera: the dashboard sends JPEG frames over the socket and the server calls
 * `push(jpeg)`. Each frame is checked (JPEG markers, size) and rate-limited with a token bucket,
 * and a rejected frame gets a namespaced error code that the server can pass back to the phone.
 */
import type { ErrorCode } from '../../shared/game.js';
import { systemClock, type Clock } from '../clock.js';
import { silentLogger, type Logger } from '../log.js';
import type { SourceStatus } from '../types.js';
import { CameraBase } from './camera-base.js';
import { looksLikeJpeg } from './jpeg.js';

export interface PhoneCameraOptions {
  maxBytes: number;
  maxFps: number;
  /** Without a frame for this long the status turns not-ok ("the phone stopped sending"). */
  stallMs?: number;
  log?: Logger;
  clock?: Clock;
}

export type PushResult = { ok: true } | { ok: false; code: ErrorCode; message: string };

export class PhoneCamera extends CameraBase {
  private running = false;
  private tokens: number;
  private refilledAt = 0;
  private lastFrameAt: number | null = null;

  constructor(private readonly options: PhoneCameraOptions) {
    super('phone', options.log ?? silentLogger, options.clock ?? systemClock);
    this.tokens = options.maxFps;
  }

  async start(): Promise<void> {
    this.running = true;
    this.hub.reopen();
    this.tokens = this.options.maxFps;
    this.refilledAt = this.clock.now();
    this.setStatus(false, 'waiting for a phone to send camera frames', true);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.hub.close();
    this.setStatus(false, 'stopped', true);
  }

  /** One frame from a phone. Never throws; a rejected frame changes nothing. */
  push(jpeg: Uint8Array): PushResult {
    if (!this.running) return { ok: false, code: 'camera/stopped', message: 'the phone camera is not running' };
    if (!(jpeg instanceof Uint8Array)) return { ok: false, code: 'camera/not-jpeg', message: 'a camera frame must be binary JPEG data' };
    if (jpeg.length > this.options.maxBytes) {
      return { ok: false, code: 'camera/too-large', message: `frame is ${jpeg.length} bytes; the limit is ${this.options.maxBytes}` };
    }
    if (!looksLikeJpeg(jpeg)) {
      return { ok: false, code: 'camera/not-jpeg', message: 'frame is not a complete JPEG (no FF D8 start or FF D9 end marker)' };
    }
    const now = this.clock.now();
    this.tokens = Math.min(this.options.maxFps, this.tokens + ((now - this.refilledAt) / 1000) * this.options.maxFps);
    this.refilledAt = now;
    if (this.tokens < 1) {
      return { ok: false, code: 'rate/camera-frames', message: `more than ${this.options.maxFps} frames per second` };
    }
    this.tokens -= 1;
    this.lastFrameAt = now;
    // Copy: the socket layer may reuse its buffer after the call returns.
    this.emit(new Uint8Array(jpeg));
    this.setStatus(true, 'receiving frames from a phone');
    return { ok: true };
  }

  override status(): SourceStatus {
    const stallMs = this.options.stallMs ?? 5000;
    if (this.running && this.lastFrameAt !== null && this.clock.now() - this.lastFrameAt > stallMs) {
      const seconds = Math.round((this.clock.now() - this.lastFrameAt) / 1000);
      return { kind: this.kind, ok: false, message: `no frame from the phone for ${seconds} s` };
    }
    return super.status();
  }
}
