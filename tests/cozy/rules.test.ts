/**
 * The definition's edges: illegal moves (a code, a message, the state unchanged), the table's
 * moves and authority, status, dice requests and dice → roll, buttons, setup options.
 */
import { describe, expect, it } from 'vitest';
import { toTableGame } from '../../shared/game.js';
import { legalOptions, setup, wormAndCozy } from '../../shared/games/worm-and-cozy/index.js';
import type { CozyState } from '../../shared/games/worm-and-cozy/state.js';
import { P, play, reject, stateAt } from './helpers.js';

const start = (): CozyState => {
  const r = setup({});
  if (!r.ok) throw new Error(r.message);
  return r.state;
};

const EMPTY = `
    A B C D E F G H I J
1   . . . . . . . . . .
2   . . . . . . . . . .
3   . . # . . . . . . .
4   . . . . . . . # . .
5   . . . . . . . . . .
6   . . . . # . . . . .
7   . . . . . . . . . .
8   . # . . . . . . . .
9   . . . . . . . . # .
10  . . . . . . . . . .`;

describe('illegal moves are rejected with a code and the state unchanged', () => {
  it('moves out of phase', () => {
    const s = start();
    expect(reject(s, { type: 'placeWorm', player: P, cells: ['A1', 'A2', 'A3', 'A4', 'A5'] }).code).toBe('move/wrong-phase');
    expect(reject(s, { type: 'endHour' }).code).toBe('move/wrong-phase');
    const rolled = play(s, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] });
    expect(reject(rolled, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] }).code).toBe('move/wrong-phase');
  });

  it('a player who is not at the table', () => {
    const s = play(start(), { type: 'roll', shape: 'I', organs: ['eye', 'eye'] });
    expect(reject(s, { type: 'done', player: 'mallory' })).toMatchObject({ code: 'move/not-your-turn', message: expect.stringMatching(/no player "mallory"/) });
  });

  it('the wrong shape, a rock, a cell off the board, B or C at 1 AM', () => {
    const s = play(start(), { type: 'roll', shape: 'I', organs: ['eye', 'mouth'] });
    expect(reject(s, { type: 'placeWorm', player: P, cells: ['A1', 'A2', 'A3', 'A4', 'B4'] }).message).toMatch(/is an L; the shape die says I/);
    expect(reject(s, { type: 'placeWorm', player: P, cells: ['C1', 'C2', 'C3', 'C4', 'C5'] }).message).toMatch(/C3 is not empty \(a rock\)/);
    expect(reject(s, { type: 'placeWorm', player: P, cells: ['A7', 'A8', 'A9', 'A10', 'A11'] }).message).toMatch(/A11 is not a cell/);
    const placed = play(s, { type: 'placeWorm', player: P, cells: ['A1', 'A2', 'A3', 'A4', 'A5'] }, { type: 'addOrgan', player: P, organ: 'eye', cell: 'A1', facing: 'N' }, { type: 'done', player: P }, { type: 'endHour' }, { type: 'roll', shape: 'I', organs: ['eye', 'mouth'] });
    // 2 AM: worm 1 (columns A) is not in columns F–J.
    expect(reject(placed, { type: 'activate', player: P, worm: 1 }).message).toMatch(/region/);
    const firstHour = stateAt(EMPTY.replace('2   . . . . .', '2   1 1 1 1 1'), { hour: 0, roll: ['I', 'eye', 'mouth'] });
    expect(reject(firstHour, { type: 'activate', player: P, worm: 1 }).message).toMatch(/at 1 AM the only option is to place a new worm/);
  });

  it('the hour cannot end while a player still owes option A\'s organ (it cannot be passed); once drawn, it can', () => {
    const s = play(start(), { type: 'roll', shape: 'I', organs: ['eye', 'mouth'] }, { type: 'placeWorm', player: P, cells: ['A1', 'A2', 'A3', 'A4', 'A5'] });
    const refused = reject(s, { type: 'endHour' });
    expect(refused.code).toBe('move/illegal');
    expect(refused.message).toMatch(/1 AM cannot end yet: .* still has to add option A's organ to the new worm/);
    expect(legalOptions(s).table).toEqual([]);
    const drawn = play(s, { type: 'addOrgan', player: P, organ: 'eye', cell: 'A1', facing: 'N' });
    expect(legalOptions(drawn).table).toEqual(['endHour']);
    expect(play(drawn, { type: 'endHour' }).hour).toBe(1);
    // Decisions that may be passed (the worm's own actions, chain reactions) do not hold the hour up.
    expect(legalOptions(play(start(), { type: 'roll', shape: 'I', organs: ['eye', 'mouth'] })).table).toEqual(['endHour']);
  });

  it('only one option per hour, and no option after "done"', () => {
    let s = play(start(), { type: 'roll', shape: 'I', organs: ['brain', 'brain'] });
    s = play(s, { type: 'placeWorm', player: P, cells: ['A1', 'B1', 'C1', 'D1', 'E1'] }, { type: 'addOrgan', player: P, organ: 'brain', cell: 'C1' }, { type: 'pass', player: P });
    expect(s.sheets[0]!.done).toBe(true);
    expect(reject(s, { type: 'placeWorm', player: P, cells: ['A2', 'B2', 'C2', 'D2', 'E2'] }).message).toMatch(/done this hour/);
  });

  it('decisions out of order: a food with no eye acting, an organ nobody asked for', () => {
    const s = stateAt(EMPTY.replace('2   . . . . .', '2   1 1 1 1 1E>'), { hour: 2, roll: ['I', 'eye', 'mouth'] });
    expect(reject(s, { type: 'food', player: P, cell: 'G2' }).message).toMatch(/adding a food is not possible now: choose option A, B or C first/);
    const acting = play(s, { type: 'activate', player: P, worm: 1 });
    expect(reject(acting, { type: 'food', player: P, cell: 'G2' }).message).toMatch(/first have organs act/);
    expect(reject(acting, { type: 'act', player: P, cell: 'A2' }).message).toMatch(/not one of those that may act now/);
  });

  it('the game is over after the last hour', () => {
    let s = start();
    for (let h = 0; h < 16; h++) s = play(s, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] }, { type: 'endHour' });
    expect(s.phase).toBe('over');
    expect(reject(s, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] }).code).toBe('move/game-over');
    expect(wormAndCozy.status(s)).toMatchObject({ headline: 'Game over', finished: true, ranking: [{ player: P, rank: 0, score: 0 }] });
  });

  it('a malformed move never reaches the rules', () => {
    const t = toTableGame(wormAndCozy);
    const s = start();
    expect(t.apply(s, { type: 'placeWorm', player: P, cells: ['A1'] })).toMatchObject({ ok: false, code: 'move/malformed' });
    expect(t.apply(s, { type: 'fly' })).toMatchObject({ ok: false, code: 'move/malformed' });
  });
});

