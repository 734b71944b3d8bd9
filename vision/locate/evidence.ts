/**
 * Per-pixel evidence that a pixel is not tray: its CIELAB difference from the estimated tray colour
 * at that spot, in units of the tray's own texture there (so wood grain or felt fuzz needs more
 * contrast than a plain card does), lightness and chroma each against their own texture.
 */
import { trayLevel, type Background } from './background.js';
import type { LabPlanes } from './lab.js';

export interface EvidenceOptions {
  /** Lab units added to the tray texture before dividing (sensor noise, JPEG). Default 2.5. */
  noiseFloor?: number;
  /** Chroma units added likewise (chroma noise is lower than lightness noise). Default 2. */
  chromaFloor?: number;
  /**
   * Where `lab` lies in the background's frame: its pixel (x, y) is the background frame's
   * ((x + originX) / scale, (y + originY) / scale). Lets a window of a finer image be compared
   * (defaults: origin 0, scale 1).
   */
  originX?: number;
  originY?: number;
  scale?: number;
}

/** Bilinear weights of cell centres along one axis, per pixel. */
function axisWeights(size: number, cell: number, cells: number, origin = 0, scale = 1): { i0: Int32Array; i1: Int32Array; t: Float32Array } {
  const i0 = new Int32Array(size), i1 = new Int32Array(size), t = new Float32Array(size);
  for (let x = 0; x < size; x++) {
    const u = (x + origin + 0.5) / scale / cell - 0.5;
    const f = Math.floor(u);
    const a = Math.min(cells - 1, Math.max(0, f));
    const b = Math.min(cells - 1, Math.max(0, f + 1));
    i0[x] = a;
    i1[x] = b;
    t[x] = a === b ? 0 : u - f;
  }
  return { i0, i1, t };
}

export function trayEvidence(lab: LabPlanes, bg: Background, options: EvidenceOptions = {}): Float32Array {
  const { width, height } = lab;
  const floor = options.noiseFloor ?? 2.5;
  const chromaFloor = options.chromaFloor ?? 2;
  const out = new Float32Array(width * height);
  const xs = axisWeights(width, bg.cell, bg.nx, options.originX, options.scale);
  const ys = axisWeights(height, bg.cell, bg.ny, options.originY, options.scale);
  const { nx } = bg;
  const gL = bg.L, ga = bg.a, gb = bg.b, gn = bg.noiseL, gc = bg.noiseC;
  const pL = lab.L, pa = lab.a, pb = lab.b;
  const xi0 = xs.i0, xi1 = xs.i1, xt = xs.t;
  // The background grid interpolated down to this row (one value per cell column).
  const cL = new Float32Array(nx), ca = new Float32Array(nx), cb = new Float32Array(nx);
  const cn = new Float32Array(nx), cc = new Float32Array(nx);
  for (let y = 0; y < height; y++) {
    const r0 = ys.i0[y]! * nx, r1 = ys.i1[y]! * nx, ty = ys.t[y]!, sy = 1 - ty;
    for (let i = 0; i < nx; i++) {
      cL[i] = gL[r0 + i]! * sy + gL[r1 + i]! * ty;
      ca[i] = ga[r0 + i]! * sy + ga[r1 + i]! * ty;
      cb[i] = gb[r0 + i]! * sy + gb[r1 + i]! * ty;
      cn[i] = 1 / (gn[r0 + i]! * sy + gn[r1 + i]! * ty + floor);
      cc[i] = 1 / (gc[r0 + i]! * sy + gc[r1 + i]! * ty + chromaFloor);
    }
    const base = y * width;
    for (let x = 0; x < width; x++) {
      const a = xi0[x]!, b = xi1[x]!, t = xt[x]!, s = 1 - t;
      const i = base + x;
      const dL = (pL[i]! - (cL[a]! * s + cL[b]! * t)) * (cn[a]! * s + cn[b]! * t);
      const kc = cc[a]! * s + cc[b]! * t;
      const da = (pa[i]! - (ca[a]! * s + ca[b]! * t)) * kc;
      const db = (pb[i]! - (cb[a]! * s + cb[b]! * t)) * kc;
      out[i] = Math.sqrt(dL * dL + da * da + db * db);
    }
  }
  return out;
}

/**
 * Edge strength: the Lab gradient magnitude (Sobel, per pixel), so that a die's outline shows even
 * where its body matches the tray (a white die on a light tray).
 */
export function edgeStrength(lab: LabPlanes): Float32Array {
  const { width: w, height: h } = lab;
  const out = new Float32Array(w * h);
  const sobel2 = (p: Float32Array, i: number): number => {
    const gx = p[i - w + 1]! + 2 * p[i + 1]! + p[i + w + 1]! - p[i - w - 1]! - 2 * p[i - 1]! - p[i + w - 1]!;
    const gy = p[i + w - 1]! + 2 * p[i + w]! + p[i + w + 1]! - p[i - w - 1]! - 2 * p[i - w]! - p[i - w + 1]!;
    return gx * gx + gy * gy;
  };
  const { L, a, b } = lab;
  for (let y = 1; y < h - 1; y++) {
    for (let i = y * w + 1, end = y * w + w - 1; i < end; i++) {
      out[i] = 0.125 * Math.sqrt(sobel2(L, i) + sobel2(a, i) + sobel2(b, i));
    }
  }
  return out;
}

/** Edge strength in units of the tray's own typical edge strength there (grain, fuzz, noise). */
export function edgeEvidence(lab: LabPlanes, bg: Background, floor = 0.6): Float32Array {
  const { width, height } = lab;
  const edges = edgeStrength(lab);
  const level = trayLevel(edges, width, height, bg);
  const xs = axisWeights(width, bg.cell, bg.nx);
  const ys = axisWeights(height, bg.cell, bg.ny);
  const row = new Float32Array(bg.nx);
  for (let y = 0; y < height; y++) {
    const r0 = ys.i0[y]! * bg.nx, r1 = ys.i1[y]! * bg.nx, ty = ys.t[y]!;
    for (let i = 0; i < bg.nx; i++) row[i] = 1 / (level[r0 + i]! * (1 - ty) + level[r1 + i]! * ty + floor);
    for (let x = 0; x < width; x++) {
      const t = xs.t[x]!;
      edges[y * width + x]! *= row[xs.i0[x]!]! * (1 - t) + row[xs.i1[x]!]! * t;
    }
  }
  return edges;
}
