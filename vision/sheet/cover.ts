/**
 * Is each cell's printed grid seen? A finger, a pencil or a loose sheet of paper lying on the board,
 * glare, or a part of the board outside the photo hides the pencil and the printed grid alike: the
 * ink map there is flat, so the cell reads as a confident "blank". The grid lines are printed where
 * the layout says (the board is rectified), so each cell's four borders are measured in short
 * segments: the grid line's ink against the ink just beside it. A cell most of whose clear segments
 * show no line is "covered?". A pen or a marker lying on it is no flat cover but a bar (black, grey
 * or coloured, or as light as the paper with only its edges and shadow to see) that reads as pencil:
 * `darkBars` finds those.
 */
import type { BoardRaster } from './cells.js';
import { dilate3, erode3 } from '../locate/mask.js';

/** Segments per border (the 12 mm border, less 0.8 mm at each end where the crossing line is). */
const SEGMENTS = 5;
const END_MM = 0.8;
/** Where the line is looked for, either side of its printed position (registration error). */
const SEARCH_MM = 0.6;
/** Where "beside the line" is: this far from its printed position. */
const SIDE_FROM_MM = 1.0;
const SIDE_TO_MM = 1.6;
/** A segment shows no line when its contrast and the difference of its two sides are both under this share of the photo's typical grid-line contrast. */
const UNSEEN = 0.3;
/** Segments with ink beside them above this share of the photo's pencil darkness are under pencil: they neither show nor hide the grid. */
const UNDER_PENCIL = 0.5;
/** A cell is covered when at least this share of its clear segments show no line. */
const COVERED_SHARE = 0.3;
/** With fewer clear segments than this, a cell cannot be told. */
const MIN_CLEAR = 4;
/**
 * Below this typical contrast the grid is too faint to tell a covered cell from noise (a photo
 * blurred by σ 3.4 px or more: 0.03); the border-tick doubt then asks about the whole reading.
 * Sharp synthetic photos: 0.08 to 0.3.
 */
const MIN_TYPICAL = 0.04;
/**
 * Below this the grid is not seen anywhere on the board: a cover over all of it (a sheet of paper
 * over 95 to 100% of the test photo's board: 0.007). Blur does not get there while the border's
 * ticks are still found: σ 3 to 3.8 px gives 0.047 to 0.031, and from σ 4 px the photo is refused
 * for its ticks; the forty evaluation photos 0.079 or more.
 */
const NONE_SEEN = 0.015;

interface Segment {
  /** Ink on the line (strongest near its printed position) less the mean of the two sides. */
  contrast: number;
  /** How different the two sides are (a pencil edge beside the line, not a cover). */
  lopsided: number;
  /** The darker side's ink. */
  side: number;
}

/** The segment of a grid line from `from` to `to` mm along it; `at` mm across (the line's printed position). */
function segment(r: BoardRaster, vertical: boolean, at: number, from: number, to: number): Segment {
  const p = r.ppm;
  const W = r.ink.width;
  const H = r.ink.height;
  const ink = r.ink.ink;
  // Pixel i covers [i, i + 1) / p mm: the line's pixel, and the offsets across it.
  const li = Math.round(at * p - 0.5);
  const reach = Math.round(SIDE_TO_MM * p);
  const a0 = Math.round(from * p);
  const a1 = Math.round(to * p);
  const profile = new Float64Array(2 * reach + 1);
  for (let d = -reach; d <= reach; d++) {
    let s = 0;
    let n = 0;
    for (let a = a0; a < a1; a++) {
      const x = vertical ? li + d : a;
      const y = vertical ? a : li + d;
      if (x < 0 || y < 0 || x >= W || y >= H) continue;
      s += ink[y * W + x]!;
      n++;
    }
    profile[d + reach] = n ? s / n : 0;
  }
  const search = Math.round(SEARCH_MM * p);
  let peak = 0;
  for (let d = -search; d <= search; d++) peak = Math.max(peak, profile[d + reach]!);
  const sideFrom = Math.round(SIDE_FROM_MM * p);
  let left = 0;
  let right = 0;
  for (let d = sideFrom; d <= reach; d++) {
    left += profile[reach - d]!;
    right += profile[reach + d]!;
  }
  left /= reach - sideFrom + 1;
  right /= reach - sideFrom + 1;
  return { contrast: peak - (left + right) / 2, lopsided: Math.abs(left - right), side: Math.max(left, right) };
}

/** The segments of cell (column, row)'s borders, N E S W for each step along them, and whether each lies on the board's frame. */
function cellSegments(r: BoardRaster, column: number, row: number): { seg: Segment; frame: boolean }[] {
  const c = r.cell;
  const x = r.originMm + column * c;
  const y = r.originMm + row * c;
  const len = (c - 2 * END_MM) / SEGMENTS;
  const out: { seg: Segment; frame: boolean }[] = [];
  for (let k = 0; k < SEGMENTS; k++) {
    const f = END_MM + k * len;
    const t = f + len;
    out.push(
      { seg: segment(r, false, y, x + f, x + t), frame: row === 0 },
      { seg: segment(r, true, x + c, y + f, y + t), frame: column === r.columns - 1 },
      { seg: segment(r, false, y + c, x + f, x + t), frame: row === r.rows - 1 },
      { seg: segment(r, true, x, y + f, y + t), frame: column === 0 },
    );
  }
  return out;
}

export interface CoverCheck {
  /** Row-major, one per cell: its printed grid is not seen. */
  covered: boolean[];
  /** The photo's typical grid-line contrast (the 90th percentile of the inner lines' segments). */
  typical: number;
  /** False when the grid is too faint in the whole photo to tell (nothing is marked covered). */
  checked: boolean;
  /** The grid is not seen anywhere: the whole board covered, or a photo too blurred to have its border ticks found. */
  noneSeen: boolean;
}

/** Which cells of a measured board show no printed grid; `pencil` is the photo's pencil darkness (`photoPencil`). */
export function coveredCells(r: BoardRaster, pencil: number): CoverCheck {
  const cells: { seg: Segment; frame: boolean }[][] = [];
  for (let row = 0; row < r.rows; row++) for (let column = 0; column < r.columns; column++) cells.push(cellSegments(r, column, row));
  // The typical contrast from the grey inner lines only: the black frame is much stronger. A high
  // percentile, so a board half covered still has the visible half's contrast.
  const inner = Float64Array.from(cells.flatMap((s) => s.filter((x) => !x.frame).map((x) => x.seg.contrast))).sort();
  const typical = inner.length ? inner[Math.floor(inner.length * 0.9)]! : 0;
  if (!(typical >= MIN_TYPICAL)) return { covered: cells.map(() => false), typical, checked: false, noneSeen: !(typical >= NONE_SEEN) };
  const limit = UNSEEN * typical;
  const covered = cells.map((segs) => {
    const clear = segs.filter((x) => x.seg.side < UNDER_PENCIL * pencil);
    if (clear.length < MIN_CLEAR) return false;
    const unseen = clear.filter((x) => x.seg.contrast < limit && x.seg.lopsided < limit).length;
    return unseen >= COVERED_SHARE * clear.length;
  });
  return { covered, typical, checked: true, noneSeen: false };
}

