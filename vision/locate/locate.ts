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
import { cropRect } from '../image/image.js';
import type { Box, RgbImage } from '../types.js';
import type { DieDetector } from './detector/index.js';
import { estimateBackground, type Background } from './background.js';
import { labelRegions, type Region } from './components.js';
import { edgeEvidence, trayEvidence } from './evidence.js';
import { toLabPlanes, type LabPlanes } from './lab.js';
import { dilate3, erode3, fillHoles, hysteresis, open3, union, type Mask } from './mask.js';
import { buildPyramid, type Pyramid } from './pyramid.js';
import { regionShape, type RegionShape } from './shape.js';
import { splitByDistance } from './split.js';

export interface LocatedDie {
  /** Pixel-edge box [x0, y0, x1, y1] in the input image's coordinates. */
  box: Box;
  /** 0..1: how die-like the region is (shape and contrast with the tray). */
  score: number;
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
  /** Edge strength (in units of the tray's own edges) that starts / extends an outline (defaults 8 / 4). */
  edgeSeed?: number;
  edgeGrow?: number;
  /** Share of a die's inside that must show edges (its face's marks); 0 turns the check off (default 0.01). */
  minDetail?: number;
  /** Also try splitting touching dice along the strong edges between them (default true). */
  edgeSplit?: boolean;
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
}

function measurePart(parts: Int32Array, w: number, id: number, limits: Limits): number {
  let area = 0, x0 = w, y0 = Infinity, x1 = 0, y1 = 0;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] !== id) continue;
    area++;
    const x = i % w, y = (i - x) / w;
    if (x < x0) x0 = x;
    if (x + 1 > x1) x1 = x + 1;
    if (y < y0) y0 = y;
    if (y + 1 > y1) y1 = y + 1;
  }
  if (area === 0) return 0;
  return dieShapeScore(regionShape(parts, w, id, { x0, y0, x1, y1 }), area, limits);
}

/**
 * Touching dice split along the edges between them: cut the region's strong internal edges (a
 * seam of shade or a change of colour), refill what the cuts enclose (pips, glyphs), keep the
 * cores big enough to be a die, and grow them back over the whole region, nearest core first.
 */
function splitByEdges(inside: Uint8Array, w: number, h: number, edges: Float32Array, minCore: number): { parts: Int32Array; count: number } {
  const core = new Uint8Array(w * h);
  for (let i = 0; i < core.length; i++) core[i] = inside[i]! && edges[i]! < EDGE_CUT ? 1 : 0;
  const filled = erode3(fillHoles({ width: w, height: h, data: core }, minCore));
  const { labels, regions } = labelRegions(filled);
  const keep = new Int32Array(regions.length + 1);
  let count = 0;
  for (const r of regions) if (r.area >= minCore) keep[r.label] = ++count;
  const parts = new Int32Array(w * h);
  if (count < 2) return { parts, count };
  // Grow the cores back over the region, breadth first (each pixel joins the nearest core).
  let frontier: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const k = keep[labels[i]!]!;
    if (k) (parts[i] = k), frontier.push(i);
  }
  while (frontier.length) {
    const next: number[] = [];
    for (const p of frontier) {
      const x = p % w;
      for (const q of [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w]) {
        if (q < 0 || q >= parts.length || parts[q] || !inside[q]) continue;
        parts[q] = parts[p]!;
        next.push(q);
      }
    }
    frontier = next;
  }
  return { parts, count };
}

/**
 * How much of a piece's inside (two coarse pixels in from its outline) shows edges: a die's face
 * carries pips, numerals or icons; a dot of a polka-dot cloth or a plain counter carries none.
 * Null when the piece is too small to have an inside worth measuring.
 */
