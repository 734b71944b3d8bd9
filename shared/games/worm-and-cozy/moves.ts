/**
 * Worm & Cozy moves: plain JSON, cells by name. Table moves (the roll, the end of the hour) have no
 * `player`; every other move is one player's choice, or their paper sheet, and carries `player`.
 */
import { z } from 'zod';
import { sheetSchema } from './sheet.js';
import { DIRS, ORGAN_TYPES, SHAPE_NAMES, type Dir, type OrganType, type ShapeName } from './state.js';

const cell = z.string().regex(/^[A-Za-z]\d{1,2}$/, 'a cell like "C7"');
const player = z.string().min(1).max(64);
const shape = z.enum(SHAPE_NAMES as [ShapeName, ...ShapeName[]]);
const organ = z.enum(ORGAN_TYPES as [OrganType, ...OrganType[]]);
const dir = z.enum(DIRS as [Dir, ...Dir[]]);
const wormId = z.number().int().min(1).max(999);

export const moveSchema = z.discriminatedUnion('type', [
  /** The table records this hour's roll (faces as labels). */
  z.object({ type: z.literal('roll'), shape, organs: z.tuple([organ, organ]) }).strict(),
  /** The table ends the hour (unfinished choices are dropped) and moves to the next. */
  z.object({ type: z.literal('endHour') }).strict(),
  /**
   * Brains: set die 0 (shape) or 1, 2 (organ dice) to `face`, for this player only. With `brain`, fill
   * in that brain (on a worm touching this hour's region); without, use a brain that acted last hour.
   */
  z.object({ type: z.literal('changeDie'), player, die: z.union([z.literal(0), z.literal(1), z.literal(2)]), face: z.string().min(1).max(8), brain: cell.optional() }).strict(),
  /** Option A: draw a worm of the rolled shape, cells in path order (either end first). */
  z.object({ type: z.literal('placeWorm'), player, cells: z.array(cell).length(5) }).strict(),
  /** Option B, or the organ a pending decision asks for (option A's organ, a mouth's, a baby's). */
  z.object({ type: z.literal('addOrgan'), player, organ, cell, facing: dir.optional() }).strict(),
  /** Option C: each organ on this worm may act. */
  z.object({ type: z.literal('activate'), player, worm: wormId }).strict(),
  /** Have this organ act (from the pending list, or one organ on a conga-line worm). */
  z.object({ type: z.literal('act'), player, cell }).strict(),
  /** The acting eye adds a food in a blank cell it can see. */
  z.object({ type: z.literal('food'), player, cell }).strict(),
  /**
   * The acting heart grows the worm by these cells, in order, from one tip. `from` names the tip
   * cell where a first cell touches both tips.
   */
  z.object({ type: z.literal('grow'), player, cells: z.array(cell).min(1).max(100), from: cell.optional() }).strict(),
  /** Choose the conga line for the acting tail (worm ids in link order, as listed). */
  z.object({ type: z.literal('congaLine'), player, worms: z.array(wormId).min(2).max(100) }).strict(),
  /** Choose the acting collar's partner. */
  z.object({ type: z.literal('partner'), player, worm: wormId }).strict(),
  /** One collar action: place a baby of 2 or 3 cells (a path). */
  z.object({ type: z.literal('baby'), player, cells: z.array(cell).min(2).max(3) }).strict(),
  /** One collar action: give each of our babies made this hour an organ. */
  z.object({ type: z.literal('babyOrgans'), player }).strict(),
  /** Decline the top pending decision (stop adding foods, stop growing, stop acting...). */
  z.object({ type: z.literal('pass'), player }).strict(),
  /** Nothing (more) this hour: declines every pending optional decision. */
  z.object({ type: z.literal('done'), player }).strict(),
  /**
   * Once the game is over: `player`'s finished paper sheet (the sheet file of *Score a sheet*),
   * scored for that seat instead of its digital twin. Given again, it replaces the earlier one.
   */
  z.object({ type: z.literal('paperSheet'), player, sheet: sheetSchema }).strict(),
]);

export type CozyMove = z.infer<typeof moveSchema>;
export type CozyMoveType = CozyMove['type'];
/** A player's choice during an hour (the paper sheet is given after the last one). */
export type PlayerMove = Exclude<CozyMove, { type: 'roll' } | { type: 'endHour' } | { type: 'paperSheet' }>;

export function isPlayerMove(move: CozyMove): move is PlayerMove {
  return move.type !== 'roll' && move.type !== 'endHour' && move.type !== 'paperSheet';
}
