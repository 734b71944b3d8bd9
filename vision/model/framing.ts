/**
 * Framing an image that holds one die (a "crop" from elsewhere: a phone, a dataset, a folder
 * of calibration pictures) the way the classifier was trained: `squareCrop` around the die's
 * box. 'whole' takes the image itself as the die's box (right for tight crops); 'locate' looks
 * for the die inside first and falls back to the whole image when nothing die-sized is found
 * (right for loose crops with much table around the die).
 */
import { squareCrop } from '../image/crop.js';
import { locateDice, type LocateOptions } from '../locate/index.js';
import type { Box, RgbImage } from '../types.js';

export type FramingMode = 'whole' | 'locate';

export interface Framed {
  crop: RgbImage;
  box: Box;
  /** True when the locator found the die inside the image. */
  located: boolean;
}

/** Smallest share of a crop's area a located die must cover to be trusted as "the" die. */
const MIN_LOCATED_SHARE = 0.12;

export function frameDieImage(image: RgbImage, mode: FramingMode = 'whole', locate: LocateOptions = {}): Framed {
  const whole: Box = [0, 0, image.width, image.height];
  if (mode === 'locate') {
    const found = locateDice(image, { ...locate, minSize: Math.max(8, 0.2 * Math.min(image.width, image.height)) });
    const area = image.width * image.height;
    const best = found
      .filter((d) => ((d.box[2] - d.box[0]) * (d.box[3] - d.box[1])) / area >= MIN_LOCATED_SHARE)
      .sort((a, b) => b.score - a.score)[0];
    if (best) return { crop: squareCrop(image, best.box), box: best.box, located: true };
  }
  return { crop: squareCrop(image, whole), box: whole, located: false };
}
