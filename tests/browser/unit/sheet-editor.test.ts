/** The score-a-sheet editor: paths by dragging, organs by the engine's rules, erasing, messages. */
import { describe, expect, it } from 'vitest';
import { geometry, getChapter } from '../../../shared/games/worm-and-cozy/index.js';
import { scoreSheet, validateSheet } from '../../../shared/games/worm-and-cozy/sheet.js';
import { addOrgan, addWorm, cellsInMessages, emptySheet, eraseAt, extendPath, setShape, toSheetJson, toggleFilled, toggleFood, type EditorSheet } from '../../../web/client/src/logic/sheet-editor.js';
import { doubtView, readSheetPhoto, readingFromAnswer, refusalMessage } from '../../../web/client/src/logic/sheet-photo.js';

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

  it('on a grown worm a second tap turns a mouth through every facing the sheet rules allow, and the paper scores the same', () => {
    // clew-2: an L drawn B2-C2-C3-C4-C5 (front B2), a mouth on its second cell C2 facing W (from the
    // second cell to the end), then grown from its front tip to A2; a food at C1. The paper scores -2.
    const paper = { chapter: 'clew-2', worms: [{ cells: ['A2', 'B2', 'C2', 'C3', 'C4', 'C5'], shape: 'L' as const, organs: [{ type: 'mouth' as const, cell: 'C2', facing: 'W' as const }] }], foods: ['C1'] };
    const paperScore = scoreSheet(paper);
    expect(paperScore.ok && paperScore.score.total).toBe(-2);
    let s = setShape(addWorm(emptySheet('clew-2'), paper.worms[0]!.cells).sheet, 0, 'L');
    const first = addOrgan(s, 'mouth', 'C2');
    // C2 is a legal cell for a mouth on a grown worm: no "not where mouths go", and the sheet is valid.
    expect(first.message).toBeUndefined();
    expect(validateSheet(toSheetJson(first.sheet)).ok).toBe(true);
    expect(first.note).toContain('Tap the mouth again');
    // Tapping on goes through every way validation accepts (either way forward at the bend, the
    // worm run from either end while nothing else fixes its front), and comes back round.
    const accepted = new Set<string>();
    for (const cells of [paper.worms[0]!.cells, [...paper.worms[0]!.cells].reverse()])
      for (const facing of ['N', 'E', 'S', 'W'] as const)
        if (validateSheet({ ...paper, foods: [], worms: [{ cells, shape: 'L', organs: [{ type: 'mouth', cell: 'C2', facing }] }] }).ok) accepted.add(`${cells[0]} ${facing}`);
    expect(accepted.size).toBeGreaterThan(1);
    s = first.sheet;
    const seen = new Set<string>();
    for (let i = 0; i < accepted.size; i++) {
      const w = s.worms[0]!;
      seen.add(`${w.cells[0]} ${w.organs![0]!.facing}`);
      const next = addOrgan(s, 'mouth', 'C2');
      expect(next.message).toBeUndefined();
      s = next.sheet;
    }
    expect(seen).toEqual(accepted);
    expect(s).toEqual(first.sheet);
    // Turned to the paper's W, the phone scores what the paper scores.
    while (s.worms[0]!.organs![0]!.facing !== 'W' || s.worms[0]!.cells[0] !== 'A2') s = addOrgan(s, 'mouth', 'C2').sheet;
    s = toggleFood(s, 'C1').sheet;
    const phone = scoreSheet(toSheetJson(s));
    expect(phone.ok && phone.score.total).toBe(-2);
  });

  it('a second tap on an organ that faces only one way says so; on a brain it still asks to erase first', () => {
    const s = addOrgan(drawn(['A1', 'A2', 'A3', 'A4', 'B4']), 'eye', 'A1').sheet;
    const again = addOrgan(s, 'eye', 'A1');
    expect(again.sheet).toBe(s);
    expect(again.note).toContain('can face only N');
    const brain = addOrgan(s, 'brain', 'A3').sheet;
    expect(addOrgan(brain, 'brain', 'A3').message).toContain('erase it first');
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

  it('a grown worm along which two original shapes fit says so, and which one was taken', () => {
    // A2-B2-C2-C3-C4 is a V, B2-C2-C3-C4-C5 an L.
    const r = addWorm(emptySheet('clew-2'), ['A2', 'B2', 'C2', 'C3', 'C4', 'C5']);
    expect(r.sheet.worms[0]!.shape).toBe('V');
    expect(r.note).toBe('Worm 1 could have grown from V or L: V was taken; choose below if it grew from another.');
    expect(addWorm(emptySheet('clew-1'), ['A1', 'A2', 'A3', 'A4', 'A5', 'A6']).note).toBeUndefined(); // only I fits
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

describe('reading a photo of the sheet', () => {
  const sheet = { chapter: 'clew-1', worms: [{ cells: ['A1', 'A2', 'A3', 'A4', 'B4'], shape: 'L', organs: [{ type: 'eye', cell: 'A1', facing: 'N' }] }], foods: ['C2'] };
  const answer = {
    chapter: 'clew-1',
    sheet,
    score: { total: 3 },
    uncertain: [
      { cells: ['B4', 'C4'], what: 'is the border between B4 and C4 crossed?', options: ['two worms', 'one worm'], affectsScore: false },
      { cells: ['A1'], what: 'A1: is it eye or collar?', options: ['eye', 'collar'], affectsScore: true },
    ],
    rectifiedPreview: { mime: 'image/jpeg', data: 'AAAA', width: 200, height: 300, pxPerMm: 4, board: { x: 10, y: 20, cell: 16, columns: 10, rows: 10 } },
  };

  it("takes the reader's sheet and score, and asks first about what may change the score", () => {
    const r = readingFromAnswer(answer, 'clew-1');
    if (!r.ok) throw new Error(r.message);
    expect(toSheetJson(r.reading.sheet)).toEqual(sheet);
    expect(r.reading.total).toBe(3);
    expect(r.reading.doubts.map((d) => d.cells)).toEqual([['A1'], ['B4', 'C4']]);
    expect(r.reading.preview?.src).toBe('data:image/jpeg;base64,AAAA');
    // Half a cell round B4-C4 (columns 1-2, row 3) in preview pixels.
    expect(doubtView(r.reading.preview!, ['B4', 'C4'])).toEqual({ x: 10 + 0.5 * 16, y: 20 + 2.5 * 16, w: 3 * 16, h: 2 * 16 });
  });

  it('refuses an answer for another chapter or with no sheet, and passes on the server refusal in its words', async () => {
    expect(readingFromAnswer({ ...answer, sheet: { ...sheet, chapter: 'clew-2' } }, 'clew-1')).toMatchObject({ ok: false, message: expect.stringContaining('not clew-1') });
    expect(readingFromAnswer({ uncertain: [] }, 'clew-1').ok).toBe(false);
    expect(refusalMessage(422, { code: 'photo/no-sheet', message: 'no Worm & Cozy sheet found in the photo' })).toBe('no Worm & Cozy sheet found in the photo');
    expect(refusalMessage(502, null)).toContain('502');
    const posted: string[] = [];
    const post = (async (url: string | URL | Request) => {
      posted.push(String(url));
      return new Response(JSON.stringify({ code: 'photo/unreadable', message: 'the photo is not an image clew can read' }), { status: 415 });
    }) as typeof fetch;
    expect(await readSheetPhoto(new Blob(['x'], { type: 'text/plain' }), 'clew-1', post)).toEqual({ ok: false, message: 'the photo is not an image clew can read' });
    expect(posted).toEqual(['/api/sheet/read?chapter=clew-1']);
  });
});
