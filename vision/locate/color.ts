/**
 * `dieColor`: the named colour of a die's body, from its pixels.
 *
 * 1. White balance from the whole frame: the light's colour is estimated from the brightest
 *    near-neutral pixels (pips, glare, white dice) and the frame's mean, and corrected along the
 *    warm–cold axis only (plus a little green–magenta), so a green felt tray is not mistaken for
 *    green light.
 * 2. The body: the die's pixels (weighted to the box's centre, away from the tray showing in a
 *    rotated die's box corners) are split into a few colour clusters; pips and glare are small
 *    clusters, the tray is the cluster that matches the ring around the box; the body is the
 *    largest of the rest.
 * 3. The body's median colour is matched to the nearest palette entry in CIELAB, with lightness
 *    counting half (shading and exposure move lightness far more than hue).
 */
import { DIE_COLORS, isDieColor } from '../../shared/dice.js';
import { rgbToLab, SRGB_TO_LINEAR } from '../image/color.js';
import type { Box, RgbImage } from '../types.js';
import { select } from './select.js';

export type Lab = [number, number, number];

/** Whether typed arrays are little-endian here (the radix sort below reads doubles as two words). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Per-channel gains in linear light that make the frame's light neutral. */
export type WhiteGains = [number, number, number];

/** sRGB byte of a linear value 0..1 (table, 1024 steps). */
const LINEAR_TO_SRGB_BYTE: Uint8Array = (() => {
  const t = new Uint8Array(1025);
  for (let i = 0; i <= 1024; i++) {
    const c = i / 1024;
    const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
    t[i] = Math.round(Math.min(1, Math.max(0, s)) * 255);
  }
  return t;
})();

/**
 * The light's colour in log-chromaticity (log R/G, log B/G): the commonest chromaticity among the
 * brightest fifth of the frame that is not clipped, preferring near-neutral ones. White pips,
 * glare and white or grey dice all share the light's own chromaticity, so they pile up in one
 * place; a wooden or green tray is rarely among the brightest pixels, and when it is, the
 * preference for neutral keeps the correction small.
 */
