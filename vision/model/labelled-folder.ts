/**
 * Folders of labelled die pictures: `DIR/<face>/*.jpg` (one dice set: calibration, the CLI's
 * --calibration) and `DIR/<set>/<face>/*.jpg` (any sets: real crops an owner adds to training).
 * Each picture holds one die and is framed like every classifier input.
 */
import { lstat, readdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import { DICE_SETS, DICE_SET_IDS, type DiceSetId } from '../../shared/dice.js';
import { decodeImage, readPictureFile } from '../image/decode.js';
import { READABLE_FORMATS } from '../image/failure.js';
import type { RgbImage } from '../types.js';
import { frameDieImage, type FramingMode } from './framing.js';

/** The pictures `decodeImage` reads; other files (a folder's notes, `.DS_Store`) are skipped with a warning. */
const IMAGE = /\.(jpe?g|png|webp|gif|tiff?|avif)$/i;
/** An iPhone's photos: skipped with the advice the decoder gives for them (failure.ts). */
const HEIC = /\.(heic|heif)$/i;
/** Folders no one made as faces: hidden ones, and those a Mac's zip (`__MACOSX`) or a Synology NAS (`@eaDir`) adds. */
const SYSTEM_FOLDER = /^(\.|__MACOSX$|@eaDir$)/;

export interface LabelledCrop {
  set: DiceSetId;
  face: string;
  file: string;
  /** The picture as decoded. */
  image: RgbImage;
  /** Framed for the classifier (64×64). */
  crop: RgbImage;
}

export interface FolderReadOptions {
  /**
   * Where files skipped are said (default: a process warning). A command line that may exit at
   * once after must write them at once: a process warning is emitted on the next tick, too late.
   */
  warn?: (message: string) => void;
}

/** Names in quotes, the first three of a longer list and how many more. */
const quoted = (names: string[]) => (names.length <= 4 ? names.map((n) => `"${n}"`) : [...names.slice(0, 3).map((n) => `"${n}"`), `${names.length - 3} more`]).join(', ');

/** A broken link said as one: `stat` answers only ENOENT, as if the name were not there. */
async function brokenLink(file: string): Promise<Error | null> {
  const isLink = await lstat(file).then((s) => s.isSymbolicLink(), () => false);
  return isLink ? new Error(`${file}: a broken link: what it points to (${await readlink(file).catch(() => '?')}) does not exist`) : null;
}

async function subdirs(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new Error(`cannot read the folder ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const out: string[] = [];
  for (const n of names.filter((n) => !SYSTEM_FOLDER.test(n)).sort()) {
    const entry = path.join(dir, n);
    const info = await stat(entry).catch(async (error: unknown) => {
      throw (await brokenLink(entry)) ?? new Error(`${entry}: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (info.isDirectory()) out.push(n);
  }
  return out;
}

async function readFace(set: DiceSetId, face: string, dir: string, framing: FramingMode): Promise<{ crops: LabelledCrop[]; skipped: string[] }> {
  const names = (await readdir(dir)).filter((f) => !f.startsWith('.'));
  const files = names.filter((f) => IMAGE.test(f)).sort();
  const heic = names.filter((f) => HEIC.test(f)).sort();
  const other = names.filter((f) => !IMAGE.test(f) && !HEIC.test(f)).sort();
  const why: string[] = [];
  if (heic.length > 0) {
    why.push(
      `${heic.length === 1 ? `${quoted(heic)} is an HEIC photo` : `${quoted(heic)} are HEIC photos`} (an iPhone camera's default format), which this build cannot decode: ` +
        `export ${heic.length === 1 ? 'it' : 'them'} as JPEG, or set the iPhone's Settings → Camera → Formats to "Most Compatible"`,
    );
  }
  if (other.length > 0) why.push(`${other.length === 1 ? `${quoted(other)} is` : `${quoted(other)} are`} not a picture clew reads (${READABLE_FORMATS})`);
  const crops: LabelledCrop[] = [];
  for (const f of files) {
    const file = path.join(dir, f);
    let image: RgbImage;
    try {
      image = await decodeImage(await readPictureFile(file));
    } catch (error) {
      throw new Error(`${file}: ${(error instanceof Error ? error.message : String(error)).replace(/^decodeImage: /, '')}`);
    }
    crops.push({ set, face, file, image, crop: frameDieImage(image, framing, {}, {}, { count: false }).crop });
  }
  // One line for the folder; one that gave no picture says so first, as its face will be missing.
  return { crops, skipped: why.length ? [`${dir}: ${crops.length === 0 ? 'no picture read: ' : ''}${why.join('; ')}; skipped`] : [] };
}

/** `DIR/<face>/*.jpg` for one set; every sub-folder must be a face of the set (hidden and system folders aside). */
export async function readFaceFolders(set: DiceSetId, dir: string, framing: FramingMode = 'whole', options: FolderReadOptions = {}): Promise<LabelledCrop[]> {
  const warn = options.warn ?? ((message: string) => process.emitWarning(message));
  const faces = DICE_SETS[set].faces;
  const out: LabelledCrop[] = [];
  const skipped: string[] = [];
  const found = await subdirs(dir);
  const unknown = found.filter((f) => !faces.includes(f));
  if (unknown.length) throw new Error(`${dir}: ${unknown.map((u) => `"${u}"`).join(', ')} ${unknown.length > 1 ? 'are not faces' : 'is not a face'} of ${set} (faces: ${faces.join(', ')})`);
  for (const face of found) {
    const read = await readFace(set, face, path.join(dir, face), framing);
    out.push(...read.crops);
    skipped.push(...read.skipped);
  }
  // Nothing read: why is the error itself, not a warning beside it.
  if (out.length === 0) throw new Error(`${dir}: no labelled pictures (expected ${dir}/<face>/*.jpg with faces ${faces.join(', ')})${skipped.length ? `. ${skipped.join('. ')}` : ''}`);
  for (const message of skipped) warn(message);
  return out;
}

/** `DIR/<set>/<face>/*.jpg` for any sets. */
export async function readSetFolders(dir: string, framing: FramingMode = 'whole', options: FolderReadOptions = {}): Promise<LabelledCrop[]> {
  const out: LabelledCrop[] = [];
  for (const set of await subdirs(dir)) {
    if (!DICE_SET_IDS.includes(set as DiceSetId)) throw new Error(`${dir}: "${set}" is not a dice set (${DICE_SET_IDS.join(', ')})`);
    out.push(...(await readFaceFolders(set as DiceSetId, path.join(dir, set), framing, options)));
  }
  return out;
}
