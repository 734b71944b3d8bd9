/** Game end: the scored-game clarifications, the counters, the rubric. */
import { describe, expect, it } from 'vitest';
import { gridGeometry } from '../../shared/games/worm-and-cozy/board.js';
import { getChapter, type TrackSymbol } from '../../shared/games/worm-and-cozy/chapters.js';
import { COUNTERS } from '../../shared/games/worm-and-cozy/counters.js';
import { parseBoard } from '../../shared/games/worm-and-cozy/notation.js';
import { rubricLine, scoreBoard, trackPoints, circledSymbols } from '../../shared/games/worm-and-cozy/scoring.js';
import { scoreState } from '../../shared/games/worm-and-cozy/index.js';
import { scoreSheet, sheetFromState } from '../../shared/games/worm-and-cozy/sheet.js';
import type { CozyState } from '../../shared/games/worm-and-cozy/state.js';
import { P, play, show, stateAt } from './helpers.js';

const star = (at: number, count?: number): TrackSymbol => (count ? { at, symbol: 'star', count } : { at, symbol: 'star' });
const circle = (at: number): TrackSymbol => ({ at, symbol: 'circle' });

function view(text: string) {
  const b = parseBoard(text);
  return { geo: gridGeometry(b.width, b.height, b.rocks), worms: b.worms, foods: b.foods };
}

describe('circling scoring symbols', () => {
  it('stars: each circled star scores +1', () => {
    const track = [star(1), star(2), star(3), star(4)];
    expect(trackPoints(track, 0)).toBe(0);
    expect(trackPoints(track, 3)).toBe(3);
  });

  it("circles score 0: here you won't start scoring points until the number gets up to 4", () => {
    const track = [circle(1), circle(2), circle(3), star(4), star(5), star(6)];
    expect([1, 2, 3, 4, 5].map((n) => trackPoints(track, n))).toEqual([0, 0, 0, 1, 2]);
    expect(circledSymbols(track, 3)).toBe(3);
  });

  it('grouped stars: with the number 10 you circle all 8 stars, for 8 points', () => {
    const track = [star(1), star(2), star(4, 2), star(7, 2), star(10, 2)];
    expect(track.reduce((n, s) => n + (s.count ?? 1), 0)).toBe(8);
    expect(trackPoints(track, 10)).toBe(8);
    expect(trackPoints(track, 9), 'up to the symbols marked with a number reached').toBe(6);
  });

  it('the XX pairs: each worm touching blank spaces scores −2', () => {
    const penalty = getChapter('clew-1').penalty.track;
    expect(penalty).toHaveLength(9);
    expect([0, 1, 3, 9].map((n) => trackPoints(penalty, n))).toEqual([0, -2, -6, -18]);
  });

  it("the cap: you can't circle symbols that ain't there: more than 9 worms touching blank still only loses 18", () => {
    const penalty = getChapter('clew-1').penalty.track;
    expect(trackPoints(penalty, 11)).toBe(-18);
    // Eleven baby worms on an open board, each touching blank space.
    const v = view(`
      1 1 . 2 2 . 3 3 . 4 4 . .
      . . . . . . . . . . . . .
      5 5 . 6 6 . 7 7 . 8 8 . .
      . . . . . . . . . . . . .
      9 9 . 10 10 . 11 11 . . . . .`);
    expect(COUNTERS.wormsTouchingBlank!.count(v, {})).toBe(11);
  });

  it('the rubric: ≤ 0 Lowly … ≥ 13 ComPoster child!', () => {
    const c = getChapter('clew-1');
    expect([-5, 0, 1, 3, 4, 7, 10, 12, 13, 40].map((t) => rubricLine(c, t))).toEqual([
      'Lowly',
      'Lowly',
      "You're wriggling...",
      "You're wriggling...",
      'Totally tubular',
      'Paydirt!',
      'Exsoilent!',
      'Exsoilent!',
      'ComPoster child!',
      'ComPoster child!',
    ]);
  });
});

