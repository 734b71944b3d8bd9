/** Test helpers: positions from notation, moves from text, failures that print the position. */
import { theWormIsDrawn as game, fromNotation, parseMove, toNotation, type TwidState } from '../../shared/games/the-worm-is-drawn/index.js';
import type { Failure } from '../../shared/game.js';
import { deepFreeze, textMoves } from '../support/move-text.js';

export { game };

export function position(notation: string): TwidState {
  const r = fromNotation(notation);
  if (!r.ok) throw new Error(r.message);
  return r.state;
}

export function newGame(preset: 'seed' | 'classic' = 'seed', players = 3): TwidState {
  const r = game.setup({ players: Array.from({ length: players }, (_, i) => ({ name: `Player ${i + 1}` })), preset, diceSet: 'worm' });
  if (!r.ok) throw new Error(r.message);
  return r.state;
}

const moves = textMoves(game, parseMove, toNotation);

/** Plays move texts in order; a rejected move fails the test with the position it was tried in. */
export const play: (state: TwidState, ...moves: string[]) => TwidState = moves.play;
/** Tries a move that must be rejected; returns the failure (and checks the state was left alone). */
export const reject: (state: TwidState, text: string) => Failure = moves.reject;
export { deepFreeze };

export const options = (s: TwidState) => game.legalOptions(s);
export const detail = (s: TwidState) => game.legalOptions(s, { verbose: true }).detail!;