/*
 * A pen or a marker lying on the board. Its body is nearly black (ink 0.86 to 0.92 at 1 mm scale on
 * rendered photos, 0.72 to 0.82 across it with its highlight) and 8 mm or more wide, while a pencil
 * worm line is a 4 to 7 mm band whose ink at 1 mm scale stays under 0.7 (at most 4 mm of it in a
 * row above 0.7 on the forty evaluation photos); and graphite lies on the paper, so the printed grid
 * still shows through it, where an opaque pen hides it. A pen is straight and long; a worm turns at
 * cells. So: dark ink at 1 px per mm, in pieces long, wide and straight enough, under which the grid
 * lines it crosses are not seen.
 */

/** Ink (at 1 mm scale) of a pen's body: darker than any pencil band of the rendered photos. */
const BAR_INK = 0.7;
/** A bar is at least this long (mm: three cells) and wide (mm: wider than a pencil line's 0.7 ink core). */
const BAR_MIN_LENGTH = 36;
const BAR_MIN_WIDTH = 5;
/** Share of a bar's pixels within half its width (and 1.5 mm) of its axis: a turning worm is far from it. */
const BAR_STRAIGHT = 0.9;
/**
 * The grid lines a bar crosses show through it at less than this share of the photo's typical
 * contrast. Graphite lets about its own lightness through: 0.27 to 0.5 under the darkest rendered
 * pencil bands (ink 0.6 to 0.66); rendered pens 0.01 or less.
 */
const BAR_GRID_SHOWS = 0.15;
/** Where the bar's ink (averaged along it) is no more than this above the paper beside it, its edge or its shadow ends. */
const BAR_EDGE_INK = 0.08;
/** How far beyond its dark core a bar may reach (blur, its rounded sides, its shadow), mm. */
const BAR_MAX_SPREAD = 6;
/**
 * A cell is under a bar when the bar hides at least this share of it: a clipped corner under 2.9 mm
 * a side stops short of the strips beside the borders that tell the joins (3.5 mm from a corner).
 */
const BAR_CELL_SHARE = 0.03;

export interface DarkBar {
  /** Centre and unit direction of its length, in the raster's mm. */
  centre: [number, number];
  dir: [number, number];
  /** Its extent along `dir` from the centre, and across it (the side `dir` turned a right angle clockwise is positive), mm. */
  along: [number, number];
  across: [number, number];
  /** Mean ink of its body; the grid's contrast where it crosses grid lines, as a share of the photo's typical contrast. */
  ink: number;
  gridShows: number;
  /** Row-major indices of the cells it hides. */
  cells: number[];
}

/** The ink map's block means at 1 px per mm. */
function inkPerMm(r: BoardRaster): { D: Float32Array; w: number; h: number; k: number } {
  const k = Math.max(1, Math.round(r.ppm));
  const W = r.ink.width;
  const w = Math.floor(W / k);
  const h = Math.floor(r.ink.height / k);
  const ink = r.ink.ink;
  const D = new Float32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let j = 0; j < k; j++) for (let i = 0; i < k; i++) s += ink[(y * k + j) * W + x * k + i]!;
      D[y * w + x] = s / (k * k);
    }
  return { D, w, h, k };
}

/** A binary 3 × 3 closing: a pen's highlight, a stripe a millimetre or two wide along it, does not split it. */
function close3(m: Uint8Array, w: number, h: number): Uint8Array {
  return erode3(dilate3({ width: w, height: h, data: m })).data;
}

/** The 4-connected pieces of a mask, as pixel index lists. */
function pieces(m: Uint8Array, w: number, h: number): number[][] {
  const seen = new Uint8Array(w * h);
  const out: number[][] = [];
  for (let i = 0; i < w * h; i++) {
    if (!m[i] || seen[i]) continue;
    const piece: number[] = [];
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      piece.push(p);
      const x = p % w;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w]) {
        if (q >= 0 && q < w * h && m[q] && !seen[q]) {
          seen[q] = 1;
          stack.push(q);
        }
      }
    }
    out.push(piece);
  }
  return out;
}

/** The median grid-line contrast where the bar's body crosses the inner grid lines, as a share of `typical`; NaN where it crosses none. */
function gridUnderBar(r: BoardRaster, c: [number, number], u: [number, number], along: [number, number], core: [number, number], typical: number): number {
  const contrasts: number[] = [];
  const lo = r.originMm + 0.8;
  for (const vertical of [true, false]) {
    const count = vertical ? r.columns : r.rows;
    const hi = r.originMm + (vertical ? r.rows : r.columns) * r.cell - 0.8;
    // The line's direction, and how steeply the bar crosses it (|sin| of the angle between them).
    const [lx, ly] = vertical ? [0, 1] : [1, 0];
    if (Math.abs(u[0] * ly - u[1] * lx) < 0.42) continue;
    for (let k = 1; k < count; k++) {
      const at = r.originMm + k * r.cell;
      // Points of the line: p(a) = (at, a) or (a, at); the bar's coordinates there are linear in a.
      const p0: [number, number] = vertical ? [at, 0] : [0, at];
      const t0 = (p0[0] - c[0]) * u[0] + (p0[1] - c[1]) * u[1];
      const s0 = -(p0[0] - c[0]) * u[1] + (p0[1] - c[1]) * u[0];
      const dt = lx * u[0] + ly * u[1];
      const ds = -lx * u[1] + ly * u[0];
      let a0 = lo;
      let a1 = hi;
      for (const [v0, dv, min, max] of [
        [t0, dt, along[0] + 2, along[1] - 2],
        [s0, ds, core[0], core[1]],
      ] as const) {
        if (Math.abs(dv) < 1e-9) {
          if (v0 < min || v0 > max) a1 = -Infinity;
          continue;
        }
        const e0 = (min - v0) / dv;
        const e1 = (max - v0) / dv;
        a0 = Math.max(a0, Math.min(e0, e1));
        a1 = Math.min(a1, Math.max(e0, e1));
      }
      if (a1 - a0 >= 1.5) contrasts.push(segment(r, vertical, at, a0, a1).contrast);
    }
  }
  if (!contrasts.length || !(typical > 0)) return NaN;
  contrasts.sort((a, b) => a - b);
  return contrasts[Math.floor(contrasts.length / 2)]! / typical;
}

