/**
 * A player's pencil on the sheet, following the drawing convention printed on it: each worm a thick
 * line through its cells (across the grid line between consecutive cells, never between two worms),
 * organ letters where the line stops, a facing stroke for eyes and mouths, a crossed-out B for a used
 * brain, a small circle for food. Plus what players also draw: crossed-off hours, circled track
 * symbols, a name and a score, and faint eraser smudges. All in frame millimetres, seeded.
 */
import type { Geometry } from '../../../shared/games/worm-and-cozy/board.js';
import { geometry } from '../../../shared/games/worm-and-cozy/board.js';
import type { Chapter } from '../../../shared/games/worm-and-cozy/chapters.js';
import { circledSymbols } from '../../../shared/games/worm-and-cozy/scoring.js';
import { cellRect, type SheetLayout } from '../../../shared/games/worm-and-cozy/sheet-layout.js';
import type { Dir, Worm } from '../../../shared/games/worm-and-cozy/state.js';
import type { Rng } from '../../../shared/rng.js';
import { markAspect, markStrokes, type MarkKind, type Pt } from '../glyphs.js';

export interface PencilStroke {
  pts: Pt[];
  /** Pen width in mm. */
  width: number;
  /** 0..1: how much graphite (pressure). */
  darkness: number;
}

/** How one player draws. */
export interface Hand {
  /** 0 sloppy .. 1 neat: jitter, overshoot, how exactly the line stops at letters. */
  neatness: number;
  /** Overall darkness 0.35 (light) .. 1 (pressed hard). */
  pressure: number;
  /** A worm line as one broad stroke, or shaded back and forth with the pencil's tip. */
  bandStyle: 'stroke' | 'scribble';
  bandWidth: number;
  letterHeight: number;
  letterPen: number;
  /** Letter slant (shear, x per y). */
  slant: number;
  foodStyle: 'ring' | 'dot';
}

export function randomHand(rng: Rng): Hand {
  return {
    neatness: rng.range(0, 1),
    pressure: rng.range(0.4, 1),
    bandStyle: rng.next() < 0.55 ? 'scribble' : 'stroke',
    bandWidth: rng.range(4.2, 6.6),
    letterHeight: rng.range(4.8, 7),
    letterPen: rng.range(0.38, 0.7),
    slant: rng.range(-0.25, 0.3),
    foodStyle: rng.next() < 0.75 ? 'ring' : 'dot',
  };
}

const DIR_VEC: Readonly<Record<Dir, Pt>> = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };

function centre(layout: SheetLayout, g: Geometry, cell: number): Pt {
  const r = cellRect(layout, cell % g.width, Math.floor(cell / g.width));
  return [r.x + r.w / 2, r.y + r.h / 2];
}

/** A wobbly version of a polyline: points every ~step mm, each nudged by a smooth random offset. */
function wobble(rng: Rng, pts: readonly Pt[], amount: number, step = 1.2): Pt[] {
  if (pts.length < 2 || amount <= 0) return pts.map((p) => [p[0], p[1]] as Pt);
  const out: Pt[] = [];
  let ox = 0;
  let oy = 0;
  for (let i = 0; i < pts.length - 1; i++) {
    const [x0, y0] = pts[i]!;
    const [x1, y1] = pts[i + 1]!;
    const len = Math.hypot(x1 - x0, y1 - y0);
    const n = Math.max(1, Math.ceil(len / step));
    for (let k = 0; k < n; k++) {
      const t = k / n;
      ox = ox * 0.7 + rng.normal() * amount * 0.45;
      oy = oy * 0.7 + rng.normal() * amount * 0.45;
      out.push([x0 + (x1 - x0) * t + ox, y0 + (y1 - y0) * t + oy]);
    }
  }
  const last = pts[pts.length - 1]!;
  out.push([last[0] + ox * 0.5, last[1] + oy * 0.5]);
  return out;
}

/** Shading back and forth across a polyline, `width` wide, with the pencil's tip. */
function scribble(rng: Rng, line: readonly Pt[], width: number, pitch: number): Pt[] {
  const out: Pt[] = [];
  let side = 1;
  for (let i = 0; i < line.length - 1; i++) {
    const [x0, y0] = line[i]!;
    const [x1, y1] = line[i + 1]!;
    const len = Math.hypot(x1 - x0, y1 - y0);
    if (len < 1e-6) continue;
    const nx = -(y1 - y0) / len;
    const ny = (x1 - x0) / len;
    const n = Math.max(1, Math.round(len / pitch));
    for (let k = 0; k <= n; k++) {
      if (k === 0 && i > 0) continue;
      const t = k / n;
      const a = (width / 2) * (0.82 + rng.next() * 0.3) * side;
      out.push([x0 + (x1 - x0) * t + nx * a, y0 + (y1 - y0) * t + ny * a]);
      side = -side;
    }
  }
  return out;
}

