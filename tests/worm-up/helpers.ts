/** Test helpers: tables of n players, moves from text, failures that print the position. */
import { wormUp as game, parseMove, toNotation, type WormUpState } from '../../shared/games/worm-up/index.js';
import type { Failure } from '../../shared/game.js';

export { game };

/** Players p1… with the box's default colours (red, yellow, green, blue, white). */
export function newRace(players = 3): WormUpState {
  const r = game.setup({ players: Array.from({ length: players }, (_, i) => ({ name: `Player ${i + 1}` })) });
  if (!r.ok) throw new Error(r.message);
  return r.state;
}

export function play(state: WormUpState, ...moves: string[]): WormUpState {
  let s = state;
  for (const text of moves) {
    const r = game.apply(s, parseMove(text));
    if (!r.ok) throw new Error(`"${text}" rejected in ${toNotation(s)}: ${r.code} ${r.message}`);
    s = r.state;
  }
  return s;
}

export function reject(state: WormUpState, text: string): Failure {
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

export const options = (s: WormUpState) => game.legalOptions(s);
export const detail = (s: WormUpState) => game.legalOptions(s, { verbose: true }).detail!;
/** The bids as `player:bid` with void reasons, e.g. ['p1:5 collision', 'p2:X']. */
export const judged = (s: WormUpState) =>
  (s.current ?? s.history[s.history.length - 1]!).bids.map((b) => `${b.player}:${b.bid}${b.void.length ? ` ${b.void.join('+')}` : ''}`);
/** The movement order as `player steps`. */
export const order = (s: WormUpState) => (s.current ?? s.history[s.history.length - 1]!).order.map((m) => `${m.player} ${m.steps}`);
