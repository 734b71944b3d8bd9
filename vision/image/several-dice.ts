/**
 * A picture read as one die (`readCrops`, `npm run dice -- --crop`) that shows several whole
 * dice: the reading is of one of them, or of the whole picture, and the picture does not say
 * which die was meant. Such a reading is kept, marked for a person to check, its confidence
 * capped at one in n, and says how many dice the picture shows (docs/notes/vision-model.md,
 * "Pictures of several dice read as one").
 *
 * Pure but for `showsMarks` (which the framing asks of the small dice it finds), and it reuses
 * what the framing's locator found (`Framed.found`), including its second look for small dice,
 * which the framing takes only in a large picture where its first look found no die.
 */
import { boxArea, intersection } from '../locate/boxes.js';
import type { LocatedDie } from '../locate/index.js';
import type { Box, RgbImage } from '../types.js';

/** What the locator found in a picture of one die, in the coordinates of the picture it looked in. */
export interface FoundInPicture {
  dice: readonly LocatedDie[];
  width: number;
  height: number;
  /**
   * A second look for small dice (down to a fortieth of the longer side), taken only where the
   * first found no die from its outline and the picture is large (framing.ts), kept where they
   * show a face's marks (`showsMarks`): a whole tray's dice.
   */
  small?: readonly LocatedDie[];
  /** The first look's finds of a tenth to a fifth of the longer side that show a face's marks. */
  middling?: readonly LocatedDie[];
}

/**
 * Least side of a whole die, as a share of the picture's longer side: a fifth, the size at which
 * the framing takes a die found inside as the picture's own (framing.ts, `MIN_LOCATED_SIDE`).
 * Smaller finds are mostly a close die's pips or glyph pieces (the Catan crops: up to six pips of
 * 11–15 px in a picture of 80–130 px). Not tuned, but checked on renders: a tenth / three
 * twentieths / a fifth / a quarter counted pieces of the one die as dice in 41 / 30 / 22 / 12 of
 * 2,100 pictures of one die, and two or more dice in 243 / 186 / 105 / 40 of 280 pictures of 2–8
 * dice (docs/notes/vision-model.md, "Pictures of several dice read as one").
 */
export const WHOLE_DIE_SIDE = 0.2;

/**
 * How many whole dice the picture shows: dice found from their outline (not inferred from pips),
 * at least `WHOLE_DIE_SIDE` of the picture's longer side, clear of its edges (a neighbour the
 * picture cuts is not whole), and boxes that overlap by more than `ONE_DIE_OVERLAP` of the smaller
 * taken as one die (a busy face's numeral or icon pieces in a tight close-up). Two or more: the
 * picture is not of one die. Fewer, and the look for small dice (`found.small`: a whole tray photo,
 * its dice a few hundredths of its side) counts its dice (`smallDiceIn`); two or more count instead.
 * Fewer still, the first look's dice of a tenth to a fifth that show marks (`found.middling`) are
 * counted the same way, where they spread wider than a face's pips (an enlarged close-up's pips are
 * that size too).
 */
export function wholeDiceIn(found: FoundInPicture): number {
  const { width, height } = found;
  const longer = Math.max(width, height);
  // The locator measures at its working size (640 px): in a larger picture the box of a die the
  // edge cuts can end a few pixels short of the edge.
  const margin = Math.max(1, EDGE_MARGIN * longer);
  const clear = ([x0, y0, x1, y1]: Box) => x0 >= margin && y0 >= margin && x1 <= width - margin && y1 <= height - margin;
  const least = WHOLE_DIE_SIDE * longer;
  const whole = oneEach(found.dice.filter(({ box, fromPips }) => !fromPips && sideOf(box) >= least && clear(box))).length;
  if (whole >= 2) return whole;
  const small = found.small ? smallDiceIn(found, clear, found.small, SMALL_DIE_BELOW) : 0;
  if (small >= 2) return small;
  const middling = found.middling ? smallDiceIn(found, clear, found.middling, WHOLE_DIE_SIDE, true) : 0;
  return middling >= 2 ? middling : whole;
}

/**
 * The small dice of a tray: each found from its outline with its marks seen inside, a die-like
 * score and a die's squarish box, under a tenth of the side and clear of the edges; not a piece of
 * anything larger found (a marbled die's patches, a glyph's parts, the pips of a die the first look
 * found or inferred); one each where boxes overlap; and of one size, as a tray's dice are (the
 * largest group within `SAME_SIZE` of each other). None on a printed cloth, whose blots are found
 * at every size. Marks that a glare spot lacks the framing checks (`showsMarks`).
 */
