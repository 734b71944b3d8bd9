/**
 * A small convolutional network in plain TypeScript, for reading what is drawn in a sheet's cell:
 * three 'same' convolutions with ReLU and 2x2 max pooling over a square ink image, then the cell's
 * measured scalars joined in, one hidden dense layer and a softmax. Convolutions see a letter
 * wherever it is written in the cell, which a plain perceptron on pixels does not. Small enough
 * to train on two CPU cores in minutes; the reader runs it through `cnnRunner` (100 cells x 5
 * views in about 165 ms), training and the tests through the reference forward pass. Its weights
 * live in a committed JSON file. No tfjs: nothing to load, and the same numbers everywhere.
 */
import type { Rng } from '../../shared/rng.js';

export interface ConvLayer {
  out: number;
  in: number;
  k: number;
  /** out x in x k x k. */
  w: Float32Array;
  b: Float32Array;
}

export interface DenseLayer {
  out: number;
  in: number;
  /** out x in. */
  w: Float32Array;
  b: Float32Array;
}

export interface Cnn {
  /** Input image side (one channel). */
  size: number;
  extras: number;
  classes: number;
  convs: ConvLayer[];
  hidden: DenseLayer;
  head: DenseLayer;
}

export function createCnn(rng: Rng, size: number, extras: number, classes: number, channels: readonly number[], kernels: readonly number[], hidden: number): Cnn {
  const convs: ConvLayer[] = [];
  let inC = 1;
  let side = size;
  channels.forEach((out, i) => {
    const k = kernels[i]!;
    const fan = inC * k * k;
    const w = new Float32Array(out * fan);
    for (let j = 0; j < w.length; j++) w[j] = rng.normal() * Math.sqrt(2 / fan);
    convs.push({ out, in: inC, k, w, b: new Float32Array(out) });
    inC = out;
    side = Math.floor(side / 2);
  });
  const flat = inC * side * side + extras;
  const dense = (o: number, i: number): DenseLayer => {
    const w = new Float32Array(o * i);
    for (let j = 0; j < w.length; j++) w[j] = rng.normal() * Math.sqrt(2 / i);
    return { out: o, in: i, w, b: new Float32Array(o) };
  };
  return { size, extras, classes, convs, hidden: dense(hidden, flat), head: dense(classes, hidden) };
}

/** 'Same' convolution + ReLU. */
function convForward(L: ConvLayer, x: Float32Array, side: number): Float32Array {
  const { out, k } = L;
  const cin = L.in;
  const p = (k - 1) >> 1;
  const y = new Float32Array(out * side * side);
  for (let o = 0; o < out; o++) {
    const base = o * side * side;
    for (let c = 0; c < cin; c++) {
      const xs = c * side * side;
      for (let dy = 0; dy < k; dy++)
        for (let dx = 0; dx < k; dx++) {
          const wv = L.w[((o * cin + c) * k + dy) * k + dx]!;
          if (wv === 0) continue;
          const oy0 = Math.max(0, p - dy);
          const oy1 = Math.min(side, side + p - dy);
          const ox0 = Math.max(0, p - dx);
          const ox1 = Math.min(side, side + p - dx);
          for (let yy = oy0; yy < oy1; yy++) {
            const row = base + yy * side;
            const src = xs + (yy + dy - p) * side + dx - p;
            for (let xx = ox0; xx < ox1; xx++) y[row + xx]! += wv * x[src + xx]!;
          }
        }
    }
    const b = L.b[o]!;
    for (let i = base; i < base + side * side; i++) {
      const v = y[i]! + b;
      y[i] = v > 0 ? v : 0;
    }
  }
  return y;
}

