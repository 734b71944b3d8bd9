/**
 * `locateDice`: every die in a frame, once, as a pixel box with a score.
 *
 * Classical segmentation, at half the working size: model the tray, mark what differs from it (in
 * units of the tray's own texture) or what a closed outline encloses, clean the mask, split
 * touching dice, keep the regions shaped like a die; then measure each die's box at full working
 * size. Optionally the learned detector (detector/) adds the dice it is sure of that the
 * segmentation missed. Why this split: docs/notes/vision-locate.md (measured on real frames and
 * rendered scenes: the detector alone, trained from renders, fails on real frames).
 */
import type { Box, RgbImage } from '../types.js';
import type { DieDetector } from './detector/index.js';
import { estimateBackground, type Background } from './background.js';
import { labelRegions, type Region } from './components.js';
import { edgeEvidence, FineEvidence, trayEvidence } from './evidence.js';
import { toLabPlanes, type LabPlanes } from './lab.js';
import { clothEdges, clothPalette, FinePaletteEvidence, paletteEvidence, withLineColours, type ClothPalette } from './palette.js';
import { dilate3, erode3, fillHoles, hysteresis, minus, open3, scratchStack, union, type Mask } from './mask.js';
import { buildPyramid, type Pyramid } from './pyramid.js';
import { regionShape, type Point, type RegionShape } from './shape.js';
import { splitByCount, splitByDistance } from './split.js';

export interface LocatedDie {
  /** Pixel-edge box [x0, y0, x1, y1] in the input image's coordinates. */
  box: Box;
  /** 0..1: how die-like the region is (shape and contrast with the tray). */
  score: number;
  /**
   * Whether the face's marks were seen inside it (pips, a numeral, an icon): false for a piece
   * too small to have an inside, taken on trust (a die of 20 px or so, or a lone pip); absent
   * for the learned detector's boxes.
   */
  marked?: boolean;
  /** Inferred from a group of a face's pips whose die the mask lost: its outline was never seen. */
  fromPips?: boolean;
}

export interface LocateOptions {
  /** Frames whose longer side exceeds this are downscaled first (default 640). */
  maxSide?: number;
  /** Smallest die side to report, in input pixels (default 14). */
  minSize?: number;
  /** Largest die side to report, in input pixels (default: 0.6 × the frame's shorter side, at least 300). */
  maxSize?: number;
  /** Evidence (in tray-texture units) that starts a region / extends it (defaults 7 / 3.5). */
  seedContrast?: number;
  growContrast?: number;
  /** Edge strength (in units of the tray's own edges) that starts / extends an outline (defaults 8 / 3). */
  edgeSeed?: number;
  edgeGrow?: number;
  /** Share of a die's inside that must show edges (its face's marks); 0 turns the check off (default 0.01). */
  minDetail?: number;
  /** Also try splitting touching dice along the strong edges between them (default true). */
  edgeSplit?: boolean;
  /** Also try cutting a clump as big as several of the frame's single dice into that many (default true). */
  clumpSplit?: boolean;
  /** Also take a region no split explains as the die its convex hull outlines: the shaded sides round a top the colour of the tray (default true). */
  hullCompletion?: boolean;
  /** Compare with the cloth's palette where the frame shows a patterned cloth (default true). */
  patternedCloth?: boolean;
  /** Look for big dice (≥ 100 px) again at half the working size where a big region is left unexplained and few dice were found (default true). */
  bigDice?: boolean;
  /**
   * The learned detector (from `loadDieDetector()`), optional. With it, the classical dice are
   * kept and the detector adds the dice it is sure of that the segmentation missed (see
   * `rescueScore`); with `detectorOnly` the detector alone answers (for comparisons).
   */
  detector?: DieDetector;
  /** Detector heat a die needs to be added to the classical ones (default 0.5). */
  rescueScore?: number;
  detectorOnly?: boolean;
  /** Detector heat at or above which the detector reports a die (default: stored with the weights). */
  detectorThreshold?: number;
}

/** Shape limits of one die seen from above (a tilted die shows a side face: up to ~1.5:1). */
const MAX_ASPECT = 1.6;
const MIN_FILL = 0.6;
const MIN_SOLIDITY = 0.8;

function checkImage(image: RgbImage): void {
  if (!image || typeof image !== 'object') throw new TypeError('locateDice: expected an RgbImage');
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`locateDice: width and height must be non-negative integers, got ${width}×${height}`);
  }
  if (!(data instanceof Uint8Array)) throw new TypeError('locateDice: image data must be a Uint8Array');
  if (data.length !== width * height * 3) {
    throw new RangeError(`locateDice: image data has ${data.length} bytes, expected ${width}×${height}×3 = ${width * height * 3}`);
  }
}

