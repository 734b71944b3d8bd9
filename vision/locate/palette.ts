/**
 * A patterned cloth as a palette: a few flat colours repeated all over the frame (stripes, a
 * checkerboard, dots, a printed board). The smooth tray model (`background.ts`) takes such a
 * cloth for its average colour with a texture so large that no die stands out from it; against
 * the palette, a pixel is tray when it is near one of the cloth's colours, or on the soft edge
 * between two of them.
 *
 * A palette is found only when the frame shows one: two or more flat colours that each cover a
 * good share of the frame, appear all over it (dice lie in a few places, a cloth is everywhere),
 * do not look like a set of dice (die-sized marked squares), and are separate modes, not two
 * halves of one continuous spread (wood grain, felt fuzz, a light gradient).
 * Measured in docs/notes/vision-locate.md ("Patterned cloths").
 */
import { labelRegions } from './components.js';
import { edgeStrength } from './evidence.js';
import { LabStretch, type LabPlanes } from './lab.js';
import { fillHoles, open3, type Mask } from './mask.js';
import type { RgbImage } from '../types.js';
import { f32, type FrameScratch } from './scratch.js';

export interface PaletteColour {
  L: number;
  a: number;
  b: number;
  /** RMS spread of the colour's flat pixels: lightness, and chroma (a, b) together. */
  spreadL: number;
  spreadC: number;
  /** Share of the frame's flat samples that are this colour. */
  share: number;
  /**
   * Colours of one group are one cloth colour spread by the light (a gradient across the frame
   * splits it into neighbouring modes): any blend of them is cloth, flat or not.
   */
  group: number;
}

export interface ClothPalette {
  colours: PaletteColour[];
}

export interface PaletteOptions {
  /** Largest Lab gradient (per pixel) of a sample taken as flat cloth (default 2.5). */
  flatGradient?: number;
  /** Least share of the flat samples a cloth colour holds (default 0.08). */
  minShare?: number;
  /** Least share of the frame's blocks (4×4) a main cloth colour appears in (default 0.4). */
  minSpread?: number;
  /** Most samples a pair of cloth colours may leave in the middle third between them, as a share of the pair's (default 0.08). */
  maxBridge?: number;
}

interface Samples {
  n: number;
  L: Float32Array;
  a: Float32Array;
  b: Float32Array;
  block: Uint8Array;
  blocks: number;
  perBlock: Int32Array;
}

const GRID = 4;
/** Every STEP-th pixel each way is a sample (about 11,000 of a 320 px frame). */
const STEP = 3;

/** Room for `cap` samples, none taken yet. */
function emptySamples(cap: number): Samples {
  return { n: 0, L: new Float32Array(cap), a: new Float32Array(cap), b: new Float32Array(cap), block: new Uint8Array(cap), blocks: GRID * GRID, perBlock: new Int32Array(GRID * GRID) };
}

/** Takes pixel (x, y) of `lab` as the next sample, in its block of the GRID × GRID. */
function addSample(s: Samples, lab: LabPlanes, x: number, y: number): void {
  const i = y * lab.width + x;
  const k = s.n++;
  s.L[k] = lab.L[i]!;
  s.a[k] = lab.a[i]!;
  s.b[k] = lab.b[i]!;
  const blk = Math.min(GRID - 1, Math.floor((y * GRID) / lab.height)) * GRID + Math.min(GRID - 1, Math.floor((x * GRID) / lab.width));
  s.block[k] = blk;
  s.perBlock[blk]!++;
}

