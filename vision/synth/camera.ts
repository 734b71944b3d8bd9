/**
 * What a camera does to the light: exposure and white balance, sRGB encoding with a soft
 * shoulder (glare saturates gently), lens blur, sensor noise, sharpening halos, JPEG.
 */
import type { Rng } from '../../shared/rng.js';
import type { RgbImage } from '../types.js';
import { jpegArtefacts } from './jpeg.js';

const LUT_SIZE = 4096;
/** Linear (0..LUT_MAX) → sRGB byte, with a soft shoulder above 0.8. */
const LUT_MAX = 2;
const TO_SRGB = (() => {
  const t = new Uint8Array(LUT_SIZE + 1);
  for (let i = 0; i <= LUT_SIZE; i++) {
    let v = (i / LUT_SIZE) * LUT_MAX;
    if (v > 0.8) v = 0.8 + 0.2 * (1 - Math.exp(-(v - 0.8) / 0.2));
    const s = v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055;
    t[i] = Math.max(0, Math.min(255, Math.round(s * 255)));
  }
  return t;
})();

export interface CameraResponse {
  exposure: number;
  /** Colour saturation applied by the camera's processing (1 = neutral). */
  saturation: number;
  /** Extra tone-curve exponent on the encoded values (1 = plain sRGB; < 1 lifts shadows). */
  contrast: number;
  /** Per-channel gain (white balance error). */
  gain: [number, number, number];
  /** Gaussian blur sigma in pixels (0 = none). */
  blur: number;
  /** Sensor noise standard deviation in 8-bit levels at mid grey. */
  noise: number;
  /** Unsharp-mask amount (0 = none), as many webcams apply (ignored when the shot is blurred). */
  sharpen: number;
  /** JPEG quality 1..100, or 0 for none. */
  jpegQuality: number;
}

export function toSrgb(rgb: Float32Array, width: number, height: number, cam: Pick<CameraResponse, 'exposure' | 'gain' | 'saturation' | 'contrast'>): RgbImage {
  const out = new Uint8Array(width * height * 3);
  const k = (LUT_SIZE / LUT_MAX) * cam.exposure;
  const kr = k * cam.gain[0], kg = k * cam.gain[1], kb = k * cam.gain[2];
  const sat = cam.saturation;
  // The camera's tone curve as a table over the encoded byte.
  const curve = new Uint8Array(256);
  for (let v = 0; v < 256; v++) curve[v] = Math.round(255 * (v / 255) ** cam.contrast);
  for (let i = 0; i < out.length; i += 3) {
    let r = rgb[i]! * kr, g = rgb[i + 1]! * kg, b = rgb[i + 2]! * kb;
    if (sat !== 1) {
      const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      r = y + (r - y) * sat;
      g = y + (g - y) * sat;
      b = y + (b - y) * sat;
    }
    out[i] = curve[TO_SRGB[r <= 0 ? 0 : r >= LUT_SIZE ? LUT_SIZE : r | 0]!]!;
    out[i + 1] = curve[TO_SRGB[g <= 0 ? 0 : g >= LUT_SIZE ? LUT_SIZE : g | 0]!]!;
    out[i + 2] = curve[TO_SRGB[b <= 0 ? 0 : b >= LUT_SIZE ? LUT_SIZE : b | 0]!]!;
  }
  return { width, height, data: out };
}

const GAUSS_BITS = 12;
const GAUSS_MASK = (1 << GAUSS_BITS) - 1;
/** Standard normal quantiles at evenly spaced probabilities: a table to draw Gaussian noise from. */
const GAUSS = (() => {
  const n = 1 << GAUSS_BITS;
  const t = new Float32Array(n);
  // Inverse normal CDF by bisection on erf (run once).
  const erf = (x: number) => {
    const s = Math.sign(x), a = Math.abs(x), u = 1 / (1 + 0.3275911 * a);
    return s * (1 - ((((1.061405429 * u - 1.453152027) * u + 1.421413741) * u - 0.284496736) * u + 0.254829592) * u * Math.exp(-a * a));
  };
  for (let i = 0; i < n; i++) {
    const p = (i + 0.5) / n;
    let lo = -6, hi = 6;
    for (let k = 0; k < 40; k++) {
      const mid = (lo + hi) / 2;
      if (0.5 * (1 + erf(mid / Math.SQRT2)) < p) lo = mid;
      else hi = mid;
    }
    t[i] = (lo + hi) / 2;
  }
  return t;
})();

