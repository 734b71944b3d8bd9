/**
 * The one crop framing every classifier input uses (training and inference alike): a square
 * centred on the die's box, side = scale × the box's longer side, edges replicated outside the
 * image, resampled to size × size (see resize.ts for the filter).
 */
import type { Box, RgbImage } from '../types.js';
import { assertBox } from './image.js';
import { resampleRect } from './resize.js';

export interface SquareCropOptions {
  /** Output side in pixels (default 64). */
  size?: number;
  /** Square side as a multiple of the box's longer side (default 1.15). */
  scale?: number;
}

export const CROP_SIZE = 64;
export const CROP_SCALE = 1.15;

/** The square (pixel-edge coordinates) that `squareCrop` samples for a box. */
export function squareAround(box: Box, scale = CROP_SCALE): Box {
  assertBox(box, 'squareAround');
  const cx = (box[0] + box[2]) / 2;
  const cy = (box[1] + box[3]) / 2;
  const half = (scale * Math.max(box[2] - box[0], box[3] - box[1])) / 2;
  return [cx - half, cy - half, cx + half, cy + half];
}

/**
 * Boxes are in pixel-edge coordinates: [0, 0, width, height] is the whole image, and a die whose
 * pixels span columns 10..29 has x0 = 10, x1 = 30.
 */
export function squareCrop(image: RgbImage, box: Box, options: SquareCropOptions = {}): RgbImage {
  const size = options.size ?? CROP_SIZE;
  const scale = options.scale ?? CROP_SCALE;
  if (!Number.isInteger(size) || size <= 0) throw new RangeError(`squareCrop: size must be a positive integer, got ${size}`);
  if (!(scale > 0 && Number.isFinite(scale))) throw new RangeError(`squareCrop: scale must be positive, got ${scale}`);
  const sq = squareAround(box, scale);
  const side = sq[2] - sq[0];
  return resampleRect(image, sq[0], sq[1], side, side, size, size);
}
