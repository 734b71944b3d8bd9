/**
 * Scoring a classifier on labelled synthetic crops (pure): accuracy per dice set with the
 * classifier masked to that set, as the reader uses it, and the calibration error of the
 * tempered confidence.
 */
import { DICE_SET_IDS, type DiceSetId } from '../../shared/dice.js';
import { FACE_CLASSES } from '../faces/classes.js';
import { classMask } from './postprocess.js';
import { expectedCalibrationError, fitTemperature, outcomes, type Scored } from './temperature.js';

export interface Labelled {
  count: number;
  classes: ArrayLike<number>;
  /** Index into DICE_SET_IDS of the set each die was drawn from. */
  sets: ArrayLike<number>;
}

export interface SetScore {
  n: number;
  correct: number;
  accuracy: number;
}

const MASKS = new Map<DiceSetId, boolean[]>(DICE_SET_IDS.map((s) => [s, classMask([s])]));

/** Each crop scored with the mask of the set its die belongs to. */
export function scoredItems(logits: Float32Array, data: Labelled): Scored[] {
  const k = FACE_CLASSES.length;
  if (logits.length !== data.count * k) throw new Error(`scoredItems: ${logits.length} logits for ${data.count} crops`);
  return Array.from({ length: data.count }, (_, i) => ({
    logits: logits.subarray(i * k, (i + 1) * k),
    label: data.classes[i]!,
    mask: MASKS.get(DICE_SET_IDS[data.sets[i]!]!)!,
  }));
}

export interface Evaluation {
  perSet: Record<string, SetScore>;
  overall: SetScore;
  /** Accuracy over all 28 classes with no mask (harder than any set). */
  unmasked: number;
  ece: number;
  temperature: number;
}

export function evaluate(logits: Float32Array, data: Labelled, temperature: number): Evaluation {
  const items = scoredItems(logits, data);
  const res = outcomes(items, temperature);
  const perSet: Record<string, SetScore> = {};
  for (const set of DICE_SET_IDS) perSet[set] = { n: 0, correct: 0, accuracy: 0 };
  res.forEach((r, i) => {
    const s = perSet[DICE_SET_IDS[data.sets[i]!]!]!;
    s.n++;
    if (r.correct) s.correct++;
  });
  for (const s of Object.values(perSet)) s.accuracy = s.n ? s.correct / s.n : 0;
  const correct = res.filter((r) => r.correct).length;
  const all = FACE_CLASSES.map(() => true);
  const unmasked = outcomes(items.map((it) => ({ ...it, mask: all })), 1).filter((r) => r.correct).length / items.length;
  return {
    perSet,
    overall: { n: items.length, correct, accuracy: correct / items.length },
    unmasked,
    ece: expectedCalibrationError(res.map((r) => r.confidence), res.map((r) => r.correct)),
    temperature,
  };
}

/** The temperature fitted on held-out crops, each masked to its set. */
export function fitTemperatureOn(logits: Float32Array, data: Labelled): number {
  return fitTemperature(scoredItems(logits, data));
}
