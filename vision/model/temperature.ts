/**
 * Confidence calibration (pure): temperature scaling fitted on held-out crops (Guo et al. 2017),
 * and the expected calibration error that says how well confidence matches accuracy.
 */
import { maskedSoftmax, argmax } from './postprocess.js';

export interface Scored {
  logits: ArrayLike<number>;
  label: number;
  mask: readonly boolean[];
}

/** Mean negative log-likelihood of the labels at a temperature. */
export function meanNll(items: readonly Scored[], temperature: number): number {
  let total = 0;
  for (const it of items) total -= Math.log(Math.max(1e-12, maskedSoftmax(it.logits, it.mask, temperature)[it.label]!));
  return total / items.length;
}

/** The temperature in [0.05, 20] minimising the NLL (golden-section search on log T). */
export function fitTemperature(items: readonly Scored[]): number {
  if (items.length === 0) throw new Error('fitTemperature: no held-out crops');
  let lo = Math.log(0.05);
  let hi = Math.log(20);
  const phi = (Math.sqrt(5) - 1) / 2;
  let a = hi - phi * (hi - lo);
  let b = lo + phi * (hi - lo);
  let fa = meanNll(items, Math.exp(a));
  let fb = meanNll(items, Math.exp(b));
  for (let i = 0; i < 60; i++) {
    if (fa < fb) {
      hi = b; b = a; fb = fa; a = hi - phi * (hi - lo); fa = meanNll(items, Math.exp(a));
    } else {
      lo = a; a = b; fa = fb; b = lo + phi * (hi - lo); fb = meanNll(items, Math.exp(b));
    }
  }
  return Math.exp((lo + hi) / 2);
}

/** Expected calibration error over equal-width confidence bins (default 15). */
export function expectedCalibrationError(confidences: readonly number[], correct: readonly boolean[], bins = 15): number {
  if (confidences.length !== correct.length) throw new Error('ECE: confidences and outcomes differ in length');
  if (confidences.length === 0) return 0;
  const count = new Array<number>(bins).fill(0);
  const conf = new Array<number>(bins).fill(0);
  const hit = new Array<number>(bins).fill(0);
  confidences.forEach((c, i) => {
    const b = Math.min(bins - 1, Math.floor(c * bins));
    count[b]!++;
    conf[b]! += c;
    if (correct[i]) hit[b]!++;
  });
  let ece = 0;
  for (let b = 0; b < bins; b++) if (count[b]!) ece += (count[b]! / confidences.length) * Math.abs(hit[b]! / count[b]! - conf[b]! / count[b]!);
  return ece;
}

/** Confidence and correctness of each item at a temperature (for ECE and reports). */
export function outcomes(items: readonly Scored[], temperature: number): { confidence: number; correct: boolean }[] {
  return items.map((it) => {
    const p = maskedSoftmax(it.logits, it.mask, temperature);
    const k = argmax(p);
    return { confidence: p[k]!, correct: k === it.label };
  });
}
