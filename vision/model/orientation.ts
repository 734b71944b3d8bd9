/**
 * Which quarter turn of a crop is upright, for an upright model reading a picture whose up is not
 * known (view 'any': a photo from a dataset, a crop from somebody else's overhead camera).
 *
 * A linear head on the net's embedding says, for a crop, which quarter turn (0–3) it has been
 * turned by from upright. It is fitted after training on rendered upright crops, each seen in its
 * four turns, with the net frozen: the embedding of an upright model already holds where the side
 * faces show, so no retraining is needed. At read time each die is read in its four turns and the
 * readings are averaged, each weighted by how upright the head finds that turn
 * (docs/notes/vision-model.md, "Pictures whose up is not known").
 */
import { z } from 'zod';
import { maskedSoftmax } from './postprocess.js';

export const OrientationHeadSchema = z.object({
  /** Per embedding dimension: the fitting data's mean and standard deviation (features are standardised). */
  mean: z.array(z.number()),
  scale: z.array(z.number().positive()),
  /** 4 rows of `mean.length` weights: row k scores "turned by k quarter turns from upright". */
  weights: z.array(z.array(z.number())).length(4),
  bias: z.array(z.number()).length(4),
  /**
   * The mixture of four turns is less sure than one upright reading (turns that are not upright
   * disagree), so its probabilities are sharpened, p^(1/temperature) renormalised, with a
   * temperature fitted on the validation split read so. Absent: 1.
   */
  temperature: z.number().positive().optional(),
});

export type OrientationHead = z.infer<typeof OrientationHeadSchema>;

/** Every one of the four turns allowed (a softmax over all four). */
const ALL_TURNS = [true, true, true, true];

/** The head's dimension, checked: every row as long as the mean. */
export function orientationDim(head: OrientationHead): number {
  const dim = head.mean.length;
  if (head.scale.length !== dim || head.weights.some((w) => w.length !== dim)) {
    throw new Error(`orientation head: mean, scale and weight rows must all have ${dim} values`);
  }
  return dim;
}

/** P(the crop was turned by k quarter turns from upright), k = 0–3, from its embedding. */
export function turnProbabilities(head: OrientationHead, embedding: ArrayLike<number>): Float64Array {
  const dim = head.mean.length;
  if (embedding.length !== dim) throw new Error(`orientation head: embedding has ${embedding.length} values, the head takes ${dim}`);
  const scores = new Float64Array(4);
  for (let k = 0; k < 4; k++) {
    const w = head.weights[k]!;
    let s = head.bias[k]!;
    for (let d = 0; d < dim; d++) s += (w[d]! * (embedding[d]! - head.mean[d]!)) / head.scale[d]!;
    scores[k] = s;
  }
  return maskedSoftmax(scores, ALL_TURNS);
}

/**
 * Weights for reading one die in its four quarter turns: `embeddings[t]` is the die's embedding
 * turned by t, and its weight is how likely that turn is upright (turn probability 0), the four
 * normalised to sum to 1.
 */
export function uprightWeights(head: OrientationHead, embeddings: readonly ArrayLike<number>[]): Float64Array {
  if (embeddings.length !== 4) throw new Error(`uprightWeights: one embedding per quarter turn (4), got ${embeddings.length}`);
  const up = Float64Array.from(embeddings, (e) => turnProbabilities(head, e)[0]!);
  const sum = up.reduce((a, b) => a + b, 0);
  return sum > 0 ? up.map((u) => u / sum) : new Float64Array(4).fill(0.25);
}

/**
 * A die's probabilities read in view 'any': each turn's probabilities (already masked to the sets
 * in play) weighted by `uprightWeights`, then sharpened by `temperature` over the mask.
 */
export function mixTurns(probsByTurn: readonly ArrayLike<number>[], weights: ArrayLike<number>, mask: readonly boolean[], temperature = 1): Float64Array {
  if (probsByTurn.length !== weights.length) throw new Error(`mixTurns: ${probsByTurn.length} readings for ${weights.length} weights`);
  return maskedSoftmax(mixedLogits(probsByTurn, weights, mask), mask, temperature);
}

/** The log of the weighted mixture over the mask (what `mixTurns` sharpens; a temperature is fitted on it). */
export function mixedLogits(probsByTurn: readonly ArrayLike<number>[], weights: ArrayLike<number>, mask: readonly boolean[]): Float64Array {
  const out = new Float64Array(mask.length).fill(-1e9);
  for (let c = 0; c < mask.length; c++) {
    if (!mask[c]) continue;
    let p = 0;
    probsByTurn.forEach((probs, t) => { p += weights[t]! * probs[c]!; });
    out[c] = Math.log(Math.max(p, 1e-12));
  }
  return out;
}