/** Every third pixel (each way) whose Lab gradient is small: the flat insides of the cloth's colours. */
function flatSamples(lab: LabPlanes, maxGradient: number): Samples {
  const { width: w, height: h, L, a, b } = lab;
  const out = emptySamples(Math.ceil(w / STEP) * Math.ceil(h / STEP));
  const g2 = maxGradient * maxGradient;
  for (let y = 1; y < h - 1; y += STEP) {
    for (let x = 1; x < w - 1; x += STEP) {
      const i = y * w + x;
      // Central differences over the three planes.
      const gx = (L[i + 1]! - L[i - 1]!) ** 2 + (a[i + 1]! - a[i - 1]!) ** 2 + (b[i + 1]! - b[i - 1]!) ** 2;
      const gy = (L[i + w]! - L[i - w]!) ** 2 + (a[i + w]! - a[i - w]!) ** 2 + (b[i + w]! - b[i - w]!) ** 2;
      if ((gx + gy) / 4 <= g2) addSample(out, lab, x, y);
    }
  }
  return out;
}

/**
 * Starting colours for k-means: the peaks of a coarse Lab histogram of the samples, each at least
 * `apart` from the ones before. A cloth's colours are dense peaks; farthest-point starts chase
 * outliers (glare, pips) and can leave two cloth colours in one cluster.
 */
function histogramPeaks(s: Samples, k: number, apart = 14): Float64Array {
  if (binSums.length === 0) binSums = new Float64Array(4 * BINS_L * BINS_AB * BINS_AB);
  const sums = binSums;
  const touched: number[] = [];
  for (let i = 0; i < s.n; i++) {
    const L = s.L[i]!, a = s.a[i]!, b = s.b[i]!;
    const l = Math.min(BINS_L - 1, Math.max(0, Math.floor(L / BIN)));
    const ai = Math.min(BINS_AB - 1, Math.max(0, Math.floor((a + 128) / BIN)));
    const bi = Math.min(BINS_AB - 1, Math.max(0, Math.floor((b + 128) / BIN)));
    const o = 4 * ((l * BINS_AB + ai) * BINS_AB + bi);
    if (sums[o] === 0) touched.push(o);
    sums[o]!++;
    sums[o + 1]! += L;
    sums[o + 2]! += a;
    sums[o + 3]! += b;
  }
  // Most samples first; ties in the bins' own order (L, then a, then b).
  touched.sort((p, q) => sums[q]! - sums[p]! || p - q);
  const seeds: number[] = [];
  for (const o of touched) {
    if (seeds.length >= 3 * k) break;
    const n = sums[o]!, L = sums[o + 1]! / n, a = sums[o + 2]! / n, b = sums[o + 3]! / n;
    let far = true;
    for (let j = 0; j < seeds.length && far; j += 3) far = (L - seeds[j]!) ** 2 + (a - seeds[j + 1]!) ** 2 + (b - seeds[j + 2]!) ** 2 >= apart * apart;
    if (far) seeds.push(L, a, b);
  }
  for (const o of touched) sums[o] = sums[o + 1] = sums[o + 2] = sums[o + 3] = 0;
  return Float64Array.from(seeds);
}

/** Histogram bins: 6 Lab units a side (L 0..102, a and b −128..130). */
const BIN = 6;
const BINS_L = 17;
const BINS_AB = 43;
/** The histogram's sums (count, L, a, b per bin), kept zeroed between frames (never returned). */
let binSums = new Float64Array(0);

/** Rounds of k-means from `centres` (updated in place) on the samples; `assign` gets each sample's cluster. */
function kMeans(s: Samples, centres: Float64Array, assign: Uint8Array, rounds: number): void {
  const { n, L, a, b } = s;
  const k = centres.length / 3;
  const sum = new Float64Array(4 * k);
  for (let r = 0; r < rounds; r++) {
    sum.fill(0);
    let changed = r === 0;
    for (let i = 0; i < n; i++) {
      const l = L[i]!, u = a[i]!, v = b[i]!;
      let best = 0, bestD = Infinity;
      for (let c = 0; c < k; c++) {
        const d = (l - centres[3 * c]!) ** 2 + (u - centres[3 * c + 1]!) ** 2 + (v - centres[3 * c + 2]!) ** 2;
        if (d < bestD) (bestD = d), (best = c);
      }
      if (assign[i] !== best) (assign[i] = best), (changed = true);
      sum[4 * best]! += l;
      sum[4 * best + 1]! += u;
      sum[4 * best + 2]! += v;
      sum[4 * best + 3]!++;
    }
    for (let c = 0; c < k; c++) {
      const m = sum[4 * c + 3]!;
      if (m === 0) continue;
      centres[3 * c] = sum[4 * c]! / m;
      centres[3 * c + 1] = sum[4 * c + 1]! / m;
      centres[3 * c + 2] = sum[4 * c + 2]! / m;
    }
    // The same clusters as the round before give the same centres: every later round would too.
    if (!changed) break;
  }
}

