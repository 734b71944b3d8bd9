/**
 * The frames of the last rolls a camera gave the table, kept over a restart: the *Teach* tab
 * labels a die of the pending roll by cutting it from the frame the roll was read from, and a
 * used roll's checked dice are taught from it (calibration.ts, played-rolls.ts, crop.ts, through
 * CameraPipeline.frameFor). Kept only in memory, a roll read before a restart could no longer be
 * labelled nor taught ("the camera frame of this roll is no longer available").
 *
 * Kept in one folder per camera (`<data>/roll-frames/<camera>/`): each frame as the JPEG the
 * camera sent, as the empty tray is (tray.ts) — decoded again by the same decoder it gives the very
 * pixels the roll was read from, with no encoding on the way (a 640×640 frame as PNG took about
 * 30 ms to encode and 0.9 MB here; its JPEG is written as it came, 80 KB) — and `frames.json`,
 * which names them, newest first, with what was read in each (the dice `frameFor` matches a roll
 * to), their byte count and SHA-256. Each file is written whole, flushed and renamed
 * (writeFileAtomic); a frame before the index that names it, and files the index no longer names
 * are removed after it, so a cut leaves at worst a file nobody names, removed at the next start.
 * A frame written while the index cannot be written is removed again, so frames do not pile up
 * unnamed. A frame file that is missing, torn or not the bytes written (checked by its hash: a cut
 * JPEG may still decode) is reported by name and is no frame: that roll answers the Teach tab so,
 * and the other frames stay. A frame whose bytes are those written but that the decoder fails on
 * (sharp not loading, out of memory) is reported the same way for this run and kept: the next start
 * may decode it. Phones are told the file as it lies in the data folder (`roll-frames/camera/…`),
 * never the server's path; the log has the full path. At the start no more frames than the limits
 * keep are decoded, whatever the index names. An index that is not one (torn, edited by hand) is
 * reported by name and kept aside as `frames.json.corrupt-<ms>`; the frames start afresh. One that
 * cannot be read at all (a failing card, a permission: it may read again) is reported by name and
 * the folder is left as it is for the run: no frame is read back, none removed, none kept (said
 * once), so a passing read error costs this run's frames over the next restart, not those kept.
 * Once closed (the pipeline stopped), nothing more is written: the folder is the next start's.
 *
 * The index also keeps `latest`, the latest frame time any frame given to it has had, kept when
 * that frame is forgotten: a frame's time (with a die's box) names the die a Teach label was given
 * to, also in the label memory over restarts (calibration.ts), and the camera's clock starts again
 * near 0 at a restart, so the pipeline times the new run's frames after it (CameraPipeline
 * `timeFramesAfter`). An index written before it was kept has none: its frames' latest time stands in.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DICE_SET_IDS, type DiceSetId } from '../../shared/dice.js';
import type { DieReading, RgbImage } from '../../vision/types.js';
import { writeFileAtomic } from './log.js';
import type { Logger } from './logger.js';

export const ROLL_FRAMES_INDEX = 'frames.json';

/**
 * The most bytes of frames kept on disk for one camera; the oldest go first beyond it. Eight
 * frames of the largest a phone sends by default (800 KB, `device.camera.phone.maxBytes`) are
 * 6.4 MB, and a Pi camera's 1280×960 JPEG a few hundred KB: 16 MB keeps the eight rolls BACK can
 * reach in any ordinary setup, and bounds what a phone allowed larger frames (up to 5 MB) or a
 * camera's odd huge frame can take of an SD card.
 */
export const ROLL_FRAMES_MAX_BYTES = 16 * 1024 * 1024;

/** A roll's frame as the camera sent it, with what was read in it. */
export interface RollFrame {
  at: number;
  readings: DieReading[];
  jpeg: Uint8Array;
}

/** A frame read back at the start: its pixels, or why it could not be (naming its file). */
export type RestoredFrame = { at: number; readings: DieReading[] } & ({ image: RgbImage } | { problem: string });

interface Entry {
  file: string;
  at: number;
  bytes: number;
  sha256: string;
  readings: DieReading[];
}

/** What the index holds; `latest` is absent from an index written before it was kept. */
interface Index {
  frames: Entry[];
  latest?: number;
}

