/**
 * Flat bars round a picture: rows or columns of one colour that end in a sharp step into the
 * photo. A crop cut past its photo's edge comes back with black rows where the photo ended (one
 * of the real Catan crops has four), pictures padded to a square carry them on purpose, and so
 * does a tray frame from a camera or video pipeline that letterboxes. Read as they are, a
 * picture's bars are part of its die's surroundings, which training never showed in one flat
 * colour (`squareCrop` repeats a frame's edge outwards instead, which training does show), and a
 * frame's bars have edges the locator takes for dice. So the reader works inside them
 * (framing.ts for pictures of one die, reader.ts for frames).
 *
 * A photo's own plain background is not a bar, however flat (a render's noiseless card, a phone's
 * smoothed table): it ends where the die begins, and the die fills only part of that line. A bar
 * ends along its whole length.
 */
import type { Box, RgbImage } from '../types.js';
import { cropRect } from './image.js';

/**
 * A line is flat when no channel spreads by more than this (0..255). Pure black bars in the
 * real crop spread by at most 3.2 after JPEG; the first row of photo beside them by 19.
 */
const FLAT_SPREAD = 4.5;

/** A bar keeps one colour: each line's mean within this of the bar's outermost line. */
const SAME_COLOUR = 10;

/** A pixel differs from the bar when some channel is this far from the bar's colour. */
const STEP = 25;

/**
 * The bar ends in a step: within STEP_WITHIN lines past its flat lines (JPEG rings beside an
 * edge for a line or three), a line at least this share of whose pixels differ from the bar. A
 * plain background's line where a die begins is mostly background still: rendered pictures of
 * one die cut at 1.5× its box lose their background to a half share 11 times in 400, to this
 * share never.
 */
const STEP_SHARE = 0.8;
const STEP_WITHIN = 4;

/** At most this share of the picture's side is taken off at each end, so a flat picture is left alone. */
const MAX_SHARE = 0.35;

type Colour = [number, number, number];

interface Lines {
  /** The mean colour and the largest channel spread of line i. */
  stats(i: number): { mean: Colour; spread: number };
  /** The share of line i's pixels that differ from `colour` (by STEP in some channel). */
  differing(i: number, colour: Colour): number;
}

/** Rows or columns of the image, each over the span [from, to) of the other axis. */
function linesOf(image: RgbImage, along: 'row' | 'column', from: number, to: number): Lines {
  const { width, data } = image;
  const n = to - from;
  const at = (i: number, j: number) => (along === 'row' ? i * width + j : j * width + i) * 3;
  // Pixel j of line i lies at start(i) + j·stride.
  const stride = along === 'row' ? 3 : width * 3;
  return {
    stats(i) {
      // Sums of bytes and of their squares are whole numbers far below 2^53, exact in any order.
      let r = 0, g = 0, b = 0, r2 = 0, g2 = 0, b2 = 0;
      for (let o = at(i, from), end = o + n * stride; o < end; o += stride) {
        const vr = data[o]!, vg = data[o + 1]!, vb = data[o + 2]!;
        r += vr;
        g += vg;
        b += vb;
        r2 += vr * vr;
        g2 += vg * vg;
        b2 += vb * vb;
      }
      const s2 = [r2, g2, b2];
      const mean: Colour = [r / n, g / n, b / n];
      return { mean, spread: Math.max(...mean.map((m, k) => Math.sqrt(Math.max(0, s2[k]! / n - m * m)))) };
    },
    differing(i, colour) {
      let count = 0;
      for (let o = at(i, from), end = o + n * stride; o < end; o += stride) {
        if (Math.abs(data[o]! - colour[0]) >= STEP || Math.abs(data[o + 1]! - colour[1]) >= STEP || Math.abs(data[o + 2]! - colour[2]) >= STEP) count++;
      }
      return count / n;
    },
  };
}

interface Bar {
  /** Flat lines of one colour from the edge (0: none). */
  flat: number;
  colour: Colour;
  /** Lines to take off when the bar ends in a step (its flat lines and JPEG's ringing); null without one. */
  stepped: number | null;
}

/** The flat run of lines from `start` (stepping by `step`), and whether it ends in a step. */
function barAt(lines: Lines, start: number, step: 1 | -1, cap: number): Bar {
  const first = lines.stats(start);
  const none: Bar = { flat: 0, colour: first.mean, stepped: null };
  if (first.spread >= FLAT_SPREAD) return none;
  let flat = 1;
  while (flat < cap) {
    const l = lines.stats(start + step * flat);
    if (l.spread >= FLAT_SPREAD || l.mean.some((m, k) => Math.abs(m - first.mean[k]!) > SAME_COLOUR)) break;
    flat++;
  }
  if (flat >= cap) return none;
  return { flat, colour: first.mean, stepped: stepAfter(lines, start, step, flat, first.mean, cap) };
}

