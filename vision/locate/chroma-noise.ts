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
 * more boxes on nothing in 88 and cost 17 ms.
 */
import type { LabPlanes } from './lab.js';

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
export function withoutColourNoise(lab: LabPlanes): LabPlanes | undefined {
  const level = chromaNoiseLevel(lab);
  return level > COLOUR_NOISE_LEVEL ? smoothChroma(lab, { chromaScale: CHROMA_SCALE_PER_LEVEL * level }) : undefined;
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
 * differs by far more than the noise. L is left as it is. Returns new planes.
 */
export function smoothChroma(lab: LabPlanes, options: ChromaSmoothing = {}): LabPlanes {
  const { width: w, height: h, L, a, b } = lab;
  const r = options.radius ?? 2;
  const s = options.lightnessScale ?? 4;
  const c = options.chromaScale ?? Infinity;
  // Weights by the squared scaled difference d², tabulated in steps of 1/16 up to 16.
  const steps = 16 * 16;
  const table = Float32Array.from({ length: steps + 1 }, (_, k) => Math.exp(-k / 16 / 2));
  const invL = 1 / (s * s), invC = c === Infinity ? 0 : 1 / (c * c);
  const outA = new Float32Array(w * h), outB = new Float32Array(w * h);
  const offsets = new Int32Array((2 * r + 1) ** 2);
  for (let dy = -r, k = 0; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) offsets[k++] = dy * w + dx;
  const weigh = (j: number, l: number, ai: number, bi: number): number => {
    const dl = L[j]! - l, da = a[j]! - ai, db = b[j]! - bi;
    const k = ((dl * dl * invL + (da * da + db * db) * invC) * 16 + 0.5) | 0;
    return k > steps ? 0 : table[k]!;
  };
  for (let y = 0; y < h; y++) {
    const inside = y >= r && y < h - r;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const l = L[i]!, ai = a[i]!, bi = b[i]!;
      let sw = 0, sa = 0, sb = 0;
      if (inside && x >= r && x < w - r) {
        // Inside: the window's offsets need no bounds.
        for (let k = 0; k < offsets.length; k++) {
          const j = i + offsets[k]!;
          const wt = weigh(j, l, ai, bi);
          sw += wt;
          sa += wt * a[j]!;
          sb += wt * b[j]!;
        }
      } else {
        for (let v = Math.max(0, y - r); v <= Math.min(h - 1, y + r); v++) {
          for (let u = Math.max(0, x - r); u <= Math.min(w - 1, x + r); u++) {
            const j = v * w + u;
            const wt = weigh(j, l, ai, bi);
            sw += wt;
            sa += wt * a[j]!;
            sb += wt * b[j]!;
          }
        }
      }
      // The pixel itself always weighs 1, so sw > 0.
      outA[i] = sa / sw;
      outB[i] = sb / sw;
    }
  }
  return { width: w, height: h, L, a: outA, b: outB };
}