/** A k-means colour before it is judged: with the share of the frame's 4×4 blocks it appears in. */
type Candidate = Omit<PaletteColour, 'group'> & { spread: number; blocks: number };

/** Die size limits in pixels of the planes given to `clothPalette`. */
export interface DieSides {
  minSide: number;
  maxSide: number;
}

/**
 * The cloth's palette, or null when the frame does not show a patterned cloth.
 *
 * Candidates are the k-means colours of the flat samples that are common and found all over the
 * frame: a main tier (8 % of the samples, in 40 % of the 4×4 blocks) and a minor one for a
 * board's outlines and small patches (2 %, 40 %). Every candidate but the commonest must be flat
 * and must not look like dice (25 white dice on felt pass the tiers): at most 30 % of its area in
 * die-sized, compact regions with marks inside (`diceShare`). Bridged colours are grouped, and a
 * cloth needs two groups with a main colour each.
 */
export function clothPalette(lab: LabPlanes, sides: DieSides, options: PaletteOptions = {}): ClothPalette | null {
  const s = flatSamples(lab, options.flatGradient ?? 2.5);
  if (s.n < 200) return null;
  const minShare = options.minShare ?? 0.08;
  const minSpread = options.minSpread ?? 0.4;
  const maxBridge = options.maxBridge ?? 0.08;
  const centres = histogramPeaks(s, 6);
  const assign = new Uint8Array(s.n);
  // One round first: a cloth needs two main colours, and a frame where not even two colours
  // come near half the main tier is no cloth (most frames, a few dice of each colour included)
  // and is not worth the other rounds.
  kMeans(s, centres, assign, 1);
  const near = colourStats(s, centres, assign).filter((c) => c.share >= minShare / 2 && c.spread >= minSpread / 2);
  if (near.length < 2) return null;
  kMeans(s, centres, assign, ROUNDS - 1);
  const main = (c: { share: number; spread: number }) => c.share >= minShare && c.spread >= minSpread;
  const minor = (c: Candidate) => c.share >= MINOR_SHARE && c.spread >= MINOR_SPREAD;
  // Printed colours are flat; a loose cluster mixes dice bodies, their dark sides and outlines.
  const flat = (c: Candidate, i: number) => i === 0 || (c.spreadL <= MAX_SPREAD && c.spreadC <= MAX_SPREAD);
  const all = colourStats(s, centres, assign).sort((p, q) => q.share - p.share);
  // Modes, not halves of one spread: colours with many flat samples between them are one colour
  // (grouped), and a cloth needs two groups (wood grain or a lit felt makes only one).
  const grouped = (kept: readonly Candidate[]) => {
    const group = kept.map((_, i) => i);
    const root = (i: number): number => (group[i] === i ? i : (group[i] = root(group[i]!)));
    for (let i = 0; i < kept.length; i++) {
      for (let j = i + 1; j < kept.length; j++) if (bridgeShare(s, kept[i]!, kept[j]!) > maxBridge) group[root(j)] = root(i);
    }
    return kept.map((_, i) => root(i));
  };
  // A cloth is two groups with a main colour each; a minor colour (a board's outlines) only
  // joins such a cloth. (White dice on a light card: the dice's grey sides alone are a minor
  // colour, and the tops group with the card.) A group is judged as one colour: a lamp's
  // gradient splits a cloth's colour into modes that each cover only part of the frame.
  const cloth = (kept: readonly Candidate[], groups: readonly number[]) => {
    const byGroup = new Map<number, { share: number; blocks: number }>();
    kept.forEach((c, i) => {
      const g = byGroup.get(groups[i]!) ?? { share: 0, blocks: 0 };
      byGroup.set(groups[i]!, { share: g.share + c.share, blocks: g.blocks | c.blocks });
    });
    return [...byGroup.values()].filter((g) => main({ share: g.share, spread: bitCount(g.blocks) / s.blocks })).length >= 2;
  };
  let kept = all.filter((c, i) => (main(c) || minor(c)) && flat(c, i));
  let groups = grouped(kept);
  if (!cloth(kept, groups)) return null;
  // The dice test (the costly one) only where a cloth is still possible.
  const shares = diceShare(lab, kept, sides);
  const notDice = kept.filter((_, i) => i === 0 || shares[i]! <= MAX_DICE_SHARE);
  if (notDice.length < kept.length) {
    kept = notDice;
    groups = grouped(kept);
    if (!cloth(kept, groups)) return null;
  }
  return { colours: kept.map(({ L, a, b, spreadL, spreadC, share }, i) => ({ L, a, b, spreadL, spreadC, share, group: groups[i]! })) };
}

