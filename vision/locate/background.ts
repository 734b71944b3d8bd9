/**
 * The tray behind the dice, estimated as a smooth colour field on a coarse grid of cells.
 *
 * Each cell's mean colour and texture (spread) is measured; cells that look unlike the tray (a
 * die, its edge, glare) are set aside, and the tray's colour under them is filled in from the
 * cells around by normalised convolution, wide enough to bridge a 300 px die. Two rounds: the
 * first compares cells with the whole frame (robust to dice covering up to half of it), the second
 * with their neighbourhood (robust to lighting gradients, vignetting and wood planks).
 */
import type { LabPlanes } from './lab.js';
import { select } from './select.js';

export interface Background {
  /** Cell side in pixels; cell (i, j) covers x ∈ [i·cell, (i+1)·cell), y likewise. */
  cell: number;
  nx: number;
  ny: number;
  /** The tray's colour at each cell centre. */
  L: Float32Array;
  a: Float32Array;
  b: Float32Array;
  /**
   * The tray's own texture at each cell: RMS spread of its pixels' lightness, and of their
   * chroma (a, b). Kept apart because wood grain and felt fuzz vary mostly in lightness, so a
   * coloured die stands out from them in chroma far more than the overall spread suggests.
   */
  noiseL: Float32Array;
  noiseC: Float32Array;
  /** 1 where the cell itself did not look like tray. */
  foreign: Uint8Array;
}

export interface BackgroundOptions {
  /** Cell side in pixels (default: frame's longer side / 40, at least 6). */
  cell?: number;
}

interface CellStats {
  L: Float32Array;
  a: Float32Array;
  b: Float32Array;
  spread: Float32Array;
  spreadL: Float32Array;
  spreadC: Float32Array;
}

function cellStats(lab: LabPlanes, cell: number, nx: number, ny: number): CellStats {
  const { width, height } = lab;
  const m = nx * ny;
  const sL = new Float64Array(m), sa = new Float64Array(m), sb = new Float64Array(m);
  const sqL = new Float64Array(m), sqC = new Float64Array(m), cnt = new Float64Array(m);
  const pL = lab.L, pa = lab.a, pb = lab.b;
  // Row by row, one cell's stretch of the row at a time, summing in local variables (the same
  // additions in the same order as pixel by pixel into the arrays).
  for (let y = 0; y < height; y++) {
    const row = ((y / cell) | 0) * nx;
    const base = y * width;
    for (let i = 0; i < nx; i++) {
      const c = row + i;
      const x0 = i * cell, x1 = Math.min(width, x0 + cell);
      let tL = sL[c]!, ta = sa[c]!, tb = sb[c]!, qL = sqL[c]!, qC = sqC[c]!;
      for (let k = base + x0, end = base + x1; k < end; k++) {
        const L = pL[k]!, a = pa[k]!, b = pb[k]!;
        tL += L;
        ta += a;
        tb += b;
        qL += L * L;
        qC += a * a + b * b;
      }
      sL[c] = tL;
      sa[c] = ta;
      sb[c] = tb;
      sqL[c] = qL;
      sqC[c] = qC;
      cnt[c]! += x1 - x0;
    }
  }
  const out: CellStats = {
    L: new Float32Array(m),
    a: new Float32Array(m),
    b: new Float32Array(m),
    spread: new Float32Array(m),
    spreadL: new Float32Array(m),
    spreadC: new Float32Array(m),
  };
  for (let c = 0; c < m; c++) {
    const n = cnt[c]!;
    const mL = sL[c]! / n, ma = sa[c]! / n, mb = sb[c]! / n;
    out.L[c] = mL;
    out.a[c] = ma;
    out.b[c] = mb;
    const vL = Math.max(0, sqL[c]! / n - mL * mL);
    const vC = Math.max(0, sqC[c]! / n - ma * ma - mb * mb);
    out.spreadL[c] = Math.sqrt(vL);
    out.spreadC[c] = Math.sqrt(vC);
    out.spread[c] = Math.sqrt(vL + vC);
  }
  return out;
}

let medianScratch = new Float32Array(0);

/**
 * The median (mean of the two middle values for an even count), by selection rather than a full
 * sort: the same value a sort gives, in linear time. Assumes no NaN (none arises here).
 */
