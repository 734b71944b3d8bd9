/**
 * What a printed Worm & Cozy sheet looks like, as a list of vector primitives in frame millimetres:
 * the one drawing behind the PDF (scripts/print, pdfkit) and the photo synthesiser (SVG through
 * librsvg). Positions come from the shared layout; the die icons from the dice face art.
 */
import type { Chapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { cellRect, MARKER_MODULES, type SheetLayout, type TextLine } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { faceIcon } from '../faces/svg.js';
import { markAspect, markStrokes, type MarkKind, type Pt } from './glyphs.js';

export type Prim =
  | { k: 'rect'; x: number; y: number; w: number; h: number; r?: number; fill?: string; stroke?: string; lw?: number }
  | { k: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: string; lw: number; cap?: 'round' | 'butt' }
  | { k: 'poly'; pts: Pt[]; closed: boolean; fill?: string; stroke?: string; lw?: number; cap?: 'round' | 'butt' }
  | { k: 'circle'; cx: number; cy: number; r: number; fill?: string; stroke?: string; lw?: number }
  /** An SVG path in its own units, drawn at (x, y) scaled by `scale` (the die face art, 0..100). */
  | { k: 'path'; d: string; x: number; y: number; scale: number; fill: string }
  /** `y` is the baseline; `size` the font size in mm. */
  | { k: 'text'; x: number; y: number; text: string; size: number; bold?: boolean; align?: 'left' | 'center' | 'right'; fill?: string };

export const INK = '#1a1a1a';
export const GRID = '#8a8a8a';
const SOFT = '#c8c8c8';
const TINT = '#f1f1f1';

function text(t: TextLine, fill = INK): Prim {
  const p: Prim = { k: 'text', x: t.x, y: t.y, text: t.text, size: t.size, fill };
  if (t.bold) p.bold = true;
  if (t.align) p.align = t.align;
  return p;
}

/** A 5-pointed star centred at (cx, cy). */
function star(cx: number, cy: number, r: number): Pt[] {
  const pts: Pt[] = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 === 0 ? r : r * 0.42;
    pts.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]);
  }
  return pts;
}

/** A printed rock: a lumpy stone, the same for the same cell on every print. */
export function rockOutline(cx: number, cy: number, r: number, cellIndex: number): Pt[] {
  const pts: Pt[] = [];
  let h = (cellIndex * 2654435761) >>> 0;
  const n = 9;
  for (let i = 0; i < n; i++) {
    h = Math.imul(h ^ (h >>> 13), 1274126177) >>> 0;
    const wobble = 0.8 + ((h & 0xff) / 255) * 0.22;
    const a = (i / n) * 2 * Math.PI + 0.3;
    pts.push([cx + r * wobble * Math.cos(a), cy + r * 0.86 * wobble * Math.sin(a)]);
  }
  return pts;
}

/** A mark drawn clean (the legend): its strokes fitted into a box of height h centred at (cx, cy). */
export function cleanMark(kind: MarkKind, cx: number, cy: number, h: number, lw: number): Prim[] {
  const w = h * markAspect(kind);
  return markStrokes(kind).map((s) => ({
    k: 'poly' as const,
    pts: s.map(([u, v]) => [cx - w / 2 + u * w, cy - h / 2 + v * h] as Pt),
    closed: false,
    stroke: INK,
    lw,
    cap: 'round' as const,
  }));
}

const ORGAN_BY_LETTER: Readonly<Record<string, MarkKind>> = { E: 'eye', M: 'mouth', T: 'tail', C: 'collar', B: 'brain', H: 'heart' };

