/**
 * The rules text's worked example, players 1–3, played on clew's grid. The figures were lost, so
 * the layout is clew's: the start card has red north, white east, pink south and black west.
 */
import { describe, expect, it } from 'vitest';
import { tapeworm, toNotation } from '../../shared/games/tapeworm/index.js';
import { draw, expectRejected, openEndsOf, place, play, PLAYERS, start } from './helpers.js';

describe('Tapeworm: the example, players 1–3', () => {
  const begin = () => start({ players: PLAYERS.slice(0, 3) });

  it('the start card offers four open tapeworm segments, one of each colour', () => {
    expect(openEndsOf(begin())).toEqual(['0,0:E:white', '0,0:N:red', '0,0:S:pink', '0,0:W:black']);
  });

  it('Player 1 places a red curve next to the red segment, may go on with red, and a red head ends the tapeworm and the turn', () => {
    let s = play(begin(), draw('p1'), place('p1', 'red-curve', 0, -1, 1));
    expect(s).toMatchObject({ phase: 'play', lock: 'red', played: 1, active: 0 });
    s = play(s, place('p1', 'red-head', 1, -1, 3));
    expect(s).toMatchObject({ phase: 'draw', active: 1, lock: null });
    expect(openEndsOf(s)).not.toContain('1,-1:W:red');
    expect(openEndsOf(s).filter((e) => e.endsWith('red'))).toEqual([]);
  });

  it('Player 2 places a pink straight on the pink segment, then a pink/black curve: the colour change ends the turn', () => {
    let s = play(begin(), draw('p1'), place('p1', 'red-curve', 0, -1, 1), place('p1', 'red-head', 1, -1, 3));
    s = play(s, draw('p2'), place('p2', 'pink-straight', 0, 1));
    expect(s).toMatchObject({ phase: 'play', lock: 'pink', active: 1 });
    s = play(s, place('p2', 'pink-black-curve', 0, 2));
    expect(s).toMatchObject({ phase: 'draw', active: 2 });
    expect(openEndsOf(s)).toEqual(['0,0:E:white', '0,0:W:black', '0,2:E:black']);
  });

  it('Player 3 cannot play a white/black card on the white segment (its black end meets a side with none), so plays it on the black one, and the colour change ends the turn', () => {
    let s = play(begin(), draw('p1'), place('p1', 'red-curve', 0, -1, 1), place('p1', 'red-head', 1, -1, 3));
    s = play(s, draw('p2'), place('p2', 'pink-straight', 0, 1), place('p2', 'pink-black-curve', 0, 2), draw('p3'));
    // Next to the white segment, white must face west: the card's black end then faces the red head above.
    const message = expectRejected(s, place('p3', 'white-black-curve', 1, 0, 3), 'move/edges-do-not-match');
    expect(message).toContain('black segment would meet a side with no segment on the N edge');
    // No turn of that card fits there.
    const here = tapeworm.legalOptions(s, { cards: ['white-black-curve'] }).placements!;
    expect(here.filter((p) => p.x === 1 && p.y === 0)).toEqual([]);
    expect(here.map((p) => `${p.x},${p.y}r${p.rotation}`).sort()).toEqual(['-1,0r0', '1,2r2']);
    s = play(s, place('p3', 'white-black-curve', 1, 2, 2));
    expect(s).toMatchObject({ phase: 'draw', active: 0, turn: 4 });
    expect(toNotation(s)).toBe(
      'draw @p1 t4 last:p3 deck:61 hands:p1=4,p2=4,p3=5 discard:- | start@0,0 red-curve@0,-1r1 red-head@1,-1r3 pink-straight@0,1 pink-black-curve@0,2 white-black-curve@1,2r2',
    );
  });
});
