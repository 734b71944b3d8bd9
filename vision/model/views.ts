/**
 * Test-time views: each crop is also read turned by quarter turns and the net's outputs are
 * averaged (a die has no "up" in the camera's picture, so every turn is as honest as the first).
 * The turns are made on the standardised pixels in JavaScript and all views of a batch go
 * through the net in one forward pass: turning tensors with tfjs ops (transpose + reverse) cost
 * more on wasm than the net itself.
 */
import * as tf from '@tensorflow/tfjs';
import type { RgbImage } from '../types.js';
import { netForward } from './net-forward.js';

/**
 * The centre of a crop brought `zoom` times closer, at the same size: what `squareCrop` would
 * give with its scale divided by `zoom`, made from the crop itself (a die smaller than the crop,
 * the usual case, loses nothing by it). Bilinear, with the sample positions `resampleRect` uses;
 * written out here because a second look is on the reading's clock (0.07 ms against 0.24 ms
 * through the general resampler's tap tables). zoom 1 returns the crop.
 */
export function closerCrop(crop: RgbImage, zoom: number): RgbImage {
  if (!(zoom >= 1 && Number.isFinite(zoom))) throw new RangeError(`closerCrop: zoom must be at least 1, got ${zoom}`);
  if (zoom === 1) return crop;
  const { width: w, height: h, data: src } = crop;
  const X = zoomAxis(w, zoom), Y = zoomAxis(h, zoom);
  const out = new Uint8Array(w * h * 3);
  const xlo = X.lo, xhi = X.hi, xt = X.t;
  for (let y = 0; y < h; y++) {
    const r0 = Y.lo[y]! * w * 3, r1 = Y.hi[y]! * w * 3, ty = Y.t[y]!, sy = 1 - ty;
    let o = y * w * 3;
    for (let x = 0; x < w; x++, o += 3) {
      const c0 = xlo[x]! * 3, c1 = xhi[x]! * 3, tx = xt[x]!, sx = 1 - tx;
      const a = r0 + c0, b = r0 + c1, c = r1 + c0, d = r1 + c1;
      out[o] = ((src[a]! * sx + src[b]! * tx) * sy + (src[c]! * sx + src[d]! * tx) * ty + 0.5) | 0;
      out[o + 1] = ((src[a + 1]! * sx + src[b + 1]! * tx) * sy + (src[c + 1]! * sx + src[d + 1]! * tx) * ty + 0.5) | 0;
      out[o + 2] = ((src[a + 2]! * sx + src[b + 2]! * tx) * sy + (src[c + 2]! * sx + src[d + 2]! * tx) * ty + 0.5) | 0;
    }
  }
  return { width: w, height: h, data: out };
}

/**
 * A crop mirrored: left for right (`axis` 'x'), or top for bottom ('y'). A die whose faces are all
 * their own mirror images (pips) looks as a real die could, so its mirror image is one more
 * honest view for a second look. Turned by an odd number of quarter turns, a crop's top-for-bottom
 * mirror becomes a left-for-right one (what a turned read would need to keep its side faces below).
 */
export function flipCrop(crop: RgbImage, axis: 'x' | 'y'): RgbImage {
  const { width: w, height: h, data: src } = crop;
  const out = new Uint8Array(w * h * 3);
  const row = w * 3;
  // Whole rows copied top for bottom; left for right, each row's pixels walked backwards (the
  // same bytes as a per-pixel index, without working it out per pixel).
  if (axis === 'y') {
    for (let y = 0; y < h; y++) out.set(src.subarray((h - 1 - y) * row, (h - y) * row), y * row);
    return { width: w, height: h, data: out };
  }
  for (let y = 0, o = 0; y < h; y++) {
    for (let p = (y + 1) * row - 3, end = y * row; p >= end; p -= 3, o += 3) {
      out[o] = src[p]!;
      out[o + 1] = src[p + 1]!;
      out[o + 2] = src[p + 2]!;
    }
  }
  return { width: w, height: h, data: out };
}

/**
 * A crop moved `by` pixels along `axis` ('x': right for positive, 'y': down), the edge repeated
 * into what is uncovered, as `squareCrop` repeats a frame's edge. A few pixels' move is another
 * framing a locator could have given, so a doubtful die read so as well is read less by where it
 * happens to sit in its crop.
 */
export function shiftCrop(crop: RgbImage, axis: 'x' | 'y', by: number): RgbImage {
  if (!Number.isInteger(by)) throw new RangeError(`shiftCrop: a whole number of pixels, got ${by}`);
  const { width: w, height: h, data: src } = crop;
  const out = new Uint8Array(w * h * 3);
  const dx = axis === 'x' ? by : 0, dy = axis === 'y' ? by : 0;
  for (let y = 0; y < h; y++) {
    const sy = Math.min(h - 1, Math.max(0, y - dy));
    for (let x = 0; x < w; x++) {
      const p = (sy * w + Math.min(w - 1, Math.max(0, x - dx))) * 3, o = (y * w + x) * 3;
      out[o] = src[p]!;
      out[o + 1] = src[p + 1]!;
      out[o + 2] = src[p + 2]!;
    }
  }
  return { width: w, height: h, data: out };
}

