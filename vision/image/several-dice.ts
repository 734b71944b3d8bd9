/**
 * A picture read as one die (`readCrops`, `npm run dice -- --crop`) that shows several whole
 * dice: the reading is of one of them, or of the whole picture, and the picture does not say
 * which die was meant. Such a reading is kept, marked for a person to check, its confidence
 * capped at one in n, and says how many dice the picture shows (docs/notes/vision-model.md,
 * "Pictures of several dice read as one").
 *
 * Pure, and it reuses what the framing's locator found (`Framed.found`), including its second
 * look for small dice, which the framing takes only in a large picture with nothing of a fifth.
 */
import type { LocatedDie } from '../locate/index.js';
import type { Box } from '../types.js';

/** What the locator found in a picture of one die, in the coordinates of the picture it looked in. */
export interface FoundInPicture {
  dice: readonly LocatedDie[];
  width: number;
  height: number;
  /**
   * A second look for small dice (down to a fortieth of the longer side), taken only where the
   * first found nothing of a fifth and the picture is large (framing.ts): a whole tray's dice.
   */
  small?: readonly LocatedDie[];
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
 * at least `WHOLE_DIE_SIDE` of the picture's longer side, and clear of its edges (a neighbour the
 * picture cuts is not whole). Two or more: the picture is not of one die. Fewer, and the look for
 * small dice (`found.small`: a whole tray photo, its dice a few hundredths of its side) counts its
 * dice under a tenth of the side (a close die's pips are more) with their marks seen inside, a
 * die-like score and a die's squarish box, clear of the edges; two or more of those count instead.
 */
export function wholeDiceIn(found: FoundInPicture): number {
  const { width, height } = found;
  const clear = ([x0, y0, x1, y1]: Box) => x0 >= 1 && y0 >= 1 && x1 <= width - 1 && y1 <= height - 1;
  const least = WHOLE_DIE_SIDE * Math.max(width, height);
  const whole = found.dice.filter(({ box, fromPips }) => !fromPips && sideOf(box) >= least && clear(box)).length;
  if (whole >= 2 || !found.small) return whole;
  // Under a tenth only: a close die's pips are 11–15 % of the picture, however large it is.
  const under = SMALL_DIE_BELOW * Math.max(width, height);
  const small = found.small.filter(({ box, fromPips, marked, score }) => !fromPips && marked === true && score >= SMALL_DIE_SCORE && sideOf(box) < under && squareish(box) && clear(box)).length;
  return small >= 2 ? small : whole;
}

/** Small dice counted are under this share of the picture's longer side (what the first look sees, framing.ts). */
export const SMALL_DIE_BELOW = 0.1;

/** Least locator score of a small die counted (a die-like region, not a stain). */
export const SMALL_DIE_SCORE = 0.5;

const sideOf = ([x0, y0, x1, y1]: Box) => Math.max(x1 - x0, y1 - y0);
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
