/**
 * A random table, for playout tests and the bench: dice rolled with an injected seeded generator
 * and a plausible choice at every step (usually the most valuable face, sometimes any legal move,
 * so odd lines get played too). The rules never call it.
 */
import type { Rng } from '../../rng.js';
import { faceValue } from './dice.js';
import { legalMoves, diceToRoll } from './options.js';
import { judge } from './turn.js';
import { FACES, type TwidMove, type TwidState } from './types.js';

/** How often the player picks any legal move instead of the sensible one. */
const WHIM = 0.25;

function bestKeep(state: TwidState, moves: TwidMove[]): TwidMove {
  const worth = (m: TwidMove) => {
    if (m.type !== 'keep') return 0;
    const n = state.roll!.filter((f) => f === m.face).length;
    // A worm is worth a little more than its value: classic needs one.
    return n * faceValue(m.face, state.rules) + (m.face === 'worm' ? 3 : 0);
  };
  return moves.reduce((a, b) => (worth(b) > worth(a) ? b : a));
}

/** A random legal move, or null when the game is over. */
export function randomMove(state: TwidState, rng: Rng): TwidMove | null {
  const moves = legalMoves(state);
  const whim = rng.next() < WHIM;
  const n = diceToRoll(state);
  if (n > 0) {
    // Classic: stop once the kept dice can buy something (or on a whim), otherwise roll on.
    const canStop = moves.some((m) => m.type === 'stop');
    const stop = canStop && (whim ? rng.next() < 0.5 : judge(state).whyNot === null && rng.next() < 0.7);
    return stop ? { type: 'stop' } : { type: 'roll', dice: Array.from({ length: n }, () => rng.pick(FACES)) };
  }
  if (moves.length === 0) return null;
  if (state.phase === 'keep' && !whim) return bestKeep(state, moves);
  return rng.pick(moves);
}
