/**
 * Measurements of every cell and every cell border in the board's ink map (rectified at a known
 * number of pixels per mm, with a margin): the cell's image for the classifier network, the ink
 * near each border on the inside (a worm line carried across a border inks both sides of it; a
 * border left clear between two worms inks neither), and the ink in each direction just outside
 * the letter (an eye's or a mouth's facing stroke).
 */
import type { InkMap } from './ink.js';

/** The central square whose strongest ink is a cell's `strength`. */
export const PATCH_MM = 9.6;
export const DIRS4 = ['N', 'E', 'S', 'W'] as const;

export interface BoardRaster {
  ink: InkMap;
  /** Pixels per mm of the rectified board. */
  ppm: number;
  /** The board's top-left corner in the raster, in mm from the raster's origin. */
  originMm: number;
  cell: number;
  columns: number;
  rows: number;
}

export interface CellMeasure {
  /** The 98th percentile of the ink in the central PATCH_MM square (how dark the strongest marks are). */
  strength: number;
  /** Mean ink in a 2 mm disc at the centre. */
  centre: number;
  /** Mean ink of the whole interior. */
  mean: number;
  /** Ink just inside each border (N, E, S, W), middle part of the border. */
  sides: [number, number, number, number];
  /** Ink 3.4..5.2 mm from the centre towards each border (a facing stroke, or the line's end). */
  pointers: [number, number, number, number];
  /** Ink right beside each border (0.3..1.0 mm in): a line carried across fills it, a clear border leaves it white. */
  gaps: [number, number, number, number];
}

function boxMean(r: BoardRaster, x0: number, y0: number, x1: number, y1: number): number {
  // mm → px; inclusive of pixel centres inside the box.
  const p = r.ppm;
  const W = r.ink.width;
  const H = r.ink.height;
  const i0 = Math.max(0, Math.round(x0 * p));
  const i1 = Math.min(W, Math.round(x1 * p));
  const j0 = Math.max(0, Math.round(y0 * p));
  const j1 = Math.min(H, Math.round(y1 * p));
  let s = 0;
  let n = 0;
  const ink = r.ink.ink;
  for (let j = j0; j < j1; j++)
    for (let i = i0; i < i1; i++) {
      s += ink[j * W + i]!;
      n++;
    }
  return n ? s / n : 0;
}

/** Measures cell (column, row). */
export function measureCell(r: BoardRaster, column: number, row: number): CellMeasure {
  const c = r.cell;
  const x = r.originMm + column * c;
  const y = r.originMm + row * c;
  const cx = x + c / 2;
  const cy = y + c / 2;
  const p = r.ppm;
  const W = r.ink.width;
  const ink = r.ink.ink;
  // The strongest marks of the central square.
  const half = PATCH_MM / 2;
  const x0 = Math.round((cx - half) * p);
  const y0 = Math.round((cy - half) * p);
  const span = Math.round(PATCH_MM * p);
  // A typed array sorts numerically without a comparator call per pair (the same order).
  const all = new Float32Array(span * span);
  let count = 0;
  for (let j = 0; j < span; j++) {
    const yy = y0 + j;
    if (yy < 0 || yy >= r.ink.height) continue;
    for (let i = 0; i < span; i++) {
      const xx = x0 + i;
      if (xx >= 0 && xx < W) all[count++] = ink[yy * W + xx]!;
    }
  }
  const vals = all.subarray(0, count).sort();
  const strength = count ? vals[Math.floor(count * 0.98)]! : 0;
  // Centre disc (approximated by a 2 mm square of the same area) and interior.
  const centre = boxMean(r, cx - 1.77, cy - 1.77, cx + 1.77, cy + 1.77);
  const mean = boxMean(r, x + 0.8, y + 0.8, x + c - 0.8, y + c - 0.8);
  const a = 0.6;
  const b = 2.4;
  const lo = c / 2 - 2.5;
  const hi = c / 2 + 2.5;
  const sides: [number, number, number, number] = [
    boxMean(r, x + lo, y + a, x + hi, y + b),
    boxMean(r, x + c - b, y + lo, x + c - a, y + hi),
    boxMean(r, x + lo, y + c - b, x + hi, y + c - a),
    boxMean(r, x + a, y + lo, x + b, y + hi),
  ];
  const pa = 3.4;
  const pb = 5.2;
  const w = 1.1;
  const pointers: [number, number, number, number] = [
    boxMean(r, cx - w, cy - pb, cx + w, cy - pa),
    boxMean(r, cx + pa, cy - w, cx + pb, cy + w),
    boxMean(r, cx - w, cy + pa, cx + w, cy + pb),
    boxMean(r, cx - pb, cy - w, cx - pa, cy + w),
  ];
  const ga = 0.3;
  const gb = 1.0;
  const gaps: [number, number, number, number] = [
    boxMean(r, x + lo, y + ga, x + hi, y + gb),
    boxMean(r, x + c - gb, y + lo, x + c - ga, y + hi),
    boxMean(r, x + lo, y + c - gb, x + hi, y + c - ga),
    boxMean(r, x + ga, y + lo, x + gb, y + hi),
  ];
  return { strength, centre, mean, sides, pointers, gaps };
}

