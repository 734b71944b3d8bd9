/**
 * A rendered split read the way the reader reads dice of a known set in view `side`: masked to
 * the die's own set, tempered, and a doubtful die read again (closer, and the second look's extra
 * views). eval:dice scores the synthetic test split with it, and eval:errors samples the errors
 * it leaves, so both speak of the same reads.
 */
import { DICE_SET_IDS } from '../../shared/dice.js';
import type { RgbImage } from '../types.js';
import { mirrorSafeSet } from './augment.js';
import { scoreWithSecondLook, type Scorer } from './classifier.js';
import { CROP_PIXELS } from './dataset.js';
import type { CropSet } from './dataset-store.js';
import { argmax, classMask, maskedSoftmax } from './postprocess.js';

export interface SplitReadingOptions {
  temperature: number;
  /** A die whose surest face is below this is read again (the reader's `secondLookBelow`). */
  secondLookBelow: number;
  /** Whether the second look takes its extra views (the reader's `secondLookExtra`). */
  extraLooks: boolean;
}

export interface SplitReading {
  /** Per crop: the logits over FACE_CLASSES after any second look. */
  logits: Float32Array[];
  /** Per crop: the class read (FACE_CLASSES index), its tempered confidence within the set, and whether it is the true class. */
  read: number[];
  confidence: number[];
  right: boolean[];
  /** How many crops were read a second time. */
  lookedAgain: number;
}

/** The dice sets (DICE_SET_IDS indices) whose every face is its own mirror image: their second look is mirrored. */
const MIRROR_SETS: ReadonlySet<number> = new Set(DICE_SET_IDS.flatMap((set, s) => (mirrorSafeSet(set) ? [s] : [])));

/** The split's crops as images (views into its pixels, not copies). */
export function splitCrops(data: CropSet): RgbImage[] {
  return Array.from({ length: data.count }, (_, i) => ({ width: 64, height: 64, data: data.pixels.subarray(i * CROP_PIXELS, (i + 1) * CROP_PIXELS) }));
}

export function readSplit(classifier: Scorer, data: CropSet, options: SplitReadingOptions): SplitReading {
  const masks = DICE_SET_IDS.map((s) => classMask([s]));
  const maskOf = (i: number) => masks[data.sets[i]!]!;
  const unsure = (l: Float32Array, _e: Float32Array, i: number) => Math.max(...maskedSoftmax(l, maskOf(i), options.temperature)) < options.secondLookBelow;
  const scores = scoreWithSecondLook(classifier, splitCrops(data), unsure, undefined, (i) => (!options.extraLooks ? 'none' : MIRROR_SETS.has(data.sets[i]!) ? 'mirror' : 'shift'));
  const probs = scores.logits.map((l, i) => maskedSoftmax(l, maskOf(i), options.temperature));
  const read = probs.map((p) => argmax(p));
  return {
    logits: scores.logits,
    read,
    confidence: probs.map((p, i) => p[read[i]!]!),
    right: read.map((c, i) => c === data.classes[i]),
    lookedAgain: scores.lookedAgain.length,
  };
}
