/** Small helpers that keep the Worm Derby tests reading like the rules. */
import { expect } from 'vitest';
import { fromNotation, toNotation, wormDerby, type DerbyMove, type DerbyOptions, type DerbyState, type PiecepackFace } from '../../shared/games/worm-derby/index.js';

export const ALICE = { id: 'alice', name: 'Alice' };
export const BOB = { id: 'bob', name: 'Bob' };
export const CAROL = { id: 'carol', name: 'Carol' };
export const DAVE = { id: 'dave', name: 'Dave' };

export function start(options: Partial<DerbyOptions> = {}): DerbyState {
  const result = wormDerby.setup({ players: [ALICE, BOB], ...options });
  if (!result.ok) throw new Error(`setup failed: ${result.code} ${result.message}`);
  return result.state;
}

export const position = (notation: string): DerbyState => fromNotation(notation);

/** Applies moves in order; a rejected move fails the test with the position it was tried on. */
export function play(state: DerbyState, ...moves: DerbyMove[]): DerbyState {
  let s = state;
  for (const move of moves) {
    const result = wormDerby.apply(s, move);
    if (!result.ok) throw new Error(`${JSON.stringify(move)} rejected at [${toNotation(s)}]: ${result.code} ${result.message}`);
    s = result.state;
  }
  return s;
}

/** The move is refused with this code, and the state it was tried on is untouched. */
export function expectRejected(state: DerbyState, move: DerbyMove, code: string): string {
  const before = JSON.stringify(state);
  const result = wormDerby.apply(state, move);
  expect(result.ok, `${JSON.stringify(move)} should be refused at [${toNotation(state)}]`).toBe(false);
  if (result.ok) return '';
  expect(result.code).toBe(code);
  expect(JSON.stringify(state)).toBe(before);
  return result.message;
}

export const roll = (face: PiecepackFace): DerbyMove => ({ type: 'roll', face });
export const steps = (player: string, n: number, extra: Partial<Extract<DerbyMove, { type: 'move' }>> = {}): DerbyMove => ({
  type: 'move',
  player,
  steps: n,
  ...extra,
});

/** Places every dealt obstacle tile in turn (setup), leaving the race at its first roll. */
export function placeAllObstacles(state: DerbyState): DerbyState {
  let s = state;
  while (s.phase === 'obstacles') s = play(s, { type: 'place-obstacle', player: s.worms[s.active]!.player });
  return s;
}
