/**
 * "Teach clew your dice": adapt the classifier to the dice actually in play from a few labelled
 * crops per face. Pure functions over embeddings (the global-pool features of the net).
 *
 * The net's last layer scores class c as W_c·e + b_c. Calibration refits those rows for the
 * faces of ONE dice set on the labelled crops (each seen in several augmented views), by
 * gradient descent on the cross-entropy plus a pull towards the shipped weights (so five crops
 * per face adapt the boundary instead of memorising the crops). The result is a small JSON
 * document, applied on every later read of that set.
 */
import { DICE_SETS, type DiceSetId } from '../../shared/dice.js';
import { FACE_CLASSES, classOf, type FaceClass } from '../faces/classes.js';

export const CALIBRATION_VERSION = 2;

export interface Calibration {
  /** 1: refitted rows only; 2: may carry an adapted net. */
  version: 1 | 2;
  set: DiceSetId;
  /** Which model the embeddings came from; a calibration of another model is not applied. */
  modelId: string;
  createdAt: string;
  /** Labelled crops used per face label. */
  counts: Record<string, number>;
  /** The set's classes, in the order of the rows below. */
  classes: FaceClass[];
  /** classes.length rows of `dim` weights, and a bias per class. */
  weights: number[][];
  bias: number[];
  /** Training fit: accuracy on the labelled views, for the record. */
  fitAccuracy: number;
  /**
   * A copy of the whole net adapted to this set's dice (adapt.ts): its weights in float16,
   * base64 (`encodeWeights`), and the training steps it took. The set's faces are then read by
   * that net; `weights`/`bias` are its own last-layer rows, for the record.
   */
  net?: { weights: string; steps: number };
  /**
   * What the taught pictures of one die (those given without a view: a folder of crops, say) said
   * about the camera that took them: the summed log-likelihood of each camera hypothesis
   * (`cameraEvidence`, CAMERA_HYPOTHESES order), how many pictures, and the up they share (a
   * `turnSquare` turn; null for none: calibrations.ts, `pictureUp`). Where they share one,
   * pictures of the set read later in view 'any' take `camera` as their prior
   * (docs/notes/vision-model.md, "The taught pictures' up"). Absent where no picture was taught so.
   */
  pictures?: { camera: number[]; count: number; up: number | null };
}

export interface LabelledEmbedding {
  face: string;
  embedding: ArrayLike<number>;
}

export interface Head {
  /** [dim][classes] row-major, as tfjs stores a dense kernel. */
  weights: Float32Array;
  bias: Float32Array;
  dim: number;
}

export interface FitOptions {
  /** Strength of the pull towards the shipped weights, relative to the mean squared embedding norm. */
  prior?: number;
  iterations?: number;
}

function classIndex(cls: FaceClass): number {
  return FACE_CLASSES.indexOf(cls);
}

/**
 * Fits the set's rows of the head. Every face of the set needs at least one example; faces
 * given that are not the set's are refused with their name.
 */
export function fitCalibration(set: DiceSetId, samples: readonly LabelledEmbedding[], head: Head, meta: { modelId: string; createdAt: string }, options: FitOptions = {}): Calibration {
  for (const s of samples) {
    if (s.embedding.length !== head.dim) throw new Error(`calibration: an embedding has ${s.embedding.length} values, the model's have ${head.dim}`);
  }
  const counts = countExamples(set, samples.map((s) => s.face));
  const faces = DICE_SETS[set].faces;
  const classes = faces.map((f) => classOf(set, f));
  const k = classes.length;
  const dim = head.dim;
  const n = samples.length;
  const { weights: w0, bias: b0 } = headRows(head, classes);
  const w = w0.map((r) => Float64Array.from(r));
  const b = Float64Array.from(b0);
  const labels = samples.map((s) => faces.indexOf(s.face));
  const xs = samples.map((s) => Float64Array.from(s.embedding));
  const meanSq = xs.reduce((a, x) => a + x.reduce((p, v) => p + v * v, 0), 0) / n;
  const lambda = (options.prior ?? 0.05) * meanSq;
  // Softmax cross-entropy is (1/2)·E|x|²-smooth in W: a safe fixed step for gradient descent.
  const step = 1 / (0.5 * (meanSq + 1) + 2 * lambda);
  const iterations = options.iterations ?? 400;
  const gw = w.map(() => new Float64Array(dim));
  const gb = new Float64Array(k);
  const z = new Float64Array(k);
  for (let it = 0; it < iterations; it++) {
    gw.forEach((g) => g.fill(0));
    gb.fill(0);
    for (let i = 0; i < n; i++) {
      const x = xs[i]!;
      let max = -Infinity;
      for (let c = 0; c < k; c++) {
        let v = b[c]!;
        const wc = w[c]!;
        for (let d = 0; d < dim; d++) v += wc[d]! * x[d]!;
        z[c] = v;
        if (v > max) max = v;
      }
      let sum = 0;
      for (let c = 0; c < k; c++) sum += (z[c] = Math.exp(z[c]! - max));
      for (let c = 0; c < k; c++) {
        const g = z[c]! / sum - (c === labels[i] ? 1 : 0);
        gb[c]! += g / n;
        const gc = gw[c]!;
        for (let d = 0; d < dim; d++) gc[d]! += (g * x[d]!) / n;
      }
    }
    for (let c = 0; c < k; c++) {
      const wc = w[c]!, gc = gw[c]!, w0c = w0[c]!;
      for (let d = 0; d < dim; d++) wc[d]! -= step * (gc[d]! + 2 * lambda * (wc[d]! - w0c[d]!));
      b[c]! -= step * gb[c]!;
    }
  }
  let hits = 0;
  for (let i = 0; i < n; i++) {
    const scores = w.map((wc, c) => wc.reduce((a, v, d) => a + v * xs[i]![d]!, b[c]!));
    if (scores.indexOf(Math.max(...scores)) === labels[i]) hits++;
  }
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return {
    version: 1,
    set,
    modelId: meta.modelId,
    createdAt: meta.createdAt,
    counts,
    classes,
    weights: w.map((r) => Array.from(r, round)),
    bias: Array.from(b, round),
    fitAccuracy: hits / n,
  };
}

