/**
 * The replay camera: a folder of JPEG/PNG frames played in name order (natural sort: 2 before 10),
 * looped, at a set fps. PNGs are converted to JPEG once with sharp at start. This is the camera
 * when none is found, and the one tests use.
 *
 * A folder whose `scene.json` lists `rolls` (make-replay.ts: each roll's first and last frame) is
 * played roll by roll instead: a roll's frames once, then its last (still) frame held until the
 * table wants dice (`replayDiceWanted`), then the next roll, round and round. Looped, a waiting
 * roll was replaced by the next one at every loop (the dice on screen changed every few seconds
 * and the table log got a roll event each time).
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

/** A roll of a several-roll replay: the indexes (in play order) of its first and last frame. */
export interface ReplayRoll {
  first: number;
  last: number;
}

/**
 * The rolls a folder's `scene.json` lists (`rolls[].frames`: first and last frame number, "00",
 * "11"; frame n is the n-th in play order), or null when it lists none or not frames this folder
 * has: the folder is then looped whole.
 */
export async function loadReplayRolls(folder: string, frameCount: number, log: Logger = silentLogger): Promise<ReplayRoll[] | null> {
  let scene: unknown;
  try {
    scene = JSON.parse(await readFile(path.join(folder, 'scene.json'), 'utf8'));
  } catch {
    return null;
  }
  const listed = (scene as { rolls?: unknown } | null)?.rolls;
  if (!Array.isArray(listed) || listed.length === 0) return null;
  const rolls: ReplayRoll[] = [];
  for (const roll of listed as { frames?: unknown }[]) {
    const [first, last] = Array.isArray(roll?.frames) ? roll.frames.map((n) => (typeof n === 'string' && /^\d+$/.test(n) ? Number(n) : NaN)) : [];
    if (first === undefined || last === undefined || !(first <= last && last < frameCount)) {
      log.warn(`replay: ${folder}/scene.json lists rolls this folder's ${frameCount} frames do not hold; looping all frames`);
      return null;
    }
    rolls.push({ first, last });
  }
  return rolls;
}
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
  /** The folder's rolls (scene.json), played one at a time; null: the frames are looped. */
  private rolls: ReplayRoll[] | null = null;
  private diceWanted = false;

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
    // Played once (loop: false), a folder is played straight through, rolls or not.
    this.rolls = this.options.loop === false ? null : await loadReplayRolls(folder, this.frames_.length, this.log);
    this.diceWanted = false;
    this.running = true;
    this.hub.reopen();
    const rolls = this.rolls ? `, ${this.rolls.length} rolls, each held until dice are wanted` : '';
    this.setStatus(true, `replaying ${this.frames_.length} frames from ${folder} at ${this.options.fps} fps${rolls}`);
    const period = 1000 / this.options.fps;
    const t0 = this.clock.now();
    let n = 0;
    const next = this.rollFrames();
    // Frame n is due at t0 + n·period: pacing does not drift with timer lateness.
    const tick = () => {
      if (!this.running) return;
      const index = next ? next() : this.options.loop === false ? n : n % this.frames_.length;
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

  /**
   * The replay's cue that the table wants dice (the camera pipeline calls it when the game asks
   * for dice, none are pending and the tray shows the dice read already): the roll held is
   * done with, and the next one is played once this one has been shown to its last frame. A
   * real camera has no such cue: a person throws. Without rolls in scene.json, nothing changes.
   */
  replayDiceWanted(): void {
    if (this.rolls) this.diceWanted = true;
  }

  /** With rolls: says the index of each next frame to send (a roll's frames, then its last held until dice are wanted); else null. */
  private rollFrames(): (() => number) | null {
    const rolls = this.rolls;
    if (!rolls) return null;
    let roll = 0;
    let index = rolls[0]!.first;
    return () => {
      const { last } = rolls[roll]!;
      if (index < last) return index++;
      if (this.diceWanted) {
        // This tick still shows the held frame; the next roll starts at the next.
        this.diceWanted = false;
        roll = (roll + 1) % rolls.length;
        index = rolls[roll]!.first;
      }
      return last;
    };
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.hub.close();
    this.setStatus(false, 'stopped', true);
  }
}