function bitCount(v: number): number {
  let n = 0;
  for (; v; v &= v - 1) n++;
  return n;
}

/** Rounds of k-means. */
const ROUNDS = 10;

/** Each cluster's colour, spreads, share of the samples and share of the blocks it appears in. */
function colourStats(s: Samples, centres: Float64Array, assign: Uint8Array): Candidate[] {
  const k = centres.length / 3;
  const count = new Float64Array(k), sL = new Float64Array(k), sC = new Float64Array(k);
  const inBlock = new Int32Array(k * s.blocks);
  for (let i = 0; i < s.n; i++) {
    const c = assign[i]!;
    count[c]!++;
    sL[c]! += (s.L[i]! - centres[3 * c]!) ** 2;
    sC[c]! += (s.a[i]! - centres[3 * c + 1]!) ** 2 + (s.b[i]! - centres[3 * c + 2]!) ** 2;
    inBlock[c * s.blocks + s.block[i]!]!++;
  }
  const out: Candidate[] = [];
  for (let c = 0; c < k; c++) {
    let present = 0, blocks = 0;
    for (let blk = 0; blk < s.blocks; blk++) {
      if (s.perBlock[blk]! > 0 && inBlock[c * s.blocks + blk]! >= 0.05 * s.perBlock[blk]!) (present++, (blocks |= 1 << blk));
    }
    out.push({
      L: centres[3 * c]!,
      a: centres[3 * c + 1]!,
      b: centres[3 * c + 2]!,
      spreadL: count[c] ? Math.sqrt(sL[c]! / count[c]!) : 0,
      spreadC: count[c] ? Math.sqrt(sC[c]! / count[c]!) : 0,
      share: count[c]! / s.n,
      spread: present / s.blocks,
      blocks,
    });
  }
  return out;
}

/** The minor tier of cloth colours (a board's outlines, small patches): share of samples, of blocks. */
const MINOR_SHARE = 0.02;
const MINOR_SPREAD = 0.4;
/**
 * Most RMS spread (Lab units) of a cloth colour other than the commonest: printed colours are flat,
 * while a cluster that mixes dice bodies with their dark sides and a board's outlines is loose.
 */
const MAX_SPREAD = 6;
/** A candidate with more of its area than this in die-like regions is dice, not cloth. */
const MAX_DICE_SHARE = 0.3;
/** Share of a die-like region its marks (holes in the colour) must cover: more than the odd noisy pixel in a blank dot. */
const MIN_MARKS = 0.03;