function smallDiceIn(found: FoundInPicture, clear: (box: Box) => boolean, small: readonly LocatedDie[], below: number, spread = false): number {
  const longer = Math.max(found.width, found.height);
  // Everything found, once: the middling dice are among the first look's.
  const everything = [...found.dice, ...(found.small ?? [])];
  const seen = everything.filter((d) => !d.fromPips);
  if (seen.length >= CLOTH_FINDS && Math.max(...seen.map((d) => sideOf(d.box))) >= CLOTH_SPREAD * Math.min(...seen.map((d) => sideOf(d.box)))) return 0;
  const under = below * longer;
  // Not a die inferred from pips: two close dice whose pips it grouped make a box 2.4–7 × theirs
  // (the real frames), as a worm face's pieces' inferred die does theirs.
  const pieceOf = (d: LocatedDie) => seen.some((f) => sideOf(f.box) > PIECE_SMALLER * sideOf(d.box) && intersection(d.box, f.box) > 0.5 * boxArea(d.box));
  const dice = oneEach(small.filter((d) => !d.fromPips && d.marked === true && d.score >= SMALL_DIE_SCORE && sideOf(d.box) < under && squareish(d.box) && clear(d.box) && !pieceOf(d)));
  let tray: readonly LocatedDie[] = [];
  for (const d of dice) {
    const like = dice.filter((e) => sideOf(e.box) >= sideOf(d.box) && sideOf(e.box) <= SAME_SIZE * sideOf(d.box));
    if (like.length > tray.length) tray = like;
  }
  if (spread && tray.length > 0 && tray.length <= FACE_MARKS) {
    const xs = tray.flatMap((d) => [d.box[0], d.box[2]]), ys = tray.flatMap((d) => [d.box[1], d.box[3]]);
    const extent = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    const sides = tray.map((d) => sideOf(d.box)).sort((a, b) => a - b);
    if (extent < GROUP_SPREAD * sides[sides.length >> 1]!) return 0;
  }
  return tray.length;
}

/**
 * Whether a small find shows a face's marks: of the inner 60 % of its box (the die's face, off its
 * outline), at least `MARKED_SHARE` differs from that part's median brightness by more than
 * `MARK_CONTRAST` levels. A glare spot or a pale blob on a dark cloth is even inside (0.4 % of
 * it, where a small die's pips are some 25 %), though the locator's edges round it pass for marks.
 */
export function showsMarks(image: RgbImage, [x0, y0, x1, y1]: Box): boolean {
  const w = x1 - x0, h = y1 - y0;
  const ix0 = Math.max(0, Math.round(x0 + 0.2 * w)), ix1 = Math.min(image.width, Math.round(x1 - 0.2 * w));
  const iy0 = Math.max(0, Math.round(y0 + 0.2 * h)), iy1 = Math.min(image.height, Math.round(y1 - 0.2 * h));
  const levels: number[] = [];
  for (let y = iy0; y < iy1; y++) {
    for (let x = ix0; x < ix1; x++) {
      const i = 3 * (y * image.width + x);
      levels.push((image.data[i]! + image.data[i + 1]! + image.data[i + 2]!) / 3);
    }
  }
  if (levels.length === 0) return false;
  const median = [...levels].sort((a, b) => a - b)[Math.floor((levels.length - 1) / 2)]!;
  return levels.filter((v) => Math.abs(v - median) > MARK_CONTRAST).length >= MARKED_SHARE * levels.length;
}

const MARK_CONTRAST = 20;
const MARKED_SHARE = 0.03;

/** Small dice counted are under this share of the picture's longer side (what the first look sees, framing.ts). */
export const SMALL_DIE_BELOW = 0.1;

/** Least locator score of a small die counted (a die-like region, not a stain). */
export const SMALL_DIE_SCORE = 0.5;

/**
 * A box this close to the picture's edge, as a share of its longer side (at least 1 px), is cut
 * by it: the locator measures at 640 px, so in a picture of 1,280 px a cut die's box ends up to
 * 2–3 px short of the edge.
 */
export const EDGE_MARGIN = 0.005;

/** Two finds overlapping by more than this share of the smaller are one die (its pieces). */
export const ONE_DIE_OVERLAP = 0.08;

/** Dice of one tray are within this ratio of each other's size (a die is no longer than 1.6 × its width, however it lies). */
export const SAME_SIZE = 1.6;

/** A small find mostly inside one more than this much larger is a piece of it. */
const PIECE_SMALLER = 1.3;

/**
 * A printed cloth: this many finds or more, the largest this many times the smallest. A tray's
 * dice are found at one size.
 */
const CLOTH_FINDS = 5;
const CLOTH_SPREAD = 2.5;

/**
 * Up to a face's six marks, dice of a tenth to a fifth count only where they spread over at least
 * this many times their size: a face's pips lie within about three and a half pip sizes (16 of 151
 * Catan crops enlarged × 3 were flagged without it).
 */
const FACE_MARKS = 6;
const GROUP_SPREAD = 4;

const sideOf = ([x0, y0, x1, y1]: Box) => Math.max(x1 - x0, y1 - y0);
/** One find for each die: of finds overlapping by more than `ONE_DIE_OVERLAP` of the smaller, the likeliest. */
function oneEach(finds: readonly LocatedDie[]): LocatedDie[] {
  const kept: LocatedDie[] = [];
  for (const d of [...finds].sort((a, b) => b.score - a.score)) {
    if (!kept.some((k) => intersection(k.box, d.box) > ONE_DIE_OVERLAP * Math.min(boxArea(k.box), boxArea(d.box)))) kept.push(d);
  }
  return kept;
}
/** A die seen from any side has a box no longer than about 1.6 × its width. */
const squareish = ([x0, y0, x1, y1]: Box) => Math.max(x1 - x0, y1 - y0) <= 1.6 * Math.min(x1 - x0, y1 - y0);

/**
 * A reading of a picture that shows `dice` whole dice: kept as it is for fewer than two; else
 * marked uncertain, its confidence at most 1 / dice (which of them the picture means it does not
 * say), and `diceInPicture` set.
 */
export function readAsOneOfSeveral<R extends { confidence: number; uncertain: boolean }>(reading: R, dice: number): R & { diceInPicture?: number } {
  if (!(dice >= 2)) return reading;
  return { ...reading, confidence: Math.min(reading.confidence, 1 / dice), uncertain: true, diceInPicture: dice };
}
