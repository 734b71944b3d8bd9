/**
 * A bench frame as a camera that leaves colour noise in gives it: noise of σ levels in each
 * channel, its own per channel (seeded, so every run measures the same pixels).
 */
import { createRng } from '../../shared/rng.js';
import type { RgbImage } from '../../vision/types.js';

export function withColourNoise(frame: RgbImage, seed: string, sigma = 6): RgbImage {
  const rng = createRng(seed);
  return { ...frame, data: Uint8Array.from(frame.data, (v) => Math.max(0, Math.min(255, Math.round(v + sigma * rng.normal())))) };
}
