/**
 * Tapeworm moves: what the referee records. Cards are named by their kind id (copies of a kind
 * are alike); positions are grid cells around the start card at (0, 0), x east, y south.
 */
import { z } from 'zod';
import { EDGES } from './deck.js';

const player = z.string().min(1).max(32);
const card = z.string().min(1).max(40);
const coordinate = z.number().int().min(-80).max(80);

export const tapewormMoveSchema = z.discriminatedUnion('type', [
  /** The turn's draw (nothing happens if deck and discards are both empty). */
  z.strictObject({ type: z.literal('draw'), player }),
  /** A card from the hand placed on the table at (x, y), turned `rotation` quarter turns clockwise. */
  z.strictObject({ type: z.literal('place'), player, card, x: coordinate, y: coordinate, rotation: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]) }),
  /** A Cut card discarded to sever the line at the `edge` side of the card at (x, y). */
  z.strictObject({ type: z.literal('cut'), player, card, x: coordinate, y: coordinate, edge: z.enum(EDGES) }),
  /** No (more) legal play, or the player stops: the turn passes. */
  z.strictObject({ type: z.literal('end-turn'), player }),
  /** Peek: drew a card, then put a card from the hand on top of the deck. */
  z.strictObject({ type: z.literal('peek'), player }),
  /** Dig: drew a card, then discarded this one (it may be the card drawn). */
  z.strictObject({ type: z.literal('dig'), player, discard: card }),
  /** Hatch: `target` draws a card. */
  z.strictObject({ type: z.literal('hatch'), player, target: player }),
  /** Swap: looked at `target`'s hand and traded one card for one card, or did not. */
  z.strictObject({ type: z.literal('swap'), player, target: player, traded: z.boolean() }),
  /** Ringworm: discarded up to two cards for closing a ring. */
  z.strictObject({ type: z.literal('ringworm'), player, discard: z.array(card).max(2) }),
  /** Leave the next pending effect unused. */
  z.strictObject({ type: z.literal('decline'), player }),
]);

export type TapewormMove = z.infer<typeof tapewormMoveSchema>;
export type TapewormMoveType = TapewormMove['type'];
