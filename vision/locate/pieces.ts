/**
 * A region of the mask explained as dice: split into die-shaped pieces (by distance, along strong
 * edges, by the frame's die size), or taken whole as one die drawn out by a shadow or a side
 * face, or completed to its hull (a white die's shaded sides round a top the tray's colour).
 * Pure geometry on the coarse mask; `segmentDice` (locate.ts) decides which explanation to use.
 */
import { labelRegions, type Region } from './components.js';
import { erode3, fillHoles, scratchStack } from './mask.js';
import { regionShape, type Point, type RegionShape } from './shape.js';
import { splitByCount, splitByDistance } from './split.js';

/** Shape limits of one die seen from above (a tilted die shows a side face: up to ~1.5:1). */
const MAX_ASPECT = 1.6;
const MIN_FILL = 0.6;
const MIN_SOLIDITY = 0.8;

export interface Limits {
  /** Die side limits in coarse pixels. */
  minSide: number;
  maxSide: number;
}

/** How die-like a region's shape is (0 = not a die at all, up to 1). */
export function dieShapeScore(shape: Pick<RegionShape, 'long' | 'short' | 'rectArea' | 'hullArea'>, area: number, limits: Limits): number {
  if (shape.short < limits.minSide * 0.8 || shape.long > limits.maxSide) return 0;
  const aspect = shape.long / Math.max(1e-9, shape.short);
  const fill = area / Math.max(1e-9, shape.rectArea);
  const solidity = area / Math.max(1e-9, shape.hullArea);
  if (aspect > MAX_ASPECT || fill < MIN_FILL || solidity < MIN_SOLIDITY) return 0;
  const a = Math.min(1, (MAX_ASPECT - aspect) / (MAX_ASPECT - 1));
  const f = Math.min(1, (fill - MIN_FILL) / 0.3);
  const s = Math.min(1, (solidity - MIN_SOLIDITY) / 0.15);
  return Math.max(0.05, 0.5 * a + 0.25 * f + 0.25 * s);
}

/** One die-shaped piece of a region, in coarse pixels relative to its window. */
export interface Piece {
  /** Window (region bbox) origin and size in coarse pixels. */
  ox: number;
  oy: number;
  w: number;
  h: number;
  /** Part labels over the window, and which part this piece is. */
  parts: Int32Array;
  id: number;
  shapeScore: number;
  /** The piece's own extent in its window (pixel-edge) and its area, in coarse pixels. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  area: number;
}

/** Area and extent of each part 1..count of a window, in one pass. */
interface PartStats {
  area: Int32Array;
  x0: Int32Array;
  y0: Int32Array;
  x1: Int32Array;
  y1: Int32Array;
}

function partStats(parts: Int32Array, w: number, h: number, count: number): PartStats {
  const s: PartStats = {
    area: new Int32Array(count + 1),
    x0: new Int32Array(count + 1).fill(w),
    y0: new Int32Array(count + 1).fill(h),
    x1: new Int32Array(count + 1),
    y1: new Int32Array(count + 1),
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0, i = y * w; x < w; x++, i++) {
      const id = parts[i]!;
      if (id <= 0 || id > count) continue;
      s.area[id]!++;
      if (x < s.x0[id]!) s.x0[id] = x;
      if (x + 1 > s.x1[id]!) s.x1[id] = x + 1;
      if (y < s.y0[id]!) s.y0[id] = y;
      if (y + 1 > s.y1[id]!) s.y1[id] = y + 1;
    }
  }
  return s;
}

/** The window's die-shaped parts (score > 0), with their measurements. */
function shapedParts(parts: Int32Array, w: number, h: number, count: number, base: { ox: number; oy: number }, limits: Limits): Piece[] {
  const s = partStats(parts, w, h, count);
  const out: Piece[] = [];
  for (let id = 1; id <= count; id++) {
    const area = s.area[id]!;
    if (area === 0) continue;
    const box = { x0: s.x0[id]!, y0: s.y0[id]!, x1: s.x1[id]!, y1: s.y1[id]! };
    const score = dieShapeScore(regionShape(parts, w, id, box), area, limits);
    if (score > 0) out.push({ ox: base.ox, oy: base.oy, w, h, parts, id, shapeScore: score, ...box, area });
  }
  return out;
}

