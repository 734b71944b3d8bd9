/** Illegal moves: each is rejected with a namespaced code and a message, and the state is untouched. */
import { describe, expect, it } from 'vitest';
import { toTableGame } from '../../shared/game.js';
import type { WormUpState } from '../../shared/games/worm-up/index.js';
import { game, newRace, play, reject } from './helpers.js';

const bidding = () => newRace(3);
const xNaming = () => play(newRace(3), 'reveal p1=X p2=3 p3=4');
const moving = () => play(newRace(3), 'reveal p1=5 p2=3 p3=4');
const ghosting = () => play(newRace(2), 'reveal p1=5 p2=3');
const over = () => play(moving(), 'finish p1');

describe('illegal moves are rejected with a code and leave the state unchanged', () => {
  const cases: [string, () => WormUpState, string, string, RegExp][] = [
    ['bidding', bidding, 'reveal p1=3 p2=4', 'move/missing-bid', /missing Player 3 \(green\)/],
    ['bidding', bidding, 'reveal p1=3 p2=4 p3=5 p7=6', 'move/unknown-player', /no player p7/],
    ['bidding', bidding, 'x 3', 'move/wrong-phase', /cannot x now: it is time to reveal the bids/],
    ['bidding', bidding, 'moved', 'move/wrong-phase', /cannot moved now/],
    ['bidding', bidding, 'ghost 34', 'move/wrong-phase', /cannot ghost now/],
    ['X naming', xNaming, 'x 3', 'move/number-taken', /5, 6, 7 \(3 was bid\)/],
    ['X naming', xNaming, 'x 2', 'move/number-taken', /nobody bid this round: 5, 6, 7$/],
    ['X naming', xNaming, 'moved', 'move/wrong-phase', /time for X to name its number/],
    ['X naming', xNaming, 'finish p1', 'move/wrong-phase', /no worm has moved yet/],
    ['moving', moving, 'reveal p1=3 p2=4 p3=5', 'move/wrong-phase', /time for the worms to move/],
    ['moving', moving, 'moved post=left', 'move/illegal', /only the X may move a finish post; p2 bid 3/],
    ['moving', moving, 'finish nobody', 'move/not-a-player', /no player nobody/],
    ['ghost', ghosting, 'reveal p1=5 p2=3', 'move/wrong-phase', /roll the ghost's two dice/],
    ['ghost', ghosting, 'finish p1', 'move/wrong-phase', /no worm has moved yet/],
    ['over', over, 'moved', 'move/game-over', /the race is over: p1 won/],
    ['over', over, 'finish p2', 'move/game-over', /over/],
  ];
  it.each(cases)('%s: %s', (_, make, move, code, message) => {
    const r = reject(make(), move);
    expect(r.code).toBe(code);
    expect(r.message).toMatch(message);
  });

  it('malformed moves are stopped at the edge by the move schema', () => {
    const table = toTableGame(game);
    for (const move of [
      { type: 'reveal', bids: { p1: '8' } },
      { type: 'reveal', bids: ['3', '4'] },
      { type: 'ghost', dice: ['3'] },
      { type: 'x', number: 'five' },
      { type: 'moved', post: 'middle' },
      { type: 'finish' },
      'moved',
    ]) {
      const r = table.apply(newRace(3), move);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.code).toBe('move/malformed');
    }
  });
});
