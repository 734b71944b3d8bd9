/** Each row of DECISIONS.md §3 (Worm-up), one describe per row, plus the finer points clew settles. */
import { describe, expect, it } from 'vitest';
import { freeNumbers, ghostOf, judgeBids } from '../../shared/games/worm-up/index.js';
import { detail, game, judged, newRace, options, order, play, reject } from './helpers.js';

describe('bids: one die per player, read all at once; the die’s colour names the player', () => {
  it('a reveal maps every colour to its player', () => {
    const s = newRace(2);
    const r = game.diceMove(s, [
      { set: 'wurmeln', face: '6', color: 'yellow', confidence: 0.93 },
      { set: 'wurmeln', face: '3', color: 'red', confidence: 0.99 },
    ]);
    expect(r).toEqual({ ok: true, state: { type: 'reveal', bids: { p2: '6', p1: '3' } } });
  });
});

describe('collisions: every bid shared by two or more players is void, numbers and X alike', () => {
  it.each([
    ['reveal p1=3 p2=3 p3=4 p4=X p5=X', ['p1:3 collision', 'p2:3 collision', 'p3:4', 'p4:X collision', 'p5:X collision'], ['p3 4']],
    ['reveal p1=7 p2=7 p3=7 p4=6 p5=5', ['p1:7 collision', 'p2:7 collision', 'p3:7 collision', 'p4:6', 'p5:5'], ['p5 5', 'p4 6']],
  ])('%s', (reveal, bids, movers) => {
    const s = play(newRace(5), reveal);
    expect(judged(s)).toEqual(bids);
    expect(order(s)).toEqual(movers);
  });
});

describe('X: names a number 3–7 that nobody bid this round (void bids count as bid) and moves one finish post', () => {
  it('a number cancelled by a collision is still taken', () => {
    const s = play(newRace(4), 'reveal p1=X p2=5 p3=5 p4=3');
    expect(detail(s).free).toEqual([4, 6, 7]);
    expect(reject(s, 'x 5').code).toBe('move/number-taken');
  });

  it('a bid voided by the 7/X rule is still a bid: X may not name it', () => {
    let s = play(newRace(3), 'reveal p1=7 p2=3 p3=4', 'moved', 'moved', 'moved');
    s = play(s, 'reveal p1=7 p2=X p3=4');
    expect(judged(s)).toEqual(['p1:7 restricted', 'p2:X', 'p3:4']);
    expect(detail(s).free).toEqual([3, 5, 6]);
  });

  it('there is always a number left: four others can take at most four of the five', () => {
    const s = play(newRace(5), 'reveal p1=X p2=3 p3=4 p4=5 p5=6');
    expect(options(s).moves).toEqual(['x 7']);
  });

  it('the post the X player swung is recorded with its move', () => {
    const s = play(newRace(3), 'reveal p1=X p2=3 p3=4', 'x 6', 'moved', 'moved', 'moved post=right');
    expect(s.history[0]).toMatchObject({ xNumber: 6, post: 'right' });
  });
});

describe('order: valid bids move lowest first; X moves in the slot of its chosen number', () => {
  it('X named 4 moves between the 3 and the 6', () => {
    const s = play(newRace(3), 'reveal p1=6 p2=X p3=3', 'x 4');
    expect(order(s)).toEqual(['p3 3', 'p2 4', 'p1 6']);
    expect(detail(s).next).toEqual({ player: 'p3', bid: '3', steps: 3 });
  });
});

describe('7 and X: not right after a valid 7 or X; the dashboard warns and marks such a bid void', () => {
  it('the warning is shown before the bids are revealed', () => {
    const s = play(newRace(3), 'reveal p1=X p2=3 p3=4', 'x 7', 'moved', 'moved', 'moved');
    expect(detail(s).bidding).toEqual([
      { player: 'p1', color: 'red', allowed: ['3', '4', '5', '6'], warning: 'may not bid 7 or X after a valid 7 or X: such a bid is void' },
      { player: 'p2', color: 'yellow', allowed: ['3', '4', '5', '6', '7', 'X'], warning: null },
      { player: 'p3', color: 'green', allowed: ['3', '4', '5', '6', '7', 'X'], warning: null },
    ]);
    expect(game.status(s).headline).toBe('Round 2: bid, then reveal all dice together (no 7 or X for Player 1)');
  });

  it('a restricted X is void: it names no number and does not move', () => {
    let s = play(newRace(3), 'reveal p1=7 p2=3 p3=4', 'moved', 'moved', 'moved');
    s = play(s, 'reveal p1=X p2=5 p3=6');
    expect(s.phase).toBe('move');
    expect(judged(s)).toEqual(['p1:X restricted', 'p2:5', 'p3:6']);
  });

  it('a restricted bid still collides with an equal bid (it was bid)', () => {
    let s = play(newRace(3), 'reveal p1=7 p2=3 p3=4', 'moved', 'moved', 'moved');
    s = play(s, 'reveal p1=7 p2=7 p3=4');
    expect(judged(s)).toEqual(['p1:7 collision+restricted', 'p2:7 collision', 'p3:4']);
  });

  it('the restriction lasts one round: after a void or smaller bid, 7 and X are free again', () => {
    let s = play(newRace(3), 'reveal p1=7 p2=3 p3=4', 'moved', 'moved', 'moved');
    s = play(s, 'reveal p1=7 p2=5 p3=4', 'moved', 'moved'); // p1's 7 is void
    expect(s.restricted).toEqual([]);
    s = play(s, 'reveal p1=7 p2=5 p3=4');
    expect(judged(s)).toEqual(['p1:7', 'p2:5', 'p3:4']);
  });

  it('a 6 or less after a valid 7 is fine, and 7 is free again the round after', () => {
    let s = play(newRace(3), 'reveal p1=7 p2=3 p3=4', 'moved', 'moved', 'moved');
    s = play(s, 'reveal p1=6 p2=3 p3=4', 'moved', 'moved', 'moved');
    expect(s.restricted).toEqual([]);
    expect(judged(play(s, 'reveal p1=X p2=3 p3=4'))).toEqual(['p1:X', 'p2:3', 'p3:4']);
  });
});

