/**
 * The worked examples of the Worm & Cozy rules text, each on a board built to match its words
 * (the figures were lost). Board pictures use the notation in shared/games/worm-and-cozy/notation.ts.
 */
import { describe, expect, it } from 'vitest';
import { applyMove } from '../../shared/games/worm-and-cozy/apply.js';
import { cellIndex, geometry } from '../../shared/games/worm-and-cozy/board.js';
import { setup } from '../../shared/games/worm-and-cozy/index.js';
import { legalOptions } from '../../shared/games/worm-and-cozy/options.js';
import { organSpots } from '../../shared/games/worm-and-cozy/organs.js';
import type { CozyState } from '../../shared/games/worm-and-cozy/state.js';
import { chapterFor, movesOf, movesOfType, P, play, reject, show, stateAt } from './helpers.js';

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

const worm = (s: CozyState, id: number, player = 0) => s.sheets[player]!.worms[id - 1]!;
const cell = (s: CozyState, name: string) => cellIndex(geometry(s.chapter), name);

describe('Alice: option A at 1 AM', () => {
  it('places an L, flipped and rotated, partly in the 1 AM columns, adds a rolled organ, which may act', () => {
    const start = setup({});
    if (!start.ok) throw new Error(start.message);
    let s = play(start.state, { type: 'roll', shape: 'L', organs: ['eye', 'brain'] });
    // At 1 AM the only option is to place a new worm (or do nothing).
    expect(new Set(movesOf(s).map((m) => m.type))).toEqual(new Set(['placeWorm', 'done']));
    // Columns F–J only: not in the 1 AM region (columns A–E).
    expect(reject(s, { type: 'placeWorm', player: P, cells: ['F1', 'F2', 'F3', 'F4', 'G4'] }).message).toMatch(/region/);
    // A flipped and rotated L: E1 above the end of B2–E2.
    const cells = ['B2', 'C2', 'D2', 'E2', 'E1'];
    expect(movesOfType(s, 'placeWorm').some((m) => [...m.cells].sort().join() === [...cells].sort().join()), show(s)).toBe(true);
    s = play(s, { type: 'placeWorm', player: P, cells });
    expect(worm(s, 1).shape).toBe('L');
    expect(worm(s, 1).front).toBe(false);
    // Now one of the organs rolled must go on the new worm: no passing.
    const organMoves = movesOf(s);
    expect(organMoves.every((m) => m.type === 'addOrgan' && (m.organ === 'eye' || m.organ === 'brain')), show(s)).toBe(true);
    expect(reject(s, { type: 'pass', player: P }).code).toBe('move/illegal');
    s = play(s, { type: 'addOrgan', player: P, organ: 'eye', cell: 'B2', facing: 'W' });
    expect(worm(s, 1).front).toBe(true);
    expect(worm(s, 1).cells[0]).toBe(cell(s, 'B2'));
    // "Then the new organ may act..."
    expect(movesOf(s)).toContainEqual({ type: 'act', player: P, cell: 'B2' });
    s = play(s, { type: 'act', player: P, cell: 'B2' });
    expect(legalOptions(s).pending).toBe('food');
  });
});

