/** The table side: setup options, reading the bids and the ghost, buttons, authority, notation. */
import { describe, expect, it } from 'vitest';
import { toTableGame } from '../../shared/game.js';
import type { ObservedDie } from '../../shared/dice.js';
import { moveText, parseMove, toNotation } from '../../shared/games/worm-up/index.js';
import { equipmentSchema, loadData } from '../../shared/games/worm-up/data.js';
import { game, newRace, play } from './helpers.js';

const die = (face: string, color?: string): ObservedDie => ({ set: 'wurmeln', face, ...(color ? { color } : {}) });

describe('setup', () => {
  it.each([
    [{ players: [{ name: 'A', color: 'mauve' }, { name: 'B' }] }, /players\.0\.color: "mauve" is not a die colour/],
    [{ players: [{ name: 'A', id: 'x' }, { name: 'B', id: 'x' }] }, /player id x is used twice/],
    [{ players: [{ name: 'A' }] }, /players/],
  ])('refuses %j', (options, message) => {
    const r = toTableGame(game).setup(options);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe('setup/invalid');
      expect(r.message).toMatch(message);
    }
  });

  it('players without a colour take the box’s colours in order, skipping chosen ones', () => {
    const r = game.setup({ players: [{ name: 'A' }, { name: 'B', color: 'red' }, { name: 'C' }] });
    expect(r.ok && r.state.players.map((p) => p.color)).toEqual(['yellow', 'red', 'green']);
  });

  it('a broken equipment file is refused on load, naming the file and the field', () => {
    expect(() => loadData(equipmentSchema, { colors: ['red', 'teal'], segments: 7 }, 'data/equipment.json')).toThrow(
      /worm-up: data\/equipment\.json is invalid: colors\.1: "teal" is not a die colour/,
    );
    expect(() => loadData(equipmentSchema, { colors: ['red', 'red'], segments: 7 }, 'data/equipment.json')).toThrow(/listed twice/);
  });
});

describe('reading the bids', () => {
  it('leaves out spare dice of colours nobody plays', () => {
    const r = game.diceMove(newRace(2), [die('4', 'red'), die('X', 'blue'), die('5', 'yellow')]);
    expect(r).toEqual({ ok: true, state: parseMove('reveal p1=4 p2=5') });
  });

  it.each([
    [[die('4', 'red')], 'dice/missing', /no die for Player 2 \(yellow\)/],
    [[die('4', 'red'), die('5')], 'dice/no-color', /die 2 \(5\) has no colour/],
    [[die('4', 'red'), die('5', 'red'), die('6', 'yellow')], 'dice/duplicate-color', /two red dice/],
    [[die('4', 'red'), { set: 'd6', face: '5', color: 'yellow' } as ObservedDie], 'dice/wrong-set', /die 2 is from the d6 set/],
    [[die('4', 'red'), die('2', 'yellow')], 'dice/bad-face', /die 2 shows "2", not 3–7 or X/],
  ])('refuses a reveal it cannot read, saying why (%#)', (dice, code, message) => {
    const r = game.diceMove(newRace(2), dice);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe(code);
      expect(r.message).toMatch(message);
    }
  });

  it('reads the ghost’s two dice, ignoring player dice still in the tray', () => {
    const s = play(newRace(2), 'reveal p1=4 p2=5');
    expect(game.diceMove(s, [die('4', 'red'), die('7', 'green'), die('X', 'blue'), die('5', 'yellow')])).toEqual({ ok: true, state: parseMove('ghost 7X') });
    expect(game.diceMove(s, [die('3'), die('6')])).toEqual({ ok: true, state: parseMove('ghost 36') });
    const r = game.diceMove(s, [die('3', 'green')]);
    expect(!r.ok && r.code).toBe('dice/wrong-count');
  });

  it('expects no dice while X names its number or the worms move', () => {
    const s = play(newRace(3), 'reveal p1=X p2=3 p3=4');
    expect(game.diceRequest(s)).toBeNull();
    const r = game.diceMove(s, [die('3', 'red')]);
    expect(!r.ok && r.code).toBe('dice/not-expected');
  });
});

describe('buttons and authority', () => {
  it('NEXT or OK: the worm whose turn it is has moved', () => {
    const s = play(newRace(3), 'reveal p1=5 p2=3 p3=4');
    expect(game.buttonMove(s, 'NEXT')).toEqual({ type: 'moved' });
    expect(game.buttonMove(s, 'OK')).toEqual({ type: 'moved' });
    expect(game.buttonMove(newRace(3), 'NEXT')).toBeNull();
    expect(game.buttonMove(s, 'READ')).toBeNull();
  });

  it('the table reveals, rolls the ghost, advances and declares; X names its own number', () => {
    const s = play(newRace(3), 'reveal p1=X p2=3 p3=4');
    expect(game.authority(s, parseMove('x 5'))).toEqual({ kind: 'player', player: 'p1' });
    expect(game.authority(newRace(3), parseMove('reveal p1=3 p2=4 p3=5'))).toEqual({ kind: 'table' });
    expect(game.authority(s, parseMove('finish p1'))).toEqual({ kind: 'table' });
  });

  it('the headline names the X player and the free numbers, then the movers', () => {
    let s = play(newRace(3), 'reveal p1=X p2=3 p3=4');
    expect(game.status(s)).toMatchObject({ headline: "Round 1: Player 1 names X's number: 5, 6, 7", toAct: ['p1'] });
    s = play(s, 'x 7', 'moved', 'moved');
    expect(game.status(s).headline).toBe('Round 1: Player 1 moves 7 (X) and may swing a finish post');
  });
});

describe('notation', () => {
  it('shows round, phase, bids with void reasons, the restricted seats, the ghost and the motion', () => {
    let s = play(newRace(2), 'reveal p1=X p2=5');
    expect(toNotation(s)).toBe('r1 ghost red:X? yellow:5 ghost:- moved:0/0');
    s = play(s, 'ghost 53');
    expect(toNotation(s)).toBe('r1 x red:X? yellow:5/g ghost:53 moved:0/0');
    s = play(s, 'x 4', 'moved');
    expect(toNotation(s)).toBe('r2 bid ^red:- yellow:- ghost:- moved:-');
    s = play(s, 'reveal p1=3 p2=7', 'ghost 33');
    expect(toNotation(s)).toBe('r2 move ^red:3/g yellow:7 ghost:33 moved:0/1');
    s = play(s, 'finish p2');
    expect(toNotation(s)).toBe('r2 over ^red:- yellow:- ghost:- moved:- win:yellow');
  });

  it('move text round-trips', () => {
    for (const t of ['reveal p1=3 p2=X', 'ghost 7X', 'x 4', 'moved', 'moved post=left', 'finish p2']) expect(moveText(parseMove(t))).toBe(t);
    expect(() => parseMove('reveal p1=9')).toThrow(/not player=bid/);
    // One die each, one face on it: a second bid no longer replaces the first.
    expect(() => parseMove('reveal p1=5 p1=6')).toThrow(/p1 bids twice/);
    expect(() => parseMove('reveal p1=5=6')).toThrow(/"p1=5=6" is not player=bid/);
    expect(() => parseMove('x 0x4')).toThrow(/x needs a number/);
  });
});
