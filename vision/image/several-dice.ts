/**
 * A picture read as one die (`readCrops`, `npm run dice -- --crop`) that shows several whole
 * dice: the reading is of one of them, or of the whole picture, and the picture does not say
 * which die was meant. Such a reading is kept, marked for a person to check, its confidence
 * capped at one in n, and says how many dice the picture shows (docs/notes/vision-model.md,
 * "Pictures of several dice read as one").
 *
 * Pure, and it reuses what the framing's locator found (`Framed.found`): no second look.
 */
import type { LocatedDie } from '../locate/index.js';

/** What the locator found in a picture of one die, in the coordinates of the picture it looked in. */
export interface FoundInPicture {
  dice: readonly LocatedDie[];
  width: number;
  height: number;
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
 * picture cuts is not whole). Two or more: the picture is not of one die.
 */
export function wholeDiceIn(found: FoundInPicture): number {
  const { width, height } = found;
  const least = WHOLE_DIE_SIDE * Math.max(width, height);
  return found.dice.filter(({ box: [x0, y0, x1, y1], fromPips }) => {
    if (fromPips) return false;
    if (Math.max(x1 - x0, y1 - y0) < least) return false;
    return x0 >= 1 && y0 >= 1 && x1 <= width - 1 && y1 <= height - 1;
  }).length;
}

/**
 * A reading of a picture that shows `dice` whole dice: kept as it is for fewer than two; else
 * marked uncertain, its confidence at most 1 / dice (which of them the picture means it does not
 * say), and `diceInPicture` set.
 */
export function readAsOneOfSeveral<R extends { confidence: number; uncertain: boolean }>(reading: R, dice: number): R & { diceInPicture?: number } {
  if (!(dice >= 2)) return reading;
  return { ...reading, confidence: Math.min(reading.confidence, 1 / dice), uncertain: true, diceInPicture: dice };
}
