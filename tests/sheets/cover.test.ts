/**
 * The pen finder's parts on hand-made maps (`vision/sheet/cover.ts`): the frame line cut out of a
 * board that is not square, the oriented opening, and a grey pen lying along a row line of such a
 * board. The photos end to end are in `read.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import type { BoardRaster } from '../../vision/sheet/cells.js';
import { cutFrame, darkBars, openAlong } from '../../vision/sheet/cover.js';

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
