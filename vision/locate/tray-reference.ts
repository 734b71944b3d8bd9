/**
 * The empty tray, as the fixed camera over it sees it: a frame without dice that later frames
 * are compared with pixel by pixel. Every other tray model guesses what the tray looks like
 * under the dice (a smooth colour field, a cloth's palette) and so cannot tell a die from a
 * printed cloth's own blots, a plank's knot or a lamp's hot spot; a picture of the tray itself
 * can. This is the classic background subtraction of a fixed camera, made tolerant of what
 * changes between the empty frame and a roll:
 * - the exposure (the camera's auto exposure, daylight): one factor on L + 16, a and b (a uniform
 *   change of light scales them together), the median over the frame (dice cover little of it);
 *   then a shift of a and b, their median difference (the camera's white balance drifted);
 * - the camera nudged by a die hitting the tray, and the two frames' own noise: each pixel is
 *   compared with the nearest of the reference's 3×3 neighbours, and the differences are taken in
 *   units of their own robust spread over the frame (plus the smooth model's floors);
 * - a camera moved for good, or a tray changed: most of the frame then differs, or the tray's own
 *   strong edges are no longer where they were (`trayFit`), and the locator goes back to
 *   modelling the tray (locate.ts).
 */
import { buildPyramid } from './pyramid.js';
import { edgeStrength } from './evidence.js';
import { LabStretch, toLabPlanes, type LabPlanes } from './lab.js';
import type { RgbImage } from '../types.js';
import { applyStretch, trayStretch, type ExposureStretch } from './exposure.js';
import { f32, type FrameScratch } from './scratch.js';

export interface TrayReference {
  /** The input size the reference was taken at: only frames of this size are compared with it. */
  readonly width: number;
  readonly height: number;
  /** The working size it was taken for (`LocateOptions.maxSide`). */
  readonly maxSide: number;
  /** The empty tray at the locator's two scales. */
  readonly fine: LabPlanes;
  readonly coarse: LabPlanes;
  /** The coarse reference's edge strength, the largest in each 3×3 neighbourhood. */
  readonly coarseEdges: Float32Array;
  /** The empty tray's noise in edge strength (the unit of the edges it has not). */
  readonly edgeLevel: number;
  /**
   * The same empty tray at twice the working size, learnt when first asked for; only where the
   * picture is at least that large (`learnEmptyTray`). A frame whose dice are small at the
   * working size is looked at closer against it (locate.ts, `lookCloserIfTooSmall`).
   */
  readonly closer?: () => TrayReference;
  /** Coarse pixels of the tray's structure (its strong edges), for telling a moved camera (`trayFit`). */
  readonly structure: Uint32Array;
  /**
   * Dice the locator finds in the empty tray itself with the tray modelled (`learnEmptyTray`):
   * some on a busy printed cloth, whose blots it takes for dice. Unknown (undefined) where the
   * reference was learned by `learnTray` alone.
   */
  readonly modelledSees?: number;
  /**
   * The same empty tray stretched as a dim or flat frame is stretched before it is located
   * (exposure.ts), by that frame's stretch, learnt when first asked for (the last one is kept: the
   * frames of one roll mostly share it). Against an empty tray learnt as the camera gave it, such a
   * frame's differences fall under the comparison's fixed floors, as they fall under the modelled
   * tray's (docs/notes/vision-locate.md, "Dim frames against the empty tray"). Absent on a
   * reference that is itself stretched.
   */
  readonly stretched?: (stretch: ExposureStretch) => TrayReference;
}

/** How a frame compared with the empty tray it was given. */
export interface TrayFit {
  /** The reference was used (false: it was taken at another size, or the frame no longer fits it). */
  used: boolean;
  /** Share of the frame that differs from the reference (0 when it was taken at another size). */
  differing: number;
  /** Share of the tray's structure (its strong edges) the frame no longer shows there (0 for a plain tray, or another size). */
  misaligned: number;
  /** Why it was not used. */
  reason?: 'size' | 'misfit';
}

