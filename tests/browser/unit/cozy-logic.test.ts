/**
 * The Worm & Cozy helpers of the phone: orientations of the rolled shape, what a tap means while
 * placing, and moves in plain words. The legal moves come from the engine itself.
 */
import { describe, expect, it } from 'vitest';
import { applyMove, legalOptions, setup, type CozyMove, type CozyState } from '../../../shared/games/worm-and-cozy/index.js';
import {
  babyChoice,
  describeMove,
  flipKey,
  groupPlacements,
  keyCells,
  optionTexts,
  orientationKey,
  placementAt,
  placementCells,
  rotateKey,
  shapeOrientations,
  startingOrientation,
} from '../../../web/client/src/logic/cozy.js';

function rolled(shape: 'L' | 'I' | 'U', organs: ['eye', 'brain'] = ['eye', 'brain']): CozyState {
  const s = setup({ chapter: 'clew-1' });
  if (!s.ok) throw new Error(s.message);
  const r = applyMove(s.state, { type: 'roll', shape, organs });
  if (!r.ok) throw new Error(r.message);
  return r.state;
}

describe('orientations of the rolled shape', () => {
  it('a quarter turn four times, or a flip twice, comes back', () => {
    const k = orientationKey(['A1', 'A2', 'A3', 'A4', 'B4']);
    expect(rotateKey(rotateKey(rotateKey(rotateKey(k))))).toBe(k);
    expect(flipKey(flipKey(k))).toBe(k);
    expect(rotateKey(k)).not.toBe(k);
  });

  it('a quarter turn clockwise stands the I on end', () => {
    const flat = orientationKey(['A1', 'B1', 'C1', 'D1', 'E1']);
    expect(keyCells(rotateKey(flat))).toEqual(keyCells(orientationKey(['A1', 'A2', 'A3', 'A4', 'A5'])));
  });

  it('each shape has as many orientations as its symmetry allows', () => {
    expect(Object.fromEntries((['I', 'L', 'U', 'V', 'W', 'Z'] as const).map((s) => [s, shapeOrientations(s).length]))).toEqual({ I: 2, L: 8, U: 4, V: 4, W: 4, Z: 4 });
  });

  it('rotating and flipping never leaves the shape', () => {
    const all = new Set(shapeOrientations('L'));
    for (const k of all) {
      expect(all.has(rotateKey(k))).toBe(true);
      expect(all.has(flipKey(k))).toBe(true);
    }
  });
});

describe('placing the rolled shape at 1 AM', () => {
  const state = rolled('L');
  const moves = legalOptions(state, { verbose: true }).moves;
  const placements = groupPlacements(moves);

  it('groups every legal placement by its orientation, all of them L orientations', () => {
    const total = [...placements.byKey.values()].reduce((n, l) => n + l.length, 0);
    expect(total).toBe(moves.filter((m) => m.type === 'placeWorm').length);
    const ls = new Set(shapeOrientations('L'));
    for (const k of placements.byKey.keys()) expect(ls.has(k)).toBe(true);
  });

  it('lights only cells of legal placements in the chosen orientation', () => {
    const k = startingOrientation('L', placements);
    const lit = placementCells(placements, k);
    const legal = new Set(moves.flatMap((m) => (m.type === 'placeWorm' ? m.cells : [])));
    for (const c of lit) expect(legal.has(c)).toBe(true);
    // The 1 AM region is columns A–E: an L touching it never reaches column J.
    expect([...lit].some((c) => c.startsWith('J'))).toBe(false);
  });

  it('a tap picks a placement covering the cell, the next tap on it slides to the next fit', () => {
    const k = startingOrientation('L', placements);
    const first = placementAt(placements, k, 'B2', 0)!;
    const second = placementAt(placements, k, 'B2', 1)!;
    expect(first.move.cells).toContain('B2');
    expect(second.move.cells).toContain('B2');
    expect(orientationKey(first.move.cells)).toBe(k);
    expect(second.move.cells).not.toEqual(first.move.cells);
    // Every pick is a move the engine accepts.
    expect(applyMove(state, first.move).ok).toBe(true);
  });

  it('a tap no placement of this orientation covers turns the shape to one that does, or finds nothing', () => {
    const k = startingOrientation('L', placements);
    const cell = [...new Set(moves.flatMap((m) => (m.type === 'placeWorm' ? m.cells : [])))].find((c) => !placementCells(placements, k).has(c))!;
    const hit = placementAt(placements, k, cell, 0)!;
    expect(hit.key).not.toBe(k);
    expect(hit.move.cells).toContain(cell);
    expect(placementAt(placements, k, 'J10', 0)).toBeNull();
  });
});

describe('moves in plain words', () => {
  it('says what each move does', () => {
    const organAt = (c: string) => (c === 'B2' ? ('eye' as const) : undefined);
    const cases: [CozyMove, string][] = [
      [{ type: 'placeWorm', player: 'p1', cells: ['B2', 'B3', 'B4', 'B5', 'C5'] }, 'Draw the worm on B2, B3, B4, B5, C5'],
      [{ type: 'addOrgan', player: 'p1', organ: 'eye', cell: 'B2', facing: 'N' }, 'Add an eye at B2, facing up'],
      [{ type: 'addOrgan', player: 'p1', organ: 'brain', cell: 'B3' }, 'Add a brain at B3'],
      [{ type: 'act', player: 'p1', cell: 'B2' }, 'The eye at B2 acts'],
      [{ type: 'food', player: 'p1', cell: 'D4' }, 'Add a food at D4'],
      [{ type: 'changeDie', player: 'p1', die: 0, face: 'U', brain: 'B3' }, 'Change the shape die to U (fill in the brain at B3)'],
      [{ type: 'changeDie', player: 'p1', die: 2, face: 'heart' }, 'Change organ die 2 to heart (a brain that acted last hour)'],
      [{ type: 'congaLine', player: 'p1', worms: [1, 3, 2] }, 'Conga line: worms 1 → 3 → 2'],
      [{ type: 'done', player: 'p1' }, 'Nothing more this hour'],
    ];
    for (const [move, text] of cases) expect(describeMove(move, organAt)).toBe(text);
  });

  it('translates the roll into options A, B and C', () => {
    expect(optionTexts('U', ['eye', 'brain'])).toEqual({
      A: "Draw a new U worm touching the hour's region, and give it an eye or a brain.",
      B: 'Add an eye or a brain to a worm in the region that has the other one, or is a U.',
      C: 'Every organ of one worm in the region acts (a worm that is a U, or has an eye or a brain).',
    });
    expect(optionTexts('L', ['heart', 'heart']).B).toBe('Add a heart to a worm in the region that is an L or has a heart.');
  });

  it('a baby is chosen cell by cell among the legal ones', () => {
    const moves: CozyMove[] = [
      { type: 'baby', player: 'p1', cells: ['A1', 'A2'] },
      { type: 'baby', player: 'p1', cells: ['A1', 'A2', 'A3'] },
      { type: 'baby', player: 'p1', cells: ['C1', 'C2'] },
    ];
    expect(babyChoice(moves, ['A2']).fits).toHaveLength(2);
    expect(babyChoice(moves, ['A2']).complete).toBeNull();
    expect(babyChoice(moves, ['A2', 'A1']).complete).toEqual(moves[0]);
    expect(babyChoice(moves, ['A1', 'A3', 'A2']).complete).toEqual(moves[1]);
    expect(babyChoice(moves, ['B1']).fits).toEqual([]);
  });
});