/**
 * Touching dice split along the edges between them: cut the region's strong internal edges (a
 * seam of shade or a change of colour), refill what the cuts enclose (pips, glyphs), keep the
 * cores big enough to be a die, and grow them back over the whole region, nearest core first.
 */
function splitByEdges(inside: Uint8Array, w: number, h: number, edges: Float32Array, minCore: number): { parts: Int32Array; count: number } {
  const n = w * h;
  const core = new Uint8Array(n);
  for (let i = 0; i < n; i++) core[i] = inside[i]! && edges[i]! < EDGE_CUT ? 1 : 0;
  const filled = erode3(fillHoles({ width: w, height: h, data: core }, minCore));
  const { labels, regions } = labelRegions(filled);
  const keep = new Int32Array(regions.length + 1);
  let count = 0;
  for (const r of regions) if (r.area >= minCore) keep[r.label] = ++count;
  const parts = new Int32Array(n);
  if (count < 2) return { parts, count };
  // Grow the cores back over the region, breadth first (each pixel joins the nearest core): one
  // queue in order is the frontiers one after another.
  const queue = scratchStack(n);
  let head = 0, tail = 0;
  for (let i = 0; i < n; i++) {
    const k = keep[labels[i]!]!;
    if (k) (parts[i] = k), (queue[tail++] = i);
  }
  while (head < tail) {
    const p = queue[head++]!;
    const x = p % w, id = parts[p]!;
    let q = p - 1;
    if (x > 0 && !parts[q] && inside[q]) (parts[q] = id), (queue[tail++] = q);
    q = p + 1;
    if (x < w - 1 && !parts[q] && inside[q]) (parts[q] = id), (queue[tail++] = q);
    q = p - w;
    if (q >= 0 && !parts[q] && inside[q]) (parts[q] = id), (queue[tail++] = q);
    q = p + w;
    if (q < n && !parts[q] && inside[q]) (parts[q] = id), (queue[tail++] = q);
  }
  return { parts, count };
}

/**
 * How much of a piece's inside (two coarse pixels in from its outline) shows edges: a die's face
 * carries pips, numerals or icons; a dot of a polka-dot cloth or a plain counter carries none.
 * Null when the piece is too small to have an inside worth measuring.
 *
 * "Two pixels in" is the piece eroded twice by 3×3 with the window's outside unset, i.e. the
 * pixels whose whole 5×5 neighbourhood is in the window and in the piece.
 */
export function interiorDetail(piece: Piece, edges: Float32Array, coarseW: number): number | null {
  const { w, h, parts, id, ox, oy } = piece;
  // Only the piece's own extent can hold such pixels.
  const x0 = Math.max(2, piece.x0 + 2), x1 = Math.min(w - 2, piece.x1 - 2);
  const y0 = Math.max(2, piece.y0 + 2), y1 = Math.min(h - 2, piece.y1 - 2);
  if (x1 <= x0 || y1 <= y0) return null;
  // Per column of the extent: how many rows in a row (up to the current one) are in the piece
  // across x-2..x+2.
  const cols = x1 - x0;
  const runDown = new Int32Array(cols);
  let n = 0, busy = 0;
  for (let y = y0 - 2; y < y1 + 2; y++) {
    const r = y * w;
    // Horizontal run of the piece ending at each x+2.
    let run = 0;
    for (let x = x0 - 2; x < x1 + 2; x++) {
      run = parts[r + x] === id ? run + 1 : 0;
      if (x < x0 + 2) continue;
      const c = x - 2 - x0;
      runDown[c] = run >= 5 ? runDown[c]! + 1 : 0;
      if (y >= y0 + 2 && runDown[c]! >= 5) {
        // The pixel (x - 2, y - 2) has its 5×5 neighbourhood in the piece.
        n++;
        if (edges[(y - 2 + oy) * coarseW + x - 2 + ox]! >= DETAIL_EDGE) busy++;
      }
    }
  }
  return n >= 12 ? busy / n : null;
}