/** The whole printed sheet, in drawing order. */
export function sheetPrimitives(layout: SheetLayout, chapter: Chapter): Prim[] {
  const out: Prim[] = [];
  const b = layout.board;

  // Corner markers: a black square, the white modules cut back out.
  for (const m of layout.markers) {
    const mod = m.size / MARKER_MODULES;
    out.push({ k: 'rect', x: m.x, y: m.y, w: m.size, h: m.size, fill: '#000000' });
    for (let r = 0; r < MARKER_MODULES; r++)
      for (let c = 0; c < MARKER_MODULES; c++)
        if (!m.modules[r * MARKER_MODULES + c]) out.push({ k: 'rect', x: m.x + c * mod, y: m.y + r * mod, w: mod, h: mod, fill: '#ffffff' });
  }

  for (const t of layout.title) out.push(text(t));

  // The board: rocks, grid, frame, ticks, coordinates.
  for (const name of chapter.board.rocks) {
    const m = /^([A-Z])(\d+)$/i.exec(name);
    if (!m) continue;
    const col = m[1]!.toUpperCase().charCodeAt(0) - 65;
    const row = Number(m[2]) - 1;
    const r = cellRect(layout, col, row);
    out.push({ k: 'poly', pts: rockOutline(r.x + r.w / 2, r.y + r.h / 2, r.w * 0.36, row * b.columns + col), closed: true, fill: '#a9a9a9', stroke: '#2e2e2e', lw: 0.35 });
  }
  for (let c = 1; c < b.columns; c++) out.push({ k: 'line', x1: b.x + c * b.cell, y1: b.y, x2: b.x + c * b.cell, y2: b.y + b.rows * b.cell, stroke: GRID, lw: 0.22 });
  for (let r = 1; r < b.rows; r++) out.push({ k: 'line', x1: b.x, y1: b.y + r * b.cell, x2: b.x + b.columns * b.cell, y2: b.y + r * b.cell, stroke: GRID, lw: 0.22 });
  out.push({ k: 'rect', x: b.x, y: b.y, w: b.columns * b.cell, h: b.rows * b.cell, stroke: INK, lw: 0.5 });
  for (const t of layout.ticks) out.push({ k: 'rect', x: t.x - t.size / 2, y: t.y - t.size / 2, w: t.size, h: t.size, fill: '#000000' });
  for (const t of layout.coordinates) out.push(text(t, '#444444'));

  // Hour labels: a bracket over the region, the hour's number, its halves to cross off.
  for (const h of layout.hours) {
    const horizontal = h.edge === 'top' || h.edge === 'bottom';
    const away = h.edge === 'top' || h.edge === 'left' ? -1.2 : 1.2;
    if (horizontal) {
      out.push({ k: 'poly', pts: [[h.from, h.bracket + away], [h.from, h.bracket], [h.to, h.bracket], [h.to, h.bracket + away]], closed: false, stroke: '#555555', lw: 0.3 });
    } else {
      out.push({ k: 'poly', pts: [[h.bracket + away, h.from], [h.bracket, h.from], [h.bracket, h.to], [h.bracket + away, h.to]], closed: false, stroke: '#555555', lw: 0.3 });
    }
    const boxW = 5.2;
    const boxH = 3.2;
    if (horizontal) {
      const total = 5 + h.halves.length * (boxW + 1);
      let x = h.cx - total / 2;
      out.push({ k: 'text', x: x + 2, y: h.cy + 1.3, text: h.number, size: 3.8, bold: true, align: 'center', fill: INK });
      x += 5;
      for (const half of h.halves) {
        out.push({ k: 'rect', x, y: h.cy - boxH / 2, w: boxW, h: boxH, r: 0.8, stroke: '#555555', lw: 0.25 });
        out.push({ k: 'text', x: x + boxW / 2, y: h.cy + 0.8, text: half, size: 2.2, align: 'center', fill: INK });
        x += boxW + 1;
      }
    } else {
      const total = 5 + h.halves.length * (boxH + 1);
      let y = h.cy - total / 2;
      out.push({ k: 'text', x: h.cx, y: y + 3.6, text: h.number, size: 3.8, bold: true, align: 'center', fill: INK });
      y += 5;
      for (const half of h.halves) {
        out.push({ k: 'rect', x: h.cx - boxW / 2, y, w: boxW, h: boxH, r: 0.8, stroke: '#555555', lw: 0.25 });
        out.push({ k: 'text', x: h.cx, y: y + 2.4, text: half, size: 2.2, align: 'center', fill: INK });
        y += boxH + 1;
      }
    }
  }

  // Reward and penalty tracks.
  for (const t of layout.tracks) {
    out.push({ k: 'rect', x: t.row.x, y: t.row.y, w: t.row.w, h: t.row.h, r: 1.5, fill: t.kind === 'penalty' ? '#ececec' : TINT, stroke: SOFT, lw: 0.3 });
    out.push({ k: 'text', x: t.label.x, y: t.label.y + 4.3, text: t.kind === 'penalty' ? 'Penalty' : t.name, size: 3, bold: true, fill: INK });
    out.push({ k: 'text', x: t.label.x, y: t.label.y + 8.4, text: t.text || (t.kind === 'penalty' ? t.name : ''), size: 2.2, fill: '#333333' });
    for (const s of t.slots) {
      const cx = s.box.x + s.box.w / 2;
      const cy = s.box.y + s.box.h / 2;
      const n = s.count;
      const gap = Math.min(3.4, (s.box.w - 1) / n);
      for (let i = 0; i < n; i++) {
        const x = cx + (i - (n - 1) / 2) * gap;
        const r = n > 2 ? 1.5 : 1.9;
        if (s.symbol === 'star') out.push({ k: 'poly', pts: star(x, cy, r), closed: true, fill: INK });
        else if (s.symbol === 'circle') out.push({ k: 'circle', cx: x, cy, r: r * 0.85, stroke: INK, lw: 0.35 });
        else {
          out.push({ k: 'line', x1: x - r * 0.75, y1: cy - r * 0.75, x2: x + r * 0.75, y2: cy + r * 0.75, stroke: INK, lw: 0.45, cap: 'round' });
          out.push({ k: 'line', x1: x + r * 0.75, y1: cy - r * 0.75, x2: x - r * 0.75, y2: cy + r * 0.75, stroke: INK, lw: 0.45, cap: 'round' });
        }
      }
      out.push({ k: 'text', x: cx, y: s.box.y + s.box.h + 2.7, text: String(s.at), size: 2.3, bold: true, align: 'center', fill: '#333333' });
    }
  }

  // Die tables: number, icon (the dice face art), and the face's name or the organ's letter.
  for (const t of layout.dieTables) {
    out.push({ k: 'text', x: t.titleX, y: t.titleY, text: t.title, size: 2.3, bold: true, fill: INK });
    for (const row of t.rows) {
      out.push({ k: 'text', x: row.icon.x - 1, y: row.textY, text: String(row.number), size: 2.6, bold: true, align: 'right', fill: INK });
      const icon = faceIcon(t.kind === 'shape' ? 'cozy-shape' : 'cozy-organ', row.face, { ink: INK, body: '#ffffff' });
      out.push({ k: 'rect', x: row.icon.x, y: row.icon.y, w: row.icon.w, h: row.icon.h, r: 1, fill: '#ffffff', stroke: '#777777', lw: 0.25 });
      for (const p of icon.paths.slice(1)) out.push({ k: 'path', d: p.d, x: row.icon.x, y: row.icon.y, scale: row.icon.w / 100, fill: p.fill });
      const label = t.kind === 'shape' ? row.face : (({ eye: 'E', mouth: 'M', tail: 'T', collar: 'C', brain: 'B', heart: 'H' }) as Record<string, string>)[row.face] ?? row.face;
      out.push({ k: 'text', x: row.textX, y: row.textY, text: label, size: 2.8, bold: true, fill: INK });
    }
  }

  // Rubric and legend.
  out.push({ k: 'rect', x: layout.rubric.box.x, y: layout.rubric.box.y, w: layout.rubric.box.w, h: layout.rubric.box.h, r: 1.5, stroke: SOFT, lw: 0.3 });
  for (const t of layout.rubric.lines) out.push(text(t));
  for (const t of layout.legend.lines) out.push(text(t));
  for (const ex of layout.legend.examples) out.push(...legendExample(ex.x, ex.y, ex.cell, ex.cells, ex.joined, ex.caption));
  return out;
}