export function estimateLight(image: RgbImage): { logRG: number; logBG: number; brightY: number } {
  const { width, height, data } = image;
  const stepPx = Math.max(1, Math.floor(Math.sqrt((width * height) / 40000)));
  const lin = SRGB_TO_LINEAR;
  const eps = 1e-3;
  // Every sample's luminance first; chromaticity (two logarithms) only for the brightest fifth.
  const cap = Math.ceil(height / stepPx) * Math.ceil(width / stepPx);
  const lum = new Float64Array(cap);
  const at = new Int32Array(cap);
  let count = 0;
  for (let y = 0; y < height; y += stepPx) {
    for (let x = 0; x < width; x += stepPx) {
      const p = (y * width + x) * 3;
      if (data[p]! >= 250 || data[p + 1]! >= 250 || data[p + 2]! >= 250) continue;
      lum[count] = 0.2126 * lin[data[p]!]! + 0.7152 * lin[data[p + 1]!]! + 0.0722 * lin[data[p + 2]!]!;
      at[count++] = p;
    }
  }
  if (count === 0) return { logRG: 0, logBG: 0, brightY: 1 };
  // The brightest fifth in the order a stable sort by luminance (brightest first) gives: find the
  // cut by selection, then order only those.
  const k = Math.max(1, Math.ceil(count * 0.2));
  const values = lum.slice(0, count);
  select(values, count, count - k);
  const cut = values[count - k]!;
  let above = 0;
  for (let i = 0; i < count; i++) if (lum[i]! > cut) above++;
  let chosen = new Int32Array(k);
  let nb = 0, ties = k - above;
  for (let i = 0; i < count; i++) {
    const v = lum[i]!;
    if (v > cut) chosen[nb++] = i;
    else if (v === cut && ties > 0) (chosen[nb++] = i), ties--;
  }
  // Brightest first, ties in sample order: a stable radix sort of the luminances' bit patterns
  // (for non-negative doubles they order as the values do), a byte at a time, complemented.
  const bits = new Uint32Array(lum.buffer, lum.byteOffset, 2 * count);
  const low = LITTLE_ENDIAN ? 0 : 1;
  let from = chosen, to = new Int32Array(nb);
  const counts = new Int32Array(257);
  for (let pass = 0; pass < 8; pass++) {
    const word = pass < 4 ? low : 1 - low, shift = (pass & 3) * 8;
    counts.fill(0);
    for (let s = 0; s < nb; s++) counts[256 - ((bits[2 * from[s]! + word]! >>> shift) & 255)]!++;
    let same = false;
    for (let d = 1; d <= 256; d++) if (counts[d] === nb) same = true;
    if (same) continue; // every key has this byte: the pass would change nothing
    for (let d = 1; d <= 256; d++) counts[d]! += counts[d - 1]!;
    for (let s = 0; s < nb; s++) {
      const i = from[s]!;
      to[counts[255 - ((bits[2 * i + word]! >>> shift) & 255)]!++] = i;
    }
    const t = from;
    from = to;
    to = t;
  }
  chosen = from;
  const brightLum = new Float64Array(nb), brightRG = new Float64Array(nb), brightBG = new Float64Array(nb);
  for (let s = 0; s < nb; s++) {
    const i = chosen[s]!, p = at[i]!;
    const r = lin[data[p]!]!, g = lin[data[p + 1]!]!, b = lin[data[p + 2]!]!;
    brightLum[s] = lum[i]!;
    brightRG[s] = Math.log((r + eps) / (g + eps));
    brightBG[s] = Math.log((b + eps) / (g + eps));
  }
  const top = Math.max(1, Math.ceil(nb / 10));
  let topSum = 0;
  for (let s = 0; s < top; s++) topSum += brightLum[s]!;
  const brightY = topSum / top;
  // Chromaticity histogram over ±0.8 in 0.05 bins, smoothed 3×3, weighted towards neutral.
  const BINS = 33, SPAN = 0.8;
  const binRG = new Int32Array(nb), binBG = new Int32Array(nb);
  for (let s = 0; s < nb; s++) {
    binRG[s] = Math.round(((brightRG[s]! + SPAN) / (2 * SPAN)) * (BINS - 1));
    binBG[s] = Math.round(((brightBG[s]! + SPAN) / (2 * SPAN)) * (BINS - 1));
  }
  const hist = new Float32Array(BINS * BINS);
  for (let s = 0; s < nb; s++) {
    const i = binRG[s]!, j = binBG[s]!;
    if (i >= 0 && j >= 0 && i < BINS && j < BINS) hist[j * BINS + i]! += 1;
  }
  let best = -1, bestI = (BINS - 1) / 2, bestJ = (BINS - 1) / 2;
  for (let j = 1; j < BINS - 1; j++) {
    for (let i = 1; i < BINS - 1; i++) {
      let n = 0;
      for (let dj = -1; dj <= 1; dj++) for (let di = -1; di <= 1; di++) n += hist[(j + dj) * BINS + i + di]!;
      const rg = (i / (BINS - 1)) * 2 * SPAN - SPAN, bg = (j / (BINS - 1)) * 2 * SPAN - SPAN;
      const score = n * Math.exp(-(rg * rg + bg * bg) / (2 * 0.35 * 0.35));
      if (score > best) (best = score), (bestI = i), (bestJ = j);
    }
  }
  if (best <= 0) return { logRG: 0, logBG: 0, brightY };
  // Refine: the mean of the samples in the winning 3×3 bins (summed brightest first).
  let rg = 0, bg = 0, n = 0;
  for (let s = 0; s < nb; s++) {
    if (Math.abs(binRG[s]! - bestI) <= 1 && Math.abs(binBG[s]! - bestJ) <= 1) (rg += brightRG[s]!), (bg += brightBG[s]!), n++;
  }
  return { logRG: rg / n, logBG: bg / n, brightY };
}