function interiorDetail(piece: Piece, edges: Float32Array, coarseW: number): number | null {
  const { w, h, parts, id, ox, oy } = piece;
  let m: Mask = { width: w, height: h, data: Uint8Array.from(parts, (v) => (v === id ? 1 : 0)) };
  m = erode3(erode3(m));
  let n = 0, busy = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!m.data[y * w + x]) continue;
      n++;
      if (edges[(y + oy) * coarseW + x + ox]! >= DETAIL_EDGE) busy++;
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
 * The dice in one region: the region itself, its distance-transform hills, its cores between
 * strong edges, or equal cuts along its length; whichever explains most of the region with
 * die-shaped pieces.
 */
function piecesOf(labels: Int32Array, width: number, r: Region, limits: Limits, edges: Float32Array | null): Piece[] {
  const w = r.x1 - r.x0, h = r.y1 - r.y0;
  const inside = new Uint8Array(w * h);
  const edgeWindow = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const src = (y + r.y0) * width + x + r.x0;
      inside[y * w + x] = labels[src] === r.label ? 1 : 0;
      edgeWindow[y * w + x] = edges ? edges[src]! : 0;
    }
  }
  const whole = Int32Array.from(inside);
  const base = { ox: r.x0, oy: r.y0, w, h };
  const wholeScore = measurePart(whole, w, 1, limits);

  let best: { pieces: Piece[]; goodness: number } = {
    pieces: wholeScore > 0 ? [{ ...base, parts: whole, id: 1, shapeScore: wholeScore }] : [],
    goodness: wholeScore,
  };
  const fallback: Piece[][] = [];
  const splits = [
    splitByDistance(inside, w, h, { minPeak: limits.minSide * 0.35 }),
    edges ? splitByEdges(inside, w, h, edgeWindow, Math.max(4, 0.3 * limits.minSide * limits.minSide)) : { parts: whole, count: 0 },
  ];
  for (const { parts, count } of splits) {
    if (count < 2) continue;
    const good: Piece[] = [];
    let goodArea = 0, weighted = 0;
    for (let id = 1; id <= count; id++) {
      const score = measurePart(parts, w, id, limits);
      if (score <= 0) continue;
      let area = 0;
      for (let i = 0; i < parts.length; i++) if (parts[i] === id) area++;
      good.push({ ...base, parts, id, shapeScore: score });
      goodArea += area;
      weighted += score * area;
    }
    if (good.length >= 2 && goodArea >= 0.7 * r.area) {
      const goodness = weighted / r.area;
      if (goodness > best.goodness) best = { pieces: good, goodness };
    } else if (good.length > 0) fallback.push(good);
  }
  if (best.pieces.length > 0) return best.pieces;
  if (fallback.length > 0) return fallback.sort((p, q) => q.length - p.length)[0]!;
  return splitAlongAxis(labels, width, r, limits);
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
  const out: Piece[] = [];
  for (let id = 1; id <= k; id++) {
    const s = measurePart(parts, w, id, limits);
    if (s > 0) out.push({ ox: r.x0, oy: r.y0, w, h, parts, id, shapeScore: s });
  }
  return out.length === k ? out : [];
}

/**
 * The piece's box at full working size: the extent of the fine pixels that differ from the tray,
 * within the piece grown by one coarse pixel (never into a neighbouring piece or region).
 */