/** Edge strength of a face's marks, and the share of a face they must cover at least. */
const DETAIL_EDGE = 4;
export const MIN_DETAIL = 0.01;

/** Edge strength (tray-texture units) that counts as a seam between two touching dice. */
const EDGE_CUT = 8;

/**
 * How a region is explained: its pieces, and how well (their area-weighted shape score). A
 * partial explanation (die-shaped pieces covering under 70 % of it) or cuts along a bar have no
 * goodness (-1).
 */
interface Explanation {
  pieces: Piece[];
  goodness: number;
  kind: 'full' | 'partial' | 'bar';
}

/** The region's own pixels as a 0/1 window over its bounding box. */
function regionWindow(labels: Int32Array, width: number, r: Region): Uint8Array {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const inside = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const src = (y + r.y0) * width + r.x0;
    for (let x = 0; x < w; x++) inside[y * w + x] = labels[src + x] === r.label ? 1 : 0;
  }
  return inside;
}

/** A split's die-shaped parts and their goodness, when they explain at least 70 % of the region. */
function judgeSplit(split: { parts: Int32Array; count: number }, r: Region, limits: Limits): { good: Piece[]; goodness: number | null } {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  if (split.count < 2) return { good: [], goodness: null };
  const good = shapedParts(split.parts, w, h, split.count, { ox: r.x0, oy: r.y0 }, limits);
  let goodArea = 0, weighted = 0;
  for (const p of good) {
    goodArea += p.area;
    weighted += p.shapeScore * p.area;
  }
  return { good, goodness: good.length >= 2 && goodArea >= 0.7 * r.area ? weighted / r.area : null };
}

/**
 * The dice in one region: the region itself, its distance-transform hills, its cores between
 * strong edges, or equal cuts along its length; whichever explains most of the region with
 * die-shaped pieces.
 */
export function piecesOf(labels: Int32Array, width: number, r: Region, limits: Limits, edges: Float32Array | null): Explanation {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const inside = regionWindow(labels, width, r);
  const whole = Int32Array.from(inside);
  const base = { ox: r.x0, oy: r.y0 };
  // The region itself: its extent is the window and its area is known.
  const wholeScore = dieShapeScore(regionShape(whole, w, 1, { x0: 0, y0: 0, x1: w, y1: h }), r.area, limits);
  const wholePieces: Piece[] = wholeScore > 0 ? [{ ...base, w, h, parts: whole, id: 1, shapeScore: wholeScore, x0: 0, y0: 0, x1: w, y1: h, area: r.area }] : [];

  let best: Explanation = { pieces: wholePieces, goodness: wholeScore, kind: 'full' };
  const fallback: Piece[][] = [];
  const splits = [splitByDistance(inside, w, h, { minPeak: limits.minSide * 0.35 })];
  if (edges) {
    const edgeWindow = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) edgeWindow[y * w + x] = edges[(y + r.y0) * width + x + r.x0]!;
    splits.push(splitByEdges(inside, w, h, edgeWindow, Math.max(4, 0.3 * limits.minSide * limits.minSide)));
  }
  for (const split of splits) {
    const { good, goodness } = judgeSplit(split, r, limits);
    if (goodness !== null) {
      if (goodness > best.goodness) best = { pieces: good, goodness, kind: 'full' };
    } else if (good.length > 0) fallback.push(good);
  }
  if (best.pieces.length > 0) return best;
  if (fallback.length > 0) return { pieces: fallback.sort((p, q) => q.length - p.length)[0]!, goodness: -1, kind: 'partial' };
  return { pieces: splitAlongAxis(labels, width, r, limits), goodness: -1, kind: 'bar' };
}