function mark(rng: Rng, kind: MarkKind, c: Pt, hand: Hand, sizeScale = 1): PencilStroke[] {
  const sloppy = 1 - hand.neatness;
  const h = hand.letterHeight * sizeScale * (0.9 + rng.next() * 0.2);
  const w = h * markAspect(kind) * (0.9 + rng.next() * 0.2);
  const rot = rng.normal() * (0.04 + 0.1 * sloppy);
  const slant = hand.slant + rng.normal() * 0.05;
  const cx = c[0] + rng.normal() * (0.3 + 0.5 * sloppy);
  const cy = c[1] + rng.normal() * (0.3 + 0.5 * sloppy);
  const cos = Math.cos(rot);
  const sin = Math.sin(rot);
  const darkness = Math.min(1, hand.pressure * (0.85 + rng.next() * 0.25));
  return markStrokes(kind).map((s) => {
    const pts = s.map(([u, v]) => {
      const lx = (u - 0.5) * w + (0.5 - v) * h * slant;
      const ly = (v - 0.5) * h;
      return [cx + lx * cos - ly * sin, cy + lx * sin + ly * cos] as Pt;
    });
    return { pts: wobble(rng, pts, 0.06 + 0.22 * sloppy, 0.8), width: hand.letterPen * (0.85 + rng.next() * 0.3), darkness };
  });
}

/**
 * How far (mm) from an organ cell's centre the worm line stops: clear of the letter when there is
 * room, but always carried a good way across the grid line (the convention), so a big letter may
 * be touched by the line's end.
 */
function stopRadius(rng: Rng, hand: Hand, cell: number): number {
  return Math.min(hand.letterHeight / 2 + 0.3 + rng.next() * (0.5 + 0.8 * hand.neatness), cell / 2 - 1.8 - rng.next() * 0.8);
}

function wormStrokes(rng: Rng, layout: SheetLayout, g: Geometry, worm: Worm, hand: Hand): PencilStroke[] {
  const sloppy = 1 - hand.neatness;
  const out: PencilStroke[] = [];
  const organAt = new Map(worm.organs.map((o) => [o.cell, o]));
  const pts = worm.cells.map((c) => {
    const [x, y] = centre(layout, g, c);
    return [x + rng.normal() * (0.2 + 0.6 * sloppy), y + rng.normal() * (0.2 + 0.6 * sloppy)] as Pt;
  });
  const stops = worm.cells.map((c) => (organAt.has(c) ? stopRadius(rng, hand, layout.board.cell) : 0));
  // Pieces of the line: broken at organ cells, where the line stops short of the letter.
  const pieces: Pt[][] = [];
  let cur: Pt[] = [];
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i]!;
    if (stops[i]! > 0) {
      if (i > 0) {
        const q = pts[i - 1]!;
        const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
        const t = 1 - stops[i]! / d;
        if (cur.length === 0) cur.push(q);
        cur.push([q[0] + (p[0] - q[0]) * t, q[1] + (p[1] - q[1]) * t]);
        pieces.push(cur);
      }
      cur = [];
      if (i < pts.length - 1) {
        const q = pts[i + 1]!;
        const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
        const t = stops[i]! / d;
        cur = [[p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]];
      }
    } else {
      cur.push(p);
    }
  }
  if (cur.length > 1) pieces.push(cur);
  else if (cur.length === 1 && pts.length === 1) pieces.push([cur[0]!, cur[0]!]);
  const width = hand.bandWidth * (0.9 + rng.next() * 0.2);
  const darkness = Math.min(1, hand.pressure * (0.7 + rng.next() * 0.3));
  for (const piece of pieces) {
    if (piece.length < 2) continue;
    if (hand.bandStyle === 'stroke') {
      out.push({ pts: wobble(rng, piece, 0.1 + 0.3 * sloppy, 2), width, darkness: darkness * 0.85 });
    } else {
      // Shading back and forth: the strokes overlap or nearly touch, as when a pencil fills a band.
      const pen = 0.55 + rng.next() * 0.45;
      out.push({ pts: scribble(rng, wobble(rng, piece, 0.1 + 0.3 * sloppy, 2), width - pen, pen * (0.45 + rng.next() * 0.45) + 0.12 * sloppy), width: pen, darkness: darkness * 0.8 });
    }
  }
  // Organ letters, facing strokes, used brains.
  for (const o of worm.organs) {
    const c = pts[worm.cells.indexOf(o.cell)]!;
    const kind: MarkKind = o.type === 'brain' && o.filled ? 'usedBrain' : o.type;
    out.push(...mark(rng, kind, c, hand));
    if ((o.type === 'eye' || o.type === 'mouth') && o.facing) {
      const [dx, dy] = DIR_VEC[o.facing];
      const half = (o.facing === 'N' || o.facing === 'S' ? hand.letterHeight : hand.letterHeight * markAspect(o.type)) / 2;
      const a = half + 0.5 + rng.next() * 0.6;
      const b = Math.max(a + 1.2, layout.board.cell / 2 - 0.4 - rng.next() * (0.6 + 1.4 * hand.neatness) + sloppy * rng.next() * 0.6);
      const side = rng.normal() * 0.4;
      out.push({
        pts: wobble(rng, [[c[0] + dx * a - dy * side, c[1] + dy * a + dx * side], [c[0] + dx * b - dy * side, c[1] + dy * b + dx * side]], 0.08, 0.7),
        width: hand.letterPen,
        darkness: Math.min(1, hand.pressure * 0.95),
      });
    }
  }
  return out;
}