/** The rows of `classes` in a head: each class's weights over the embedding, and its bias. */
export function headRows(head: Head, classes: readonly FaceClass[]): { weights: Float64Array[]; bias: number[] } {
  const n = head.bias.length;
  return {
    weights: classes.map((c) => Float64Array.from({ length: head.dim }, (_, d) => head.weights[d * n + classIndex(c)]!)),
    bias: classes.map((c) => head.bias[classIndex(c)]!),
  };
}

/**
 * Labelled examples per face of `set`. Refuses a face the set does not have, and a set with a
 * face nobody taught (a calibration must know every face), naming them.
 */
export function countExamples(set: DiceSetId, faces: readonly string[]): Record<string, number> {
  const def = DICE_SETS[set];
  if (!def) throw new Error(`calibration: unknown dice set "${String(set)}"`);
  const counts: Record<string, number> = Object.fromEntries(def.faces.map((f) => [f, 0]));
  for (const face of faces) {
    if (!def.faces.includes(face)) throw new Error(`calibration: "${face}" is not a face of ${set} (faces: ${def.faces.join(', ')})`);
    counts[face]!++;
  }
  const missing = def.faces.filter((f) => counts[f] === 0);
  if (missing.length) throw new Error(`calibration of ${set} needs at least one crop of every face; missing: ${missing.join(', ')}`);
  return counts;
}

/** A calibrated set's say in a die's logits: its refitted rows, or its adapted net's logits. */
export interface CalibrationSource {
  calibration: Calibration;
  /** The adapted net's logits for this die (calibrations with a `net`). */
  logits?: ArrayLike<number>;
}

/**
 * A die's logits for the sets in play. Each calibrated set scores its own classes: with its
 * adapted net's logits, or with its refitted rows on the shipped net's embedding. A class that
 * several calibrated sets in play share gets the mean of their scores; every other class keeps
 * the shipped net's logit (`base`; null when every set in play has its own net, and then the
 * classes of no set in play are 0, masked away anyway).
 */
export function calibratedLogits(base: ArrayLike<number> | null, embedding: ArrayLike<number> | null, sources: readonly CalibrationSource[]): Float64Array {
  const out = base ? Float64Array.from(base) : new Float64Array(FACE_CLASSES.length);
  const sums = new Map<number, { total: number; n: number }>();
  for (const { calibration: cal, logits } of sources) {
    cal.classes.forEach((cls, c) => {
      const k = classIndex(cls);
      let v: number;
      if (logits) v = logits[k]!;
      else {
        if (!embedding) throw new Error(`calibration of ${cal.set}: its rows need the shipped net's embedding`);
        const row = cal.weights[c]!;
        if (row.length !== embedding.length) throw new Error(`calibration of ${cal.set}: ${row.length} weights per class for an embedding of ${embedding.length}`);
        v = cal.bias[c]!;
        for (let d = 0; d < row.length; d++) v += row[d]! * embedding[d]!;
      }
      const s = sums.get(k) ?? { total: 0, n: 0 };
      s.total += v;
      s.n++;
      sums.set(k, s);
    });
  }
  for (const [k, s] of sums) out[k] = s.total / s.n;
  return out;
}