/** The cell image the network reads: CELL_IMAGE pixels square over CELL_IMAGE_MM, centred on the cell. */
export const CELL_IMAGE = 28;
export const CELL_IMAGE_MM = 13.6;
export const CELL_EXTRAS = 15;

/**
 * The ink over a square of `pixels` x `pixels` at the network's scale (CELL_IMAGE_MM / CELL_IMAGE
 * mm per pixel) centred on cell (column, row), divided by the photo's pencil darkness; each pixel
 * the mean of a 2 x 2 subsample (the ink map is finer than this).
 */
export function cellImage(r: BoardRaster, column: number, row: number, pencil: number, pixels = CELL_IMAGE): Float32Array {
  const step = CELL_IMAGE_MM / CELL_IMAGE;
  const cx = r.originMm + (column + 0.5) * r.cell;
  const cy = r.originMm + (row + 0.5) * r.cell;
  const x0 = cx - (pixels * step) / 2;
  const y0 = cy - (pixels * step) / 2;
  const W = r.ink.width;
  const H = r.ink.height;
  const ink = r.ink.ink;
  const at = (xmm: number, ymm: number): number => {
    const fx = Math.min(W - 1.001, Math.max(0, xmm * r.ppm - 0.5));
    const fy = Math.min(H - 1.001, Math.max(0, ymm * r.ppm - 0.5));
    const ix = fx | 0;
    const iy = fy | 0;
    const ax = fx - ix;
    const ay = fy - iy;
    const i = iy * W + ix;
    return (ink[i]! * (1 - ax) + ink[i + 1]! * ax) * (1 - ay) + (ink[i + W]! * (1 - ax) + ink[i + W + 1]! * ax) * ay;
  };
  const out = new Float32Array(pixels * pixels);
  const inv = 1 / pencil;
  for (let j = 0; j < pixels; j++)
    for (let i = 0; i < pixels; i++) {
      const x = x0 + (i + 0.25) * step;
      const y = y0 + (j + 0.25) * step;
      const h = step / 2;
      const v = (at(x, y) + at(x + h, y) + at(x, y + h) + at(x + h, y + h)) / 4;
      out[j * pixels + i] = Math.min(1.5, v * inv);
    }
  return out;
}

/** The measured scalars the network gets besides the image, relative to the pencil's darkness. */
export function cellExtras(m: CellMeasure, pencil: number): Float32Array {
  const f = new Float32Array(CELL_EXTRAS);
  const c = (v: number) => Math.min(3, v / pencil);
  let k = 0;
  f[k++] = c(m.centre);
  f[k++] = c(m.mean);
  f[k++] = c(m.strength);
  for (const v of m.sides) f[k++] = c(v);
  for (const v of m.gaps) f[k++] = c(v);
  for (const v of m.pointers) f[k++] = c(v);
  return f;
}

/** The photo's pencil darkness without knowing what is where: the strong marks' typical ink. */
export function photoPencil(cells: readonly CellMeasure[]): number {
  const s = cells.map((c) => c.strength).sort((a, b) => a - b);
  return Math.max(0.12, s[Math.floor(s.length * 0.8)] ?? 0.12);
}
