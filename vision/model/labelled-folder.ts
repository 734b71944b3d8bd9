/**
 * Folders of labelled die pictures: `DIR/<face>/*.jpg` (one dice set: calibration, the CLI's
 * --calibration) and `DIR/<set>/<face>/*.jpg` (any sets: real crops an owner adds to training).
 * Each picture holds one die and is framed like every classifier input.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { DICE_SETS, DICE_SET_IDS, type DiceSetId } from '../../shared/dice.js';
import { decodeImage } from '../image/decode.js';
import type { RgbImage } from '../types.js';
import { frameDieImage, type FramingMode } from './framing.js';

/** The pictures `decodeImage` reads; other files (a folder's notes, `.DS_Store`) are skipped with a warning. */
const IMAGE = /\.(jpe?g|png|webp|gif|tiff?|avif)$/i;

export interface LabelledCrop {
  set: DiceSetId;
  face: string;
  file: string;
  /** The picture as decoded. */
  image: RgbImage;
  /** Framed for the classifier (64×64). */
  crop: RgbImage;
}

async function subdirs(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new Error(`cannot read the folder ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const out: string[] = [];
  for (const n of names.sort()) if ((await stat(path.join(dir, n))).isDirectory()) out.push(n);
  return out;
}

async function readFace(set: DiceSetId, face: string, dir: string, framing: FramingMode): Promise<LabelledCrop[]> {
  const names = await readdir(dir);
  const files = names.filter((f) => IMAGE.test(f)).sort();
  const skipped = names.filter((f) => !IMAGE.test(f) && !f.startsWith('.'));
  if (skipped.length > 0) process.emitWarning(`${dir}: ${skipped.length === 1 ? `"${skipped[0]}" is` : `${skipped.length} files are`} not a picture clew reads (JPEG, PNG, WebP, GIF, TIFF, AVIF); skipped`);
  const out: LabelledCrop[] = [];
  for (const f of files) {
    const file = path.join(dir, f);
    let image: RgbImage;
    try {
      image = await decodeImage(new Uint8Array(await readFile(file)));
    } catch (error) {
      throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    out.push({ set, face, file, image, crop: frameDieImage(image, framing, {}, {}, { count: false }).crop });
  }
  return out;
}

/** `DIR/<face>/*.jpg` for one set; every sub-folder must be a face of the set. */
export async function readFaceFolders(set: DiceSetId, dir: string, framing: FramingMode = 'whole'): Promise<LabelledCrop[]> {
  const faces = DICE_SETS[set].faces;
  const out: LabelledCrop[] = [];
  const found = await subdirs(dir);
  const unknown = found.filter((f) => !faces.includes(f));
  if (unknown.length) throw new Error(`${dir}: ${unknown.map((u) => `"${u}"`).join(', ')} ${unknown.length > 1 ? 'are not faces' : 'is not a face'} of ${set} (faces: ${faces.join(', ')})`);
  for (const face of found) out.push(...(await readFace(set, face, path.join(dir, face), framing)));
  if (out.length === 0) throw new Error(`${dir}: no labelled pictures (expected ${dir}/<face>/*.jpg with faces ${faces.join(', ')})`);
  return out;
}

/** `DIR/<set>/<face>/*.jpg` for any sets. */
export async function readSetFolders(dir: string, framing: FramingMode = 'whole'): Promise<LabelledCrop[]> {
  const out: LabelledCrop[] = [];
  for (const set of await subdirs(dir)) {
    if (!DICE_SET_IDS.includes(set as DiceSetId)) throw new Error(`${dir}: "${set}" is not a dice set (${DICE_SET_IDS.join(', ')})`);
    out.push(...(await readFaceFolders(set as DiceSetId, path.join(dir, set), framing)));
  }
  return out;
}