describe('two players: the ghost', () => {
  it('the ghost bids the higher of two dice, X beating 7', () => {
    expect(ghostOf(['3', '7']).bid).toBe('7');
    expect(ghostOf(['X', '7']).bid).toBe('X');
    expect(ghostOf(['7', 'X']).bid).toBe('X');
    expect(ghostOf(['4', '4']).bid).toBe('4');
  });

  it('a player who matches the ghost is void, an X matched by the ghost’s X too', () => {
    const s = play(newRace(2), 'reveal p1=X p2=5', 'ghost X3');
    expect(judged(s)).toEqual(['p1:X ghost', 'p2:5']);
    expect(order(s)).toEqual(['p2 5']);
  });

  it('the ghost’s number is a bid: X may not name it', () => {
    const s = play(newRace(2), 'reveal p1=X p2=5', 'ghost 63');
    expect(detail(s).free).toEqual([3, 4, 7]);
    expect(reject(s, 'x 6').code).toBe('move/number-taken');
  });

  it('the ghost itself never moves and is never restricted', () => {
    let s = play(newRace(2), 'reveal p1=3 p2=4', 'ghost 7X', 'moved', 'moved');
    expect(s.history[0]!.order.map((m) => m.player)).toEqual(['p1', 'p2']);
    s = play(s, 'reveal p1=3 p2=4', 'ghost X6');
    expect(s.current!.ghost!.bid).toBe('X');
  });

  it('three or more players have no ghost', () => {
    expect(play(newRace(3), 'reveal p1=3 p2=4 p3=5').phase).toBe('move');
    expect(reject(play(newRace(3), 'reveal p1=3 p2=4 p3=5'), 'ghost 34').code).toBe('move/wrong-phase');
  });

  it('the judging functions agree with the table', () => {
    const bids = judgeBids([{ player: 'a', bid: '6' }, { player: 'b', bid: 'X' }], [], ghostOf(['6', '3']));
    expect(bids).toEqual([{ player: 'a', bid: '6', void: ['ghost'] }, { player: 'b', bid: 'X', void: [] }]);
    expect(freeNumbers(bids, { dice: ['6', '3'], bid: '6' })).toEqual([3, 4, 5, 7]);
  });
});

describe('finish: the dashboard records the winner when told; it cannot see the race', () => {
  it('the race never ends by itself', () => {
    let s = newRace(2);
    for (let i = 0; i < 30; i++) s = play(s, 'reveal p1=5 p2=6', 'ghost 33', 'moved', 'moved');
    expect(s.phase).toBe('bid');
    expect(s.round).toBe(31);
    expect(game.score(s).advanced).toEqual({ p1: 150, p2: 180 });
  });

  it('it may be told during the motion, or in the bidding right after it', () => {
    const moving = play(newRace(3), 'reveal p1=3 p2=4 p3=5');
    expect(play(moving, 'finish p2').winner).toBe('p2');
    const after = play(moving, 'moved', 'moved', 'moved');
    expect(play(after, 'finish p3').winner).toBe('p3');
  });

  it('also while a later round waits for its ghost dice or its X\'s number', () => {
    const twoRounds = play(newRace(2), 'reveal p1=5 p2=6', 'ghost 33', 'moved', 'moved', 'reveal p1=6 p2=4');
    expect(twoRounds.phase).toBe('ghost');
    expect(play(twoRounds, 'finish p1').winner).toBe('p1');
    const naming = play(newRace(3), 'reveal p1=3 p2=4 p3=5', 'moved', 'moved', 'moved', 'reveal p1=X p2=4 p3=6');
    expect(naming.phase).toBe('x');
    expect(play(naming, 'finish p2').winner).toBe('p2');
  });

  it('not before any worm has moved, nor for someone who is not playing', () => {
    expect(reject(newRace(3), 'finish p1').message).toMatch(/no worm has moved yet/);
    expect(reject(play(newRace(3), 'reveal p1=3 p2=4 p3=5'), 'finish p9').code).toBe('move/not-a-player');
  });

  it('nor after a round in which every bid was void: the worms are still behind the starting line', () => {
    // "If 2 or more players bid the same number or X, their bids are invalid: worms don't move."
    const s = play(newRace(3), 'reveal p1=5 p2=5 p3=5');
    expect(s).toMatchObject({ phase: 'bid', round: 2 });
    expect(game.score(s).advanced).toEqual({ p1: 0, p2: 0, p3: 0 });
    expect(options(s).moves).not.toContain('finish p1');
    expect(reject(s, 'finish p1').message).toMatch(/no worm has moved yet/);
    // Once a worm has moved, its head may have reached the card, in the bidding after it too.
    const moved = play(s, 'reveal p1=3 p2=4 p3=4', 'moved');
    expect(moved).toMatchObject({ phase: 'bid', round: 3 });
    expect(options(moved).moves).toContain('finish p1');
  });
});
