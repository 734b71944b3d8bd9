/**
 * Measurements of every cell and every cell border in the board's ink map (rectified at a known
 * number of pixels per mm, with a margin): the cell's central patch as a small ink grid (what the
 * classifier sees), the ink near each border on the inside (a worm line carried across a border
 * inks both sides of it; a border left clear between two worms inks neither), and the ink in each
 * direction just outside the letter (an eye's or a mouth's facing stroke).
 */
import type { InkMap } from './ink.js';

export const PATCH_MM = 9.6;
/** Patch grid: PATCH x PATCH cells of the central 9.6 mm square. */
export const PATCH = 16;
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
  /** PATCH² ink values, normalised by the patch's own strong ink (so light pencil looks like dark). */
  patch: Float32Array;
  /** The patch's 98th percentile ink before normalising (how dark the strongest marks are). */
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
  /**
   * The thin strokes of the cell's middle (a letter, a ring) with the broad worm line taken out,
   * cropped to their own bounding box and resampled to LETTER x LETTER: the same for a letter
   * written anywhere in the cell, big or small.
   */
  letter: Float32Array;
  /** The letter's box in mm (width, height) and its ink (sum, mm²); zeros when there is none. */
  letterBox: [number, number, number];
  /** Share of the central square covered by broad ink (the worm line). */
  broad: number;
}

export const LETTER = 10;

/** Separable min (erode) or max (dilate) of a binary square image over a (2r+1) window. */
function morph(src: Uint8Array, n: number, r: number, max: boolean): Uint8Array {
  const tmp = new Uint8Array(n * n);
  const out = new Uint8Array(n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      let v = max ? 0 : 1;
      for (let k = -r; k <= r; k++) {
        const xx = x + k;
        const s = xx < 0 || xx >= n ? (max ? 0 : 1) : src[y * n + xx]!;
        v = max ? v | s : v & s;
      }
      tmp[y * n + x] = v;
    }
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      let v = max ? 0 : 1;
      for (let k = -r; k <= r; k++) {
        const yy = y + k;
        const s = yy < 0 || yy >= n ? (max ? 0 : 1) : tmp[yy * n + x]!;
        v = max ? v | s : v & s;
      }
      out[y * n + x] = v;
    }
  return out;
}