function median(values: Float32Array): number {
  const n = values.length;
  if (n === 0) return 0;
  if (medianScratch.length < n) medianScratch = new Float32Array(n);
  const s = medianScratch;
  s.set(values);
  const h = n >> 1;
  select(s, n, h);
  if (n % 2) return s[h]!;
  // After selecting h, everything before it is at most s[h]: the other middle value is their largest.
  let lower = s[0]!;
  for (let i = 1; i < h; i++) if (s[i]! > lower) lower = s[i]!;
  return (lower + s[h]!) / 2;
}

function gaussianKernel(sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float32Array(2 * r + 1);
  for (let i = -r; i <= r; i++) k[i + r] = Math.exp((-i * i) / (2 * sigma * sigma));
  return k;
}

/** The narrow fill: a Gaussian of 1.5 cells, and its weights' sum over a full square. */
const NARROW = gaussianKernel(1.5);
const NARROW_NORM = NARROW.reduce((s, v) => s + v, 0) ** 2;
/** The wide fill: σ = 6 cells as three box blurs of radius WIDE_R (sum of weights WIDE_TOTAL). */
const WIDE_SIGMA = 6;
const WIDE_R = Math.max(1, Math.round((Math.sqrt(4 * WIDE_SIGMA * WIDE_SIGMA + 1) - 1) / 2));
const WIDE_TOTAL = (2 * WIDE_R + 1) ** 6;

let gridTmp = new Float32Array(0), gridLine = new Float32Array(0);
function gridScratch(m: number, line: number): void {
  if (gridTmp.length < m) gridTmp = new Float32Array(m);
  if (gridLine.length < line) gridLine = new Float32Array(line);
}

/**
 * Separable blur of a small grid into `out`, zero outside (weights are blurred the same way).
 * Away from the grid's edges every tap is inside: that stretch skips the per-cell bounds (the sums
 * are made in the same order either way).
 */
function blurGrid(src: Float32Array, nx: number, ny: number, kernel: Float32Array, out: Float32Array): Float32Array {
  const r = (kernel.length - 1) >> 1;
  const K = kernel.length;
  // The narrow kernel's 11 taps in locals (the common case, unrolled below).
  const k0 = kernel[0] ?? 0, k1 = kernel[1] ?? 0, k2 = kernel[2] ?? 0, k3 = kernel[3] ?? 0, k4 = kernel[4] ?? 0, k5 = kernel[5] ?? 0;
  const k6 = kernel[6] ?? 0, k7 = kernel[7] ?? 0, k8 = kernel[8] ?? 0, k9 = kernel[9] ?? 0, k10 = kernel[10] ?? 0;
  gridScratch(nx * ny, 0);
  const tmp = gridTmp;
  for (let j = 0; j < ny; j++) {
    const rowStart = j * nx;
    for (let i = 0; i < nx; i++) {
      let s = 0;
      const row = rowStart + i;
      if (K === 11 && i >= r && i < nx - r) {
        const q = row - 5;
        s += src[q]! * k0;
        s += src[q + 1]! * k1;
        s += src[q + 2]! * k2;
        s += src[q + 3]! * k3;
        s += src[q + 4]! * k4;
        s += src[q + 5]! * k5;
        s += src[q + 6]! * k6;
        s += src[q + 7]! * k7;
        s += src[q + 8]! * k8;
        s += src[q + 9]! * k9;
        s += src[q + 10]! * k10;
      } else if (i >= r && i < nx - r) {
        for (let k = 0, q = row - r; k < K; k++, q++) s += src[q]! * kernel[k]!;
      } else {
        for (let k = Math.max(-r, -i), end = Math.min(r, nx - 1 - i); k <= end; k++) s += src[row + k]! * kernel[k + r]!;
      }
      tmp[row] = s;
    }
  }
  for (let j = 0; j < ny; j++) {
    const inner = j >= r && j < ny - r;
    for (let i = 0; i < nx; i++) {
      let s = 0;
      if (K === 11 && inner) {
        const q = (j - 5) * nx + i;
        s += tmp[q]! * k0;
        s += tmp[q + nx]! * k1;
        s += tmp[q + 2 * nx]! * k2;
        s += tmp[q + 3 * nx]! * k3;
        s += tmp[q + 4 * nx]! * k4;
        s += tmp[q + 5 * nx]! * k5;
        s += tmp[q + 6 * nx]! * k6;
        s += tmp[q + 7 * nx]! * k7;
        s += tmp[q + 8 * nx]! * k8;
        s += tmp[q + 9 * nx]! * k9;
        s += tmp[q + 10 * nx]! * k10;
      } else if (inner) {
        for (let k = 0, q = (j - r) * nx + i; k < K; k++, q += nx) s += tmp[q]! * kernel[k]!;
      } else {
        for (let k = Math.max(-r, -j), end = Math.min(r, ny - 1 - j); k <= end; k++) s += tmp[(j + k) * nx + i]! * kernel[k + r]!;
      }
      out[j * nx + i] = s;
    }
  }
  return out;
}