/** The smallest picture an empty tray is learnt from, each side in pixels. */
export const MIN_TRAY_SIDE = 16;

/**
 * The empty tray taken from one frame (at the locator's working size; default 640, as locateDice).
 * The picture is kept, not copied, for `stretched`: a caller must not change its pixels afterwards.
 */
export function learnTray(image: RgbImage, maxSide = 640): TrayReference {
  return withStretched(learnTrayAsIs(image, maxSide), image, (stretched) => learnTrayAsIs(stretched, maxSide));
}

/**
 * `tray`, learnt from `image`, with `stretched`: `learn` makes the same reference from the
 * picture stretched (the last stretch asked for is kept, by the range it was measured on).
 */
export function withStretched(tray: TrayReference, image: RgbImage, learn: (stretched: RgbImage) => TrayReference): TrayReference {
  let last: { key: string; tray: TrayReference } | undefined;
  const stretched = (stretch: ExposureStretch): TrayReference => {
    const key = `${stretch.low}:${stretch.high}:${stretch.gain}:${stretch.offset}`;
    if (last?.key !== key) {
      const { stretched: _stretched, ...learnt } = learn(applyStretch(image, stretch));
      last = { key, tray: learnt };
    }
    return last.tray;
  };
  return { ...tray, stretched };
}

/** `learnTray` without `stretched` (for learners that add their own: empty-tray.ts). */
export function learnTrayAsIs(image: RgbImage, maxSide = 640): TrayReference {
  if (!image || !(image.data instanceof Uint8Array) || image.data.length !== image.width * image.height * 3) {
    throw new TypeError('learnTray: expected an RGB image (width × height × 3 bytes)');
  }
  if (image.width < MIN_TRAY_SIDE || image.height < MIN_TRAY_SIDE) throw new RangeError(`learnTray: the picture is too small (${image.width}×${image.height})`);
  const pyr = buildPyramid(image, maxSide);
  const coarse = toLabPlanes(pyr.coarse);
  const raw = edgeStrength(coarse);
  // The unit of edges is the tray's noise, not its pattern (which the reference takes off):
  // the lower quartile of its edge strength, where even a busy cloth is flat, scaled to what a
  // plain tray's median would be (the smooth model's unit).
  const edgeLevel = EDGE_QUARTILE_TO_MEDIAN * quantile(raw, 0.25);
  const strong = STRUCTURE_EDGE * (edgeLevel + EDGE_FLOOR);
  const structure: number[] = [];
  for (let i = 0; i < raw.length; i++) if (raw[i]! > strong) structure.push(i);
  return { width: image.width, height: image.height, maxSide, fine: toLabPlanes(pyr.fine), coarse, coarseEdges: maxOf3x3(raw, coarse.width, coarse.height), edgeLevel, structure: Uint32Array.from(structure) };
}

/** Whether a frame can be compared with the reference at all (same size, same working size). */
export function sameView(tray: TrayReference, image: Pick<RgbImage, 'width' | 'height'>, maxSide: number): boolean {
  return tray.width === image.width && tray.height === image.height && tray.maxSide === maxSide;
}

/** How a frame's light differs from the reference's, and the units of the differences left. */
export interface TrayMatch {
  /** Factor on the reference's L + 16, a and b. */
  gain: number;
  /** Then added to its a and b (the camera's white balance drifted). */
  shiftA: number;
  shiftB: number;
  /** Units of lightness and of chroma differences (robust spread + floor). */
  unitL: number;
  unitC: number;
}

/** Floors added to the measured spreads (the smooth tray model's: sensor noise, JPEG). */
const FLOOR_L = 2.5;
const FLOOR_C = 2;
/**
 * Share of the differences' measured spread added to the floors. The spread is the two frames'
 * noise together; the floors already allow for one frame's, as the modelled tray does, and more
 * weight lost faint dice (development scenes, 1,497 dice: weight 1 / 0.5 / 0.3 / 0 found
 * 1,214 / 1,229 / 1,228 / 1,221 with 214 / 176 / 167 / 171 boxes on no die).
 */
