/**
 * A tiny multilayer perceptron in plain TypeScript (one hidden ReLU layer, softmax out): the cell
 * classifier's model. Small enough that its weights live in a committed JSON file and a forward
 * pass over 100 cells takes well under a millisecond; trained with Adam by `train-cells.ts`.
 */
import type { Rng } from '../../shared/rng.js';

export interface MlpWeights {
  inputs: number;
  hidden: number;
  outputs: number;
  /** hidden x inputs, row-major. */
  w1: number[];
  b1: number[];
  /** outputs x hidden. */
  w2: number[];
  b2: number[];
  /** Per-input standardisation applied before the first layer. */
  mean: number[];
  scale: number[];
}

export function createMlp(rng: Rng, inputs: number, hidden: number, outputs: number): MlpWeights {
  const he1 = Math.sqrt(2 / inputs);
  const he2 = Math.sqrt(2 / hidden);
  return {
    inputs,
    hidden,
    outputs,
    w1: Array.from({ length: hidden * inputs }, () => rng.normal() * he1),
    b1: new Array<number>(hidden).fill(0),
    w2: Array.from({ length: outputs * hidden }, () => rng.normal() * he2),
    b2: new Array<number>(outputs).fill(0),
    mean: new Array<number>(inputs).fill(0),
    scale: new Array<number>(inputs).fill(1),
  };
}

/** Class probabilities for one input. */
export function predict(m: MlpWeights, x: ArrayLike<number>): Float64Array {
  const h = new Float64Array(m.hidden);
  for (let j = 0; j < m.hidden; j++) {
    let s = m.b1[j]!;
    const row = j * m.inputs;
    for (let i = 0; i < m.inputs; i++) s += m.w1[row + i]! * ((x[i]! - m.mean[i]!) * m.scale[i]!);
    h[j] = s > 0 ? s : 0;
  }
  const o = new Float64Array(m.outputs);
  let max = -Infinity;
  for (let k = 0; k < m.outputs; k++) {
    let s = m.b2[k]!;
    for (let j = 0; j < m.hidden; j++) s += m.w2[k * m.hidden + j]! * h[j]!;
    o[k] = s;
    if (s > max) max = s;
  }
  let z = 0;
  for (let k = 0; k < m.outputs; k++) {
    o[k] = Math.exp(o[k]! - max);
    z += o[k]!;
  }
  for (let k = 0; k < m.outputs; k++) o[k]! /= z;
  return o;
}

export interface TrainOptions {
  epochs: number;
  batch: number;
  lr: number;
  /** L2 weight decay. */
  decay: number;
  /** Per-class loss weights (rare classes count more). */
  classWeights?: number[];
  log?: (epoch: number, loss: number) => void;
}

/** Trains in place with Adam on (x, label) pairs; sets the input standardisation from the data. */
export function train(m: MlpWeights, xs: Float32Array[], ys: number[], rng: Rng, o: TrainOptions): void {
  const n = xs.length;
  const I = m.inputs;
  const Hd = m.hidden;
  const O = m.outputs;
  for (let i = 0; i < I; i++) {
    let s = 0;
    let ss = 0;
    for (const x of xs) {
      s += x[i]!;
      ss += x[i]! * x[i]!;
    }
    const mu = s / n;
    const sd = Math.sqrt(Math.max(1e-8, ss / n - mu * mu));
    m.mean[i] = mu;
    m.scale[i] = 1 / Math.max(0.02, sd);
  }
  const params = [m.w1, m.b1, m.w2, m.b2];
  const mom = params.map((p) => new Float64Array(p.length));
  const vel = params.map((p) => new Float64Array(p.length));
  const grads = params.map((p) => new Float64Array(p.length));
  let step = 0;
  const xn = new Float64Array(I);
  const h = new Float64Array(Hd);
  const out = new Float64Array(O);
  const dh = new Float64Array(Hd);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
    let total = 0;
    for (let b0 = 0; b0 < n; b0 += o.batch) {
      for (const g of grads) g.fill(0);
      const idx = order.slice(b0, b0 + o.batch);
      for (const k of idx) {
        const x = xs[k]!;
        const y = ys[k]!;
        for (let i = 0; i < I; i++) xn[i] = (x[i]! - m.mean[i]!) * m.scale[i]!;
        for (let j = 0; j < Hd; j++) {
          let s = m.b1[j]!;
          const row = j * I;
          for (let i = 0; i < I; i++) s += m.w1[row + i]! * xn[i]!;
          h[j] = s > 0 ? s : 0;
        }
        let max = -Infinity;
        for (let c = 0; c < O; c++) {
          let s = m.b2[c]!;
          for (let j = 0; j < Hd; j++) s += m.w2[c * Hd + j]! * h[j]!;
          out[c] = s;
          if (s > max) max = s;
        }
        let z = 0;
        for (let c = 0; c < O; c++) {
          out[c] = Math.exp(out[c]! - max);
          z += out[c]!;
        }
        const cw = o.classWeights?.[y] ?? 1;
        total += -Math.log(Math.max(1e-12, out[y]! / z)) * cw;
        dh.fill(0);
        for (let c = 0; c < O; c++) {
          const d = (out[c]! / z - (c === y ? 1 : 0)) * cw;
          grads[3]![c]! += d;
          for (let j = 0; j < Hd; j++) {
            grads[2]![c * Hd + j]! += d * h[j]!;
            dh[j]! += d * m.w2[c * Hd + j]!;
          }
        }
        for (let j = 0; j < Hd; j++) {
          if (h[j]! <= 0) continue;
          const d = dh[j]!;
          grads[1]![j]! += d;
          const row = j * I;
          for (let i = 0; i < I; i++) grads[0]![row + i]! += d * xn[i]!;
        }
      }
      step++;
      const lr = o.lr;
      params.forEach((p, q) => {
        const g = grads[q]!;
        const mo = mom[q]!;
        const ve = vel[q]!;
        const decay = q % 2 === 0 ? o.decay : 0;
        for (let i = 0; i < p.length; i++) {
          const gi = g[i]! / idx.length + decay * p[i]!;
          mo[i] = 0.9 * mo[i]! + 0.1 * gi;
          ve[i] = 0.999 * ve[i]! + 0.001 * gi * gi;
          const mh = mo[i]! / (1 - 0.9 ** step);
          const vh = ve[i]! / (1 - 0.999 ** step);
          p[i] = p[i]! - (lr * mh) / (Math.sqrt(vh) + 1e-8);
        }
      });
    }
    o.log?.(epoch, total / n);
  }
}
