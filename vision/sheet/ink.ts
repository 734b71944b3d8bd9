/**
 * Ink: how much darker than the paper each pixel of a rectified image is (0 paper .. 1 black),
 * independent of uneven light and shadows. The paper's brightness is estimated by a grey-level
 * closing (a max filter, then a min filter, both wider than any pencil line): it removes strokes
 * and keeps the light's steps and slopes, then is smoothed a little.
 */
import type { GreyImage } from './markers.js';

/**
 * Running max (or min) over a window of 2r+1 along rows, then columns (van Herk / Gil-Werman: the
 * extreme so far from each block's start, and from its end, blocks 2r+1 long). Written out once
 * per direction of comparison, block by block: a comparison function passed in (Math.max) and a
 * modulo per pixel cost most of the reader's ink time.
 */
function filter1d(src: Float32Array, W: number, H: number, r: number, horizontal: boolean, max: boolean): Float32Array {
  const out = new Float32Array(W * H);
  const n = horizontal ? W : H;
  const lines = horizontal ? H : W;
  const k = 2 * r + 1;
  const m = n + 2 * r;
  // Doubles hold the float32 values exactly and spare a conversion per access.
  const g = new Float64Array(m);
  const h = new Float64Array(m);
  const line = new Float64Array(m);
  const pad = max ? -Infinity : Infinity;
  line.fill(pad, 0, r);
  line.fill(pad, n + r, m);
  // Along a row the source and the output step by 1, down a column by W.
  const step = horizontal ? 1 : W;
  for (let l = 0; l < lines; l++) {
    const first = horizontal ? l * W : l;
    for (let i = 0, q = first; i < n; i++, q += step) line[i + r] = src[q]!;
    for (let b0 = 0; b0 < m; b0 += k) {
      const e = Math.min(b0 + k, m);
      let v = line[b0]!;
      g[b0] = v;
      if (max) for (let i = b0 + 1; i < e; i++) g[i] = v = line[i]! > v ? line[i]! : v;
      else for (let i = b0 + 1; i < e; i++) g[i] = v = line[i]! < v ? line[i]! : v;
      v = line[e - 1]!;
      h[e - 1] = v;
      if (max) for (let i = e - 2; i >= b0; i--) h[i] = v = line[i]! > v ? line[i]! : v;
      else for (let i = e - 2; i >= b0; i--) h[i] = v = line[i]! < v ? line[i]! : v;
    }
    if (max)
      for (let i = 0, q = first; i < n; i++, q += step) {
        const a = h[i]!;
        const b = g[i + 2 * r]!;
        out[q] = a < b ? b : a;
      }
    else
      for (let i = 0, q = first; i < n; i++, q += step) {
        const a = h[i]!;
        const b = g[i + 2 * r]!;
        out[q] = a > b ? b : a;
      }
  }
  return out;
}

function boxBlur(src: Float32Array, W: number, H: number, r: number): Float32Array {
  const tmp = new Float32Array(W * H);
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    let s = 0;
    let n = 0;
    for (let x = -r; x < W + r; x++) {
      if (x + r < W && x + r >= 0) {
        s += src[y * W + x + r]!;
        n++;
      }
      if (x - r - 1 >= 0 && x - r - 1 < W) {
        s -= src[y * W + x - r - 1]!;
        n--;
      }
      if (x >= 0 && x < W) tmp[y * W + x] = s / n;
    }
  }
  for (let x = 0; x < W; x++) {
    let s = 0;
    let n = 0;
    for (let y = -r; y < H + r; y++) {
      if (y + r < H && y + r >= 0) {
        s += tmp[(y + r) * W + x]!;
        n++;
      }
      if (y - r - 1 >= 0 && y - r - 1 < H) {
        s -= tmp[(y - r - 1) * W + x]!;
        n--;
      }
      if (y >= 0 && y < H) out[y * W + x] = s / n;
    }
  }
  return out;
}

export interface InkMap {
  width: number;
  height: number;
  /** 0..1 per pixel. */
  ink: Float32Array;
  /** The estimated paper brightness per pixel (0..255). */
  paper: Float32Array;
}

/** Ink of a rectified image; `windowPx` must be wider than the widest pencil line. */
export function inkMap(img: GreyImage, windowPx: number): InkMap {
  const { width: W, height: H } = img;
  const src = new Float32Array(W * H);
  for (let i = 0; i < W * H; i++) src[i] = img.data[i]!;
  const r = Math.max(1, Math.round(windowPx / 2));
  const dil = filter1d(filter1d(src, W, H, r, true, true), W, H, r, false, true);
  const closed = filter1d(filter1d(dil, W, H, r, true, false), W, H, r, false, false);
  const paper = boxBlur(closed, W, H, Math.max(1, Math.round(r / 3)));
  const ink = new Float32Array(W * H);
  for (let i = 0; i < W * H; i++) {
    const p = Math.max(8, paper[i]!);
    const v = (p - src[i]!) / p;
    ink[i] = v < 0 ? 0 : v > 1 ? 1 : v;
  }
  return { width: W, height: H, ink, paper };
}
