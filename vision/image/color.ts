/**
 * Colour-space helpers as pure functions on pixels and `RgbImage`s.
 */
import type { RgbImage } from '../types.js';

/** Rec. 601 luma of one pixel, 0..255. */
export function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/** Grey image (one byte per pixel, Rec. 601 luma). */
export function toGrey(image: RgbImage): Uint8Array {
  const n = image.width * image.height;
  const out = new Uint8Array(n);
  const d = image.data;
  for (let i = 0, p = 0; i < n; i++, p += 3) {
    out[i] = Math.round(0.299 * d[p]! + 0.587 * d[p + 1]! + 0.114 * d[p + 2]!);
  }
  return out;
}

/** Expand a one-byte-per-pixel grey plane back to RGB. */
export function greyToRgb(grey: Uint8Array, width: number, height: number): RgbImage {
  if (grey.length !== width * height) throw new RangeError(`greyToRgb: ${grey.length} bytes for ${width}×${height}`);
  const data = new Uint8Array(width * height * 3);
  for (let i = 0, p = 0; i < grey.length; i++, p += 3) {
    data[p] = data[p + 1] = data[p + 2] = grey[i]!;
  }
  return { width, height, data };
}

/** RGB (0..255) → HSV with hue in degrees [0, 360), saturation and value in [0, 1]. */
export function rgbToHsv(r: number, g: number, b: number): [h: number, s: number, v: number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  let h = 0;
  if (d > 0) {
    if (max === r) h = 60 * (((g - b) / d) % 6);
    else if (max === g) h = 60 * ((b - r) / d + 2);
    else h = 60 * ((r - g) / d + 4);
    if (h < 0) h += 360;
  }
  return [h, max === 0 ? 0 : d / max, max / 255];
}

/** HSV (hue degrees, s and v in [0, 1]) → RGB 0..255 (rounded). */
export function hsvToRgb(h: number, s: number, v: number): [number, number, number] {
  const hh = ((h % 360) + 360) % 360;
  const c = v * s;
  const x = c * (1 - Math.abs(((hh / 60) % 2) - 1));
  const m = v - c;
  const [r, g, b] =
    hh < 60 ? [c, x, 0] : hh < 120 ? [x, c, 0] : hh < 180 ? [0, c, x] : hh < 240 ? [0, x, c] : hh < 300 ? [x, 0, c] : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

/** Per-pixel HSV planes of an image: hue degrees, saturation and value in [0, 1]. */
export function toHsv(image: RgbImage): { h: Float32Array; s: Float32Array; v: Float32Array } {
  const n = image.width * image.height;
  const h = new Float32Array(n);
  const s = new Float32Array(n);
  const v = new Float32Array(n);
  const d = image.data;
  for (let i = 0, p = 0; i < n; i++, p += 3) {
    const [hh, ss, vv] = rgbToHsv(d[p]!, d[p + 1]!, d[p + 2]!);
    h[i] = hh;
    s[i] = ss;
    v[i] = vv;
  }
  return { h, s, v };
}

/** sRGB byte → linear light 0..1 (table). */
export const SRGB_TO_LINEAR: Float32Array = (() => {
  const t = new Float32Array(256);
  for (let i = 0; i < 256; i++) {
    const c = i / 255;
    t[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }
  return t;
})();

/** Linear light 0..1 → sRGB byte (clamped). */
export function linearToSrgb(v: number): number {
  const c = v <= 0 ? 0 : v >= 1 ? 1 : v;
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
  return Math.round(s * 255);
}

/** CIE L*a*b* of an sRGB colour (D65), for perceptual colour distances. */
export function rgbToLab(r: number, g: number, b: number): [number, number, number] {
  const R = SRGB_TO_LINEAR[r | 0]!, G = SRGB_TO_LINEAR[g | 0]!, B = SRGB_TO_LINEAR[b | 0]!;
  const X = (0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047;
  const Y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  const Z = (0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (841 / 108) * t + 4 / 29);
  const fx = f(X), fy = f(Y), fz = f(Z);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}
