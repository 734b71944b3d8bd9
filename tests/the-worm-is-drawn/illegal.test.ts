/** Illegal moves: each is rejected with a namespaced code and a message, and the state is untouched. */
import { describe, expect, it } from 'vitest';
import { toTableGame } from '../../shared/game.js';
import { game, newGame, play, position, reject } from './helpers.js';

describe('illegal moves are rejected with a code and leave the state unchanged', () => {
  const cases: [string, string, string, RegExp][] = [
    ['seed T:21-36 X:- S:-/-/- P:0/roll K:- R:-', 'keep 5', 'move/wrong-phase', /cannot keep now: it is p1's turn to roll/],
    ['seed T:21-36 X:- S:-/-/- P:0/roll K:- R:-', 'take 21', 'move/wrong-phase', /cannot take now/],
    ['seed T:21-36 X:- S:-/-/- P:0/roll K:- R:-', 'roll 12345w', 'move/wrong-dice-count', /8 dice are to be rolled \(0 kept\), but the roll has 6/],
    ['seed T:21-36 X:- S:-/-/- P:0/roll K:ww R:-', 'roll 12345w11', 'move/wrong-dice-count', /6 dice are to be rolled \(2 kept\), but the roll has 8/],
    ['seed T:21-36 X:- S:-/-/- P:0/keep K:- R:1134ww55', 'keep 2', 'move/face-not-rolled', /no die in the roll \(1 1 3 4 worm worm 5 5\) shows 2/],
    ['seed T:21-36 X:- S:-/-/- P:0/keep K:ww R:ww1111', 'keep w', 'move/face-already-kept', /worm was already kept this turn/],
    ['seed T:21-36 X:- S:-/-/- P:0/keep K:ww R:ww1111', 'roll 111111', 'move/wrong-phase', /cannot roll now/],
    ['seed T:21-36 X:- S:-/-/- P:0/roll K:ww R:-', 'stop', 'move/cannot-stop', /seed preset has no stopping/],
    ['classic T:21-36 X:- S:-/-/- P:0/keep K:ww R:ww1111', 'stop', 'move/wrong-phase', /cannot stop now/],
    ['seed T:21-25,27-36 X:- S:-/26/- P:0/choose K:ww111155 R:-', 'take 27', 'move/tile-not-takeable', /tile 27 is above the total of 26/],
    ['seed T:21-25,27-36 X:- S:-/26/- P:0/choose K:ww111155 R:-', 'take 26', 'move/tile-not-takeable', /tile 26 is not face up on the table/],
    ['seed T:21-25,27-36 X:- S:-/26/- P:0/choose K:ww111155 R:-', 'take 40', 'move/tile-not-takeable', /not face up/],
    ['seed T:21-25,27-36 X:- S:-/26/- P:0/choose K:ww111155 R:-', 'steal 25', 'move/tile-not-stealable', /not an opponent's top tile equal to the total of 26/],
    ['seed T:21-25,27-36 X:- S:-/26/- P:0/choose K:ww111155 R:-', 'roll 11111111', 'move/wrong-phase', /to take or steal a tile/],
    ['seed T:- X:21-30 S:31.32/33.34/35.36 P:0/over K:- R:-', 'roll 11111111', 'move/game-over', /no face-up tile is left/],
  ];
  it.each(cases)('%s: %s → %s', (notation, move, code, message) => {
    const r = reject(position(notation), move);
    expect(r.code).toBe(code);
    expect(r.message).toMatch(message);
  });

  it('malformed moves are stopped at the edge by the move schema, with the field named', () => {
    const table = toTableGame(game);
    const s = newGame();
    const bad = [
      { type: 'keep', face: '6' },
      { type: 'roll', dice: ['1', 'seven'] },
      { type: 'roll', dice: [] },
      { type: 'take', tile: 'twenty' },
      { type: 'jump' },
      null,
    ];
    for (const move of bad) {
      const r = table.apply(s, move);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.code).toBe('move/malformed');
    }
    const r = table.apply(s, { type: 'keep', face: '6' });
    expect(!r.ok && r.message).toMatch(/face/);
  });

  it('a move of the right kind at the wrong moment never half-applies', () => {
    const s = play(newGame(), 'roll 1134ww55', 'keep w');
    const before = JSON.stringify(s);
    for (const move of ['keep 1', 'take 21', 'steal 21', 'stop', 'roll 1']) reject(s, move);
    expect(JSON.stringify(s)).toBe(before);
  });
});