/**
 * The board's colour at 1 px per mm, rectified over the same rectangle as the ink raster (so its
 * pixel (x, y) is the raster's millimetre (x, y)): `rgb`, three bytes a pixel, `width` × `height`.
 */
export interface BoardColour {
  width: number;
  height: number;
  rgb: Uint8Array;
}

/** A coloured pen's body: its colour is this far from the paper's (see `chromaPerMm`); pencil, print and shadow stay under 0.1. */
const BAR_CHROMA = 0.25;
/** A grey (metal) pen's body is as dark as pencil (ink 0.35 to 0.65 at 1 mm): at least this, found by its width and straightness instead. */
const BAR_GREY_INK = 0.3;
/**
 * A pen is a bar: a rectangle this long and wide (mm) fits inside it along its axis, which no worm's
 * pencil band does across a turn, and which cuts the pencil lines it lies across away from it.
 * Tried every ANGLE_STEP degrees (a pen 8 mm wide keeps the rectangle inside it within that of its axis).
 */
const OPEN_LENGTH = 24;
const OPEN_WIDTH = 4;
const ANGLE_STEP = 10;
/** A bar cut out of what it lies on is at least this wide (mm): the rendered 8 mm pens give 7 or more at 1 mm. */
const BAR_MIN_WIDTH_CUT = 6;
/** And at most this wide (mm: a 12 mm pen with its shadow measures up to 13.5): a finger or a hand over the board is wider, and is a cover (`coveredCells`). */
const BAR_MAX_WIDTH_CUT = 17;
/** A grey or coloured piece with fewer than this share of its length straight-edged (`edgeStraightness`) is drawn by hand. */
const BAR_EDGES_STRAIGHT = 0.7;

/** How far each 1 mm pixel's colour is from the paper's: (max − min) / max of its channels divided by the board's median (paper) colour, the max not under 0.3 (dark pixels' noise). */
function chromaPerMm(c: BoardColour): Float32Array {
  const n = c.width * c.height;
  const paper = [0, 1, 2].map((k) => {
    const v = new Uint8Array(n);
    for (let i = 0; i < n; i++) v[i] = c.rgb[i * 3 + k]!;
    v.sort();
    // Most of the board is paper: its upper quartile is the paper's colour in this light.
    return Math.max(16, v[Math.floor(n * 0.75)]!);
  });
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = c.rgb[i * 3]! / paper[0]!;
    const g = c.rgb[i * 3 + 1]! / paper[1]!;
    const b = c.rgb[i * 3 + 2]! / paper[2]!;
    const hi = Math.max(r, g, b);
    out[i] = (hi - Math.min(r, g, b)) / Math.max(0.3, hi);
  }
  return out;
}

/**
 * Clears the mask along the board's frame (a black line that joins whatever crosses it into one
 * crooked piece): 1.2 mm either side of its left and right lines (`columns` cells apart) and of its
 * top and bottom ones (`rows` cells apart).
 */
export function cutFrame(m: Uint8Array, w: number, h: number, mm: number, r: BoardRaster): void {
  const near = (lines: number[], at: number) => lines.some((l) => Math.abs(at - l) <= 1.2);
  const verticals = [r.originMm, r.originMm + r.columns * r.cell];
  const horizontals = [r.originMm, r.originMm + r.rows * r.cell];
  const cutColumn = Uint8Array.from({ length: w }, (_, x) => (near(verticals, (x + 0.5) * mm) ? 1 : 0));
  for (let y = 0; y < h; y++) {
    const row = near(horizontals, (y + 0.5) * mm);
    for (let x = 0; x < w; x++) if (row || cutColumn[x]) m[y * w + x] = 0;
  }
}

/** Offsets (pixels) of a segment `length` px long along (ux, uy), centred on pixel (0, 0) (to half a pixel, for an even length: an opening does not need it centred). */
function segmentOffsets(length: number, ux: number, uy: number): [number, number][] {
  const out = new Map<string, [number, number]>();
  const half = (length - 1) / 2;
  for (let t = -half; t <= half + 1e-9; t += 0.5) {
    const q: [number, number] = [Math.round(t * ux), Math.round(t * uy)];
    out.set(q.join(','), q);
  }
  return [...out.values()];
}

/** Binary erosion by a structuring element (its offsets): the pixels x whose element x + offsets lies wholly inside the mask. */
function erodeBy(m: Uint8Array, w: number, h: number, offsets: readonly [number, number][]): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!m[y * w + x]) continue;
      let v = 1;
      for (const [dx, dy] of offsets) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h || m[yy * w + xx] !== 1) {
          v = 0;
          break;
        }
      }
      out[y * w + x] = v;
    }
  return out;
}

/**
 * Binary dilation by the same element: the union of x + offsets over the mask's pixels x, so that
 * `dilateBy(erodeBy(m, o), o)` is an opening (it lies inside m, and keeps whatever the element fits
 * in). Spread from the set pixels: after an erosion they are few.
 */
function dilateBy(m: Uint8Array, w: number, h: number, offsets: readonly [number, number][]): Uint8Array {
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      if (!m[y * w + x]) continue;
      for (const [dx, dy] of offsets) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx >= 0 && yy >= 0 && xx < w && yy < h) out[yy * w + xx] = 1;
      }
    }
  return out;
}

/**
 * The mask's pixels covered by an OPEN_LENGTH × OPEN_WIDTH rectangle at `angle` (degrees) lying
 * wholly inside it: an opening by the rectangle, eroded and dilated by its two sides in turn.
 */
export function openAlong(m: Uint8Array, w: number, h: number, mm: number, angle: number): Uint8Array {
  const a = (angle * Math.PI) / 180;
  const along = segmentOffsets(OPEN_LENGTH / mm, Math.cos(a), Math.sin(a));
  const across = segmentOffsets(OPEN_WIDTH / mm, -Math.sin(a), Math.cos(a));
  // Nothing the rectangle fits in (most angles, most masks): nothing to dilate.
  const thin = erodeBy(m, w, h, along);
  if (!thin.includes(1)) return thin;
  const eroded = erodeBy(thin, w, h, across);
  if (!eroded.includes(1)) return eroded;
  return dilateBy(dilateBy(eroded, w, h, across), w, h, along);
}

