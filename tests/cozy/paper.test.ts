/**
 * Paper sheets at a table: once the game is over, a seat's finished paper sheet (the sheet file of
 * *Score a sheet*) is given to it with `paperSheet`, and that seat is scored from it, marked
 * "from paper", in the scores and the ranking. Bad sheets, seats and times are refused with the
 * state kept.
 */
import { describe, expect, it } from 'vitest';
import { toTableGame } from '../../shared/game.js';
import { getChapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { scoreState, setup, wormAndCozy } from '../../shared/games/worm-and-cozy/index.js';
import { parseBoard } from '../../shared/games/worm-and-cozy/notation.js';
import { scoreSheet, sheetFromBoard, type SheetJson } from '../../shared/games/worm-and-cozy/sheet.js';
import type { CozyState } from '../../shared/games/worm-and-cozy/state.js';
import { play, reject, show } from './helpers.js';

const PLAYERS = [
  { id: 'ann', name: 'Ann' },
  { id: 'bob', name: 'Bob' },
];

/** Bob's finished paper sheet (clew-1): 2 eyes +1, 4 foods +2, 2 cozy worms +2, 1 worm touching blank −2. */
const BOB_PAPER = `
    A   B   C D E F G H I J
1   1E^ 2E^ * . . . . . . .
2   1   2   * . . . . . . .
3   1   2   # . . . . . . .
4   1   2   * . . . . # . .
5   1   2   * . . . . . . .
6   3   3   3 3 # . . . . .
7   .   .   . 3 . . . . . .
8   .   #   . . . . . . . .
9   .   .   . . . . . . # .
10  .   .   . . . . . . . .`;

/** Ann's paper: one worm with an eye, touching blank (0 − 2). */
const ANN_PAPER = `
    A   B C D E F G H I J
1   1E^ . . . . . . . . .
2   1   . . . . . . . . .
3   1   . # . . . . . . .
4   1   . . . . . . # . .
5   1   . . . . . . . . .
6   .   . . . # . . . . .
7   .   . . . . . . . . .
8   .   # . . . . . . . .
9   .   . . . . . . . # .
10  .   . . . . . . . . .`;

function paper(board: string, chapter = 'clew-1'): SheetJson {
  const b = parseBoard(board);
  return sheetFromBoard(getChapter(chapter), b.worms, b.foods);
}

/** Two seats through all 16 hours: Ann keeps her twin (a worm with an eye at 1 AM), Bob plays on paper only. */
function finished(): CozyState {
  const r = setup({ chapter: 'clew-1', players: PLAYERS });
  if (!r.ok) throw new Error(r.message);
  let s = play(
    r.state,
    { type: 'roll', shape: 'I', organs: ['eye', 'mouth'] },
    { type: 'placeWorm', player: 'ann', cells: ['A1', 'A2', 'A3', 'A4', 'A5'] },
    { type: 'addOrgan', player: 'ann', organ: 'eye', cell: 'A1', facing: 'N' },
    { type: 'done', player: 'ann' },
    { type: 'endHour' },
  );
  for (let h = 1; h < 16; h++) s = play(s, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] }, { type: 'endHour' });
  expect(s.phase).toBe('over');
  return s;
}

const totals = (s: CozyState) => scoreState(s).players.map((p) => [p.player, p.total, p.fromPaper ? 'paper' : 'twin']);

