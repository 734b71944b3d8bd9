/**
 * Training-time augmentation of 64×64 crops (pure: the rng decides everything). Rendering is
 * the expensive part of training, so each rendered crop is reused many times, changed in ways a
 * real camera changes a die: a quarter turn (the camera's side), a mirror image where the face
 * allows it, small shifts and zooms (a locator's box error), exposure, white balance, gamma,
 * saturation, hue, blur and sensor noise.
 */
import { createRng, type Rng } from '../../shared/rng.js';
import { DICE_SETS, type DiceSetId } from '../../shared/dice.js';
import { classOf, type FaceClass } from '../faces/classes.js';

/** Faces whose mirror image is the same face (possibly turned): flipping them is honest. */
export const MIRROR_SAFE: ReadonlySet<FaceClass> = new Set<FaceClass>([
  'pips-1', 'pips-2', 'pips-3', 'pips-4', 'pips-5', 'pips-6', 'blank', 'X', 'shape-I', 'shape-U', 'shape-V', 'shape-W',
]);

/** Whether every face of the dice set is its own mirror image (pips: a d6), so a whole die may be mirrored. */
export function mirrorSafeSet(set: DiceSetId): boolean {
  return DICE_SETS[set].faces.every((f) => MIRROR_SAFE.has(classOf(set, f)));
}

export interface AugmentOptions {
  /** 0 = none … 1 = full strength. */
  strength: number;
  mirror: boolean;
  /**
   * Chance of cutting the crop at one side and repeating the last row or column outwards, as
   * `squareCrop` does when a die lies near the frame's edge or a loose crop is not square
   * (default 0.15; independent of strength).
   */
  edgeChance?: number;
  /**
   * Whether a quarter turn may be drawn (default true). False for an upright model: its crops
   * keep world up pointing up, and a quarter turn would break that.
   */
  turns?: boolean;
}

const SIZE = 64;
/** Scratch for the warp's per-column products (one thread runs one augmentation at a time). */
const WARP_COS_X = new Float64Array(SIZE);
const WARP_SIN_X = new Float64Array(SIZE);