/** Gains that neutralise the estimated light: fully along warm–cold, a third along green–magenta. */
export function whiteGains(image: RgbImage): WhiteGains {
  const light = estimateLight(image);
  const clamp = (v: number, m: number) => Math.max(-m, Math.min(m, v));
  const warm = clamp((light.logRG - light.logBG) / 2, 0.6);
  const green = clamp(((light.logRG + light.logBG) / 2) * 0.33, 0.1);
  // Exposure: bring the brightest neutral-ish surface near white, within limits.
  const exposure = Math.max(0.8, Math.min(1.6, 0.8 / Math.max(1e-3, light.brightY)));
  return [Math.exp(-(warm + green)) * exposure, exposure, Math.exp(-(-warm + green)) * exposure];
}

/** Per image: its white gains and, per channel, each byte's white-balanced byte. */
interface Balance {
  gains: WhiteGains;
  r: Uint8Array;
  g: Uint8Array;
  b: Uint8Array;
}

const balanceCache = new WeakMap<RgbImage, Balance>();

function balanceFor(image: RgbImage): Balance {
  let bal = balanceCache.get(image);
  if (!bal) {
    const gains = whiteGains(image);
    // The byte after balance depends on the byte alone: 256 look-ups per channel instead of a
    // multiply and a rounding per sample.
    const table = (gain: number) => Uint8Array.from(SRGB_TO_LINEAR, (v) => LINEAR_TO_SRGB_BYTE[Math.min(1024, Math.round(v * gain * 1024))]!);
    bal = { gains, r: table(gains[0]), g: table(gains[1]), b: table(gains[2]) };
    balanceCache.set(image, bal);
  }
  return bal;
}

function labF(t: number): number {
  return t > 216 / 24389 ? Math.cbrt(t) : (841 / 108) * t + 4 / 29;
}

/**
 * Lab of one pixel after white balance, written at `out[at..at+2]`: `rgbToLab` of the balanced
 * bytes, the same formula (so the same numbers) without a fresh array per sample.
 */
function balancedLabInto(data: Uint8Array, p: number, bal: Balance, out: Float64Array, at: number): void {
  const r = bal.r[data[p]!]!, g = bal.g[data[p + 1]!]!, b = bal.b[data[p + 2]!]!;
  // A die's pixels repeat the same few colours: remember recent conversions (a pure function of
  // the three bytes, so the cache changes no result).
  const key = (r << 16) | (g << 8) | b;
  const slot = Math.imul(key, 0x9e3779b1) >>> 20;
  if (labCacheKey[slot] === key) {
    out[at] = labCacheVal[3 * slot]!;
    out[at + 1] = labCacheVal[3 * slot + 1]!;
    out[at + 2] = labCacheVal[3 * slot + 2]!;
    return;
  }
  const R = SRGB_TO_LINEAR[r]!, G = SRGB_TO_LINEAR[g]!, B = SRGB_TO_LINEAR[b]!;
  const X = (0.4124 * R + 0.3576 * G + 0.1805 * B) / 0.95047;
  const Y = 0.2126 * R + 0.7152 * G + 0.0722 * B;
  const Z = (0.0193 * R + 0.1192 * G + 0.9505 * B) / 1.08883;
  const fx = labF(X), fy = labF(Y), fz = labF(Z);
  const L = 116 * fy - 16, A = 500 * (fx - fy), Bb = 200 * (fy - fz);
  labCacheKey[slot] = key;
  labCacheVal[3 * slot] = L;
  labCacheVal[3 * slot + 1] = A;
  labCacheVal[3 * slot + 2] = Bb;
  out[at] = L;
  out[at + 1] = A;
  out[at + 2] = Bb;
}

