/**
 * Uploaded pictures (`POST /api/dice/read`, `POST /api/sheet/read`) are decoded and read one at a
 * time. Each decode of a big phone photo holds 100 to 300 MB in libvips; five at once took the
 * server from 230 MiB to over 1 GB, more than the Pi it is sized for can give. The others wait
 * their turn, a few of them for a while; past that they are told to come back (503, Retry-After).
 */

export type QueueTurn<T> = { ok: true; value: T } | { ok: false; reason: 'full' | 'waited' };

export interface UploadQueueOptions {
  /** Uploads that may wait while one is read; one more is refused at once. */
  maxWaiting: number;
  /** How long one may wait for its turn before it is refused. */
  maxWaitMs: number;
}

export class UploadQueue {
  private busy = false;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: UploadQueueOptions) {}

  /** Uploads waiting for their turn now (not the one being read). */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /** Runs `job` once no other upload is being read; a refusal when too many wait or it waited too long. */
  async run<T>(job: () => Promise<T>): Promise<QueueTurn<T>> {
    if (this.busy) {
      if (this.waiting.length >= this.options.maxWaiting) return { ok: false, reason: 'full' };
      const turn = await new Promise<boolean>((resolve) => {
        const go = () => {
          clearTimeout(timer);
          resolve(true);
        };
        const timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(go), 1);
          resolve(false);
        }, this.options.maxWaitMs);
        timer.unref?.();
        this.waiting.push(go);
      });
      // Handed over by the one before, `busy` stayed true for this job.
      if (!turn) return { ok: false, reason: 'waited' };
    } else {
      this.busy = true;
    }
    try {
      return { ok: true, value: await job() };
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy = false;
    }
  }
}
