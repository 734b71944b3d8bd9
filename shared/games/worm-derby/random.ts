/**
 * A random legal move, for seeded playout tests and the bench. The die is uniform; reports are
 * weighted so races look like races (most moves are full moves, pylons and finishes come later).
 */
import type { Rng } from '../../rng.js';
import { PIECEPACK_FACES } from './die-table.js';
import { stepOptions } from './legal.js';
import type { DerbyMove } from './moves.js';
import type { DerbyState, WormEnd } from './state.js';

export function randomMove(state: DerbyState, rng: Rng): DerbyMove | null {
  if (state.phase === 'over') return null;
  const worm = state.worms[state.active]!;
  const player = worm.player;
  if (rng.next() < 0.0005) return { type: 'stop-race' };
  switch (state.phase) {
    case 'obstacles':
      return { type: 'place-obstacle', player };
    case 'roll':
      return { type: 'roll', face: rng.pick(PIECEPACK_FACES) };
    case 'ace': {
      const choices: DerbyMove[] = [{ type: 'pass-ace', player }];
      if (state.obstacles.placed > 0) choices.push({ type: 'move-obstacle', player }, { type: 'move-obstacle', player });
      if (state.rules === 'advanced' && worm.eaten > 0) choices.push({ type: 'return-coin', player, end: rng.pick(['A', 'B'] as const) }, { type: 'return-coin', player });
      return rng.pick(choices);
    }
    case 'move': {
      const o = stepOptions(state, worm)!;
      const from: WormEnd | undefined = o.from === 'either' ? rng.pick([undefined, 'A', 'B'] as const) : rng.pick(o.from);
      const flags: { roundedPylon?: true; finished?: true } = {};
      if (!worm.roundedPylon && rng.next() < 0.12) flags.roundedPylon = true;
      else if (worm.roundedPylon && rng.next() < 0.12) flags.finished = true;
      const r = rng.next();
      if (o.mayEat.length > 0 && r < 0.3) {
        const target = rng.pick(o.mayEat);
        return { type: 'move', player, steps: rng.int(1, o.steps), ...(from ? { from } : {}), ate: { player: target.player, end: rng.pick(target.ends) }, ...flags };
      }
      if (r > 0.92 && o.steps > 0) {
        const k = rng.int(0, o.steps - 1);
        return { type: 'move', player, steps: k, blocked: true, ...(from && k > 0 ? { from } : {}), ...(k > 0 ? flags : {}) };
      }
      return { type: 'move', player, steps: o.steps, ...(from ? { from } : {}), ...flags };
    }
  }
}
