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
import { DIE_COLORS } from '../../shared/dice.js';
import { rgbToLab, SRGB_TO_LINEAR } from '../image/color.js';
import type { Box, RgbImage } from '../types.js';

export type Lab = [number, number, number];

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
  const samples: { y: number; rg: number; bg: number }[] = [];
  for (let y = 0; y < height; y += stepPx) {
    for (let x = 0; x < width; x += stepPx) {
      const p = (y * width + x) * 3;
      if (data[p]! >= 250 || data[p + 1]! >= 250 || data[p + 2]! >= 250) continue;
      const r = lin[data[p]!]!, g = lin[data[p + 1]!]!, b = lin[data[p + 2]!]!;
      samples.push({ y: 0.2126 * r + 0.7152 * g + 0.0722 * b, rg: Math.log((r + eps) / (g + eps)), bg: Math.log((b + eps) / (g + eps)) });
    }
  }
  if (samples.length === 0) return { logRG: 0, logBG: 0, brightY: 1 };
  samples.sort((p, q) => q.y - p.y);
  const bright = samples.slice(0, Math.max(1, Math.ceil(samples.length * 0.2)));
  const brightY = bright.slice(0, Math.max(1, Math.ceil(bright.length / 10))).reduce((s, v) => s + v.y, 0) / Math.max(1, Math.ceil(bright.length / 10));
  // Chromaticity histogram over ±0.8 in 0.05 bins, smoothed 3×3, weighted towards neutral.
  const BINS = 33, SPAN = 0.8, bin = (v: number) => Math.round(((v + SPAN) / (2 * SPAN)) * (BINS - 1));
  const hist = new Float32Array(BINS * BINS);
  for (const s of bright) {
    const i = bin(s.rg), j = bin(s.bg);
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
  // Refine: the mean of the samples in the winning 3×3 bins.
  let rg = 0, bg = 0, n = 0;
  for (const s of bright) {
    if (Math.abs(bin(s.rg) - bestI) <= 1 && Math.abs(bin(s.bg) - bestJ) <= 1) (rg += s.rg), (bg += s.bg), n++;
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

const gainCache = new WeakMap<RgbImage, WhiteGains>();

function gainsFor(image: RgbImage): WhiteGains {
  let g = gainCache.get(image);
  if (!g) {
    g = whiteGains(image);
    gainCache.set(image, g);
  }
  return g;
}

/** Lab of one pixel after white balance. */
function balancedLab(data: Uint8Array, p: number, gains: WhiteGains): Lab {
  const lin = SRGB_TO_LINEAR;
  const to = (v: number) => LINEAR_TO_SRGB_BYTE[Math.min(1024, Math.round(v * 1024))]!;
  return rgbToLab(to(lin[data[p]!]! * gains[0]), to(lin[data[p + 1]!]! * gains[1]), to(lin[data[p + 2]!]! * gains[2]));
}

/** Colour distance for naming: CIE76 with lightness at half weight. */
export function namingDistance(p: Lab, q: Lab): number {
  return Math.hypot(0.5 * (p[0] - q[0]), p[1] - q[1], p[2] - q[2]);
}

function checkPalette(palette: string[]): void {
  if (!Array.isArray(palette) || palette.length === 0) throw new RangeError('dieColor: the palette is empty (give at least one name from DIE_COLORS)');
  const unknown = palette.filter((name) => !(name in DIE_COLORS));
  if (unknown.length) {
    throw new RangeError(`dieColor: unknown colour name(s) ${unknown.map((u) => JSON.stringify(u)).join(', ')}; known: ${Object.keys(DIE_COLORS).join(', ')}`);
  }
}

/** The nearest palette name to a (white-balanced) Lab colour. */
export function nearestColor(lab: Lab, palette: string[]): string {
  checkPalette(palette);
  let best = palette[0]!, bestD = Infinity;
  for (const name of palette) {
    const [r, g, b] = DIE_COLORS[name]!;
    const d = namingDistance(lab, rgbToLab(r, g, b));
    if (d < bestD) (bestD = d), (best = name);
  }
  return best;
}

interface Cluster {
  centre: Lab;
  weight: number;
  members: number[];
}

/** A few rounds of weighted k-means in Lab, seeded at lightness quantiles. */
function clusterColours(colours: Lab[], weights: number[], k: number): Cluster[] {
  const order = colours.map((_, i) => i).sort((i, j) => colours[i]![0] - colours[j]![0]);
  let centres: Lab[] = Array.from({ length: k }, (_, c) => colours[order[Math.floor(((c + 0.5) / k) * order.length)]!]!.slice() as Lab);
  const assign = new Int32Array(colours.length);
  for (let round = 0; round < 8; round++) {
    for (let i = 0; i < colours.length; i++) {
      let best = 0, bestD = Infinity;
      for (let c = 0; c < k; c++) {
        const q = centres[c]!, p = colours[i]!;
        const d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2;
        if (d < bestD) (bestD = d), (best = c);
      }
      assign[i] = best;
    }
    const sums = Array.from({ length: k }, () => [0, 0, 0, 0]);
    for (let i = 0; i < colours.length; i++) {
      const s = sums[assign[i]!]!, p = colours[i]!, w = weights[i]!;
      s[0]! += p[0] * w;
      s[1]! += p[1] * w;
      s[2]! += p[2] * w;
      s[3]! += w;
    }
    centres = sums.map((s, c) => (s[3]! > 0 ? [s[0]! / s[3]!, s[1]! / s[3]!, s[2]! / s[3]!] : centres[c]!) as Lab);
  }
  const clusters: Cluster[] = centres.map((centre) => ({ centre, weight: 0, members: [] }));
  for (let i = 0; i < colours.length; i++) {
    const c = clusters[assign[i]!]!;
    c.weight += weights[i]!;
    c.members.push(i);
  }
  return clusters.filter((c) => c.members.length > 0);
}

/** Per-channel quantiles of a cluster's colours (0.5 = median). */
function quantileLab(colours: Lab[], members: number[], qL = 0.5): Lab {
  const q = (k: 0 | 1 | 2, at: number) => {
    const v = members.map((i) => colours[i]![k]).sort((a, b) => a - b);
    return v[Math.min(v.length - 1, Math.floor(at * v.length))]!;
  };
  return [q(0, qL), q(1, 0.5), q(2, 0.5)];
}

function medianLab(colours: Lab[], members: number[]): Lab {
  return quantileLab(colours, members);
}

/** The die body's white-balanced Lab colour (see the module comment). */
export function bodyColour(image: RgbImage, box: Box): Lab {
  const { width, height, data } = image;
  const gains = gainsFor(image);
  const [bx0, by0, bx1, by1] = box;
  const bw = bx1 - bx0, bh = by1 - by0;
  const cx = (bx0 + bx1) / 2, cy = (by0 + by1) / 2;
  // About 1500 samples whatever the die's size.
  const stride = Math.max(1, Math.floor(Math.sqrt((bw * bh) / 1500)));
  const colours: Lab[] = [];
  const weights: number[] = [];
  for (let y = Math.max(0, Math.floor(by0)); y < Math.min(height, Math.ceil(by1)); y += stride) {
    for (let x = Math.max(0, Math.floor(bx0)); x < Math.min(width, Math.ceil(bx1)); x += stride) {
      // Inside the inscribed ellipse, fading towards its rim: a rotated die's box corners are tray.
      const r = Math.hypot((x + 0.5 - cx) / (bw / 2), (y + 0.5 - cy) / (bh / 2));
      if (r > 0.95) continue;
      colours.push(balancedLab(data, (y * width + x) * 3, gains));
      weights.push(r < 0.6 ? 1 : (0.95 - r) / 0.35);
    }
  }
  if (colours.length === 0) {
    const x = Math.min(width - 1, Math.max(0, Math.floor(cx))), y = Math.min(height - 1, Math.max(0, Math.floor(cy)));
    return balancedLab(data, (y * width + x) * 3, gains);
  }
  // The tray: a ring just outside the box.
  const ring: Lab[] = [];
  const m = Math.max(2, 0.12 * Math.max(bw, bh));
  const ringStep = Math.max(1, Math.floor((2 * (bw + bh)) / 64));
  const ringPoint = (x: number, y: number) => {
    const xi = Math.floor(x), yi = Math.floor(y);
    if (xi >= 0 && yi >= 0 && xi < width && yi < height) ring.push(balancedLab(data, (yi * width + xi) * 3, gains));
  };
  for (let x = bx0 - m; x <= bx1 + m; x += ringStep) ringPoint(x, by0 - m), ringPoint(x, by1 + m);
  for (let y = by0 - m; y <= by1 + m; y += ringStep) ringPoint(bx0 - m, y), ringPoint(bx1 + m, y);
  const tray = ring.length ? medianLab(ring, ring.map((_, i) => i)) : null;

  const clusters = clusterColours(colours, weights, Math.min(3, colours.length));
  const total = clusters.reduce((s, c) => s + c.weight, 0);
  // The largest cluster is the body, unless it matches the tray and another cluster nearly as big
  // does not (then the largest is tray showing around a rotated die). Pips and glare are small.
  const bySize = clusters.slice().sort((p, q) => q.weight - p.weight);
  let body = bySize[0]!;
  const isTray = (c: Cluster) => tray !== null && namingDistance(c.centre, tray) < 8;
  if (isTray(body)) {
    const other = bySize.find((c) => !isTray(c));
    if (other && other.weight >= 0.5 * body.weight) body = other;
  }
  // Lightness from the lit part of the body: side faces and shade would make white read grey.
  return quantileLab(colours, body.members, 0.7);
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
