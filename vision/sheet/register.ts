/**
 * Registration: where each point of the printed frame (mm) lies in the photo. A homography from the
 * corner markers' 16 corners (12 with three markers) does the perspective; the registration ticks
 * printed along the board's edges then measure what a bent page adds, and a Coons patch spreads
 * those residuals over the board. A tick that cannot be found is left out, never guessed.
 */
import type { SheetLayout, Side, Tick } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { apply, fitHomography, type Homography, type Pt } from './homography.js';
import type { FoundMarker, GreyImage } from './markers.js';

export interface Registration {
  /** Frame millimetres → photo pixels (continuous coordinates). */
  toImage(x: number, y: number): Pt;
  homography: Homography;
  /** Root mean square distance (px) between the marker corners and the homography. */
  markerResidualPx: number;
  ticksFound: number;
  ticksTotal: number;
  /** Largest tick correction applied, in mm (how bent the page was). */
  maxBendMm: number;
  /** Photo pixels per frame millimetre near the board's centre. */
  pxPerMm: number;
}

/** The homography frame mm → image px from the markers found (at least three). */
export function markerHomography(layout: SheetLayout, markers: readonly FoundMarker[], scale = 1): { H: Homography; residual: number } | null {
  const src: Pt[] = [];
  const dst: Pt[] = [];
  for (const m of markers) {
    const spec = layout.markers[m.corner]!;
    spec.corners.forEach((c, k) => {
      src.push([c[0], c[1]]);
      dst.push([m.points[k]![0] * scale, m.points[k]![1] * scale]);
    });
  }
  const H = fitHomography(src, dst);
  if (!H) return null;
  let e = 0;
  for (let i = 0; i < src.length; i++) {
    const [x, y] = apply(H, src[i]![0], src[i]![1]);
    e += (x - dst[i]![0]) ** 2 + (y - dst[i]![1]) ** 2;
  }
  return { H, residual: Math.sqrt(e / src.length) };
}

/** Bilinear grey value at continuous coordinates (pixel i covers [i, i + 1)). */
export function bilinear(img: GreyImage, x: number, y: number): number {
  const W = img.width;
  const H = img.height;
  let fx = x - 0.5;
  let fy = y - 0.5;
  fx = fx < 0 ? 0 : fx > W - 1.001 ? W - 1.001 : fx;
  fy = fy < 0 ? 0 : fy > H - 1.001 ? H - 1.001 : fy;
  const x0 = fx | 0;
  const y0 = fy | 0;
  const ax = fx - x0;
  const ay = fy - y0;
  const d = img.data;
  const i = y0 * W + x0;
  return (d[i]! * (1 - ax) + d[i + 1]! * ax) * (1 - ay) + (d[i + W]! * (1 - ax) + d[i + W + 1]! * ax) * ay;
}

/**
 * Measures one tick near `guess` (image px): the darkness-weighted centroid of the dark blob in a
 * small window, recentred twice. Null when no tick-sized, tick-shaped blob is there.
 */
function measureTick(img: GreyImage, guess: Pt, pxPerMm: number, size: number): Pt | null {
  const half = Math.max(3, Math.round(1.25 * pxPerMm));
  let cx = guess[0];
  let cy = guess[1];
  const expected = (size * pxPerMm) ** 2;
  for (let it = 0; it < 3; it++) {
    const x0 = Math.floor(cx) - half;
    const y0 = Math.floor(cy) - half;
    if (x0 < 0 || y0 < 0 || x0 + 2 * half >= img.width || y0 + 2 * half >= img.height) return null;
    const vals: number[] = [];
    for (let y = y0; y <= y0 + 2 * half; y++) for (let x = x0; x <= x0 + 2 * half; x++) vals.push(img.data[y * img.width + x]!);
    const sorted = vals.slice().sort((a, b) => a - b);
    const bright = sorted[Math.floor(sorted.length * 0.85)]!;
    const darkest = sorted[Math.floor(sorted.length * 0.03)]!;
    if (bright - darkest < Math.max(20, bright * 0.3)) return null;
    const t = (bright + darkest) / 2;
    let sw = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let syy = 0;
    let k = 0;
    for (let y = y0; y <= y0 + 2 * half; y++)
      for (let x = x0; x <= x0 + 2 * half; x++) {
        const v = vals[k++]!;
        if (v >= t) continue;
        const w = (t - v) / (t - darkest + 1e-6);
        const px = x + 0.5;
        const py = y + 0.5;
        sw += w;
        sx += w * px;
        sy += w * py;
        sxx += w * px * px;
        syy += w * py * py;
      }
    if (sw <= 0) return null;
    const nx = sx / sw;
    const ny = sy / sw;
    // A tick is a small square: not much more ink than one, not smeared along a line.
    const spread = Math.sqrt(Math.max(0, sxx / sw - nx * nx) + Math.max(0, syy / sw - ny * ny));
    if (sw > expected * 2.6 || sw < expected * 0.2 || spread > size * pxPerMm * 0.85) return null;
    const moved = Math.hypot(nx - cx, ny - cy);
    cx = nx;
    cy = ny;
    if (moved < 0.1) break;
  }
  return [cx, cy];
}