/**
 * For each colour, the share of its pixels (those nearest to it, within the grow level) that lie
 * in die-like regions: die-sized, compact (a box at most 2:1, filled at least half), clear of the
 * frame's edge and with marks inside (holes: pips, glyphs). A cloth's colours form stripes, fields joined at corners, frame-wide
 * patches, or blank dots; a set of dice forms separate marked squares.
 */
function diceShare(lab: LabPlanes, colours: readonly Candidate[], sides: DieSides): number[] {
  const { width: w, height: h } = lab;
  const n = w * h;
  const s = scaled({ colours: colours.map((c, i) => ({ ...c, group: i })) }, 2.5, 2);
  if (nearestScratch.length < n) nearestScratch = new Uint8Array(n);
  const nearest = nearestScratch;
  const pL = lab.L, pa = lab.a, pb = lab.b;
  const cL = s.L, ca = s.a, cb = s.b, kL = s.kL, kC = s.kC, k = colours.length;
  const limit = GROW * GROW;
  for (let i = 0; i < n; i++) {
    const L = pL[i]!, a = pa[i]!, b = pb[i]!;
    let best = 255, bestD = limit;
    for (let c = 0; c < k; c++) {
      const dL = (L - cL[c]!) * kL[c]!;
      if (dL * dL >= bestD) continue;
      const da = (a - ca[c]!) * kC[c]!, db = (b - cb[c]!) * kC[c]!;
      const d = dL * dL + da * da + db * db;
      if (d < bestD) (bestD = d), (best = c);
    }
    nearest[i] = best;
  }
  const out: number[] = [];
  if (dataScratch.length < 2 * n) dataScratch = new Uint8Array(2 * n);
  const data = dataScratch.subarray(0, n), filledInto = dataScratch.subarray(n, 2 * n);
  out.push(0); // the commonest colour is the cloth's whatever it looks like; not measured
  for (let c = 1; c < colours.length; c++) {
    let total = 0;
    for (let i = 0; i < n; i++) total += data[i] = nearest[i] === c ? 1 : 0;
    if (total === 0) {
      out.push(0);
      continue;
    }
    const filled = fillHoles({ width: w, height: h, data }, n / 8, filledInto);
    if (labelScratch.length !== n) labelScratch = new Int32Array(n);
    const { labels, regions } = labelRegions(filled, labelScratch.fill(0));
    const holes = new Int32Array(regions.length + 1);
    for (let i = 0; i < n; i++) if (filled.data[i] && !data[i]) holes[labels[i]!]!++;
    let dice = 0;
    for (const r of regions) {
      const bw = r.x1 - r.x0, bh = r.y1 - r.y0, side = Math.max(bw, bh);
      // A region cut by the frame's edge is no die the locator would report (it drops them), and
      // a checkerboard's squares and a cloth's big patches mostly reach the edge.
      if (r.touchesBorder) continue;
      if (side < sides.minSide || side > sides.maxSide || Math.max(bw, bh) > 3 * Math.min(bw, bh)) continue;
      if (r.area < 0.4 * bw * bh || holes[r.label]! < MIN_MARKS * r.area) continue;
      dice += r.area - holes[r.label]!;
    }
    out.push(dice / total);
  }
  return out;
}

/** Scratch of `diceShare` (one frame at a time; never returned). */
let nearestScratch = new Uint8Array(0);
let dataScratch = new Uint8Array(0);
let labelScratch = new Int32Array(0);

/** Evidence (in spread units) up to which a pixel counts as a colour, as the mask's grow level. */
const GROW = 3.5;

/**
 * Of the samples near the segment between two colours (within a third of its length of it), the
 * share whose projection falls in its middle third.
 */
