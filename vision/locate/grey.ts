/**
 * Grey frames: a monochrome camera, or a webcam that has switched to black and white in dim or
 * infrared light, gives R = G = B, so the tray evidence (evidence.ts) has no chroma to go on and a
 * die must stand out by its lightness alone. Red and ivory dice on brown wood differ from it
 * little in lightness: the real Catan frames in grey lost 13 of their 16 dice at the usual
 * lightness floor, which is set for frames where chroma carries most dice. Where there is no
 * chroma at all, the floor is lowered (docs/notes/vision-locate.md, "Grey frames").
 */
import type { LabPlanes } from './lab.js';

/** Chroma (|a| or |b|, Lab units) a grey frame's pixels stay within: a camera's rounding, JPEG's. */
const GREY_CHROMA = 1;
/** Share of pixels that may pass it (a few coloured pixels do not make a colour frame). */
const GREY_SHARE_ALLOWED = 0.005;

/** Whether the frame has no chroma: all but a few of its pixels within ±`GREY_CHROMA` in a and b. */
export function isGreyFrame(lab: LabPlanes): boolean {
  const { a, b } = lab;
  const n = a.length;
  if (n === 0) return false;
  const allowed = GREY_SHARE_ALLOWED * n;
  let coloured = 0;
  for (let i = 0; i < n; i++) {
    if (Math.abs(a[i]!) > GREY_CHROMA || Math.abs(b[i]!) > GREY_CHROMA) {
      if (++coloured > allowed) return false;
    }
  }
  return true;
}

/**
 * The lightness floor of a grey frame, for the mask and the boxes alike (the usual one is
 * `NOISE_FLOOR`, 2.5). Chosen on the development seeds' rendered scenes made grey (found / boxes
 * on no die, of 1,497 dice): 2.5 → 876 / 236; 1 → 960 / 185; 0.75 for the mask → 967 / 184;
 * 0.5 → 1,002 / 193, with the boxes looser (mean IoU 0.858 → 0.848). Checked on the held-out
 * seeds (800 / 301 → 924 / 221 of 1,431) and on the real frames in grey (3 → 9 of 16, 2 boxes on no die).
 */
export const GREY_NOISE_FLOOR = 1;