describe('Bob: option B at 5 AM', () => {
  const board = `
    A B C D E F G  H I J
1   . . . . . . .  . . .
2   . . . . . . .  . . .
3   . . # . . . .  . . .
4   . . . . . . .  # . .
5   . . . . . . 1  . . .
6   . . . . # . 1  . . .
7   . . . . . . 1  . . .
8   . # . . . . 1H 1 . .
9   . . . . . . .  . # .
10  . . . . . . .  . . .`;

  it('adds either rolled organ to his L worm in the region, because the L he rolled matches its shape', () => {
    const s = stateAt(board, { hour: 4, roll: ['L', 'brain', 'mouth'] });
    const b = movesOfType(s, 'addOrgan');
    expect(b.filter((m) => m.organ === 'brain').map((m) => m.cell).sort()).toEqual(['G5', 'G6', 'G7', 'H8']);
    expect(b.filter((m) => m.organ === 'mouth').map((m) => `${m.cell}${m.facing}`).sort()).toEqual(['G5N', 'G6N', 'H8E']);
  });

  it('without an L, a heart and a mouth let him add the mouth (the heart matches), not a heart', () => {
    const s = stateAt(board, { hour: 4, roll: ['I', 'heart', 'mouth'] });
    expect(new Set(movesOfType(s, 'addOrgan').map((m) => m.organ))).toEqual(new Set(['mouth']));
    expect(reject(s, { type: 'addOrgan', player: P, organ: 'heart', cell: 'G6' }).message).toMatch(/needs the other organ rolled \(mouth\) or the rolled shape/);
    play(s, { type: 'addOrgan', player: P, organ: 'mouth', cell: 'G5', facing: 'N' });
  });

  it('with neither the shape nor the other organ, the worm cannot take option B', () => {
    const s = stateAt(board, { hour: 4, roll: ['I', 'brain', 'mouth'] });
    expect(movesOfType(s, 'addOrgan')).toEqual([]);
  });

  it('the worm must be in this hour\'s region: at 6 AM (columns A–E) it is not', () => {
    const s = stateAt(board, { hour: 5, roll: ['L', 'brain', 'mouth'] });
    expect(movesOfType(s, 'addOrgan')).toEqual([]);
    expect(reject(s, { type: 'addOrgan', player: P, organ: 'brain', cell: 'G6' }).message).toMatch(/region/);
  });

  it('a grown worm still matches the shape it was placed with', () => {
    const grown = board.replace('4   . . . . . . .  # . .', '4   . . . . . . 1  # . .') + '\n1: shape=L ext=1';
    const s = stateAt(grown, { hour: 4, roll: ['L', 'brain', 'brain'] });
    expect(movesOfType(s, 'addOrgan').length).toBeGreaterThan(0);
  });
});

