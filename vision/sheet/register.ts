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
  /**
   * `toImage` along rows of a grid: `rowMapper(xs)` works out each column's share of the bend
   * correction once; then `map(y, out)` writes toImage(xs[i], y) to out[2i], out[2i + 1], the same
   * numbers as `toImage` at a fraction of the cost (warping a whole image).
   */
  rowMapper(xs: ArrayLike<number>): (y: number, out: Float64Array) => void;
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
 * Finds one tick near `guess` (image px): in a window a few mm wide, the dark blobs of a tick's size
 * and squareness (the board's frame line, letters and pencil are other sizes or shapes); the one
 * nearest the guess, its darkness-weighted centroid. Null when there is none.
 */
function tickBlobs(img: GreyImage, guess: Pt, pxPerMm: number, size: number, windowMm: number): Pt[] {
  const half = Math.max(4, Math.round(windowMm * pxPerMm));
  const n = 2 * half + 1;
  const x0 = Math.floor(guess[0]) - half;
  const y0 = Math.floor(guess[1]) - half;
  if (x0 < 0 || y0 < 0 || x0 + n >= img.width || y0 + n >= img.height) return [];
  const vals = new Float32Array(n * n);
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) vals[j * n + i] = img.data[(y0 + j) * img.width + x0 + i]!;
  const sorted = vals.slice().sort();
  const bright = sorted[Math.floor(sorted.length * 0.8)]!;
  const darkest = sorted[Math.floor(sorted.length * 0.01)]!;
  if (bright - darkest < Math.max(20, bright * 0.3)) return [];
  const t = (bright + darkest) / 2;
  const label = new Int32Array(n * n).fill(-1);
  const expected = (size * pxPerMm) ** 2;
  const found: Pt[] = [];
  const stack: number[] = [];
  for (let start = 0; start < n * n; start++) {
    if (label[start]! >= 0 || vals[start]! >= t) continue;
    label[start] = start;
    stack.push(start);
    let area = 0;
    let sw = 0;
    let sx = 0;
    let sy = 0;
    let bx0 = n;
    let by0 = n;
    let bx1 = -1;
    let by1 = -1;
    let touches = false;
    while (stack.length) {
      const k = stack.pop()!;
      const i = k % n;
      const j = (k - i) / n;
      area++;
      const w = (t - vals[k]!) / (t - darkest + 1e-6);
      sw += w;
      sx += w * (x0 + i + 0.5);
      sy += w * (y0 + j + 0.5);
      if (i < bx0) bx0 = i;
      if (i > bx1) bx1 = i;
      if (j < by0) by0 = j;
      if (j > by1) by1 = j;
      if (i === 0 || j === 0 || i === n - 1 || j === n - 1) touches = true;
      // Right, left, down, up (the order fixes the centroid's summation order).
      for (let d = 0; d < 4; d++) {
        const ii = d === 0 ? i + 1 : d === 1 ? i - 1 : i;
        const jj = d === 2 ? j + 1 : d === 3 ? j - 1 : j;
        if (ii < 0 || jj < 0 || ii >= n || jj >= n) continue;
        const kk = jj * n + ii;
        if (label[kk]! >= 0 || vals[kk]! >= t) continue;
        label[kk] = start;
        stack.push(kk);
      }
    }
    if (touches) continue;
    const bw = bx1 - bx0 + 1;
    const bh = by1 - by0 + 1;
    if (area < expected * 0.3 || area > expected * 2.4) continue;
    if (bw > 2.2 * bh || bh > 2.2 * bw || area < 0.45 * bw * bh) continue;
    found.push([sx / sw, sy / sw]);
  }
  return found;
}

function nearest(blobs: readonly Pt[], p: Pt): { blob: Pt; d: number } | null {
  let best: { blob: Pt; d: number } | null = null;
  for (const b of blobs) {
    const d = Math.hypot(b[0] - p[0], b[1] - p[1]);
    if (!best || d < best.d) best = { blob: b, d };
  }
  return best;
}

function sideTicks(layout: SheetLayout, side: Side): Tick[] {
  return layout.ticks.filter((t) => t.side === side).sort((a, b) => a.index - b.index);
}

/**
 * Residual (px) per tick of one side, walking in from both ends so a bend is followed gradually.
 * The first tick of a walk is chosen among the blobs near it by how many of the next ticks line up
 * with the same offset (at the board's corners two ticks sit close together, and a bent page can
 * put the guess nearer the wrong one).
 */