interface Limits {
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
interface Piece {
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
function interiorDetail(piece: Piece, edges: Float32Array, coarseW: number): number | null {
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
const MIN_DETAIL = 0.01;

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
function piecesOf(labels: Int32Array, width: number, r: Region, limits: Limits, edges: Float32Array | null): Explanation {
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
function cutByCount(labels: Int32Array, width: number, r: Region, limits: Limits, first: Explanation, dieArea: number, extra = 0): Explanation {
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

/** Per-frame state of the box measurement: the tray evidence of the fine frame, on demand. */
interface FineContext {
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
function refineBox(piece: Piece, labels: Int32Array, coarseW: number, coarseH: number, fine: FineContext): { box: Box; contrast: number } {
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

/**
 * What closed outlines enclose, outline included: a die whose body matches the tray (white on a
 * light tray) still has an outline. Open lines (wood grain, scratches) enclose nothing and add
 * nothing, so edges never glue a die to the texture around it. Gaps of a pixel are bridged.
 */
function enclosedBy(edges: Mask): Mask {
  const n = edges.data.length;
  const [a, b, c] = maskScratch(n);
  const closed = dilate3(edges, a);
  const filled = fillHoles(closed, n / 8, b);
  const inner = minus(filled, closed, c);
  return dilate3(dilate3(inner, a));
}

/**
 * Three scratch masks for the steps of `diceMask` that nobody keeps (one frame at a time): fresh
 * 100 KB arrays per step were a good part of the collector's work.
 */
let scratchMasks: Uint8Array[] = [];
function maskScratch(n: number): [Uint8Array, Uint8Array, Uint8Array] {
  if (!scratchMasks[0] || scratchMasks[0].length < n) scratchMasks = [new Uint8Array(n), new Uint8Array(n), new Uint8Array(n)];
  return [scratchMasks[0]!.subarray(0, n), scratchMasks[1]!.subarray(0, n), scratchMasks[2]!.subarray(0, n)];
}

/** The stages of the coarse die mask (exported for tests and for looking at). */
export interface DiceMasks {
  colour: Mask;
  edges: Mask;
  /** Edge strength per pixel, in units of the tray's own edges. */
  edgeStrength: Float32Array;
  /** Evidence per pixel that it is not tray, in units of the tray's own texture. */
  evidence: Float32Array;
  enclosed: Mask;
  /** The final mask: colour ∪ enclosed, holes filled, opened. */
  mask: Mask;
}

/** What the frame is compared with: the smooth tray model, or a patterned cloth's palette. */
export type TrayModel = { bg: Background } | { palette: ClothPalette };

export function diceMask(lab: LabPlanes, tray: TrayModel, options: LocateOptions = {}): DiceMasks {
  const { width, height } = lab;
  const grow = options.growContrast ?? 3.5;
  const evidence = 'palette' in tray ? paletteEvidence(lab, tray.palette) : trayEvidence(lab, tray.bg);
  const colour = hysteresis(evidence, width, height, grow, options.seedContrast ?? 7);
  const edgeStrength = 'palette' in tray ? clothEdges(lab, tray.palette, evidence, grow) : edgeEvidence(lab, tray.bg);
  const edges = hysteresis(edgeStrength, width, height, options.edgeGrow ?? 3, options.edgeSeed ?? 8);
  const enclosed = enclosedBy(edges);
  const [a, b] = maskScratch(width * height);
  const mask = open3(fillHoles(union(colour, enclosed, a), (width * height) / 8, b));
  return { colour, edges, edgeStrength, evidence, enclosed, mask };
}

export function locateDice(image: RgbImage, options: LocateOptions = {}): LocatedDie[] {
  checkImage(image);
  if (image.width < 16 || image.height < 16) return [];
  const pyr = buildPyramid(image, options.maxSide ?? 640);
  if (options.detector && options.detectorOnly) return detectWith(options.detector, pyr.fine, pyr.fineScale, image, options);
  const bigRegions: Box[] = [];
  const found = segmentDice(pyr, image, options, options.bigDice === false ? undefined : bigRegions);
  const classical = options.bigDice === false ? found : withBigDice(found, bigRegions, image, pyr, options);
  if (!options.detector) return classical;
  // Rescue: confident detector boxes that overlap no classical die (IoU < 0.3).
  const rescue = options.rescueScore ?? 0.5;
  const extra = detectWith(options.detector, pyr.fine, pyr.fineScale, image, options).filter(
    (d) => d.score >= rescue && classical.every((c) => overlap(c.box, d.box) < 0.3),
  );
  return [...classical, ...extra].sort((p, q) => q.score - p.score);
}

/** Big dice are looked for again in frames where the first look found at most this many dice. */
const BIG_LOOK_MAX_FOUND = 8;
/** A die this big (working-frame pixels, shorter side) is big. */
const BIG_DIE_SIDE = 100;

/** A big region is explained when the dice found cover at least this share of its box. */
const BIG_REGION_EXPLAINED = 0.5;

/**
 * The dice found, and big dice found at half the working size that overlap none of them. A die
 * of 100–300 px is a large region with a plain face: glare, a plank's groove or a neighbour
 * joins it into one region no split explains, and at half size the same die is the size the
 * segmentation sees best. A frame is looked at again only where a big region of its mask is
 * left unexplained (`bigRegions`: boxes in input pixels), and only with few dice: big dice
 * leave room for few, and a crowded frame pays nothing.
 */
function withBigDice(found: LocatedDie[], bigRegions: readonly Box[], image: RgbImage, pyr: Pyramid, options: LocateOptions): LocatedDie[] {
  if (found.length > BIG_LOOK_MAX_FOUND) return found;
  const working = Math.max(pyr.fine.width, pyr.fine.height);
  if (working < 4 * BIG_DIE_SIDE) return found;
  const unexplained = bigRegions.some((r) => found.reduce((a, d) => a + intersection(r, d.box), 0) < BIG_REGION_EXPLAINED * boxArea(r));
  if (!unexplained) return found;
  const half = buildPyramid(image, working / 2);
  const minSide = BIG_DIE_SIDE * pyr.fineScale;
  const inside = (a: Box, b: Box) => a[0] >= b[0] && a[1] >= b[1] && a[2] <= b[2] && a[3] <= b[3];
  const big = segmentDice(half, image, options).filter(
    (d) => Math.min(d.box[2] - d.box[0], d.box[3] - d.box[1]) >= minSide && found.every((f) => overlap(f.box, d.box) < 0.1 && !inside(f.box, d.box)),
  );
  return big.length ? [...found, ...big] : found;
}

function boxArea(b: Box): number {
  return (b[2] - b[0]) * (b[3] - b[1]);
}

function intersection(a: Box, b: Box): number {
  return Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
}

function overlap(a: Box, b: Box): number {
  const inter = intersection(a, b);
  const union = boxArea(a) + boxArea(b) - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * The coarse frame's masks against the cloth's palette, where the frame shows a patterned cloth
 * that the palette explains, else against the smooth tray model; and the matching evidence for
 * measuring boxes on the fine frame. The smooth model is only made where it is used (2–3 ms).
 */
function compareWithTray(lab: LabPlanes, fine: RgbImage, step: number, limits: Limits, options: LocateOptions): { masks: DiceMasks; evidence: FineContext['evidence'] } {
  const palette = options.patternedCloth === false ? null : clothPalette(lab, limits);
  if (palette) {
    const masks = diceMask(lab, { palette }, options);
    // A palette that leaves the cloth in pieces does not explain it (the dice share its colours,
    // or it has more colours than were found): the smooth model's answer is the safer one then.
    if (labelRegions(masks.colour).regions.length <= MAX_UNEXPLAINED) return { masks, evidence: new FinePaletteEvidence(fine, palette) };
    // Unless the pieces are the cloth's thin lines, whose colour no flat sample shows.
    const lined = withLineColours(lab, palette, masks.colour);
    if (lined) {
      const again = diceMask(lab, { palette: lined }, options);
      // With the lines explained, the dice must stand out by their colour: a mask made mostly of
      // closed outlines means the dice share the cloth's colours, and the smooth model's answer
      // (usually nothing) is the safer one.
      if (labelRegions(again.colour).regions.length <= MAX_UNEXPLAINED && countOn(again.colour) >= LINED_COLOUR_SHARE * countOn(again.mask)) {
        return { masks: again, evidence: new FinePaletteEvidence(fine, lined) };
      }
    }
  }
  const bg = estimateBackground(lab);
  return { masks: diceMask(lab, { bg }, options), evidence: new FineEvidence(fine, bg, step) };
}

/** Share of the mask a lined palette's colour mask must make up (`compareWithTray`). */
const LINED_COLOUR_SHARE = 0.5;

function countOn(mask: Mask): number {
  let n = 0;
  for (const v of mask.data) n += v;
  return n;
}

/** The classical path: segment the coarse frame, split, filter by shape, measure at fine size. */
function segmentDice(pyr: Pyramid, image: RgbImage, options: LocateOptions, bigRegions?: Box[]): LocatedDie[] {
  const seed = options.seedContrast ?? 7;
  const grow = options.growContrast ?? 3.5;
  const { coarse, fine, step } = pyr;
  const lab = toLabPlanes(coarse);
  const toCoarse = 1 / (pyr.fineScale * step);
  const limits: Limits = {
    minSide: (options.minSize ?? 14) * toCoarse,
    maxSide: (options.maxSize ?? Math.max(300, 0.6 * Math.min(image.width, image.height))) * toCoarse,
  };
  const { masks, evidence: fineEvidence } = compareWithTray(lab, fine, step, limits, options);
  const { mask, edgeStrength } = masks;
  const { labels, regions } = labelRegions(mask);
  const found: LocatedDie[] = [];
  const fineCtx: FineContext = { evidence: fineEvidence, step, grow };
  const edges = options.edgeSplit === false ? null : edgeStrength;
  const minDetail = options.minDetail ?? MIN_DETAIL;
  // Each piece's face marks, measured once (the die-size reference and the filter both ask).
  const details = new Map<Piece, number | null>();
  const detailOf = (piece: Piece) => {
    if (!details.has(piece)) details.set(piece, interiorDetail(piece, edgeStrength, coarse.width));
    return details.get(piece)!;
  };
  // A piece too small to have an inside is given the benefit of the doubt here (a die of 20 px
  // or so); `pipGroupsToDice` below takes those that come in groups for a face's pips.
  const kept = (piece: Piece) => (detailOf(piece) ?? minDetail) >= minDetail;
  const candidates = regions.filter((r) => {
    if (r.touchesBorder) return false; // a die cut by the frame's edge cannot be read
    const bw = r.x1 - r.x0, bh = r.y1 - r.y0;
    return Math.max(bw, bh) >= limits.minSide * 0.8 && r.area >= 0.4 * limits.minSide * limits.minSide;
  });
  // Regions too small to be a die may still be a face's pips (see `marks` below).
  // Not on a patterned cloth: there the pieces no die holds are mostly the cloth's own marks.
  const onCloth = fineEvidence instanceof FinePaletteEvidence;
  const isCandidate = new Set(candidates);
  const tiny = onCloth ? [] : regions.filter((r) => !r.touchesBorder && !isCandidate.has(r) && r.area >= MIN_PIP_AREA && Math.max(r.x1 - r.x0, r.y1 - r.y0) <= 2.5 * Math.min(r.x1 - r.x0, r.y1 - r.y0));
  if (bigRegions) {
    // Regions a big die could make (`withBigDice` asks whether the dice found explain them),
    // those at the frame's edge too: a groove or a shadow reaching the edge may join a die.
    const bigCoarse = BIG_DIE_SIDE / step;
    const toInput = pyr.fineScale * step;
    for (const r of regions) {
      if (Math.max(r.x1 - r.x0, r.y1 - r.y0) >= bigCoarse) bigRegions.push([r.x0 * toInput, r.y0 * toInput, Math.min(image.width, r.x1 * toInput), Math.min(image.height, r.y1 * toInput)]);
    }
  }
  const first = candidates.map((r) => piecesOf(labels, coarse.width, r, limits, edges));
  // A clump of dice is cut by count where the frame's single dice tell how big one die is.
  // (A reference die must show marks inside: a pip or glyph alone, too small to have an inside,
  // is not a die's size.)
  const marked = (piece: Piece) => (detailOf(piece) ?? 0) >= minDetail;
  const dieArea = options.clumpSplit === false ? null : dieAreaOf(candidates, first, marked, onCloth ? 2 : 1);
  // Blank pieces and pieces under a quarter of a die are not dice, but in a group they may be a
  // face's pips whose die the mask lost (`pipGroupsToDice`).
  const marks: LocatedDie[] = [];
  const asMark = (piece: Piece) => {
    if (onCloth) return;
    const { box } = refineBox(piece, labels, coarse.width, coarse.height, fineCtx);
    const s = pyr.fineScale;
    marks.push({ box: [box[0] * s, box[1] * s, Math.min(image.width, box[2] * s), Math.min(image.height, box[3] * s)], score: 0, marked: false });
  };
  const toImage = pyr.fineScale * step;
  for (const r of tiny) marks.push({ box: [r.x0 * toImage, r.y0 * toImage, Math.min(image.width, r.x1 * toImage), Math.min(image.height, r.y1 * toImage)], score: 0, marked: false });
  for (const [k, r] of candidates.entries()) {
    let cut = dieArea !== null && r.area >= CLUMP_AREA * dieArea ? cutByCount(labels, coarse.width, r, limits, first[k]!, dieArea) : first[k]!;
    // Dice farther from the camera are smaller than the frame's typical die: a clump the count
    // does not explain may hold one die more (two small dice make 1.2–1.5 typical ones).
    if (dieArea !== null && cut.kind !== 'full' && r.area >= ONE_MORE_AREA * dieArea) {
      const more = cutByCount(labels, coarse.width, r, limits, cut, dieArea, 1);
      if (more.kind === 'full' && more.goodness >= ONE_MORE_GOODNESS) cut = more;
    }
    let { pieces } = cut;
    if (dieArea !== null && cut.kind !== 'full') {
      const whole = wholeRegion(labels, coarse.width, r);
      // A region no bigger than one of the frame's dice that no split explains fully is one die,
      // drawn out by its shadow or a side face, not two halves of a bar.
      if (r.area <= ONE_DIE_AREA * dieArea) {
        const one = asOneDie(whole, r, limits);
        if (one) pieces = [one];
      }
      // A region no split explains whose hull is one die: the shaded sides of a die whose top
      // matches the tray, round that top.
      if (options.hullCompletion !== false) {
        const hull = hullDie(whole, r, limits, dieArea);
        if (hull && kept(hull)) pieces = [hull];
      }
    }
    for (const piece of pieces) {
      if (!kept(piece)) {
        asMark(piece);
        continue;
      }
      // Under a quarter of a die: a mark (a numeral, an icon) of a die whose body the mask lost.
      if (dieArea !== null && piece.area < MIN_DIE_SHARE * dieArea) {
        asMark(piece);
        continue;
      }
      const { box, contrast } = refineBox(piece, labels, coarse.width, coarse.height, fineCtx);
      const s = pyr.fineScale;
      const contrastScore = Math.min(1, contrast / (2 * seed));
      const die: LocatedDie = {
        box: [box[0] * s, box[1] * s, Math.min(image.width, box[2] * s), Math.min(image.height, box[3] * s)],
        score: 0.7 * piece.shapeScore + 0.3 * contrastScore,
        marked: detailOf(piece) !== null,
      };
      found.push(die);
    }
  }
  // A die inferred from pips must show a body round them, however faint: random dark specks on
  // a plain table (crumbs, a speckled laminate) group by chance as a face's pips do.
  const body = (box: Box) => bodyEvidence(box, masks.evidence, mask.data, coarse.width, coarse.height, toImage);
  const dice = minDetail > 0 ? pipGroupsToDice(found, image.width, image.height, marks).filter((d) => !d.fromPips || body(d.box) >= MIN_PIPS_BODY) : found;
  return withoutNested(dice).sort((p, q) => q.score - p.score);
}

/** Least area (coarse pixels) of a region under a die's size taken for a possible pip. */
const MIN_PIP_AREA = 6;
/** Two small pieces this close (centre to centre, in their larger side) are pips of one face. */
const PIP_REACH = 4;
/**
 * A die's box from its pips' extent: the pips of 2–6 span about 0.7 of a face square on (1.4×),
 * and 0.9 of it turned 45°, when the die's box is 1.4 faces (1.5×).
 */
const DIE_PER_PIPS = 1.45;

/**
 * Pieces that lie near another one of about their size are a face's pips: a die the colour of
 * the tray (black on a black tray, white on white) whose body the mask lost, each pip of which
 * would be read as a "1". The pieces are those too small to have their marks measured (kept as
 * dice until here), and the `marks`: pieces no die holds that are blank inside, under a quarter
 * of a die, or regions too small to be a die at all (not on a patterned cloth, whose own marks
 * they would mostly be). Each group (transitive, 2–6 pips spanning at most 5.5 pips) becomes one
 * die, a box 1.45 times their extent round their centre. A run where the pips of touching dice
 * run together is split into faces (`facesOf`), and those of 3 pips or more are kept (a side
 * face shows one or two). A die so inferred that overlaps a die seen whole is that die's (its
 * side face's pips), and is dropped. A lone small piece kept as a die stays one (a die of 20 px
 * or so); a lone mark is dropped.
 */
function pipGroupsToDice(dice: LocatedDie[], width: number, height: number, marks: readonly LocatedDie[] = []): LocatedDie[] {
  const pips = [...dice.filter((d) => d.marked === false), ...marks];
  if (pips.length < 2) return dice;
  const side = (b: Box) => Math.max(b[2] - b[0], b[3] - b[1]);
  const centre = (b: Box) => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] as const;
  const near = (d: LocatedDie, o: LocatedDie) => {
    if (o === d) return false;
    const a = side(d.box), b = side(o.box);
    if (Math.max(a, b) > 2 * Math.min(a, b)) return false;
    const [x, y] = centre(d.box), [u, v] = centre(o.box);
    return Math.hypot(x - u, y - v) <= PIP_REACH * Math.max(a, b);
  };
  const grouped = pips.filter((d) => pips.some((o) => near(d, o)));
  const out = dice.filter((d) => !grouped.includes(d));
  const left = [...grouped];
  const inferred: LocatedDie[] = [];
  while (left.length > 0) {
    const group = [left.pop()!];
    for (let k = 0; k < group.length; k++) {
      for (let j = left.length - 1; j >= 0; j--) if (near(group[k]!, left[j]!)) group.push(...left.splice(j, 1));
    }
    const pip = group.map((d) => side(d.box)).sort((a, b) => a - b)[group.length >> 1]!;
    // Four or more pieces in a line are a groove, a seam or a print's stripe: no face of four or
    // more pips is a line.
    if (group.length >= 4 && lineSpread(group) <= LINE_SPREAD * pip) continue;
    if (group.length <= 6 && extentOf(group) <= 5.5 * pip) {
      inferred.push(dieAroundPips(group, width, height));
      continue;
    }
    // The pips of touching dice run together: split them into faces, each as compact as a face's
    // pips are, and keep those with enough pips to be sure of.
    // (A run longer than ten dice' pips is a print or specks, and splitting it costs k³.)
    if (group.length > MAX_RUN_PIPS) continue;
    for (const face of facesOf(group, FACE_SPAN * pip)) if (face.length >= MIN_SPLIT_PIPS) inferred.push(dieAroundPips(face, width, height));
  }
  // A die inferred from pips that overlaps a die seen whole is that die (its side face's pips, or
  // its neighbour's), not another one.
  const overlaps = (b: Box, o: Box) => intersection(b, o) >= PIPS_OVERLAP * Math.min(boxArea(b), boxArea(o));
  return [...out, ...inferred.filter((d) => !out.some((o) => overlaps(d.box, o.box)))];
}

/** How far a group's centres spread across their main line (the smaller principal spread, as a standard deviation). */
function lineSpread(group: readonly LocatedDie[]): number {
  const xs = group.map((d) => (d.box[0] + d.box[2]) / 2), ys = group.map((d) => (d.box[1] + d.box[3]) / 2);
  const n = group.length, mx = xs.reduce((a, b) => a + b, 0) / n, my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0, syy = 0, sxy = 0;
  for (let i = 0; i < n; i++) (sxx += (xs[i]! - mx) ** 2), (syy += (ys[i]! - my) ** 2), (sxy += (xs[i]! - mx) * (ys[i]! - my));
  sxx /= n; syy /= n; sxy /= n;
  const minor = (sxx + syy) / 2 - Math.sqrt(((sxx - syy) / 2) ** 2 + sxy ** 2);
  return Math.sqrt(Math.max(0, minor));
}

/** Most spread across their line (in pips) of four or more pieces taken for a line, not pips. */
const LINE_SPREAD = 0.25;

/** Most extent of one face's pips, in pips, when a run of pips is split into faces. */
const FACE_SPAN = 4.5;
/** Most pips of a run that is split into faces. */
const MAX_RUN_PIPS = 60;
/** Least pips of a face split from a run. */
const MIN_SPLIT_PIPS = 3;

/** The box round a group's boxes. */
function boundsOf(group: readonly LocatedDie[]): Box {
  return [Math.min(...group.map((d) => d.box[0])), Math.min(...group.map((d) => d.box[1])), Math.max(...group.map((d) => d.box[2])), Math.max(...group.map((d) => d.box[3]))];
}

function extentOf(group: readonly LocatedDie[]): number {
  const [x0, y0, x1, y1] = boundsOf(group);
  return Math.max(x1 - x0, y1 - y0);
}

/** A die's box round its face's pips; a modest score, since its outline was never seen. */
function dieAroundPips(group: readonly LocatedDie[], width: number, height: number): LocatedDie {
  const [x0, y0, x1, y1] = boundsOf(group);
  const half = (DIE_PER_PIPS * Math.max(x1 - x0, y1 - y0)) / 2, cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  return { box: [Math.max(0, cx - half), Math.max(0, cy - half), Math.min(width, cx + half), Math.min(height, cy + half)], score: PIPS_SCORE, marked: true, fromPips: true };
}

/** A die inferred from pips that covers this share of a seen die's box (or of its own) is that die's. */
const PIPS_OVERLAP = 0.3;

/** Most area, in the frame's dice, of a region taken whole as one drawn-out die. */
const ONE_DIE_AREA = 1.4;
/** Most aspect of such a region (a die's own limit is `MAX_ASPECT`). */
const MAX_ONE_DIE_ASPECT = 2;

/** A region's own pixels as part 1 of its window, and their shape. */
interface WholeRegion {
  parts: Int32Array;
  shape: RegionShape;
}

function wholeRegion(labels: Int32Array, width: number, r: Region): WholeRegion {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const parts = Int32Array.from(regionWindow(labels, width, r));
  return { parts, shape: regionShape(parts, w, 1, { x0: 0, y0: 0, x1: w, y1: h }) };
}

/** A region taken whole as one die drawn out by its shadow or a side face, if it is compact enough. */
function asOneDie({ parts: whole, shape }: WholeRegion, r: Region, limits: Limits): Piece | null {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const aspect = shape.long / Math.max(1e-9, shape.short);
  if (shape.short < limits.minSide * 0.8 || shape.long > limits.maxSide || aspect > MAX_ONE_DIE_ASPECT) return null;
  if (r.area < MIN_FILL * shape.rectArea || r.area < MIN_SOLIDITY * shape.hullArea) return null;
  return { ox: r.x0, oy: r.y0, w, h, parts: whole, id: 1, shapeScore: ONE_DIE_SCORE, x0: 0, y0: 0, x1: w, y1: h, area: r.area };
}

/**
 * A die whose top matches the tray (a white die on a light tray, seen from one side) keeps only
 * its shaded side faces in the mask: an L or a V round the top. The region's convex hull, filled,
 * is then the die, if that hull is die-shaped and no bigger than one of the frame's dice (a frame
 * whose dice give no size gets no hulls: the shading of a round corner made pip-sized ones). The
 * caller also asks for a face's marks inside it: the top's pips.
 */
function hullDie({ shape }: WholeRegion, r: Region, limits: Limits, dieArea: number): Piece | null {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const solidity = r.area / Math.max(1e-9, shape.hullArea);
  if (solidity >= MIN_SOLIDITY || solidity < MIN_HULL_SOLIDITY) return null;
  if (shape.hullArea > ONE_DIE_AREA * dieArea) return null;
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

/**
 * Least mean evidence (tray-texture units) of the body round a die's pips: white dice on a light
 * tray measured 0.87–2.45 on eval:dice's trays, chance groups of dark specks on a plain table
 * 0.15–0.55 (one 0.88, one 1.71, of 24).
 */
const MIN_PIPS_BODY = 0.8;

/**
 * Mean evidence over a box's coarse pixels outside the mask (the body round the marks the mask
 * holds), the box's outer sixth left out (the tray round a die turned 45°).
 */
function bodyEvidence(box: Box, evidence: Float32Array, mask: Uint8Array, cw: number, ch: number, toImage: number): number {
  const [bx0, by0, bx1, by1] = box.map((v) => v / toImage) as [number, number, number, number];
  const mx = (bx1 - bx0) / 6, my = (by1 - by0) / 6;
  const x0 = Math.max(0, Math.round(bx0 + mx)), x1 = Math.min(cw, Math.round(bx1 - mx));
  const y0 = Math.max(0, Math.round(by0 + my)), y1 = Math.min(ch, Math.round(by1 - my));
  let sum = 0, n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (!mask[y * cw + x]) (sum += evidence[y * cw + x]!), n++;
  return n > 0 ? sum / n : 0;
}

/** The score of a die found from its pips. */
const PIPS_SCORE = 0.5;

/**
 * A die scored this or less had its box guessed rather than its outline seen: a face's pips
 * (`PIPS_SCORE`), a drawn-out region or its shaded sides' hull (shape score `ONE_DIE_SCORE`, so
 * 0.21–0.51 with the contrast), or a region barely die-shaped. The reader marks such a die for a
 * check.
 */
export const GUESSED_BOX_SCORE = PIPS_SCORE;

/**
 * A run of pips split into faces: the two nearest clusters (centre to centre) merge while the
 * merged cluster spans at most `span` and holds at most 6 pips (deterministic: ties by order).
 */
function facesOf(pips: readonly LocatedDie[], span: number): LocatedDie[][] {
  const clusters = pips.map((p) => [p]);
  const centre = (c: readonly LocatedDie[]) => [c.reduce((t, d) => t + d.box[0] + d.box[2], 0) / (2 * c.length), c.reduce((t, d) => t + d.box[1] + d.box[3], 0) / (2 * c.length)] as const;
  for (;;) {
    let best: [number, number] | null = null, bestD = Infinity;
    for (let i = 0; i < clusters.length; i++) {
      const [x, y] = centre(clusters[i]!);
      for (let j = i + 1; j < clusters.length; j++) {
        if (clusters[i]!.length + clusters[j]!.length > 6) continue;
        const [u, v] = centre(clusters[j]!);
        const d = Math.hypot(x - u, y - v);
        if (d < bestD && extentOf([...clusters[i]!, ...clusters[j]!]) <= span) (bestD = d), (best = [i, j]);
      }
    }
    if (!best) return clusters;
    clusters[best[0]]!.push(...clusters[best[1]]!);
    clusters.splice(best[1], 1);
  }
}

/** A box with at least this share of its area inside a die's box four times its size is a mark of that die. */
const NESTED_SHARE = 0.7;

/**
 * Drops the boxes that lie mostly inside a die's box at least four times their size, centred in
 * its middle 70 %: marks of one die that the mask cut out of it (ochre pips on a red die on an
 * ochre-striped cloth are holes of cloth colour). A small die beside a big one turned 45° sits in
 * an empty corner of the big one's box, not in its middle, and is kept.
 */
function withoutNested(dice: LocatedDie[]): LocatedDie[] {
  return dice.filter(({ box, fromPips }) => {
    const own = boxArea(box);
    const cx = (box[0] + box[2]) / 2, cy = (box[1] + box[3]) / 2;
    // A die inferred from pips never hides a die whose outline was seen.
    return !dice.some(({ box: k, fromPips: inferred }) => {
      if ((inferred && !fromPips) || boxArea(k) < 4 * own) return false;
      const mx = 0.15 * (k[2] - k[0]), my = 0.15 * (k[3] - k[1]);
      if (cx < k[0] + mx || cx > k[2] - mx || cy < k[1] + my || cy > k[3] - my) return false;
      return intersection(box, k) >= NESTED_SHARE * own;
    });
  });
}

/** More regions than this left by a cloth's palette, and the palette is not trusted (25 dice at most are read). */
const MAX_UNEXPLAINED = 60;
/** A region this many times one die's area is cut by count as well (`splitByCount`). */
const CLUMP_AREA = 1.6;
/** Least size (in the frame's dice) of a clump cut into one die more than its count, and how well that cut must explain it. */
const ONE_MORE_AREA = 1.2;
const ONE_MORE_GOODNESS = 0.6;
/** A piece under this share of one die's area is not a die (`segmentDice`). */
const MIN_DIE_SHARE = 0.25;
/** At most this many dice are counted into one clump. */
const MAX_CLUMP = 8;

/**
 * One die's area in the frame, in coarse pixels: the lower median area of the regions that are
 * one well-shaped die by themselves (shape score ≥ 0.5, a face's marks measured inside), or null
 * when there are fewer than `least`. Dice at one table are one size; perspective changes that by less than the
 * rounding in `round(area / dieArea)` does, for the views clew expects. One such die is enough
 * on a plain tray; on a patterned cloth, where a patch of the cloth can pass for a die, two are
 * asked for (one alone there gave 28 extra boxes on the development scenes).
 */
function dieAreaOf(regions: readonly Region[], explained: readonly Explanation[], marked: (piece: Piece) => boolean, least = 2): number | null {
  const areas: number[] = [];
  regions.forEach((r, k) => {
    const ps = explained[k]!.pieces;
    if (ps.length === 1 && ps[0]!.area === r.area && ps[0]!.shapeScore >= 0.5 && marked(ps[0]!)) areas.push(r.area);
  });
  if (areas.length < least) return null;
  areas.sort((a, b) => a - b);
  // The lower median: clumps that pass for one die (a 2×2 square) must not set the size.
  return areas[Math.floor((areas.length - 1) / 2)]!;
}

/** The learned path: the detector's boxes, scaled to the input, filtered by size. */
function detectWith(detector: DieDetector, fine: RgbImage, fineScale: number, image: RgbImage, options: LocateOptions): LocatedDie[] {
  const minSize = options.minSize ?? 14;
  const maxSize = options.maxSize ?? Math.max(300, 0.6 * Math.min(image.width, image.height));
  return detector
    .detect(fine, options.detectorThreshold)
    .map((d) => ({
      box: [d.box[0] * fineScale, d.box[1] * fineScale, Math.min(image.width, d.box[2] * fineScale), Math.min(image.height, d.box[3] * fineScale)] as Box,
      score: d.score,
    }))
    .filter((d) => {
      const side = Math.max(d.box[2] - d.box[0], d.box[3] - d.box[1]);
      return side >= minSize * 0.7 && side <= maxSize * 1.5;
    });
}