function legendExample(x: number, y: number, cell: number, cells: string[], joined: boolean[], caption: string): Prim[] {
  const out: Prim[] = [];
  const n = cells.length;
  out.push({ k: 'rect', x, y, w: n * cell, h: cell, stroke: GRID, lw: 0.2 });
  for (let i = 1; i < n; i++) out.push({ k: 'line', x1: x + i * cell, y1: y, x2: x + i * cell, y2: y + cell, stroke: GRID, lw: 0.2 });
  const cy = y + cell / 2;
  const band = '#5a5a5a';
  const lw = cell * 0.45;
  const organ = (s: string) => s !== 'band' && s !== 'blank' && s !== 'food';
  for (let i = 0; i < n; i++) {
    const cx = x + (i + 0.5) * cell;
    const s = cells[i]!;
    // The worm line: through the middle, stopping short of a letter, across joined borders.
    const stop = organ(s) ? cell * 0.3 : 0;
    if (s !== 'blank' && s !== 'food') {
      if (i > 0 && joined[i - 1]) out.push({ k: 'line', x1: x + i * cell - 0.01, y1: cy, x2: cx - stop, y2: cy, stroke: band, lw, cap: 'butt' });
      if (i < n - 1 && joined[i]) out.push({ k: 'line', x1: cx + stop, y1: cy, x2: x + (i + 1) * cell + 0.01, y2: cy, stroke: band, lw, cap: 'butt' });
      if (!organ(s)) out.push({ k: 'circle', cx, cy, r: lw / 2, fill: band });
    }
    if (s === 'food') out.push(...cleanMark('food', cx, cy, cell * 0.38, 0.3));
    if (organ(s)) {
      const letter = s[0]!;
      const kind: MarkKind = s === 'Bx' ? 'usedBrain' : ORGAN_BY_LETTER[letter]!;
      out.push(...cleanMark(kind, cx, cy, cell * 0.42, 0.32));
      const dir = s[1];
      if (dir === '<' || dir === '>') {
        const sx = dir === '<' ? -1 : 1;
        out.push({ k: 'line', x1: cx + sx * cell * 0.22, y1: cy, x2: cx + sx * cell * 0.48, y2: cy, stroke: INK, lw: 0.32, cap: 'round' });
      }
    }
  }
  out.push({ k: 'text', x, y: y + cell + 2.8, text: caption, size: 2.2, fill: '#333333' });
  return out;
}