/** A straight candidate piece: its axis and extent (mm), from its pixels' principal direction; null when not long, wide and straight enough. */
function barShape(piece: readonly number[], w: number, mm: number): { centre: [number, number]; u: [number, number]; t: [number, number]; width: number } | null {
  if (piece.length * mm * mm < BAR_MIN_LENGTH * BAR_MIN_WIDTH) return null;
  let mx = 0;
  let my = 0;
  for (const p of piece) {
    mx += ((p % w) + 0.5) * mm;
    my += (Math.floor(p / w) + 0.5) * mm;
  }
  mx /= piece.length;
  my /= piece.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const p of piece) {
    const dx = ((p % w) + 0.5) * mm - mx;
    const dy = (Math.floor(p / w) + 0.5) * mm - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const u: [number, number] = [Math.cos(theta), Math.sin(theta)];
  let t0 = Infinity;
  let t1 = -Infinity;
  const ss: number[] = [];
  for (const p of piece) {
    const dx = ((p % w) + 0.5) * mm - mx;
    const dy = (Math.floor(p / w) + 0.5) * mm - my;
    const t = dx * u[0] + dy * u[1];
    t0 = Math.min(t0, t);
    t1 = Math.max(t1, t);
    ss.push(-dx * u[1] + dy * u[0]);
  }
  const length = t1 - t0 + mm;
  const width = (piece.length * mm * mm) / length;
  if (length < BAR_MIN_LENGTH || width < BAR_MIN_WIDTH) return null;
  const sMid = ss.reduce((a, b) => a + b, 0) / ss.length;
  const straight = ss.filter((s) => Math.abs(s - sMid) <= width / 2 + 1.5).length / ss.length;
  if (straight < BAR_STRAIGHT) return null;
  return { centre: [mx - u[1] * sMid, my + u[0] * sMid], u, t: [t0, t1], width };
}

/**
 * How straight a piece's two edges are: across the piece at each millimetre along it, where the mask
 * ends on each side (gaps of up to 1.5 mm, a highlight, bridged); the share of those places where an
 * edge lies within 1 mm of a straight line fitted to it, for the straighter edge. A crossing pencil line bumps a pen's edge in a few places; a
 * hand-drawn band's edges wander all along.
 */
function edgeStraightness(m: Uint8Array, w: number, h: number, mm: number, shape: NonNullable<ReturnType<typeof barShape>>): number {
  const [cx, cy] = shape.centre;
  const [ux, uy] = shape.u;
  const lo: number[] = [];
  const hi: number[] = [];
  const ts: number[] = [];
  const reach = shape.width / 2 + 4;
  const on = (t: number, s: number) => {
    const x = Math.floor((cx + t * ux - s * uy) / mm);
    const y = Math.floor((cy + t * uy + s * ux) / mm);
    return x >= 0 && y >= 0 && x < w && y < h && m[y * w + x] === 1;
  };
  const STEP = 0.25;
  const edge = (t: number, sign: 1 | -1) => {
    let last = NaN;
    let gap = 0;
    for (let s = 0; Math.abs(s) <= reach && gap <= 1.5; s += sign * STEP) {
      if (on(t, s)) {
        last = s;
        gap = 0;
      } else gap += STEP;
    }
    return last;
  };
  for (let t = shape.t[0] + 3; t <= shape.t[1] - 3; t += 1) {
    const a = edge(t, -1);
    const b = edge(t, 1);
    if (Number.isNaN(a) || Number.isNaN(b)) continue;
    lo.push(a);
    hi.push(b);
    ts.push(t);
  }
  if (lo.length < BAR_MIN_LENGTH / 2) return 0;
  // Each edge a straight line in t (the axis may be a degree or two off the pen's), fitted again to
  // the 70% of places nearest the first fit, so the bumps do not tilt it.
  const near = (v: number[]) => {
    const fit = (keep: number[]) => {
      const n = keep.length;
      const mt = keep.reduce((a, i) => a + ts[i]!, 0) / n;
      const mv = keep.reduce((a, i) => a + v[i]!, 0) / n;
      const stt = keep.reduce((a, i) => a + (ts[i]! - mt) ** 2, 0);
      const slope = stt > 0 ? keep.reduce((a, i) => a + (ts[i]! - mt) * (v[i]! - mv), 0) / stt : 0;
      return v.map((x, i) => Math.abs(x - mv - slope * (ts[i]! - mt)));
    };
    const first = fit(v.map((_, i) => i));
    const keep = v.map((_, i) => i).sort((a, b) => first[a]! - first[b]!).slice(0, Math.ceil(v.length * 0.7));
    return fit(keep).map((d) => d <= 1);
  };
  // The better edge: a pen's shadow side fades into the paper unevenly, its lit side does not.
  const share = (v: boolean[]) => v.filter(Boolean).length / v.length;
  return Math.max(share(near(lo)), share(near(hi)));
}

/** Two finds of one bar (by two masks, or two angles): nearly parallel, each one's centre on the other's body. */
function sameBar(a: DarkBar, b: DarkBar): boolean {
  if (Math.abs(a.dir[0] * b.dir[0] + a.dir[1] * b.dir[1]) < Math.cos((20 * Math.PI) / 180)) return false;
  const inside = (p: DarkBar, q: DarkBar) => {
    const [t, s] = barCoords(p, q.centre[0], q.centre[1]);
    return t >= p.along[0] && t <= p.along[1] && s >= p.across[0] - 2 && s <= p.across[1] + 2;
  };
  return inside(a, b) || inside(b, a);
}

/**
 * Pens and markers lying on a measured board (`typical`: the photo's grid-line contrast, from
 * `coveredCells`; `colour`: the board's colour, without which only dark pens are looked for): long,
 * straight, wide pieces under which the printed grid is not seen, with what each hides (its edges and
 * shadow, found from its ink averaged along it). A black pen is darker than any pencil; a coloured one
 * has a colour pencil has not; a grey one is as dark as pencil but wider, and straight-edged; a white
 * or cream one hides the printed grid along a straight band (`paleBars`).
 */