const box = z.tuple([z.number(), z.number(), z.number(), z.number()]);
const READING = z.object({
  set: z.enum(DICE_SET_IDS as [DiceSetId, ...DiceSetId[]]),
  face: z.string(),
  confidence: z.number(),
  box,
  color: z.string().optional(),
  uncertain: z.boolean(),
  guessed: z.boolean().optional(),
  diceInPicture: z.number().optional(),
});
const FILE_NAME = /^\d{6,}\.jpg$/;
const INDEX_SHAPE = z.strictObject({
  frames: z.array(
    z.strictObject({
      file: z.string().regex(FILE_NAME),
      at: z.number(),
      bytes: z.number().int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      readings: z.array(READING),
    }),
  ),
  latest: z.number().optional(),
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export class RollFrames {
  /** The frames on disk, newest first, as the index names them once the writes so far are done. */
  private entries: Entry[] = [];
  /** The number of the next frame file (never one a frame on disk has). */
  private next = 1;
  /** The writes, one after another. */
  private writing: Promise<void> = Promise.resolve();
  /** Closed: frames kept after are not written (a READ landing after the pipeline stopped). */
  private closed = false;
  /** The folder as phones are told it: its place in the data folder (`roll-frames/<camera>`), not the server's path. */
  private readonly shown: string;
  /** The latest frame time given to this folder, this run or before (null: none yet). */
  private latestAt: number | null = null;

  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
    private readonly limits: { frames: number; bytes?: number },
  ) {
    this.shown = `${path.basename(path.dirname(dir))}/${path.basename(dir)}`;
  }

  private get maxBytes(): number {
    return this.limits.bytes ?? ROLL_FRAMES_MAX_BYTES;
  }

  private get index(): string {
    return path.join(this.dir, ROLL_FRAMES_INDEX);
  }

  /** The latest frame time given to this folder, this run or before (read by `load`); null: none. */
  get latest(): number | null {
    return this.latestAt;
  }

  /**
   * The frames kept before the start, newest first, decoded by `decode` (the pipeline's own);
   * files no frame of the index names (a cut write's, a torn index's) are removed.
   */
  async load(decode: (jpeg: Uint8Array) => Promise<RgbImage>): Promise<RestoredFrame[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const index = await this.readIndex();
    if (index === 'unreadable') {
      // Its frames may be those named by an index that reads again at the next start: nothing touched.
      this.closed = true;
      return [];
    }
    const { frames: indexed, latest } = index;
    // Every frame the index names counts, those beyond the limits or broken too: a label may name them.
    this.noteTime(Math.max(latest ?? -Infinity, ...indexed.map((e) => e.at)));
    // No more than the limits keep (an index edited by hand, or limits lowered, may name hundreds:
    // each decoded is a whole image in memory); a file named twice is one frame.
    const once = indexed.filter((e, i) => indexed.findIndex((o) => o.file === e.file) === i);
    const kept = bounded(once, this.limits.frames, this.maxBytes);
    const restored: RestoredFrame[] = [];
    const lost = (entry: Entry, forLog: string, forPhones: string, after: string) => {
      this.logger.warn(`camera: the frame of a roll read before the restart, ${path.join(this.dir, entry.file)} ${forLog}; its dice cannot be labelled nor taught${after}`);
      restored.push({ at: entry.at, readings: entry.readings, problem: `${this.shown}/${entry.file} ${forPhones}` });
    };
    for (const entry of kept) {
      let jpeg: Uint8Array;
      try {
        jpeg = new Uint8Array(await readFile(path.join(this.dir, entry.file)));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          lost(entry, 'could not be read back (missing)', 'could not be read back (missing)', '');
          continue;
        }
        // Not known to be gone or changed (a permission, a failing card): kept, named still, for a
        // start that reads it. Its message names the server's path: phones get its code.
        lost(entry, `could not be read back (${(error as Error).message})`, `could not be read back (${code ?? 'see the server log'})`, ' for now (the file is kept)');
        this.entries.push(entry);
        continue;
      }
      if (jpeg.length !== entry.bytes || sha256(jpeg) !== entry.sha256) {
        // No longer the frame written: named no more, its file removed below.
        const why = `could not be read back (${jpeg.length} bytes that are not the ${entry.bytes} written: torn or changed)`;
        lost(entry, why, why, '');
        continue;
      }
      try {
        restored.push({ at: entry.at, readings: entry.readings, image: await decode(jpeg) });
      } catch (error) {
        // The bytes are those written: the decoder failed (sharp not loading, out of memory), not
        // the file. Kept, named still, for a start that decodes it; its message may name paths.
        lost(entry, `could not be decoded (${(error as Error).message})`, 'could not be decoded (the decoder failed: see the server log)', ' for now (the file is kept)');
      }
      this.entries.push(entry);
    }
    const named = new Set(this.entries.map((e) => e.file));
    for (const name of [...names, ...named]) {
      const number = FILE_NAME.test(name) ? Number.parseInt(name, 10) : NaN;
      if (number >= this.next) this.next = number + 1;
    }
    for (const name of names) {
      if (name === ROLL_FRAMES_INDEX || name.startsWith(`${ROLL_FRAMES_INDEX}.corrupt-`) || named.has(name)) continue;
      await rm(path.join(this.dir, name), { force: true }).catch(() => undefined);
    }
    // The broken frames and those beyond the limits are named no more (their files were removed
    // above); an index from before `latest` was kept gets it.
    if (this.entries.length !== indexed.length || (latest === undefined && this.latestAt !== null)) this.writeIndex();
    return restored;
  }

  /** The index; no frames where there is no index or it is not one (said, and kept aside); `unreadable` where it could not be read (said). */
  private async readIndex(): Promise<Index | 'unreadable'> {
    let text: string;
    try {
      text = await readFile(this.index, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { frames: [] };
      this.logger.warn(`camera: ${this.index} could not be read (${(error as Error).message}); the frames of the rolls read before the restart cannot be labelled nor taught, and this run's are not kept over a restart (the folder is left as it is)`);
      return 'unreadable';
    }
    try {
      const result = INDEX_SHAPE.safeParse(JSON.parse(text));
      if (!result.success) throw new Error(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
      return result.data as Index;
    } catch (error) {
      const aside = `${this.index}.corrupt-${Date.now()}`;
      this.logger.warn(`camera: ${this.index} is not an index of roll frames (${(error as Error).message}); the frames of the rolls read before the restart are not kept (kept as ${path.basename(aside)})`);
      await rename(this.index, aside).catch((e: unknown) => this.logger.warn(`camera: ${this.index} could not be put aside: ${(e as Error).message}`));
      return { frames: [] };
    }
  }

  private noteTime(at: number): void {
    if (Number.isFinite(at) && (this.latestAt === null || at > this.latestAt)) this.latestAt = at;
  }

  /**
   * A roll's frame, newest: written after the writes before it, so the caller (the frame path) never
   * waits; the oldest frames beyond the limits are forgotten and their files removed.
   */
  keep(frame: RollFrame): void {
    // The pipeline stopped: the folder is the next start's (or anyone's, the data folder's lock released).
    if (this.closed) return;
    this.noteTime(frame.at);
    const maxBytes = this.maxBytes;
    if (frame.jpeg.length > maxBytes) {
      this.logger.info(`camera: a roll's frame of ${frame.jpeg.length} bytes is over the ${maxBytes} kept on disk: not kept over a restart`);
      // Its time is, all the same: a label given to its dice is remembered by it.
      this.writeIndex();
      return;
    }
    const file = `${String(this.next++).padStart(6, '0')}.jpg`;
    this.writing = this.writing
      .then(async () => {
        const entry: Entry = { file, at: frame.at, bytes: frame.jpeg.length, sha256: sha256(frame.jpeg), readings: frame.readings };
        await mkdir(this.dir, { recursive: true });
        const written = path.join(this.dir, entry.file);
        await writeFileAtomic(written, frame.jpeg);
        try {
          await this.writeIndexNow(bounded([entry, ...this.entries], this.limits.frames, maxBytes));
        } catch (error) {
          // No index names it, and the entries stay as they were: removed now, or every roll would
          // leave one more file behind while the index cannot be written.
          await rm(written, { force: true }).catch(() => undefined);
          throw error;
        }
      })
      .catch((error: unknown) => this.logger.warn(`camera: the frame of a roll could not be kept in ${this.dir}: ${(error as Error).message}`));
  }

  /** The index as the frames are once the writes before are done. */
  private writeIndex(): void {
    this.writing = this.writing.then(() => this.writeIndexNow(this.entries)).catch((error: unknown) => this.logger.warn(`camera: could not write ${this.index}: ${(error as Error).message}`));
  }

  /**
   * The index naming `entries`, which are the frames from then on (only once it is written: else
   * the entries stay as they were); then the files the index no longer names are removed.
   */
  private async writeIndexNow(entries: Entry[]): Promise<void> {
    const index: Index = { frames: entries, ...(this.latestAt !== null ? { latest: this.latestAt } : {}) };
    await writeFileAtomic(this.index, JSON.stringify(index) + '\n');
    const before = this.entries;
    this.entries = entries;
    const named = new Set(entries.map((e) => e.file));
    for (const gone of before) {
      // One left behind is named by no index: removed at the next start.
      if (!named.has(gone.file)) await rm(path.join(this.dir, gone.file), { force: true }).catch((e: unknown) => this.logger.warn(`camera: ${gone.file} could not be removed from ${this.dir}: ${(e as Error).message}`));
    }
  }

  /** Settles when the frames kept so far are on disk. */
  saved(): Promise<void> {
    return this.writing;
  }

  /** No frame is written from now on; settles when those kept before are on disk. */
  close(): Promise<void> {
    this.closed = true;
    return this.writing;
  }
}

/** The newest `frames` entries, as many as stay within `bytes` together. */
function bounded(entries: Entry[], frames: number, bytes: number): Entry[] {
  const kept: Entry[] = [];
  let total = 0;
  for (const e of entries.slice(0, frames)) {
    if (total + e.bytes > bytes) break;
    kept.push(e);
    total += e.bytes;
  }
  return kept;
}
