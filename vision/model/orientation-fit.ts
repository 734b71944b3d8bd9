/**
 * Fitting an upright model's orientation head after training (`npm run train`, also with
 * `--from-weights`): the head on crops of their own, each in its four quarter turns, then the
 * temperature that sharpens view 'any''s mixture, fitted on the validation crops read so, and
 * the test crops scored as view 'any' reads them (no second look).
 */
import type * as tf from '@tensorflow/tfjs';
import { DICE_SET_IDS } from '../../shared/dice.js';
import type { CropSet } from './dataset-store.js';
import { fitOrientationHead, mixedLogits, uprightWeights, type OrientationHead } from './orientation.js';
import { argmax, classMask, maskedSoftmax } from './postprocess.js';
import { expectedCalibrationError, fitTemperature, type Scored } from './temperature.js';
import { scoreTurns } from './trainer.js';

export interface FittedViewAny {
  /** The head, with the mixture's sharpening temperature. */
  head: OrientationHead & { temperature: number };
  /** Share of the fitting crops × turns whose turn the head names right. */
  turnAccuracy: number;
  crops: number;
  /** The test crops read in view 'any' (four turns mixed, sharpened). */
  test: { accuracy: number; ece: number };
}

/**
 * `temperature` is the model's own (meta.json), applied to each turn's logits before mixing, as
 * the reader does.
 */
export function fitViewAny(model: tf.LayersModel, data: { orient: CropSet; val: CropSet; test: CropSet }, temperature: number, steps: number): FittedViewAny {
  const fitted = fitOrientationHead(scoreTurns(model, data.orient).map((t) => t.embeddings), { steps });
  const masks = DICE_SET_IDS.map((s) => classMask([s]));
  const readAny = (set: CropSet): Scored[] => {
    const turns = scoreTurns(model, set);
    return Array.from({ length: set.count }, (_, i) => {
      const mask = masks[set.sets[i]!]!;
      const weights = uprightWeights(fitted.head, turns.map((t) => t.embeddings[i]!));
      return { logits: mixedLogits(turns.map((t) => maskedSoftmax(t.logits[i]!, mask, temperature)), weights, mask), label: set.classes[i]!, mask };
    });
  };
  const head = { ...fitted.head, temperature: Math.round(fitTemperature(readAny(data.val)) * 1e6) / 1e6 };
  const tested = readAny(data.test).map((it) => {
    const p = maskedSoftmax(it.logits, it.mask, head.temperature);
    const best = argmax(p);
    return { confidence: p[best]!, correct: best === it.label };
  });
  return {
    head,
    turnAccuracy: fitted.accuracy,
    crops: data.orient.count,
    test: {
      accuracy: tested.filter((t) => t.correct).length / tested.length,
      ece: expectedCalibrationError(tested.map((t) => t.confidence), tested.map((t) => t.correct)),
    },
  };
}