export function darkBars(r: BoardRaster, typical: number, colour?: BoardColour): DarkBar[] {
  const { D, w, h, k } = inkPerMm(r);
  const mm = k / r.ppm;
  const found: { bar: DarkBar; piece: readonly number[]; length: number }[] = [];
  const consider = (piece: readonly number[], edgesFrom: Uint8Array | null) => {
    const shape = barShape(piece, w, mm);
    if (!shape || (edgesFrom && (shape.width < BAR_MIN_WIDTH_CUT || shape.width > BAR_MAX_WIDTH_CUT))) return;
    // Cut out of what it lies on (any mask, any angle): its edges must be a pen's, not a hand's.
    if (edgesFrom && !(edgeStraightness(edgesFrom, w, h, mm, shape) >= BAR_EDGES_STRAIGHT)) return;
    const { centre, u, t: [t0, t1], width } = shape;
    const gridShows = gridUnderBar(r, centre, u, [t0, t1], [-width / 2 + 1.5, width / 2 - 1.5], typical);
    // Crossing no grid line (too short, or along one), it cannot be told from pencil; a grid line
    // lighter than beside it is no line hidden but pencil either side of it.
    if (!(Math.abs(gridShows) < BAR_GRID_SHOWS)) return;
    const across = barProfile(r, centre, u, [t0 + 3, t1 - 3], width);
    found.push({ bar: { centre, dir: u, along: [t0 - across.spread, t1 + across.spread], across: across.extent, ink: across.ink, gridShows, cells: [] }, piece, length: t1 - t0 });
  };
  // Nearly black: darker than any pencil, found whole (the thirty-ninth session's pens).
  const dark = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) dark[i] = D[i]! >= BAR_INK ? 1 : 0;
  for (const piece of pieces(close3(dark, w, h), w, h)) consider(piece, null);
  // Then bars cut out of whatever they lie on, at every angle: black on dark pencil, coloured, grey.
  const masks: { m: Uint8Array }[] = [];
  cutFrame(dark, w, h, mm, r);
  masks.push({ m: close3(dark, w, h) });
  if (colour && colour.width === w && colour.height === h) {
    const chroma = chromaPerMm(colour);
    const m = new Uint8Array(w * h);
    for (let i = 0; i < w * h; i++) m[i] = chroma[i]! >= BAR_CHROMA ? 1 : 0;
    cutFrame(m, w, h, mm, r);
    masks.push({ m: close3(m, w, h) });
  }
  const grey = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) grey[i] = D[i]! >= BAR_GREY_INK ? 1 : 0;
  cutFrame(grey, w, h, mm, r);
  masks.push({ m: close3(grey, w, h) });
  for (const { m } of masks) {
    // Only pieces big enough to hold a pen are worth the openings.
    const big = new Uint8Array(w * h);
    let any = false;
    for (const piece of pieces(m, w, h))
      if (piece.length * mm * mm >= BAR_MIN_LENGTH * BAR_MIN_WIDTH) {
        for (const p of piece) big[p] = 1;
        any = true;
      }
    if (!any) continue;
    for (let angle = -90; angle < 90; angle += ANGLE_STEP) {
      const opened = openAlong(big, w, h, mm, angle);
      // The edges are measured on the mask before the opening, which would make any edge straight.
      for (const piece of pieces(opened, w, h)) consider(piece, big);
    }
  }
  // One pen is found by several masks and angles, and a rectangle across it and what lies beside it
  // makes a shorter bar at another angle: the longest finds first, and none that lies mostly on one kept.
  // A piece of one pen found beside it (with pencil along it, at a neighbouring angle), or split from
  // it where something light crosses it, lies alongside a kept one: what it hides is added to the kept one's.
  const kept: { bar: DarkBar; parts: DarkBar[] }[] = [];
  for (const { bar, piece } of found.sort((a, b) => b.length - a.length)) {
    const onKept = (b: DarkBar) => piece.filter((p) => inBox(b, ((p % w) + 0.5) * mm, (Math.floor(p / w) + 0.5) * mm)).length >= 0.3 * piece.length;
    const along = kept.find((k) => alongside(k.bar, bar));
    if (along) along.parts.push(bar);
    else if (!kept.some((k) => sameBar(k.bar, bar) || onKept(k.bar))) kept.push({ bar, parts: [bar] });
  }
  // A pen as light as the paper (white, cream) is in none of the masks: found by the grid it hides.
  for (const bar of paleBars(r, typical)) if (!kept.some((k) => sameBar(k.bar, bar) || alongside(k.bar, bar))) kept.push({ bar, parts: [bar] });
  return kept.map(({ bar, parts }) => ({ ...bar, cells: [...new Set(parts.flatMap((p) => cellsUnder(r, p)))].sort((a, b) => a - b) }));
}

/*
 * A white or cream pen: its colour is the paper's and its ink only two faint edges and a shadow, but
 * it hides the printed grid as any pen does. Where it lies across an inner grid line the line is
 * missing over a stretch of its width / sin(angle); graphite lets the grid through (0.27 or more of
 * the typical contrast under the darkest rendered pencil), a finger or a hand hides a wider stretch.
 * So: the inner grid lines sampled every millimetre, their gaps, and a straight chain of gaps, one at
 * every grid line the chain crosses, all of one width.
 */

/** A grid sample shows no line when its contrast is under this share of the typical. */
const PALE_HIDDEN = 0.2;
/**
 * Samples (1 mm, measured) that show the line between hidden ones do not end a gap: one that shows
 * it (noise, a pen's seam), or up to PALE_BRIDGE_FAINT that show it faintly, under PALE_FAINT of the
 * typical (a pale pen's shading beside a crossing it hides: 0.26 to 0.48).
 */
const PALE_BRIDGE = 1;
const PALE_BRIDGE_FAINT = 2;
const PALE_FAINT = 0.5;
/**
 * A pale pen is the paper's lightness beside the line over much of its width (0.02 to 0.1 at its
 * middle; its edges and shadow more); graphite dark enough to hide the grid is far darker (0.5 and
 * more): this share of a gap's samples have ink beside the line under PALE_CLEAN_INK.
 */
const PALE_CLEAN_SHARE = 0.3;
const PALE_CLEAN_INK = 0.15;
/** A gap is at least this long (mm) along its grid line. */
const PALE_MIN_GAP = 4;
/** A chain's gaps lie within this (mm) of the line through two of them, and then of the axis fitted to those (a cap's end, wider, shifts its gap). */
const PALE_ON_AXIS = 3;
const PALE_ON_FITTED = 4;
/**
 * Its gaps' widths (length × sin of the crossing angle) stay within this ratio of their median, which
 * is PALE_MIN_WIDTH to BAR_MAX_WIDTH_CUT mm: only the pen's middle hides the line wholly (its rounded
 * sides let some through), 5 to 9 mm of a 10 mm pen.
 */
const PALE_WIDTH_SPREAD = 2;
const PALE_MIN_WIDTH = 4;
/** Of its gaps (the end ones aside) at least this share are so: a pencil line across the pen's edge shortens one. */
const PALE_WIDTH_SHARE = 0.8;
/** Beyond its hidden middle a pen reaches at least this far (mm) each side: its sides and its shadow. */
const PALE_SIDES = 2.5;
/**
 * Its sides are where the two faint edges and the shadow are, on its ink averaged along it: the
 * hidden width is 52 to 105% of the pen's (its rounded sides show the line a little), so each edge
 * is looked for up to PALE_EDGE_BEYOND mm beyond half the hidden width, and its shadow followed
 * while the ink stays BAR_EDGE_INK above the paper beyond it, for at most PALE_SHADOW mm.
 */
const PALE_EDGE_BEYOND = 5;
const PALE_SHADOW = 3;
/** Two pieces of a chain broken at one crossing (the line seen there: a highlight, a seam) are one pen when their widths are within this ratio. */
const PALE_JOIN_RATIO = 1.5;
/**
 * A box reaches this far (cells) beyond its chain's end crossings: the next crossing showed the line,
 * so the pen ends before it (at most 13 mm on, at any angle) or overlaps it by less than a gap.
 */
const PALE_END_CELLS = 1.5;