/** 2x2 max pooling (floor), with the argmax index for the backward pass. */
function pool(x: Float32Array, ch: number, side: number): { y: Float32Array; arg: Int32Array } {
  const s = side >> 1;
  const y = new Float32Array(ch * s * s);
  const arg = new Int32Array(ch * s * s);
  for (let c = 0; c < ch; c++)
    for (let yy = 0; yy < s; yy++)
      for (let xx = 0; xx < s; xx++) {
        let best = -Infinity;
        let bi = 0;
        for (let dy = 0; dy < 2; dy++)
          for (let dx = 0; dx < 2; dx++) {
            const i = c * side * side + (2 * yy + dy) * side + 2 * xx + dx;
            if (x[i]! > best) {
              best = x[i]!;
              bi = i;
            }
          }
        const o = c * s * s + yy * s + xx;
        y[o] = best;
        arg[o] = bi;
      }
  return { y, arg };
}

interface Trace {
  acts: Float32Array[];
  pools: { y: Float32Array; arg: Int32Array }[];
  flat: Float32Array;
  hidden: Float32Array;
  probs: Float64Array;
}

function forwardTrace(m: Cnn, image: Float32Array, extras: ArrayLike<number>): Trace {
  let x = image;
  let side = m.size;
  const acts: Float32Array[] = [];
  const pools: { y: Float32Array; arg: Int32Array }[] = [];
  for (const L of m.convs) {
    const a = convForward(L, x, side);
    acts.push(a);
    const p = pool(a, L.out, side);
    pools.push(p);
    x = p.y;
    side >>= 1;
  }
  const flat = new Float32Array(m.hidden.in);
  flat.set(x, 0);
  for (let i = 0; i < m.extras; i++) flat[x.length + i] = extras[i]!;
  const hidden = new Float32Array(m.hidden.out);
  for (let o = 0; o < m.hidden.out; o++) {
    let s = m.hidden.b[o]!;
    const row = o * m.hidden.in;
    for (let i = 0; i < m.hidden.in; i++) s += m.hidden.w[row + i]! * flat[i]!;
    hidden[o] = s > 0 ? s : 0;
  }
  const probs = new Float64Array(m.classes);
  let max = -Infinity;
  for (let o = 0; o < m.classes; o++) {
    let s = m.head.b[o]!;
    const row = o * m.head.in;
    for (let i = 0; i < m.head.in; i++) s += m.head.w[row + i]! * hidden[i]!;
    probs[o] = s;
    if (s > max) max = s;
  }
  softmaxInPlace(probs, max);
  return { acts, pools, flat, hidden, probs };
}

/** Logits → probabilities in place; `max` is the largest logit (subtracted for stability). */
function softmaxInPlace(values: Float64Array, max: number): void {
  let z = 0;
  for (let o = 0; o < values.length; o++) {
    values[o] = Math.exp(values[o]! - max);
    z += values[o]!;
  }
  for (let o = 0; o < values.length; o++) values[o]! /= z;
}

/** Class probabilities of one cell image (size x size) with its extra scalars. */
export function classify(m: Cnn, image: Float32Array, extras: ArrayLike<number>): Float64Array {
  return forwardTrace(m, image, extras).probs;
}

/** Output channels computed together by the runner's convolution (its kernel is written out for four). */
const RUN_BLOCK = 4;

interface RunConv {
  cin: number;
  out: number;
  /** Input side, and the zero-padded side of the input buffer (k - 1 wider). */
  side: number;
  padded: number;
  /** Padding before the first row and column ((k - 1) >> 1, as in the reference). */
  pad: number;
  /** Taps: cin x k x k. */
  taps: number;
  /** Input offset of each tap in the padded buffer. */
  off: Int32Array;
  /** Weights tap-major (taps x outPadded), so a tap's output channels are adjacent. */
  w: Float64Array;
  outPadded: number;
  b: Float64Array;
  /** The zero-padded input (its border stays zero). */
  input: Float64Array;
}

/**
 * Inference form of a network, for reading many cells: weights re-laid out once, buffers reused,
 * and each convolution fused with its ReLU and 2 x 2 max pool, computing four output channels of a
 * 2 x 2 pixel block at a time in local accumulators. It computes what `classify` computes, in
 * double precision (the reference rounds its sums to float32), so probabilities agree to about
 * 1e-6. A snapshot: later changes to the network's weights are not seen. Not re-entrant (shared
 * buffers), which synchronous callers never notice.
 */
