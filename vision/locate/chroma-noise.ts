/**
 * Colour noise on the coarse frame: measured, and smoothed away only where it is there.
 *
 * A camera in dim light without its own colour denoising gives each channel its own noise. The
 * tray evidence divides by the tray's chroma texture, which in a clean frame is tiny, so colour
 * noise drowns coloured dice on wood (vision-locate.md, "Colour noise"). A plain 3×3 mean of the
 * chroma blurred a red die's yellow pips into an orange nearer the wood and lost clean frames'
 * dice; the smoothing here follows edges instead (`smoothChroma`). It is still done only where the
 * frame's quietest blocks show chroma that changes from pixel to pixel, which clean frames' chroma
 * (smoothed by demosaicing and JPEG's 4:2:0) does not: done on every rendered scene it made 11
 * more boxes on nothing in 88 (and 8 ms a frame).
 */
import type { LabPlanes } from './lab.js';
import { f32, type FrameScratch } from './scratch.js';

/** Side of the blocks the noise is measured over (coarse pixels). */
const BLOCK = 8;
/** Share of blocks below which the level is read: the quietest, where the tray is plain. */
const QUIET_SHARE = 0.25;

/**
 * The frame's fine-scale chroma: per block of 8×8 coarse pixels, the mean distance of (a, b) from
 * the mean of its four neighbours; the lower quartile over the blocks (plain tray, not edges).
 */
export function chromaNoiseLevel(lab: LabPlanes): number {
  const { width: w, height: h, a, b } = lab;
  const levels: number[] = [];
  for (let by = 1; by + BLOCK < h; by += BLOCK) {
    for (let bx = 1; bx + BLOCK < w; bx += BLOCK) {
      let sum = 0;
      for (let y = by; y < by + BLOCK; y++) {
        for (let x = bx, i = y * w + bx; x < bx + BLOCK; x++, i++) {
          const ra = a[i]! - (a[i - 1]! + a[i + 1]! + a[i - w]! + a[i + w]!) / 4;
          const rb = b[i]! - (b[i - 1]! + b[i + 1]! + b[i - w]! + b[i + w]!) / 4;
          sum += Math.sqrt(ra * ra + rb * rb);
        }
      }
      levels.push(sum / (BLOCK * BLOCK));
    }
  }
  if (!levels.length) return 0;
  levels.sort((p, q) => p - q);
  return levels[Math.floor(QUIET_SHARE * (levels.length - 1))]!;
}

/**
 * Above this level the frame has colour noise. Clean frames measure 0.2–0.9 (the real Catan
 * frames 0.74, at JPEG quality 30 0.2; most rendered scenes under 1, a few with the renderer's
 * strongest noise 1.4–2.9); the real frames with noise of σ 6 in each channel 1.8, σ 12 3.2.
 */
export const COLOUR_NOISE_LEVEL = 1.2;
/** The chroma scale of the smoothing, in units of the measured level (about 2.8 noise σ). */
const CHROMA_SCALE_PER_LEVEL = 2;

/**
 * The planes with their chroma smoothed if the frame shows colour noise, else undefined (a
 * clean frame pays only the measurement, about 0.6 ms at 320×320).
 */
export function withoutColourNoise(lab: LabPlanes, scratch?: FrameScratch): LabPlanes | undefined {
  const level = chromaNoiseLevel(lab);
  return level > COLOUR_NOISE_LEVEL ? smoothChroma(lab, { chromaScale: CHROMA_SCALE_PER_LEVEL * level }, scratch) : undefined;
}

export interface ChromaSmoothing {
  /** Window radius in coarse pixels (default 2: 5×5). */
  radius?: number;
  /** Lightness difference (Lab units) at which a neighbour's weight falls to e^-½ (default 4). */
  lightnessScale?: number;
  /** Chroma difference at which a neighbour's weight falls to e^-½ (default: none, lightness alone guides). */
  chromaScale?: number;
}

/**
 * (a, b) averaged over the neighbours of about the same colour (a bilateral filter whose range
 * term weighs lightness and chroma each on its own scale): noise within a plain area goes, edges
 * stay, a pip's because lightness marks it, a die's the tray's lightness because its chroma
 * differs by far more than the noise. L is left as it is. Returns new planes (lent by `scratch`
 * where given, with the sums).
 */
export function smoothChroma(lab: LabPlanes, options: ChromaSmoothing = {}, scratch?: FrameScratch): LabPlanes {
  const { width: w, height: h, L, a, b } = lab;
  const r = options.radius ?? 2;
  const s = options.lightnessScale ?? 4;
  const c = options.chromaScale ?? Infinity;
  // Weights by the squared scaled difference d², tabulated in steps of 1/16 up to 16.
  const steps = 16 * 16;
  const table = Float32Array.from({ length: steps + 1 }, (_, k) => Math.exp(-k / 16 / 2));
  const invL = 1 / (s * s), invC = c === Infinity ? 0 : 1 / (c * c);
  const n = w * h;
  // Sums of weights and weighted chroma per pixel, the pixel itself weighing 1. The weight of a
  // pair is symmetric, so each pair within the window is weighed once, for both its pixels, one
  // offset at a time along whole rows (half the weighing, and memory read in order).
  const sw = f32(n, scratch).fill(1), sa = f32(n, scratch), sb = f32(n, scratch);
  sa.set(a);
  sb.set(b);
  const kL = 16 * invL, kC = 16 * invC;
  for (let dy = 0; dy <= r; dy++) {
    for (let dx = -r; dx <= r; dx++) {
      if (dy === 0 && dx <= 0) continue;
      const off = dy * w + dx;
      const xs = Math.max(0, -dx), xe = Math.min(w, w - dx);
      for (let y = 0; y < h - dy; y++) {
        for (let i = y * w + xs, end = y * w + xe; i < end; i++) {
          const j = i + off;
          const ai = a[i]!, bi = b[i]!, aj = a[j]!, bj = b[j]!;
          const dl = L[j]! - L[i]!, da = aj - ai, db = bj - bi;
          const k = (dl * dl * kL + (da * da + db * db) * kC + 0.5) | 0;
          if (k > steps) continue;
          const wt = table[k]!;
          sw[i] = sw[i]! + wt;
          sa[i] = sa[i]! + wt * aj;
          sb[i] = sb[i]! + wt * bj;
          sw[j] = sw[j]! + wt;
          sa[j] = sa[j]! + wt * ai;
          sb[j] = sb[j]! + wt * bi;
        }
      }
    }
  }
  const outA = f32(n, scratch), outB = f32(n, scratch);
  for (let i = 0; i < n; i++) {
    outA[i] = sa[i]! / sw[i]!;
    outB[i] = sb[i]! / sw[i]!;
  }
  return { width: w, height: h, L, a: outA, b: outB };
}
