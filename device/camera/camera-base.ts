/**
 * What every camera source shares: a frame hub for readers, and a status that the server shows
 * on `/api/health`. Subclasses publish frames and set the status; they never throw from start()
 * for a missing or failing camera (the table must keep working with manual dice entry).
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { CameraFrame, FrameSource, SourceStatus } from '../types.js';
import { FrameHub } from './frame-hub.js';

export abstract class CameraBase implements FrameSource {
  protected readonly hub = new FrameHub();
  private current: SourceStatus;
  private frameCount = 0;

  constructor(
    readonly kind: string,
    protected readonly log: Logger,
    protected readonly clock: Clock,
  ) {
    this.current = { kind, ok: false, message: 'not started' };
  }

  abstract start(): Promise<void>;
  abstract stop(): Promise<void>;

  frames(): AsyncIterable<CameraFrame> {
    return this.hub.frames();
  }

  /** The newest frame, without subscribing (null before the first). */
  latest(): CameraFrame | null {
    return this.hub.latest();
  }

  status(): SourceStatus {
    return { ...this.current };
  }

  /** Frames delivered since construction (health and tests). */
  get delivered(): number {
    return this.frameCount;
  }

  /** Sets the status, logging a change (not-ok as a warning unless `quiet`: an expected state such as waiting). */
  protected setStatus(ok: boolean, message: string, quiet = false): void {
    const changed = ok !== this.current.ok || message !== this.current.message;
    this.current = { kind: this.kind, ok, message };
    if (changed) (ok || quiet ? this.log.info : this.log.warn)(`camera ${this.kind}: ${message}`);
  }

  protected emit(jpeg: Uint8Array): void {
    this.frameCount++;
    this.hub.publish({ jpeg, at: this.clock.now() });
  }
}