const SPREAD_WEIGHT = 0.3;
/** The most spread (Lab units) taken as the frames' noise: a camera's noise at its worst, not a misfit. */
const MAX_SPREAD = 8;
/** Chroma units of a white-balance shift worth correcting (half the chroma floor). */
const MIN_SHIFT = 1;
/** Every SAMPLE-th coarse pixel (about 7,900 of a 320 px frame) measures the light and the spreads. */
const SAMPLE = 13;

/** The frame's light against the reference's, and the spread of the differences. */
export function matchTray(tray: TrayReference, lab: LabPlanes): TrayMatch {
  const r = tray.coarse;
  const n = Math.min(r.L.length, lab.L.length);
  const m = Math.ceil(n / SAMPLE);
  const ratios = new Float32Array(m);
  for (let i = 0, j = 0; i < n; i += SAMPLE, j++) ratios[j] = (lab.L[i]! + 16) / (r.L[i]! + 16);
  const gain = middle(ratios);
  const sa = new Float32Array(m), sb = new Float32Array(m);
  for (let i = 0, j = 0; i < n; i += SAMPLE, j++) {
    sa[j] = lab.a[i]! - gain * r.a[i]!;
    sb[j] = lab.b[i]! - gain * r.b[i]!;
  }
  // A shift under MIN_SHIFT is the dice's own colour pulling the median, not a cast: left out.
  const cast = (v: number) => (Math.abs(v) > MIN_SHIFT ? v : 0);
  const shiftA = cast(middle(sa)), shiftB = cast(middle(sb));
  const dL = new Float32Array(m), dC = new Float32Array(m);
  for (let i = 0, j = 0; i < n; i += SAMPLE, j++) {
    const da = lab.a[i]! - gain * r.a[i]! - shiftA, db = lab.b[i]! - gain * r.b[i]! - shiftB;
    dL[j] = Math.abs(lab.L[i]! + 16 - gain * (r.L[i]! + 16));
    dC[j] = Math.sqrt(da * da + db * db);
  }
  // 1.4826 × the median absolute difference is σ for Gaussian noise (1.2 for chroma's 2-D
  // length); SPREAD_WEIGHT of it on top of the floors. Capped: a frame that differs from the
  // reference all over (the camera moved) must not widen the unit until nothing differs.
  const spread = (sigma: number) => SPREAD_WEIGHT * Math.min(sigma, MAX_SPREAD);
  return { gain, shiftA, shiftB, unitL: spread(1.4826 * middle(dL)) + FLOOR_L, unitC: spread(1.2 * middle(dC)) + FLOOR_C };
}

/**
 * Per coarse pixel, how far the frame is from the empty tray, in units of the differences'
 * spread: the nearest of the reference's 3×3 neighbours (a nudged camera, a soft edge).
 */
export function referenceEvidence(lab: LabPlanes, tray: TrayReference, m: TrayMatch, scratch?: FrameScratch): Float32Array {
  const { width: w, height: h, L, a, b } = lab;
  const out = f32(w * h, scratch);
  const near = new NearestInReference(tray.coarse, m);
  for (let y = 0, i = 0; y < h; y++) for (let x = 0; x < w; x++, i++) out[i] = Math.sqrt(near.distance2(L[i]!, a[i]!, b[i]!, x, y));
  return out;
}

/** The distance of a colour from a reference pixel, light matched, or from its nearest 3×3 neighbour where it differs. */
class NearestInReference {
  private readonly g: number;
  private readonly sa: number;
  private readonly sb: number;
  private readonly kL: number;
  private readonly kC: number;

  constructor(private readonly ref: LabPlanes, m: TrayMatch) {
    this.g = m.gain;
    this.sa = m.shiftA;
    this.sb = m.shiftB;
    this.kL = 1 / m.unitL;
    this.kC = 1 / m.unitC;
  }