/**
 * Lines to take off for a flat run of `flat` lines in `colour` from `start`: up to the step, the
 * first line within STEP_WITHIN whose pixels differ from the colour on STEP_SHARE of it (the
 * lines between, JPEG's ringing, go with the run); null without a step.
 */
function stepAfter(lines: Lines, start: number, step: 1 | -1, flat: number, colour: Colour, cap: number): number | null {
  for (let k = 0; k < STEP_WITHIN && flat + k < cap; k++) {
    if (lines.differing(start + step * (flat + k), colour) >= STEP_SHARE) return flat + k;
  }
  return null;
}

/**
 * Lines to take off at two facing ends. A bar with a step counts; so does a flat run facing it
 * in the same colour without a clear step of its own, as a picture padded to a square has: a
 * grey pad beside a grey table steps along only part of its line.
 */
function facingBars(a: Bar, b: Bar): [number, number] {
  const same = a.flat > 0 && b.flat > 0 && a.colour.every((m, k) => Math.abs(m - b.colour[k]!) <= SAME_COLOUR);
  const depth = (x: Bar, other: Bar) => x.stepped ?? (same && other.stepped !== null ? x.flat : 0);
  return [depth(a, b), depth(b, a)];
}

/**
 * The box of the picture inside any flat bars at its edges (the whole picture when there are
 * none). Each end loses at most MAX_SHARE of the side.
 */
export function insideFlatBars(image: RgbImage): Box {
  const { width, height } = image;
  const capY = Math.floor(MAX_SHARE * height), capX = Math.floor(MAX_SHARE * width);
  // Columns first, then rows between any column bars. A bar's step must run along nearly its
  // whole line: the pads of a padded-to-square picture and a crop cut past its photo are on one
  // side or two facing sides.
  const cols = linesOf(image, 'column', 0, height);
  const leftBar = barAt(cols, 0, 1, capX), rightBar = barAt(cols, width - 1, -1, capX);
  const [left, right] = facingBars(leftBar, rightBar);
  const rows = linesOf(image, 'row', left, width - right);
  const topBar = barAt(rows, 0, 1, capY), bottomBar = barAt(rows, height - 1, -1, capY);
  const [top, bottom] = facingBars(topBar, bottomBar);
  if (left + right + top + bottom === 0) {
    const frame = frameAllRound(image, [leftBar, topBar, rightBar, bottomBar], capX, capY);
    if (frame) return frame;
  }
  return [left, top, width - right, height - bottom];
}

/**
 * Bars on all four sides (a frame round the picture) hide each other's steps: every line
 * crosses two other bars. Four flat runs of one colour are a frame when each steps along its
 * line between the other runs, on all four sides.
 */
function frameAllRound(image: RgbImage, bars: readonly Bar[], capX: number, capY: number): Box | null {
  const [l, t, r, b] = bars as [Bar, Bar, Bar, Bar];
  if (bars.some((x) => x.flat === 0) || !bars.every((x) => x.colour.every((m, k) => Math.abs(m - l.colour[k]!) <= SAME_COLOUR))) return null;
  const { width, height } = image;
  const cols = linesOf(image, 'column', t.flat, height - b.flat);
  const rows = linesOf(image, 'row', l.flat, width - r.flat);
  const left = stepAfter(cols, 0, 1, l.flat, l.colour, capX), right = stepAfter(cols, width - 1, -1, r.flat, r.colour, capX);
  const top = stepAfter(rows, 0, 1, t.flat, t.colour, capY), bottom = stepAfter(rows, height - 1, -1, b.flat, b.colour, capY);
  if (left === null || right === null || top === null || bottom === null) return null;
  return [left, top, width - right, height - bottom];
}

/** A picture without its flat bars, and where the part kept lies in the picture. */
export interface Unpadded {
  image: RgbImage;
  /** The kept part's top-left corner in the picture: add it to a box found in `image`. */
  offset: [number, number];
}

/** The picture inside its flat bars (the picture itself, offset 0, when it has none). */
export function withoutFlatBars(picture: RgbImage): Unpadded {
  const [x0, y0, x1, y1] = insideFlatBars(picture);
  if (x0 === 0 && y0 === 0 && x1 === picture.width && y1 === picture.height) return { image: picture, offset: [0, 0] };
  return { image: cropRect(picture, x0, y0, x1, y1), offset: [x0, y0] };
}

/** A box moved by `offset` (into the picture: +1; back into the kept part: -1). */
export function shiftBox(box: Box, offset: readonly [number, number], sign: 1 | -1 = 1): Box {
  return [box[0] + sign * offset[0], box[1] + sign * offset[1], box[2] + sign * offset[0], box[3] + sign * offset[1]];
}
