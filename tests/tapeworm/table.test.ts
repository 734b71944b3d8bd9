/** Tapeworm at the table: buttons, who may send what, the server wrapper, options and notation. */
import { describe, expect, it } from 'vitest';
import { toTableGame } from '../../shared/game.js';
import { fromNotation, NotationError, tapeworm, toNotation } from '../../shared/games/tapeworm/index.js';
import { draw, expectRejected, place, play, position, start } from './helpers.js';

describe('Tapeworm buttons and authority', () => {
  it('NEXT draws, ends the turn, or declines the pending effect; OK uses a Peek', () => {
    const s = start();
    expect(tapeworm.buttonMove(s, 'NEXT')).toEqual({ type: 'draw', player: 'p1' });
    const playing = play(s, draw('p1'));
    expect(tapeworm.buttonMove(playing, 'NEXT')).toEqual({ type: 'end-turn', player: 'p1' });
    expect(tapeworm.buttonMove(playing, 'OK')).toBeNull();
    const peek = play(playing, place('p1', 'red-curve-peek', 0, -1, 1));
    expect(tapeworm.buttonMove(peek, 'NEXT')).toEqual({ type: 'decline', player: 'p1' });
    expect(tapeworm.buttonMove(peek, 'OK')).toEqual({ type: 'peek', player: 'p1' });
    expect(tapeworm.buttonMove(peek, 'READ')).toBeNull();
  });

  it('every action is the active player\'s', () => {
    const s = start();
    expect(tapeworm.authority(s, draw('p1'))).toEqual({ kind: 'player', player: 'p1' });
    expectRejected(s, draw('p2'), 'move/not-your-turn');
  });

  it('the server wrapper refuses malformed moves and options', () => {
    const table = toTableGame(tapeworm);
    const s = start();
    expect(table.apply(s, { type: 'place', player: 'p1', card: 'red-straight', x: 0, y: -1, rotation: 5 })).toMatchObject({ ok: false, code: 'move/malformed' });
    expect(table.apply(s, { type: 'ringworm', player: 'p1', discard: ['a', 'b', 'c'] })).toMatchObject({ ok: false, code: 'move/malformed' });
    expect(table.setup({ players: [{ id: 'a', name: 'A' }, { id: 'a', name: 'B' }] })).toMatchObject({ ok: false, code: 'setup/invalid' });
    expect(table.setup({ players: [{ id: 'a', name: 'A' }], firstPlayer: 'b' })).toMatchObject({ ok: false, code: 'setup/invalid' });
  });

  it('refuses cards that cannot be in anyone\'s hand: unknown, the start card, or every copy already shown', () => {
    const s = play(start(), draw('p1'));
    expectRejected(s, place('p1', 'green-straight', 0, -1), 'move/unknown-card');
    expectRejected(s, place('p1', 'start', 0, -1), 'move/start-card');
    const shown = position('play @p1 t9 hands:p1=5,p2=5 discard:red-head-swap | start@0,0');
    const message = expectRejected(shown, place('p1', 'red-head-swap', 0, -1, 2), 'move/card-not-available');
    expect(message).toBe('all 1 red-head-swap card is already on the table or discarded');
  });
});

describe('Tapeworm legal options', () => {
  it('lists placements only for the cards asked about (hands are secret)', () => {
    const s = play(start(), draw('p1'));
    const compact = tapeworm.legalOptions(s);
    expect(compact.placements).toBeUndefined();
    expect(compact.moves).toEqual(['place', 'cut', 'end-turn']);
    const red = tapeworm.legalOptions(s, { cards: ['red-straight'] }).placements!;
    expect(red).toEqual([{ card: 'red-straight', x: 0, y: -1, rotation: 0, color: 'red', endsTurn: false, ring: false, effect: null }, { card: 'red-straight', x: 0, y: -1, rotation: 2, color: 'red', endsTurn: false, ring: false, effect: null }]);
  });

  it('every verbose option applies (a perft-style check on a busy position)', () => {
    const s = position('play @p1 t9 lock:red played:1 hands:p1=5,p2=5 | start@0,0 red-curve@0,-1r1 white-red-curve@1,0r3 black-curve@-1,0r1 black-head@-1,1');
    const detail = tapeworm.legalOptions(s, { verbose: true }).detail!;
    for (const move of detail) expect(tapeworm.apply(s, move).ok, JSON.stringify(move)).toBe(true);
    // Both red ends face the cell (1, -1): only a curve joining west and south fits there (closing a
    // ring); the one red line that can be cut is the start's north edge.
    expect(detail.map((m) => (m.type === 'place' ? `${m.card}@${m.x},${m.y}r${m.rotation}` : m.type === 'cut' ? `cut ${m.card} ${m.x},${m.y} ${m.edge}` : m.type))).toEqual([
      'red-curve@1,-1r2',
      'red-curve-peek@1,-1r2',
      'red-curve-hatch@1,-1r2',
      'wild-curve@1,-1r2',
      'cut red-straight-cut 0,-1 S',
      'end-turn',
    ]);
  });
});

