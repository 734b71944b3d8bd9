/** The printed sheet's layout: markers that decode at every rotation, a chapter code per chapter, a frame that fits both papers. */
import { describe, expect, it } from 'vitest';
import { CHAPTER_IDS, getChapter } from '../../shared/games/worm-and-cozy/chapters.js';
import {
  cellRect,
  chapterCode,
  codeSlice,
  crc4,
  decodeMarkerBits,
  FRAME,
  frameOffset,
  markerInnerBits,
  PAPERS,
  rotateInner,
  sheetLayout,
  type Corner,
} from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { createRng } from '../../shared/rng.js';

describe('corner markers', () => {
  it('each corner decodes to itself and its slice of the chapter code, turned any quarter turn', () => {
    for (const id of CHAPTER_IDS) {
      const code = chapterCode(id);
      for (const corner of [0, 1, 2, 3] as Corner[]) {
        const printed = markerInnerBits(corner, code);
        for (let turns = 0; turns < 4; turns++) {
          const d = decodeMarkerBits(rotateInner(printed, turns));
          expect(d, `${id} corner ${corner} turned ${turns}`).toEqual({ corner, slice: codeSlice(code, corner), turns });
        }
      }
    }
  });

  it('a marker with one or two flipped bits is refused, never read as another', () => {
    const rng = createRng('marker-flips');
    let refused = 0;
    for (let n = 0; n < 400; n++) {
      const corner = rng.int(0, 3) as Corner;
      const code = chapterCode(rng.pick(CHAPTER_IDS));
      const bits = markerInnerBits(corner, code);
      const flips = rng.int(1, 2);
      const at = rng.shuffle(Array.from({ length: 16 }, (_, i) => i)).slice(0, flips);
      for (const i of at) bits[i] = 1 - bits[i]!;
      const d = decodeMarkerBits(bits);
      if (d === null) refused++;
      // Orientation bits flipped may turn the marker; the payload bits never pass as a different corner or code.
      else expect(d.corner === corner && d.slice === codeSlice(code, corner) ? 'same' : 'other').toBe('same');
    }
    expect(refused).toBeGreaterThan(380);
  });

  it('the CRC is the x^4 + x + 1 remainder', () => {
    expect(crc4(0, 8)).toBe(0);
    expect(crc4(0b1, 1)).toBe(0b0011);
  });

  it('the bundled chapters have different codes, and every corner of every chapter differs', () => {
    const codes = CHAPTER_IDS.map(chapterCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toBeLessThan(1 << 24);
  });
});

describe('sheet layout', () => {
  for (const id of CHAPTER_IDS) {
    it(`${id}: the board, ticks, tracks and legend stay inside the frame and apart`, () => {
      const ch = getChapter(id);
      const l = sheetLayout(ch);
      const inFrame = (x: number, y: number) => x >= 0 && y >= 0 && x <= FRAME.width && y <= FRAME.height;
      const b = l.board;
      expect(b.columns).toBe(ch.board.columns);
      expect(inFrame(b.x, b.y) && inFrame(b.x + b.columns * b.cell, b.y + b.rows * b.cell)).toBe(true);
      expect(l.ticks).toHaveLength(2 * (b.columns + 1) + 2 * (b.rows + 1));
      for (const t of l.ticks) expect(inFrame(t.x, t.y)).toBe(true);
      const boardBottom = b.y + b.rows * b.cell;
      for (const t of l.tracks) {
        expect(t.row.y).toBeGreaterThan(boardBottom + 10);
        for (const s of t.slots) expect(s.box.x + s.box.w).toBeLessThanOrEqual(t.row.x + t.row.w + 0.01);
      }
      expect(l.tracks.map((t) => t.slots.length)).toEqual([...ch.rewards.map((r) => r.track.length), ch.penalty.track.length]);
      expect(l.legend.box.y + l.legend.box.h).toBeLessThanOrEqual(FRAME.height);
      // Markers sit in the four corners, clear of everything else.
      const [tl, tr, br, bl] = l.markers;
      expect([tl!.x, tl!.y, tr!.x + tr!.size, br!.y + br!.size, bl!.x]).toEqual([0, 0, FRAME.width, FRAME.height, 0]);
      for (const m of l.markers) {
        const r = cellRect(l, 0, 0);
        expect(m.x + m.size < r.x || m.x > b.x + b.columns * b.cell).toBe(true);
      }
      // Every hour a chapter plays has a label with its half to cross off.
      const labels = l.hours.reduce((n, h) => n + h.halves.length, 0);
      expect(labels).toBe(ch.clock.hours);
    });
  }

  it('the frame fits A4 and US Letter with a printable margin', () => {
    for (const p of PAPERS) {
      const o = frameOffset(p);
      expect(o.x).toBeGreaterThanOrEqual(6.5);
      expect(o.y).toBeGreaterThanOrEqual(6.5);
    }
  });

  it('is the same numbers every time (a pure function of the chapter)', () => {
    const ch = getChapter('clew-3');
    expect(JSON.stringify(sheetLayout(ch))).toBe(JSON.stringify(sheetLayout(ch)));
  });
});