/** The letter-only features of a cell (see CellMeasure.letter). */
function letterOf(r: BoardRaster, cx: number, cy: number, strength: number): { letter: Float32Array; box: [number, number, number]; broad: number } {
  const p = r.ppm;
  const halfMm = 5;
  const n = Math.round(2 * halfMm * p);
  const x0 = Math.round((cx - halfMm) * p);
  const y0 = Math.round((cy - halfMm) * p);
  const W = r.ink.width;
  const H = r.ink.height;
  const v = new Float32Array(n * n);
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const xx = x0 + i;
      const yy = y0 + j;
      v[j * n + i] = xx >= 0 && yy >= 0 && xx < W && yy < H ? r.ink.ink[yy * W + xx]! : 0;
    }
  const t = Math.max(0.07, 0.3 * strength);
  const bin = new Uint8Array(n * n);
  for (let k = 0; k < n * n; k++) bin[k] = v[k]! > t ? 1 : 0;
  // Broad ink survives an opening wider than a letter's stroke; grown back a little, it masks the line.
  const rr = Math.max(2, Math.round(0.8 * p));
  const broadMask = morph(morph(morph(bin, n, rr, false), n, rr, true), n, Math.max(1, Math.round(0.3 * p)), true);
  const letter = new Float32Array(LETTER * LETTER);
  let broad = 0;
  const inner = Math.round(1.5 * p);
  let innerN = 0;
  let sw = 0;
  let mx = 0;
  let my = 0;
  const pts: number[] = [];
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const k = j * n + i;
      if (i >= inner && j >= inner && i < n - inner && j < n - inner) {
        innerN++;
        if (broadMask[k]) broad++;
      }
      if (broadMask[k] || v[k]! <= t) continue;
      sw += v[k]!;
      mx += v[k]! * i;
      my += v[k]! * j;
      pts.push(i, j, v[k]!);
    }
  broad /= Math.max(1, innerN);
  if (sw < 0.5 * p * p) return { letter, box: [0, 0, sw / (p * p)], broad };
  // The box of the strokes, ignoring the farthest few percent of ink (a stray touch).
  const xs: number[] = [];
  const ys: number[] = [];
  for (let k = 0; k < pts.length; k += 3) {
    xs.push(pts[k]!);
    ys.push(pts[k + 1]!);
  }
  xs.sort((a, b) => a - b);
  ys.sort((a, b) => a - b);
  const q = (a: number[], f: number) => a[Math.min(a.length - 1, Math.max(0, Math.floor(a.length * f)))]!;
  const bx0 = q(xs, 0.02);
  const bx1 = q(xs, 0.98) + 1;
  const by0 = q(ys, 0.02);
  const by1 = q(ys, 0.98) + 1;
  const bw = Math.max(1, bx1 - bx0);
  const bh = Math.max(1, by1 - by0);
  // Keep the aspect: fit the longer side, centre the shorter.
  const side = Math.max(bw, bh);
  const ox = bx0 - (side - bw) / 2;
  const oy = by0 - (side - bh) / 2;
  const acc = new Float32Array(LETTER * LETTER);
  for (let k = 0; k < pts.length; k += 3) {
    const gi = Math.floor(((pts[k]! + 0.5 - ox) / side) * LETTER);
    const gj = Math.floor(((pts[k + 1]! + 0.5 - oy) / side) * LETTER);
    if (gi < 0 || gj < 0 || gi >= LETTER || gj >= LETTER) continue;
    acc[gj * LETTER + gi]! += pts[k + 2]!;
  }
  let amax = 0;
  for (const a of acc) amax = Math.max(amax, a);
  for (let k = 0; k < acc.length; k++) letter[k] = amax > 0 ? acc[k]! / amax : 0;
  void mx;
  void my;
  return { letter, box: [bw / p, bh / p, sw / (p * p)], broad };
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
  // The patch: PATCH x PATCH blocks over the central square, each the mean of its pixels.
  const patch = new Float32Array(PATCH * PATCH);
  const half = PATCH_MM / 2;
  const x0 = Math.round((cx - half) * p);
  const y0 = Math.round((cy - half) * p);
  const span = Math.round(PATCH_MM * p);
  const sums = new Float32Array(PATCH * PATCH);
  const counts = new Float32Array(PATCH * PATCH);
  const vals: number[] = [];
  for (let j = 0; j < span; j++) {
    const yy = y0 + j;
    if (yy < 0 || yy >= r.ink.height) continue;
    const bj = Math.min(PATCH - 1, Math.floor((j * PATCH) / span));
    for (let i = 0; i < span; i++) {
      const xx = x0 + i;
      if (xx < 0 || xx >= W) continue;
      const v = ink[yy * W + xx]!;
      const k = bj * PATCH + Math.min(PATCH - 1, Math.floor((i * PATCH) / span));
      sums[k]! += v;
      counts[k]! += 1;
      vals.push(v);
    }
  }
  vals.sort((a, b) => a - b);
  const strength = vals.length ? vals[Math.floor(vals.length * 0.98)]! : 0;
  const norm = Math.max(0.18, strength);
  for (let k = 0; k < patch.length; k++) patch[k] = counts[k]! ? Math.min(1.5, sums[k]! / counts[k]! / norm) : 0;
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
  const l = letterOf(r, cx, cy, strength);
  return { patch, strength, centre, mean, sides, pointers, gaps, letter: l.letter, letterBox: l.box, broad: l.broad };
}

/** The feature vector the cell classifier reads. */
export function cellFeatures(m: CellMeasure): Float32Array {
  const f = new Float32Array(CELL_FEATURES);
  f.set(m.patch, 0);
  f.set(m.letter, PATCH * PATCH);
  let k = PATCH * PATCH + LETTER * LETTER;
  f[k++] = m.letterBox[0] / 5;
  f[k++] = m.letterBox[1] / 5;
  f[k++] = m.letterBox[2] / 5;
  f[k++] = m.letterBox[1] > 0 ? m.letterBox[0] / m.letterBox[1] : 0;
  f[k++] = m.broad;
  const s = Math.max(0.18, m.strength);
  f[k++] = m.strength * 3;
  f[k++] = m.centre * 3;
  f[k++] = m.mean * 3;
  f[k++] = m.centre / s;
  f[k++] = m.mean / s;
  for (const v of m.sides) f[k++] = v / s;
  for (const v of m.pointers) f[k++] = v / s;
  f[k++] = Math.max(...m.sides) / s;
  return f;
}

export const CELL_FEATURES = PATCH * PATCH + LETTER * LETTER + 19;

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