  /** Squared, in units of the differences' spread, of (L, a, b) seen at reference pixel (x, y). */
  distance2(L: number, a: number, b: number, x: number, y: number): number {
    const { width: w, height: h } = this.ref;
    let best = this.at(L, a, b, y * w + x);
    // Only a pixel that differs looks at the neighbours (most of the frame is the tray): the
    // nearest can only lower its evidence, and under NEAR_ENOUGH no decision depends on it.
    for (let dy = -1; dy <= 1 && best > NEAR_ENOUGH2; dy++) {
      const yy = y + dy;
      if (yy < 0 || yy >= h) continue;
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx;
        if ((dx === 0 && dy === 0) || xx < 0 || xx >= w) continue;
        const d = this.at(L, a, b, yy * w + xx);
        if (d < best) best = d;
      }
    }
    return best;
  }

  private at(L: number, a: number, b: number, j: number): number {
    const { L: rL, a: ra, b: rb } = this.ref;
    const dL = (L + 16 - this.g * (rL[j]! + 16)) * this.kL, da = (a - this.g * ra[j]! - this.sa) * this.kC, db = (b - this.g * rb[j]! - this.sb) * this.kC;
    return dL * dL + da * da + db * db;
  }
}

/**
 * Edges the empty tray does not have, in units of its edge noise: the frame's edge strength less
 * the reference's strongest nearby (a cloth's stripes and a plank's grain cancel; a die's outline
 * and pips stay). Only where the frame still shows the tray: where it differs (`evidence` at the
 * grow level or more) a die covers the tray's edges, and its own marks count in full.
 */
export function referenceEdges(lab: LabPlanes, tray: TrayReference, evidence?: Float32Array, floor = EDGE_FLOOR, scratch?: FrameScratch): Float32Array {
  const edges = edgeStrength(lab, scratch);
  const ref = tray.coarseEdges;
  const k = 1 / (tray.edgeLevel + floor);
  // Covered: the least evidence round the pixel (a die's body, not a thin line where the
  // tray's own print differs a little from a nudged camera's).
  const covered = evidence ? minOf3x3(evidence, lab.width, lab.height, scratch) : null;
  for (let i = 0; i < edges.length; i++) {
    const shown = covered ? Math.max(0, 1 - covered[i]! / COVERED) : 1;
    edges[i] = Math.max(0, edges[i]! - shown * ref[i]!) * k;
  }
  return edges;
}

/**
 * Evidence (the least round a pixel) at which the tray's edges there count as covered: from 0
 * (the tray's edges taken off in full) up to this (not at all). A die's body differs by this much;
 * a thin line where a nudged camera's print differs a little does not. On the real frames at half
 * the light a red die's faint pips lost the face-marks check to the grain under the die: without
 * this 10 of 14 found, with it 13 (up to 3.5: 14, but rendered cloths gained 10 boxes on no die;
 * 5: 14). Development scenes (found, boxes on no die): without 1,235, 154; 3.5: 1,231, 168; 5:
 * 1,234, 165; 7: 1,242, 148. Held-out seeds: 1,218, 139 / 1,205, 159 / 1,209, 151 / 1,214, 143.
 */
const COVERED = 7;

/** Squared evidence under which a pixel is not compared with the reference's neighbours (half the grow level). */
const NEAR_ENOUGH2 = 1.75 * 1.75;

/**
 * How a frame fits the reference: the share of the frame that differs from it, and the share of
 * the tray's own structure (its strong edges: a cloth's print, a plank's grain, the tray's rim)
 * that the frame no longer shows where the reference has it. Dice hide some of the structure, in
 * compact patches; a camera that moved puts all of it somewhere else; a changed light or tray
 * makes the whole frame differ.
 */
