/**
 * The replay camera: a folder of JPEG/PNG frames played in name order (natural sort: 2 before 10),
 * looped, at a set fps. PNGs are converted to JPEG once with sharp at start. This is the camera
 * when none is found, and the one tests use.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { systemClock, type Clock, type TimerHandle } from '../clock.js';
import { silentLogger, type Logger } from '../log.js';
import { CameraBase } from './camera-base.js';
import { looksLikeJpeg, looksLikePng } from './jpeg.js';

export interface ReplayOptions {
  folder: string;
  fps: number;
  loop?: boolean;
  log?: Logger;
  clock?: Clock;
}

const FRAME_FILE = /\.(jpe?g|png)$/i;
const naturalOrder = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Frame files of a folder listing, in play order. */
export function replayOrder(names: readonly string[]): string[] {
  return names.filter((n) => FRAME_FILE.test(n) && !n.startsWith('.')).sort(naturalOrder.compare);
}

/** Reads a folder's frames as JPEG bytes; files that are neither JPEG nor PNG are skipped with a warning. */
export async function loadReplayFrames(folder: string, log: Logger = silentLogger): Promise<{ name: string; jpeg: Uint8Array }[]> {
  const names = replayOrder(await readdir(folder));
  const frames: { name: string; jpeg: Uint8Array }[] = [];
  for (const name of names) {
    const file = path.join(folder, name);
    const bytes = new Uint8Array(await readFile(file));
    if (looksLikeJpeg(bytes)) frames.push({ name, jpeg: bytes });
    else if (looksLikePng(bytes)) {
      try {
        frames.push({ name, jpeg: new Uint8Array(await sharp(bytes).jpeg({ quality: 88 }).toBuffer()) });
      } catch (error) {
        log.warn(`replay: skipping ${file}: PNG could not be decoded (${(error as Error).message})`);
      }
    } else log.warn(`replay: skipping ${file}: not a JPEG or PNG file (bad signature)`);
  }
  return frames;
}

export class ReplayCamera extends CameraBase {
  private frames_: Uint8Array[] = [];
  private timer: TimerHandle | null = null;
  private running = false;

  constructor(private readonly options: ReplayOptions) {
    super('replay', options.log ?? silentLogger, options.clock ?? systemClock);
    if (!(options.fps > 0)) throw new RangeError(`replay fps must be > 0, got ${options.fps}`);
  }

  async start(): Promise<void> {
    if (this.running) return;
    const { folder } = this.options;
    try {
      this.frames_ = (await loadReplayFrames(folder, this.log)).map((f) => f.jpeg);
    } catch (error) {
      this.setStatus(false, `cannot read replay folder ${folder}: ${(error as Error).message}`);
      this.log.error(`camera replay: cannot read folder ${folder}`, { error: (error as Error).message });
      return;
    }
    if (this.frames_.length === 0) {
      this.setStatus(false, `replay folder ${folder} has no JPEG or PNG frames`);
      return;
    }
    this.running = true;
    this.hub.reopen();
    this.setStatus(true, `replaying ${this.frames_.length} frames from ${folder} at ${this.options.fps} fps`);
    const period = 1000 / this.options.fps;
    const t0 = this.clock.now();
    let n = 0;
    // Frame n is due at t0 + n·period: pacing does not drift with timer lateness.
    const tick = () => {
      if (!this.running) return;
      const index = this.options.loop === false ? n : n % this.frames_.length;
      const jpeg = this.frames_[index];
      if (!jpeg) {
        this.setStatus(true, `replay of ${folder} finished`);
        this.hub.close();
        this.timer = null;
        return;
      }
      this.emit(jpeg);
      n++;
      this.timer = this.clock.setTimeout(tick, Math.max(0, t0 + n * period - this.clock.now()));
    };
    tick();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.hub.close();
    this.setStatus(false, 'stopped', true);
  }
}