function sideTicks(layout: SheetLayout, side: Side): Tick[] {
  return layout.ticks.filter((t) => t.side === side).sort((a, b) => a.index - b.index);
}

/** Residual (px) per tick of one side, walking in from both ends so a bend is followed gradually. */
function measureSide(img: GreyImage, H: Homography, ticks: Tick[], pxPerMm: number, maxMm: number): (Pt | null)[] {
  const out: (Pt | null)[] = ticks.map(() => null);
  const walk = (order: number[]) => {
    let prior: Pt = [0, 0];
    for (const i of order) {
      const t = ticks[i]!;
      const [px, py] = apply(H, t.x, t.y);
      const m = measureTick(img, [px + prior[0], py + prior[1]], pxPerMm, t.size);
      if (!m) continue;
      const r: Pt = [m[0] - px, m[1] - py];
      if (Math.hypot(r[0], r[1]) > maxMm * pxPerMm) continue;
      const prev = out[i];
      out[i] = prev ? [(prev[0] + r[0]) / 2, (prev[1] + r[1]) / 2] : r;
      prior = r;
    }
  };
  const n = ticks.length;
  const mid = Math.floor(n / 2);
  walk(Array.from({ length: mid + 1 }, (_, k) => k));
  walk(Array.from({ length: n - mid }, (_, k) => n - 1 - k));
  // Drop a tick that disagrees with both neighbours (a pencil mark next to it, say).
  for (let i = 0; i < n; i++) {
    const r = out[i];
    if (!r) continue;
    const nb = [out[i - 1], out[i + 1]].filter((v): v is Pt => Boolean(v));
    if (nb.length === 2 && nb.every((q) => Math.hypot(q[0] - r[0], q[1] - r[1]) > 0.7 * pxPerMm)) out[i] = null;
  }
  return out;
}

/** Linear interpolation of residuals known at some ticks; zero when none, constant beyond the ends. */
function residualCurve(ticks: Tick[], res: (Pt | null)[], along: (t: Tick) => number): (s: number) => Pt {
  const known = ticks.map((t, i) => ({ s: along(t), r: res[i] })).filter((k): k is { s: number; r: Pt } => k.r !== null);
  return (s) => {
    if (known.length === 0) return [0, 0];
    if (s <= known[0]!.s) return known[0]!.r;
    const last = known[known.length - 1]!;
    if (s >= last.s) return last.r;
    let k = 0;
    while (known[k + 1]!.s < s) k++;
    const a = known[k]!;
    const b = known[k + 1]!;
    const f = (s - a.s) / (b.s - a.s);
    return [a.r[0] + (b.r[0] - a.r[0]) * f, a.r[1] + (b.r[1] - a.r[1]) * f];
  };
}

/**
 * Registers the layout in the reading image: markers (already scaled to this image) → homography;
 * ticks → a bend correction over the board.
 */
export function register(layout: SheetLayout, img: GreyImage, markers: readonly FoundMarker[], scale: number): Registration | null {
  const fit = markerHomography(layout, markers, scale);
  if (!fit) return null;
  const H = fit.H;
  const b = layout.board;
  const bw = b.columns * b.cell;
  const bh = b.rows * b.cell;
  const c0 = apply(H, b.x + bw / 2, b.y + bh / 2);
  const c1 = apply(H, b.x + bw / 2 + 10, b.y + bh / 2);
  const c2 = apply(H, b.x + bw / 2, b.y + bh / 2 + 10);
  const pxPerMm = (Math.hypot(c1[0] - c0[0], c1[1] - c0[1]) + Math.hypot(c2[0] - c0[0], c2[1] - c0[1])) / 20;
  const sides: Side[] = ['top', 'right', 'bottom', 'left'];
  const ticks = Object.fromEntries(sides.map((s) => [s, sideTicks(layout, s)])) as Record<Side, Tick[]>;
  const res = Object.fromEntries(sides.map((s) => [s, measureSide(img, H, ticks[s], pxPerMm, 6)])) as Record<Side, (Pt | null)[]>;
  const found = sides.reduce((n, s) => n + res[s].filter(Boolean).length, 0);
  const total = layout.ticks.length;
  let maxBend = 0;
  for (const s of sides) for (const r of res[s]) if (r) maxBend = Math.max(maxBend, Math.hypot(r[0], r[1]) / pxPerMm);
  const top = residualCurve(ticks.top, res.top, (t) => t.x);
  const bottom = residualCurve(ticks.bottom, res.bottom, (t) => t.x);
  const left = residualCurve(ticks.left, res.left, (t) => t.y);
  const right = residualCurve(ticks.right, res.right, (t) => t.y);
  const x0 = b.x;
  const y0 = b.y;
  const corner = (p: Pt, q: Pt): Pt => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
  const C00 = corner(top(x0), left(y0));
  const C10 = corner(top(x0 + bw), right(y0));
  const C01 = corner(bottom(x0), left(y0 + bh));
  const C11 = corner(bottom(x0 + bw), right(y0 + bh));
  const toImage = (x: number, y: number): Pt => {
    const [px, py] = apply(H, x, y);
    if (found === 0) return [px, py];
    const s = Math.min(1, Math.max(0, (x - x0) / bw));
    const t = Math.min(1, Math.max(0, (y - y0) / bh));
    const xc = x0 + s * bw;
    const yc = y0 + t * bh;
    const T = top(xc);
    const B = bottom(xc);
    const L = left(yc);
    const R = right(yc);
    const dx = (1 - t) * T[0] + t * B[0] + (1 - s) * L[0] + s * R[0] - ((1 - s) * (1 - t) * C00[0] + s * (1 - t) * C10[0] + (1 - s) * t * C01[0] + s * t * C11[0]);
    const dy = (1 - t) * T[1] + t * B[1] + (1 - s) * L[1] + s * R[1] - ((1 - s) * (1 - t) * C00[1] + s * (1 - t) * C10[1] + (1 - s) * t * C01[1] + s * t * C11[1]);
    return [px + dx, py + dy];
  };
  return { toImage, homography: H, markerResidualPx: fit.residual, ticksFound: found, ticksTotal: total, maxBendMm: maxBend, pxPerMm };
}

