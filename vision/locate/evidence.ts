/**
 * Per-pixel evidence that a pixel is not tray: its CIELAB difference from the estimated tray colour
 * at that spot, in units of the tray's own texture there (so wood grain or felt fuzz needs more
 * contrast than a plain card does), lightness and chroma each against their own texture.
 */
import { trayLevel, type Background } from './background.js';
import type { RgbImage } from '../types.js';
import { LabStretch, type LabPlanes } from './lab.js';
import { f32, type FrameScratch } from './scratch.js';

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

export function trayEvidence(lab: LabPlanes, bg: Background, options: EvidenceOptions = {}, scratch?: FrameScratch): Float32Array {
  const { width, height } = lab;
  const floor = options.noiseFloor ?? 2.5;
  const chromaFloor = options.chromaFloor ?? 2;
  const out = f32(width * height, scratch);
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
 *
 * The 3×3 window slides along each row in local variables (three new values per plane per pixel
 * instead of eight), the sums taken in the textbook order.
 */
export function edgeStrength(lab: LabPlanes, scratch?: FrameScratch): Float32Array {
  const { width: w, height: h } = lab;
  const out = f32(w * h, scratch);
  const { L, a, b } = lab;
  for (let y = 1; y < h - 1; y++) {
    const r = y * w;
    // Columns x-1 (l) and x (m) of rows above (u), this (c) and below (d), per plane.
    let Lul = L[r - w]!, Lum = L[r - w + 1]!, Lcl = L[r]!, Lcm = L[r + 1]!, Ldl = L[r + w]!, Ldm = L[r + w + 1]!;
    let aul = a[r - w]!, aum = a[r - w + 1]!, acl = a[r]!, acm = a[r + 1]!, adl = a[r + w]!, adm = a[r + w + 1]!;
    let bul = b[r - w]!, bum = b[r - w + 1]!, bcl = b[r]!, bcm = b[r + 1]!, bdl = b[r + w]!, bdm = b[r + w + 1]!;
    for (let i = r + 1, end = r + w - 1; i < end; i++) {
      const Lur = L[i - w + 1]!, Lcr = L[i + 1]!, Ldr = L[i + w + 1]!;
      const aur = a[i - w + 1]!, acr = a[i + 1]!, adr = a[i + w + 1]!;
      const bur = b[i - w + 1]!, bcr = b[i + 1]!, bdr = b[i + w + 1]!;
      const Lgx = Lur + 2 * Lcr + Ldr - Lul - 2 * Lcl - Ldl;
      const Lgy = Ldl + 2 * Ldm + Ldr - Lul - 2 * Lum - Lur;
      const agx = aur + 2 * acr + adr - aul - 2 * acl - adl;
      const agy = adl + 2 * adm + adr - aul - 2 * aum - aur;
      const bgx = bur + 2 * bcr + bdr - bul - 2 * bcl - bdl;
      const bgy = bdl + 2 * bdm + bdr - bul - 2 * bum - bur;
      out[i] = 0.125 * Math.sqrt(Lgx * Lgx + Lgy * Lgy + (agx * agx + agy * agy) + (bgx * bgx + bgy * bgy));
      Lul = Lum;
      Lum = Lur;
      Lcl = Lcm;
      Lcm = Lcr;
      Ldl = Ldm;
      Ldm = Ldr;
      aul = aum;
      aum = aur;
      acl = acm;
      acm = acr;
      adl = adm;
      adm = adr;
      bul = bum;
      bum = bur;
      bcl = bcm;
      bcm = bcr;
      bdl = bdm;
      bdm = bdr;
    }
  }
  return out;
}

/** Edge strength in units of the tray's own typical edge strength there (grain, fuzz, noise). */
export function edgeEvidence(lab: LabPlanes, bg: Background, floor = 0.6, scratch?: FrameScratch): Float32Array {
  const { width, height } = lab;
  const edges = edgeStrength(lab, scratch);
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

/** Scratch of the one live FineEvidence: the background interpolated per (row, cell) as needed. */
let fineCells = new Float32Array(0);
let fineReady = new Uint8Array(0);

/**
 * `trayEvidence` of single stretches of a finer image, computed on demand: the locator measures
 * each die's box on the full working frame but needs the evidence only around the dice (a tenth
 * of the frame or so), so the whole-frame planes are never made. Gives exactly the values
 * `trayEvidence(toLabPlanes(window), bg, { originX, originY, scale })` gives for those pixels.
 *
 * Its scratch memory is shared: only the most recently made instance may be used (the locator
 * makes one per frame and drops it before the next).
 */
export class FineEvidence {
  readonly image: RgbImage;
  private readonly bg: Background;
  private readonly xs: { i0: Int32Array; i1: Int32Array; t: Float32Array };
  private readonly ys: { i0: Int32Array; i1: Int32Array; t: Float32Array };
  private readonly floor: number;
  private readonly chromaFloor: number;
  /** Lab of the stretch being measured (scratch). */
  private readonly lab = new LabStretch();

  constructor(image: RgbImage, bg: Background, scale: number, options: Pick<EvidenceOptions, 'noiseFloor' | 'chromaFloor'> = {}) {
    this.image = image;
    this.bg = bg;
    this.floor = options.noiseFloor ?? 2.5;
    this.chromaFloor = options.chromaFloor ?? 2;
    this.xs = axisWeights(image.width, bg.cell, bg.nx, 0, scale);
    this.ys = axisWeights(image.height, bg.cell, bg.ny, 0, scale);
    const cells = image.height * bg.nx;
    if (fineReady.length < cells) {
      fineReady = new Uint8Array(cells);
      fineCells = new Float32Array(5 * cells);
    } else fineReady.fill(0, 0, cells);
  }

  /**
   * Cells a0..a1 of row y made ready: the background grid interpolated down to the row, as
   * `trayEvidence` does per row (L, a, b, 1/noiseL, 1/noiseC; five values per cell).
   */
  private cells(y: number, a0: number, a1: number): void {
    const nx = this.bg.nx;
    const { L: gL, a: ga, b: gb, noiseL: gn, noiseC: gc } = this.bg;
    const r0 = this.ys.i0[y]! * nx, r1 = this.ys.i1[y]! * nx, ty = this.ys.t[y]!, sy = 1 - ty;
    const ready = fineReady, out = fineCells;
    for (let i = a0; i <= a1; i++) {
      const c = y * nx + i;
      if (ready[c]) continue;
      ready[c] = 1;
      const o = 5 * c;
      out[o] = gL[r0 + i]! * sy + gL[r1 + i]! * ty;
      out[o + 1] = ga[r0 + i]! * sy + ga[r1 + i]! * ty;
      out[o + 2] = gb[r0 + i]! * sy + gb[r1 + i]! * ty;
      out[o + 3] = 1 / (gn[r0 + i]! * sy + gn[r1 + i]! * ty + this.floor);
      out[o + 4] = 1 / (gc[r0 + i]! * sy + gc[r1 + i]! * ty + this.chromaFloor);
    }
  }

  /**
   * Pixels x0..x1-1 of row y converted to Lab (into `this.lab`) and the background cells they
   * fall between made ready; the row's offset into `fineCells`.
   */
  private stretch(y: number, x0: number, x1: number): number {
    this.lab.read(this.image, y, x0, x1);
    this.cells(y, this.xs.i0[x0]!, this.xs.i1[x1 - 1]!);
    return 5 * y * this.bg.nx;
  }

  /** Evidence of the pixels x0..x1-1 of row y into `out` from `outAt` on. */
  span(y: number, x0: number, x1: number, out: Float32Array, outAt: number): void {
    const n = x1 - x0;
    if (n <= 0) return;
    const rowAt = this.stretch(y, x0, x1);
    const pL = this.lab.L, pa = this.lab.a, pb = this.lab.b;
    const xi0 = this.xs.i0, xi1 = this.xs.i1, xt = this.xs.t;
    const g = fineCells;
    for (let k = 0; k < n; k++) {
      const x = x0 + k;
      const a = rowAt + 5 * xi0[x]!, b = rowAt + 5 * xi1[x]!, t = xt[x]!, s = 1 - t;
      const dL = (pL[k]! - (g[a]! * s + g[b]! * t)) * (g[a + 3]! * s + g[b + 3]! * t);
      const kc = g[a + 4]! * s + g[b + 4]! * t;
      const da = (pa[k]! - (g[a + 1]! * s + g[b + 1]! * t)) * kc;
      const db = (pb[k]! - (g[a + 2]! * s + g[b + 2]! * t)) * kc;
      out[outAt + k] = Math.sqrt(dL * dL + da * da + db * db);
    }
  }

  /**
   * How pixels x0..x1-1 of row y differ from the tray, taken apart for telling a shadow from a
   * die (shadow.ts): `dark`, the lightness difference (negative: darker), and `tint`, what is left
   * of the colour difference once a shadow is allowed for, both in units of the tray's texture
   * as in `span`. A shadow is the tray's colour with less light: in Lab, L + 16, a and b all
   * shrink by one factor, so a pixel (L, a, b) under the tray (L0, a0, b0) is tinted by
   * (a, b) − r·(a0, b0) with r = (L + 16) / (L0 + 16). A shadow's tint is near 0; a coloured
   * die's is its colour.
   */
  shade(y: number, x0: number, x1: number, dark: Float32Array, tint: Float32Array): void {
    const n = x1 - x0;
    if (n <= 0) return;
    const rowAt = this.stretch(y, x0, x1);
    const pL = this.lab.L, pa = this.lab.a, pb = this.lab.b;
    const xi0 = this.xs.i0, xi1 = this.xs.i1, xt = this.xs.t;
    const g = fineCells;
    for (let k = 0; k < n; k++) {
      const x = x0 + k;
      const a = rowAt + 5 * xi0[x]!, b = rowAt + 5 * xi1[x]!, t = xt[x]!, s = 1 - t;
      const L0 = g[a]! * s + g[b]! * t;
      dark[k] = (pL[k]! - L0) * (g[a + 3]! * s + g[b + 3]! * t);
      const r = Math.min(1, Math.max(0, (pL[k]! + 16) / (L0 + 16)));
      const kc = g[a + 4]! * s + g[b + 4]! * t;
      const da = (pa[k]! - r * (g[a + 1]! * s + g[b + 1]! * t)) * kc;
      const db = (pb[k]! - r * (g[a + 2]! * s + g[b + 2]! * t)) * kc;
      tint[k] = Math.sqrt(da * da + db * db);
    }
  }
}
