/**
 * Counting tests in the spirit of chess perft: on positions small enough to check by hand, the
 * exact number of option-A placements, organ placements and eye food cells.
 */
import { describe, expect, it } from 'vitest';
import { geometry } from '../../shared/games/worm-and-cozy/board.js';
import { organSpots, eyeSight } from '../../shared/games/worm-and-cozy/organs.js';
import type { ShapeName } from '../../shared/games/worm-and-cozy/state.js';
import { chapterFor, movesOfType, P, play, show, stateAt } from './helpers.js';

const EMPTY5 = `
  . . . . .
  . . . . .
  . . . . .
  . . . . .
  . . . . .`;

const placements = (board: string, shape: ShapeName, regions?: Parameters<typeof chapterFor>[1]) => {
  const chapter = chapterFor(board, regions);
  return movesOfType(stateAt(board, { chapter, roll: [shape, 'eye', 'brain'] }), 'placeWorm').length;
};

describe('option A placements on a 5 x 5 board', () => {
  it.each([
    ['I', 10], // 5 rows + 5 columns
    ['L', 64], // 8 orientations: four 4x2 boxes (2 x 4 spots) and four 2x4 boxes (4 x 2 spots)
    ['U', 48], // four orientations: two 3x2 boxes (3 x 4 spots), two 2x3 boxes (4 x 3 spots)
    ['V', 36], // four orientations of a 3x3 box, 9 spots each
    ['W', 36],
    ['Z', 36],
  ] as const)('empty board: %s has %i placements', (shape, n) => {
    expect(placements(EMPTY5, shape)).toBe(n);
  });

  it('a rock in the centre leaves the I 8 placements (rows and columns other than the third)', () => {
    expect(placements(EMPTY5.replace(/\n {2}\. \. \. \. \.\n {2}\. \. \. \. \.\n {2}\. \. \. \. \./, '\n  . . . . .\n  . . . . .\n  . . # . .'), 'I')).toBe(8);
  });

  it('a region of column A only: the 5 rows, plus the column itself', () => {
    expect(placements(EMPTY5, 'I', [{ edge: 'top', columns: 'A' }])).toBe(6);
  });

  it('worms and foods take cells too', () => {
    // Row 1 holds a worm, row 2 a food: I fits in rows 3–5 (3) and no column.
    const board = `
      1 1 1 1 1
      . * . . .
      . . . . .
      . . . . .
      . . . . .`;
    expect(placements(board, 'I')).toBe(3);
  });
});

describe('organ placements', () => {
  const board = `
    . . . . .
    1 1 1 1 1
    . . . . .
    . . . . .
    2 2 . . .`;
  const chapter = chapterFor(board);

  it('a new worm with no front: an eye on the first two cells of either end (4), a tail on either tip (2), a brain anywhere (5)', () => {
    const s = stateAt(board, { chapter });
    const g = geometry(chapter);
    const w = s.sheets[0]!.worms[0]!;
    expect(organSpots(g, w, 'eye').map((x) => `${g.names[x.cell]}${x.facing}`).sort()).toEqual(['A2W', 'B2W', 'D2E', 'E2E']);
    expect(organSpots(g, w, 'tail').map((x) => `${g.names[x.cell]}${x.facing}`).sort()).toEqual(['A2W', 'E2E']);
    expect(organSpots(g, w, 'brain')).toHaveLength(5);
  });

  it('option A lists exactly those spots for the rolled organs: eye 4 + brain 5 = 9', () => {
    const chapter5 = chapterFor(EMPTY5);
    let s = stateAt(EMPTY5, { chapter: chapter5, roll: ['I', 'eye', 'brain'] });
    s = play(s, { type: 'placeWorm', player: P, cells: ['A1', 'B1', 'C1', 'D1', 'E1'] });
    expect(movesOfType(s, 'addOrgan'), show(s)).toHaveLength(9);
  });

  it('once the eye fixes the front: one more eye or mouth spot, one tail spot, four free cells', () => {
    const fronted = board.replace('1 1 1 1 1', '1E< 1 1 1 1');
    const g = geometry(chapter);
    const w = stateAt(fronted, { chapter }).sheets[0]!.worms[0]!;
    expect(organSpots(g, w, 'eye').map((x) => g.names[x.cell])).toEqual(['B2']);
    expect(organSpots(g, w, 'mouth').map((x) => `${g.names[x.cell]}${x.facing}`)).toEqual(['B2W']);
    expect(organSpots(g, w, 'tail').map((x) => `${g.names[x.cell]}${x.facing}`)).toEqual(['E2E']);
    expect(organSpots(g, w, 'heart')).toHaveLength(4);
  });

  it('a two-cell baby: each cell may hold an eye facing either way (4), a tail on either tip (2)', () => {
    const g = geometry(chapter);
    const baby = stateAt(board, { chapter }).sheets[0]!.worms[1]!;
    expect(organSpots(g, baby, 'eye').map((x) => `${g.names[x.cell]}${x.facing}`).sort()).toEqual(['A5E', 'A5W', 'B5E', 'B5W']);
    expect(organSpots(g, baby, 'tail')).toHaveLength(2);
  });
});

describe('eye food cells', () => {
  it('an eye in the middle of an empty 5 x 5 board facing north sees 10 cells', () => {
    const g = geometry(chapterFor(EMPTY5));
    // C3 facing N: left B3 A3, right D3 E3, forward C2 C1, alongside B2 D2 B1 D1.
    expect(eyeSight(g, 12, 'N').map((c) => g.names[c]).sort()).toEqual(['A3', 'B1', 'B2', 'B3', 'C1', 'C2', 'D1', 'D2', 'D3', 'E3']);
  });

  it('the eye example: 26 blank cells in sight (forward 5 past the rock, alongside 12, left 7, right 2)', () => {
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
    let s = stateAt(board, { hour: 1, roll: ['L', 'eye', 'eye'] });
    s = play(s, { type: 'activate', player: P, worm: 1 }, { type: 'act', player: P, cell: 'H7' });
    expect(movesOfType(s, 'food'), show(s)).toHaveLength(26);
  });
});