function bridgeShare(s: Samples, p: Candidate, q: Candidate): number {
  const dL = q.L - p.L, da = q.a - p.a, db = q.b - p.b;
  const len2 = dL * dL + da * da + db * db;
  if (len2 === 0) return 1;
  const r2 = len2 / 9;
  let near = 0, middle = 0;
  for (let i = 0; i < s.n; i++) {
    const xL = s.L[i]! - p.L, xa = s.a[i]! - p.a, xb = s.b[i]! - p.b;
    const t = (xL * dL + xa * da + xb * db) / len2;
    const tc = Math.min(1, Math.max(0, t));
    const perp = (xL - tc * dL) ** 2 + (xa - tc * da) ** 2 + (xb - tc * db) ** 2;
    if (perp > r2) continue;
    near++;
    if (t > 1 / 3 && t < 2 / 3) middle++;
  }
  return near ? middle / near : 1;
}

/** Per-colour divisors (1 / (spread + floor)) for the evidence. */
interface Scaled {
  L: Float64Array;
  a: Float64Array;
  b: Float64Array;
  kL: Float64Array;
  kC: Float64Array;
  group: Int32Array;
  /**
   * Each pair i < j (in the order i, then j) of colours as `blendDistance2` uses it: colour i, the
   * step to colour j and its squared length, the pair's mean divisors, whether one group holds
   * both. Eight values a pair: L, a, b, eL, ea, eb, kL, kC; then `pairLen2`, `pairSame`.
   */
  pairs: Float64Array;
  pairLen2: Float64Array;
  pairSame: Uint8Array;
}

function scaled(p: ClothPalette, floor: number, chromaFloor: number): Scaled {
  const n = p.colours.length;
  const pairs = (n * (n - 1)) / 2;
  const s: Scaled = {
    L: new Float64Array(n), a: new Float64Array(n), b: new Float64Array(n), kL: new Float64Array(n), kC: new Float64Array(n), group: new Int32Array(n),
    pairs: new Float64Array(8 * pairs), pairLen2: new Float64Array(pairs), pairSame: new Uint8Array(pairs),
  };
  p.colours.forEach((c, i) => {
    s.group[i] = c.group;
    s.L[i] = c.L;
    s.a[i] = c.a;
    s.b[i] = c.b;
    s.kL[i] = 1 / (c.spreadL + floor);
    s.kC[i] = 1 / (c.spreadC + chromaFloor);
  });
  for (let i = 0, p = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++, p++) {
      const eL = s.L[j]! - s.L[i]!, ea = s.a[j]! - s.a[i]!, eb = s.b[j]! - s.b[i]!;
      s.pairs.set([s.L[i]!, s.a[i]!, s.b[i]!, eL, ea, eb, (s.kL[i]! + s.kL[j]!) / 2, (s.kC[i]! + s.kC[j]!) / 2], 8 * p);
      s.pairLen2[p] = eL * eL + ea * ea + eb * eb;
      s.pairSame[p] = s.group[i] === s.group[j] ? 1 : 0;
    }
  }
  return s;
}

/**
 * How far one colour is from the cloth, in units of the cloth colours' spreads: from the nearest
 * colour, or from the nearest blend of two colours (a straight line in Lab, scaled by the two
 * colours' mean spreads): of one group always, of two groups only with `blends` (a soft edge).
 */
function clothDistance(s: Scaled, L: number, a: number, b: number, blends: boolean): number {
  return Math.sqrt(Math.min(vertexDistance2(s, L, a, b), blendDistance2(s, L, a, b, blends)));
}

/** The squared distance (in spread units) from the nearest cloth colour. */
function vertexDistance2(s: Scaled, L: number, a: number, b: number): number {
  const n = s.L.length;
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const dL = (L - s.L[i]!) * s.kL[i]!, da = (a - s.a[i]!) * s.kC[i]!, db = (b - s.b[i]!) * s.kC[i]!;
    const d = dL * dL + da * da + db * db;
    if (d < best) best = d;
  }
  return best;
}

