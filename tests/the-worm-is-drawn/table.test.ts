/** The table side: setup options, camera requests and rolls, buttons, authority, headline, notation. */
import { describe, expect, it } from 'vitest';
import { toTableGame } from '../../shared/game.js';
import { fromNotation, moveText, parseMove, toNotation } from '../../shared/games/the-worm-is-drawn/index.js';
import type { ObservedDie } from '../../shared/dice.js';
import { game, newGame, play, position } from './helpers.js';

const worm = (...faces: string[]): ObservedDie[] => faces.map((face) => ({ set: 'worm', face }));

describe('setup', () => {
  it('takes 2 to 7 players in turn order, with default ids p1…', () => {
    const r = game.setup({ players: [{ name: 'Ann' }, { name: 'Bo', id: 'bo' }], preset: 'seed', diceSet: 'worm' });
    expect(r.ok && game.players(r.state)).toEqual([
      { id: 'p1', name: 'Ann' },
      { id: 'bo', name: 'Bo' },
    ]);
  });

  it.each([
    [{ players: [{ name: 'solo' }] }, /players/],
    [{ players: Array.from({ length: 8 }, (_, i) => ({ name: `P${i}` })) }, /players/],
    [{ players: [{ name: 'A', id: 'x' }, { name: 'B', id: 'x' }] }, /players\.1\.id: player id x is used twice/],
    [{ players: [{ name: 'A' }, { name: 'B' }], preset: 'house' }, /preset/],
    [{ players: [{ name: '', id: 'a' }, { name: 'B' }] }, /players\.0\.name/],
  ])('refuses bad options with the field named: %j', (options, message) => {
    const r = toTableGame(game).setup(options);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe('setup/invalid');
      expect(r.message).toMatch(message);
    }
  });
});

describe('the camera', () => {
  it('asks for the dice still to roll, and nothing while a face or a tile is being chosen', () => {
    const s = newGame();
    expect(game.diceRequest(s)).toEqual({ sets: ['worm'], count: { min: 8, max: 8 }, prompt: 'Player 1: roll 8 dice' });
    expect(game.diceRequest(play(s, 'roll 1134ww55'))).toBeNull();
    expect(game.diceRequest(play(s, 'roll 1134ww55', 'keep 1'))?.count).toEqual({ min: 6, max: 6 });
  });

  it('turns a read roll into a roll move', () => {
    const r = game.diceMove(newGame(), worm('1', '1', '3', '4', 'worm', 'worm', '5', '5'));
    expect(r).toEqual({ ok: true, state: parseMove('roll 1134ww55') });
  });

  it('reads standard d6 as stand-ins, the 6 being the worm', () => {
    const s = game.setup({ players: [{ name: 'A' }, { name: 'B' }], preset: 'seed', diceSet: 'd6' });
    if (!s.ok) throw new Error(s.message);
    expect(game.diceRequest(s.state)?.sets).toEqual(['d6']);
    const dice: ObservedDie[] = ['6', '6', '1', '2', '3', '4', '5', '5'].map((face) => ({ set: 'd6', face }));
    expect(game.diceMove(s.state, dice)).toEqual({ ok: true, state: parseMove('roll ww123455') });
  });

  it.each([
    [worm('1', '2'), 'dice/wrong-count', /expected 8 dice \(0 kept\), saw 2/],
    [[...worm('1', '2', '3', '4', '5', '5', '5'), { set: 'wurmeln', face: 'X' } as ObservedDie], 'dice/wrong-set', /die 8 is from the wurmeln set/],
    [worm('1', '2', '3', '4', '5', '5', '5', '6'), 'dice/bad-face', /die 8 shows "6", not a face of the worm set/],
  ])('refuses a roll that cannot be right, saying why', (dice, code, message) => {
    const r = game.diceMove(newGame(), dice);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe(code);
      expect(r.message).toMatch(message);
    }
  });

  it('refuses a roll when none is expected', () => {
    const r = game.diceMove(play(newGame(), 'roll 1134ww55'), worm('1'));
    expect(!r.ok && r.code).toBe('dice/not-expected');
  });
});

