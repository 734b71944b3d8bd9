/** Setup options and the opening position: round 1, everyone bidding, nobody restricted. */
import { z } from 'zod';
import { DIE_COLORS, isDieColor } from '../../dice.js';
import { Errors, fail, ok, type Result } from '../../game.js';
import { playerIdSchema } from '../../player-id.js';
import { EQUIPMENT } from './data.js';
import type { Seat, WormUpState } from './types.js';

export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 5;
/** Below this many players the ghost bids too. */
export const GHOST_BELOW = 3;

const playerSchema = z.object({
  /** Defaults to p1, p2, … */
  id: playerIdSchema.optional(),
  name: z.string().trim().min(1).max(64),
  /** The colour of the player's die and worm; defaults to the box's colours in order. */
  color: z.string().refine((c) => isDieColor(c), { error: (iss) => `"${String(iss.input)}" is not a die colour (${Object.keys(DIE_COLORS).join(', ')})` }).optional(),
});

export const wormUpOptionsSchema = z
  .object({ players: z.array(playerSchema).min(MIN_PLAYERS).max(MAX_PLAYERS) })
  .superRefine((o, ctx) => {
    const ids = o.players.map((p, i) => p.id ?? `p${i + 1}`);
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: ['players', i, 'id'], message: `player id ${id} is used twice` });
    });
    const colors = seatColors(o.players.map((p) => p.color));
    colors.forEach((c, i) => {
      if (c === null) ctx.addIssue({ code: 'custom', path: ['players', i, 'color'], message: 'no die colour is left for this player' });
      else if (colors.indexOf(c) !== i) ctx.addIssue({ code: 'custom', path: ['players', i, 'color'], message: `colour ${c} names two players` });
    });
  });

export type WormUpSetupOptions = z.infer<typeof wormUpOptionsSchema>;

/** Chosen colours stay; the others take the box's colours in order, skipping those already taken. */
function seatColors(chosen: readonly (string | undefined)[]): (string | null)[] {
  const spare = EQUIPMENT.colors.filter((c) => !chosen.includes(c));
  return chosen.map((c) => c ?? spare.shift() ?? null);
}

export function initialState(options: WormUpSetupOptions): Result<WormUpState> {
  const parsed = wormUpOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return fail(Errors.setupInvalid, `worm-up options: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const colors = seatColors(parsed.data.players.map((p) => p.color));
  const players: Seat[] = parsed.data.players.map((p, i) => ({ id: p.id ?? `p${i + 1}`, name: p.name, color: colors[i]! }));
  return ok({ game: 'worm-up', players, phase: 'bid', round: 1, current: null, restricted: [], history: [], winner: null });
}