interface GridGap {
  x: number;
  y: number;
  length: number;
  vertical: boolean;
  /** Ink beside the line is the paper's over enough of it (PALE_CLEAN_SHARE): a pale pen's body, not its darker cap nor graphite. */
  clean: boolean;
}

/** The stretches of the inner grid lines (1 mm samples, crossings left out) where the line is not seen, with the line seen either side. */
function gridGaps(r: BoardRaster, typical: number): GridGap[] {
  const gaps: GridGap[] = [];
  const limit = PALE_HIDDEN * typical;
  for (const vertical of [true, false]) {
    const count = vertical ? r.columns : r.rows;
    const span = (vertical ? r.rows : r.columns) * r.cell;
    for (let k = 1; k < count; k++) {
      const at = r.originMm + k * r.cell;
      // Positions (mm along the line) and measured-sample counts: the samples skipped at crossings
      // are neither seen nor hidden, so neither the bridge nor the clean share counts them (a pen
      // over a crossing would be cut there, or its share thinned by samples never measured).
      let first = NaN;
      let last = NaN;
      let n = -1;
      let firstN = 0;
      let lastN = 0;
      let clean = 0;
      let clear = 0;
      // A gap must have the line seen on both sides of it: one that runs to the board's frame is the
      // edge of something lying over the board's edge (a sheet of paper), not a pen across the line.
      const close = (atEnd: boolean) => {
        if (firstN > 0 && !atEnd && last - first + 1 >= PALE_MIN_GAP) {
          const mid = r.originMm + (first + last + 1) / 2;
          gaps.push({ x: vertical ? at : mid, y: vertical ? mid : at, length: last - first + 1, vertical, clean: clean >= PALE_CLEAN_SHARE * (lastN - firstN + 1) });
        }
        first = NaN;
      };
      for (let a = 0; a + 1 <= span; a++) {
        // The crossing line's own ink is no gap nor a line seen: skipped, a run goes on across it.
        const inCell = a - Math.floor(a / r.cell) * r.cell;
        if (inCell < END_MM || inCell + 1 > r.cell - END_MM) continue;
        n++;
        const seg = segment(r, vertical, at, r.originMm + a, r.originMm + a + 1);
        // Not its sides' difference too: a slanted pen's edge and shadow lie across the line.
        if (seg.contrast < limit) {
          if (Number.isNaN(first)) {
            first = a;
            firstN = n;
            clean = 0;
          }
          last = a;
          lastN = n;
          clear = 0;
          if (seg.side - seg.lopsided / 2 < PALE_CLEAN_INK) clean++;
        } else if (!Number.isNaN(first)) {
          if (seg.contrast >= PALE_FAINT * typical) clear++;
          if (n - lastN > (clear ? PALE_BRIDGE : PALE_BRIDGE_FAINT)) close(false);
        }
      }
      if (!Number.isNaN(first)) close(true);
    }
  }
  return gaps;
}

/** White and cream pens: straight chains of grid gaps 4 to 17 mm wide, with no grid line seen between their ends but at one crossing. */
function paleBars(r: BoardRaster, typical: number): DarkBar[] {
  const all = gridGaps(r, typical);
  const gaps = all.filter((g) => g.clean);
  if (gaps.length < 4 || gaps.length > 300) return [];
  const onAxis = (list: GridGap[], u: [number, number], c: [number, number], within: number) => list.filter((g) => Math.abs(-(g.x - c[0]) * u[1] + (g.y - c[1]) * u[0]) <= within);
  const candidates: { bar: DarkBar; hidden: number }[] = [];
  for (let i = 0; i < gaps.length; i++)
    for (let j = i + 1; j < gaps.length; j++) {
      const a = gaps[i]!;
      const b = gaps[j]!;
      const d = Math.hypot(b.x - a.x, b.y - a.y);
      if (d < 8) continue;
      const near = onAxis(gaps, [(b.x - a.x) / d, (b.y - a.y) / d], [a.x, a.y], PALE_ON_AXIS);
      if (near.length < 4) continue;
      const fitted = fitAxis(near);
      const found = paleChain(r, all, fitted.u, fitted.c, onAxis(all, fitted.u, fitted.c, PALE_ON_FITTED));
      if (found) candidates.push(found);
    }
  // One pen is found from many pairs of its gaps: the longest first, and none on a kept one.
  const out: DarkBar[] = [];
  for (const { bar, hidden } of candidates.sort((p, q) => q.bar.along[1] - q.bar.along[0] - (p.bar.along[1] - p.bar.along[0])))
    if (!out.some((k) => sameBar(k, bar))) out.push({ ...bar, across: paleSides(r, bar, hidden) });
  return out;
}

/** The line through points (mm): their mean, and their principal direction. */
function fitAxis(points: readonly { x: number; y: number }[]): { c: [number, number]; u: [number, number] } {
  const mx = points.reduce((s, g) => s + g.x, 0) / points.length;
  const my = points.reduce((s, g) => s + g.y, 0) / points.length;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (const g of points) {
    sxx += (g.x - mx) ** 2;
    syy += (g.y - my) ** 2;
    sxy += (g.x - mx) * (g.y - my);
  }
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  return { c: [mx, my], u: [Math.cos(theta), Math.sin(theta)] };
}

/**
 * Along an axis, the inner grid lines it crosses steeply, in order, each with its gap (of `members`,
 * the gaps near the axis) or none: a pen is the longest chain of crossings that have clean gaps, one
 * crossing without (a pencil line over the pen's edge, a highlight) joining two pieces of one width;
 * its darker cap's gaps (inked, not clean) carry it on at either end. The box is centred on the chain,
 * its axis fitted to the chain's gaps, and reaches PALE_END_CELLS beyond its end crossings.
 */
