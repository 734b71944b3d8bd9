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
  const colCell = new Int32Array(width);
  for (let x = 0; x < width; x++) colCell[x] = (x / cell) | 0;
  const pL = lab.L, pa = lab.a, pb = lab.b;
  for (let y = 0; y < height; y++) {
    const row = ((y / cell) | 0) * nx;
    const base = y * width;
    for (let x = 0; x < width; x++) {
      const c = row + colCell[x]!;
      const L = pL[base + x]!, a = pa[base + x]!, b = pb[base + x]!;
      sL[c]! += L;
      sa[c]! += a;
      sb[c]! += b;
      sqL[c]! += L * L;
      sqC[c]! += a * a + b * b;
      cnt[c]! += 1;
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

function median(values: ArrayLike<number>): number {
  const s = Float32Array.from(values).sort();
  if (s.length === 0) return 0;
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

function gaussianKernel(sigma: number): Float32Array {
  const r = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float32Array(2 * r + 1);
  for (let i = -r; i <= r; i++) k[i + r] = Math.exp((-i * i) / (2 * sigma * sigma));
  return k;
}

/** Separable blur of a small grid, zero outside (weights are blurred the same way). */
function blurGrid(src: Float32Array, nx: number, ny: number, kernel: Float32Array): Float32Array {
  const r = (kernel.length - 1) >> 1;
  const tmp = new Float32Array(nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      let s = 0;
      for (let k = Math.max(-r, -i); k <= Math.min(r, nx - 1 - i); k++) s += src[j * nx + i + k]! * kernel[k + r]!;
      tmp[j * nx + i] = s;
    }
  }
  const out = new Float32Array(nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      let s = 0;
      for (let k = Math.max(-r, -j); k <= Math.min(r, ny - 1 - j); k++) s += tmp[(j + k) * nx + i]! * kernel[k + r]!;
      out[j * nx + i] = s;
    }
  }
  return out;
}

/**
 * Wide blur of a small grid as three box blurs (≈ a Gaussian of the given sigma), zero outside:
 * the cost does not grow with the width, which matters for the 300 px dice this must bridge.
 */
function wideBlurGrid(src: Float32Array, nx: number, ny: number, sigma: number): Float32Array {
  const r = Math.max(1, Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2));
  let cur = src;
  const line = new Float32Array(Math.max(nx, ny) + 1);
  for (let pass = 0; pass < 3; pass++) {
    const next = new Float32Array(nx * ny);
    for (let j = 0; j < ny; j++) {
      line[0] = 0;
      for (let i = 0; i < nx; i++) line[i + 1] = line[i]! + cur[j * nx + i]!;
      for (let i = 0; i < nx; i++) next[j * nx + i] = line[Math.min(nx, i + r + 1)]! - line[Math.max(0, i - r)]!;
    }
    const out = new Float32Array(nx * ny);
    for (let i = 0; i < nx; i++) {
      line[0] = 0;
      for (let j = 0; j < ny; j++) line[j + 1] = line[j]! + next[j * nx + i]!;
      for (let j = 0; j < ny; j++) out[j * nx + i] = line[Math.min(ny, j + r + 1)]! - line[Math.max(0, j - r)]!;
    }
    cur = out;
  }
  return cur;
}

/**
 * Fill each channel from the cells with weight 1: a narrow blur where enough tray is near, a wide
 * one under big dice, the global value where neither reaches.
 */
