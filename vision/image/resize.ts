/**
 * Resampling: bilinear interpolation with edge replication, supersampled when shrinking so that a
 * 300 px die brought down to 64 px does not alias its pips away. Separable two-pass filter.
 */
import type { RgbImage } from '../types.js';
import { assertImage, clampRound, createImage } from './image.js';

interface Taps {
  /** Taps per output index (the most any index needs; shorter ones padded, below). */
  width: number;
  /** Source index of output i's tap k at i·width + k. */
  index: Int32Array;
  weight: Float32Array;
}

/**
 * Taps for one axis: output pixel i covers source span [origin + i·step, origin + (i+1)·step) in
 * pixel-edge coordinates; it averages n = ceil(step) evenly spaced bilinear samples of that span
 * (n = 1 when enlarging: plain bilinear at the pixel centre). Source indices are clamped, which
 * replicates the edge pixels outside the image.
 *
 * Every output index gets the same number of taps, so the passes below run fixed-length loops:
 * an index with fewer repeats its last source index with weight 0 at the end, and adding that
 * exact zero after the others leaves every sum as it was.
 */
function axisTaps(origin: number, step: number, outSize: number, srcSize: number): Taps {
  const n = Math.max(1, Math.min(16, Math.ceil(step - 1e-9)));
  const span = n + 2;
  const indices = new Int32Array(outSize * span);
  const weights = new Float32Array(outSize * span);
  const counts = new Int32Array(outSize);
  // Per output pixel the touched source indices span at most n + 1 neighbours: accumulate in a
  // small window starting at the first one (clamping keeps them in order).
  const acc = new Float64Array(span);
  let width = 1;
  for (let i = 0; i < outSize; i++) {
    acc.fill(0);
    let first = -1;
    for (let k = 0; k < n; k++) {
      // Sample position (pixel-centre coordinates: pixel j has its centre at j).
      const u = origin + (i + (k + 0.5) / n) * step - 0.5;
      const f = Math.floor(u);
      const t = u - f;
      const a = Math.min(srcSize - 1, Math.max(0, f));
      const b = Math.min(srcSize - 1, Math.max(0, f + 1));
      if (first < 0) first = a;
      acc[a - first] = acc[a - first]! + (1 - t) / n;
      acc[b - first] = acc[b - first]! + t / n;
    }
    let c = 0;
    for (let j = 0; j < span; j++) {
      if (acc[j]! <= 0) continue;
      indices[i * span + c] = first + j;
      weights[i * span + c] = acc[j]!;
      c++;
    }
    counts[i] = c;
    if (c > width) width = c;
  }
  const index = new Int32Array(outSize * width);
  const weight = new Float32Array(outSize * width);
  for (let i = 0; i < outSize; i++) {
    const c = counts[i]!;
    for (let k = 0; k < width; k++) {
      index[i * width + k] = indices[i * span + Math.min(k, c - 1)]!;
      weight[i * width + k] = k < c ? weights[i * span + k]! : 0;
    }
  }
  return { width, index, weight };
}

let midScratch = new Float32Array(0);
let sumScratch = new Float64Array(0);
let offsetScratch = new Int32Array(0);


/**
 * Resample the source rectangle with top-left (x0, y0) and size (w × h), in pixel-edge
 * coordinates (may extend past the image: edges are replicated), to outW × outH pixels.
 */