function paleChain(r: BoardRaster, all: readonly GridGap[], u: [number, number], c: [number, number], members: readonly GridGap[]): { bar: DarkBar; hidden: number } | null {
  const crossings: { t: number; gap: GridGap | undefined; width: number }[] = [];
  for (const vertical of [true, false]) {
    const du = vertical ? u[0] : u[1];
    if (Math.abs(du) < 0.42) continue;
    const count = vertical ? r.columns : r.rows;
    for (let k = 1; k < count; k++) {
      const at = r.originMm + k * r.cell;
      const t = (at - (vertical ? c[0] : c[1])) / du;
      const gap = members.find((g) => g.vertical === vertical && Math.abs((vertical ? g.x : g.y) - at) < 0.5);
      crossings.push({ t, gap, width: gap ? gap.length * Math.abs(du) : NaN });
    }
  }
  crossings.sort((p, q) => p.t - q.t);
  const clean = (i: number) => crossings[i]?.gap?.clean === true;
  const median = (v: number[]) => v.sort((p, q) => p - q)[Math.floor(v.length / 2)]!;
  // Runs of consecutive clean gaps, then runs one crossing apart joined where their widths agree.
  const runs: [number, number][] = [];
  for (let s = 0; s < crossings.length; s++) {
    if (!clean(s)) continue;
    let e = s;
    while (clean(e + 1)) e++;
    runs.push([s, e]);
    s = e;
  }
  const widthOf = ([s, e]: [number, number]) => median(crossings.slice(s, e + 1).map((x) => x.width));
  const chains: [number, number][] = [];
  for (const run of runs) {
    const last = chains.at(-1);
    // One crossing between them, or the two lines of one grid crossing (crossed at one place).
    const between = last ? run[0] - last[1] - 1 : 0;
    if (last && (between === 1 || (between === 2 && Math.abs(crossings[run[0] - 1]!.t - crossings[last[1] + 1]!.t) < 1))) {
      const [w0, w1] = [widthOf(last), widthOf(run)];
      if (Math.max(w0, w1) <= PALE_JOIN_RATIO * Math.min(w0, w1)) {
        last[1] = run[1];
        continue;
      }
    }
    chains.push([...run]);
  }
  const gapsIn = ([s, e]: [number, number]) => crossings.slice(s, e + 1).filter((x) => x.gap?.clean);
  let best: [number, number] | undefined;
  for (const chain of chains) if (!best || gapsIn(chain).length > gapsIn(best).length) best = chain;
  if (!best) return null;
  const run = gapsIn(best);
  if (run.length < 4) return null;
  if (run.at(-1)!.t - run[0]!.t < BAR_MIN_LENGTH) return null;
  // The end gaps aside: a pen's end, or its cap's, may cross a line with part of its width.
  const widths = run.slice(1, -1).map((x) => x.width);
  const width = median([...widths]);
  if (width < PALE_MIN_WIDTH || width > BAR_MAX_WIDTH_CUT) return null;
  if (widths.filter((x) => x * PALE_WIDTH_SPREAD >= width && x <= width * PALE_WIDTH_SPREAD).length < PALE_WIDTH_SHARE * widths.length) return null;
  // On at either end through gaps of any ink, no wider than twice its width, one crossing without
  // one skipped: its cap, a shade darker than the body, with a metal clip along it that shows as a
  // line where it crosses one and cuts the gap there in two (each piece shorter, off the axis).
  let [s, e] = best;
  const capGap = (i: number) => crossings[i]?.gap !== undefined && crossings[i]!.width <= width * PALE_WIDTH_SPREAD;
  for (;;) {
    if (capGap(s - 1)) s--;
    else if (capGap(s - 2)) s -= 2;
    else break;
  }
  for (;;) {
    if (capGap(e + 1)) e++;
    else if (capGap(e + 2)) e += 2;
    else break;
  }
  const chainGaps = crossings.slice(s, e + 1).flatMap((x) => (x.gap ? [x.gap] : []));
  // Its axis fitted to its own clean gaps (the cap's may sit off it), centred on the chain.
  const fitted = fitAxis(run.map((x) => x.gap!));
  const ts = chainGaps.map((g) => (g.x - fitted.c[0]) * fitted.u[0] + (g.y - fitted.c[1]) * fitted.u[1]);
  const t0 = Math.min(...ts);
  const t1 = Math.max(...ts);
  const mid = (t0 + t1) / 2;
  const centre: [number, number] = [fitted.c[0] + mid * fitted.u[0], fitted.c[1] + mid * fitted.u[1]];
  const half = (t1 - t0) / 2 + PALE_END_CELLS * r.cell;
  const side = width / 2 + PALE_SIDES;
  return { bar: { centre, dir: fitted.u, along: [-half, half], across: [-side, side], ink: 0, gridShows: 0, cells: [] }, hidden: width };
}

/**
 * A pale bar's sides from its ink averaged along it (pencil beside it averages out): on each side, the
 * strongest ink within PALE_EDGE_BEYOND of half its hidden width (the pen's faint edge), then out
 * while the ink stays BAR_EDGE_INK above the paper beyond (its shadow); never nearer than the
 * hidden width's half and PALE_SIDES.
 */
/** A pixel within this many mm of a printed grid line's middle is on the line (lines print some 0.3 mm wide, blurred). */
const PALE_GRID_LINE = 0.6;

function paleSides(r: BoardRaster, bar: DarkBar, hidden: number): [number, number] {
  const STEP = 0.5;
  const reach = hidden / 2 + PALE_EDGE_BEYOND + PALE_SHADOW + 2;
  const bins = Math.ceil((2 * reach) / STEP) + 1;
  const sum = new Float64Array(bins);
  const n = new Float64Array(bins);
  // The chain's own stretch: the box reaches beyond the pen's ends.
  const end = PALE_END_CELLS * r.cell;
  // The printed grid lines are left out: along a pen lying parallel to one, the line does not
  // average out and its ridge, darker than the pen's faint edge, was taken for that edge (a whole
  // row or column of cells beside the pen asked about).
  const W = r.ink.width;
  const offLine = (mm: number) => {
    const k = (((mm - r.originMm) % r.cell) + r.cell) % r.cell;
    return k > PALE_GRID_LINE && k < r.cell - PALE_GRID_LINE;
  };
  forBox(r, bar.centre, bar.dir, [bar.along[0] + end, bar.along[1] - end], [-reach, reach], (i, _t, s) => {
    if (!offLine(((i % W) + 0.5) / r.ppm) || !offLine((Math.floor(i / W) + 0.5) / r.ppm)) return;
    const b = Math.round((s + reach) / STEP);
    sum[b]! += r.ink.ink[i]!;
    n[b]!++;
  });
  const at = (b: number) => (n[b]! ? sum[b]! / n[b]! : 0);
  const bin = (s: number) => Math.round((s + reach) / STEP);
  const least = hidden / 2 + PALE_SIDES;
  const side = (sign: 1 | -1): number => {
    let peak = bin(sign * (hidden / 2 - 1));
    for (let b = peak; Math.abs(b * STEP - reach) <= hidden / 2 + PALE_EDGE_BEYOND; b += sign) if (at(b) > at(peak)) peak = b;
    let base = Infinity;
    for (let b = peak; b >= 0 && b < bins; b += sign) base = Math.min(base, at(b));
    if (!(at(peak) >= base + BAR_EDGE_INK)) return least;
    let b = peak;
    while (Math.abs(b + sign - peak) * STEP <= PALE_SHADOW && b + sign >= 0 && b + sign < bins && at(b + sign) > base + BAR_EDGE_INK) b += sign;
    return Math.max(least, Math.abs(b * STEP - reach) + STEP);
  };
  return [-side(-1), side(1)];
}