export interface CnnRunner {
  readonly net: Cnn;
  /**
   * Class probabilities of the size x size image read from `image` at column `x`, row `y` of a
   * row-major image `stride` pixels wide (defaults: the whole image is the cell image).
   */
  classify(image: ArrayLike<number>, extras: ArrayLike<number>, window?: { stride: number; x: number; y: number }): Float64Array;
}

export function cnnRunner(m: Cnn): CnnRunner {
  let side = m.size;
  const convs: RunConv[] = m.convs.map((L) => {
    const k = L.k;
    const pad = (k - 1) >> 1;
    const padded = side + k - 1;
    const taps = L.in * k * k;
    const outPadded = Math.ceil(L.out / RUN_BLOCK) * RUN_BLOCK;
    const off = new Int32Array(taps);
    const w = new Float64Array(taps * outPadded);
    for (let c = 0; c < L.in; c++)
      for (let dy = 0; dy < k; dy++)
        for (let dx = 0; dx < k; dx++) {
          const t = (c * k + dy) * k + dx;
          off[t] = c * padded * padded + dy * padded + dx;
          for (let o = 0; o < L.out; o++) w[t * outPadded + o] = L.w[((o * L.in + c) * k + dy) * k + dx]!;
        }
    const b = new Float64Array(outPadded);
    b.set(L.b);
    const r: RunConv = { cin: L.in, out: L.out, side, padded, pad, taps, off, w, outPadded, b, input: new Float64Array(L.in * padded * padded) };
    side >>= 1;
    return r;
  });
  const flat = new Float64Array(m.hidden.in);
  const convFlat = m.convs.length ? m.convs[m.convs.length - 1]!.out * side * side : m.size * m.size;
  const hidden = new Float64Array(m.hidden.out);
  const hw = Float64Array.from(m.hidden.w);
  const hb = Float64Array.from(m.hidden.b);
  const ow = Float64Array.from(m.head.w);
  const ob = Float64Array.from(m.head.b);

  /** Convolution + ReLU + 2 x 2 max pool of `L`'s input into `dst` (a `dSide` square per channel, the values `dPad` in). */
  const convPool = (L: RunConv, dst: Float64Array, dSide: number, dPad: number): void => {
    const { padded: P, taps, off, w: W, b: B, input: X, outPadded: O } = L;
    const s = L.side >> 1;
    const plane = dSide * dSide;
    for (let o = 0; o < L.out; o += RUN_BLOCK) {
      const n = Math.min(RUN_BLOCK, L.out - o);
      for (let py = 0; py < s; py++)
        for (let px = 0; px < s; px++) {
          const base = 2 * py * P + 2 * px;
          // Accumulators: a, b, c, d the block's top-left, top-right, bottom-left, bottom-right pixel; 0..3 channel o + 0..3.
          let a0 = B[o]!;
          let a1 = B[o + 1]!;
          let a2 = B[o + 2]!;
          let a3 = B[o + 3]!;
          let b0 = a0;
          let b1 = a1;
          let b2 = a2;
          let b3 = a3;
          let c0 = a0;
          let c1 = a1;
          let c2 = a2;
          let c3 = a3;
          let d0 = a0;
          let d1 = a1;
          let d2 = a2;
          let d3 = a3;
          for (let t = 0, wi = o; t < taps; t++, wi += O) {
            const q = base + off[t]!;
            const x00 = X[q]!;
            const x01 = X[q + 1]!;
            const x10 = X[q + P]!;
            const x11 = X[q + P + 1]!;
            const w0 = W[wi]!;
            const w1 = W[wi + 1]!;
            const w2 = W[wi + 2]!;
            const w3 = W[wi + 3]!;
            a0 += w0 * x00;
            a1 += w1 * x00;
            a2 += w2 * x00;
            a3 += w3 * x00;
            b0 += w0 * x01;
            b1 += w1 * x01;
            b2 += w2 * x01;
            b3 += w3 * x01;
            c0 += w0 * x10;
            c1 += w1 * x10;
            c2 += w2 * x10;
            c3 += w3 * x10;
            d0 += w0 * x11;
            d1 += w1 * x11;
            d2 += w2 * x11;
            d3 += w3 * x11;
          }
          // max(ReLU(v)) over the block = max(0, v...): the reference's ReLU, then pool.
          const at = o * plane + (py + dPad) * dSide + px + dPad;
          dst[at] = Math.max(0, a0, b0, c0, d0);
          if (n > 1) dst[at + plane] = Math.max(0, a1, b1, c1, d1);
          if (n > 2) dst[at + 2 * plane] = Math.max(0, a2, b2, c2, d2);
          if (n > 3) dst[at + 3 * plane] = Math.max(0, a3, b3, c3, d3);
        }
    }
  };

  const classifyOne = (image: ArrayLike<number>, extras: ArrayLike<number>, window?: { stride: number; x: number; y: number }): Float64Array => {
    const S = m.size;
    const stride = window ? window.stride : S;
    const x0 = window ? window.x : 0;
    const y0 = window ? window.y : 0;
    if (convs.length) {
      const L = convs[0]!;
      const X = L.input;
      for (let y = 0; y < S; y++) {
        const src = (y0 + y) * stride + x0;
        const dstRow = (y + L.pad) * L.padded + L.pad;
        for (let x = 0; x < S; x++) X[dstRow + x] = image[src + x]!;
      }
    } else {
      for (let y = 0; y < S; y++) for (let x = 0; x < S; x++) flat[y * S + x] = image[(y0 + y) * stride + x0 + x]!;
    }
    for (let li = 0; li < convs.length; li++) {
      const next = convs[li + 1];
      if (next) convPool(convs[li]!, next.input, next.padded, next.pad);
      else convPool(convs[li]!, flat, convs[li]!.side >> 1, 0);
    }
    for (let i = 0; i < m.extras; i++) flat[convFlat + i] = extras[i]!;
    const HI = m.hidden.in;
    for (let o = 0; o < m.hidden.out; o++) {
      let s = hb[o]!;
      const row = o * HI;
      for (let i = 0; i < HI; i++) s += hw[row + i]! * flat[i]!;
      hidden[o] = s > 0 ? s : 0;
    }
    const probs = new Float64Array(m.classes);
    const HO = m.head.in;
    let max = -Infinity;
    for (let o = 0; o < m.classes; o++) {
      let s = ob[o]!;
      const row = o * HO;
      for (let i = 0; i < HO; i++) s += ow[row + i]! * hidden[i]!;
      probs[o] = s;
      if (s > max) max = s;
    }
    softmaxInPlace(probs, max);
    return probs;
  };
  return { net: m, classify: classifyOne };
}

