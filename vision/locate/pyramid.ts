/**
 * The two scales the locator works at: the frame at 640 px (boxes are measured here) and a
 * half-size copy where the tray is modelled and the mask is segmented (four times fewer pixels;
 * a 20 px die is still 10 px there).
 *
 * A frame between half the working size and the working size is enlarged to it first. Halved
 * as it came, its dice would reach the segmentation smaller than the same dice in a larger
 * frame of the same view: a 480 px frame's 20 px dice at 7 px instead of 10. The real Catan
 * frames scaled to 336–576 px wide lost up to 11 of their 16 dice so, and found them all once
 * enlarged (docs/notes/vision-locate.md, "Frames of other sizes"). A frame of
 * half the working size or less is not halved, so it keeps its dice's own size.
 */
import { fitWithin, toLongerSide } from '../image/resize.js';
import type { RgbImage } from '../types.js';
import { u8, type FrameScratch } from './scratch.js';

export interface Pyramid {
  /** The frame at working size (the input itself when it is small enough). */
  fine: RgbImage;
  /** `fine` halved (2×2 means), or `fine` itself when already small. */
  coarse: RgbImage;
  /** Input pixels per fine pixel. */
  fineScale: number;
  /** Fine pixels per coarse pixel (2, or 1 when not halved). */
  step: 1 | 2;
}

/** 2×2 box-filter halving (odd last row/column dropped). */
export function halve(image: RgbImage, scratch?: FrameScratch): RgbImage {
  const w = image.width >> 1, h = image.height >> 1;
  const src = image.data;
  const out = u8(w * h * 3, scratch);
  const stride = image.width * 3;
  for (let y = 0; y < h; y++) {
    let s = 2 * y * stride;
    let d = y * w * 3;
    for (let x = 0; x < w; x++, s += 6, d += 3) {
      out[d] = (src[s]! + src[s + 3]! + src[s + stride]! + src[s + stride + 3]! + 2) >> 2;
      out[d + 1] = (src[s + 1]! + src[s + 4]! + src[s + stride + 1]! + src[s + stride + 4]! + 2) >> 2;
      out[d + 2] = (src[s + 2]! + src[s + 5]! + src[s + stride + 2]! + src[s + stride + 5]! + 2) >> 2;
    }
  }
  return { width: w, height: h, data: out };
}

/** The frame at the working size: shrunk to `maxSide`, or enlarged to it from above half of it. */
function workingSize(image: RgbImage, maxSide: number): { image: RgbImage; scale: number } {
  const long = Math.max(image.width, image.height);
  return long > maxSide / 2 && long < maxSide ? toLongerSide(image, maxSide) : fitWithin(image, maxSide);
}

/** `scratch`: where the coarse frame is lent from (never for a pyramid that is kept). */
export function buildPyramid(image: RgbImage, maxSide: number, scratch?: FrameScratch): Pyramid {
  const { image: fine, scale } = workingSize(image, maxSide);
  const halveIt = Math.max(fine.width, fine.height) > maxSide / 2 && Math.min(fine.width, fine.height) >= 16;
  return { fine, coarse: halveIt ? halve(fine, scratch) : fine, fineScale: 1 / scale, step: halveIt ? 2 : 1 };
}
