/**
 * Assembling a sheet from what the cells and borders show: with perfect readings the sheet and its
 * score come back exactly; misreadings that break the rules are cut out and listed, and doubts say
 * whether they change the score.
 */
import { describe, expect, it } from 'vitest';
import { cellIndex, dirBetween, geometry } from '../../shared/games/worm-and-cozy/board.js';
import { CHAPTER_IDS, getChapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { scoreSheet } from '../../shared/games/worm-and-cozy/sheet.js';
import type { Worm } from '../../shared/games/worm-and-cozy/state.js';
import { createRng } from '../../shared/rng.js';
import { assemble, CELL_CLASSES, sheetErrors, type CellClass, type CellInput, type JoinInput } from '../../vision/sheet/assemble.js';
import { playRandomGame } from '../../vision/sheet/synth/content.js';

const DIRS = ['N', 'E', 'S', 'W'] as const;

/** Perfect readings of a board: one-hot classes, joins along each worm, facing strokes drawn. */
function readings(chapterId: string, worms: readonly Worm[], foods: readonly number[]): { inputs: CellInput[]; joins: JoinInput[] } {
  const g = geometry(getChapter(chapterId));
  const cls: CellClass[] = new Array<CellClass>(g.size).fill('blank');
  const pointers = Array.from({ length: g.size }, () => [0, 0, 0, 0]);
  for (const f of foods) cls[f] = 'food';
  const joined = new Set<string>();
  for (const w of worms) {
    for (const c of w.cells) cls[c] = 'band';
    for (const o of w.organs) {
      cls[o.cell] = o.type === 'brain' && o.filled ? 'usedBrain' : o.type;
      if ((o.type === 'eye' || o.type === 'mouth') && o.facing) pointers[o.cell]![DIRS.indexOf(o.facing)] = 1;
    }
    for (let k = 1; k < w.cells.length; k++) joined.add(`${Math.min(w.cells[k - 1]!, w.cells[k]!)}-${Math.max(w.cells[k - 1]!, w.cells[k]!)}`);
  }
  const inputs = cls.map((c, i) => ({ probs: CELL_CLASSES.map((k) => (k === c ? 1 : 0)), pointers: pointers[i]! }));
  const joins: JoinInput[] = [];
  for (let i = 0; i < g.size; i++) {
    if ((i % g.width) + 1 < g.width) joins.push({ a: i, b: i + 1, p: joined.has(`${i}-${i + 1}`) ? 1 : 0 });
    if (i + g.width < g.size) joins.push({ a: i, b: i + g.width, p: joined.has(`${i}-${i + g.width}`) ? 1 : 0 });
  }
  return { inputs, joins };
}

describe('assemble', () => {
  it('perfect readings of 40 random finished games give back their scores, with nothing uncertain', () => {
    const rng = createRng('assemble-games');
    let wrongShape = 0;
    for (let n = 0; n < 40; n++) {
      const chapter = getChapter(CHAPTER_IDS[n % CHAPTER_IDS.length]!);
      const game = playRandomGame(rng, chapter);
      const truth = scoreSheet(game.sheet);
      if (!truth.ok) throw new Error(truth.errors.join('; '));
      const { inputs, joins } = readings(chapter.id, game.worms, game.foods);
      const a = assemble(chapter, geometry(chapter), inputs, joins);
      expect(a.errors).toEqual([]);
      expect(sheetErrors(a.sheet)).toEqual([]);
      expect(a.worms).toHaveLength(game.worms.length);
      // A grown worm's first shape may be ambiguous from its cells; such a doubt is listed.
      const doubts = a.uncertain.filter((u) => !/could have started as/.test(u.what));
      expect(doubts, JSON.stringify(doubts)).toEqual([]);
      if (a.score!.total !== truth.score.total) {
        wrongShape++;
        expect(a.uncertain.some((u) => /could have started as|grown baby|none of the six shapes/.test(u.what))).toBe(true);
      }
    }
    expect(wrongShape).toBeLessThanOrEqual(2);
  });

  it('a cell with three joins keeps its two strongest and lists the cut', () => {
    const ch = getChapter('clew-1');
    const g = geometry(ch);
    const [b2, c2, d2, c1] = ['B2', 'C2', 'D2', 'C1'].map((n) => cellIndex(g, n));
    const worms: Worm[] = [{ id: 1, cells: [b2!, c2!, d2!], front: false, shape: null, organs: [], ext: 0 }, { id: 2, cells: [c1!, cellIndex(g, 'D1')], front: false, shape: null, organs: [], ext: 0 }];
    const { inputs, joins } = readings(ch.id, worms, []);
    const j = joins.find((x) => x.a === c1 && x.b === c2)!;
    j.p = 0.6;
    const a = assemble(ch, g, inputs, joins);
    expect(a.worms.map((w) => w.cells.slice().sort().join()).sort()).toEqual(['B2,C2,D2', 'C1,D1']);
    expect(a.uncertain).toEqual([expect.objectContaining({ cells: ['C1', 'C2'], affectsScore: true })]);
  });

  it('a baby whose join does not read is listed, cell by cell, as changing the score (not dropped without a word)', () => {
    const ch = getChapter('clew-5');
    const g = geometry(ch);
    const worms: Worm[] = [{ id: 1, cells: ['A1', 'B1', 'C1', 'D1', 'E1'].map((n) => cellIndex(g, n)), front: false, shape: 'I', organs: [], ext: 0 }, { id: 2, cells: ['G5', 'G6'].map((n) => cellIndex(g, n)), front: false, shape: null, organs: [], ext: 0 }];
    const { inputs, joins } = readings(ch.id, worms, []);
    const [g5, g6] = ['G5', 'G6'].map((n) => cellIndex(g, n));
    joins.find((j) => (j.a === g5 && j.b === g6) || (j.a === g6 && j.b === g5))!.p = 0.04;
    const a = assemble(ch, g, inputs, joins);
    expect(a.sheet.worms.map((w) => w.cells.join())).toEqual(['A1,B1,C1,D1,E1']);
    expect(a.uncertain).toEqual([
      expect.objectContaining({ cells: ['G5'], options: ['not a worm cell', 'joined'], affectsScore: true }),
      expect.objectContaining({ cells: ['G6'], options: ['not a worm cell', 'joined'], affectsScore: true }),
    ]);
  });

  it('an eye or mouth on the second cell of a worm as drawn faces from the second cell to the end, even where a stroke points round the bend', () => {
    const ch = getChapter('clew-2');
    const g = geometry(ch);
    const cells = ['B2', 'C2', 'C3', 'C4', 'C5'].map((n) => cellIndex(g, n));
    const worms: Worm[] = [{ id: 1, cells, front: true, shape: 'L', organs: [{ type: 'mouth', cell: cells[1]!, facing: 'W' }], ext: 0 }];
    const { inputs, joins } = readings(ch.id, worms, []);
    // A stroke on C2's north border too (a pencil's slip at the bend).
    inputs[cells[1]!] = { ...inputs[cells[1]!]!, pointers: [1, 0, 0, 1] };
    const a = assemble(ch, g, inputs, joins);
    expect(a.sheet.worms[0]!.organs).toEqual([{ type: 'mouth', cell: 'C2', facing: 'W' }]);
    expect(a.errors).toEqual([]);
  });

  it('a tail read in the middle of a worm is left out and listed', () => {
    const ch = getChapter('clew-3');
    const g = geometry(ch);
    const cells = ['A1', 'A2', 'A3', 'A4', 'B4'].map((n) => cellIndex(g, n));
    const worms: Worm[] = [{ id: 1, cells, front: true, shape: 'L', organs: [{ type: 'tail', cell: cells[2]!, facing: 'S' }], ext: 0 }];
    const { inputs, joins } = readings(ch.id, worms, []);
    const a = assemble(ch, g, inputs, joins);
    expect(a.sheet.worms[0]!.organs).toBeUndefined();
    expect(a.uncertain).toEqual([expect.objectContaining({ cells: ['A3'], affectsScore: true })]);
    expect(a.score).not.toBeNull();
  });

  it('a heart read as a mouth in the middle of a fresh worm is taken as the heart, its runner-up, and asked about', () => {
    const ch = getChapter('clew-3');
    const g = geometry(ch);
    const cells = ['A1', 'A2', 'A3', 'A4', 'B4'].map((n) => cellIndex(g, n));
    const worms: Worm[] = [{ id: 1, cells, front: true, shape: 'L', organs: [{ type: 'heart', cell: cells[2]! }], ext: 0 }];
    const { inputs, joins } = readings(ch.id, worms, []);
    const truth = assemble(ch, g, inputs, joins);
    // The letter network says "mouth" (a mouth cannot sit mid-worm on a fresh L), heart next.
    const at = cells[2]!;
    inputs[at] = { ...inputs[at]!, probs: CELL_CLASSES.map((k) => (k === 'mouth' ? 0.6 : k === 'heart' ? 0.3 : k === 'eye' ? 0.1 : 0)) };
    const a = assemble(ch, g, inputs, joins);
    expect(a.sheet.worms[0]!.organs).toEqual([{ type: 'heart', cell: 'A3' }]);
    expect(a.score!.total).toBe(truth.score!.total);
    expect(a.uncertain).toEqual([expect.objectContaining({ cells: ['A3'], affectsScore: true, options: ['heart', 'mouth', 'band'], what: expect.stringMatching(/reads as a mouth, which cannot sit there on this worm: taken as a heart/) })]);
    expect(a.cells.find((c) => c.cell === 'A3')).toMatchObject({ mark: 'heart', confidence: 0.3 });
    // With no organ that fits among the likely readings, the letter is still left out and listed.
    inputs[at] = { ...inputs[at]!, probs: CELL_CLASSES.map((k) => (k === 'mouth' ? 0.99 : k === 'eye' ? 0.01 : 0)) };
    const b = assemble(ch, g, inputs, joins);
    expect(b.sheet.worms[0]!.organs).toBeUndefined();
    expect(b.uncertain).toEqual([expect.objectContaining({ cells: ['A3'], what: expect.stringMatching(/left out/) })]);
  });

  it('orders a worm from its front: the tail ends up on the rear tip, pointing out', () => {
    const ch = getChapter('clew-3');
    const g = geometry(ch);
    const cells = ['E5', 'F5', 'G5', 'H5', 'I5'].map((n) => cellIndex(g, n));
    const worms: Worm[] = [{ id: 1, cells, front: true, shape: 'I', organs: [{ type: 'tail', cell: cells[0]!, facing: 'W' }], ext: 0 }];
    const { inputs, joins } = readings(ch.id, worms, []);
    const a = assemble(ch, g, inputs, joins);
    expect(a.sheet.worms[0]).toEqual({ cells: ['I5', 'H5', 'G5', 'F5', 'E5'], shape: 'I', organs: [{ type: 'tail', cell: 'E5', facing: 'W' }] });
  });

  it('a mouth at a bend faces where its stroke points; a faint stroke is a doubt that matters when a food is there', () => {
    const ch = getChapter('clew-2');
    const g = geometry(ch);
    // A baby grown to three cells (B1 → B2 → C2; D2 is a rock on this chapter's board): its mouth,
    // placed before it grew, may have been on its end cell or its second one, so at the bend B2 it
    // may face N (towards B1) or W (C2→B2).
    const cells = ['B1', 'B2', 'C2'].map((n) => cellIndex(g, n));
    const mouth = { type: 'mouth' as const, cell: cells[1]!, facing: 'W' as const };
    const worms: Worm[] = [{ id: 1, cells, front: true, shape: null, organs: [mouth], ext: 0 }];
    const food = cellIndex(g, 'A2');
    const { inputs, joins } = readings(ch.id, worms, [food]);
    const a = assemble(ch, g, inputs, joins);
    expect(a.sheet.worms[0]!.organs).toEqual([{ type: 'mouth', cell: 'B2', facing: 'W' }]);
    expect(dirBetween(g, cells[2]!, cells[1]!)).toBe('W');
    // No stroke: the mouth faces along the line (N, towards B1), away from the food.
    inputs[mouth.cell] = { ...inputs[mouth.cell]!, pointers: [0, 0, 0, 0] };
    expect(assemble(ch, g, inputs, joins).sheet.worms[0]!.organs).toEqual([{ type: 'mouth', cell: 'B2', facing: 'N' }]);
    // A faint stroke: listed, and it matters (the fed-mouths reward counts this mouth only facing the food).
    inputs[mouth.cell] = { ...inputs[mouth.cell]!, pointers: [0, 0, 0, 0.22] };
    const faint = assemble(ch, g, inputs, joins);
    expect(faint.uncertain).toEqual([expect.objectContaining({ cells: ['B2'], affectsScore: true })]);
  });

  it('a doubtful letter matters only where the chapter counts it', () => {
    const ch = getChapter('clew-1'); // rewards: eyes (a circle under 1, a star under 2), foods, cozy worms
    const g = geometry(ch);
    const cells = ['F1', 'G1', 'H1', 'I1', 'J1'].map((n) => cellIndex(g, n));
    const other = ['F3', 'G3', 'H3', 'I3', 'J3'].map((n) => cellIndex(g, n));
    const worms: Worm[] = [
      { id: 1, cells, front: true, shape: 'I', organs: [{ type: 'heart', cell: cells[2]! }, { type: 'eye', cell: cells[0]!, facing: 'W' }], ext: 0 },
      { id: 2, cells: other, front: true, shape: 'I', organs: [{ type: 'eye', cell: other[0]!, facing: 'W' }], ext: 0 },
    ];
    const { inputs, joins } = readings(ch.id, worms, []);
    const probs = (a: CellClass, pa: number, b: CellClass) => CELL_CLASSES.map((k) => (k === a ? pa : k === b ? 1 - pa : 0));
    inputs[cells[2]!] = { ...inputs[cells[2]!]!, probs: probs('heart', 0.6, 'collar') };
    inputs[cells[0]!] = { ...inputs[cells[0]!]!, probs: probs('eye', 0.7, 'collar') };
    const a = assemble(ch, g, inputs, joins);
    const byCell = Object.fromEntries(a.uncertain.map((u) => [u.cells[0], u.affectsScore]));
    expect(byCell).toEqual({ H1: false, F1: true });
  });
});
