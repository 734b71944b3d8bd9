/**
 * "Worm race": a tiny game used only by the server's tests, so the table, the log and the
 * transport are tested against a game whose every rule fits on one screen (the five real engines
 * are wired and tested too; this one isolates the server from engine changes).
 *
 * Players take turns: the player to act rolls one d6 (a player move, or the camera's roll turned
 * into that move) and moves forward that many steps; then the table (referee or NEXT button)
 * passes the turn on. The first to reach `goal` wins.
 */
import { z } from 'zod';
import type { ObservedDie } from '../../shared/dice.js';
import { fail, ok, toTableGame, type GameDefinition, type Result, type TableGame } from '../../shared/game.js';

const playerSchema = z.object({ id: z.string().min(1).max(16), name: z.string().min(1).max(32), color: z.string().optional() });

export const raceOptionsSchema = z.object({
  players: z.array(playerSchema).min(1).max(4).default([{ id: 'ann', name: 'Ann' }, { id: 'bob', name: 'Bob' }]),
  goal: z.number().int().min(1).max(100).default(20),
});
export type RaceOptions = z.infer<typeof raceOptionsSchema>;

export const raceMoveSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('roll'), player: z.string(), face: z.number().int().min(1).max(6) }),
  z.object({ type: z.literal('next') }),
]);
export type RaceMove = z.infer<typeof raceMoveSchema>;

export interface RaceState {
  players: { id: string; name: string; color?: string }[];
  goal: number;
  positions: Record<string, number>;
  turn: number;
  rolled: boolean;
  winner: string | null;
}

function current(s: RaceState): string {
  return s.players[s.turn]!.id;
}

export const raceDefinition: GameDefinition<RaceState, RaceMove, unknown, unknown, RaceOptions, Record<string, number>> = {
  // The id is borrowed: GameId is a closed union, and this game only ever runs in tests.
  id: 'worm-up',
  title: 'Worm race (test game)',
  optionsSchema: raceOptionsSchema as z.ZodType<RaceOptions>,
  moveSchema: raceMoveSchema,
  setup(options) {
    const ids = new Set(options.players.map((p) => p.id));
    if (ids.size !== options.players.length) return fail('setup/invalid', 'two players share an id');
    return ok({
      players: options.players,
      goal: options.goal,
      positions: Object.fromEntries(options.players.map((p) => [p.id, 0])),
      turn: 0,
      rolled: false,
      winner: null,
    });
  },
  legalOptions: (s) => (s.winner ? [] : s.rolled ? [{ type: 'next' }] : [1, 2, 3, 4, 5, 6].map((face) => ({ type: 'roll', player: current(s), face }))),
  apply(s, m): Result<RaceState> {
    if (s.winner) return fail('move/game-over', `${s.winner} has already won`);
    if (m.type === 'next') {
      if (!s.rolled) return fail('move/wrong-phase', `${current(s)} has not rolled yet`);
      return ok({ ...s, turn: (s.turn + 1) % s.players.length, rolled: false });
    }
    if (m.player !== current(s)) return fail('move/not-your-turn', `it is ${current(s)}'s turn, not ${m.player}'s`);
    if (s.rolled) return fail('move/wrong-phase', `${m.player} has already rolled this turn`);
    const position = Math.min(s.goal, (s.positions[m.player] ?? 0) + m.face);
    return ok({ ...s, positions: { ...s.positions, [m.player]: position }, rolled: true, winner: position >= s.goal ? m.player : null });
  },
  score: (s) => s.positions,
  players: (s) => s.players,
  authority: (_s, m) => (m.type === 'roll' ? { kind: 'player', player: m.player } : { kind: 'table' }),
  status: (s) => ({
    headline: s.winner ? `${s.winner} wins` : `${current(s)}'s turn`,
    toAct: s.winner || s.rolled ? [] : [current(s)],
    finished: s.winner !== null,
  }),
  diceRequest: (s) => (s.winner || s.rolled ? null : { sets: ['d6'], count: { min: 1, max: 1 }, prompt: `${current(s)} rolls one die` }),
  diceMove(s, dice: ObservedDie[]) {
    const die = dice[0];
    if (dice.length !== 1 || !die || die.set !== 'd6') return fail('dice/wrong-count', 'roll exactly one d6');
    return ok({ type: 'roll', player: current(s), face: Number(die.face) });
  },
  buttonMove: (s, button) => (button === 'NEXT' && s.rolled && !s.winner ? { type: 'next' } : null),
};

export const raceGame: TableGame = toTableGame(raceDefinition);
