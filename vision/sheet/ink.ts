/**
 * Ink: how much darker than the paper each pixel of a rectified image is (0 paper .. 1 black),
 * independent of uneven light and shadows. The paper's brightness is estimated by a grey-level
 * closing (a max filter, then a min filter, both wider than any pencil line): it removes strokes
 * and keeps the light's steps and slopes, then is smoothed a little.
 */
import type { GreyImage } from './markers.js';

/** Running max (or min) over a window of 2r+1 along rows, then columns (van Herk / Gil-Werman). */
function filter1d(src: Float32Array, W: number, H: number, r: number, horizontal: boolean, max: boolean): Float32Array {
  const out = new Float32Array(W * H);
  const n = horizontal ? W : H;
  const lines = horizontal ? H : W;
  const k = 2 * r + 1;
  const g = new Float32Array(n + k);
  const h = new Float32Array(n + k);
  const pick = max ? Math.max : Math.min;
  const pad = max ? -Infinity : Infinity;
  const line = new Float32Array(n + 2 * r);
  for (let l = 0; l < lines; l++) {
    for (let i = 0; i < n + 2 * r; i++) {
      const p = i - r;
      line[i] = p < 0 || p >= n ? pad : horizontal ? src[l * W + p]! : src[p * W + l]!;
    }
    const m = n + 2 * r;
    for (let i = 0; i < m; i++) g[i] = i % k === 0 ? line[i]! : pick(g[i - 1]!, line[i]!);
    for (let i = m - 1; i >= 0; i--) h[i] = i === m - 1 || (i + 1) % k === 0 ? line[i]! : pick(h[i + 1]!, line[i]!);
    for (let i = 0; i < n; i++) {
      const v = pick(h[i]!, g[i + 2 * r]!);
      if (horizontal) out[l * W + i] = v;
      else out[i * W + l] = v;
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
