/**
 * Fans camera frames out to any number of readers. Each `frames()` call is its own async iterator
 * that sees frames from the moment it starts; a slow reader keeps only the newest `depth` frames
 * (the dice reader wants the current tray, not a backlog). `close()` ends every iterator.
 */
import type { CameraFrame } from '../types.js';

interface Subscriber {
  queue: CameraFrame[];
  wake: (() => void) | null;
}

export class FrameHub {
  private readonly subscribers = new Set<Subscriber>();
  private closed = false;
  private latestFrame: CameraFrame | null = null;

  constructor(private readonly depth = 2) {}

  /** Sends one frame to every reader. */
  publish(frame: CameraFrame): void {
    if (this.closed) return;
    this.latestFrame = frame;
    for (const sub of this.subscribers) {
      sub.queue.push(frame);
      if (sub.queue.length > this.depth) sub.queue.splice(0, sub.queue.length - this.depth);
      sub.wake?.();
    }
  }

  /** The last frame published, if any (for a snapshot without subscribing). */
  latest(): CameraFrame | null {
    return this.latestFrame;
  }

  get readers(): number {
    return this.subscribers.size;
  }

  /** Ends every reader's iteration; a closed hub can be reopened for the next start(). */
  close(): void {
    this.closed = true;
    for (const sub of this.subscribers) sub.wake?.();
  }

  reopen(): void {
    this.closed = false;
  }

  frames(): AsyncIterable<CameraFrame> {
    const hub = this;
    return {
      [Symbol.asyncIterator](): AsyncIterator<CameraFrame> {
        const sub: Subscriber = { queue: [], wake: null };
        hub.subscribers.add(sub);
        const done = (): IteratorResult<CameraFrame> => {
          hub.subscribers.delete(sub);
          return { done: true, value: undefined };
        };
        return {
          async next() {
            for (;;) {
              const frame = sub.queue.shift();
              if (frame) return { done: false, value: frame };
              if (hub.closed) return done();
              await new Promise<void>((resolve) => (sub.wake = resolve));
              sub.wake = null;
            }
          },
          async return() {
            return done();
          },
        };
      },
    };
  }
}