export function trayFit(lab: LabPlanes, evidence: Float32Array, tray: TrayReference, level: number, scratch?: FrameScratch): { differing: number; misaligned: number } {
  let n = 0;
  for (let i = 0; i < evidence.length; i++) if (evidence[i]! > level) n++;
  const s = tray.structure;
  if (s.length < MIN_STRUCTURE * evidence.length) return { differing: n / evidence.length, misaligned: 0 };
  // The frame's edges, the strongest within a pixel (the camera nudged by a die), against half
  // the reference's own at each structure pixel.
  const frame = maxOf3x3(edgeStrength(lab, scratch), lab.width, lab.height, scratch);
  const strong = STRUCTURE_EDGE * (tray.edgeLevel + EDGE_FLOOR);
  let lost = 0;
  for (let k = 0; k < s.length; k++) if (frame[s[k]!]! < 0.5 * strong) lost++;
  return { differing: n / evidence.length, misaligned: lost / s.length };
}

/** A reference fits while at most these shares of the frame and of the tray's structure differ. */
export const MAX_DIFFERING = 0.6;
export const MAX_MISALIGNED = 0.3;
/** Share of the frame the tray's structure must cover to be judged (a plain tray has none). */
const MIN_STRUCTURE = 0.02;
/** Edge strength (in the tray's edge units) of the tray's structure. */
const STRUCTURE_EDGE = 6;

/**
 * `referenceEvidence` of single stretches of the working frame (the box measurement's
 * counterpart of `FineEvidence`), with its `shade` for the soft-shadow trim: a shadow is the
 * reference itself darkened.
 */
export class FineReferenceEvidence {
  readonly image: RgbImage;
  /** The shadow trim's probe compares with the tray itself (shadow.ts). */
  readonly exact = true;
  private readonly lab = new LabStretch();
  private readonly near: NearestInReference;

  constructor(image: RgbImage, private readonly tray: TrayReference, private readonly m: TrayMatch) {
    this.image = image;
    this.near = new NearestInReference(tray.fine, m);
  }

  span(y: number, x0: number, x1: number, out: Float32Array, outAt: number): void {
    const n = x1 - x0;
    if (n <= 0) return;
    this.lab.read(this.image, y, x0, x1);
    const { L, a, b } = this.lab;
    for (let k = 0; k < n; k++) out[outAt + k] = Math.sqrt(this.near.distance2(L[k]!, a[k]!, b[k]!, x0 + k, y));
  }

  /** As `FineEvidence.shade`, against the reference pixel under this one (shadow.ts). */
  shade(y: number, x0: number, x1: number, dark: Float32Array, tint: Float32Array): void {
    const n = x1 - x0;
    if (n <= 0) return;
    this.lab.read(this.image, y, x0, x1);
    const { L, a, b } = this.lab;
    const ref = this.tray.fine, w = ref.width;
    const g = this.m.gain, sa = this.m.shiftA, sb = this.m.shiftB, kL = 1 / this.m.unitL, kC = 1 / this.m.unitC;
    for (let k = 0; k < n; k++) {
      const j = y * w + x0 + k;
      const L0 = g * (ref.L[j]! + 16) - 16;
      dark[k] = (L[k]! - L0) * kL;
      const r = Math.min(1, Math.max(0, (L[k]! + 16) / (L0 + 16)));
      const da = (a[k]! - r * (g * ref.a[j]! + sa)) * kC, db = (b[k]! - r * (g * ref.b[j]! + sb)) * kC;
      tint[k] = Math.sqrt(da * da + db * db);
    }
  }
}

function minOf3x3(v: Float32Array, w: number, h: number, scratch?: FrameScratch): Float32Array {
  const rows = f32(v.length, scratch), out = f32(v.length, scratch);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      rows[i] = Math.min(v[i]!, x > 0 ? v[i - 1]! : Infinity, x < w - 1 ? v[i + 1]! : Infinity);
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      out[i] = Math.min(rows[i]!, y > 0 ? rows[i - w]! : Infinity, y < h - 1 ? rows[i + w]! : Infinity);
    }
  }
  return out;
}