function fillFromTray(
  channels: Float32Array[],
  weight: Float32Array,
  nx: number,
  ny: number,
  fallback: number[],
): Float32Array[] {
  const narrow = gaussianKernel(1.5);
  const wideSigma = 6;
  const wN = blurGrid(weight, nx, ny, narrow);
  const wW = wideBlurGrid(weight, nx, ny, wideSigma);
  // Sum of the wide filter's weights (all cells with weight 1, far from the grid's edges).
  const wideR = Math.max(1, Math.round((Math.sqrt(4 * wideSigma * wideSigma + 1) - 1) / 2));
  const wideTotal = (2 * wideR + 1) ** 6;
  return channels.map((ch, idx) => {
    const weighted = new Float32Array(ch.length);
    for (let c = 0; c < ch.length; c++) weighted[c] = ch[c]! * weight[c]!;
    const vN = blurGrid(weighted, nx, ny, narrow);
    const vW = wideBlurGrid(weighted, nx, ny, wideSigma);
    const out = new Float32Array(ch.length);
    const wideNorm = wideTotal;
    const narrowNorm = narrow.reduce((s, v) => s + v, 0) ** 2;
    for (let c = 0; c < ch.length; c++) {
      // Blend: trust the narrow estimate in proportion to how much tray it saw.
      const tN = Math.min(1, wN[c]! / (0.25 * narrowNorm));
      const wideVal = wW[c]! > 1e-3 * wideNorm ? vW[c]! / wW[c]! : fallback[idx]!;
      const narrowVal = wN[c]! > 1e-6 ? vN[c]! / wN[c]! : wideVal;
      out[c] = tN * narrowVal + (1 - tN) * wideVal;
    }
    return out;
  });
}

export function estimateBackground(lab: LabPlanes, options: BackgroundOptions = {}): Background {
  const { width, height } = lab;
  const cell = options.cell ?? Math.max(6, Math.round(Math.max(width, height) / 40));
  const nx = Math.ceil(width / cell);
  const ny = Math.ceil(height / cell);
  const m = nx * ny;
  const st = cellStats(lab, cell, nx, ny);

  // Round 1: against the whole frame.
  const ref = [median(st.L), median(st.a), median(st.b)];
  const dist = new Float32Array(m);
  for (let c = 0; c < m; c++) dist[c] = Math.hypot(st.L[c]! - ref[0]!, st.a[c]! - ref[1]!, st.b[c]! - ref[2]!);
  const mad = median(dist);
  const spreadMed = median(st.spread);
  const weight = new Float32Array(m);
  for (let c = 0; c < m; c++) {
    const far = dist[c]! > Math.max(3 * 1.4826 * mad, 8);
    const busy = st.spread[c]! > Math.max(3 * spreadMed, spreadMed + 6);
    weight[c] = far || busy ? 0 : 1;
  }

  // Round 2: against the neighbourhood, with the tray's local texture as the yardstick.
  let [L, a, b] = fillFromTray([st.L, st.a, st.b], weight, nx, ny, ref);
  const [noise] = fillFromTray([st.spread], weight, nx, ny, [spreadMed]);
  for (let c = 0; c < m; c++) {
    const d = Math.hypot(st.L[c]! - L![c]!, st.a[c]! - a![c]!, st.b[c]! - b![c]!);
    const n = noise![c]!;
    weight[c] = d > Math.max(2.5 * n, 6) || st.spread[c]! > 2.5 * n + 4 ? 0 : 1;
  }
  [L, a, b] = fillFromTray([st.L, st.a, st.b], weight, nx, ny, ref);
  const [noiseL, noiseC] = fillFromTray([st.spreadL, st.spreadC], weight, nx, ny, [median(st.spreadL), median(st.spreadC)]);
  const foreign = new Uint8Array(m);
  for (let c = 0; c < m; c++) foreign[c] = weight[c] ? 0 : 1;
  return { cell, nx, ny, L: L!, a: a!, b: b!, noiseL: noiseL!, noiseC: noiseC!, foreign };
}

/**
 * The tray's typical level of any per-pixel measure (edge strength, say): the mean over each cell,
 * filled in from the cells that look like tray, as for the colour.
 */
export function trayLevel(plane: Float32Array, width: number, height: number, bg: Background): Float32Array {
  const { cell, nx, ny } = bg;
  const sum = new Float32Array(nx * ny), cnt = new Float32Array(nx * ny);
  for (let y = 0; y < height; y++) {
    const row = ((y / cell) | 0) * nx;
    for (let x = 0; x < width; x++) {
      const c = row + ((x / cell) | 0);
      sum[c]! += plane[y * width + x]!;
      cnt[c]! += 1;
    }
  }
  const weight = new Float32Array(nx * ny);
  for (let c = 0; c < nx * ny; c++) {
    sum[c] = sum[c]! / Math.max(1, cnt[c]!);
    weight[c] = bg.foreign[c] ? 0 : 1;
  }
  return fillFromTray([sum], weight, nx, ny, [median(sum)])[0]!;
}