describe('Wanda: brains', () => {
  const board = `
    A B C D E F G H I J
1   . . . . . . . . . .
2   . . . . . 1 1 1 1 1
3   . . # . . . . . . .
4   . . . . . . . # . .
5   . . . . . . . . . .
6   . . . . # . . . . .
7   . . . . . . . . . .
8   . # . . . . . . . .
9   . . . . . . . . # .
10  . . . . . . . . . .`;
  const players = [
    { id: 'wanda', name: 'Wanda' },
    { id: 'otto', name: 'Otto' },
  ];

  it('changes the shape die with the brain that acted last hour, and fills it in for a second change; only her dice change', () => {
    let s = stateAt(board, { hour: 1, roll: ['I', 'brain', 'eye'], players });
    // 2 AM: Wanda adds a brain (option B: the I matches) and it acts.
    s = play(s, { type: 'addOrgan', player: 'wanda', organ: 'brain', cell: 'G2' }, { type: 'act', player: 'wanda', cell: 'G2' }, { type: 'done', player: 'otto' }, { type: 'endHour' });
    expect(s.sheets[0]!.credits).toBe(1);
    expect(s.sheets[1]!.credits).toBe(0);
    // 3 AM: the shape die says 6 (Z).
    s = play(s, { type: 'roll', shape: 'Z', organs: ['mouth', 'heart'] });
    s = play(s, { type: 'changeDie', player: 'wanda', die: 0, face: 'W' });
    // Her worm is partly in the 3 AM region (rows 1–5): fill in the brain for a second change.
    expect(movesOf(s, 'wanda')).toContainEqual({ type: 'changeDie', player: 'wanda', die: 1, face: 'eye', brain: 'G2' });
    s = play(s, { type: 'changeDie', player: 'wanda', die: 1, face: 'eye', brain: 'G2' });
    expect(s.sheets[0]!.dice).toEqual({ shape: 'W', organs: ['eye', 'heart'] });
    expect(s.sheets[1]!.dice, 'the other players are unaffected').toEqual({ shape: 'Z', organs: ['mouth', 'heart'] });
    expect(worm(s, 1).organs.find((o) => o.type === 'brain')!.filled).toBe(true);
    // No third change: the credit is used and the brain is filled.
    expect(reject(s, { type: 'changeDie', player: 'wanda', die: 2, face: 'eye' }).message).toMatch(/^the die change from brains that acted last hour is used up: /);
    expect(reject(s, { type: 'changeDie', player: 'wanda', die: 2, face: 'eye', brain: 'G2' }).message).toMatch(/already filled/);
    expect(movesOfType(s, 'changeDie', 'wanda')).toEqual([]);
    // The credit was for this hour only.
    s = play(s, { type: 'done', player: 'wanda' }, { type: 'done', player: 'otto' }, { type: 'endHour' }, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] });
    expect(s.sheets[0]!.credits).toBe(0);
  });

  it('a second change after the credits are spent says they are used up, not that no brain acted (thirty-eighth session)', () => {
    // Worm 1 is not in the 4 AM region (rows 6-10), so no brain can be filled in instead.
    let s = stateAt(board, { hour: 3, roll: ['I', 'eye', 'mouth'], credits: 2 });
    s = play(s, { type: 'changeDie', player: P, die: 1, face: 'heart' }, { type: 'changeDie', player: P, die: 2, face: 'heart' });
    expect(reject(s, { type: 'changeDie', player: P, die: 0, face: 'L' }).message).toBe(
      "the 2 die changes from brains that acted last hour are used up: fill in a brain on a worm in this hour's region to change a die",
    );
    // With none to begin with, it says so.
    const none = stateAt(board, { hour: 3, roll: ['I', 'eye', 'mouth'] });
    expect(reject(none, { type: 'changeDie', player: P, die: 0, face: 'L' }).message).toMatch(/^no brain acted last hour: /);
  });

  it('a filled brain does not act in option C', () => {
    const s = stateAt(board.replace('2   . . . . . 1 1 1 1 1', '2   . . . . . 1 1b 1 1 1'), { hour: 2, roll: ['I', 'eye', 'eye'] });
    const after = play(s, { type: 'activate', player: P, worm: 1 });
    expect(after.sheets[0]!.done, show(after)).toBe(true);
  });
});

describe('Carol: option C at 7 PM', () => {
  // A V worm with a mouth at a food (A6), a collar, and a tail pointing at the worm at bottom right,
  // which has a collar and a brain.
  const board = `
    A B  C  D  E  F G H  I J
1   . .  .  .  .  . . .  . .
2   . .  .  .  .  . . .  . .
3   . .  #  .  .  . . .  . .
4   . .  .  .  .  . . #  . .
5   . .  .  .  .  . . .  . .
6   * 1M< 1C 1 #  . . .  . .
7   . .  .  1  .  . . .  . .
8   . #  .  1Tv . . . .  . .
9   . .  .  2  2C 2 2B 2 # .
10  . .  .  .  .  . . .  . .`;

  it('may act if the shape die says V or either organ die names an organ the worm has', () => {
    expect(movesOf(stateAt(board, { hour: 14, roll: ['V', 'eye', 'eye'] }))).toContainEqual({ type: 'activate', player: P, worm: 1 });
    expect(movesOf(stateAt(board, { hour: 14, roll: ['I', 'collar', 'eye'] }))).toContainEqual({ type: 'activate', player: P, worm: 1 });
    const no = stateAt(board, { hour: 14, roll: ['I', 'eye', 'heart'] });
    expect(movesOf(no)).not.toContainEqual({ type: 'activate', player: P, worm: 1 });
    expect(reject(no, { type: 'activate', player: P, worm: 1 }).message).toMatch(/neither organ rolled/);
  });

  it('sets off the chain reactions: mouth adds an organ, collar places a baby, tail lets the neighbour act', () => {
    let s = stateAt(board, { hour: 14, roll: ['V', 'eye', 'eye'] });
    s = play(s, { type: 'activate', player: P, worm: 1 });
    expect(movesOfType(s, 'act').map((m) => m.cell).sort()).toEqual(['B6', 'C6', 'D8']);
    // The mouth is at the food: a new organ is added and may act.
    s = play(s, { type: 'act', player: P, cell: 'B6' });
    expect(legalOptions(s).pending).toBe('organ');
    s = play(s, { type: 'addOrgan', player: P, organ: 'heart', cell: 'D7' }, { type: 'act', player: P, cell: 'D7' });
    expect(legalOptions(s).pending).toBe('grow');
    s = play(s, { type: 'pass', player: P });
    // The collar partners with the worm at bottom right (it has a collar) and may place a baby.
    s = play(s, { type: 'act', player: P, cell: 'C6' });
    expect(legalOptions(s).pending).toBe('collar');
    s = play(s, { type: 'baby', player: P, cells: ['F8', 'G8'] });
    expect(worm(s, 3).parents).toEqual([1, 2]);
    expect(legalOptions(s).pending, 'one collar action only').toBe('act');
    // The tail: worm 2 is in its conga line, so one organ on worm 2 (not a tail) may act.
    s = play(s, { type: 'act', player: P, cell: 'D8' });
    expect(legalOptions(s).pending).toBe('conga');
    expect(movesOfType(s, 'act').map((m) => m.cell).sort()).toEqual(['E9', 'G9']);
    s = play(s, { type: 'act', player: P, cell: 'G9' });
    expect(s.sheets[0]!.done, show(s)).toBe(true);
  });
});