const LAB_CACHE = 4096; // slots: the top 12 bits of a 32-bit hash
const labCacheKey = new Int32Array(LAB_CACHE).fill(-1);
const labCacheVal = new Float64Array(3 * LAB_CACHE);

/** Colour distance for naming: CIE76 with lightness at half weight. */
export function namingDistance(p: Lab, q: Lab): number {
  return Math.hypot(0.5 * (p[0] - q[0]), p[1] - q[1], p[2] - q[2]);
}

function checkPalette(palette: readonly string[]): void {
  if (!Array.isArray(palette) || palette.length === 0) throw new RangeError('dieColor: the palette is empty (give at least one name from DIE_COLORS)');
  const unknown = palette.filter((name) => !isDieColor(name));
  if (unknown.length) {
    throw new RangeError(`dieColor: unknown colour name(s) ${unknown.map((u) => JSON.stringify(u)).join(', ')}; known: ${Object.keys(DIE_COLORS).join(', ')}`);
  }
}

/** The palette's colours in Lab, converted once per name. */
const paletteLab = new Map<string, Lab>();

/** A named colour (a key of DIE_COLORS) in Lab. */
export function colorLab(name: string): Lab {
  let q = paletteLab.get(name);
  if (!q) {
    const rgb = DIE_COLORS[name];
    if (!rgb) throw new RangeError(`colorLab: unknown colour name ${JSON.stringify(name)}; known: ${Object.keys(DIE_COLORS).join(', ')}`);
    q = rgbToLab(rgb[0], rgb[1], rgb[2]);
    paletteLab.set(name, q);
  }
  return q;
}

/** The nearest palette name to a (white-balanced) Lab colour. */
export function nearestColor(lab: Lab, palette: readonly string[]): string {
  checkPalette(palette);
  let best = palette[0]!, bestD = Infinity;
  for (const name of palette) {
    const d = namingDistance(lab, colorLab(name));
    if (d < bestD) (bestD = d), (best = name);
  }
  return best;
}

/** Samples as flat Lab triples (scratch between calls; dieColor never nests). */
let sampleLab = new Float64Array(0);
let sampleWeight = new Float64Array(0);
let sampleAssign = new Int32Array(0);
let sampleOrder = new Int32Array(0);
let sampleValues = new Float64Array(0);

function growSamples(n: number): void {
  if (sampleWeight.length >= n) return;
  const size = Math.max(n, 2 * sampleWeight.length, 2048);
  const lab = new Float64Array(3 * size);
  lab.set(sampleLab);
  sampleLab = lab;
  const w = new Float64Array(size);
  w.set(sampleWeight);
  sampleWeight = w;
  sampleAssign = new Int32Array(size);
  sampleOrder = new Int32Array(size);
  sampleValues = new Float64Array(size);
}

/**
 * Rearranges order[from..n) (sample indices, none of them before any of order[0..from) by
 * lightness) so that order[k] is the k-th sample by lightness, ties in sample order (the one a
 * stable sort by lightness puts at k), by Hoare's selection.
 */
