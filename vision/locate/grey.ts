/**
 * Grey frames: a monochrome camera, or a webcam that has switched to black and white in dim or
 * infrared light, gives R = G = B, so the tray evidence (evidence.ts) has no chroma to go on and a
 * die must stand out by its lightness alone. Red and ivory dice on brown wood differ from it
 * little in lightness: the real Catan frames in grey lost 13 of their 16 dice at the usual
 * lightness floor, which is set for frames where chroma carries most dice. Where there is no
 * chroma at all, the floor is lowered; and the reader names no colour with a hue, which a grey
 * picture cannot show (docs/notes/vision-locate.md, "Grey frames").
 */
import { DIE_COLORS } from '../../shared/dice.js';
import type { RgbImage } from '../types.js';

/** How far a grey frame's channels stay apart (a camera's rounding, JPEG's), of 255. */
const GREY_CHANNEL_SPREAD = 2;
/** Share of pixels that may pass it (a few coloured pixels do not make a colour frame). */
const GREY_SHARE_ALLOWED = 0.005;

/**
 * Whether the picture has no colour: all but a few of its pixels (every `step`-th looked at)
 * with R, G and B within `GREY_CHANNEL_SPREAD` of each other.
 */
export function isGreyImage(image: RgbImage, step = 1): boolean {
  const { data } = image;
  const n = Math.floor(data.length / 3);
  if (n === 0) return false;
  const allowed = (GREY_SHARE_ALLOWED * n) / step;
  let coloured = 0;
  for (let p = 0; p < data.length; p += 3 * step) {
    const r = data[p]!, g = data[p + 1]!, b = data[p + 2]!;
    if (Math.max(r, g, b) - Math.min(r, g, b) > GREY_CHANNEL_SPREAD && ++coloured > allowed) return false;
  }
  return true;
}

/** Channel spread (of 255) above which a palette colour has a hue: ivory's is 40, white's 5, grey's 0. */
const HUE_SPREAD = 20;

/** A die colour with a hue, which a grey picture cannot tell from a grey of its lightness (ivory included). */
export function hasHue(color: string): boolean {
  const rgb = DIE_COLORS[color];
  return rgb !== undefined && Math.max(...rgb) - Math.min(...rgb) > HUE_SPREAD;
}

/**
 * The lightness floor of a grey frame, for the mask and the boxes alike (the usual one is
 * `NOISE_FLOOR`, 2.5). Chosen on the development seeds' rendered scenes made grey (found / boxes
 * on no die, of 1,497 dice): 2.5 → 876 / 236; 1 → 960 / 185; 0.75 for the mask → 967 / 184;
 * 0.5 → 1,002 / 193, with the boxes looser (mean IoU 0.858 → 0.848). Checked on the held-out
 * seeds (800 / 301 → 924 / 221 of 1,431) and on the real frames in grey (`npm run eval:dice`:
 * 4 → 10 of 16 found, boxes on no die 6 → 4).
 */
export const GREY_NOISE_FLOOR = 1;