/** The squared distance from the nearest blend of two colours of one group, or (`blends`) of any two. */
function blendDistance2(s: Scaled, L: number, a: number, b: number, blends: boolean): number {
  const pairs = s.pairLen2.length, e = s.pairs, len2 = s.pairLen2, same = s.pairSame;
  let best = Infinity;
  for (let p = 0, o = 0; p < pairs; p++, o += 8) {
    if (!blends && !same[p]) continue;
    const xL = L - e[o]!, xa = a - e[o + 1]!, xb = b - e[o + 2]!;
    const eL = e[o + 3]!, ea = e[o + 4]!, eb = e[o + 5]!;
    const t = (xL * eL + xa * ea + xb * eb) / len2[p]!;
    if (t <= 0 || t >= 1) continue;
    const kL = e[o + 6]!, kC = e[o + 7]!;
    const dL = (xL - t * eL) * kL, da = (xa - t * ea) * kC, db = (xb - t * eb) * kC;
    const d = dL * dL + da * da + db * db;
    if (d < best) best = d;
  }
  return best;
}

export interface PaletteEvidenceOptions {
  /** Lab units added to a colour's lightness spread before dividing (default 2.5, as the smooth model). */
  noiseFloor?: number;
  /** Chroma units added likewise (default 2). */
  chromaFloor?: number;
  /** Lab gradient above which a pixel may be a soft edge between two cloth colours (default 2.5). */
  edgeGradient?: number;
}

/**
 * Per-pixel evidence that a pixel is not cloth (the palette's counterpart of `trayEvidence`).
 * A blend of two cloth colours counts as cloth only where the colour changes (the soft edge
 * between stripes); a flat patch of that colour is something else (a grey die on a black and
 * white checkerboard).
 */
export function paletteEvidence(lab: LabPlanes, palette: ClothPalette, options: PaletteEvidenceOptions = {}, scratch?: FrameScratch): Float32Array {
  const { width: w, height: h, L, a, b } = lab;
  const s = scaled(palette, options.noiseFloor ?? 2.5, options.chromaFloor ?? 2);
  const g2 = (options.edgeGradient ?? 2.5) ** 2;
  const out = f32(w * h, scratch);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      // Near a colour already: blends could only lower it, and below the grow level the mask's
      // decisions are the same.
      const v2 = vertexDistance2(s, L[i]!, a[i]!, b[i]!);
      if (v2 < GROW * GROW) {
        out[i] = Math.sqrt(v2);
        continue;
      }
      const near = Math.sqrt(Math.min(v2, blendDistance2(s, L[i]!, a[i]!, b[i]!, false)));
      const l = x > 0 ? i - 1 : i, r = x < w - 1 ? i + 1 : i, u = y > 0 ? i - w : i, d = y < h - 1 ? i + w : i;
      const gx = (L[r]! - L[l]!) ** 2 + (a[r]! - a[l]!) ** 2 + (b[r]! - b[l]!) ** 2;
      const gy = (L[d]! - L[u]!) ** 2 + (a[d]! - a[u]!) ** 2 + (b[d]! - b[u]!) ** 2;
      out[i] = (gx + gy) / 4 > g2 ? clothDistance(s, L[i]!, a[i]!, b[i]!, true) : near;
    }
  }
  return out;
}

/**
 * `paletteEvidence` for single stretches of the full working frame (the box measurement's
 * counterpart of `FineEvidence`). Blends count as cloth everywhere here: the stretch is only ever
 * next to a die already found, where a soft stripe edge must not widen the box.
 */
export class FinePaletteEvidence {
  readonly image: RgbImage;
  private readonly s: Scaled;
  private readonly lab = new LabStretch();

  constructor(image: RgbImage, palette: ClothPalette, options: Pick<PaletteEvidenceOptions, 'noiseFloor' | 'chromaFloor'> = {}) {
    this.image = image;
    this.s = scaled(palette, options.noiseFloor ?? 2.5, options.chromaFloor ?? 2);
  }

  span(y: number, x0: number, x1: number, out: Float32Array, outAt: number): void {
    const n = x1 - x0;
    if (n <= 0) return;
    this.lab.read(this.image, y, x0, x1);
    const { L, a, b } = this.lab;
    for (let k = 0; k < n; k++) out[outAt + k] = clothDistance(this.s, L[k]!, a[k]!, b[k]!, true);
  }
}

