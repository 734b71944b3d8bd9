/** Test helpers: tables of n players, moves from text, failures that print the position. */
import { wormUp as game, parseMove, toNotation, type WormUpState } from '../../shared/games/worm-up/index.js';
import type { Failure } from '../../shared/game.js';
import { deepFreeze, textMoves } from '../support/move-text.js';

export { game };

/** Players p1… with the box's default colours (red, yellow, green, blue, white). */
export function newRace(players = 3): WormUpState {
  const r = game.setup({ players: Array.from({ length: players }, (_, i) => ({ name: `Player ${i + 1}` })) });
  if (!r.ok) throw new Error(r.message);
  return r.state;
}

const moves = textMoves(game, parseMove, toNotation);

/** Plays move texts in order; a rejected move fails the test with the position it was tried in. */
export const play: (state: WormUpState, ...moves: string[]) => WormUpState = moves.play;
/** Tries a move that must be rejected; returns the failure (and checks the state was left alone). */
export const reject: (state: WormUpState, text: string) => Failure = moves.reject;
export { deepFreeze };

export const options = (s: WormUpState) => game.legalOptions(s);
export const detail = (s: WormUpState) => game.legalOptions(s, { verbose: true }).detail!;
/** The bids as `player:bid` with void reasons, e.g. ['p1:5 collision', 'p2:X']. */
export const judged = (s: WormUpState) =>
  (s.current ?? s.history[s.history.length - 1]!).bids.map((b) => `${b.player}:${b.bid}${b.void.length ? ` ${b.void.join('+')}` : ''}`);
/** The movement order as `player steps`. */
export const order = (s: WormUpState) => (s.current ?? s.history[s.history.length - 1]!).order.map((m) => `${m.player} ${m.steps}`);