/**
 * Samples the photo over a frame rectangle at `ppm` pixels per mm: a rectified grey image whose
 * pixel (i, j) is frame point (x0 + (i + 0.5) / ppm, y0 + (j + 0.5) / ppm).
 */
export function rectify(img: GreyImage, reg: Registration, rect: { x: number; y: number; w: number; h: number }, ppm: number): GreyImage & { x0: number; y0: number; ppm: number } {
  const W = Math.round(rect.w * ppm);
  const Hh = Math.round(rect.h * ppm);
  const data = new Uint8Array(W * Hh);
  // The map is smooth: evaluate it on a coarse grid and interpolate between.
  const STEP = 8;
  const GW = Math.ceil(W / STEP) + 1;
  const GH = Math.ceil(Hh / STEP) + 1;
  const gx = new Float64Array(GW * GH);
  const gy = new Float64Array(GW * GH);
  for (let j = 0; j < GH; j++)
    for (let i = 0; i < GW; i++) {
      const [x, y] = reg.toImage(rect.x + (i * STEP + 0.5) / ppm, rect.y + (j * STEP + 0.5) / ppm);
      gx[j * GW + i] = x;
      gy[j * GW + i] = y;
    }
  for (let j = 0; j < Hh; j++) {
    const gj = Math.floor(j / STEP);
    const fy = (j - gj * STEP) / STEP;
    for (let i = 0; i < W; i++) {
      const gi = Math.floor(i / STEP);
      const fx = (i - gi * STEP) / STEP;
      const k = gj * GW + gi;
      const x = (gx[k]! * (1 - fx) + gx[k + 1]! * fx) * (1 - fy) + (gx[k + GW]! * (1 - fx) + gx[k + GW + 1]! * fx) * fy;
      const y = (gy[k]! * (1 - fx) + gy[k + 1]! * fx) * (1 - fy) + (gy[k + GW]! * (1 - fx) + gy[k + GW + 1]! * fx) * fy;
      data[j * W + i] = bilinear(img, x, y);
    }
  }
  return { width: W, height: Hh, data, x0: rect.x, y0: rect.y, ppm };
}

/** Like `rectify`, in colour (for the preview the phone draws its proposal over). */
export function rectifyRgb(rgb: Uint8Array, width: number, height: number, reg: Registration, rect: { x: number; y: number; w: number; h: number }, ppm: number): { width: number; height: number; data: Uint8Array } {
  const W = Math.round(rect.w * ppm);
  const H = Math.round(rect.h * ppm);
  const data = new Uint8Array(W * H * 3);
  for (let j = 0; j < H; j++)
    for (let i = 0; i < W; i++) {
      const [x, y] = reg.toImage(rect.x + (i + 0.5) / ppm, rect.y + (j + 0.5) / ppm);
      let fx = x - 0.5;
      let fy = y - 0.5;
      fx = fx < 0 ? 0 : fx > width - 1.001 ? width - 1.001 : fx;
      fy = fy < 0 ? 0 : fy > height - 1.001 ? height - 1.001 : fy;
      const x0 = fx | 0;
      const y0 = fy | 0;
      const ax = fx - x0;
      const ay = fy - y0;
      const k = (y0 * width + x0) * 3;
      const o = (j * W + i) * 3;
      for (let c = 0; c < 3; c++) {
        const a = rgb[k + c]! * (1 - ax) + rgb[k + 3 + c]! * ax;
        const b = rgb[k + width * 3 + c]! * (1 - ax) + rgb[k + width * 3 + 3 + c]! * ax;
        data[o + c] = a * (1 - ay) + b * ay;
      }
    }
  return { width: W, height: H, data };
}