describe('the table', () => {
  it('table moves need the table; choices belong to their player', () => {
    const s = start();
    expect(wormAndCozy.authority(s, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] })).toEqual({ kind: 'table' });
    expect(wormAndCozy.authority(s, { type: 'endHour' })).toEqual({ kind: 'table' });
    expect(wormAndCozy.authority(s, { type: 'done', player: 'ann' })).toEqual({ kind: 'player', player: 'ann' });
  });

  it('status: the hour, who still has to act', () => {
    const r = setup({ players: [{ id: 'ann', name: 'Ann' }, { id: 'bo', name: 'Bo' }] });
    if (!r.ok) throw new Error(r.message);
    let s = r.state;
    expect(wormAndCozy.status(s)).toEqual({ headline: '1 AM: roll the dice', toAct: [], finished: false });
    s = play(s, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] }, { type: 'done', player: 'bo' });
    expect(wormAndCozy.status(s)).toEqual({ headline: '1 AM', toAct: ['ann'], finished: false });
    for (let h = 0; h < 10; h++) s = play(s, { type: 'endHour' }, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] });
    expect(wormAndCozy.status(s).headline).toBe('3 PM');
  });

  it('dice: three d6 with the red shape die, or the icon dice; a roll that does not fit says why', () => {
    const s = start();
    expect(wormAndCozy.diceRequest(s)).toMatchObject({ sets: ['d6'], slots: [{ role: 'shape', color: 'red' }, { role: 'organ' }, { role: 'organ' }] });
    expect(wormAndCozy.diceMove(s, [{ set: 'd6', face: '3', color: 'white' }, { set: 'd6', face: '6', color: 'red' }, { set: 'd6', face: '1', color: 'white' }])).toEqual({ ok: true, state: { type: 'roll', shape: 'Z', organs: ['tail', 'eye'] } });
    expect(wormAndCozy.diceMove(s, [{ set: 'cozy-organ', face: 'heart' }, { set: 'cozy-shape', face: 'W' }, { set: 'cozy-organ', face: 'collar' }])).toEqual({ ok: true, state: { type: 'roll', shape: 'W', organs: ['heart', 'collar'] } });
    expect(wormAndCozy.diceMove(s, [{ set: 'd6', face: '3', color: 'white' }, { set: 'd6', face: '6', color: 'white' }, { set: 'd6', face: '1', color: 'white' }])).toMatchObject({ ok: false, code: 'dice/unexpected', message: expect.stringMatching(/0 red dice/) });
    expect(wormAndCozy.diceMove(s, [{ set: 'd6', face: '3', color: 'red' }])).toMatchObject({ ok: false, message: expect.stringMatching(/3 dice/) });
    const cozy = setup({ dice: 'cozy' });
    if (!cozy.ok) throw new Error(cozy.message);
    expect(wormAndCozy.diceRequest(cozy.state)?.sets).toEqual(['cozy-shape', 'cozy-organ']);
    const rolled = play(s, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] });
    expect(wormAndCozy.diceRequest(rolled)).toBeNull();
    expect(wormAndCozy.diceMove(rolled, [])).toMatchObject({ ok: false, code: 'move/wrong-phase' });
  });

  it('buttons: NEXT ends the hour; OK in a solo game means nothing more this hour', () => {
    const s = play(start(), { type: 'roll', shape: 'I', organs: ['eye', 'eye'] });
    expect(wormAndCozy.buttonMove(s, 'NEXT')).toEqual({ type: 'endHour' });
    expect(wormAndCozy.buttonMove(s, 'OK')).toEqual({ type: 'done', player: P });
    expect(wormAndCozy.buttonMove(start(), 'NEXT')).toBeNull();
  });

  it('setup: a chapter by id or inline; bad options say what is wrong', () => {
    expect(setup({ chapter: 'clew-99' })).toMatchObject({ ok: false, code: 'setup/invalid', message: expect.stringMatching(/unknown chapter "clew-99"/) });
    expect(setup({ players: [{ id: 'a', name: 'A' }, { id: 'a', name: 'B' }] })).toMatchObject({ ok: false, message: expect.stringMatching(/same id/) });
    expect(toTableGame(wormAndCozy).setup({ chapter: 5 })).toMatchObject({ ok: false, code: 'setup/invalid' });
  });

  it('the state is small plain JSON', () => {
    const s = play(start(), { type: 'roll', shape: 'I', organs: ['eye', 'eye'] });
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(JSON.stringify(s).length).toBeLessThan(6000);
  });

  it('verbose options add the cells to highlight and the region', () => {
    const s = play(start(), { type: 'roll', shape: 'I', organs: ['eye', 'eye'] });
    const v = wormAndCozy.legalOptions(s, { verbose: true });
    expect(v.verbose!.region).toHaveLength(50);
    const first = v.verbose!.moves.find((m) => m.move.type === 'placeWorm')!;
    expect(first.cells).toHaveLength(5);
    expect(v.verbose!.moves.map((m) => m.move)).toEqual(v.moves);
  });
});
