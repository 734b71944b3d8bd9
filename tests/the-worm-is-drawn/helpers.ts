/** Test helpers: positions from notation, moves from text, failures that print the position. */
import { theWormIsDrawn as game, fromNotation, parseMove, toNotation, type TwidState } from '../../shared/games/the-worm-is-drawn/index.js';
import type { Failure } from '../../shared/game.js';

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

/** Plays move texts in order; a rejected move fails the test with the position it was tried in. */
export function play(state: TwidState, ...moves: string[]): TwidState {
  let s = state;
  for (const text of moves) {
    const r = game.apply(s, parseMove(text));
    if (!r.ok) throw new Error(`"${text}" rejected in ${toNotation(s)}: ${r.code} ${r.message}`);
    s = r.state;
  }
  return s;
}

/** Tries a move that must be rejected; returns the failure (and checks the state was left alone). */
export function reject(state: TwidState, text: string): Failure {
  const before = JSON.stringify(state);
  const r = game.apply(deepFreeze(state), parseMove(text));
  if (r.ok) throw new Error(`"${text}" was accepted in ${toNotation(state)}, giving ${toNotation(r.state)}`);
  if (JSON.stringify(state) !== before) throw new Error(`"${text}" changed the state it rejected`);
  return r;
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export const options = (s: TwidState) => game.legalOptions(s);
export const detail = (s: TwidState) => game.legalOptions(s, { verbose: true }).detail!;