/**
 * Edge strength in units of the cloth's own texture, zero through the cloth's colours: the
 * palette's counterpart of `edgeEvidence`. The smooth model's edge level on a patterned cloth is
 * the pattern's own edges, high enough to hide a die's pips from the face-marks check; here the
 * edges between cloth colours (a dot's rim, a stripe's side) are simply not edges of anything.
 */
export function clothEdges(lab: LabPlanes, palette: ClothPalette, evidence: Float32Array, clothBelow: number, floor = 0.6, scratch?: FrameScratch): Float32Array {
  const edges = edgeStrength(lab, scratch);
  let level = 0, weight = 0;
  for (const c of palette.colours) (level += c.share * c.spreadL), (weight += c.share);
  const k = 1 / (level / weight + floor);
  for (let i = 0; i < edges.length; i++) edges[i] = evidence[i]! < clothBelow ? 0 : edges[i]! * k;
  return edges;
}

/** Thin leftovers a line colour needs, as a share of the frame's pixels. */
const MIN_LINE_PIXELS = 0.01;
/** Share of the thin leftovers one line colour must hold. */
const MIN_LINE_SHARE = 0.25;
/** Most RMS spread of a line colour: at half size a thin line blends with the colours beside it. */
const LINE_SPREAD = 10;
/** The spread a line colour is given at most. */
const LINE_CAP = 4;

/**
 * The palette with the colours of the cloth's thin lines added (a camouflage print's or a
 * printed board's outlines), or null when the frame shows none. Lines a pixel or two wide leave
 * no flat samples, so `clothPalette` cannot see their colour, and every line came back as a
 * region of its own: too many for the palette to be trusted, and the smooth model then lost
 * every die on such a cloth. Their colour is read from what a 3×3 opening removes from the
 * colour mask (dice are solid and stay): of the leftovers' colours found all over the frame, the
 * one farthest from the cloth's is the lines' (the others are its blends with the cloth). The
 * caller still checks that the dice then stand out by colour. Measured in
 * docs/notes/vision-locate.md ("Thin outlines").
 */
export function withLineColours(lab: LabPlanes, palette: ClothPalette, colour: Mask): ClothPalette | null {
  const { width: w, height: h } = lab;
  const opened = open3(colour);
  const n = w * h;
  let thin = 0;
  for (let i = 0; i < n; i++) if (colour.data[i] && !opened.data[i]) thin++;
  if (thin < MIN_LINE_PIXELS * n) return null;
  const s = emptySamples(thin);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (colour.data[y * w + x] && !opened.data[y * w + x]) addSample(s, lab, x, y);
  const centres = histogramPeaks(s, 3);
  const assign = new Uint8Array(s.n);
  kMeans(s, centres, assign, ROUNDS);
  const stats = colourStats(s, centres, assign);
  // The line's own colour is the cluster farthest from the cloth's colours; the others are its
  // blends with them at half size, which the blend rule already counts as cloth where the colour
  // changes. Its spread is capped, since the blends widen it.
  const far = (c: Candidate) => Math.min(...palette.colours.map((p) => (c.L - p.L) ** 2 + (c.a - p.a) ** 2 + (c.b - p.b) ** 2));
  const line = stats
    .filter((c) => c.share >= MIN_LINE_SHARE && c.spread >= MINOR_SPREAD && c.spreadL <= LINE_SPREAD && c.spreadC <= LINE_SPREAD)
    .sort((p, q) => far(q) - far(p))[0];
  if (!line) return null;
  const group = Math.max(...palette.colours.map((c) => c.group)) + 1;
  const spreadL = Math.min(line.spreadL, LINE_CAP), spreadC = Math.min(line.spreadC, LINE_CAP);
  return { colours: [...palette.colours, { L: line.L, a: line.a, b: line.b, spreadL, spreadC, share: line.share * (thin / n), group }] };
}
