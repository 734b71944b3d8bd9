/** The sheet file, `npm run score`, the chapters as data and the board notation. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { geometry } from '../../shared/games/worm-and-cozy/board.js';
import { CHAPTER_IDS, getChapter, hourLabel, loadChapter, parseChapter, type Chapter, type ChapterResult } from '../../shared/games/worm-and-cozy/chapters.js';
import { setup } from '../../shared/games/worm-and-cozy/index.js';
import { countReward } from '../../shared/games/worm-and-cozy/scoring.js';
import { boardView } from '../../shared/games/worm-and-cozy/view.js';
import { COUNTERS } from '../../shared/games/worm-and-cozy/counters.js';
import { NotationError, parseBoard, printBoard } from '../../shared/games/worm-and-cozy/notation.js';
import { scoreSheet, sheetFromState, validateSheet } from '../../shared/games/worm-and-cozy/sheet.js';
import { P, play, stateAt } from './helpers.js';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = (name: string) => path.join(root, 'tests/cozy/fixtures', name);
const readJson = (name: string): unknown => JSON.parse(readFileSync(fixture(name), 'utf8'));
const run = promisify(execFile);

async function score(file: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/score.ts'), file], { cwd: root });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('the sheet file', () => {
  it("accepts the issue's minimal form (noting that its cells form a V, not the L it names)", () => {
    const r = validateSheet(readJson('minimal.sheet.json'));
    if (!r.ok) expect.fail(r.errors.join('\n'));
    expect(r.value.warnings).toEqual(['worm 1: its cells form a V, not the L it names']);
    expect(r.value.worms[0]).toMatchObject({ front: true, shape: 'L' });
  });

  it('gives one message per problem, naming the worm and the cell', () => {
    const r = validateSheet(readJson('bad.sheet.json'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      'worm 1: cell K4 is off the board (10 x 10, columns A–J, rows 1–10)',
      'worm 2 lies on the rock at C3',
      'worm 3 is not a path: G2 and G4 do not touch',
      'worm 4: the mouth at J9 is not on the worm',
      'worm 4: the eye at F1 faces E, but eyes face forward along the worm (N there)',
      'worm 5 and worm 4 overlap at H3',
      'food at C3 is on a rock',
    ]);
  });

  it.each([
    [{ chapter: 'clew-1', worms: [{ cells: ['A1', 'A2'], organs: [{ type: 'tail', cell: 'A1', facing: 'N' }, { type: 'tail', cell: 'A2', facing: 'S' }] }] }, /worm 1 has 2 tails/],
    [{ chapter: 'clew-1', worms: [{ cells: ['A1', 'A2'], organs: [{ type: 'tail', cell: 'A1', facing: 'N' }] }] }, /worm 1: the tail at A1 must be on the rear tip \(A2\)/],
    [{ chapter: 'clew-1', worms: [{ cells: ['A1', 'A2'], organs: [{ type: 'eye', cell: 'A1' }] }] }, /worm 1: the eye at A1 needs a facing/],
    [{ chapter: 'clew-1', worms: [{ cells: ['A1', 'A2'], organs: [{ type: 'brain', cell: 'A1', facing: 'N' }] }] }, /worm 1: the brain at A1 has a facing/],
    [{ chapter: 'clew-1', worms: [{ cells: ['A1', 'A2'], organs: [{ type: 'heart', cell: 'A1', filled: true }] }] }, /only a brain can be filled in/],
    [{ chapter: 'clew-1', worms: [{ cells: ['A1'] }] }, /worm 1: a baby has at least 2 cells/],
    [{ chapter: 'clew-1', worms: [{ cells: ['A1', 'B1', 'C1', 'D1', 'E1'], shape: 'I', organs: [{ type: 'eye', cell: 'D1', facing: 'W' }] }] }, /the eye at D1 must be on one of the first two cells/],
    // A worm as drawn (never grown): an eye or mouth on its second cell faces from the second cell to the end, not round a bend.
    [{ chapter: 'clew-2', worms: [{ cells: ['B2', 'C2', 'C3', 'C4', 'C5'], shape: 'L', organs: [{ type: 'mouth', cell: 'C2', facing: 'N' }] }], foods: ['C1'] }, /worm 1: the mouth at C2 faces N, but mouths face forward along the worm \(W there\)/],
    [{ chapter: 'clew-1', worms: [], foods: ['A1', 'A1'] }, /food at A1 is listed twice/],
    [{ chapter: 'clew-1', worms: [{ cells: ['A1', 'A2'] }], foods: ['A2'] }, /food at A2 is on worm 1/],
    [{ chapter: 'clew-1', worms: [{ cells: ['A1', 'A2'], colour: 'red' }] }, /worm 1: Unrecognized key/],
    [{ chapter: 'clew-1', worms: [{ cells: ['A1', 'Q'] }] }, /worm 1: "Q" is not a cell name/],
    // A malformed rest of the file does not hide an unknown chapter (thirty-eighth session).
    [{ chapter: 'nope' }, /unknown chapter "nope"[^]*worms: .*expected array/],
    [{ chapter: 'nope', worms: [], food: [] }, /unknown chapter "nope"[^]*Unrecognized key: "food"/],
  ])('rejects %j', (json, message) => {
    const r = validateSheet(json);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(message);
  });

  it('quotes a long cell name cut short, so a refusal echoes no megabyte of what a phone sent', () => {
    const r = validateSheet({ chapter: 'clew-1', worms: [{ cells: ['A1', 'Z'.repeat(500_000)] }] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual(['worm 1: "ZZZZZZZZZZZZZZZZ…" is not a cell name (like "C7")']);
  });

  it('writes any engine position as a sheet that scores the same', () => {
    let s = stateAt(
      `
    A B C D E F G H I J
1   . . . . . . . . . .
2   1 1 1 1 1E> . . . . .
3   . . # . . . . . . .
4   . . . . . . . # . .
5   . . . . . . . . . .
6   . . . . # . . . . .
7   . . . . . . . . . .
8   . # . . . . . . . .
9   . . . . . . . . # .
10  . . . . . . . . . .`,
      { hour: 2, roll: ['I', 'eye', 'eye'] },
    );
    s = play(s, { type: 'activate', player: P, worm: 1 }, { type: 'act', player: P, cell: 'E2' }, { type: 'food', player: P, cell: 'H2' });
    const sheet = sheetFromState(s, P);
    expect(sheet).toEqual({ chapter: 'clew-1', worms: [{ cells: ['E2', 'D2', 'C2', 'B2', 'A2'], shape: 'I', organs: [{ type: 'eye', cell: 'E2', facing: 'E' }] }], foods: ['H2'], player: P });
    const r = scoreSheet(sheet);
    expect(r.ok && r.score.rewards.map((x) => x.count)).toEqual([1, 1, 0]);
  });
});

describe('npm run score', () => {
  it('prints exactly the score JSON for a good file', async () => {
    const r = await score(fixture('full.sheet.json'));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      '{"rewards":[{"name":"Eyes","count":2,"points":1},{"name":"Foods","count":2,"points":0},{"name":"Cozy worms","count":0,"points":0}],"penalty":{"count":2,"points":-4},"total":-3,"rubric":"Lowly"}\n',
    );
  });

  it('exits 2 with one message per problem on a bad file', async () => {
    const r = await score(fixture('bad.sheet.json'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(7);
    expect(r.stderr).toMatch(/bad\.sheet\.json: worm 5 and worm 4 overlap at H3/);
  });

  it('reports an unknown chapter as well as the other problems of a malformed file, one line each', async () => {
    const r = await score(fixture('unknown-chapter-no-worms.sheet.json'));
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/unknown-chapter-no-worms\.sheet\.json: unknown chapter "nope" \(known: clew-1, /),
      expect.stringMatching(/unknown-chapter-no-worms\.sheet\.json: worms: .*expected array/),
    ]);
  });

  it("names the chapter field that breaks the rules when a sheet brings its own chapter (forty-third session)", async () => {
    const chapter = { ...structuredClone(getChapter('clew-1')), id: 'my-chapter' };
    chapter.penalty.counter = 'foods';
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cozy-chapter-'));
    try {
      const file = path.join(dir, 'own-chapter.sheet.json');
      writeFileSync(file, JSON.stringify({ chapter, worms: [] }));
      const r = await score(file);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual([
        `${file}: chapter: penalty "Worms touching blank spaces": its counter is "foods", but the penalty always counts worms touching blank space ("wormsTouchingBlank")`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 on an unknown chapter, broken JSON or a missing file', async () => {
    for (const [file, message] of [
      ['unknown-chapter.sheet.json', /unknown chapter "clew-99"/],
      ['broken.sheet.json', /not valid JSON/],
      ['no-such.sheet.json', /cannot read it/],
    ] as const) {
      const r = await score(fixture(file));
      expect(r.code, file).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe('chapters', () => {
  it('eight clew chapters load, each with three different rewards from the counter library', () => {
    expect(CHAPTER_IDS).toEqual(['clew-1', 'clew-2', 'clew-3', 'clew-4', 'clew-5', 'clew-6', 'clew-7', 'clew-8']);
    for (const id of CHAPTER_IDS) {
      const c = getChapter(id);
      expect(c.clew).toBe(true);
      expect(c.rewards).toHaveLength(3);
      expect(new Set(c.rewards.map((r) => `${r.counter}${JSON.stringify(r.params ?? {})}`)).size).toBe(3);
      for (const r of c.rewards) expect(COUNTERS[r.counter], r.counter).toBeDefined();
      expect(c.penalty.counter).toBe('wormsTouchingBlank');
      expect(c.penalty.track.map((x) => [x.at, x.symbol, x.count])).toEqual(Array.from({ length: 9 }, (_, i) => [i + 1, 'x', 2]));
    }
  });

  it('clew-1 is the default board: 10 x 10, rocks C3 H4 E6 B8 I9, the default regions, 1 AM to 8 PM', () => {
    const c = getChapter('clew-1');
    expect(c.board).toEqual({ columns: 10, rows: 10, rocks: ['C3', 'H4', 'E6', 'B8', 'I9'] });
    expect(c.clock.regions.map((r) => r.columns ?? r.rows)).toEqual(['A-E', 'F-J', '1-5', '6-10', 'F-J', 'A-E', '6-10', '1-5']);
    expect(c.clock.regions.map((r) => r.edge)).toEqual(['top', 'top', 'right', 'right', 'bottom', 'bottom', 'left', 'left']);
    expect(Array.from({ length: 16 }, (_, h) => hourLabel(c, h))).toEqual([...[1, 2, 3, 4, 5, 6, 7, 8].map((h) => `${h} AM`), ...[1, 2, 3, 4, 5, 6, 7, 8].map((h) => `${h} PM`)]);
    expect(geometry(c).regionCells[2]).toHaveLength(50);
    expect(c.dice).toEqual({ shape: ['I', 'L', 'U', 'V', 'W', 'Z'], organ: ['eye', 'mouth', 'tail', 'collar', 'brain', 'heart'], shapeDieColor: 'red' });
  });

  it('a rock named off the top or left edge ("A0") is not a cell of the board (thirty-eighth session)', () => {
    const base = getChapter('clew-1');
    const r = parseChapter({ ...base, id: 'rock0', board: { ...base.board, rocks: ['C3', 'A0'] } }, 'rock0.json');
    expect(r).toEqual({ ok: false, errors: ['rock0.json: rock A0 is not a cell of the 10 x 10 board'] });
  });

  it('names like "constructor" or "toString" are no chapter and no counter, not Object\'s own (thirty-eighth session)', () => {
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(setup({ chapter: id }), id).toMatchObject({ ok: false, code: 'setup/invalid', message: `unknown chapter "${id}" (known: ${CHAPTER_IDS.join(', ')})` });
    }
    for (const counter of ['toString', 'constructor', '__proto__']) {
      const c = structuredClone(getChapter('clew-1'));
      c.id = 'my-ch';
      c.rewards[0]!.counter = counter;
      delete c.rewards[0]!.params;
      const r = setup({ chapter: c as unknown as Record<string, unknown> });
      expect(r, counter).toMatchObject({ ok: false, code: 'setup/invalid', message: expect.stringContaining(`unknown counter "${counter}"`) });
      // A hand-built chapter that skipped validation: scoring names the counter, it does not call Object's.
      expect(() => countReward(c.rewards[0]!, boardView(getChapter('clew-1'), { worms: [], foods: [] })), counter).toThrow(`unknown counter "${counter}"`);
    }
  });

  // The rules: the penalty "always says it's based on 'the number of worms touching blank space(s)'", and
  // "your total score is the number of stars you circle, minus the number of X's you circle".
  describe('the penalty is the rules\' penalty, and only it takes points off (forty-third session)', () => {
    const edited = (edit: (c: Chapter) => void): ChapterResult => {
      const c = { ...structuredClone(getChapter('clew-1')), id: 'my-chapter' };
      edit(c);
      return parseChapter(c, 'my-chapter.json');
    };

    it('a penalty that counts anything but worms touching blank space is refused, naming its counter', () => {
      expect(edited((c) => void (c.penalty.counter = 'foods'))).toEqual({
        ok: false,
        errors: ['my-chapter.json: penalty "Worms touching blank spaces": its counter is "foods", but the penalty always counts worms touching blank space ("wormsTouchingBlank")'],
      });
      // One message, not a second "unknown counter" one.
      expect(edited((c) => void (c.penalty.counter = 'wormsWithWings'))).toMatchObject({ ok: false, errors: [expect.stringContaining('its counter is "wormsWithWings", but the penalty always counts')] });
    });

    it("a penalty track with stars or circles is refused, naming the symbols: each circled X on it is a point off", () => {
      expect(
        edited((c) => {
          c.penalty.track[2]!.symbol = 'star';
          c.penalty.track[4]!.symbol = 'circle';
        }),
      ).toEqual({
        ok: false,
        errors: ["my-chapter.json: penalty \"Worms touching blank spaces\": track symbols 3, 5 are not x's, but the penalty's track has only x's (each circled x is a point off)"],
      });
    });

    it("a reward track with an X is refused, naming the reward and the symbol: a reward never takes points off", () => {
      expect(edited((c) => void (c.rewards[1]!.track[0]!.symbol = 'x'))).toEqual({
        ok: false,
        errors: ['my-chapter.json: reward 2 "Foods": track symbol 1 is an x, but a reward\'s track has only stars and circles (an x takes a point off: only the penalty has them)'],
      });
    });

    it('every bundled chapter passes, and setup names the problem of a chapter it is given', () => {
      for (const id of CHAPTER_IDS) expect(loadChapter(id).ok, id).toBe(true);
      const c = { ...structuredClone(getChapter('clew-1')), id: 'my-chapter' };
      c.penalty.track[0]!.symbol = 'star';
      expect(setup({ chapter: c as unknown as Record<string, unknown> })).toMatchObject({ ok: false, code: 'setup/invalid', message: expect.stringContaining("penalty \"Worms touching blank spaces\": track symbol 1 is not an x") });
    });
  });

  it('an edited chapter with mistakes gets a message for each', () => {
    const c = structuredClone(getChapter('clew-1')) as unknown as { board: { rocks: string[] }; clock: { hours: number; regions: { edge: string; columns?: string }[] }; rewards: { counter: string; track: { at: number }[] }[]; dice: { shapeDieColor: string } };
    c.board.rocks.push('K1');
    c.clock.hours = 17;
    c.clock.regions[0]!.columns = 'A-K';
    c.rewards[0]!.counter = 'wormsWithWings';
    c.rewards[1]!.track[0]!.at = 5;
    c.dice.shapeDieColor = 'plaid';
    const r = parseChapter(c, 'clew-1.json');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.join('\n')).toMatch(/rock K1 is not a cell/);
    expect(r.errors.join('\n')).toMatch(/17 hours/);
    expect(r.errors.join('\n')).toMatch(/columns "A-K"/);
    expect(r.errors.join('\n')).toMatch(/unknown counter "wormsWithWings"/);
    expect(r.errors.join('\n')).toMatch(/track symbol 2 is printed under 2, before the 5/);
    expect(r.errors.join('\n')).toMatch(/"plaid" is not a known die colour/);
    expect(r.errors).toHaveLength(6);
  });
});

describe('board notation', () => {
  it('prints and reads back a position (worms in order, organs with facing, foods, rocks, the legend)', () => {
    const text = `
    A   B C   D E F G H I J
1   .   . .   . . . . . . .
2   1Ev 1 1H  1 . * . . . .
3   1   . #   1 . . . . . .
4   .   . .   . . . . # . .
5   2   2T> . . . . . . . .
6   .   . .   . # . . . . .
7   3   3 3   3 3 . . . . .
8   .   # .   . . . . . . .
9   .   . .   . . . . . # .
10  .   . .   . . . . . . .
1: shape=L front=A3 ext=1
2: parents=1+3 born=3`;
    const b = parseBoard(text);
    expect(b.worms[0]).toMatchObject({ shape: 'L', front: true, ext: 1 });
    const g = geometry(getChapter('clew-1'));
    expect(b.worms[0]!.cells.map((c) => g.names[c])).toEqual(['A3', 'A2', 'B2', 'C2', 'D2', 'D3']);
    const printed = printBoard(g, b);
    expect(parseBoard(printed)).toEqual(b);
    expect(printBoard(g, parseBoard(printed))).toBe(printed);
  });

  it('says where a picture is wrong', () => {
    expect(() => parseBoard('. 1 1\n. x .')).toThrow(NotationError);
    expect(() => parseBoard('. 1 1\n. x .')).toThrow(/B2: "x" is not a cell token/);
    expect(() => parseBoard('1 . 1')).toThrow(/worm 1: its cells A1 C1 do not form a path/);
    expect(() => parseBoard('1 1 1 1\n. . . .')).toThrow(/4 cells: say its original shape/);
    expect(() => parseBoard('. . .\n. .')).toThrow(/row 2: 2 cells, but row 1 has 3/);
  });

  /** The problems parseBoard names (none: it read the board). */
  const problemsOf = (text: string): string[] => {
    try {
      parseBoard(text);
      return [];
    } catch (e) {
      if (e instanceof NotationError) return e.problems;
      throw e;
    }
  };
  // Worm 2 is a baby of worms 1 and 3.
  const family = (legend: string) => `2 2 . . .\n1 1 1 1 1\n3 3 . . .\n2: ${legend}`;

  it.each([
    ['born=x (not NaN)', family('parents=1+3 born=x'), 'worm 2: born=x must be a whole number (the 0-based hour it was made)'],
    ['born=-1', family('parents=1+3 born=-1'), 'worm 2: born=-1 must be a whole number (the 0-based hour it was made)'],
    ['ext= (not 0)', '1 1 1 1 1\n1: ext=', 'worm 1: ext= must be a whole number'],
    ['ext=1.5', '1 1 1 1 1\n1: ext=1.5', 'worm 1: ext=1.5 must be a whole number'],
    ['a parent not on the board', family('parents=1+9'), 'worm 2: parents=1+9 names worm 9, which is not on the board'],
    ['a baby its own parent', family('parents=1+2'), 'worm 2: parents=1+2 names the baby itself'],
    ['one parent twice (a collar partners with another worm)', family('parents=1+1'), 'worm 2: parents=1+1 names one worm twice: a baby has two parents'],
    ['a key given twice (the last no longer wins)', '1 1 1 1 1\n1: shape=I shape=L', 'legend 1: shape= is given twice'],
    ['a key given twice on two lines', '1 1 1 1 1\n1: shape=I\n1: shape=L', 'legend 1: shape= is given twice'],
    ['27 columns (cell names stop at Z)', Array.from({ length: 27 }, () => '.').join(' '), 'the board is 27 x 1: at most 26 columns (A-Z) and 99 rows'],
    ['100 rows', Array.from({ length: 100 }, () => '. . .').join('\n'), 'the board is 3 x 100: at most 26 columns (A-Z) and 99 rows'],
  ])('refuses a legend value or a board that is not what it claims: %s (forty-third session)', (_, text, problem) => {
    expect(problemsOf(text)).toEqual([problem]);
  });

  it('reads the largest board a chapter may have: 26 columns, 99 rows, a rock on Z2 (forty-third session)', () => {
    expect(parseBoard(`${'. '.repeat(26).trim()}\n${'. '.repeat(25)}#`)).toMatchObject({ width: 26, height: 2, rocks: ['Z2'] });
    expect(parseBoard(Array.from({ length: 99 }, () => '. . .').join('\n'))).toMatchObject({ width: 3, height: 99 });
  });

  it.each([
    // DECISIONS: an eye or mouth goes "on one of the first two cells from the front end, facing forward".
    ['an eye facing sideways', '1 1E^ 1 1 1\n1: front=A1', ['worm 1: the eye at B1 faces N, but eyes face forward along the worm (W there)']],
    ['an eye on the middle cell', '1 1 1E> 1 1\n1: front=E1', ['worm 1: the eye at C1 must be on one of the first two cells (E1, D1): cells run from the front end']],
    // DECISIONS: a tail goes "only on the last cell of the rear end, pointing outward; at most one tail per worm".
    ['two tails', '1T< 1 1 1 1T>\n1: front=A1', ['worm 1: the tail at A1 must be on the rear tip (E1): cells run from the front end to the rear end', 'worm 1 has 2 tails (A1, E1); a worm has at most one']],
    ['a tail on a middle cell', '1 1 1T^ 1 1\n1: front=A1', ['worm 1: the tail at C1 must be on the rear tip (E1): cells run from the front end to the rear end']],
    ['a tail pointing inward', '1 1 1 1 1T<\n1: front=A1', ['worm 1: the tail at E1 faces W, but a tail points outward from the rear tip (E)']],
    // Option A places a worm of 5 cells: a shape on fewer is none the worm was drawn as.
    ['a shape on 2 cells', '1 1 . . .\n1: shape=L', ['worm 1 has the shape L but only 2 cells']],
    // An eye, mouth or tail gives the worm its front as it is added.
    ['no front, but an eye', '1 1 1 1 1E>\n1: front=?', ['worm 1: front=? but the eye at E1 gives it a front']],
  ])('refuses an organ placement the rules forbid, as the sheet file does: %s (forty-third session)', (_, text, problems) => {
    expect(problemsOf(text)).toEqual(problems);
  });

  it('refuses an illegal worm in the same words as the sheet file (one check for both)', () => {
    const sheet = validateSheet({ chapter: 'clew-1', worms: [{ cells: ['A1', 'B1', 'C1', 'D1', 'E1'], shape: 'I', organs: [{ type: 'tail', cell: 'A1', facing: 'W' }, { type: 'tail', cell: 'E1', facing: 'E' }] }] });
    expect(sheet.ok).toBe(false);
    if (!sheet.ok) expect(problemsOf('1T< 1 1 1 1T> . . . . .\n1: front=A1')).toEqual(sheet.errors);
  });

  it("keeps the sheet file's leniency for a grown worm: Mike's mouth on the third cell, facing along the worm", () => {
    // The worm grew its front by 2 (E1, E2): the lower mouth was on its second cell when placed.
    const b = parseBoard('. . . . 1M^\n. . . . 1\n1 1 1 1 1M>\n1: shape=I front=E1 ext=2');
    expect(b.worms[0]!.organs).toEqual([
      { type: 'mouth', cell: 4, facing: 'N' },
      { type: 'mouth', cell: 14, facing: 'E' },
    ]);
  });
});
