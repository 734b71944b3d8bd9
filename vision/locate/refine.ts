/**
 * A die's box measured at full working size: the extent of the fine pixels that differ from the
 * tray round a piece of the coarse mask.
 */
import type { Box } from '../types.js';
import type { FineEvidence } from './evidence.js';
import type { Piece } from './pieces.js';

/** Per-frame state of the box measurement: the tray evidence of the fine frame, on demand. */
export interface FineContext {
  evidence: Pick<FineEvidence, 'image' | 'span'>;
  step: number;
  grow: number;
}

/** Scratch for refineBox (one frame at a time; never returned). */
let refineEv = new Float32Array(0);
let refineRows = new Int32Array(0), refineCols = new Int32Array(0);
let refineAllowed = new Uint8Array(0);

/**
 * The piece's box at full working size: the extent of the fine pixels that differ from the tray,
 * within the piece grown by one coarse pixel (never into a neighbouring piece or region).
 */
export function refineBox(piece: Piece, labels: Int32Array, coarseW: number, coarseH: number, fine: FineContext): { box: Box; contrast: number } {
  const { ox, oy, w, h, parts, id } = piece;
  const { step, grow } = fine;
  const image = fine.evidence.image;
  // Coarse pixels the piece may claim: its own, and unclaimed ones next to it (8-neighbours).
  const cw = w + 2, ch = h + 2, cn = cw * ch;
  if (refineAllowed.length < 3 * cn) refineAllowed = new Uint8Array(Math.max(3 * cn, 2 * refineAllowed.length));
  const allowed = refineAllowed, own = refineAllowed.subarray(cn, 2 * cn), near = refineAllowed.subarray(2 * cn, 3 * cn);
  own.fill(0);
  for (let ly = piece.y0; ly < piece.y1; ly++) {
    for (let lx = piece.x0, i = ly * w + lx, o = (ly + 1) * cw + lx + 1; lx < piece.x1; lx++, i++, o++) own[o] = parts[i] === id ? 1 : 0;
  }
  // Own pixels grown by one (3×3), rows then columns.
  for (let o = 0; o < cn; o++) {
    const x = o % cw;
    near[o] = own[o]! | (x > 0 ? own[o - 1]! : 0) | (x < cw - 1 ? own[o + 1]! : 0);
  }
  for (let ly = -1; ly <= h; ly++) {
    const cy = ly + oy;
    for (let lx = -1; lx <= w; lx++) {
      const o = (ly + 1) * cw + lx + 1;
      const cx = lx + ox;
      if (cx < 0 || cy < 0 || cx >= coarseW || cy >= coarseH) {
        allowed[o] = 0;
        continue;
      }
      if (own[o]) {
        allowed[o] = 1;
        continue;
      }
      const grown = near[o]! | (o >= cw ? near[o - cw]! : 0) | (o + cw < cn ? near[o + cw]! : 0);
      allowed[o] = grown && labels[cy * coarseW + cx] === 0 ? 1 : 0;
    }
  }
  const fx0 = Math.max(0, (ox - 1) * step), fy0 = Math.max(0, (oy - 1) * step);
  const fx1 = Math.min(image.width, (ox + w + 1) * step), fy1 = Math.min(image.height, (oy + h + 1) * step);
  const fw = fx1 - fx0, fh = fy1 - fy0;
  if (refineRows.length < fh) refineRows = new Int32Array(Math.max(fh, 2 * refineRows.length));
  if (refineCols.length < fw) refineCols = new Int32Array(Math.max(fw, 2 * refineCols.length));
  if (refineEv.length < fw) refineEv = new Float32Array(Math.max(fw, 2 * refineEv.length));
  const rowCount = refineRows, colCount = refineCols, ev = refineEv;
  rowCount.fill(0, 0, fh);
  colCount.fill(0, 0, fw);
  let evSum = 0, evN = 0;
  // Row by row (the order the mean is summed in), over the runs of allowed coarse pixels only.
  for (let y = 0; y < fh; y++) {
    const ay = Math.floor((y + fy0) / step) - oy + 1;
    if (ay < 0 || ay >= ch) continue;
    const arow = ay * cw;
    let ax = 0;
    while (ax < cw) {
      while (ax < cw && !allowed[arow + ax]) ax++;
      if (ax >= cw) break;
      const runStart = ax;
      while (ax < cw && allowed[arow + ax]) ax++;
      // Fine columns of coarse columns runStart..ax-1, within the window.
      const sx0 = Math.max(fx0, (runStart + ox - 1) * step), sx1 = Math.min(fx1, (ax + ox - 1) * step);
      if (sx1 <= sx0) continue;
      fine.evidence.span(y + fy0, sx0, sx1, ev, 0);
      for (let k = 0, x = sx0 - fx0; k < sx1 - sx0; k++, x++) {
        const v = ev[k]!;
        evSum += v;
        evN++;
        if (v >= grow) {
          rowCount[y]!++;
          colCount[x]!++;
        }
      }
    }
  }
  // Ignore lone specks on the outline: a row or column must hold two contrasting pixels.
  let x0 = -1, x1 = -1, y0 = -1, y1 = -1;
  for (let i = 0; i < fw; i++) if (colCount[i]! >= 2) (x1 = i), x0 < 0 && (x0 = i);
  for (let i = 0; i < fh; i++) if (rowCount[i]! >= 2) (y1 = i), y0 < 0 && (y0 = i);
  const contrast = evN ? evSum / evN : 0;
  // The piece's own extent in the coarse mask (its window may hold other pieces too).
  const coarseBox: Box = [(ox + piece.x0) * step, (oy + piece.y0) * step, (ox + piece.x1) * step, (oy + piece.y1) * step];
  if (x0 < 0 || y0 < 0) return { box: coarseBox, contrast };
  // Where the body barely differs from the tray (a white die's lit side), the fine edge can fall
  // well inside the die: never move a side more than a coarse pixel and a half from the mask's.
  const lim = 1.5 * step;
  return {
    box: [
      clampNear(fx0 + x0, coarseBox[0], lim),
      clampNear(fy0 + y0, coarseBox[1], lim),
      clampNear(fx0 + x1 + 1, coarseBox[2], lim),
      clampNear(fy0 + y1 + 1, coarseBox[3], lim),
    ],
    contrast,
  };
}

function clampNear(v: number, ref: number, lim: number): number {
  return Math.min(ref + lim, Math.max(ref - lim, v));
}
