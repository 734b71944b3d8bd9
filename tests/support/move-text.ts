/**
 * Playing a game's moves from their text in tests, for the games whose moves have a notation
 * (The worm is drawn, Worm-up): a move the rules refuse fails the test with the position it was
 * tried in, and a move that must be refused is tried on a frozen state, so a rule that wrote to
 * the state it refused would throw.
 */
import type { Failure, Result } from '../../shared/game.js';

interface TextGame<S, M> {
  apply(state: S, move: M): Result<S>;
}

export function textMoves<S, M>(game: TextGame<S, M>, parseMove: (text: string) => M, toNotation: (state: S) => string) {
  return {
    /** Plays move texts in order; a rejected move fails the test with the position it was tried in. */
    play(state: S, ...moves: string[]): S {
      let s = state;
      for (const text of moves) {
        const r = game.apply(s, parseMove(text));
        if (!r.ok) throw new Error(`"${text}" rejected in ${toNotation(s)}: ${r.code} ${r.message}`);
        s = r.state;
      }
      return s;
    },
    /** Tries a move that must be rejected; returns the failure (and checks the state was left alone). */
    reject(state: S, text: string): Failure {
      const before = JSON.stringify(state);
      const r = game.apply(deepFreeze(state), parseMove(text));
      if (r.ok) throw new Error(`"${text}" was accepted in ${toNotation(state)}, giving ${toNotation(r.state)}`);
      if (JSON.stringify(state) !== before) throw new Error(`"${text}" changed the state it rejected`);
      return r;
    },
  };
}

export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