describe('Carol: collar acting (example #1)', () => {
  // Left worm 1 (collar D2), middle worm 2 (collar G3, not touching worm 1's), right worm 3 (collar J2).
  const board = `
    A  B  C D  E  F  G  H I J
1   .  .  . .  .  .  .  . . 3
2   1  1  1 1C 2  2  2  . . 3C
3   .  .  # 1  .  .  2C . . 3
4   .  .  . .  .  .  2  # . 3
5   .  .  . .  .  .  .  . . 3
6   .  .  . .  #  .  .  . . .
7   .  .  . .  .  .  .  . . .
8   .  #  . .  .  .  .  . . .
9   .  .  . .  .  .  .  . # .
10  .  .  . .  .  .  .  . . .`;

  it("the left worm's collar partners with the middle worm (it touches and has a collar), then places one baby", () => {
    let s = stateAt(board, { hour: 2, roll: ['I', 'collar', 'eye'] });
    s = play(s, { type: 'activate', player: P, worm: 1 }, { type: 'act', player: P, cell: 'D2' });
    expect(s.sheets[0]!.stack.at(-1), show(s)).toEqual({ k: 'collar', worm: 1, partner: 2, left: 1 });
    expect(reject(s, { type: 'baby', player: P, cells: ['A5', 'B5'] }).message).toMatch(/must touch worm 1 or its partner/);
    s = play(s, { type: 'baby', player: P, cells: ['A1', 'B1', 'C1'] });
    expect(worm(s, 4)).toMatchObject({ shape: null, parents: [1, 2], born: 2 });
    expect(s.sheets[0]!.stack.some((f) => f.k === 'collar'), 'one action: the collar is done').toBe(false);
  });
});

