/** The score-a-sheet editor: paths by dragging, organs by the engine's rules, erasing, messages. */
import { describe, expect, it } from 'vitest';
import { geometry, getChapter } from '../../../shared/games/worm-and-cozy/index.js';
import { scoreSheet, validateSheet } from '../../../shared/games/worm-and-cozy/sheet.js';
import { addOrgan, addWorm, cellsInMessages, emptySheet, eraseAt, extendPath, setShape, toSheetJson, toggleFilled, toggleFood, type EditorSheet } from '../../../web/client/src/logic/sheet-editor.js';

const g = geometry(getChapter('clew-1'));

function drawn(...paths: string[][]): EditorSheet {
  let s = emptySheet('clew-1');
  for (const p of paths) s = addWorm(s, p).sheet;
  return s;
}

describe('dragging a worm', () => {
  it('steps on to neighbours, back one step when the finger returns, and ignores jumps and loops', () => {
    let p: string[] = [];
    for (const c of ['B2', 'B3', 'B3', 'C3', 'B3', 'B4', 'D9', 'B2']) p = extendPath(p, c);
    expect(p).toEqual(['B2', 'B3', 'B4']);
  });

  it('5 cells take their shape; 2 or 3 are a baby; a grown worm takes the shape along it', () => {
    const s = drawn(['A1', 'A2', 'A3', 'A4', 'B4'], ['D1', 'E1'], ['G1', 'G2', 'G3', 'G4', 'G5', 'G6', 'H6']);
    expect(s.worms.map((w) => w.shape ?? null)).toEqual(['L', null, 'I']);
  });

  it('5 cells that are no worm shape are kept, with a word about it', () => {
    const r = addWorm(emptySheet('clew-1'), ['A1', 'B1', 'B2', 'C2', 'D2']); // an N
    expect(r.sheet.worms[0]!.shape).toBeUndefined();
    expect(r.message).toContain('not one of the six worm shapes');
    expect(addWorm(emptySheet('clew-1'), ['A1']).message).toContain('at least 2 cells');
  });
});

describe('organs follow the engine', () => {
  it('an eye at the far end turns the worm round so that end is its front, facing outward', () => {
    const s = addOrgan(drawn(['A1', 'A2', 'A3', 'A4', 'B4']), 'eye', 'B4').sheet;
    expect(s.worms[0]!.cells).toEqual(['B4', 'A4', 'A3', 'A2', 'A1']);
    expect(s.worms[0]!.organs).toEqual([{ type: 'eye', cell: 'B4', facing: 'E' }]);
    expect(validateSheet(toSheetJson(s)).ok).toBe(true);
  });

  it('a tail goes on the rear tip pointing out; a brain anywhere, without facing', () => {
    let s = drawn(['A1', 'A2', 'A3', 'A4', 'B4']);
    s = addOrgan(s, 'tail', 'A1').sheet; // A1 becomes the rear
    expect(s.worms[0]!.cells[4]).toBe('A1');
    expect(s.worms[0]!.organs![0]).toEqual({ type: 'tail', cell: 'A1', facing: 'N' });
    s = addOrgan(s, 'brain', 'A3').sheet;
    expect(s.worms[0]!.organs![1]).toEqual({ type: 'brain', cell: 'A3' });
    expect(validateSheet(toSheetJson(s)).ok).toBe(true);
  });

  it('an organ where the rules allow none is kept as drawn, and validation says why', () => {
    const r = addOrgan(drawn(['A1', 'A2', 'A3', 'A4', 'B4']), 'eye', 'A3');
    expect(r.message).toContain('not where eyes go');
    const v = validateSheet(toSheetJson(r.sheet));
    expect(v.ok).toBe(false);
  });

  it('no organ off a worm or on top of another', () => {
    const s = drawn(['A1', 'A2', 'A3', 'A4', 'B4']);
    expect(addOrgan(s, 'heart', 'F5').message).toContain('not on a worm');
    const withHeart = addOrgan(s, 'heart', 'A2').sheet;
    expect(addOrgan(withHeart, 'brain', 'A2').message).toContain('already has an organ');
  });
});

describe('foods, brains and erasing', () => {
  it('a food goes in a blank cell and comes off again', () => {
    const s = drawn(['A1', 'A2', 'A3', 'A4', 'B4']);
    expect(toggleFood(s, 'A2').message).toContain('foods go in blank cells');
    const fed = toggleFood(s, 'C2').sheet;
    expect(fed.foods).toEqual(['C2']);
    expect(toggleFood(fed, 'C2').sheet.foods).toEqual([]);
  });

  it('a brain can be marked filled in, and unmarked', () => {
    const s = addOrgan(drawn(['A1', 'A2', 'A3', 'A4', 'B4']), 'brain', 'A3').sheet;
    const filled = toggleFilled(s, 'A3').sheet;
    expect(filled.worms[0]!.organs![0]).toEqual({ type: 'brain', cell: 'A3', filled: true });
    expect(toggleFilled(filled, 'A3').sheet.worms[0]!.organs![0]).toEqual({ type: 'brain', cell: 'A3' });
    expect(toggleFilled(s, 'A1').message).toContain('no brain');
  });

  it('erasing takes the organ first, then the worm, and a food', () => {
    let s = addOrgan(drawn(['A1', 'A2', 'A3', 'A4', 'B4']), 'heart', 'A2').sheet;
    s = toggleFood(s, 'D4').sheet;
    s = eraseAt(s, 'A2').sheet;
    expect(s.worms[0]!.organs).toBeUndefined();
    s = eraseAt(s, 'A2').sheet;
    expect(s.worms).toEqual([]);
    s = eraseAt(s, 'D4').sheet;
    expect(s.foods).toEqual([]);
    expect(eraseAt(s, 'D4').message).toContain('Nothing to erase');
  });

  it('a grown worm can be told its original shape', () => {
    const s = setShape(drawn(['A1', 'A2', 'A3', 'A4', 'A5', 'A6']), 0, 'L');
    expect(s.worms[0]!.shape).toBe('L');
    expect(setShape(s, 0, null).worms[0]!.shape).toBeUndefined();
  });

  it('the sheet file scores as npm run score does', () => {
    let s = drawn(['A1', 'A2', 'A3', 'A4', 'B4'], ['B3', 'B2', 'B1', 'C1', 'D1']);
    s = addOrgan(addOrgan(s, 'eye', 'A1').sheet, 'eye', 'B3').sheet;
    s = toggleFood(toggleFood(s, 'C2').sheet, 'D2').sheet;
    const r = scoreSheet(toSheetJson(s));
    expect(r.ok && r.score.rewards.map((x) => x.count)).toEqual([2, 2, 0]);
  });
});

describe('cells named in validation messages', () => {
  it('finds the cells, not the "(like C7)" example nor words', () => {
    const marks = cellsInMessages(['worm 2 and worm 1 overlap at B4', 'worm 1: "Q0" is not a cell name (like "C7")', 'worm 3 has 2 tails (A1, J10)', 'food at K3 is listed twice'], g);
    expect([...marks].sort()).toEqual(['A1', 'B4', 'J10']);
  });
});
