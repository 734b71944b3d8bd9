/**
 * Worm Derby moves: what the table reports. The roll comes from the camera (or a phone); the rest
 * is the referee or the player saying what happened on the course.
 */
import { z } from 'zod';
import { PIECEPACK_FACES } from './die-table.js';

const player = z.string().min(1).max(32);
const end = z.enum(['A', 'B']);

export const derbyMoveSchema = z.discriminatedUnion('type', [
  /** Setup: the player placed one of their dealt tiles face down on the course. */
  z.strictObject({ type: z.literal('place-obstacle'), player }),
  /** The active player's roll (from `diceMove`, or entered by hand). */
  z.strictObject({ type: z.literal('roll'), face: z.enum(PIECEPACK_FACES) }),
  /** Ace: the player moved one obstacle tile. */
  z.strictObject({ type: z.literal('move-obstacle'), player }),
  /** Ace, cannibal worms: the player put an eaten coin back on one end instead. */
  z.strictObject({ type: z.literal('return-coin'), player, end: end.optional() }),
  /** Ace: the player moved nothing (it is allowed; they still roll again). */
  z.strictObject({ type: z.literal('pass-ace'), player }),
  /**
   * The worm moved `steps` steps, all taking coins from end `from` (needed only when the worm
   * must move away from a biter). Fewer steps than allowed need `blocked` (obstacles in the way)
   * or `ate` (eating a coin ends the movement). `roundedPylon` and `finished` report the race.
   */
  z.strictObject({
    type: z.literal('move'),
    player,
    steps: z.number().int().min(0).max(6),
    from: end.optional(),
    blocked: z.boolean().optional(),
    ate: z.strictObject({ player, end }).optional(),
    roundedPylon: z.boolean().optional(),
    finished: z.boolean().optional(),
  }),
  /** The table stops the race (the remaining places are not raced for). */
  z.strictObject({ type: z.literal('stop-race') }),
]);

export type DerbyMove = z.infer<typeof derbyMoveSchema>;
export type DerbyMoveType = DerbyMove['type'];