function refineBox(piece: Piece, labels: Int32Array, coarseW: number, coarseH: number, fine: RgbImage, step: number, bg: Background, grow: number): { box: Box; contrast: number } {
  const { ox, oy, w, h, parts, id } = piece;
  // Coarse pixels the piece may claim: its own, and unclaimed ones next to it.
  const cw = w + 2, ch = h + 2;
  const allowed = new Uint8Array(cw * ch);
  for (let ly = -1; ly <= h; ly++) {
    for (let lx = -1; lx <= w; lx++) {
      const cx = lx + ox, cy = ly + oy;
      if (cx < 0 || cy < 0 || cx >= coarseW || cy >= coarseH) continue;
      const own = lx >= 0 && ly >= 0 && lx < w && ly < h && parts[ly * w + lx] === id;
      let ok = own;
      if (!own && labels[cy * coarseW + cx] === 0) {
        for (let dy = -1; dy <= 1 && !ok; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const ax = lx + dx, ay = ly + dy;
            if (ax >= 0 && ay >= 0 && ax < w && ay < h && parts[ay * w + ax] === id) {
              ok = true;
              break;
            }
          }
        }
      }
      allowed[(ly + 1) * cw + lx + 1] = ok ? 1 : 0;
    }
  }
  const fx0 = Math.max(0, (ox - 1) * step), fy0 = Math.max(0, (oy - 1) * step);
  const fx1 = Math.min(fine.width, (ox + w + 1) * step), fy1 = Math.min(fine.height, (oy + h + 1) * step);
  const fw = fx1 - fx0, fh = fy1 - fy0;
  const window = cropRect(fine, fx0, fy0, fx1, fy1);
  const ev = trayEvidence(toLabPlanes(window), bg, { originX: fx0, originY: fy0, scale: step });
  const rowCount = new Int32Array(fh), colCount = new Int32Array(fw);
  let evSum = 0, evN = 0;
  for (let y = 0; y < fh; y++) {
    const ay = Math.floor((y + fy0) / step) - oy + 1;
    for (let x = 0; x < fw; x++) {
      const ax = Math.floor((x + fx0) / step) - ox + 1;
      if (ax < 0 || ay < 0 || ax >= cw || ay >= ch || !allowed[ay * cw + ax]) continue;
      const v = ev[y * fw + x]!;
      evSum += v;
      evN++;
      if (v >= grow) {
        rowCount[y]!++;
        colCount[x]!++;
      }
    }
  }
  // Ignore lone specks on the outline: a row or column must hold two contrasting pixels.
  const first = (c: Int32Array) => c.findIndex((v) => v >= 2);
  const last = (c: Int32Array) => {
    for (let i = c.length - 1; i >= 0; i--) if (c[i]! >= 2) return i;
    return -1;
  };
  const x0 = first(colCount), x1 = last(colCount), y0 = first(rowCount), y1 = last(rowCount);
  const contrast = evN ? evSum / evN : 0;
  // The piece's own extent in the coarse mask (its window may hold other pieces too).
  let px0 = w, py0 = h, px1 = 0, py1 = 0;
  for (let ly = 0; ly < h; ly++) {
    for (let lx = 0; lx < w; lx++) {
      if (parts[ly * w + lx] !== id) continue;
      if (lx < px0) px0 = lx;
      if (lx + 1 > px1) px1 = lx + 1;
      if (ly < py0) py0 = ly;
      if (ly + 1 > py1) py1 = ly + 1;
    }
  }
  const coarseBox: Box = [(ox + px0) * step, (oy + py0) * step, (ox + px1) * step, (oy + py1) * step];
  if (x0 < 0 || y0 < 0) return { box: coarseBox, contrast };
  // Where the body barely differs from the tray (a white die's lit side), the fine edge can fall
  // well inside the die: never move a side more than a coarse pixel and a half from the mask's.
  const lim = 1.5 * step;
  const clampTo = (v: number, ref: number) => Math.min(ref + lim, Math.max(ref - lim, v));
  return {
    box: [clampTo(fx0 + x0, coarseBox[0]), clampTo(fy0 + y0, coarseBox[1]), clampTo(fx0 + x1 + 1, coarseBox[2]), clampTo(fy0 + y1 + 1, coarseBox[3])],
    contrast,
  };
}

/**
 * What closed outlines enclose, outline included: a die whose body matches the tray (white on a
 * light tray) still has an outline. Open lines (wood grain, scratches) enclose nothing and add
 * nothing, so edges never glue a die to the texture around it. Gaps of a pixel are bridged.
 */
function enclosedBy(edges: Mask): Mask {
  const closed = dilate3(edges);
  const filled = fillHoles(closed, (edges.width * edges.height) / 8);
  const inner = new Uint8Array(filled.data.length);
  for (let i = 0; i < inner.length; i++) inner[i] = filled.data[i]! & (closed.data[i]! ^ 1);
  return dilate3(dilate3({ width: edges.width, height: edges.height, data: inner }));
}

