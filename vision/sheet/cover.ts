/**
 * Is each cell's printed grid seen? A finger, a pencil or a loose sheet of paper lying on the board,
 * glare, or a part of the board outside the photo hides the pencil and the printed grid alike: the
 * ink map there is flat, so the cell reads as a confident "blank". The grid lines are printed where
 * the layout says (the board is rectified), so each cell's four borders are measured in short
 * segments: the grid line's ink against the ink just beside it. A cell most of whose clear segments
 * show no line is "covered?".
 */
import type { BoardRaster } from './cells.js';

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
}

/** Which cells of a measured board show no printed grid; `pencil` is the photo's pencil darkness (`photoPencil`). */
export function coveredCells(r: BoardRaster, pencil: number): CoverCheck {
  const cells: { seg: Segment; frame: boolean }[][] = [];
  for (let row = 0; row < r.rows; row++) for (let column = 0; column < r.columns; column++) cells.push(cellSegments(r, column, row));
  // The typical contrast from the grey inner lines only: the black frame is much stronger. A high
  // percentile, so a board half covered still has the visible half's contrast.
  const inner = Float64Array.from(cells.flatMap((s) => s.filter((x) => !x.frame).map((x) => x.seg.contrast))).sort();
  const typical = inner.length ? inner[Math.floor(inner.length * 0.9)]! : 0;
  if (!(typical >= MIN_TYPICAL)) return { covered: cells.map(() => false), typical, checked: false };
  const limit = UNSEEN * typical;
  const covered = cells.map((segs) => {
    const clear = segs.filter((x) => x.seg.side < UNDER_PENCIL * pencil);
    if (clear.length < MIN_CLEAR) return false;
    const unseen = clear.filter((x) => x.seg.contrast < limit && x.seg.lopsided < limit).length;
    return unseen >= COVERED_SHARE * clear.length;
  });
  return { covered, typical, checked: true };
}
