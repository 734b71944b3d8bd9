/**
 * Face art as ink masks for the renderer: a fixed pool of art styles (index 0 is the default
 * look, the rest drawn once from a fixed seed), each class rasterised lazily once per style.
 * The pool is the same in every process, so a render depends only on its own seed.
 */
import { createRng } from '../../shared/rng.js';
import { DEFAULT_ART_STYLE, faceArt, randomArtStyle, type ArtStyle } from '../faces/art.js';
import { FACE_CLASSES, type FaceClass } from '../faces/classes.js';
import { rasterizeArt } from '../faces/raster.js';

export const ART_STYLE_POOL = 40;
export const MASK_SIZE = 128;

const styles: ArtStyle[] = [];
const masks = new Map<string, Float32Array>();

export function artStyle(index: number): ArtStyle {
  if (!Number.isInteger(index) || index < 0 || index >= ART_STYLE_POOL) {
    throw new RangeError(`artStyle: index must be 0..${ART_STYLE_POOL - 1}, got ${index}`);
  }
  while (styles.length <= index) {
    const k = styles.length;
    styles.push(k === 0 ? { ...DEFAULT_ART_STYLE } : randomArtStyle(createRng(`clew-art-style-${k}`)));
  }
  return styles[index]!;
}

/** The ink mask (MASK_SIZE², 0..1) of a class in a pool style. */
export function inkMask(cls: FaceClass, styleIndex: number): Float32Array {
  const key = `${cls}|${styleIndex}`;
  let mask = masks.get(key);
  if (!mask) {
    mask = rasterizeArt(faceArt(cls, artStyle(styleIndex)), MASK_SIZE);
    masks.set(key, mask);
  }
  return mask;
}

/** Bilinear sample of a mask at face coordinates u, v in 0..1 (0 outside). */
export function sampleMask(mask: Float32Array, u: number, v: number): number {
  // Inlined (no closures): this runs for every die pixel.
  const x = u * MASK_SIZE - 0.5, y = v * MASK_SIZE - 0.5;
  const xi = Math.floor(x), yi = Math.floor(y);
  if (xi < -1 || yi < -1 || xi >= MASK_SIZE || yi >= MASK_SIZE) return 0;
  const tx = x - xi, ty = y - yi;
  const x0ok = xi >= 0, x1ok = xi + 1 < MASK_SIZE, y0ok = yi >= 0, y1ok = yi + 1 < MASK_SIZE;
  const r0 = yi * MASK_SIZE, r1 = r0 + MASK_SIZE;
  const a = x0ok && y0ok ? mask[r0 + xi]! : 0;
  const b = x1ok && y0ok ? mask[r0 + xi + 1]! : 0;
  const c = x0ok && y1ok ? mask[r1 + xi]! : 0;
  const d = x1ok && y1ok ? mask[r1 + xi + 1]! : 0;
  return (a + (b - a) * tx) * (1 - ty) + (c + (d - c) * tx) * ty;
}

/** Rasterise every class in every pool style now (about a second or two), e.g. before timing renders. */
export function warmArtCache(): void {
  for (let s = 0; s < ART_STYLE_POOL; s++) for (const cls of FACE_CLASSES) inkMask(cls, s);
}