export function resampleRect(image: RgbImage, x0: number, y0: number, w: number, h: number, outW: number, outH: number): RgbImage {
  assertImage(image, 'resampleRect');
  if (!(w > 0 && h > 0 && Number.isFinite(w) && Number.isFinite(h))) {
    throw new RangeError(`resampleRect: source size must be positive, got ${w}×${h}`);
  }
  const tx = axisTaps(x0, w / outW, outW, image.width);
  const ty = axisTaps(y0, h / outH, outH, image.height);
  // Horizontal pass over only the source rows the vertical taps touch.
  let rowMin = image.height;
  let rowMax = -1;
  for (let k = 0; k < ty.index.length; k++) {
    rowMin = Math.min(rowMin, ty.index[k]!);
    rowMax = Math.max(rowMax, ty.index[k]!);
  }
  const rows = rowMax - rowMin + 1;
  // Scratch kept between calls (every value is written before it is read): a frame's 25 crops
  // made the collector's work with fresh arrays.
  if (midScratch.length < rows * outW * 3) midScratch = new Float32Array(rows * outW * 3);
  const mid = midScratch;
  const src = image.data;
  const sw = image.width;
  const tw = tx.width, xWeight = tx.weight;
  // The taps' byte offsets within a row, worked out once for every row.
  if (offsetScratch.length < tx.index.length) offsetScratch = new Int32Array(tx.index.length);
  const xOffset = offsetScratch;
  for (let k = 0; k < tx.index.length; k++) xOffset[k] = tx.index[k]! * 3;
  for (let r = 0; r < rows; r++) {
    const rowBase = (r + rowMin) * sw * 3;
    let m = r * outW * 3;
    if (tw === 2) {
      // Enlarging (and shrinking by under 1×): each output pixel between two source pixels.
      for (let i = 0, k = 0; i < outW; i++, m += 3, k += 2) {
        const p0 = rowBase + xOffset[k]!, w0 = xWeight[k]!;
        const p1 = rowBase + xOffset[k + 1]!, w1 = xWeight[k + 1]!;
        mid[m] = src[p0]! * w0 + src[p1]! * w1;
        mid[m + 1] = src[p0 + 1]! * w0 + src[p1 + 1]! * w1;
        mid[m + 2] = src[p0 + 2]! * w0 + src[p1 + 2]! * w1;
      }
      continue;
    }
    if (tw === 3) {
      // Shrinking by up to 2×: a die's usual crop.
      for (let i = 0, k = 0; i < outW; i++, m += 3, k += 3) {
        const p0 = rowBase + xOffset[k]!, w0 = xWeight[k]!;
        const p1 = rowBase + xOffset[k + 1]!, w1 = xWeight[k + 1]!;
        const p2 = rowBase + xOffset[k + 2]!, w2 = xWeight[k + 2]!;
        mid[m] = src[p0]! * w0 + src[p1]! * w1 + src[p2]! * w2;
        mid[m + 1] = src[p0 + 1]! * w0 + src[p1 + 1]! * w1 + src[p2 + 1]! * w2;
        mid[m + 2] = src[p0 + 2]! * w0 + src[p1 + 2]! * w1 + src[p2 + 2]! * w2;
      }
      continue;
    }
    for (let i = 0; i < outW; i++, m += 3) {
      let sr = 0, sg = 0, sb = 0;
      for (let k = i * tw, end = k + tw; k < end; k++) {
        const p = rowBase + xOffset[k]!;
        const wgt = xWeight[k]!;
        sr += src[p]! * wgt;
        sg += src[p + 1]! * wgt;
        sb += src[p + 2]! * wgt;
      }
      mid[m] = sr;
      mid[m + 1] = sg;
      mid[m + 2] = sb;
    }
  }
  // Vertical pass a row at a time: each tap's row of `mid` added into a row of sums (doubles,
  // the taps in the same order per pixel as a per-pixel loop adds them, so the same bytes).
  const out = createImage(outW, outH);
  const dst = out.data;
  const rowLen = outW * 3;
  if (sumScratch.length < rowLen) sumScratch = new Float64Array(rowLen);
  const sum = sumScratch;
  const taps = ty.width;
  for (let j = 0; j < outH; j++) {
    const k0 = j * taps;
    const o = j * rowLen;
    if (taps === 2 || taps === 3) {
      // The usual cases (a die's crop: 2 taps enlarging, 3 shrinking by up to 2), summed in the
      // loop's order with no row of sums.
      const f0 = (ty.index[k0]! - rowMin) * rowLen, w0 = ty.weight[k0]!;
      const f1 = (ty.index[k0 + 1]! - rowMin) * rowLen, w1 = ty.weight[k0 + 1]!;
      if (taps === 2) {
        for (let i = 0; i < rowLen; i++) dst[o + i] = clampRound(mid[f0 + i]! * w0 + mid[f1 + i]! * w1);
      } else {
        const f2 = (ty.index[k0 + 2]! - rowMin) * rowLen, w2 = ty.weight[k0 + 2]!;
        for (let i = 0; i < rowLen; i++) dst[o + i] = clampRound(mid[f0 + i]! * w0 + mid[f1 + i]! * w1 + mid[f2 + i]! * w2);
      }
      continue;
    }
    sum.fill(0, 0, rowLen);
    for (let k = k0, end = k0 + taps; k < end; k++) {
      const from = (ty.index[k]! - rowMin) * rowLen;
      const wgt = ty.weight[k]!;
      for (let i = 0; i < rowLen; i++) sum[i]! += mid[from + i]! * wgt;
    }
    for (let i = 0; i < rowLen; i++) dst[o + i] = clampRound(sum[i]!);
  }
  return out;
}

/** Resize the whole image to width × height. */
export function resize(image: RgbImage, width: number, height: number): RgbImage {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new RangeError(`resize: target size must be positive integers, got ${width}×${height}`);
  }
  return resampleRect(image, 0, 0, image.width, image.height, width, height);
}

/** Resize so the longer side is at most `maxSide` (never enlarges). Returns the scale applied. */
export function fitWithin(image: RgbImage, maxSide: number): { image: RgbImage; scale: number } {
  if (Math.max(image.width, image.height) <= maxSide) return { image, scale: 1 };
  return toLongerSide(image, maxSide);
}

/** Resize, up or down, so the longer side is `side`. Returns the scale applied. */
export function toLongerSide(image: RgbImage, side: number): { image: RgbImage; scale: number } {
  const scale = side / Math.max(image.width, image.height);
  const w = Math.max(1, Math.round(image.width * scale));
  const h = Math.max(1, Math.round(image.height * scale));
  return { image: resize(image, w, h), scale };
}