describe('a paper sheet given to a seat at the end', () => {
  it('before: the paper-only seat scores its empty twin (0), the twin player wins', () => {
    const s = finished();
    expect(totals(s)).toEqual([['ann', -2, 'twin'], ['bob', 0, 'twin']]);
    expect(wormAndCozy.status(s).ranking).toEqual([{ player: 'bob', score: 0, rank: 0 }, { player: 'ann', score: -2, rank: 1 }]);
  });

  it("the seat is scored from its paper sheet, marked from paper, exactly as Score a sheet scores it; the ranking counts it", () => {
    const sheet = paper(BOB_PAPER);
    const expected = scoreSheet(sheet);
    if (!expected.ok) throw new Error(expected.errors.join('; '));
    expect(expected.score.total).toBe(3);
    const s = play(finished(), { type: 'paperSheet', player: 'bob', sheet });
    const bob = scoreState(s).players[1]!;
    expect(bob).toEqual({ player: 'bob', fromPaper: true, ...expected.score });
    expect(totals(s)).toEqual([['ann', -2, 'twin'], ['bob', 3, 'paper']]);
    expect(wormAndCozy.status(s).ranking).toEqual([{ player: 'bob', score: 3, rank: 0 }, { player: 'ann', score: -2, rank: 1 }]);
    // The twin is left as it was: only the score's source changed.
    expect(s.sheets[1]!.worms, show(s, 1)).toEqual([]);
  });

  it('a seat that kept a twin too is scored from the paper (the real sheet), the twin total shown beside it', () => {
    const s = play(finished(), { type: 'paperSheet', player: 'ann', sheet: paper(BOB_PAPER) });
    expect(scoreState(s).players[0]).toMatchObject({ player: 'ann', fromPaper: true, total: 3, twinTotal: -2 });
    expect(scoreState(s).players[1]).not.toHaveProperty('twinTotal');
  });

  it('given again, the later sheet replaces the earlier one; the other seats keep theirs', () => {
    let s = play(finished(), { type: 'paperSheet', player: 'bob', sheet: paper(BOB_PAPER) }, { type: 'paperSheet', player: 'ann', sheet: paper(ANN_PAPER) });
    expect(totals(s)).toEqual([['ann', -2, 'paper'], ['bob', 3, 'paper']]);
    s = play(s, { type: 'paperSheet', player: 'bob', sheet: paper(ANN_PAPER) });
    expect(totals(s)).toEqual([['ann', -2, 'paper'], ['bob', -2, 'paper']]);
  });

  it('the sheet travels as plain JSON through the table (schema, then rules) and the state stays plain JSON', () => {
    const table = toTableGame(wormAndCozy);
    const r = table.apply(finished(), JSON.parse(JSON.stringify({ type: 'paperSheet', player: 'bob', sheet: paper(BOB_PAPER) })));
    if (!r.ok) throw new Error(r.message);
    const s = r.state as CozyState;
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(s.paper).toEqual([null, { worms: expect.any(Array), foods: expect.any(Array) }]);
    expect(wormAndCozy.authority(s, { type: 'paperSheet', player: 'bob', sheet: paper(BOB_PAPER) })).toEqual({ kind: 'player', player: 'bob' });
  });

  it('a state (and a log) from before paper sheets has no paper key and scores its twins as before', () => {
    const s = finished();
    expect('paper' in s).toBe(false);
    expect(scoreState(s).players.every((p) => !p.fromPaper)).toBe(true);
  });
});

describe('a paper sheet that cannot be given is refused, the state kept', () => {
  it('a sheet of another chapter', () => {
    const other = paper(BOB_PAPER.replace(/#/g, '.').replace('1E^ 2E^ *', '1E^ 2E^ .'), 'clew-7');
    expect(reject(finished(), { type: 'paperSheet', player: 'bob', sheet: other })).toEqual({
      code: 'sheet/invalid',
      message: 'the sheet is chapter clew-7 (“clew chapter 7: Full House”), but this game plays clew-1 (“clew chapter 1: First Light”): score it with the game’s chapter',
    });
  });

  it('a sheet that is not legal: every problem named, as Score a sheet names them', () => {
    const sheet = paper(BOB_PAPER);
    sheet.worms[0]!.cells = ['A1', 'A2', 'C3', 'A4', 'A5'];
    const r = reject(finished(), { type: 'paperSheet', player: 'bob', sheet });
    expect(r.code).toBe('sheet/invalid');
    expect(r.message).toMatch(/^Bob’s sheet is not a legal sheet \(\d problems\): worm 1 lies on the rock at C3; /);
  });

  it('a seat that does not exist', () => {
    expect(reject(finished(), { type: 'paperSheet', player: 'zed', sheet: paper(BOB_PAPER) })).toEqual({ code: 'move/not-your-turn', message: 'no player "zed" at this table (players: ann, bob)' });
  });

  it("a sheet that says it is someone else's", () => {
    expect(reject(finished(), { type: 'paperSheet', player: 'bob', sheet: { ...paper(BOB_PAPER), player: 'ann' } })).toMatchObject({ code: 'sheet/invalid', message: 'the sheet says it is ann’s, not Bob’s' });
  });

  it('a game not over: the rules score after the final hour', () => {
    const r = setup({ chapter: 'clew-1', players: PLAYERS });
    if (!r.ok) throw new Error(r.message);
    const rolled = play(r.state, { type: 'roll', shape: 'I', organs: ['eye', 'mouth'] });
    expect(reject(r.state, { type: 'paperSheet', player: 'bob', sheet: paper(BOB_PAPER) })).toEqual({ code: 'move/wrong-phase', message: 'Bob’s paper sheet is scored once the game is over, after 8 PM; the game is at 1 AM' });
    expect(reject(rolled, { type: 'paperSheet', player: 'bob', sheet: paper(BOB_PAPER) }).code).toBe('move/wrong-phase');
  });

  it('a malformed sheet never reaches the rules; the game-over refusal of other moves is kept', () => {
    const table = toTableGame(wormAndCozy);
    const s = finished();
    const r = table.apply(s, { type: 'paperSheet', player: 'bob', sheet: { ...paper(BOB_PAPER), score: 99 } });
    expect(r).toMatchObject({ ok: false, code: 'move/malformed' });
    expect(reject(s, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] }).code).toBe('move/game-over');
  });
});
