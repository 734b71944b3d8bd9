/**
 * CIELAB planes of a whole frame, fast: table look-ups instead of a cube root per pixel, because
 * the locator converts every pixel of every frame (0.4 MP at 640×640). Matches `rgbToLab` in
 * vision/image/color.ts to within ~0.2 units.
 */
import { SRGB_TO_LINEAR } from '../image/color.js';
import type { RgbImage } from '../types.js';
import { f32, type FrameScratch } from './scratch.js';

export interface LabPlanes {
  width: number;
  height: number;
  L: Float32Array;
  a: Float32Array;
  b: Float32Array;
}

const F_STEPS = 4096;
/** f(t) of the CIELAB definition sampled on t ∈ [0, 1] (t a little past 1 is clamped). */
const F_TABLE: Float32Array = (() => {
  const t = new Float32Array(F_STEPS + 2);
  for (let i = 0; i <= F_STEPS + 1; i++) {
    const v = i / F_STEPS;
    t[i] = v > 216 / 24389 ? Math.cbrt(v) : (841 / 108) * v + 4 / 29;
  }
  return t;
})();

function f(t: number): number {
  const u = (t <= 0 ? 0 : t >= 1 ? 1 : t) * F_STEPS;
  const i = u | 0;
  const w = u - i;
  return F_TABLE[i]! * (1 - w) + F_TABLE[i + 1]! * w;
}

/**
 * Each byte's linear value times each matrix coefficient, as doubles: the same products
 * `0.4124 * R` etc. that the per-pixel formula makes, looked up instead of multiplied.
 */
const PRODUCTS: Float64Array[] = [0.4124, 0.3576, 0.1805, 0.2126, 0.7152, 0.0722, 0.0193, 0.1192, 0.9505].map((k) =>
  Float64Array.from(SRGB_TO_LINEAR, (v) => k * v),
);
const [XR, XG, XB, YR, YG, YB, ZR, ZG, ZB] = PRODUCTS as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];

/**
 * The Lab of pixels [from, to) of `data` (RGB bytes) into `L`, `a`, `b` at `outAt` onwards, rounded
 * to float32 as the planes store them.
 */
export function labSpan(data: Uint8Array, from: number, to: number, L: Float32Array, a: Float32Array, b: Float32Array, outAt: number): void {
  for (let i = from, p = 3 * from, o = outAt; i < to; i++, p += 3, o++) {
    const r = data[p]!, g = data[p + 1]!, bl = data[p + 2]!;
    const fx = f((XR[r]! + XG[g]! + XB[bl]!) / 0.95047);
    const fy = f(YR[r]! + YG[g]! + YB[bl]!);
    const fz = f((ZR[r]! + ZG[g]! + ZB[bl]!) / 1.08883);
    L[o] = 116 * fy - 16;
    a[o] = 500 * (fx - fy);
    b[o] = 200 * (fy - fz);
  }
}

/** The planes of a whole frame (lent by `scratch` where given: never for planes that are kept). */
export function toLabPlanes(image: RgbImage, scratch?: FrameScratch): LabPlanes {
  const { width, height, data } = image;
  const n = width * height;
  const L = f32(n, scratch);
  const a = f32(n, scratch);
  const b = f32(n, scratch);
  labSpan(data, 0, n, L, a, b, 0);
  return { width, height, L, a, b };
}

/**
 * The Lab of one stretch of a row at a time, into planes kept between calls (grown as needed):
 * the box measurement converts only the pixels around each die, a stretch at a time.
 */
export class LabStretch {
  L = new Float32Array(0);
  a = new Float32Array(0);
  b = new Float32Array(0);

  /** Pixels x0..x1-1 of row y of `image` into `L`, `a`, `b` from index 0. */
  read(image: Pick<RgbImage, 'width' | 'data'>, y: number, x0: number, x1: number): void {
    const n = x1 - x0;
    if (this.L.length < n) {
      const size = Math.max(n, 2 * this.L.length, 64);
      this.L = new Float32Array(size);
      this.a = new Float32Array(size);
      this.b = new Float32Array(size);
    }
    const start = y * image.width + x0;
    labSpan(image.data, start, start + n, this.L, this.a, this.b, 0);
  }
}