function measureSide(img: GreyImage, H: Homography, ticks: Tick[], pxPerMm: number, maxMm: number): (Pt | null)[] {
  const out: (Pt | null)[] = ticks.map(() => null);
  const guessOf = (t: Tick): Pt => apply(H, t.x, t.y);
  const walk = (order: number[]) => {
    let prior: Pt | null = null;
    for (let q = 0; q < order.length; q++) {
      const i = order[q]!;
      const t = ticks[i]!;
      const [px, py] = guessOf(t);
      let r: Pt | null = null;
      if (!prior) {
        // Try each blob in a wide window as the offset; keep the one the next ticks agree with.
        let bestScore = 0;
        for (const b of tickBlobs(img, [px, py], pxPerMm, t.size, maxMm)) {
          const off: Pt = [b[0] - px, b[1] - py];
          let score = 0;
          for (const j of order.slice(q + 1, q + 4)) {
            const [gx, gy] = guessOf(ticks[j]!);
            const m = nearest(tickBlobs(img, [gx + off[0], gy + off[1]], pxPerMm, t.size, 1.6), [gx + off[0], gy + off[1]]);
            if (m && m.d < 0.8 * pxPerMm) score++;
          }
          if (score > bestScore) {
            bestScore = score;
            r = off;
          }
        }
        if (bestScore < 2) r = null;
      } else {
        const g: Pt = [px + prior[0], py + prior[1]];
        const m = nearest(tickBlobs(img, g, pxPerMm, t.size, 1.6), g);
        if (m && m.d < 1.2 * pxPerMm) r = [m.blob[0] - px, m.blob[1] - py];
      }
      if (!r || Math.hypot(r[0], r[1]) > maxMm * pxPerMm) continue;
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
  const res = Object.fromEntries(sides.map((s) => [s, measureSide(img, H, ticks[s], pxPerMm, 5)])) as Record<Side, (Pt | null)[]>;
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
  const rowMapper = (xs: ArrayLike<number>): ((y: number, out: Float64Array) => void) => {
    const n = xs.length;
    const S = new Float64Array(n);
    const T = new Float64Array(2 * n);
    const Bt = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      const s = Math.min(1, Math.max(0, (xs[i]! - x0) / bw));
      const xc = x0 + s * bw;
      const top_ = found === 0 ? null : top(xc);
      const bottom_ = found === 0 ? null : bottom(xc);
      S[i] = s;
      T[2 * i] = top_?.[0] ?? 0;
      T[2 * i + 1] = top_?.[1] ?? 0;
      Bt[2 * i] = bottom_?.[0] ?? 0;
      Bt[2 * i + 1] = bottom_?.[1] ?? 0;
    }
    const [h0, h1, h2, h3, h4, h5, h6, h7, h8] = H as [number, number, number, number, number, number, number, number, number];
    return (y, out) => {
      const t = Math.min(1, Math.max(0, (y - y0) / bh));
      const yc = y0 + t * bh;
      const L = found === 0 ? ([0, 0] as Pt) : left(yc);
      const R = found === 0 ? ([0, 0] as Pt) : right(yc);
      for (let i = 0; i < n; i++) {
        const x = xs[i]!;
        // apply(H, x, y), written out.
        const w = h6 * x + h7 * y + h8;
        const px = (h0 * x + h1 * y + h2) / w;
        const py = (h3 * x + h4 * y + h5) / w;
        if (found === 0) {
          out[2 * i] = px;
          out[2 * i + 1] = py;
          continue;
        }
        const s = S[i]!;
        const dx = (1 - t) * T[2 * i]! + t * Bt[2 * i]! + (1 - s) * L[0] + s * R[0] - ((1 - s) * (1 - t) * C00[0] + s * (1 - t) * C10[0] + (1 - s) * t * C01[0] + s * t * C11[0]);
        const dy = (1 - t) * T[2 * i + 1]! + t * Bt[2 * i + 1]! + (1 - s) * L[1] + s * R[1] - ((1 - s) * (1 - t) * C00[1] + s * (1 - t) * C10[1] + (1 - s) * t * C01[1] + s * t * C11[1]);
        out[2 * i] = px + dx;
        out[2 * i + 1] = py + dy;
      }
    };
  };
  return { toImage, rowMapper, homography: H, markerResidualPx: fit.residual, ticksFound: found, ticksTotal: total, maxBendMm: maxBend, pxPerMm };
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
  const map = reg.rowMapper(Float64Array.from({ length: W }, (_, i) => rect.x + (i + 0.5) / ppm));
  const row = new Float64Array(2 * W);
  for (let j = 0; j < H; j++) {
    map(rect.y + (j + 0.5) / ppm, row);
    for (let i = 0; i < W; i++) {
      const x = row[2 * i]!;
      const y = row[2 * i + 1]!;
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
  }
  return { width: W, height: H, data };
}