function clamp255(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

/**
 * A 64×64×3 float crop (0..255 scale) from `src`: geometric warp by inverse mapping with
 * bilinear sampling and replicated edges (as squareCrop does), then photometric changes. Written
 * into `into` when given (every value is overwritten: a training batch reuses one buffer instead
 * of leaving the collector a new one per crop), else into a new array.
 */
export function augmentCrop(src: Uint8Array, rng: Rng, options: AugmentOptions, into?: Float32Array): Float32Array {
  if (src.length !== SIZE * SIZE * 3) throw new Error(`augmentCrop: expected a 64×64 RGB crop, got ${src.length} values`);
  if (into && into.length !== SIZE * SIZE * 3) throw new Error(`augmentCrop: the output buffer must hold ${SIZE * SIZE * 3} values, got ${into.length}`);
  const s = options.strength;
  const out = into ?? new Float32Array(SIZE * SIZE * 3);
  // Geometry: quarter turns, optional mirror, small zoom, rotation and shift (inverse map).
  const drawn = rng.int(0, 3);
  const quarter = options.turns === false ? 0 : drawn;
  const mirror = options.mirror && rng.next() < 0.5;
  const zoom = 1 + s * rng.range(-0.1, 0.12);
  const angle = s * rng.range(-0.12, 0.12);
  const tx = s * rng.range(-3, 3);
  const ty = s * rng.range(-3, 3);
  const turn = (quarter * Math.PI) / 2 + angle;
  const cos = Math.cos(turn) / zoom;
  const sin = Math.sin(turn) / zoom;
  const c = (SIZE - 1) / 2;
  // The inverse map's products per column and per row, each worked out once (the same operations,
  // in the same order, as per pixel: this loop was about 7 % of a training step).
  const cosX = WARP_COS_X, sinX = WARP_SIN_X;
  for (let x = 0; x < SIZE; x++) {
    const dx0 = (mirror ? SIZE - 1 - x : x) - c - tx;
    cosX[x] = cos * dx0;
    sinX[x] = sin * dx0;
  }
  const last = SIZE - 1;
  for (let y = 0; y < SIZE; y++) {
    const dy0 = y - c - ty;
    const sinY = sin * dy0;
    const cosY = cos * dy0;
    let o = y * SIZE * 3;
    for (let x = 0; x < SIZE; x++, o += 3) {
      let sx = c + cosX[x]! + sinY;
      let sy = c - sinX[x]! + cosY;
      sx = sx < 0 ? 0 : sx > last ? last : sx;
      sy = sy < 0 ? 0 : sy > last ? last : sy;
      const x0 = sx | 0; // sx ≥ 0: the floor
      const y0 = sy | 0;
      const x1 = x0 < last ? x0 + 1 : last;
      const y1 = y0 < last ? y0 + 1 : last;
      const fx = sx - x0;
      const fy = sy - y0;
      const a = (y0 * SIZE + x0) * 3, b = (y0 * SIZE + x1) * 3, d = (y1 * SIZE + x0) * 3, e = (y1 * SIZE + x1) * 3;
      for (let k = 0; k < 3; k++) {
        const top = src[a + k]! + (src[b + k]! - src[a + k]!) * fx;
        const bottom = src[d + k]! + (src[e + k]! - src[d + k]!) * fx;
        out[o + k] = top + (bottom - top) * fy;
      }
    }
  }
  // No draw at all when the chance is 0, so callers without edges keep their random stream.
  const edgeChance = options.edgeChance ?? 0.15;
  if (edgeChance > 0 && rng.next() < edgeChance) repeatEdge(out, rng.int(0, 3), rng.int(3, 16));
  if (s <= 0) return out;
  // Blur (a 3×3 binomial pass) sometimes, before noise as in a camera.
  if (rng.next() < 0.25 * s) blur3(out);
  // Photometric: gains per channel (white balance) × exposure and gamma, through lookup tables
  // (values quantised to quarter levels); then saturation, hue and noise.
  const exposure = Math.exp(s * rng.range(-0.35, 0.35));
  const gamma = Math.exp(s * rng.range(-0.25, 0.25));
  const luts = [0, 1, 2].map(() => toneTable(exposure * Math.exp(s * rng.range(-0.12, 0.12)), gamma));
  const [lr, lg, lb] = luts as [Float32Array, Float32Array, Float32Array];
  const saturation = Math.exp(s * rng.range(-0.5, 0.35));
  const hueTurn = rng.next() < 0.3 * s ? rng.range(-Math.PI, Math.PI) : 0;
  const hc = Math.cos(hueTurn), hs = Math.sin(hueTurn);
  const noise = s * rng.range(0, 6);
  const noiseAt = rng.int(0, NOISE_TABLE.length - 1);
  const noiseStep = 2 * rng.int(1, 512) + 1; // odd: visits the whole table
  let ni = noiseAt;
  const mask = NOISE_TABLE.length - 1;
  for (let i = 0; i < out.length; i += 3) {
    let r = lr[Math.round(out[i]! * 4)]!;
    let g = lg[Math.round(out[i + 1]! * 4)]!;
    let b = lb[Math.round(out[i + 2]! * 4)]!;
    const grey = 0.299 * r + 0.587 * g + 0.114 * b;
    r = grey + (r - grey) * saturation;
    g = grey + (g - grey) * saturation;
    b = grey + (b - grey) * saturation;
    if (hueTurn !== 0) {
      // Rotate the chroma around the grey axis (YIQ), keeping luma.
      const i1 = 0.596 * r - 0.274 * g - 0.322 * b;
      const q1 = 0.211 * r - 0.523 * g + 0.312 * b;
      const i2 = i1 * hc - q1 * hs;
      const q2 = i1 * hs + q1 * hc;
      r = grey + 0.956 * i2 + 0.621 * q2;
      g = grey - 0.272 * i2 - 0.647 * q2;
      b = grey - 1.106 * i2 + 1.703 * q2;
    }
    if (noise > 0) {
      r += noise * NOISE_TABLE[(ni = (ni + noiseStep) & mask)]!;
      g += noise * NOISE_TABLE[(ni = (ni + noiseStep) & mask)]!;
      b += noise * NOISE_TABLE[(ni = (ni + noiseStep) & mask)]!;
    }
    out[i] = clamp255(r);
    out[i + 1] = clamp255(g);
    out[i + 2] = clamp255(b);
  }
  return out;
}

/** value·4 (0..1020) → 255·(min(255, value·gain)/255)^gamma. */
function toneTable(gain: number, gamma: number): Float32Array {
  const t = new Float32Array(1021);
  for (let i = 0; i <= 1020; i++) t[i] = 255 * Math.pow(clamp255((i / 4) * gain) / 255, gamma);
  return t;
}

/** Standard normal samples (fixed, seeded) that the noise walks through from a random start. */
const NOISE_TABLE: Float32Array = (() => {
  const rng = createRng('clew-augment-noise');
  return Float32Array.from({ length: 1 << 16 }, () => rng.normal());
})();

/**
 * Repeats the row or column `depth` pixels in from one side (0 top, 1 right, 2 bottom, 3 left)
 * over everything outside it: the streaks squareCrop leaves where its square leaves the image.
 */
export function repeatEdge(img: Float32Array, side: number, depth: number): void {
  const last = SIZE - 1;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      let sx = x, sy = y;
      if (side === 0 && y < depth) sy = depth;
      else if (side === 1 && x > last - depth) sx = last - depth;
      else if (side === 2 && y > last - depth) sy = last - depth;
      else if (side === 3 && x < depth) sx = depth;
      else continue;
      const o = (y * SIZE + x) * 3, q = (sy * SIZE + sx) * 3;
      img[o] = img[q]!;
      img[o + 1] = img[q + 1]!;
      img[o + 2] = img[q + 2]!;
    }
  }
}

function blur3(img: Float32Array): void {
  const tmp = new Float32Array(img.length);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const xl = Math.max(0, x - 1), xr = Math.min(SIZE - 1, x + 1);
      for (let k = 0; k < 3; k++) {
        tmp[(y * SIZE + x) * 3 + k] = 0.25 * img[(y * SIZE + xl) * 3 + k]! + 0.5 * img[(y * SIZE + x) * 3 + k]! + 0.25 * img[(y * SIZE + xr) * 3 + k]!;
      }
    }
  }
  for (let y = 0; y < SIZE; y++) {
    const yu = Math.max(0, y - 1), yd = Math.min(SIZE - 1, y + 1);
    for (let x = 0; x < SIZE; x++) {
      for (let k = 0; k < 3; k++) {
        img[(y * SIZE + x) * 3 + k] = 0.25 * tmp[(yu * SIZE + x) * 3 + k]! + 0.5 * tmp[(y * SIZE + x) * 3 + k]! + 0.25 * tmp[(yd * SIZE + x) * 3 + k]!;
      }
    }
  }
}