/** Everything a finished sheet has in pencil. */
export function sheetPencil(rng: Rng, layout: SheetLayout, chapter: Chapter, worms: readonly Worm[], foods: readonly number[], hand: Hand, counts?: number[]): PencilStroke[] {
  const g = geometry(chapter);
  const out: PencilStroke[] = [];
  for (const w of worms) out.push(...wormStrokes(rng, layout, g, w, hand));
  for (const f of foods) {
    const c = centre(layout, g, f);
    const at: Pt = [c[0] + rng.normal() * 0.8, c[1] + rng.normal() * 0.8];
    if (hand.foodStyle === 'ring') out.push(...mark(rng, 'food', at, hand, 0.55 + rng.next() * 0.25));
    else {
      const r = 1.2 + rng.next() * 0.8;
      out.push({ pts: scribble(rng, [[at[0] - r, at[1]], [at[0] + r, at[1]]], r * 1.8, 0.5), width: 0.6, darkness: hand.pressure });
    }
  }
  // Faint eraser smudges and stray touches in some cells: not marks, and the reader must say blank.
  const smudges = rng.int(0, 3);
  for (let i = 0; i < smudges; i++) {
    const cell = rng.int(0, g.size - 1);
    const c = centre(layout, g, cell);
    const r = 1 + rng.next() * 2.5;
    out.push({ pts: scribble(rng, [[c[0] - r + rng.normal() * 2, c[1] + rng.normal() * 2], [c[0] + r, c[1] + rng.normal()]], r, 0.7), width: 0.8, darkness: 0.05 + rng.next() * 0.07 });
  }
  // The hours crossed off: a slash or an X over each AM/PM box.
  for (const h of layout.hours) {
    const horizontal = h.edge === 'top' || h.edge === 'bottom';
    h.halves.forEach((_, k) => {
      const cx = horizontal ? h.cx - (5 + h.halves.length * 6.2) / 2 + 5 + k * 6.2 + 2.6 : h.cx;
      const cy = horizontal ? h.cy : h.cy - (5 + h.halves.length * 4.2) / 2 + 5 + k * 4.2 + 1.6;
      const j = () => rng.normal() * 0.5;
      out.push({ pts: [[cx - 2.8 + j(), cy + 1.8 + j()], [cx + 2.8 + j(), cy - 1.8 + j()]], width: 0.45, darkness: hand.pressure * 0.9 });
      if (rng.next() < 0.5) out.push({ pts: [[cx - 2.8 + j(), cy - 1.8 + j()], [cx + 2.8 + j(), cy + 1.8 + j()]], width: 0.45, darkness: hand.pressure * 0.9 });
    });
  }
  // Circled track symbols, up to the counts the player reached.
  if (counts) {
    layout.tracks.forEach((t, i) => {
      const k = circledSymbols(
        t.slots.map((s) => ({ at: s.at, symbol: s.symbol, count: s.count })),
        counts[i] ?? 0,
      );
      for (let s = 0; s < k; s++) {
        const b = t.slots[s]!.box;
        const cx = b.x + b.w / 2 + rng.normal() * 0.4;
        const cy = b.y + b.h / 2 + rng.normal() * 0.4;
        const ring: Pt[] = [];
        const a0 = rng.next() * Math.PI * 2;
        for (let q = 0; q <= 20; q++) {
          const a = a0 + (q / 18) * Math.PI * 2;
          ring.push([cx + (b.w / 2 + 0.3) * Math.cos(a), cy + (b.h / 2 + 0.2) * Math.sin(a)]);
        }
        out.push({ pts: wobble(rng, ring, 0.15, 1), width: 0.45, darkness: hand.pressure * 0.85 });
      }
    });
  }
  // A name and a score in the title line: quick cursive-like loops.
  for (const [x0, len] of [
    [layout.frame.width / 2 - 18, 20],
    [layout.frame.width / 2 + 33, 8],
  ] as const) {
    const pts: Pt[] = [];
    const y = 10.6;
    for (let x = 0; x < len; x += 0.35) pts.push([x0 + x + Math.sin(x * 2.2) * 0.5, y - Math.abs(Math.sin(x * 1.3 + rng.next())) * 2.2]);
    out.push({ pts, width: 0.4, darkness: hand.pressure * 0.9 });
  }
  return out;
}

/** The pencil layer as SVG elements (black strokes; opacity is the graphite's darkness). */
export function pencilSvg(strokes: readonly PencilStroke[]): string {
  const n = (v: number) => (Math.round(v * 100) / 100).toString();
  return strokes
    .map(
      (s) =>
        `<polyline points="${s.pts.map(([x, y]) => `${n(x)},${n(y)}`).join(' ')}" fill="none" stroke="#000" stroke-opacity="${n(Math.max(0, Math.min(1, s.darkness)))}" stroke-width="${n(s.width)}" stroke-linecap="round" stroke-linejoin="round"/>`,
    )
    .join('');
}