/**
 * A region as big as several dice, cut by count (`splitByCount`) when that explains it at least
 * as well as `first` did: four dice pressed into a square are as square as one die, so the cut
 * wins a tie. Where nothing explained the region fully, the cut's die-shaped pieces are taken
 * if they are more than the other splits found. `extra` cuts that many dice more than the
 * region's area in dice (at least two).
 */
export function cutByCount(labels: Int32Array, width: number, r: Region, limits: Limits, first: Explanation, dieArea: number, extra = 0): Explanation {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const count = Math.round(r.area / dieArea) + extra;
  const split = splitByCount(regionWindow(labels, width, r), w, h, Math.min(MAX_CLUMP, extra > 0 ? Math.max(2, count) : count));
  const { good, goodness } = judgeSplit(split, r, limits);
  if (goodness !== null) return goodness >= first.goodness ? { pieces: good, goodness, kind: 'full' } : first;
  const more = first.kind === 'bar' ? good.length > 0 : first.kind === 'partial' && good.length > first.pieces.length;
  return more ? { pieces: good, goodness: -1, kind: 'partial' } : first;
}

/** Dice pressed side by side into a bar: cut it into round(long / short) equal pieces. */
function splitAlongAxis(labels: Int32Array, width: number, r: Region, limits: Limits): Piece[] {
  const shape = regionShape(labels, width, r.label, r);
  const k = Math.round(shape.long / Math.max(1, shape.short));
  if (k < 2 || k > 5 || r.area < 0.75 * shape.rectArea) return [];
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const ux = Math.cos(shape.angle), uy = Math.sin(shape.angle);
  let minU = Infinity, maxU = -Infinity;
  for (const [px, py] of shape.hull) {
    const u = px * ux + py * uy;
    minU = Math.min(minU, u);
    maxU = Math.max(maxU, u);
  }
  const parts = new Int32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (labels[(y + r.y0) * width + x + r.x0] !== r.label) continue;
      const u = (x + r.x0 + 0.5) * ux + (y + r.y0 + 0.5) * uy;
      parts[y * w + x] = 1 + Math.min(k - 1, Math.max(0, Math.floor(((u - minU) / (maxU - minU)) * k)));
    }
  }
  const out = shapedParts(parts, w, h, k, { ox: r.x0, oy: r.y0 }, limits);
  return out.length === k ? out : [];
}

/** Most area, in the frame's dice, of a region taken whole as one drawn-out die. */
export const ONE_DIE_AREA = 1.4;
/** Most aspect of such a region (a die's own limit is `MAX_ASPECT`). */
const MAX_ONE_DIE_ASPECT = 2;

/** A region's own pixels as part 1 of its window, and their shape. */
/** A region taken whole: its pixels in its own window, and their shape. */
export interface WholeRegion {
  parts: Int32Array;
  shape: RegionShape;
}

export function wholeRegion(labels: Int32Array, width: number, r: Region): WholeRegion {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const parts = Int32Array.from(regionWindow(labels, width, r));
  return { parts, shape: regionShape(parts, w, 1, { x0: 0, y0: 0, x1: w, y1: h }) };
}

/** A region taken whole as one die drawn out by its shadow or a side face, if it is compact enough. */
export function asOneDie({ parts: whole, shape }: WholeRegion, r: Region, limits: Limits): Piece | null {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const aspect = shape.long / Math.max(1e-9, shape.short);
  if (shape.short < limits.minSide * 0.8 || shape.long > limits.maxSide || aspect > MAX_ONE_DIE_ASPECT) return null;
  if (r.area < MIN_FILL * shape.rectArea || r.area < MIN_SOLIDITY * shape.hullArea) return null;
  return { ox: r.x0, oy: r.y0, w, h, parts: whole, id: 1, shapeScore: ONE_DIE_SCORE, x0: 0, y0: 0, x1: w, y1: h, area: r.area };
}

/**
 * A die whose top matches the tray (a white die on a light tray, seen from one side) keeps only
 * its shaded side faces in the mask: an L or a V round the top. The region's convex hull, filled,
 * is then the die, if the region is such an L or V (not solid, not scattered) and its hull is
 * die-shaped. The caller asks for the rest: that the hull is no bigger than one of the frame's
 * dice (a frame whose dice give no size gets no hulls: the shading of a round corner made
 * pip-sized ones), and that it shows a face's marks inside (the top's pips).
 */