export interface FitOrientationOptions {
  /** Full-batch Adam steps (default 60). */
  steps?: number;
  learningRate?: number;
  /** L2 penalty on the weights (default 1e-4). */
  l2?: number;
}

export interface FittedOrientation {
  head: OrientationHead;
  /** Share of the fitting crops × turns whose turn the head names right. */
  accuracy: number;
  /** Mean cross-entropy on them after fitting. */
  loss: number;
}

/**
 * Fits the head: `byTurn[k][i]` is crop i's embedding after turning it k quarter turns from
 * upright. Full-batch Adam from zero weights in a fixed order, so the result depends only on the
 * embeddings (a training run reproduces it).
 */
export function fitOrientationHead(byTurn: readonly (readonly ArrayLike<number>[])[], options: FitOrientationOptions = {}): FittedOrientation {
  if (byTurn.length !== 4) throw new Error(`fitOrientationHead: embeddings for the 4 quarter turns, got ${byTurn.length}`);
  const n = byTurn[0]!.length;
  if (n === 0 || byTurn.some((t) => t.length !== n)) throw new Error('fitOrientationHead: the same crops, at least one, in every turn');
  const dim = byTurn[0]![0]!.length;
  const steps = options.steps ?? 60, lr = options.learningRate ?? 0.01, l2 = options.l2 ?? 1e-4;
  const total = 4 * n;

  const mean = new Float64Array(dim), scale = new Float64Array(dim);
  for (const turn of byTurn) for (const e of turn) {
    if (e.length !== dim) throw new Error(`fitOrientationHead: embeddings of ${e.length} and ${dim} values`);
    for (let d = 0; d < dim; d++) mean[d]! += e[d]! / total;
  }
  for (const turn of byTurn) for (const e of turn) for (let d = 0; d < dim; d++) scale[d]! += (e[d]! - mean[d]!) ** 2 / total;
  for (let d = 0; d < dim; d++) scale[d] = Math.sqrt(scale[d]!) + 1e-6;
  const x = new Float64Array(total * dim);
  const y = new Uint8Array(total);
  byTurn.forEach((turn, k) => turn.forEach((e, i) => {
    const row = k * n + i;
    y[row] = k;
    for (let d = 0; d < dim; d++) x[row * dim + d] = (e[d]! - mean[d]!) / scale[d]!;
  }));

  const w = new Float64Array(4 * dim), b = new Float64Array(4);
  const mw = new Float64Array(4 * dim), vw = new Float64Array(4 * dim), mb = new Float64Array(4), vb = new Float64Array(4);
  const gw = new Float64Array(4 * dim), gb = new Float64Array(4);
  const p = new Float64Array(4);
  const pass = (grad: boolean): { loss: number; right: number } => {
    let loss = 0, right = 0;
    if (grad) { gw.fill(0); gb.fill(0); }
    for (let r = 0; r < total; r++) {
      const o = r * dim;
      let best = 0;
      for (let k = 0; k < 4; k++) {
        let s = b[k]!;
        for (let d = 0; d < dim; d++) s += w[k * dim + d]! * x[o + d]!;
        p[k] = s;
        if (s > p[best]!) best = k;
      }
      if (best === y[r]) right++;
      const max = p[best]!;
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += (p[k] = Math.exp(p[k]! - max));
      for (let k = 0; k < 4; k++) p[k]! /= sum;
      loss -= Math.log(p[y[r]!]! + 1e-12);
      if (!grad) continue;
      for (let k = 0; k < 4; k++) {
        const g = (p[k]! - (k === y[r] ? 1 : 0)) / total;
        gb[k]! += g;
        for (let d = 0; d < dim; d++) gw[k * dim + d]! += g * x[o + d]!;
      }
    }
    return { loss: loss / total, right };
  };
  const adam = (param: Float64Array, grad: Float64Array, m: Float64Array, v: Float64Array, t: number, decay: number) => {
    for (let j = 0; j < param.length; j++) {
      const g = grad[j]! + decay * param[j]!;
      m[j] = 0.9 * m[j]! + 0.1 * g;
      v[j] = 0.999 * v[j]! + 0.001 * g * g;
      param[j]! -= (lr * (m[j]! / (1 - 0.9 ** t))) / (Math.sqrt(v[j]! / (1 - 0.999 ** t)) + 1e-8);
    }
  };
  for (let t = 1; t <= steps; t++) {
    pass(true);
    adam(w, gw, mw, vw, t, l2);
    adam(b, gb, mb, vb, t, 0);
  }
  const end = pass(false);
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return {
    head: {
      mean: Array.from(mean, round),
      scale: Array.from(scale, round),
      weights: [0, 1, 2, 3].map((k) => Array.from(w.subarray(k * dim, (k + 1) * dim), round)),
      bias: Array.from(b, round),
    },
    accuracy: end.right / total,
    loss: end.loss,
  };
}