describe('Mike: a mouth acting', () => {
  // The worm grew its front by 2 (E4, E3): the upper mouth (E3) faces north at nothing; the lower
  // mouth (E5) still faces east, at the food on F5.
  const board = `
    A B C D E   F G H I J
1   . . . . .   . . . . .
2   . . . . .   . . . . .
3   . . # . 1M^ . . . . .
4   . . . . 1   . . # . .
5   1 1 1 1 1M> * . . . .
6   . . . . #   . . . . .
7   . . . . .   . . . . .
8   . # . . .   . . . . .
9   . . . . .   . . # . .
10  . . . . .   . . . . .`.replace('9   . . . . .   . . # . .', '9   . . . . .   . . . # .') + '\n1: shape=I front=E3 ext=2';

  it('the upper mouth is not at a food, so nothing happens; the lower one adds any organ, which then acts', () => {
    let s = stateAt(board, { hour: 2, roll: ['I', 'mouth', 'mouth'] });
    s = play(s, { type: 'activate', player: P, worm: 1 }, { type: 'act', player: P, cell: 'E3' });
    expect(legalOptions(s).pending, 'nothing happened: back to the option C list').toBe('act');
    s = play(s, { type: 'act', player: P, cell: 'E5' });
    expect(legalOptions(s).pending).toBe('organ');
    // Any organ: the worm has no tail yet, so even a tail (on its rear tip, A5).
    expect(new Set(movesOfType(s, 'addOrgan').map((m) => m.organ))).toEqual(new Set(['eye', 'mouth', 'tail', 'collar', 'brain', 'heart']));
    s = play(s, { type: 'addOrgan', player: P, organ: 'eye', cell: 'E4', facing: 'N' });
    expect(movesOf(s)).toContainEqual({ type: 'act', player: P, cell: 'E4' });
    s = play(s, { type: 'act', player: P, cell: 'E4' });
    expect(legalOptions(s).pending).toBe('food');
  });
});

describe('Tito: a tail acting and the conga line', () => {
  const board = `
    A   B C   D   E   F G  H I J
1   .   . .   .   .   . .  . . .
2   1   1 1T> 2   2T> 3 3B 3 3 3
3   1   . #   2   .   . .  . . .
4   1Mv . .   2   .   . .  # . .
5   .   . .   2Ev .   . .  . . .
6   .   . .   .   #   . .  . . .
7   .   . .   .   .   . .  . . .
8   .   # .   .   .   . .  . . .
9   .   . .   .   .   . .  . # .
10  .   . .   .   .   . .  . . .`;

  it('after the chain reaction from worm #2\'s eye, the only choice left is worm #3\'s brain', () => {
    let s = stateAt(board, { hour: 2, roll: ['I', 'tail', 'brain'] });
    // Tito adds the tail to worm #3; its tip touches no worm.
    s = play(s, { type: 'addOrgan', player: P, organ: 'tail', cell: 'J2', facing: 'E' }, { type: 'act', player: P, cell: 'J2' });
    expect(s.sheets[0]!.stack.at(-1), show(s)).toEqual({ k: 'conga', worms: [1, 2, 3], used: [], left: 2 });
    // 1. Worm #2's eye acts and puts a food in front of worm #1's mouth...
    s = play(s, { type: 'act', player: P, cell: 'D5' }, { type: 'food', player: P, cell: 'A5' });
    // ...so that mouth acts, adding an organ, which itself acts.
    expect(movesOfType(s, 'act').map((m) => m.cell)).toEqual(['A4']);
    s = play(s, { type: 'act', player: P, cell: 'A4' }, { type: 'addOrgan', player: P, organ: 'brain', cell: 'A3' }, { type: 'act', player: P, cell: 'A3' });
    // 2. Back to the tail's action: one more worm of the line may have an organ act.
    expect(legalOptions(s).pending).toBe('conga');
    expect(movesOfType(s, 'act').map((m) => m.cell)).toEqual(['G2']);
    s = play(s, { type: 'act', player: P, cell: 'G2' });
    expect(s.sheets[0]!.done).toBe(true);
  });
});

