/** Tapeworm setup options, validated at the edge and again in `setup`. */
import { z } from 'zod';
import { playerIdSchema } from '../../player-id.js';
import { deckDefinitionSchema } from './deck.js';

export const HAND_SIZE = 5;

const playerSchema = z.strictObject({
  id: playerIdSchema.max(32),
  name: z.string().min(1).max(64),
  color: z.string().min(1).max(24).optional(),
});

const reach = z.number().int().min(1).max(40);

export const tapewormOptionsSchema = z
  .strictObject({
    /** 1–4 players, clockwise; one player is solo practice (empty your hand; Hatch and Swap have no one to act on). */
    players: z.array(playerSchema).min(1).max(4),
    /** The player who most resembles a worm (default: the first listed). */
    firstPlayer: z.string().min(1).max(32).optional(),
    /** A corrected deck (default: deck.json, clew's reconstruction). */
    deck: deckDefinitionSchema.optional(),
    /** How many card widths the table reaches from the start card each way (default: no edge). */
    tableEdge: z.strictObject({ north: reach, east: reach, south: reach, west: reach }).optional(),
  })
  .superRefine((o, ctx) => {
    const seen = new Set<string>();
    o.players.forEach((p, i) => {
      if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: ['players', i, 'id'], message: `player id "${p.id}" is used twice` });
      seen.add(p.id);
    });
    if (o.firstPlayer !== undefined && !seen.has(o.firstPlayer)) {
      ctx.addIssue({ code: 'custom', path: ['firstPlayer'], message: `"${o.firstPlayer}" is not one of the players` });
    }
  });

export type TapewormOptions = z.infer<typeof tapewormOptionsSchema>;