interface Grads {
  convW: Float32Array[];
  convB: Float32Array[];
  hW: Float32Array;
  hB: Float32Array;
  oW: Float32Array;
  oB: Float32Array;
}

function zeroGrads(m: Cnn): Grads {
  return {
    convW: m.convs.map((L) => new Float32Array(L.w.length)),
    convB: m.convs.map((L) => new Float32Array(L.b.length)),
    hW: new Float32Array(m.hidden.w.length),
    hB: new Float32Array(m.hidden.b.length),
    oW: new Float32Array(m.head.w.length),
    oB: new Float32Array(m.head.b.length),
  };
}

/** Adds the gradients of the weighted cross-entropy of one sample; returns its loss. */
function backward(m: Cnn, image: Float32Array, extras: ArrayLike<number>, label: number, weight: number, g: Grads): number {
  const t = forwardTrace(m, image, extras);
  const loss = -Math.log(Math.max(1e-12, t.probs[label]!)) * weight;
  const dh = new Float32Array(m.hidden.out);
  for (let o = 0; o < m.classes; o++) {
    const d = (t.probs[o]! - (o === label ? 1 : 0)) * weight;
    g.oB[o]! += d;
    const row = o * m.head.in;
    for (let i = 0; i < m.head.in; i++) {
      g.oW[row + i]! += d * t.hidden[i]!;
      dh[i]! += d * m.head.w[row + i]!;
    }
  }
  const dflat = new Float32Array(m.hidden.in);
  for (let o = 0; o < m.hidden.out; o++) {
    if (t.hidden[o]! <= 0) continue;
    const d = dh[o]!;
    g.hB[o]! += d;
    const row = o * m.hidden.in;
    for (let i = 0; i < m.hidden.in; i++) {
      g.hW[row + i]! += d * t.flat[i]!;
      dflat[i]! += d * m.hidden.w[row + i]!;
    }
  }
  // Back through the convolutions, last first.
  let dPooled = dflat.subarray(0, t.pools[t.pools.length - 1]!.y.length);
  for (let li = m.convs.length - 1; li >= 0; li--) {
    const L = m.convs[li]!;
    const side = m.size >> li;
    const act = t.acts[li]!;
    const dAct = new Float32Array(act.length);
    const arg = t.pools[li]!.arg;
    for (let i = 0; i < dPooled.length; i++) dAct[arg[i]!]! += dPooled[i]!;
    for (let i = 0; i < act.length; i++) if (act[i]! <= 0) dAct[i] = 0;
    const input = li === 0 ? image : t.pools[li - 1]!.y;
    const dIn = li > 0 ? new Float32Array(input.length) : null;
    const { k, out } = L;
    const cin = L.in;
    const p = (k - 1) >> 1;
    const gw = g.convW[li]!;
    const gb = g.convB[li]!;
    for (let o = 0; o < out; o++) {
      const base = o * side * side;
      let sb = 0;
      for (let i = base; i < base + side * side; i++) sb += dAct[i]!;
      gb[o]! += sb;
      for (let c = 0; c < cin; c++) {
        const xs = c * side * side;
        for (let dy = 0; dy < k; dy++)
          for (let dx = 0; dx < k; dx++) {
            const wi = ((o * cin + c) * k + dy) * k + dx;
            const wv = L.w[wi]!;
            const oy0 = Math.max(0, p - dy);
            const oy1 = Math.min(side, side + p - dy);
            const ox0 = Math.max(0, p - dx);
            const ox1 = Math.min(side, side + p - dx);
            let s = 0;
            for (let yy = oy0; yy < oy1; yy++) {
              const row = base + yy * side;
              const src = xs + (yy + dy - p) * side + dx - p;
              for (let xx = ox0; xx < ox1; xx++) {
                const d = dAct[row + xx]!;
                s += d * input[src + xx]!;
                if (dIn) dIn[src + xx]! += d * wv;
              }
            }
            gw[wi]! += s;
          }
      }
    }
    if (dIn) dPooled = dIn;
  }
  return loss;
}