function selectByLightness(order: Int32Array, lab: Float64Array, from: number, n: number, k: number): void {
  let lo = from, hi = n - 1;
  while (hi > lo) {
    // Median of three (by lightness, then index) as the pivot.
    const mid = (lo + hi) >> 1;
    let a = order[lo]!, b = order[mid]!, c = order[hi]!, t: number;
    if (lab[3 * b]! < lab[3 * a]! || (lab[3 * b] === lab[3 * a] && b < a)) (t = a), (a = b), (b = t);
    if (lab[3 * c]! < lab[3 * b]! || (lab[3 * c] === lab[3 * b] && c < b)) (t = b), (b = c), (c = t);
    if (lab[3 * b]! < lab[3 * a]! || (lab[3 * b] === lab[3 * a] && b < a)) (t = a), (a = b), (b = t);
    const pivot = b, pv = lab[3 * pivot]!;
    let i = lo, j = hi;
    while (i <= j) {
      for (;;) {
        const q = order[i]!, v = lab[3 * q]!;
        if (v < pv || (v === pv && q < pivot)) i++;
        else break;
      }
      for (;;) {
        const q = order[j]!, v = lab[3 * q]!;
        if (pv < v || (v === pv && pivot < q)) j--;
        else break;
      }
      if (i <= j) {
        const s = order[i]!;
        order[i] = order[j]!;
        order[j] = s;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/** The value at `at` (0..1) of channel `ch` over the members, as sorting them ascending would give. */
function channelQuantile(lab: Float64Array, members: Int32Array, count: number, ch: number, at: number): number {
  const v = sampleValues;
  for (let i = 0; i < count; i++) v[i] = lab[3 * members[i]! + ch]!;
  const k = Math.min(count - 1, Math.floor(at * count));
  select(v, count, k);
  return v[k]!;
}

interface Cluster {
  centre: Lab;
  weight: number;
  /** Indices of the samples in this cluster, in sample order. */
  members: Int32Array;
}

/**
 * One round of 3-means: assign each sample to its nearest centre (first on ties), then move each
 * centre to its samples' weighted mean (a centre with none stays). False when no assignment
 * changed (and `force` is off): the centres are then already where they would go.
 */
function kmeansRound3(lab: Float64Array, weights: Float64Array, n: number, cen: Float64Array, assign: Int32Array, force: boolean): boolean {
  const a0 = cen[0]!, a1 = cen[1]!, a2 = cen[2]!, b0 = cen[3]!, b1 = cen[4]!, b2 = cen[5]!, c0 = cen[6]!, c1 = cen[7]!, c2 = cen[8]!;
  let changed = force;
  let sa0 = 0, sa1 = 0, sa2 = 0, sa3 = 0, sb0 = 0, sb1 = 0, sb2 = 0, sb3 = 0, sc0 = 0, sc1 = 0, sc2 = 0, sc3 = 0;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const p0 = lab[j]!, p1 = lab[j + 1]!, p2 = lab[j + 2]!;
    let e0 = p0 - a0, e1 = p1 - a1, e2 = p2 - a2;
    const da = e0 * e0 + e1 * e1 + e2 * e2;
    e0 = p0 - b0;
    e1 = p1 - b1;
    e2 = p2 - b2;
    const db = e0 * e0 + e1 * e1 + e2 * e2;
    e0 = p0 - c0;
    e1 = p1 - c1;
    e2 = p2 - c2;
    const dc = e0 * e0 + e1 * e1 + e2 * e2;
    let best = 0, bestD = Infinity;
    if (da < bestD) (bestD = da), (best = 0);
    if (db < bestD) (bestD = db), (best = 1);
    if (dc < bestD) (bestD = dc), (best = 2);
    if (assign[i] !== best) (assign[i] = best), (changed = true);
    const w = weights[i]!;
    if (best === 0) (sa0 += p0 * w), (sa1 += p1 * w), (sa2 += p2 * w), (sa3 += w);
    else if (best === 1) (sb0 += p0 * w), (sb1 += p1 * w), (sb2 += p2 * w), (sb3 += w);
    else (sc0 += p0 * w), (sc1 += p1 * w), (sc2 += p2 * w), (sc3 += w);
  }
  if (!changed) return false;
  if (sa3 > 0) (cen[0] = sa0 / sa3), (cen[1] = sa1 / sa3), (cen[2] = sa2 / sa3);
  if (sb3 > 0) (cen[3] = sb0 / sb3), (cen[4] = sb1 / sb3), (cen[5] = sb2 / sb3);
  if (sc3 > 0) (cen[6] = sc0 / sc3), (cen[7] = sc1 / sc3), (cen[8] = sc2 / sc3);
  return true;
}

/** A few rounds of weighted k-means in Lab, seeded at lightness quantiles. */
function clusterColours(lab: Float64Array, weights: Float64Array, n: number, k: number): Cluster[] {
  // Seeds: the samples at the lightness quantiles, ties in sample order (as a stable sort by L).
  const order = sampleOrder;
  for (let i = 0; i < n; i++) order[i] = i;
  // Each selection leaves the samples before its rank no lighter and those after no darker, so
  // the next rank up is looked for only above it.
  let centres: Lab[] = [];
  let floor = 0;
  for (let c = 0; c < k; c++) {
    const at = Math.floor(((c + 0.5) / k) * n);
    selectByLightness(order, lab, floor, n, at);
    floor = at + 1;
    const i = order[at]!;
    centres.push([lab[3 * i]!, lab[3 * i + 1]!, lab[3 * i + 2]!]);
  }
  const assign = sampleAssign;
  // Centres as a flat array (k ≤ 3), the sums likewise: the same arithmetic as with arrays of triples.
  const cen = new Float64Array(3 * k), sums = new Float64Array(4 * k);
  for (let c = 0; c < k; c++) (cen[3 * c] = centres[c]![0]), (cen[3 * c + 1] = centres[c]![1]), (cen[3 * c + 2] = centres[c]![2]);
  for (let round = 0; round < 8; round++) {
    if (k === 3) {
      // The usual case, unrolled: the same comparisons and sums, kept in locals.
      if (!kmeansRound3(lab, weights, n, cen, assign, round === 0)) break;
      continue;
    }
    let changed = round === 0;
    for (let i = 0; i < n; i++) {
      let best = 0, bestD = Infinity;
      const p0 = lab[3 * i]!, p1 = lab[3 * i + 1]!, p2 = lab[3 * i + 2]!;
      for (let c = 0; c < k; c++) {
        const d0 = p0 - cen[3 * c]!, d1 = p1 - cen[3 * c + 1]!, d2 = p2 - cen[3 * c + 2]!;
        const d = d0 * d0 + d1 * d1 + d2 * d2;
        if (d < bestD) (bestD = d), (best = c);
      }
      if (assign[i] !== best) (assign[i] = best), (changed = true);
    }
    // Same assignment as last round: the centres would come out the same, and so would every
    // later round.
    if (!changed) break;
    sums.fill(0);
    for (let i = 0; i < n; i++) {
      const s = 4 * assign[i]!, w = weights[i]!;
      sums[s]! += lab[3 * i]! * w;
      sums[s + 1]! += lab[3 * i + 1]! * w;
      sums[s + 2]! += lab[3 * i + 2]! * w;
      sums[s + 3]! += w;
    }
    for (let c = 0; c < k; c++) {
      const w = sums[4 * c + 3]!;
      if (w > 0) for (let d = 0; d < 3; d++) cen[3 * c + d] = sums[4 * c + d]! / w;
    }
  }
  centres = Array.from({ length: k }, (_, c): Lab => [cen[3 * c]!, cen[3 * c + 1]!, cen[3 * c + 2]!]);
  const sizes = new Int32Array(k);
  const weightOf = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    sizes[assign[i]!]!++;
    weightOf[assign[i]!]! += weights[i]!;
  }
  const clusters: Cluster[] = centres.map((centre, c) => ({ centre, weight: weightOf[c]!, members: new Int32Array(sizes[c]!) }));
  const fill = new Int32Array(k);
  for (let i = 0; i < n; i++) {
    const c = assign[i]!;
    clusters[c]!.members[fill[c]!++] = i;
  }
  return clusters.filter((c) => c.members.length > 0);
}

/** The die body's white-balanced Lab colour (see the module comment). */
export function bodyColour(image: RgbImage, box: Box): Lab {
  const { width, height, data } = image;
  const bal = balanceFor(image);
  const [bx0, by0, bx1, by1] = box;
  const bw = bx1 - bx0, bh = by1 - by0;
  const cx = (bx0 + bx1) / 2, cy = (by0 + by1) / 2;
  // A sample every stride pixels, stride = floor(√(box area / 500)): 500–2,000 of the box's
  // pixels whatever the die's size, about 70 % of them inside the ellipse. With 1500 in that
  // formula a 60 px die took 2,800 samples and named no more dice right (77.6 against 77.8 % of
  // 526 held-out rendered dice).
  const stride = Math.max(1, Math.floor(Math.sqrt((bw * bh) / 500)));
  const xa = Math.max(0, Math.floor(bx0)), xb = Math.min(width, Math.ceil(bx1));
  const ya = Math.max(0, Math.floor(by0)), yb = Math.min(height, Math.ceil(by1));
  growSamples(Math.ceil((xb - xa) / stride) * Math.ceil((yb - ya) / stride) + 1);
  const lab = sampleLab, weights = sampleWeight;
  // Each sample's place in the ellipse's units, per column and per row (the same quotients as
  // per sample).
  const us = new Float64Array(Math.max(0, Math.ceil((xb - xa) / stride)));
  for (let x = xa, j = 0; x < xb; x += stride, j++) us[j] = (x + 0.5 - cx) / (bw / 2);
  let n = 0;
  for (let y = ya; y < yb; y += stride) {
    const v = (y + 0.5 - cy) / (bh / 2);
    const vv = v * v;
    for (let x = xa, j = 0; x < xb; x += stride, j++) {
      // Inside the inscribed ellipse, fading towards its rim: a rotated die's box corners are tray.
      // Math.hypot only where it decides something: well inside r < 0.6 or outside r > 0.95, the
      // squared radius says so alike.
      const u = us[j]!;
      const q = u * u + vv;
      if (q > 0.9025 * (1 + 1e-9)) continue;
      let weight = 1;
      if (q > 0.36 * (1 - 1e-9)) {
        const r = Math.hypot(u, v);
        if (r > 0.95) continue;
        weight = r < 0.6 ? 1 : (0.95 - r) / 0.35;
      }
      balancedLabInto(data, (y * width + x) * 3, bal, lab, 3 * n);
      weights[n++] = weight;
    }
  }
  if (n === 0) {
    const x = Math.min(width - 1, Math.max(0, Math.floor(cx))), y = Math.min(height - 1, Math.max(0, Math.floor(cy)));
    const one = new Float64Array(3);
    balancedLabInto(data, (y * width + x) * 3, bal, one, 0);
    return [one[0]!, one[1]!, one[2]!];
  }
  // The tray: a ring just outside the box.
  const ring: Lab[] = [];
  const m = Math.max(2, 0.12 * Math.max(bw, bh));
  const ringStep = Math.max(1, Math.floor((2 * (bw + bh)) / 64));
  const px = new Float64Array(3);
  const ringPoint = (x: number, y: number) => {
    const xi = Math.floor(x), yi = Math.floor(y);
    if (xi >= 0 && yi >= 0 && xi < width && yi < height) {
      balancedLabInto(data, (yi * width + xi) * 3, bal, px, 0);
      ring.push([px[0]!, px[1]!, px[2]!]);
    }
  };
  for (let x = bx0 - m; x <= bx1 + m; x += ringStep) ringPoint(x, by0 - m), ringPoint(x, by1 + m);
  for (let y = by0 - m; y <= by1 + m; y += ringStep) ringPoint(bx0 - m, y), ringPoint(bx1 + m, y);
  const tray = ring.length ? medianLab(ring) : null;

  const clusters = clusterColours(lab, weights, n, Math.min(3, n));
  // The largest cluster is the body, unless it matches the tray and another cluster nearly as big
  // does not (then the largest is tray showing around a rotated die). Pips and glare are small.
  const bySize = withSameHueWeights(clusters).sort((p, q) => q.weight - p.weight);
  let body = bySize[0]!;
  const isTray = (c: Cluster) => tray !== null && namingDistance(c.centre, tray) < 8;
  if (isTray(body)) {
    const other = bySize.find((c) => !isTray(c));
    if (other && other.weight >= 0.5 * body.weight) body = other;
  }
  // Lightness from the lit part of the body: side faces and shade would make white read grey.
  const count = body.members.length;
  return [channelQuantile(lab, body.members, count, 0, 0.7), channelQuantile(lab, body.members, count, 1, 0.5), channelQuantile(lab, body.members, count, 2, 0.5)];
}

/** Clusters at least this chromatic (CIELAB chroma) whose hues are within SAME_HUE_DEGREES are one body's. */
const SAME_HUE_CHROMA = 12;
const SAME_HUE_DEGREES = 25;

/**
 * The clusters, those of one hue (a coloured body's lit top and its shaded sides) taken together:
 * the group's largest cluster stands for it, with the group's summed weight. Left apart, a red
 * die's top and sides could each lose to its pips or a black glyph. The largest cluster, not the
 * group's mean, gives the colour: the mean takes in the shade and names a lit body darker.
 * Rendered dice with their true boxes (1,197 of them, three seeds of 80 scenes, a quarter of them
 * close-ups of big dice): named right with the scene's own colours 986 → 1,007, with all twelve
 * names 727 → 742; taking the group's mean instead lost 13 on one seed against all twelve.
 */
function withSameHueWeights(clusters: Cluster[]): Cluster[] {
  const chroma = (c: Cluster) => Math.hypot(c.centre[1], c.centre[2]);
  const hue = (c: Cluster) => Math.atan2(c.centre[2], c.centre[1]);
  const sameHue = (p: Cluster, q: Cluster) => {
    if (chroma(p) < SAME_HUE_CHROMA || chroma(q) < SAME_HUE_CHROMA) return false;
    const d = Math.abs(hue(p) - hue(q));
    return Math.min(d, 2 * Math.PI - d) <= (SAME_HUE_DEGREES * Math.PI) / 180;
  };
  const out: Cluster[] = [];
  let left = clusters;
  while (left.length > 0) {
    const group = left.filter((o, j) => j === 0 || sameHue(left[0]!, o));
    left = left.filter((o) => !group.includes(o));
    const largest = group.reduce((a, b) => (b.weight > a.weight ? b : a));
    out.push({ ...largest, weight: group.reduce((sum, g) => sum + g.weight, 0) });
  }
  return out;
}

/** Per-channel medians (the upper one of an even count) of a few colours (the tray ring). */
function medianLab(colours: Lab[]): Lab {
  const n = colours.length;
  const v = new Float64Array(n);
  const out: Lab = [0, 0, 0];
  const k = Math.min(n - 1, Math.floor(0.5 * n));
  for (let ch = 0; ch < 3; ch++) {
    for (let i = 0; i < n; i++) v[i] = colours[i]![ch]!;
    select(v, n, k);
    out[ch] = v[k]!;
  }
  return out;
}

/** The die body's colour as the nearest name in `palette` (names from DIE_COLORS). */
export function dieColor(image: RgbImage, box: Box, palette: string[]): string {
  checkPalette(palette);
  if (!image || !(image.data instanceof Uint8Array) || image.data.length !== image.width * image.height * 3) {
    throw new TypeError('dieColor: expected a well-formed RgbImage');
  }
  if (!Array.isArray(box) || box.length !== 4 || !box.every(Number.isFinite) || !(box[0] < box[2] && box[1] < box[3])) {
    throw new RangeError(`dieColor: box must be [x0, y0, x1, y1] with x0 < x1 and y0 < y1, got ${JSON.stringify(box)}`);
  }
  if (palette.length === 1) return palette[0]!;
  return nearestColor(bodyColour(image, box), palette);
}
