/**
 * A random table, for playout tests and the bench: bids and the ghost's dice drawn with an injected
 * seeded generator, X naming a random free number, and the referee declaring a winner now and then.
 * Players usually respect the 7/X rule but sometimes forget, so void-by-restriction gets played too.
 */
import type { Rng } from '../../rng.js';
import { legalMoves } from './options.js';
import { RESTRICTED_BIDS } from './bids.js';
import { BIDS, type Bid, type WormUpMove, type WormUpState } from './types.js';

export function randomMove(state: WormUpState, rng: Rng, finishChance = 0.02): WormUpMove | null {
  const moves = legalMoves(state);
  switch (state.phase) {
    case 'bid': {
      if (moves.length && rng.next() < finishChance) return rng.pick(moves);
      const bids: Record<string, Bid> = {};
      for (const p of state.players) {
        const allowed = state.restricted.includes(p.id) && rng.next() < 0.9 ? BIDS.filter((b) => !RESTRICTED_BIDS.includes(b)) : BIDS;
        bids[p.id] = rng.pick(allowed);
      }
      return { type: 'reveal', bids };
    }
    case 'ghost':
      return { type: 'ghost', dice: [rng.pick(BIDS), rng.pick(BIDS)] };
    case 'move': {
      const finishes = moves.filter((m) => m.type === 'finish');
      if (rng.next() < finishChance) return rng.pick(finishes);
      return rng.pick(moves.filter((m) => m.type === 'moved'));
    }
    case 'x':
      return rng.pick(moves);
    case 'over':
      return null;
  }
}