export function hullPiece({ shape }: WholeRegion, r: Region, limits: Limits): Piece | null {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const solidity = r.area / Math.max(1e-9, shape.hullArea);
  if (solidity >= MIN_SOLIDITY || solidity < MIN_HULL_SOLIDITY) return null;
  if (dieShapeScore(shape, shape.hullArea, limits) === 0) return null;
  const parts = new Int32Array(w * h);
  let area = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (insideConvex(shape.hull, x + 0.5, y + 0.5)) (parts[y * w + x] = 1), area++;
    }
  }
  return { ox: r.x0, oy: r.y0, w, h, parts, id: 1, shapeScore: ONE_DIE_SCORE, x0: 0, y0: 0, x1: w, y1: h, area };
}

/** Least solidity of a region completed by its hull: an L of two sides fills about half its hull; less is scattered bits. */
const MIN_HULL_SOLIDITY = 0.3;

/** Whether (x, y) lies in the convex polygon (either winding). */
function insideConvex(poly: readonly Point[], x: number, y: number): boolean {
  let pos = false, neg = false;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i]!, q = poly[(i + 1) % poly.length]!;
    const c = (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
    if (c > 0) pos = true;
    else if (c < 0) neg = true;
    if (pos && neg) return false;
  }
  return poly.length >= 3;
}

/** The shape score of such a die: below a die seen square, as its outline is not a die's. */
const ONE_DIE_SCORE = 0.3;

/** At most this many dice are counted into one clump. */
const MAX_CLUMP = 8;

/** A frame's die size (coarse pixels) and how many regions gave it. */
export interface DieSize {
  area: number;
  support: number;
}

/**
 * One die's area in the frame, in coarse pixels: the lower median area of the regions that are
 * one well-shaped die by themselves (shape score ≥ 0.5, a face's marks measured inside), with
 * their number, or null when there are fewer than `least`. Dice at one table are one size; perspective changes that by less than the
 * rounding in `round(area / dieArea)` does, for the views clew expects. One such die is enough
 * on a plain tray; on a patterned cloth, where a patch of the cloth can pass for a die, two are
 * asked for (one alone there gave 28 extra boxes on the development scenes).
 */
export function dieSizeOf(regions: readonly Region[], explained: readonly Explanation[], marked: (piece: Piece) => boolean, least = 2): DieSize | null {
  const areas: number[] = [];
  regions.forEach((r, k) => {
    const ps = explained[k]!.pieces;
    if (ps.length === 1 && ps[0]!.area === r.area && ps[0]!.shapeScore >= 0.5 && marked(ps[0]!)) areas.push(r.area);
  });
  if (areas.length < least) return null;
  areas.sort((a, b) => a - b);
  // The lower median: clumps that pass for one die (a 2×2 square) must not set the size.
  return { area: areas[Math.floor((areas.length - 1) / 2)]!, support: areas.length };
}

/**
 * The frame's die size from the hulls of regions that are the shaded sides round a top the
 * tray's colour (white dice on a light tray, each an L or a V): the lower median of those hulls,
 * filled, that are die-shaped and show a face's marks, with the number that agree with it
 * (within `HULLS_AGREE`). Null with fewer than `least` agreeing.
 */
export function dieSizeFromHulls(hulls: readonly Piece[], least = 2): DieSize | null {
  if (hulls.length < least) return null;
  const areas = hulls.map((p) => p.area).sort((a, b) => a - b);
  const median = areas[Math.floor((areas.length - 1) / 2)]!;
  const agree = areas.filter((a) => a <= HULLS_AGREE * median && a >= median / HULLS_AGREE);
  return agree.length >= least ? { area: median, support: agree.length } : null;
}

/** Hulls within this factor of their median are taken as one size of die. */
const HULLS_AGREE = 1.5;
