/**
 * The pen finder's parts on hand-made maps (`vision/sheet/cover.ts`): the frame line cut out of a
 * board that is not square, the oriented opening, and a grey pen lying along a row line of such a
 * board; and the white and cream pens' finder (`paleBars`) on generated photos of the test sheet,
 * detection only (register, measure, the pen finder). The photos read end to end are in `read.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { getChapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { sheetLayout } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { photoPencil, type BoardRaster } from '../../vision/sheet/cells.js';
import { coveredCells, cutFrame, darkBars, openAlong, type DarkBar } from '../../vision/sheet/cover.js';
import { measureRegistered } from '../../vision/sheet/measure.js';
import { registerPhoto } from '../../vision/sheet/photo.js';
import { boardColour } from '../../vision/sheet/read.js';
import { synthSheetPhoto } from '../../vision/sheet/synth/index.js';
import { randomPen, type OnSheet, type PenColour, type PenOnSheet } from '../../vision/sheet/synth/objects.js';

const PPM = 5;
const ORIGIN = 3;

/** A board `columns` × `rows` of `cell` mm at PPM: paper, its grey grid, its black frame, and a grey (metal) pen 9 × 100 mm lying along the horizontal line at `penY` mm. */
function board(columns: number, rows: number, cell: number, penY?: number): BoardRaster {
  const width = Math.round((columns * cell + 2 * ORIGIN) * PPM);
  const height = Math.round((rows * cell + 2 * ORIGIN) * PPM);
  const ink = new Float32Array(width * height).fill(0.02);
  const paint = (x0: number, y0: number, x1: number, y1: number, v: number, over = false) => {
    for (let y = Math.max(0, Math.round(y0 * PPM)); y < Math.min(height, Math.round(y1 * PPM)); y++)
      for (let x = Math.max(0, Math.round(x0 * PPM)); x < Math.min(width, Math.round(x1 * PPM)); x++) ink[y * width + x] = over ? v : Math.max(ink[y * width + x]!, v);
  };
  const right = ORIGIN + columns * cell;
  const bottom = ORIGIN + rows * cell;
  for (let c = 0; c <= columns; c++) paint(ORIGIN + c * cell - 0.1, ORIGIN, ORIGIN + c * cell + 0.1, bottom, 0.6);
  for (let r = 0; r <= rows; r++) paint(ORIGIN, ORIGIN + r * cell - 0.1, right, ORIGIN + r * cell + 0.1, 0.6);
  for (const x of [ORIGIN, right]) paint(x - 0.3, ORIGIN, x + 0.3, bottom, 0.9);
  for (const y of [ORIGIN, bottom]) paint(ORIGIN, y - 0.3, right, y + 0.3, 0.9);
  // As dark as pencil (ink 0.5), opaque: the grid lines under it are not seen.
  if (penY !== undefined) paint(ORIGIN + 10, penY - 4.5, ORIGIN + 110, penY + 4.5, 0.5, true);
  return { ink: { width, height, ink, paper: new Float32Array(width * height).fill(230) }, ppm: PPM, originMm: ORIGIN, cell, columns, rows };
}

describe('the board frame cut out of the pen masks', () => {
  it('on a board taller than wide, the bottom frame line is cut at rows × cell, and the board inside is left alone', () => {
    // 10 columns, 14 rows of 12 mm, at 1 px per mm: the frame at x = 3 and 123, y = 3 and 171.
    const r = board(10, 14, 12);
    const w = 126;
    const h = 174;
    const m = new Uint8Array(w * h).fill(1);
    cutFrame(m, w, h, 1, r);
    const at = (x: number, y: number) => m[y * w + x];
    for (const x of [20, 60, 110]) {
      expect(at(x, 3), `top line at x ${x}`).toBe(0);
      expect(at(x, 171), `bottom line at x ${x}`).toBe(0);
      // Where the bottom line would be on a square board (columns × cell): inside this one.
      expect(at(x, 123), `row line 10 at x ${x}`).toBe(1);
    }
    for (const y of [20, 100, 160]) {
      expect(at(3, y)).toBe(0);
      expect(at(123, y)).toBe(0);
      expect(at(60, y)).toBe(1);
    }
  });

  it.each([12, 11.65])('a grey pen along the row line at columns × cell of a 10 × 14 board (cell %s mm) is found, as one along the row line above it', (cell) => {
    const above = darkBars(board(10, 14, cell, ORIGIN + 9 * cell), 0.4);
    const at = darkBars(board(10, 14, cell, ORIGIN + 10 * cell), 0.4);
    expect(above).toHaveLength(1);
    expect(at).toHaveLength(1);
    expect(Math.abs(at[0]!.centre[1] - (ORIGIN + 10 * cell))).toBeLessThan(1.5);
  });
});