/** Two bars of one pen: within 10° of each other, each one's middle line within the other's width, their lengths overlapping. */
function alongside(a: DarkBar, b: DarkBar): boolean {
  if (Math.abs(a.dir[0] * b.dir[0] + a.dir[1] * b.dir[1]) < Math.cos((10 * Math.PI) / 180)) return false;
  const overlaps = (p: DarkBar, q: DarkBar) => {
    const [t, s] = barCoords(p, q.centre[0], q.centre[1]);
    const half = (q.along[1] - q.along[0]) / 2;
    return s >= p.across[0] && s <= p.across[1] && t + half >= p.along[0] && t - half <= p.along[1];
  };
  return overlaps(a, b) && overlaps(b, a);
}

/** The point (x, y) mm in a bar's frame: along its axis from its centre, and across it. */
function barCoords(b: DarkBar, x: number, y: number): [t: number, s: number] {
  const dx = x - b.centre[0];
  const dy = y - b.centre[1];
  return [dx * b.dir[0] + dy * b.dir[1], -dx * b.dir[1] + dy * b.dir[0]];
}

/** Whether the point (x, y) mm lies within a bar's box (body, edges and shadow). */
function inBox(b: DarkBar, x: number, y: number): boolean {
  const [t, s] = barCoords(b, x, y);
  return t >= b.along[0] && t <= b.along[1] && s >= b.across[0] && s <= b.across[1];
}

/** The ink across a bar, averaged along it (pencil under or beside it averages out): its body's ink, and where its edges and shadow end on each side. */
function barProfile(r: BoardRaster, c: [number, number], u: [number, number], along: [number, number], width: number): { ink: number; extent: [number, number]; spread: number } {
  const STEP = 0.2;
  const reach = width / 2 + BAR_MAX_SPREAD;
  const bins = Math.ceil((2 * reach) / STEP) + 1;
  const sum = new Float64Array(bins);
  const n = new Float64Array(bins);
  forBox(r, c, u, along, [-reach, reach], (i, _t, s) => {
    const b = Math.round((s + reach) / STEP);
    sum[b]! += r.ink.ink[i]!;
    n[b]!++;
  });
  const at = (b: number) => (n[b]! ? sum[b]! / n[b]! : 0);
  let body = 0;
  let bodyN = 0;
  for (let b = 0; b < bins; b++) {
    const s = b * STEP - reach;
    if (Math.abs(s) <= width / 2 - 1) {
      body += at(b);
      bodyN++;
    }
  }
  // From the edges of its dark core (a highlight inside it is no edge) outwards, while the ink stays
  // clearly above the paper beside it on that side (the least ink there: pencil averages out along it).
  const bodyInk = bodyN ? body / bodyN : 0;
  const edge = (sign: 1 | -1): number => {
    const centreBin = Math.round(reach / STEP);
    let core = centreBin;
    for (let b = centreBin; b >= 0 && b < bins; b += sign) if (at(b) >= bodyInk / 2) core = b;
    let base = Infinity;
    for (let b = core; b >= 0 && b < bins; b += sign) base = Math.min(base, at(b));
    let b = core;
    while (b + sign >= 0 && b + sign < bins && at(b + sign) > base + BAR_EDGE_INK) b += sign;
    return b * STEP - reach + sign * 0.6;
  };
  const extent: [number, number] = [edge(-1), edge(1)];
  return { ink: bodyInk, extent, spread: Math.max(-extent[0], extent[1]) - width / 2 };
}

/** Visits the raster's pixels within `along` × `across` (mm) of a bar's axis, with their index and bar coordinates. */
function forBox(r: BoardRaster, c: [number, number], u: [number, number], along: [number, number], across: [number, number], f: (i: number, t: number, s: number) => void): void {
  const p = r.ppm;
  const W = r.ink.width;
  const H = r.ink.height;
  const corners = [along[0], along[1]].flatMap((t) => [across[0], across[1]].map((s) => [c[0] + t * u[0] - s * u[1], c[1] + t * u[1] + s * u[0]] as const));
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((q) => q[0])) * p));
  const x1 = Math.min(W - 1, Math.ceil(Math.max(...corners.map((q) => q[0])) * p));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((q) => q[1])) * p));
  const y1 = Math.min(H - 1, Math.ceil(Math.max(...corners.map((q) => q[1])) * p));
  for (let y = y0; y <= y1; y++) {
    const dy = (y + 0.5) / p - c[1];
    // The row's pixels that can be inside (a pixel's margin either side): a slanted bar's bounding
    // box is mostly outside it. Each one is still tested below, so the pixels and their order are those of the whole box.
    let lo = -Infinity;
    let hi = Infinity;
    for (const [a, b, min, max] of [
      [u[0], dy * u[1], along[0], along[1]],
      [-u[1], dy * u[0], across[0], across[1]],
    ] as const) {
      if (Math.abs(a) < 1e-9) continue;
      const e0 = (min - b) / a;
      const e1 = (max - b) / a;
      lo = Math.max(lo, Math.min(e0, e1));
      hi = Math.min(hi, Math.max(e0, e1));
    }
    const xa = Math.max(x0, Math.floor((c[0] + lo) * p - 0.5) - 1);
    const xb = Math.min(x1, Math.ceil((c[0] + hi) * p - 0.5) + 1);
    for (let x = xa; x <= xb; x++) {
      const dx = (x + 0.5) / p - c[0];
      const t = dx * u[0] + dy * u[1];
      const s = -dx * u[1] + dy * u[0];
      if (t >= along[0] && t <= along[1] && s >= across[0] && s <= across[1]) f(y * W + x, t, s);
    }
  }
}

/** The cells a bar hides at least BAR_CELL_SHARE of. */
function cellsUnder(r: BoardRaster, bar: DarkBar): number[] {
  const p = r.ppm;
  const W = r.ink.width;
  const hidden = new Float64Array(r.columns * r.rows);
  forBox(r, bar.centre, bar.dir, bar.along, bar.across, (i) => {
    const col = Math.floor(((i % W) + 0.5) / p / r.cell - r.originMm / r.cell);
    const row = Math.floor((Math.floor(i / W) + 0.5) / p / r.cell - r.originMm / r.cell);
    if (col >= 0 && row >= 0 && col < r.columns && row < r.rows) hidden[row * r.columns + col]!++;
  });
  const perCell = (r.cell * p) ** 2;
  const out: number[] = [];
  hidden.forEach((v, i) => {
    if (v >= BAR_CELL_SHARE * perCell) out.push(i);
  });
  return out;
}

/** Clears the ink under `bars` (it is the bar's, not pencil), so the cells beside it are read from what is seen of them. */
export function clearUnderBars(r: BoardRaster, bars: readonly DarkBar[]): void {
  for (const b of bars) forBox(r, b.centre, b.dir, b.along, b.across, (i) => (r.ink.ink[i] = 0));
}
