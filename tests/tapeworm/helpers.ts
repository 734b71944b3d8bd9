/** Small helpers that keep the Tapeworm tests reading like the rules. */
import { expect } from 'vitest';
import { fromNotation, tapeworm, toNotation, type Rotation, type TapewormMove, type TapewormOptions, type TapewormState } from '../../shared/games/tapeworm/index.js';

export const PLAYERS = [
  { id: 'p1', name: 'Player 1' },
  { id: 'p2', name: 'Player 2' },
  { id: 'p3', name: 'Player 3' },
  { id: 'p4', name: 'Player 4' },
];

export function start(options: Partial<TapewormOptions> = {}): TapewormState {
  const result = tapeworm.setup({ players: PLAYERS.slice(0, 2), ...options });
  if (!result.ok) throw new Error(`setup failed: ${result.code} ${result.message}`);
  return result.state;
}

export const position = (notation: string): TapewormState => fromNotation(notation);

export function play(state: TapewormState, ...moves: TapewormMove[]): TapewormState {
  let s = state;
  for (const move of moves) {
    const result = tapeworm.apply(s, move);
    if (!result.ok) throw new Error(`${JSON.stringify(move)} rejected at [${toNotation(s)}]: ${result.code} ${result.message}`);
    s = result.state;
  }
  return s;
}

/** The move is refused with this code, and the state it was tried on is untouched. */
export function expectRejected(state: TapewormState, move: TapewormMove, code: string): string {
  const before = JSON.stringify(state);
  const result = tapeworm.apply(state, move);
  expect(result.ok, `${JSON.stringify(move)} should be refused at [${toNotation(state)}]`).toBe(false);
  if (result.ok) return '';
  expect(result.code).toBe(code);
  expect(JSON.stringify(state)).toBe(before);
  return result.message;
}

export const draw = (player: string): TapewormMove => ({ type: 'draw', player });
export const endTurn = (player: string): TapewormMove => ({ type: 'end-turn', player });
export const place = (player: string, card: string, x: number, y: number, rotation: Rotation = 0): TapewormMove => ({ type: 'place', player, card, x, y, rotation });
export const cut = (player: string, card: string, x: number, y: number, edge: 'N' | 'E' | 'S' | 'W'): TapewormMove => ({ type: 'cut', player, card, x, y, edge });

/** Open ends as short strings "x,y:EDGE:colour", sorted. */
export function openEndsOf(state: TapewormState): string[] {
  return tapeworm
    .legalOptions(state)
    .openEnds.map((e) => `${e.x},${e.y}:${e.edge}:${e.color}`)
    .sort();
}