/**
 * Wide blur of a small grid as three box blurs (≈ a Gaussian of σ = WIDE_SIGMA) into `out`, zero
 * outside: the cost does not grow with the width, which matters for the 300 px dice this must
 * bridge. Box sums from float32 running sums (along rows, then down columns, a row of columns at
 * a time).
 */
function wideBlurGrid(src: Float32Array, nx: number, ny: number, out: Float32Array): Float32Array {
  const r = WIDE_R;
  gridScratch(nx * ny, (ny + 1) * nx);
  const line = gridLine, next = gridTmp;
  let cur = src;
  for (let pass = 0; pass < 3; pass++) {
    for (let j = 0; j < ny; j++) {
      const row = j * nx;
      line[0] = 0;
      for (let i = 0; i < nx; i++) line[i + 1] = line[i]! + cur[row + i]!;
      for (let i = 0; i < nx; i++) next[row + i] = line[i + r + 1 < nx ? i + r + 1 : nx]! - line[i - r > 0 ? i - r : 0]!;
    }
    // Column running sums for all columns at once: line[(j + 1) * nx + i] = sum of rows < j + 1.
    line.fill(0, 0, nx);
    for (let j = 0; j < ny; j++) {
      const a = j * nx, b = a + nx;
      for (let i = 0; i < nx; i++) line[b + i] = line[a + i]! + next[a + i]!;
    }
    for (let j = 0; j < ny; j++) {
      const hi = (j + r + 1 < ny ? j + r + 1 : ny) * nx, lo = (j - r > 0 ? j - r : 0) * nx, o = j * nx;
      for (let i = 0; i < nx; i++) out[o + i] = line[hi + i]! - line[lo + i]!;
    }
    cur = out;
  }
  return out;
}

/** The tray cells' weights blurred as the fill blurs the values (shared by every channel). */
interface TrayWeights {
  weight: Float32Array;
  narrow: Float32Array;
  wide: Float32Array;
}

function trayWeights(weight: Float32Array, nx: number, ny: number): TrayWeights {
  const m = nx * ny;
  return { weight, narrow: blurGrid(weight, nx, ny, NARROW, new Float32Array(m)), wide: wideBlurGrid(weight, nx, ny, new Float32Array(m)) };
}

let fillScratch = new Float32Array(0);

/**
 * Fill a channel from the cells with weight 1: a narrow blur where enough tray is near, a wide
 * one under big dice, the global value where neither reaches.
 */
function fillFromTray(ch: Float32Array, tw: TrayWeights, nx: number, ny: number, fallback: number): Float32Array {
  const m = nx * ny;
  if (fillScratch.length < 3 * m) fillScratch = new Float32Array(3 * m);
  const weighted = fillScratch.subarray(0, m), vN = fillScratch.subarray(m, 2 * m), vW = fillScratch.subarray(2 * m, 3 * m);
  const { weight, narrow: wN, wide: wW } = tw;
  for (let c = 0; c < m; c++) weighted[c] = ch[c]! * weight[c]!;
  blurGrid(weighted, nx, ny, NARROW, vN);
  wideBlurGrid(weighted, nx, ny, vW);
  const out = new Float32Array(m);
  const wideFloor = 1e-3 * WIDE_TOTAL, narrowScale = 0.25 * NARROW_NORM;
  for (let c = 0; c < m; c++) {
    // Blend: trust the narrow estimate in proportion to how much tray it saw.
    const tN = Math.min(1, wN[c]! / narrowScale);
    const wideVal = wW[c]! > wideFloor ? vW[c]! / wW[c]! : fallback;
    const narrowVal = wN[c]! > 1e-6 ? vN[c]! / wN[c]! : wideVal;
    out[c] = tN * narrowVal + (1 - tN) * wideVal;
  }
  return out;
}

