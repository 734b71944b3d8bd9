/**
 * Labelled crops waiting for a calibration, kept on disk so that a restart (or a pulled plug)
 * loses none of a table's labels: one PNG per crop, `<dir>/pending/<set>/<seq>-<face>.png`, the
 * 64×64 crop framed and turned upright as the reader taught it, numbered in the order the labels
 * were given. A commit removes the crops it used, a discard all of a set's. Each file is written
 * under a temporary name and renamed into place, so a crop is on disk whole or not at all.
 * A crop's number names its label over restarts: the reader gives it as the label's id, and the
 * server remembers labels by it (web/server/label-memory.ts).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DICE_SETS, type DiceSetId } from '../../shared/dice.js';
import { decodeImage, encodePng } from '../image/decode.js';
import type { RgbImage } from '../types.js';

export interface PendingCrop {
  face: string;
  crop: RgbImage;
  /** Where it is kept. */
  file: string;
  /** Its number (`<n>-<face>.png`): unique in the set's folder while it is there. */
  seq: number;
}

const NAME = /^(\d{1,9})-([A-Za-z0-9]+)\.png$/;

const folderOf = (dir: string, set: DiceSetId) => path.join(dir, 'pending', set);
/** A crop's file: `<dir>/pending/<set>/<seq, six digits>-<face>.png` (what `add` writes, what the server's label memory removes). */
export const pendingCropFile = (dir: string, set: DiceSetId, seq: number, face: string) => path.join(folderOf(dir, set), `${String(seq).padStart(6, '0')}-${face}.png`);

/** The number of a crop's file (`<n>-<face>.png`), as `add` returned it or `load` found it; undefined for a name of no crop. */
export function pendingNumber(file: string): number | undefined {
  const m = NAME.exec(path.basename(file));
  return m ? Number(m[1]) : undefined;
}

/** The files of a set's folder, those named as crops parsed (`seq`, `face`) and in order, the others apart. */
async function namesIn(folder: string): Promise<{ named: { name: string; seq: number; face: string }[]; other: string[] }> {
  const names = existsSync(folder) ? await readdir(folder) : [];
  const named: { name: string; seq: number; face: string }[] = [];
  const other: string[] = [];
  for (const name of names) {
    const m = NAME.exec(name);
    if (m) named.push({ name, seq: Number(m[1]), face: m[2]! });
    else other.push(name);
  }
  named.sort((a, b) => a.seq - b.seq);
  return { named, other };
}

/**
 * The set's pending crops per face as their names say, without reading them (what a table shows
 * before its reader has loaded).
 */
export async function countPendingOnDisk(dir: string, set: DiceSetId): Promise<Record<string, number>> {
  const counts: Record<string, number> = Object.fromEntries(DICE_SETS[set].faces.map((f) => [f, 0]));
  for (const { face } of await listPendingOnDisk(dir, set)) if (Object.hasOwn(counts, face)) counts[face]!++;
  return counts;
}

/** The set's crops on disk as their names say (number and face), in order, without reading them. */
export async function listPendingOnDisk(dir: string, set: DiceSetId): Promise<{ seq: number; face: string }[]> {
  return (await namesIn(folderOf(dir, set))).named.map(({ seq, face }) => ({ seq, face }));
}

export class PendingCropStore {
  /** The next number per set (one more than the largest on disk when the set was first used). */
  private readonly next = new Map<DiceSetId, number>();

  constructor(readonly dir: string) {}

  private folder(set: DiceSetId): string {
    return folderOf(this.dir, set);
  }

  /**
   * The set's crops in the order they were given. A file that is not a crop of this set (a
   * torn write, a face the set lacks, another size) is left where it is and reported in
   * `problems`, so nothing is deleted that a person might want back.
   */
  async load(set: DiceSetId, size: number): Promise<{ crops: PendingCrop[]; problems: string[] }> {
    const folder = this.folder(set);
    const crops: PendingCrop[] = [];
    const problems: string[] = [];
    const { named, other } = await namesIn(folder);
    // Temporary files of a write the plug cut short are expected; anything else is reported.
    for (const name of other) if (!name.includes('.tmp-')) problems.push(`${path.join(folder, name)}: not a labelled crop (<number>-<face>.png)`);
    for (const { name, seq, face } of named) {
      const file = path.join(folder, name);
      if (!DICE_SETS[set].faces.includes(face)) {
        problems.push(`${file}: "${face}" is not a face of ${set}`);
        continue;
      }
      let crop: RgbImage;
      try {
        crop = await decodeImage(new Uint8Array(await readFile(file)));
      } catch (error) {
        problems.push(`${file}: ${(error as Error).message}`);
        continue;
      }
      if (crop.width !== size || crop.height !== size) {
        problems.push(`${file}: ${crop.width}×${crop.height}, not a ${size}×${size} crop`);
        continue;
      }
      crops.push({ face, crop, file, seq });
    }
    const last = named.at(-1)?.seq ?? -1;
    this.next.set(set, Math.max(this.next.get(set) ?? 0, last + 1));
    return { crops, problems };
  }

  /** Keeps one more crop of the set; returns its file. */
  async add(set: DiceSetId, face: string, crop: RgbImage): Promise<string> {
    if (!DICE_SETS[set].faces.includes(face)) throw new Error(`"${face}" is not a face of ${set}`);
    const folder = this.folder(set);
    await mkdir(folder, { recursive: true });
    // Numbered after every file already there, readable or not (their names say, nothing is read).
    const seq = this.next.get(set) ?? ((await namesIn(folder)).named.at(-1)?.seq ?? -1) + 1;
    this.next.set(set, seq + 1);
    const file = pendingCropFile(this.dir, set, seq, face);
    const tmp = `${file}.tmp-${process.pid}`;
    await writeFile(tmp, await encodePng(crop));
    await rename(tmp, file);
    return file;
  }

  /** Forgets these crops (used by a commit). */
  async remove(files: readonly string[]): Promise<void> {
    for (const file of files) await rm(file, { force: true });
  }

  /**
   * Forgets every crop of the set (and whatever else is in its folder). The numbering goes on,
   * so a crop added later never takes the name of one a caller still holds.
   */
  async clear(set: DiceSetId): Promise<void> {
    await rm(this.folder(set), { recursive: true, force: true });
  }
}
