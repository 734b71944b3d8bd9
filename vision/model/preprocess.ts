/**
 * Classifier input preprocessing, as pure functions on pixel arrays: every 64×64 RGB crop is
 * standardised on its own (subtract the crop's mean, divide by its standard deviation, both over
 * all pixels and channels). That removes exposure and contrast, which vary with the table's
 * light, and keeps the colours' relations (pips against body). The parameters are stored beside
 * the weights (meta.json `preprocessing`) so training and inference cannot drift apart.
 */
import type { RgbImage } from '../types.js';

export interface Preprocessing {
  kind: 'per-crop-standardise';
  size: number;
  /** Smallest standard deviation divided by, in 8-bit levels: flat crops are not blown up to noise. */
  minStd: number;
}

export const DEFAULT_PREPROCESSING: Preprocessing = { kind: 'per-crop-standardise', size: 64, minStd: 12 };

/** Standardises one crop's bytes (size·size·3) into `out` at `offset`. */
export function standardiseInto(pixels: ArrayLike<number>, out: Float32Array, offset: number, p: Preprocessing = DEFAULT_PREPROCESSING): void {
  const n = p.size * p.size * 3;
  if (pixels.length !== n) throw new Error(`preprocess: expected ${n} values for a ${p.size}×${p.size} RGB crop, got ${pixels.length}`);
  let sum = 0;
  let sq = 0;
  for (let i = 0; i < n; i++) {
    const v = pixels[i]!;
    sum += v;
    sq += v * v;
  }
  const mean = sum / n;
  const std = Math.max(p.minStd, Math.sqrt(Math.max(0, sq / n - mean * mean)));
  const inv = 1 / std;
  for (let i = 0; i < n; i++) out[offset + i] = (pixels[i]! - mean) * inv;
}

/** A batch of crops as one NHWC float array, ready for `tf.tensor4d(data, [n, size, size, 3])`. */
export function preprocessCrops(crops: readonly RgbImage[], p: Preprocessing = DEFAULT_PREPROCESSING): Float32Array {
  const n = p.size * p.size * 3;
  const out = new Float32Array(crops.length * n);
  crops.forEach((crop, k) => {
    if (crop.width !== p.size || crop.height !== p.size) {
      throw new Error(`preprocess: crop ${k} is ${crop.width}×${crop.height}; the classifier takes ${p.size}×${p.size} (frame it with squareCrop)`);
    }
    standardiseInto(crop.data, out, k * n, p);
  });
  return out;
}
