/**
 * CIELAB planes of a whole frame, fast: table look-ups instead of a cube root per pixel, because
 * the locator converts every pixel of every frame (0.4 MP at 640×640). Matches `rgbToLab` in
 * vision/image/color.ts to within ~0.2 units.
 */
import { SRGB_TO_LINEAR } from '../image/color.js';
import type { RgbImage } from '../types.js';

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

export function toLabPlanes(image: RgbImage): LabPlanes {
  const { width, height, data } = image;
  const n = width * height;
  const L = new Float32Array(n);
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  const lin = SRGB_TO_LINEAR;
  for (let i = 0, p = 0; i < n; i++, p += 3) {
    const R = lin[data[p]!]!;
    const G = lin[data[p + 1]!]!;
    const B = lin[data[p + 2]!]!;
    const fx = f((0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047);
    const fy = f(0.2126 * R + 0.7152 * G + 0.0722 * B);
    const fz = f((0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883);
    L[i] = 116 * fy - 16;
    a[i] = 500 * (fx - fy);
    b[i] = 200 * (fy - fz);
  }
  return { width, height, L, a, b };
}