describe('a conga line through a loop of tails (DECISIONS: the acting tail chooses a line that contains its worm)', () => {
  // Worms 1 and 2 point their tails at each other; worm 3's tail points into that loop, at worm 2.
  const board = `
    A  B C D E   F   G   H I J
1   .  . . . .   .   .   . . .
2   1B 1 1 1 1T> 2T< 2   2 2 2B
3   .  . # . .   .   3T^ . . .
4   .  . . . .   .   3   # . .
5   .  . . . .   .   3   . . .
6   .  . . . #   .   3   . . .
7   .  . . . .   .   3B  . . .
8   .  # . . .   .   .   . . .
9   .  . . . .   .   .   . # .
10  .  . . . .   .   .   . . .`;

  it('worm 1\'s tail may choose 1 → 2, or 3 → 2 → 1 (come into the loop from worm 3), two organs acting', () => {
    let s = stateAt(board, { hour: 7, roll: ['I', 'tail', 'eye'] });
    s = play(s, { type: 'activate', player: P, worm: 1 }, { type: 'act', player: P, cell: 'E2' });
    expect(movesOfType(s, 'congaLine').map((m) => m.worms)).toEqual([[1, 2], [3, 2, 1]]);
    s = play(s, { type: 'congaLine', player: P, worms: [3, 2, 1] });
    expect(s.sheets[0]!.stack.at(-1)).toEqual({ k: 'conga', worms: [3, 2, 1], used: [], left: 2 });
    expect(movesOfType(s, 'act').map((m) => m.cell).sort()).toEqual(['A2', 'G7', 'J2']);
  });
});

describe('Hugo: a heart acting', () => {
  const chapter = chapterFor(EMPTY);
  const board = EMPTY.replace('5   . . . . . . . . . .', '5   1 1 1 1 1E> . . . . .');

  it('grows the front by 1, then by up to 3 (2 hearts + 1), then up to 5 (2 hearts + 3)', () => {
    let s = stateAt(board, { chapter, hour: 1, roll: ['I', 'heart', 'eye'] });
    s = play(s, { type: 'addOrgan', player: P, organ: 'heart', cell: 'C5' }, { type: 'act', player: P, cell: 'C5' });
    // The head (E5: F5, E4; E6 is a rock) or the tailless rear (A5: A4, A6).
    expect(movesOfType(s, 'grow').map((m) => m.cells[0]).sort()).toEqual(['A4', 'A6', 'E4', 'F5']);
    s = play(s, { type: 'grow', player: P, cells: ['F5'] });
    expect(worm(s, 1).ext).toBe(1);
    expect(s.sheets[0]!.done).toBe(true);
    s = play(s, { type: 'endHour' }, { type: 'roll', shape: 'I', organs: ['heart', 'eye'] });
    s = play(s, { type: 'addOrgan', player: P, organ: 'heart', cell: 'B5' }, { type: 'act', player: P, cell: 'B5' });
    expect(s.sheets[0]!.stack.at(-1)).toMatchObject({ k: 'grow', max: 3 });
    s = play(s, { type: 'grow', player: P, cells: ['G5', 'G4', 'G3'], from: 'F5' });
    expect(worm(s, 1).ext).toBe(3);
    // The old eye is no longer near the front; a new eye could go on either of the 2 front cells.
    const g = geometry(s.chapter);
    expect(organSpots(g, worm(s, 1), 'eye').map((x) => `${g.names[x.cell]}${x.facing}`)).toEqual(['G3N', 'G4N']);
    s = play(s, { type: 'endHour' }, { type: 'roll', shape: 'I', organs: ['heart', 'eye'] }, { type: 'activate', player: P, worm: 1 }, { type: 'act', player: P, cell: 'C5' });
    expect(s.sheets[0]!.stack.at(-1)).toMatchObject({ k: 'grow', max: 5 });
    // Only blank cells, one continuous path from one tip: G3 grows on to G2, not to a cell far away.
    expect(reject(s, { type: 'grow', player: P, cells: ['J10'] }).code).toBe('move/illegal');
  });
});

