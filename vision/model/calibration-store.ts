/**
 * Calibrations on disk: one JSON file per dice set in a directory the caller chooses
 * (`<dir>/<set>.json`; a few KB, about 800 KB with an adapted net), the one it replaced kept
 * beside it (`<set>.previous.json`) so a calibration can be undone.
 *
 * A cut at any moment (a pulled plug, a full disk) leaves `<set>.json` whole, old or new: every
 * file is written complete under a temporary name, flushed, and renamed over the one it replaces,
 * and the one in force is copied, never moved, to the previous before it is replaced. A temporary
 * file such a cut left behind is removed when the store is next listed.
 */
import { existsSync } from 'node:fs';
import { constants as fsConstants } from 'node:fs';
import { copyFile, mkdir, open, readFile, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DICE_SET_IDS, type DiceSetId } from '../../shared/dice.js';
import { isFaceClass } from '../faces/classes.js';
import type { Calibration } from './calibration.js';
import { CAMERA_HYPOTHESES } from './frame-up.js';

const CalibrationSchema = z.object({
  version: z.union([z.literal(1), z.literal(2)]),
  set: z.enum(DICE_SET_IDS as [DiceSetId, ...DiceSetId[]]),
  modelId: z.string(),
  createdAt: z.string(),
  counts: z.record(z.string(), z.number().int().nonnegative()),
  classes: z.array(z.string().refine(isFaceClass, 'not a face class')),
  weights: z.array(z.array(z.number())),
  bias: z.array(z.number()),
  fitAccuracy: z.number(),
  net: z.object({ weights: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'), steps: z.number().int().nonnegative() }).optional(),
  pictures: z.object({ camera: z.array(z.number().finite()).length(CAMERA_HYPOTHESES.length), count: z.number().int().positive(), up: z.number().int().min(0).max(3).nullable() }).optional(),
});

export function parseCalibration(json: unknown, where: string): Calibration {
  const parsed = CalibrationSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${where}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const cal = parsed.data as Calibration;
  if (cal.weights.length !== cal.classes.length || cal.bias.length !== cal.classes.length) {
    throw new Error(`${where}: ${cal.classes.length} classes but ${cal.weights.length} weight rows and ${cal.bias.length} biases`);
  }
  if (cal.net && cal.version < 2) throw new Error(`${where}: an adapted net needs version 2, the file says ${cal.version}`);
  return cal;
}

const current = (dir: string, set: DiceSetId) => path.join(dir, `${set}.json`);
const previous = (dir: string, set: DiceSetId) => path.join(dir, `${set}.previous.json`);

async function readOne(file: string, set: DiceSetId): Promise<Calibration | undefined> {
  if (!existsSync(file)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read calibration ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const cal = parseCalibration(json, file);
  if (cal.set !== set) throw new Error(`${file}: a calibration of ${cal.set}, not of ${set}`);
  return cal;
}

/** `file`'s bytes flushed to the disk, and the directory entry that names it. */
async function flushed(file: string, data?: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, data === undefined ? 'r+' : 'w');
    if (data !== undefined) await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle?.close();
  }
}

async function flushDir(dir: string): Promise<void> {
  // Not every platform opens a directory for fsync; there it is best effort.
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, fsConstants.O_RDONLY);
    await handle.sync();
  } catch {
    /* best effort */
  } finally {
    await handle?.close();
  }
}

/** A temporary name beside `file` (removed by `list` if a cut leaves it). */
const temporary = (file: string, what: string) => `${file}.${what}-${process.pid}`;
const TEMPORARY = /\.(tmp|copy)-\d+$/;

export class CalibrationStore {
  constructor(readonly dir: string) {}

  /** The calibration in force for a set, if any. */
  read(set: DiceSetId): Promise<Calibration | undefined> {
    return readOne(current(this.dir, set), set);
  }

  /** The calibration an undo would put in force for a set, if any (read, not put in force). */
  readPrevious(set: DiceSetId): Promise<Calibration | undefined> {
    return readOne(previous(this.dir, set), set);
  }

  /** Puts `cal` in force for its set; the one it replaces becomes the previous one. */
  async save(cal: Calibration): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const now = current(this.dir, cal.set);
    const tmp = temporary(now, 'tmp');
    await flushed(tmp, JSON.stringify(cal) + '\n');
    if (existsSync(now)) await this.replace(previous(this.dir, cal.set), now);
    await rename(tmp, now);
    await flushDir(this.dir);
  }

  /** `target` becomes a copy of `source`, whole or not at all; `source` stays. */
  private async replace(target: string, source: string): Promise<void> {
    const copy = temporary(target, 'copy');
    await copyFile(source, copy);
    await flushed(copy);
    await rename(copy, target);
  }

  /**
   * Undoes the last change for a set: the previous calibration comes back into force (or, when
   * there was none, the set goes back to the shipped model). The undone one is kept as the
   * previous, so a second undo re-applies it. Returns what is now in force. A previous file that
   * cannot be read is refused and nothing changes (`readPrevious` says why).
   */
  async undo(set: DiceSetId): Promise<Calibration | undefined> {
    const now = current(this.dir, set);
    const prev = previous(this.dir, set);
    const hasNow = existsSync(now);
    const hasPrev = existsSync(prev);
    if (!hasNow && !hasPrev) throw new Error(`no calibration of ${set} to undo in ${this.dir}`);
    const back = await this.readPrevious(set);
    if (!hasPrev) {
      await rename(now, prev);
    } else {
      // The one in force copied aside first: a cut at any step leaves a whole file in force.
      const undone = hasNow ? temporary(prev, 'tmp') : undefined;
      if (undone) {
        await copyFile(now, undone);
        await flushed(undone);
      }
      await rename(prev, now);
      if (undone) await rename(undone, prev);
    }
    await flushDir(this.dir);
    return back;
  }

  /** Removes a set's calibration (kept as previous, so undo brings it back). */
  async clear(set: DiceSetId): Promise<void> {
    const now = current(this.dir, set);
    if (!existsSync(now)) return;
    await rename(now, previous(this.dir, set));
    await flushDir(this.dir);
  }

  /**
   * Every set's calibration in force, or why its file cannot be read (a torn or hand-edited file
   * is reported, not thrown: the other sets' calibrations still load). Temporary files a cut
   * left behind are removed.
   */
  async list(): Promise<({ set: DiceSetId; calibration: Calibration } | { set: DiceSetId; problem: string })[]> {
    if (!existsSync(this.dir)) return [];
    const names = await readdir(this.dir);
    for (const name of names) {
      if (!TEMPORARY.test(name) || !DICE_SET_IDS.some((s) => name.startsWith(`${s}.`))) continue;
      // Best effort: one that cannot be removed (not a file) harms nothing where it is.
      await rm(path.join(this.dir, name), { force: true }).catch(() => undefined);
    }
    const out: ({ set: DiceSetId; calibration: Calibration } | { set: DiceSetId; problem: string })[] = [];
    for (const set of DICE_SET_IDS) {
      if (!names.includes(`${set}.json`)) continue;
      try {
        const calibration = await this.read(set);
        if (calibration) out.push({ set, calibration });
      } catch (error) {
        out.push({ set, problem: (error as Error).message });
      }
    }
    return out;
  }
}