describe('the opening by a 24 × 4 mm rectangle along an angle', () => {
  const w = 80;
  const h = 60;
  /** A rectangle `length` × `width` px centred at (40, 30), at `angle` degrees. */
  const bar = (length: number, width: number, angle: number) => {
    const a = (angle * Math.PI) / 180;
    const m = new Uint8Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const dx = x + 0.5 - 40;
        const dy = y + 0.5 - 30;
        if (Math.abs(dx * Math.cos(a) + dy * Math.sin(a)) <= length / 2 && Math.abs(-dx * Math.sin(a) + dy * Math.cos(a)) <= width / 2) m[y * w + x] = 1;
      }
    return m;
  };
  const count = (m: Uint8Array) => m.reduce((s, v) => s + v, 0);
  const outside = (opened: Uint8Array, m: Uint8Array) => opened.filter((v, i) => v && !m[i]).length;

  it('keeps a 40 × 10 bar along it whole, to the pixel, and adds nothing to it', () => {
    const m = bar(40, 10, 0);
    const opened = openAlong(m, w, h, 1, 0);
    expect(outside(opened, m)).toBe(0);
    expect(count(opened)).toBe(count(m));
  });

  it('at every angle, what it keeps of a bar lies inside the bar; a bar at the angle tried keeps most of its body', () => {
    for (const barAngle of [0, 30, -50, 90]) {
      const m = bar(50, 10, barAngle);
      for (let angle = -90; angle < 90; angle += 10) {
        const opened = openAlong(m, w, h, 1, angle);
        expect(outside(opened, m), `bar at ${barAngle}°, opened at ${angle}°`).toBe(0);
        if (angle === (barAngle === 90 ? -90 : barAngle)) expect(count(opened), `bar at ${barAngle}°`).toBeGreaterThan(0.85 * count(m));
      }
    }
  });

  it('drops a bar shorter than the rectangle, or narrower', () => {
    expect(count(openAlong(bar(20, 10, 0), w, h, 1, 0))).toBe(0);
    expect(count(openAlong(bar(40, 2.5, 0), w, h, 1, 0))).toBe(0);
  });
});

describe('a white pen on a hand-made map', () => {
  it('whose band of hidden grid is broken at one grid crossing (both lines seen there) is one pen, end to end', () => {
    // A 10 × 120 mm pen as light as the paper (its edges 0.12) at 45° through the middle crossing of a
    // 10 × 10 board, the two grid lines drawn again over it at that crossing (a seam or a highlight
    // showing as a line): the chain of gaps has a hole where two lines cross at one place. Taken as
    // two runs, the longer half was too short to be a pen and nothing was found.
    const r = board(10, 10, 12);
    const [cx, cy] = [ORIGIN + 60, ORIGIN + 60];
    const a = Math.PI / 4;
    for (let y = 0; y < r.ink.height; y++)
      for (let x = 0; x < r.ink.width; x++) {
        const [dx, dy] = [(x + 0.5) / PPM - cx, (y + 0.5) / PPM - cy];
        const [t, s] = [dx * Math.cos(a) + dy * Math.sin(a), -dx * Math.sin(a) + dy * Math.cos(a)];
        const seen = (Math.abs(dx) < 0.15 && Math.abs(dy) < 9) || (Math.abs(dy) < 0.15 && Math.abs(dx) < 9);
        if (Math.abs(t) <= 60 && Math.abs(s) <= 5 && !seen) r.ink.ink[y * r.ink.width + x] = Math.abs(s) > 4.4 ? 0.12 : 0.03;
      }
    const bars = darkBars(r, coveredCells(r, 0.5).typical);
    expect(bars).toHaveLength(1);
    const [bar] = bars;
    expect(Math.hypot(bar!.centre[0] - cx, bar!.centre[1] - cy)).toBeLessThan(3);
    expect(bar!.along[0]).toBeLessThan(-55);
    expect(bar!.along[1]).toBeGreaterThan(55);
    // The diagonal's cells it lies across, B2 to I9, are all under it.
    for (let k = 1; k <= 8; k++) expect(bar!.cells).toContain(k * 11);
  });
});