/** Source positions of one axis for a zoom: the lower and upper neighbour and the weight of the upper. */
interface ZoomAxis { lo: Int32Array; hi: Int32Array; t: Float32Array }
const zoomAxes = new Map<string, ZoomAxis>();

function zoomAxis(size: number, zoom: number): ZoomAxis {
  const key = `${size}:${zoom}`;
  const known = zoomAxes.get(key);
  if (known) return known;
  const lo = new Int32Array(size), hi = new Int32Array(size), t = new Float32Array(size);
  const step = 1 / zoom, origin = (size - size / zoom) / 2;
  for (let i = 0; i < size; i++) {
    const u = origin + (i + 0.5) * step - 0.5;
    const f = Math.floor(u);
    lo[i] = Math.min(size - 1, Math.max(0, f));
    hi[i] = Math.min(size - 1, Math.max(0, f + 1));
    t[i] = u - f;
  }
  const axis = { lo, hi, t };
  if (zoomAxes.size < 16) zoomAxes.set(key, axis);
  return axis;
}

/**
 * Copies one size×size×3 crop from `src` (at `from`) into `dst` (at `to`) turned k quarter turns,
 * the same turn as `tf.reverse(tf.transpose(x, [0, 2, 1, 3]), 1)` for k = 1 (row i of the
 * result is column size−1−i of the crop read top to bottom).
 */
export function turnCropInto<T extends Float32Array | Uint8Array>(src: T, from: number, dst: T, to: number, size: number, k: number): void {
  const turn = ((k % 4) + 4) % 4;
  const pixels = size * size;
  // The two turns every die is read in are plain copies: straight, or pixel order reversed.
  if (turn === 0) {
    dst.set(src.subarray(from, from + 3 * pixels), to);
    return;
  }
  if (turn === 2) {
    for (let p = 0, s = from + 3 * (pixels - 1), d = to; p < pixels; p++, s -= 3, d += 3) {
      dst[d] = src[s]!;
      dst[d + 1] = src[s + 1]!;
      dst[d + 2] = src[s + 2]!;
    }
    return;
  }
  const last = size - 1;
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      let r: number, c: number;
      if (turn === 0) { r = i; c = j; }
      else if (turn === 1) { r = j; c = last - i; }
      else if (turn === 2) { r = last - i; c = last - j; }
      else { r = last - j; c = i; }
      const s = from + (r * size + c) * 3;
      const d = to + (i * size + j) * 3;
      dst[d] = src[s]!;
      dst[d + 1] = src[s + 1]!;
      dst[d + 2] = src[s + 2]!;
    }
  }
}

export interface ViewScores {
  /** n × classes logits, each the mean over the views. */
  logits: Float32Array;
  /** n × dim embeddings, each the mean over the views. */
  embeddings: Float32Array;
  dim: number;
}

/** The quarter turns of `views` evenly spaced views: 1 → [0], 2 → [0, 2], 4 → [0, 1, 2, 3]. */
export function turnsOf(views: 1 | 2 | 4): number[] {
  return Array.from({ length: views }, (_, v) => (v * 4) / views);
}

/** The quarter turns not in `turns` (what a crop has not been read in yet). */
export function otherTurns(turns: readonly number[]): number[] {
  return [0, 1, 2, 3].filter((t) => !turns.includes(t));
}

/**
 * The one view a second look adds to `turns`: the half turn after a single view, a quarter turn
 * after two, nothing once all four have been read.
 */
export function secondLookTurns(turns: readonly number[]): number[] {
  const rest = otherTurns(turns);
  if (rest.length === 0) return [];
  return rest.includes(2) ? [2] : [rest[0]!];
}

/** The net's two outputs for a batch: logits (`classes` a row) and embeddings (`dim` a row). */
export interface ForwardOutput {
  logits: Float32Array;
  embeddings: Float32Array;
}

/**
 * One forward pass of a net over `images` standardised crops (NHWC in `input`, size × size × 3
 * each). A net on this thread (`netForward`), or the same net with the batch shared among threads
 * (`forward-pool.ts`).
 */
export type Forward = (input: Float32Array, images: number) => ForwardOutput;

/** What reads crops in predictTurns & co: a net run here, or a Forward. */
export type Net = tf.LayersModel | Forward;

/** A forward pass of `model` on this thread: net-forward.js, which the reading threads run too. */
export { netForward };

/**
 * Logits and embeddings of `n` standardised crops (NHWC in `pixels`), averaged over `views`
 * evenly spaced quarter turns (1, 2 or 4), `batch` crops (times the views) per forward pass.
 */