/** The blurred tray weights of each estimated background, for `trayLevel` (same cells, same weights). */
const weightsOf = new WeakMap<Background, TrayWeights>();

export function estimateBackground(lab: LabPlanes, options: BackgroundOptions = {}): Background {
  const { width, height } = lab;
  const cell = options.cell ?? Math.max(6, Math.round(Math.max(width, height) / 40));
  const nx = Math.ceil(width / cell);
  const ny = Math.ceil(height / cell);
  const m = nx * ny;
  const st = cellStats(lab, cell, nx, ny);

  // Round 1: against the whole frame.
  const ref = [median(st.L), median(st.a), median(st.b)] as const;
  const dist = new Float32Array(m);
  for (let c = 0; c < m; c++) dist[c] = Math.hypot(st.L[c]! - ref[0], st.a[c]! - ref[1], st.b[c]! - ref[2]);
  const mad = median(dist);
  const spreadMed = median(st.spread);
  const weight = new Float32Array(m);
  for (let c = 0; c < m; c++) {
    const far = dist[c]! > Math.max(3 * 1.4826 * mad, 8);
    const busy = st.spread[c]! > Math.max(3 * spreadMed, spreadMed + 6);
    weight[c] = far || busy ? 0 : 1;
  }

  // Round 2: against the neighbourhood, with the tray's local texture as the yardstick.
  const w1 = trayWeights(weight, nx, ny);
  let L = fillFromTray(st.L, w1, nx, ny, ref[0]);
  let a = fillFromTray(st.a, w1, nx, ny, ref[1]);
  let b = fillFromTray(st.b, w1, nx, ny, ref[2]);
  const noise = fillFromTray(st.spread, w1, nx, ny, spreadMed);
  const weight2 = new Float32Array(m);
  for (let c = 0; c < m; c++) {
    const d = Math.hypot(st.L[c]! - L[c]!, st.a[c]! - a[c]!, st.b[c]! - b[c]!);
    const n = noise[c]!;
    weight2[c] = d > Math.max(2.5 * n, 6) || st.spread[c]! > 2.5 * n + 4 ? 0 : 1;
  }
  const w2 = trayWeights(weight2, nx, ny);
  L = fillFromTray(st.L, w2, nx, ny, ref[0]);
  a = fillFromTray(st.a, w2, nx, ny, ref[1]);
  b = fillFromTray(st.b, w2, nx, ny, ref[2]);
  const noiseL = fillFromTray(st.spreadL, w2, nx, ny, median(st.spreadL));
  const noiseC = fillFromTray(st.spreadC, w2, nx, ny, median(st.spreadC));
  const foreign = new Uint8Array(m);
  for (let c = 0; c < m; c++) foreign[c] = weight2[c] ? 0 : 1;
  const bg: Background = { cell, nx, ny, L, a, b, noiseL, noiseC, foreign };
  weightsOf.set(bg, w2);
  return bg;
}

/**
 * The tray's typical level of any per-pixel measure (edge strength, say): the mean over each cell,
 * filled in from the cells that look like tray, as for the colour.
 */
export function trayLevel(plane: Float32Array, width: number, height: number, bg: Background): Float32Array {
  const { cell, nx, ny } = bg;
  const m = nx * ny;
  const sum = new Float32Array(m), cnt = new Float32Array(m);
  for (let y = 0; y < height; y++) {
    const row = ((y / cell) | 0) * nx;
    const base = y * width;
    for (let i = 0; i < nx; i++) {
      const c = row + i;
      const x0 = i * cell, x1 = Math.min(width, x0 + cell);
      // A float32 running sum, as when adding into the Float32Array pixel by pixel.
      let s = sum[c]!;
      for (let k = base + x0, end = base + x1; k < end; k++) s = Math.fround(s + plane[k]!);
      sum[c] = s;
      cnt[c]! += x1 - x0;
    }
  }
  for (let c = 0; c < m; c++) sum[c] = sum[c]! / Math.max(1, cnt[c]!);
  let tw = weightsOf.get(bg);
  if (!tw) {
    const weight = new Float32Array(m);
    for (let c = 0; c < m; c++) weight[c] = bg.foreign[c] ? 0 : 1;
    tw = trayWeights(weight, nx, ny);
  }
  return fillFromTray(sum, tw, nx, ny, median(sum));
}