describe('white and cream pens, found by the printed grid they hide (generated photos of the test sheet)', () => {
  const chapter = getChapter('clew-3');
  const b = sheetLayout(chapter).board;
  const cellName = (k: number) => `${String.fromCharCode(65 + (k % b.columns))}${Math.floor(k / b.columns) + 1}`;

  /** The pens found on the test photo (`test-fixed`, clew-3, 2000 × 1500, or another seed of clew-3's board size) with `onSheet` lying on it, and its cells' truth. */
  async function detect(onSheet: OnSheet[], seed = 'test-fixed', chapterId = 'clew-3'): Promise<{ bars: DarkBar[]; truth: string[] }> {
    const p = await synthSheetPhoto(seed, { width: 2000, height: 1500, chapter: chapterId, onSheet });
    const photo = await registerPhoto(p.jpeg, getChapter(chapterId));
    const m = measureRegistered(photo);
    const cover = coveredCells(m.raster, photoPencil(m.cells));
    return { bars: darkBars(m.raster, cover.typical, boardColour(photo, m)), truth: p.truth.cells };
  }

  /** A 10 × 130 mm pen (no cap) whose axis runs through the grid crossing (kx, ky) at `angle`°, its centre `shift` mm along it from there. */
  function penThrough(colour: PenColour, angle: number, kx: number, ky: number, shift: number, across = 0): PenOnSheet {
    const a = (angle * Math.PI) / 180;
    const at: [number, number] = [b.x + kx * b.cell + shift * Math.cos(a) - across * Math.sin(a), b.y + ky * b.cell + shift * Math.sin(a) + across * Math.cos(a)];
    return { kind: 'pen', at, angle, length: 130, width: 10, colour };
  }

  /** The cells (rocks aside) the pen's body covers at least `share` of. */
  function cellsUnderPen(pen: PenOnSheet, truth: string[], share: number): number[] {
    const a = (pen.angle * Math.PI) / 180;
    const [ux, uy] = [Math.cos(a), Math.sin(a)];
    const core = pen.length / 2 - pen.width / 2;
    const covered = new Float64Array(b.columns * b.rows);
    for (let y = 0.125; y < b.rows * b.cell; y += 0.25)
      for (let x = 0.125; x < b.columns * b.cell; x += 0.25) {
        const dx = x + b.x - pen.at[0];
        const dy = y + b.y - pen.at[1];
        const t = Math.max(-core, Math.min(core, dx * ux + dy * uy));
        if (Math.hypot(dx - t * ux, dy - t * uy) <= pen.width / 2) covered[Math.floor(y / b.cell) * b.columns + Math.floor(x / b.cell)]! += 1 / 16;
      }
    return [...covered.keys()].filter((k) => covered[k]! >= share * b.cell * b.cell && truth[k] !== 'rock');
  }

  it.each<[PenColour, number, number, number, number, number]>([
    ['cream', 45, 5, 5, 30, 0],
    ['cream', 45, 5, 5, -30, 0],
    ['cream', 45, 6, 4, 30, 0],
    ['cream', 45, 5, 5, 0, 8],
  ])('a %s pen at %s° over the grid crossings (through crossing %s,%s, %s mm along, %s mm aside) is found whole: one pen, over every cell it lies on', async (colour, angle, kx, ky, shift, across) => {
    // A skipped sample at each crossing it hides counted as a sample seen: a visible one beside the
    // crossing then ended the gap, and its clean share was divided by samples never measured, so the
    // pen was missed or cut in two. And beside a crossing it hides, its shading shows the line faintly.
    const pen = penThrough(colour, angle, kx, ky, shift, across);
    const { bars, truth } = await detect([pen]);
    expect(bars, JSON.stringify(bars.map((x) => [x.centre, x.along]))).toHaveLength(1);
    const asked = new Set(bars[0]!.cells);
    expect(cellsUnderPen(pen, truth, 0.1).filter((k) => !asked.has(k)).map(cellName)).toEqual([]);
  });

  it.each([
    ['across the top edge', false, 0, 16],
    ['down the left edge', true, 2, 18],
  ])('a sheet of paper lying over the board %s is no pen (its edge hides the grid lines from the frame on)', async (_, left, y0, y1) => {
    // Its straight edge slants across the first row (column), y0 mm inside the board at one end and y1 at the other:
    // the grid lines it hides run to the frame, which a pen across them does not.
    const poly: [number, number][] = [[-20, -40], [140, -40], [140, y0 + (y1 - y0) * (160 / 140)], [-20, y0 - (y1 - y0) * (20 / 140)]];
    const polygon = poly.map(([x, y]) => (left ? [b.x + y, b.y + x] : [b.x + x, b.y + y]) as [number, number]);
    const { bars } = await detect([{ kind: 'cover', polygon, rgb: [243, 243, 238] }]);
    expect(bars).toEqual([]);
  });

  it('a cream pen whose chain of hidden grid lines is broken at one crossing is one pen over all its cells, its box around its own centre', async () => {
    // The seeded harness pen `cream-30` on clew-7 (the same board as clew-3's, as clew-1's): the grid shows at one crossing
    // along it. Only the longer piece became the pen, its box ending at the break (D8 left out), and
    // every candidate was centred on all the gaps near its axis, so a box could lie beside its centre.
    const pen = randomPen('cream-30', b, 'cream');
    const { bars, truth } = await detect([pen], 'pen-30', 'clew-7');
    expect(bars).toHaveLength(1);
    const bar = bars[0]!;
    expect(bar.along[0]).toBeLessThan(0);
    expect(bar.along[1]).toBeGreaterThan(0);
    const asked = new Set(bar.cells);
    expect(cellsUnderPen(pen, truth, 0.03).filter((k) => !asked.has(k)).map(cellName)).toEqual([]);
  });

  it('a white pen lying beside the crossings is asked about over its whole width: its sides come from its faint edges, not from the grid it hides', async () => {
    // 2 mm off the diagonal through the crossings, at 45°: the grid lines show at the pen's rounded
    // sides, so the hidden width is 6 to 7 mm of its 10, and the box (hidden width and 2.5 mm each side)
    // left out the diagonal of cells its edge lies across.
    const pen = penThrough('white', 45, 5, 5, 0, 2);
    const { bars, truth } = await detect([pen]);
    expect(bars).toHaveLength(1);
    const asked = new Set(bars[0]!.cells);
    expect(cellsUnderPen(pen, truth, 0.03).filter((k) => !asked.has(k)).map(cellName)).toEqual([]);
  });

  it.each<[number, number]>([
    [0, 4],
    [0, 2],
    [90, 2],
  ])('a white pen lying along the grid (%s°, %s mm off a line) is asked about over its own cells, not a whole row or column beside it', async (angle, across) => {
    // A printed line parallel to the pen does not average out along it: its ridge, darker than the
    // pen's faint edge, was taken for that edge, and every cell of the next row or column was asked
    // (at 0°, 4 mm off a line: all of row 7).
    const pen = penThrough('white', angle, 5, 5, 0, across);
    const { bars, truth } = await detect([pen]);
    expect(bars).toHaveLength(1);
    const under = new Set(cellsUnderPen(pen, truth, 0.03));
    const beside = bars[0]!.cells.filter((k) => !under.has(k));
    const lines = new Set(beside.map((k) => (angle === 0 ? Math.floor(k / b.columns) : k % b.columns)));
    expect([...under].filter((k) => !bars[0]!.cells.includes(k)).map(cellName)).toEqual([]);
    // Its rounded ends may reach a cell beyond; a whole row or column beside it is not asked.
    expect(beside.length, beside.map(cellName).join(' ')).toBeLessThan(Math.min(b.columns, b.rows) / 2);
    expect(lines.size).toBeLessThanOrEqual(2);
  });

  it('a cream pen with a cap is asked about to the end of its cap: the cap\'s gaps (darker, cut by its clip) carry the pen on', async () => {
    // The seeded harness pen `cream-0` (clew-1, a 47 mm cap): its cap's cells were left out.
    const pen = randomPen('cream-0', b, 'cream');
    const { bars, truth } = await detect([pen], 'pen-0', 'clew-1');
    expect(bars).toHaveLength(1);
    const asked = new Set(bars[0]!.cells);
    expect(cellsUnderPen(pen, truth, 0.03).filter((k) => !asked.has(k)).map(cellName)).toEqual([]);
  });
});