describe('Chao: collars making babies', () => {
  const board = `
    A B C  D E  F G H I J
1   . . .  . .  . . . . .
2   . . .  . .  . . . . .
3   . . #  . .  . . . . .
4   2 2 2C 2 2  . . # . .
5   1 1 1C 1 1C . . . . .
6   . . .  . #  . . . . .
7   . . .  . .  . . . . .
8   . # .  . .  . . . . .
9   . . .  . .  . . . # .
10  . . .  . .  . . . . .`;

  it('gets three actions (two collars, plus the partner collar touching one), places two babies, then an organ on each', () => {
    let s = stateAt(board, { hour: 2, roll: ['I', 'collar', 'heart'] });
    s = play(s, { type: 'activate', player: P, worm: 1 }, { type: 'act', player: P, cell: 'C5' });
    expect(s.sheets[0]!.stack.at(-1), show(s)).toEqual({ k: 'collar', worm: 1, partner: 2, left: 3 });
    s = play(s, { type: 'baby', player: P, cells: ['F4', 'G4'] }, { type: 'baby', player: P, cells: ['A6', 'B6'] }, { type: 'babyOrgans', player: P });
    // No collars for babies.
    expect(movesOfType(s, 'addOrgan').some((m) => m.organ === 'collar')).toBe(false);
    s = play(s, { type: 'addOrgan', player: P, organ: 'tail', cell: 'F4', facing: 'W' }, { type: 'addOrgan', player: P, organ: 'brain', cell: 'A6' });
    // Each new organ now acts: the tail lets the partner parent's collar act (it has not acted this hour).
    expect(movesOfType(s, 'act').map((m) => m.cell).sort()).toEqual(['A6', 'F4']);
    s = play(s, { type: 'act', player: P, cell: 'F4' });
    expect(s.sheets[0]!.stack.at(-1)).toEqual({ k: 'conga', worms: [3, 2], used: [], left: 1 });
    s = play(s, { type: 'act', player: P, cell: 'C4' });
    // ...maybe placing 2 more babies: the partner's own collar, plus Chao's lower collar touching it.
    expect(s.sheets[0]!.stack.at(-1), show(s)).toEqual({ k: 'collar', worm: 2, partner: 1, left: 2 });
    // No organ acts twice in one hour.
    s = play(s, { type: 'pass', player: P });
    expect(movesOfType(s, 'act').map((m) => m.cell)).not.toContain('C5');
  });
});

describe('Eye acting', () => {
  // Worm 1 has two eyes (H7, H8) facing north; worm 2's mouth faces G5.
  const board = `
    A B C D E F   G H   I J
1   . . . . . .   . .   . .
2   . . . . . .   . .   . .
3   . . # . . .   . .   . .
4   . . . . . .   . #   . .
5   . 2 2 2 2 2M> . .   . .
6   . . . . # .   . .   . .
7   . . . . . .   . 1E^ . .
8   . # . . . .   . 1E^ . .
9   . . . . . .   . 1   # .
10  . . . . . .   1 1   . .`;

  it('may find two foods (two eyes); sight is not blocked by the rock; the mouth at a new food may act', () => {
    let s = stateAt(board, { hour: 1, roll: ['L', 'eye', 'eye'] });
    s = play(s, { type: 'activate', player: P, worm: 1 }, { type: 'act', player: P, cell: 'H7' });
    expect(s.sheets[0]!.stack.at(-1)).toEqual({ k: 'food', eye: cell(s, 'H7'), left: 2 });
    const foods = movesOfType(s, 'food').map((m) => m.cell);
    expect(foods).toContain('H3'); // beyond the rock on H4
    expect(foods).not.toContain('H4'); // the rock itself is not blank
    expect(foods).not.toContain('F6'); // not on a ray, nor next to the forward ray
    expect(reject(s, { type: 'food', player: P, cell: 'F6' }).message).toMatch(/cannot see F6/);
    s = play(s, { type: 'food', player: P, cell: 'G5' });
    expect(movesOfType(s, 'act').map((m) => m.cell)).toEqual(['F5']);
    s = play(s, { type: 'pass', player: P }, { type: 'food', player: P, cell: 'H1' });
    expect(s.sheets[0]!.foods.length).toBe(2);
  });
});

describe('apply never changes the state it is given', () => {
  it('a legal move returns a new state and leaves the old one as it was', () => {
    const s = stateAt(EMPTY, { hour: 0, roll: ['I', 'eye', 'eye'] });
    const before = JSON.stringify(s);
    const r = applyMove(s, { type: 'placeWorm', player: P, cells: ['A1', 'B1', 'C1', 'D1', 'E1'] });
    expect(r.ok).toBe(true);
    expect(JSON.stringify(s)).toBe(before);
  });
});