export interface CnnSample {
  image: Float32Array;
  extras: Float32Array;
  label: number;
}

export interface CnnTrainOptions {
  epochs: number;
  batch: number;
  lr: number;
  classWeights: number[];
  /** Makes each epoch's version of a sample (shifted, rescaled): augmentation. */
  augment?: (s: CnnSample, rng: Rng) => CnnSample;
  log?: (epoch: number, loss: number) => void;
}

function params(m: Cnn): Float32Array[] {
  return [...m.convs.flatMap((L) => [L.w, L.b]), m.hidden.w, m.hidden.b, m.head.w, m.head.b];
}

function gradList(m: Cnn, g: Grads): Float32Array[] {
  return [...m.convs.flatMap((_, i) => [g.convW[i]!, g.convB[i]!]), g.hW, g.hB, g.oW, g.oB];
}

/** Trains in place with Adam (learning rate halved for the last third of the epochs). */
export function trainCnn(m: Cnn, samples: readonly CnnSample[], rng: Rng, o: CnnTrainOptions): void {
  const ps = params(m);
  const mom = ps.map((p) => new Float32Array(p.length));
  const vel = ps.map((p) => new Float32Array(p.length));
  let step = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    const order = rng.shuffle(Array.from({ length: samples.length }, (_, i) => i));
    const lr = epoch >= Math.floor((2 * o.epochs) / 3) ? o.lr / 3 : o.lr;
    let total = 0;
    for (let b0 = 0; b0 < order.length; b0 += o.batch) {
      const g = zeroGrads(m);
      const idx = order.slice(b0, b0 + o.batch);
      for (const k of idx) {
        const s0 = samples[k]!;
        const s = o.augment ? o.augment(s0, rng) : s0;
        total += backward(m, s.image, s.extras, s.label, o.classWeights[s.label] ?? 1, g);
      }
      step++;
      const gs = gradList(m, g);
      ps.forEach((p, q) => {
        const gr = gs[q]!;
        const mo = mom[q]!;
        const ve = vel[q]!;
        for (let i = 0; i < p.length; i++) {
          const gi = gr[i]! / idx.length;
          mo[i] = 0.9 * mo[i]! + 0.1 * gi;
          ve[i] = 0.999 * ve[i]! + 0.001 * gi * gi;
          p[i] = p[i]! - (lr * (mo[i]! / (1 - 0.9 ** step))) / (Math.sqrt(ve[i]! / (1 - 0.999 ** step)) + 1e-8);
        }
      });
    }
    o.log?.(epoch, total / samples.length);
  }
}

