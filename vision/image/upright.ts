/**
 * Which way is up for a die in a frame, and its crop turned that way.
 *
 * An upright model reads a die as a photo shows it: its top face above its side faces. A camera
 * that looks at the tray from the side (a webcam on a stand, a phone held over the table) gives
 * that already. A camera straight over the tray shows each die's side faces towards the frame's
 * centre (the point below the lens), so there a die's "up" points away from the centre, and its
 * crop is turned so that direction points up before it is read.
 */
import type { Box, CameraView, RgbImage } from '../types.js';
import { clampRound } from './image.js';
import { squareCrop, type SquareCropOptions, CROP_SCALE, CROP_SIZE } from './crop.js';

/**
 * Within this fraction of the frame's smaller side from the centre, an overhead camera shows no
 * side face worth turning for (and the direction is noise): the die is read as it is.
 */
const CENTRE_RADIUS = 0.08;

/**
 * The angle (radians, clockwise from the picture's up) that is "up" for a die with this box:
 * 0 from the side, and when up is not known ('any': the reader finds it per die); away from the
 * frame's centre from overhead.
 */
export function upAngle(box: Box, width: number, height: number, view: CameraView): number {
  return view === 'overhead' ? (overheadUp(box, width, height) ?? 0) : 0;
}

/** Up for a die seen from straight overhead: away from the frame's centre, or null near the centre (no side face shows). */
export function overheadUp(box: Box, width: number, height: number): number | null {
  const dx = (box[0] + box[2]) / 2 - width / 2;
  const dy = (box[1] + box[3]) / 2 - height / 2;
  if (Math.hypot(dx, dy) < CENTRE_RADIUS * Math.min(width, height)) return null;
  return Math.atan2(dx, -dy);
}

/**
 * `squareCrop` of the box turned by `angle` (upAngle): the direction `angle` in the picture
 * becomes the crop's up. Angle 0 is `squareCrop` itself. Otherwise a square √2 larger is cut at
 * the same pixel density (so the turned corners hold real pixels) and sampled bilinearly round
 * its centre.
 */
export function uprightCrop(image: RgbImage, box: Box, angle: number, options: SquareCropOptions = {}): RgbImage {
  if (!Number.isFinite(angle)) throw new RangeError(`uprightCrop: angle must be finite, got ${angle}`);
  if (angle === 0) return squareCrop(image, box, options);
  const size = options.size ?? CROP_SIZE;
  const scale = options.scale ?? CROP_SCALE;
  // √2·size + 2 keeps every sample of the turned square (and its right and lower neighbour)
  // inside the wide crop, so the loop needs no clamping.
  const big = Math.ceil(size * Math.SQRT2) + 2;
  const wide = squareCrop(image, box, { size: big, scale: (scale * big) / size });
  const out = new Uint8Array(size * size * 3);
  const c = Math.cos(angle), s = Math.sin(angle);
  const half = size / 2, bigHalf = big / 2;
  const src = wide.data;
  const row = big * 3;
  // u·cos and u·sin per column, worked out once: the same products the per-pixel formula takes.
  const uc = new Float64Array(size), us = new Float64Array(size);
  for (let x = 0; x < size; x++) {
    const u = x + 0.5 - half;
    uc[x] = u * c;
    us[x] = u * s;
  }
  for (let y = 0, o = 0; y < size; y++) {
    const v = y + 0.5 - half;
    const vs = v * s, vc = v * c;
    // Output (u, v) comes from the wide crop at R(angle)·(u, v): the crop's up (0, −1) from (sin, −cos).
    for (let x = 0; x < size; x++, o += 3) {
      const sx = bigHalf + uc[x]! - vs - 0.5;
      const sy = bigHalf + us[x]! + vc - 0.5;
      const x0 = sx | 0, y0 = sy | 0;
      const fx = sx - x0, fy = sy - y0;
      const a = y0 * row + x0 * 3, d = a + row;
      let top = src[a]! + (src[a + 3]! - src[a]!) * fx;
      let bottom = src[d]! + (src[d + 3]! - src[d]!) * fx;
      out[o] = clampRound(top + (bottom - top) * fy);
      top = src[a + 1]! + (src[a + 4]! - src[a + 1]!) * fx;
      bottom = src[d + 1]! + (src[d + 4]! - src[d + 1]!) * fx;
      out[o + 1] = clampRound(top + (bottom - top) * fy);
      top = src[a + 2]! + (src[a + 5]! - src[a + 2]!) * fx;
      bottom = src[d + 2]! + (src[d + 5]! - src[d + 2]!) * fx;
      out[o + 2] = clampRound(top + (bottom - top) * fy);
    }
  }
  return { width: size, height: size, data: out };
}