/** The stages of the coarse die mask (exported for tests and for looking at). */
export interface DiceMasks {
  colour: Mask;
  edges: Mask;
  /** Edge strength per pixel, in units of the tray's own edges. */
  edgeStrength: Float32Array;
  enclosed: Mask;
  /** The final mask: colour ∪ enclosed, holes filled, opened. */
  mask: Mask;
}

export function diceMask(lab: LabPlanes, bg: Background, options: LocateOptions = {}): DiceMasks {
  const { width, height } = lab;
  const colour = hysteresis(trayEvidence(lab, bg), width, height, options.growContrast ?? 3.5, options.seedContrast ?? 7);
  const edgeStrength = edgeEvidence(lab, bg);
  const edges = hysteresis(edgeStrength, width, height, options.edgeGrow ?? 4, options.edgeSeed ?? 8);
  const enclosed = enclosedBy(edges);
  const mask = open3(fillHoles(union(colour, enclosed), (width * height) / 8));
  return { colour, edges, edgeStrength, enclosed, mask };
}

export function locateDice(image: RgbImage, options: LocateOptions = {}): LocatedDie[] {
  checkImage(image);
  if (image.width < 16 || image.height < 16) return [];
  const pyr = buildPyramid(image, options.maxSide ?? 640);
  if (options.detector && options.detectorOnly) return detectWith(options.detector, pyr.fine, pyr.fineScale, image, options);
  const classical = segmentDice(pyr, image, options);
  if (!options.detector) return classical;
  // Rescue: confident detector boxes that overlap no classical die (IoU < 0.3).
  const rescue = options.rescueScore ?? 0.5;
  const extra = detectWith(options.detector, pyr.fine, pyr.fineScale, image, options).filter(
    (d) => d.score >= rescue && classical.every((c) => overlap(c.box, d.box) < 0.3),
  );
  return [...classical, ...extra].sort((p, q) => q.score - p.score);
}

function overlap(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}

/** The classical path: segment the coarse frame, split, filter by shape, measure at fine size. */
function segmentDice(pyr: Pyramid, image: RgbImage, options: LocateOptions): LocatedDie[] {
  const seed = options.seedContrast ?? 7;
  const grow = options.growContrast ?? 3.5;
  const { coarse, fine, step } = pyr;
  const lab = toLabPlanes(coarse);
  const bg = estimateBackground(lab);
  const { mask, edgeStrength } = diceMask(lab, bg, options);
  const { labels, regions } = labelRegions(mask);

  const toCoarse = 1 / (pyr.fineScale * step);
  const limits: Limits = {
    minSide: (options.minSize ?? 14) * toCoarse,
    maxSide: (options.maxSize ?? Math.max(300, 0.6 * Math.min(image.width, image.height))) * toCoarse,
  };
  const found: LocatedDie[] = [];
  for (const r of regions) {
    if (r.touchesBorder) continue; // a die cut by the frame's edge cannot be read
    const bw = r.x1 - r.x0, bh = r.y1 - r.y0;
    if (Math.max(bw, bh) < limits.minSide * 0.8 || r.area < 0.4 * limits.minSide * limits.minSide) continue;
    for (const piece of piecesOf(labels, coarse.width, r, limits, options.edgeSplit === false ? null : edgeStrength)) {
      const detail = interiorDetail(piece, edgeStrength, coarse.width);
      if (detail !== null && detail < (options.minDetail ?? MIN_DETAIL)) continue;
      const { box, contrast } = refineBox(piece, labels, coarse.width, coarse.height, fine, step, bg, grow);
      const s = pyr.fineScale;
      const contrastScore = Math.min(1, contrast / (2 * seed));
      found.push({
        box: [box[0] * s, box[1] * s, Math.min(image.width, box[2] * s), Math.min(image.height, box[3] * s)],
        score: 0.7 * piece.shapeScore + 0.3 * contrastScore,
      });
    }
  }
  return found.sort((p, q) => q.score - p.score);
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