describe('Tapeworm notation', () => {
  it('round-trips positions', () => {
    for (const line of [
      'draw @p1 t1 deck:69 hands:p1=5,p2=5 discard:- | start@0,0',
      'effect @p2 t7 lock:white played:2 ends pending:dig/white-straight-dig,ringworm/white-straight-dig passes:1 last:p2 reshuffles:1 deck:13 hands:p1=30,p2=33 discard:red-head | start@0,0 wild-straight@1,0r1=white white-straight-dig@2,0r1',
      'over t20 last:p1 winner:p1 end:emptied-hand deck:60 hands:p1=0,p2=9,p3=9 discard:- | start@0,0 red-head@0,-1r2',
    ]) {
      expect(toNotation(fromNotation(line))).toBe(line);
    }
  });

  it('says what is wrong with a bad line', () => {
    expect(() => fromNotation('play @p1 t1 hands:p1=5 | red-straight@0,-1')).toThrow(/the start card must come first/);
    expect(() => fromNotation('play @p1 t1 hands:p1=5 | start@0,0 red-straight@0,-2')).toThrow(/not joined to the start card/);
    expect(() => fromNotation('play @p1 t1 hands:p1=5 | start@0,0 pink-straight@0,-1')).toThrow(/meets start on its S edge with pink against red/);
    expect(() => fromNotation('play @p1 t1 hands:p1=5 | start@0,0 wild-straight@0,-1')).toThrow(/a wild needs the colour it took/);
    expect(() => fromNotation('play @p1 t1 deck:3 hands:p1=5 | start@0,0')).toThrow(/is not 80/);
    expect(() => fromNotation('play @zed t1 hands:p1=5 | start@0,0')).toThrow(NotationError);
    expect(() => fromNotation('play @p1 t1 hands:p1=5 discard:red-head-swap,red-head-swap | start@0,0')).toThrow(/2 red-head-swap cards shown but the deck has 1/);
  });

  it('refuses a line the engine could not play on: effects pending outside the effect phase, unknown players, counts that are not counts', () => {
    // An effect phase with nothing pending made legalOptions throw a TypeError.
    expect(() => fromNotation('effect @p1 t1 hands:p1=5,p2=5 | start@0,0')).toThrow(/effects are pending exactly in the effect phase \(phase effect, 0 pending\)/);
    expect(() => fromNotation('play @p1 t1 pending:peek/red-head hands:p1=5,p2=5 | start@0,0')).toThrow(/effects are pending exactly in the effect phase \(phase play, 1 pending\)/);
    expect(() => fromNotation('play @p1 t1 hands:p1=5,p1=5 | start@0,0')).toThrow(/hands: "p1" has two seats/);
    expect(() => fromNotation('over t1 winner:zed hands:p1=5,p2=5 | start@0,0')).toThrow(/winner: "zed" is not in hands:/);
    expect(() => fromNotation('play @p1 t1 last:zed hands:p1=5,p2=5 | start@0,0')).toThrow(/last: "zed" is not in hands:/);
    expect(() => fromNotation('play @p1 t1 played:x hands:p1=5,p2=5 | start@0,0')).toThrow(/played: "x" is not a count/);
    expect(() => fromNotation('play @p1 t1 passes:-1 hands:p1=5,p2=5 | start@0,0')).toThrow(/passes: "-1" is not a count/);
  });
});