/**
 * Scratch float buffers reused across calls (the pipeline is synchronous, and each worker thread
 * has its own module instance): allocating fresh typed arrays per crop showed up as GC time.
 */
const scratch: Float32Array[] = [];
function scratchBuffer(slot: number, length: number): Float32Array {
  let buf = scratch[slot];
  if (!buf || buf.length < length) {
    buf = new Float32Array(Math.max(length, 16384));
    scratch[slot] = buf;
  }
  return buf.subarray(0, length);
}

/** Float values → bytes, rounded and clamped (a clamped array does both on store). */
function toBytes(f: Float32Array): Uint8Array {
  const out = new Uint8ClampedArray(f.length);
  out.set(f);
  return new Uint8Array(out.buffer);
}

function kernel(sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(sigma * 2.5));
  const k = new Float32Array(2 * r + 1);
  let s = 0;
  for (let i = -r; i <= r; i++) s += k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i] = k[i]! / s;
  return k;
}

/** Separable Gaussian blur (edges replicated) of src into out (which must not be src). */
function blurFloat(src: Float32Array, w: number, h: number, sigma: number, out: Float32Array = new Float32Array(src.length)): Float32Array {
  const k = kernel(sigma);
  const r = (k.length - 1) / 2;
  const tmp = scratchBuffer(3, src.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let a = 0, b = 0, c = 0;
      for (let i = -r; i <= r; i++) {
        const xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
        const p = (y * w + xx) * 3, kk = k[i + r]!;
        a += src[p]! * kk; b += src[p + 1]! * kk; c += src[p + 2]! * kk;
      }
      const o = (y * w + x) * 3;
      tmp[o] = a; tmp[o + 1] = b; tmp[o + 2] = c;
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let a = 0, b = 0, c = 0;
      for (let i = -r; i <= r; i++) {
        const yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i;
        const p = (yy * w + x) * 3, kk = k[i + r]!;
        a += tmp[p]! * kk; b += tmp[p + 1]! * kk; c += tmp[p + 2]! * kk;
      }
      const o = (y * w + x) * 3;
      out[o] = a; out[o + 1] = b; out[o + 2] = c;
    }
  }
  return out;
}

export function gaussianBlur(image: RgbImage, sigma: number): RgbImage {
  if (sigma <= 0.05) return image;
  const f = blurFloat(Float32Array.from(image.data), image.width, image.height, sigma);
  return { width: image.width, height: image.height, data: toBytes(f) };
}

/** Lens blur, sensor noise (signal-dependent, partly chromatic), sharpening and JPEG, in camera order. */
export function cameraPipeline(image: RgbImage, cam: CameraResponse, rng: Rng): RgbImage {
  const { width: w, height: h } = image;
  let f: Float32Array = scratchBuffer(0, image.data.length);
  f.set(image.data);
  // Below ~0.35 px a Gaussian changes next to nothing that the final resampling would not.
  if (cam.blur > 0.35) f = blurFloat(f, w, h, cam.blur, scratchBuffer(1, f.length));
  if (cam.noise > 0) {
    // Gaussian samples from a table indexed by an inline xorshift seeded from rng (rng.normal()
    // per pixel would dominate the render time).
    let x = (Math.floor(rng.next() * 2 ** 32) | 1) >>> 0;
    const g = GAUSS;
    for (let i = 0; i < f.length; i += 3) {
      const lum = (f[i]! + f[i + 1]! + f[i + 2]!) / 3;
      const s = cam.noise * Math.sqrt(0.25 + lum / 170);
      x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
      const common = g[(x >>> 20) & GAUSS_MASK]! * s;
      const c = s * 0.5;
      f[i] = f[i]! + common + g[(x >>> 8) & GAUSS_MASK]! * c;
      x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
      f[i + 1] = f[i + 1]! + common + g[(x >>> 20) & GAUSS_MASK]! * c;
      f[i + 2] = f[i + 2]! + common + g[(x >>> 8) & GAUSS_MASK]! * c;
    }
  }
  if (cam.sharpen > 0 && cam.blur <= 0.35) {
    const soft = blurFloat(f, w, h, 1.0, scratchBuffer(2, f.length));
    for (let i = 0; i < f.length; i++) f[i] = f[i]! + cam.sharpen * (f[i]! - soft[i]!);
  }
  let out: RgbImage = { width: w, height: h, data: toBytes(f) };
  if (cam.jpegQuality > 0 && cam.jpegQuality < 100) out = jpegArtefacts(out, cam.jpegQuality);
  return out;
}
