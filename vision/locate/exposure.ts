/**
 * Dim and flat frames: a room with little light, a webcam's washed-out picture, haze on a lens.
 * The locator's evidence is measured in units of the tray's own texture, which scales with the
 * picture, but its floors (evidence.ts: the lightness and chroma a flat tray is still allowed) are
 * fixed. In a frame at half the light, or at 0.6 of its contrast, a die's difference from the tray
 * falls under them: the real Catan frames lost 3 of 16 dice at half the light and 9 of 16 at 0.4 of
 * their contrast, and the same frames stretched back lost none. So a frame whose pixels span much
 * less than a camera's usual range is stretched before it is located (one gain and one offset for
 * all three channels, so hues keep their direction); frames with the usual range are located as
 * they are, byte for byte (docs/notes/vision-locate.md, "Dim and flat frames").
 */
import { clampRound } from '../image/image.js';
import type { RgbImage } from '../types.js';
import { u8, type FrameScratch } from './scratch.js';

/** Share of pixels left out at each end of the range (glints, a few dead pixels). */
const TAIL = 0.005;
/**
 * A frame whose pixels span less than this (of 255) is stretched. The real Catan frames span
 * 175–222; at half the light 90–110, at 0.6 of their contrast about 120.
 */
export const FLAT_RANGE = 150;
/** What a stretched frame spans: about the real frames' own range. */
const TARGET_LOW = 10;
const TARGET_HIGH = 215;
/** Pixels looked at: about this many, evenly spaced (a histogram, not every pixel of a 12 MP photo). */
const SAMPLES = 40_000;

export interface ExposureRange {
  /** The darkest channel value, 0.5 % of the way up (of each pixel's darkest channel). */
  low: number;
  /** The brightest channel value, 0.5 % from the top (of each pixel's brightest channel). */
  high: number;
}

/** The frame's range of values: the darkest pixels' darkest channel and the brightest pixels' brightest. */
export function exposureRange(image: RgbImage): ExposureRange {
  const { data } = image;
  const n = Math.floor(data.length / 3);
  const lowHist = new Uint32Array(256), highHist = new Uint32Array(256);
  const step = Math.max(1, Math.floor(n / SAMPLES));
  let count = 0;
  for (let p = 0; p < n; p += step, count++) {
    const r = data[3 * p]!, g = data[3 * p + 1]!, b = data[3 * p + 2]!;
    lowHist[r < g ? (r < b ? r : b) : g < b ? g : b]!++;
    highHist[r > g ? (r > b ? r : b) : g > b ? g : b]!++;
  }
  const tail = Math.floor(TAIL * count);
  let low = 0;
  for (let seen = 0; low < 255 && (seen += lowHist[low]!) <= tail; ) low++;
  let high = 255;
  for (let seen = 0; high > 0 && (seen += highHist[high]!) <= tail; ) high--;
  return { low, high };
}

/** The one gain and offset that stretch a dim or flat frame (value' = value × gain + offset), and the range they were measured from. */
export interface ExposureStretch extends ExposureRange {
  gain: number;
  offset: number;
}

/**
 * The stretch a frame needs: undefined when it spans `FLAT_RANGE` or more already (or is one flat
 * colour, which no stretch makes a picture). Measured on the frame alone, so a frame and the empty
 * tray it is compared with can both be stretched by the frame's (tray-reference.ts, `stretched`).
 *
 * The whole stretch or none: a stretch that faded out between 120 and 150 (so that frames near
 * the limit would not be located one way, then the other) found fewer dice on the development
 * seeds' rendered scenes than either (571 of 736 faded from 135, 573 unstretched, 582 whole).
 */
export function exposureStretch(image: RgbImage): ExposureStretch | undefined {
  const { low, high } = exposureRange(image);
  const span = high - low;
  if (span >= FLAT_RANGE || span < 8) return undefined;
  const gain = (TARGET_HIGH - TARGET_LOW) / span;
  return { low, high, gain, offset: TARGET_LOW - low * gain };
}

/**
 * A frame compared with the empty tray is stretched, with its tray, only where it spans less than
 * this: the comparison's floors sit on top of the differences' own measured spread, and in a
 * frame of the usual light that happens to span 120–150 (many rendered ones) the dice clear them
 * already, so a stretch only lifts the tray's noise. On the locator's development cases against
 * their empty trays, stretching every frame under 150 found 9 fewer dice (1,271 against 1,280 of
 * 1,498) with 5 more boxes on no die; under 120, 3 more with 3 fewer; black dice on a dark table
 * and trays at half the light kept nearly all their gain (docs/notes/vision-locate.md, "Dim
 * frames against the empty tray").
 */
export const TRAY_FLAT_RANGE = 120;

/** The stretch a frame compared with its empty tray needs (both stretched alike), if any. */
export function trayStretch(image: RgbImage): ExposureStretch | undefined {
  const stretch = exposureStretch(image);
  return stretch && stretch.high - stretch.low < TRAY_FLAT_RANGE ? stretch : undefined;
}

/** A picture with a stretch applied (rounded and clamped; lent by `scratch` where given: never for a picture that is kept). */
export function applyStretch(image: RgbImage, stretch: Pick<ExposureStretch, 'gain' | 'offset'>, scratch?: FrameScratch): RgbImage {
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = clampRound(v * stretch.gain + stretch.offset);
  const src = image.data;
  const n = src.length;
  const out = u8(n, scratch);
  let i = 0;
  if (src.byteOffset % 4 === 0) {
    // Four bytes to a 32-bit word, each byte looked up in its own lane (whatever the byte order):
    // twice as fast as byte by byte.
    const words = n >> 2;
    const s = new Uint32Array(src.buffer, src.byteOffset, words), o = new Uint32Array(out.buffer, out.byteOffset, words);
    for (let k = 0; k < words; k++) {
      const w = s[k]!;
      o[k] = lut[w & 255]! | (lut[(w >>> 8) & 255]! << 8) | (lut[(w >>> 16) & 255]! << 16) | (lut[w >>> 24]! << 24);
    }
    i = words << 2;
  }
  for (; i < n; i++) out[i] = lut[src[i]!]!;
  return { width: image.width, height: image.height, data: out };
}
