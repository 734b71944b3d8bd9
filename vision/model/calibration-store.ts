/**
 * Calibrations on disk: one JSON file per dice set in a directory the caller chooses
 * (`<dir>/<set>.json`; a few KB, about 800 KB with an adapted net), the one it replaced kept
 * beside it (`<set>.previous.json`) so a calibration can be undone. Writes go to a temporary file first and are renamed into place.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
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

async function readOne(file: string): Promise<Calibration | undefined> {
  if (!existsSync(file)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read calibration ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseCalibration(json, file);
}

async function writeAtomic(file: string, cal: Calibration): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, JSON.stringify(cal) + '\n');
  await rename(tmp, file);
}

export class CalibrationStore {
  constructor(readonly dir: string) {}

  /** The calibration in force for a set, if any. */
  read(set: DiceSetId): Promise<Calibration | undefined> {
    return readOne(current(this.dir, set));
  }

  /** Puts `cal` in force for its set; the one it replaces becomes the previous one. */
  async save(cal: Calibration): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const now = current(this.dir, cal.set);
    if (existsSync(now)) await rename(now, previous(this.dir, cal.set));
    await writeAtomic(now, cal);
  }

  /**
   * Undoes the last change for a set: the previous calibration comes back into force (or, when
   * there was none, the set goes back to the shipped model). The undone one is kept as the
   * previous, so a second undo re-applies it. Returns what is now in force.
   */
  async undo(set: DiceSetId): Promise<Calibration | undefined> {
    const now = current(this.dir, set);
    const prev = previous(this.dir, set);
    const hasNow = existsSync(now);
    const hasPrev = existsSync(prev);
    if (!hasNow && !hasPrev) throw new Error(`no calibration of ${set} to undo in ${this.dir}`);
    const swap = `${now}.swap-${process.pid}`;
    if (hasNow) await rename(now, swap);
    if (hasPrev) await rename(prev, now);
    if (hasNow) await rename(swap, prev);
    return this.read(set);
  }

  /** Removes a set's calibration (kept as previous, so undo brings it back). */
  async clear(set: DiceSetId): Promise<void> {
    const now = current(this.dir, set);
    if (!existsSync(now)) return;
    await rm(previous(this.dir, set), { force: true });
    await rename(now, previous(this.dir, set));
  }

  /** Every calibration in force, by set. */
  async list(): Promise<Calibration[]> {
    if (!existsSync(this.dir)) return [];
    const names = await readdir(this.dir);
    const out: Calibration[] = [];
    for (const set of DICE_SET_IDS) if (names.includes(`${set}.json`)) out.push((await this.read(set))!);
    return out;
  }
}
