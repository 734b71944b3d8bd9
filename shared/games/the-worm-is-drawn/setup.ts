/** Setup options and the opening position: every tile face up on the table, no dice kept. */
import { z } from 'zod';
import { playerIdSchema } from '../../player-id.js';
import { Errors, fail, ok, type PlayerInfo, type Result } from '../../game.js';
import { EQUIPMENT, PRESETS, PRESET_NAMES } from './data.js';
import type { TwidState } from './types.js';

export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 7;

const playerSchema = z.object({
  /** Defaults to p1, p2, … */
  id: playerIdSchema.optional(),
  name: z.string().trim().min(1).max(64),
  color: z.string().min(1).max(24).optional(),
});

export const twidOptionsSchema = z
  .object({
    /** In turn order: play goes clockwise from the first. */
    players: z.array(playerSchema).min(MIN_PLAYERS).max(MAX_PLAYERS),
    preset: z.enum(PRESET_NAMES).default('seed'),
    /** The physical dice: the game's own (faces 1–5 and a worm) or standard d6 with 6 as the worm. */
    diceSet: z.enum(['worm', 'd6']).default('worm'),
  })
  .superRefine((o, ctx) => {
    const ids = o.players.map((p, i) => p.id ?? `p${i + 1}`);
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: ['players', i, 'id'], message: `player id ${id} is used twice` });
    });
  });

export type TwidSetupOptions = z.infer<typeof twidOptionsSchema>;

export function initialState(options: TwidSetupOptions): Result<TwidState> {
  const parsed = twidOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return fail(Errors.setupInvalid, `the-worm-is-drawn options: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const o = parsed.data;
  const players: PlayerInfo[] = o.players.map((p, i) => ({
    id: p.id ?? `p${i + 1}`,
    name: p.name,
    ...(p.color !== undefined ? { color: p.color } : {}),
  }));
  const tiles = [...EQUIPMENT.tiles].sort((a, b) => a.value - b.value);
  return ok({
    game: 'the-worm-is-drawn',
    preset: o.preset,
    rules: { ...PRESETS[o.preset] },
    diceSet: o.diceSet,
    dice: EQUIPMENT.dice,
    tiles,
    players,
    current: 0,
    phase: 'roll',
    table: tiles.map((t) => t.value),
    removed: [],
    stacks: players.map(() => []),
    kept: [],
    roll: null,
    turn: 0,
    last: null,
  });
}