describe('a scored board', () => {
  it('adds the rewards, subtracts the penalty, names the rubric line', () => {
    // clew-1: eyes, foods, cozy worms. Two worms, three eyes, two foods; worm 2 touches no blank.
    const c = getChapter('clew-1');
    const b = parseBoard(`
    A   B   C D E F G H I J
1   1E^ 2E^ * . . . . . . .
2   1   2   * . . . . . . .
3   1   2   # . . . . . . .
4   1   2   . . . . . . . .
5   1   2   . . . . . . . .
6   .   .   . . # . . . . .
7   .   .   . . . . . . . .
8   .   #   . . . . . . . .
9   .   .   . . . . . . # .
10  .   .   . . . . . . . .`);
    const score = scoreBoard(c, { geo: gridGeometry(10, 10, c.board.rocks), worms: b.worms, foods: b.foods });
    expect(score.rewards).toEqual([
      { name: 'Eyes', count: 2, points: 1 },
      { name: 'Foods', count: 2, points: 0 },
      { name: 'Cozy worms', count: 0, points: 0 },
    ]);
    expect(score.penalty).toEqual({ count: 2, points: -4 });
    expect(score.total).toBe(-3);
    expect(score.rubric).toBe('Lowly');
  });
});

describe('the counter library', () => {
  const v = view(`
    1E^ .   2   2   2T>  3
    1   .   *   .   .    3
    1   #   .   .   .    3C
    1   .   .   4   4C   3
    1   .   .   .   .    3Mv`);
  const count = (name: string, params: Record<string, unknown> = {}) => COUNTERS[name]!.count(v, params);

  it('counts what a finished sheet shows', () => {
    expect(count('organs', { type: 'any' })).toBe(5);
    expect(count('organs', { type: 'collar' })).toBe(2);
    expect(count('foods')).toBe(1);
    expect(count('worms')).toBe(4);
    expect(count('babies')).toBe(2);
    expect(count('longestWorm')).toBe(5);
    expect(count('wormsWithOrgans', { min: 2 })).toBe(1);
    expect(count('mostOrganTypes')).toBe(2);
    // Worm 2's tail tip points at worm 3: a conga line of two.
    expect(count('congaWorms')).toBe(2);
    expect(count('longestCongaLine')).toBe(2);
    expect(count('rocksTouched')).toBe(1);
    expect(count('wormsTouchingRocks')).toBe(1);
    expect(count('fullLines', { lines: 'rows' })).toBe(0);
    expect(count('distinctShapes')).toBe(1);
    // Worm 4 (a baby with a collar) touches worm 3, which has a collar.
    expect(count('coupledWorms')).toBe(2);
    expect(count('fedMouths')).toBe(0);
  });
});

describe('grown worms (clew-4): a baby is drawn with 2 or 3 cells, so it counts once it is over 3 (thirty-eighth session)', () => {
  // clew-4's rocks: E2 H2 B4 F5 I7 C8 F10. Worm 3 is a 2-cell baby with a heart.
  const board = `
    A B C D E F G H I J
1   3H 3 . . . . . . . .
2   2 2 . . # . . # . .
3   1 1 1 1 1 . . . . .
4   . # . . . . . . . .
5   . . . . . # . . . .
6   . . . . . . . . . .
7   . . . . . . . . # .
8   . . # . . . . . . .
9   . . . . . . . . . .
10  . . . . . # . . . .
2: shape=-
3: shape=- parents=1+2 born=0`;
  const grown = (s: CozyState) => scoreState(s).players[0]!.rewards.find((r) => r.name === 'Grown worms')!.count;

  it('the sheet says what it counts: worms over 5 cells, and babies over 3', () => {
    expect(getChapter('clew-4').rewards[0]).toMatchObject({ counter: 'grownWorms', text: 'the number of worms over 5 cells, and of babies over 3' });
    expect(COUNTERS.grownWorms!.description).toMatch(/over 5 cells, or over 3 for a baby/);
  });

  it('a 2-cell baby grown by one is 3 cells, as a baby may be drawn: it does not count, and its paper sheet scores the same', () => {
    let s = stateAt(board, { chapter: getChapter('clew-4'), hour: 7, roll: ['I', 'heart', 'eye'] });
    s = play(s, { type: 'activate', player: P, worm: 3 }, { type: 'act', player: P, cell: 'A1' }, { type: 'grow', player: P, cells: ['C1'] });
    expect(s.sheets[0]!.worms[2]!.cells, show(s)).toHaveLength(3);
    expect(grown(s)).toBe(0);
    const paper = scoreSheet(sheetFromState(s, P));
    expect(paper.ok && paper.score.rewards[0]).toEqual(scoreState(s).players[0]!.rewards[0]);
  });

  it('counts a baby of 4 cells and a worm of 6, not a baby of 3 or a worm of 5', () => {
    const v = view(`
    1 1 1 1 1 1
    2 2 2 2 . .
    3 3 3 . . .
    4 4 4 4 4 .
1: shape=I
2: shape=-
4: shape=I`);
    expect(COUNTERS.grownWorms!.count(v, {})).toBe(2);
  });
});

