/**
 * From classifier logits to a face: pure functions. The net scores every visual class; only the
 * classes of the dice sets in play may win (a d6 never reads "worm"), so the others are masked
 * out before the softmax, and the softmax is tempered by the calibrated temperature.
 */
import type { DiceSetId } from '../../shared/dice.js';
import { FACE_CLASSES, classesOfSets, faceOf, type FaceClass } from '../faces/classes.js';

/** true for each FACE_CLASSES index that a die of one of `sets` can show. */
export function classMask(sets: readonly DiceSetId[]): boolean[] {
  if (sets.length === 0) throw new Error('read dice: name at least one dice set (e.g. "d6")');
  const allowed = new Set<FaceClass>(classesOfSets(sets));
  return FACE_CLASSES.map((c) => allowed.has(c));
}

/** Softmax over the allowed classes of logits/temperature; masked classes get probability 0. */
export function maskedSoftmax(logits: ArrayLike<number>, mask: readonly boolean[], temperature = 1): Float64Array {
  if (logits.length !== mask.length) throw new Error(`maskedSoftmax: ${logits.length} logits for ${mask.length} classes`);
  if (!(temperature > 0)) throw new Error(`maskedSoftmax: temperature must be positive, got ${temperature}`);
  let max = -Infinity;
  for (let i = 0; i < mask.length; i++) if (mask[i] && logits[i]! > max) max = logits[i]!;
  const out = new Float64Array(mask.length);
  if (max === -Infinity) throw new Error('maskedSoftmax: every class is masked out');
  let sum = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const e = Math.exp((logits[i]! - max) / temperature);
    out[i] = e;
    sum += e;
  }
  for (let i = 0; i < out.length; i++) out[i]! /= sum;
  return out;
}

export function argmax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

export interface FaceGuess {
  set: DiceSetId;
  face: string;
  cls: FaceClass;
  confidence: number;
}

/** The most probable class as a face label of the first set in play that has it. */
export function bestFace(probs: ArrayLike<number>, sets: readonly DiceSetId[]): FaceGuess {
  const k = argmax(probs);
  const cls = FACE_CLASSES[k]!;
  for (const set of sets) {
    const face = faceOf(set, cls);
    if (face !== undefined) return { set, face, cls, confidence: probs[k]! };
  }
  throw new Error(`bestFace: class ${cls} belongs to none of the sets ${sets.join(', ')} (was the mask applied?)`);
}