function maxOf3x3(v: Float32Array, w: number, h: number, scratch?: FrameScratch): Float32Array {
  const rows = f32(v.length, scratch), out = f32(v.length, scratch);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      rows[i] = Math.max(v[i]!, x > 0 ? v[i - 1]! : 0, x < w - 1 ? v[i + 1]! : 0);
    }
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      out[i] = Math.max(rows[i]!, y > 0 ? rows[i - w]! : 0, y < h - 1 ? rows[i + w]! : 0);
    }
  }
  return out;
}

/**
 * Added to the tray's edge noise for the edges' unit. The modelled tray's is 0.6, but its level
 * also takes in the dice's own edges in crowded frames; with 0.6 here the pips of black dice on a
 * dark table were outlined as dice of their own. Development scenes (seeds dev and dev2, 1,497
 * dice; found, boxes on no die, white dice on a light tray of 116): 0.6: 1,228, 167, 87; 1.0:
 * 1,226, 142, 77; 1.5: 1,226, 140, 78; 0.8 (kept): 1,235, 154, 86. On the seeds held out,
 * 0.8 / 1.0: 1,219 / 1,218 of 1,431 with 134 / 142.
 */
const EDGE_FLOOR = 0.8;

/** A plain noisy tray's median edge strength over its lower quartile (a Rayleigh-like spread). */
const EDGE_QUARTILE_TO_MEDIAN = 1.5;

function quantile(v: Float32Array, q: number): number {
  const s = new Float32Array(Math.ceil(v.length / 2));
  for (let i = 0, j = 0; i < v.length; i += 2, j++) s[j] = v[i]!;
  s.sort();
  return s.length ? s[Math.floor(q * (s.length - 1))]! : 0;
}

/** The median, sorting `v` in place (a typed array sorts numerically, without a comparator). */
function middle(v: Float32Array): number {
  if (v.length === 0) return 0;
  v.sort();
  return v[v.length >> 1]!;
}


/** A pixel this many units from the empty tray differs from it (the locator's grow level). */
const DIFFERS = 3.5;

/**
 * For each box (in the frame's pixels), the share of its pixels that differ from the empty tray
 * (every other row, on the locator's fine frame): a die's body differs over most of its box, a
 * printed cloth's blot not at all. `null` where the frame cannot be compared with the tray (another
 * size). Used to keep a box found with the tray modelled only where something is there (reader.ts).
 */
export function differingShares(image: RgbImage, tray: TrayReference, boxes: readonly [number, number, number, number][], maxSide = tray.maxSide): number[] | null {
  if (boxes.length === 0) return [];
  if (!sameView(tray, image, maxSide)) return null;
  // A dim frame against the tray stretched as locateDice compares them (`stretched`).
  const stretch = tray.stretched && trayStretch(image);
  if (stretch) {
    image = applyStretch(image, stretch);
    tray = tray.stretched!(stretch);
  }
  const pyr = buildPyramid(image, maxSide);
  const evidence = new FineReferenceEvidence(pyr.fine, tray, matchTray(tray, toLabPlanes(pyr.coarse)));
  const { width: w, height: h } = pyr.fine;
  const row = new Float32Array(w);
  return boxes.map((box) => {
    const s = 1 / pyr.fineScale;
    const x0 = Math.max(0, Math.floor(box[0] * s)), x1 = Math.min(w, Math.ceil(box[2] * s));
    const y0 = Math.max(0, Math.floor(box[1] * s)), y1 = Math.min(h, Math.ceil(box[3] * s));
    let n = 0, differ = 0;
    for (let y = y0; y < y1; y += 2) {
      evidence.span(y, x0, x1, row, 0);
      for (let k = 0; k < x1 - x0; k++) if (row[k]! >= DIFFERS) differ++;
      n += x1 - x0;
    }
    return n > 0 ? differ / n : 0;
  });
}