export function predictViews(model: Net, pixels: Float32Array, n: number, size: number, views: 1 | 2 | 4, batch = 64): ViewScores {
  return predictTurns(model, pixels, n, size, turnsOf(views), batch);
}

/**
 * Runs the net over `n` standardised crops in each of `turns`, `batch` crops (times the turns) per
 * forward pass, and hands each pass's outputs to `take`: row k·turns.length + v is crop start+k
 * turned by turns[v].
 */
function runTurns(
  model: Net, pixels: Float32Array, n: number, size: number, turns: readonly number[], batch: number, caller: string,
  take: (start: number, m: number, logits: Float32Array, embeddings: Float32Array, classes: number, dim: number) => void,
): void {
  const per = size * size * 3;
  if (pixels.length !== n * per) throw new Error(`${caller}: ${pixels.length} values for ${n} crops of ${size}×${size}×3`);
  if (turns.length === 0 || turns.some((t) => !Number.isInteger(t) || t < 0 || t > 3)) throw new Error(`${caller}: turns must be quarter turns 0–3, got [${turns.join(', ')}]`);
  const forward = typeof model === 'function' ? model : netForward(model, size);
  const views = turns.length;
  for (let start = 0; start < n; start += batch) {
    const m = Math.min(batch, n - start);
    const input = new Float32Array(m * views * per);
    for (let k = 0; k < m; k++) {
      for (let v = 0; v < views; v++) turnCropInto(pixels, (start + k) * per, input, (k * views + v) * per, size, turns[v]!);
    }
    const { logits: lv, embeddings: ev } = forward(input, m * views);
    take(start, m, lv, ev, lv.length / (m * views), ev.length / (m * views));
  }
}

/** As predictViews, for an explicit list of quarter turns (each 0–3, each read once). */
export function predictTurns(model: Net, pixels: Float32Array, n: number, size: number, turns: readonly number[], batch = 64): ViewScores {
  const views = turns.length;
  let logits = new Float32Array(0);
  let embeddings = new Float32Array(0);
  let dim = 0;
  runTurns(model, pixels, n, size, turns, batch, 'predictViews', (start, m, lv, ev, classes, d) => {
    if (dim === 0) {
      dim = d;
      logits = new Float32Array(n * classes);
      embeddings = new Float32Array(n * dim);
    }
    for (let k = 0; k < m; k++) {
      for (let v = 0; v < views; v++) {
        const row = k * views + v;
        for (let c = 0; c < classes; c++) logits[(start + k) * classes + c]! += lv[row * classes + c]! / views;
        for (let j = 0; j < dim; j++) embeddings[(start + k) * dim + j]! += ev[row * dim + j]! / views;
      }
    }
  });
  return { logits, embeddings, dim };
}

/**
 * As predictTurns, but each turn's logits and embeddings kept apart (`[turn]`), not averaged: what
 * view 'any' weighs turn by turn. All turns of a crop go through the net in the same pass.
 */
export function predictEachTurn(model: Net, pixels: Float32Array, n: number, size: number, turns: readonly number[], batch = 64): ViewScores[] {
  const views = turns.length;
  let out: ViewScores[] = [];
  runTurns(model, pixels, n, size, turns, batch, 'predictEachTurn', (start, m, lv, ev, classes, dim) => {
    if (out.length === 0) out = turns.map(() => ({ logits: new Float32Array(n * classes), embeddings: new Float32Array(n * dim), dim }));
    for (let k = 0; k < m; k++) {
      for (let v = 0; v < views; v++) {
        const row = k * views + v;
        out[v]!.logits.set(lv.subarray(row * classes, (row + 1) * classes), (start + k) * classes);
        out[v]!.embeddings.set(ev.subarray(row * dim, (row + 1) * dim), (start + k) * dim);
      }
    }
  });
  return out;
}

/** The flat scores of `n` crops split per crop: each crop's row of logits and its embedding. */
export function perCrop(scores: ViewScores, n: number): { logits: Float32Array[]; embeddings: Float32Array[] } {
  const classes = scores.logits.length / Math.max(1, n);
  return {
    logits: Array.from({ length: n }, (_, k) => scores.logits.slice(k * classes, (k + 1) * classes)),
    embeddings: Array.from({ length: n }, (_, k) => scores.embeddings.slice(k * scores.dim, (k + 1) * scores.dim)),
  };
}

/**
 * A square image turned by k quarter turns, exactly as `turnCropInto` turns the net's input: turn
 * 1 makes the right column the top row (a quarter turn anticlockwise).
 */
export function turnSquare(image: RgbImage, k: number): RgbImage {
  if (image.width !== image.height) throw new RangeError(`turnSquare: the image must be square, got ${image.width}×${image.height}`);
  const out = new Uint8Array(image.data.length);
  turnCropInto(image.data, 0, out, 0, image.width, Math.round(k));
  return { width: image.width, height: image.height, data: out };
}
