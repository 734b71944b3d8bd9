/**
 * The detector's output grid and its training targets, as pure functions (after CenterNet,
 * "Objects as Points"): per output cell a die-centre heatmap, and at each die's centre cell the
 * sub-cell offset of the centre and the log of the die's width and height.
 */
import type { Box } from '../../types.js';

/** Input pixels per output cell. */
export const OUTPUT_STRIDE = 2;
/** Channels of the output: heat logit, offset x, offset y, log width, log height. */
export const OUTPUT_CHANNELS = 5;

export interface Targets {
  gw: number;
  gh: number;
  /** Gaussian peaks (1 exactly at each die's centre cell), gw×gh. */
  heat: Float32Array;
  /** Per cell [offset x, offset y, log w, log h], gw×gh×4; only centre cells are meaningful. */
  regress: Float32Array;
  /** 1 at centre cells (where `regress` is trained). */
  centres: Float32Array;
}

/** Spread of a die's heat peak, in cells: a sixth of its smaller side, at least 0.6. */
export function peakSigma(w: number, h: number): number {
  return Math.max(0.6, Math.min(w, h) / OUTPUT_STRIDE / 6);
}

export function makeTargets(boxes: readonly Box[], width: number, height: number): Targets {
  const gw = Math.ceil(width / OUTPUT_STRIDE), gh = Math.ceil(height / OUTPUT_STRIDE);
  const heat = new Float32Array(gw * gh);
  const regress = new Float32Array(gw * gh * 4);
  const centres = new Float32Array(gw * gh);
  for (const [x0, y0, x1, y1] of boxes) {
    const w = x1 - x0, h = y1 - y0;
    if (!(w > 0 && h > 0)) continue;
    const cx = (x0 + x1) / 2 / OUTPUT_STRIDE, cy = (y0 + y1) / 2 / OUTPUT_STRIDE;
    const px = Math.min(gw - 1, Math.max(0, Math.floor(cx))), py = Math.min(gh - 1, Math.max(0, Math.floor(cy)));
    const s = peakSigma(w, h);
    const r = Math.ceil(3 * s);
    for (let y = Math.max(0, py - r); y <= Math.min(gh - 1, py + r); y++) {
      for (let x = Math.max(0, px - r); x <= Math.min(gw - 1, px + r); x++) {
        const v = Math.exp(-((x - px) ** 2 + (y - py) ** 2) / (2 * s * s));
        const i = y * gw + x;
        if (v > heat[i]!) heat[i] = v;
      }
    }
    const c = py * gw + px;
    heat[c] = 1;
    centres[c] = 1;
    regress.set([cx - px, cy - py, Math.log(w), Math.log(h)], c * 4);
  }
  return { gw, gh, heat, regress, centres };
}

export interface Detection {
  box: Box;
  score: number;
}

function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  const u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return u > 0 ? inter / u : 0;
}

/**
 * Boxes from the network's raw output (gw×gh×5, channels last): every cell whose heat is a 3×3
 * local maximum at or above `threshold` is a die; overlapping duplicates (IoU ≥ 0.6) keep the
 * stronger. Boxes are in input pixels.
 */
export function decodeOutput(out: Float32Array, gw: number, gh: number, threshold: number): Detection[] {
  const heat = new Float32Array(gw * gh);
  for (let i = 0; i < gw * gh; i++) heat[i] = 1 / (1 + Math.exp(-out[i * OUTPUT_CHANNELS]!));
  const found: Detection[] = [];
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const v = heat[y * gw + x]!;
      if (v < threshold) continue;
      let peak = true;
      for (let dy = -1; dy <= 1 && peak; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx, yy = y + dy;
          if ((dx || dy) && xx >= 0 && yy >= 0 && xx < gw && yy < gh) {
            const u = heat[yy * gw + xx]!;
            // Ties go to the first cell in scan order.
            if (u > v || (u === v && yy * gw + xx < y * gw + x)) {
              peak = false;
              break;
            }
          }
        }
      }
      if (!peak) continue;
      const o = (y * gw + x) * OUTPUT_CHANNELS;
      const cx = (x + out[o + 1]!) * OUTPUT_STRIDE, cy = (y + out[o + 2]!) * OUTPUT_STRIDE;
      const w = Math.exp(Math.min(8, out[o + 3]!)), h = Math.exp(Math.min(8, out[o + 4]!));
      found.push({ box: [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], score: v });
    }
  }
  found.sort((a, b) => b.score - a.score);
  const kept: Detection[] = [];
  for (const d of found) if (!kept.some((k) => iou(k.box, d.box) >= 0.6)) kept.push(d);
  return kept;
}