describe('buttons, authority and the headline', () => {
  it('OK confirms the only choice; it means nothing when there are several', () => {
    const s = play(newGame(), 'roll ww111155');
    expect(game.buttonMove(s, 'OK')).toBeNull();
    const one = play(newGame(), 'roll 1134ww55', 'keep w', 'roll ww1111');
    expect(game.buttonMove(one, 'OK')).toEqual({ type: 'keep', face: '1' });
    const take = play(position('classic T:21-36 X:- S:-/-/- P:0/roll K:- R:-'), 'roll wwwwwwww', 'keep w');
    expect(game.buttonMove(take, 'OK')).toEqual({ type: 'take', tile: 36 });
  });

  it('NEXT stops the turn where the preset allows it', () => {
    const classic = play(newGame('classic'), 'roll wwww1123', 'keep w');
    expect(game.buttonMove(classic, 'NEXT')).toEqual({ type: 'stop' });
    expect(game.buttonMove(play(newGame('seed'), 'roll wwww1123', 'keep w'), 'NEXT')).toBeNull();
  });

  it('the roll is recorded by the table; keeping, stopping, taking and stealing are the player’s', () => {
    const s = newGame();
    expect(game.authority(s, parseMove('roll 11111111'))).toEqual({ kind: 'table' });
    expect(game.authority(s, parseMove('keep 1'))).toEqual({ kind: 'player', player: 'p1' });
    expect(game.authority(play(s, 'roll 11111111', 'keep 1'), parseMove('take 21'))).toEqual({ kind: 'player', player: 'p2' });
  });

  it('the headline says whose turn, what to do, and the running total', () => {
    expect(game.status(newGame()).headline).toBe('Player 1: roll 8 dice');
    expect(game.status(play(newGame(), 'roll 1134ww55', 'keep w')).headline).toBe('Player 1: roll 6 dice (total 12, worm held)');
    expect(game.status(play(newGame('classic'), 'roll 1134ww55', 'keep 1')).headline).toBe('Player 1: roll 6 dice or stop (total 2)');
    expect(game.status(newGame()).toAct).toEqual(['p1']);
  });
});

describe('notation', () => {
  it.each([
    'seed T:21-36 X:- S:-/-/- P:0/roll K:- R:-',
    'seed T:21-24,26,28-30,32,34-36 X:25 S:27.31/-/33 P:1/keep K:ww1111 R:55',
    'classic T:21,23,25,27-30 X:31-33 S:22.36/24.26/34.35 P:2/roll K:555 R:-',
  ])('round-trips %s', (text) => {
    expect(toNotation(position(text))).toBe(text);
  });

  it.each([
    ['seed T:21-35 X:- S:-/- P:0/roll K:- R:-', /tiles must be 21-36, each exactly once/],
    ['seed T:21-36 X:- S:-/- P:2/roll K:- R:-', /player 2 is not a seat/],
    ['seed T:21-36 X:- S:-/- P:0/roll K:w1w R:-', /worm is kept twice/],
    ['seed T:21-36 X:- S:-/- P:0/keep K:w R:123', /must make 8/],
    ['house T:21-36 X:- S:-/- P:0/roll K:- R:-', /preset must be seed or classic/],
    ['seed T:21-36 X:- S:-/- P:0/roll K:x R:-', /"x" is not a die face/],
    // Positions where the player to move could do nothing: the game would be stuck.
    ['seed T:21-36 X:- S:-/- P:0/choose K:- R:-', /no move is possible: a total of 0 reaches no face-up tile/],
    ['classic T:21-36 X:- S:-/- P:0/choose K:5555 R:-', /no move is possible: no worm was kept/],
    ['classic T:21-36 X:- S:-/- P:0/choose K:w1 R:-', /no move is possible: a total of 6 reaches no face-up tile/],
    ['seed T:21-36 X:- S:-/- P:0/keep K:ww R:wwwwww', /no move is possible: the roll shows no face that was not kept before/],
    ['seed T:21-36 X:- S:-/- P:0/roll K:wwwwwwww R:-', /no move is possible: every die is kept, so none is left to roll/],
    ['seed T:21-35 X:- S:36/- P:0/roll K:12345w R:-', /no move is possible: every face is kept, so the turn has ended/],
    // Malformed fields.
    ['seed T:21-36 X:- S:-/- P:/roll K:- R:-', /P: names no seat/],
    ['seed T:21-36 X:- S:-/- P:1e0/roll K:- R:-', /player 1e0 is not a seat/],
    ['seed T:21-36 X:- S:-/- P:0/roll/extra K:- R:-', /P:0\/roll\/extra must be <seat>\/<phase>/],
    ['seed T:21-36 X:- S:-/- P:0/roll K:- R:- Z:bogus', /"Z:bogus" is not a field \(T: X: S: P: K: R:\)/],
    ['seed T:21-36 T:21 X:- S:-/- P:0/roll K:- R:-', /the T: field is given twice/],
  ])('refuses %s', (text, message) => {
    const r = fromNotation(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });

  it('move text round-trips', () => {
    for (const text of ['roll 1134ww55', 'keep worm', 'keep 3', 'stop', 'take 26', 'steal 31']) expect(moveText(parseMove(text))).toBe(text);
    expect(() => parseMove('keep 7')).toThrow(/keep needs a face/);
    expect(() => parseMove('roll ,,,')).toThrow(/no dice/);
    // Tile numbers in digits: Number() alone reads "0x1a" as 26 and "1e1" as 10.
    expect(() => parseMove('take 0x1a')).toThrow(/take needs a tile number/);
    expect(() => parseMove('steal 1e1')).toThrow(/steal needs a tile number/);
  });
});

describe('the headline when the turn is judged', () => {
  it('says "take" when nothing can be stolen, "take or steal" when something can', () => {
    expect(game.status(position('seed T:21-25,27-36 X:- S:-/26/- P:0/choose K:ww111155 R:-')).headline).toBe('p1: take or steal a tile (total 26, worm held)');
    expect(game.status(position('seed T:21-36 X:- S:-/-/- P:0/choose K:ww111155 R:-')).headline).toBe('p1: take a tile (total 26, worm held)');
  });
});