/** The network as plain JSON (weights rounded to 5 significant decimals). */
export function cnnToJson(m: Cnn): unknown {
  const arr = (a: Float32Array) => Array.from(a, (v) => Math.round(v * 1e5) / 1e5);
  return {
    size: m.size,
    extras: m.extras,
    classes: m.classes,
    convs: m.convs.map((L) => ({ out: L.out, in: L.in, k: L.k, w: arr(L.w), b: arr(L.b) })),
    hidden: { out: m.hidden.out, in: m.hidden.in, w: arr(m.hidden.w), b: arr(m.hidden.b) },
    head: { out: m.head.out, in: m.head.in, w: arr(m.head.w), b: arr(m.head.b) },
  };
}

export function cnnFromJson(json: unknown): Cnn {
  const j = json as { size: number; extras: number; classes: number; convs: { out: number; in: number; k: number; w: number[]; b: number[] }[]; hidden: { out: number; in: number; w: number[]; b: number[] }; head: { out: number; in: number; w: number[]; b: number[] } };
  const dense = (d: typeof j.hidden): DenseLayer => {
    if (d.w.length !== d.out * d.in || d.b.length !== d.out) throw new Error('cell model: a dense layer has the wrong number of weights');
    return { out: d.out, in: d.in, w: Float32Array.from(d.w), b: Float32Array.from(d.b) };
  };
  return {
    size: j.size,
    extras: j.extras,
    classes: j.classes,
    convs: j.convs.map((L) => {
      if (L.w.length !== L.out * L.in * L.k * L.k || L.b.length !== L.out) throw new Error('cell model: a convolution has the wrong number of weights');
      return { out: L.out, in: L.in, k: L.k, w: Float32Array.from(L.w), b: Float32Array.from(L.b) };
    }),
    hidden: dense(j.hidden),
    head: dense(j.head),
  };
}

/** The loss of one sample and its gradient for every parameter (in `params` order): for tests. */
export function lossAndGradients(m: Cnn, image: Float32Array, extras: ArrayLike<number>, label: number): { loss: number; grads: Float32Array[]; params: Float32Array[] } {
  const g = zeroGrads(m);
  const loss = backward(m, image, extras, label, 1, g);
  return { loss, grads: gradList(m, g), params: params(m) };
}
