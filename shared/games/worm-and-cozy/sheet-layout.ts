/**
 * Where everything sits on a printed Worm & Cozy sheet, in millimetres: the board's cells, the four
 * corner markers the camera finds, the registration ticks along the board's edges, the hour labels,
 * the reward and penalty tracks, the die tables, the rubric and the drawing legend. One pure module
 * shared by the printer (pdfkit), the photo synthesiser (SVG) and the photo reader, so all three
 * agree to the hundredth of a millimetre.
 *
 * Coordinates are in the sheet's *frame*: a 196 x 262 mm rectangle, x right and y down, centred on
 * the page. The frame is the same on A4 and US Letter, so the reader never needs to know the paper.
 *
 * The corner markers are 6 x 6 module squares (a black ring around 4 x 4 code bits, ArUco-like).
 * Three fixed corner bits give the orientation; the other 12 carry the marker's corner (2 bits), a
 * 6-bit slice of the chapter's 24-bit code (each corner a different slice) and a 4-bit CRC. A photo
 * of the wrong chapter's sheet is recognised from the markers alone.
 */
import type { Chapter, TrackSymbol } from './chapters.js';
import { columnLetter, parseRange } from './board.js';

export type Paper = 'a4' | 'letter';
export const PAPERS: readonly Paper[] = ['a4', 'letter'];
export const PAPER_MM: Readonly<Record<Paper, { width: number; height: number }>> = {
  a4: { width: 210, height: 297 },
  letter: { width: 215.9, height: 279.4 },
};

/** The printed frame: identical on every paper (A4 leaves 7 mm at the sides, Letter 8.7 mm top and bottom). */
export const FRAME = { width: 196, height: 262 } as const;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type Corner = 0 | 1 | 2 | 3;
/** Marker corners in clockwise order: top-left, top-right, bottom-right, bottom-left. */
export const CORNER_NAMES = ['top-left', 'top-right', 'bottom-right', 'bottom-left'] as const;

export const MARKER_MODULES = 6;
export const MARKER_SIZE = 14;
/** White space kept clear around each marker (the frame edge is the page margin beyond it). */
export const MARKER_QUIET = 2.5;

export interface MarkerSpec {
  corner: Corner;
  /** The marker's outer square. */
  x: number;
  y: number;
  size: number;
  /** 6 x 6 modules, row-major, 1 = black. */
  modules: number[];
  /** The four outer corners of the square in clockwise order from its own top-left (as printed). */
  corners: [number, number][];
}

export type Side = 'top' | 'right' | 'bottom' | 'left';

/** A registration tick: a small filled square outside the board frame, on the line of a grid line. */
export interface Tick {
  side: Side;
  /** The grid line: a column boundary 0..columns for top/bottom, a row boundary 0..rows for left/right. */
  index: number;
  /** Centre. */
  x: number;
  y: number;
  size: number;
}

export interface HourGroup {
  /** Index into chapter.clock.regions. */
  region: number;
  edge: Side;
  /** The region's extent along the edge (mm): a bracket is drawn over it. */
  from: number;
  to: number;
  /** Bracket line position across the edge (mm): y for top/bottom, x for left/right. */
  bracket: number;
  /** Centre of the label group. */
  cx: number;
  cy: number;
  /** e.g. "1"; the halves to cross off, e.g. ["AM", "PM"] (only halves the chapter plays). */
  number: string;
  halves: string[];
}

export interface TrackSlot {
  symbol: TrackSymbol['symbol'];
  count: number;
  at: number;
  /** The box the symbol group is drawn in; the count sits under it. */
  box: Rect;
}

export interface TrackLayout {
  kind: 'reward' | 'penalty';
  name: string;
  text: string;
  row: Rect;
  /** Where the name and text go. */
  label: Rect;
  slots: TrackSlot[];
}

export interface DieTableLayout {
  kind: 'shape' | 'organ';
  title: string;
  /** Title baseline. */
  titleX: number;
  titleY: number;
  /** Number 1..6 → face, with its icon box. */
  rows: { number: number; face: string; icon: Rect; textX: number; textY: number }[];
}

export interface TextLine {
  x: number;
  y: number;
  text: string;
  size: number;
  bold?: boolean;
  align?: 'left' | 'center' | 'right';
}

export interface SheetLayout {
  chapterId: string;
  chapterCode: number;
  frame: { width: number; height: number };
  board: { x: number; y: number; cell: number; columns: number; rows: number };
  markers: MarkerSpec[];
  ticks: Tick[];
  /** Column letters and row numbers around the board. */
  coordinates: TextLine[];
  hours: HourGroup[];
  title: TextLine[];
  tracks: TrackLayout[];
  dieTables: DieTableLayout[];
  rubric: { box: Rect; lines: TextLine[] };
  legend: { box: Rect; lines: TextLine[]; examples: LegendExample[] };
}

/** A small drawn example of the marking convention: cells of a 1 x n strip and what is drawn in them. */
export interface LegendExample {
  x: number;
  y: number;
  cell: number;
  /** Marks per cell, left to right: 'band' (worm line through), 'E'/'M'/... (organ letter), 'food', 'blank'. */
  cells: string[];
  /** Consecutive cells joined by the worm line (length cells.length - 1). */
  joined: boolean[];
  caption: string;
}

/* ---------------------------------------------------------------- chapter code and markers */

/** A 24-bit code of a chapter id (FNV-1a folded): printed in the markers, checked by the reader. */
export function chapterCode(chapterId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < chapterId.length; i++) {
    h ^= chapterId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return ((h >>> 24) ^ h) & 0xffffff;
}

/** CRC-4 (x^4 + x + 1) of `bits` data bits, most significant first. */
export function crc4(value: number, bits: number): number {
  let reg = 0;
  for (let i = bits - 1; i >= 0; i--) {
    const inBit = (value >>> i) & 1;
    const top = (reg >>> 3) & 1;
    reg = ((reg << 1) & 0xf) ^ ((inBit ^ top) ? 0x3 : 0);
  }
  return reg;
}

/** Inner 4 x 4 cells (row-major) that carry the orientation: black, black, white, black going clockwise. */
const ORIENTATION: readonly { i: number; v: number }[] = [
  { i: 0, v: 1 },
  { i: 3, v: 1 },
  { i: 15, v: 1 },
  { i: 12, v: 0 },
];
const PAYLOAD_CELLS: readonly number[] = Array.from({ length: 16 }, (_, i) => i).filter((i) => !ORIENTATION.some((o) => o.i === i));

/** The 6-bit slice of a chapter code that corner `k` carries. */
export function codeSlice(code: number, corner: Corner): number {
  return (code >>> (6 * corner)) & 0x3f;
}

/** The 4 x 4 inner bits (row-major, 1 = black) of a corner's marker. */
export function markerInnerBits(corner: Corner, code: number): number[] {
  const data = (corner << 6) | codeSlice(code, corner);
  const word = (data << 4) | crc4(data, 8);
  const bits = new Array<number>(16).fill(0);
  for (const o of ORIENTATION) bits[o.i] = o.v;
  PAYLOAD_CELLS.forEach((cell, k) => {
    bits[cell] = (word >>> (11 - k)) & 1;
  });
  return bits;
}

/** All 6 x 6 modules of a marker: the black ring around the inner bits. */
export function markerModules(corner: Corner, code: number): number[] {
  const inner = markerInnerBits(corner, code);
  const out: number[] = [];
  for (let r = 0; r < MARKER_MODULES; r++)
    for (let c = 0; c < MARKER_MODULES; c++) {
      const ring = r === 0 || c === 0 || r === MARKER_MODULES - 1 || c === MARKER_MODULES - 1;
      out.push(ring ? 1 : inner[(r - 1) * 4 + (c - 1)]!);
    }
  return out;
}

/** Rotates a 4 x 4 row-major grid a quarter turn clockwise, `turns` times. */
export function rotateInner(bits: readonly number[], turns: number): number[] {
  let cur = bits.slice();
  for (let t = 0; t < ((turns % 4) + 4) % 4; t++) {
    const next = new Array<number>(16);
    for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) next[c * 4 + (3 - r)] = cur[r * 4 + c]!;
    cur = next;
  }
  return cur;
}

export interface DecodedMarker {
  corner: Corner;
  slice: number;
  /**
   * The sample is the printed marker turned `turns` quarter turns clockwise: the printed corner k
   * (0 top-left, clockwise) is the sampled square's corner (k + turns) mod 4.
   */
  turns: number;
}

/** Reads sampled inner bits (row-major as seen in the photo): the marker, or null when no orientation and CRC fit. */
export function decodeMarkerBits(sampled: readonly number[]): DecodedMarker | null {
  for (let turns = 0; turns < 4; turns++) {
    // Rotating the sample back by `turns` must give a printed pattern.
    const bits = rotateInner(sampled, (4 - turns) % 4);
    if (!ORIENTATION.every((o) => bits[o.i] === o.v)) continue;
    let word = 0;
    for (const cell of PAYLOAD_CELLS) word = (word << 1) | (bits[cell]! & 1);
    const data = word >>> 4;
    if (crc4(data, 8) !== (word & 0xf)) return null;
    return { corner: (data >>> 6) as Corner, slice: data & 0x3f, turns };
  }
  return null;
}

/* ---------------------------------------------------------------- the layout */

const TICK_GAP = 2.5;
const TICK_SIZE = 1.6;
/** Distance from the board frame to the column letters / row numbers and to the hour brackets. */
const COORD_GAP = 5.6;
const BRACKET_GAP = 8.2;
const LABEL_GAP = 11.6;

function regionExtent(spec: { columns?: string | undefined; rows?: string | undefined }, kind: 'columns' | 'rows', n: number): [number, number] {
  const text = kind === 'columns' ? spec.columns : spec.rows;
  const r = text ? parseRange(text, kind) : null;
  return r ? [Math.max(0, r[0]), Math.min(n - 1, r[1])] : [0, n - 1];
}

/** The sheet layout for a chapter. Pure: the same chapter always gives the same numbers. */
export function sheetLayout(chapter: Chapter): SheetLayout {
  const { columns, rows } = chapter.board;
  const code = chapterCode(chapter.id);

  // The board sits in a 124 x 124 mm box (12 mm cells on the 10 x 10 boards), centred across.
  const boxW = 124;
  const boxH = 124;
  const cell = Math.min(12, boxW / columns, boxH / rows);
  const bw = cell * columns;
  const bh = cell * rows;
  const bx = (FRAME.width - bw) / 2;
  const by = 33 + (boxH - bh) / 2;
  const board = { x: bx, y: by, cell, columns, rows };

  const s = MARKER_SIZE;
  const markerAt: [number, number][] = [
    [0, 0],
    [FRAME.width - s, 0],
    [FRAME.width - s, FRAME.height - s],
    [0, FRAME.height - s],
  ];
  const markers: MarkerSpec[] = markerAt.map(([x, y], k) => ({
    corner: k as Corner,
    x,
    y,
    size: s,
    modules: markerModules(k as Corner, code),
    corners: [
      [x, y],
      [x + s, y],
      [x + s, y + s],
      [x, y + s],
    ],
  }));

  const ticks: Tick[] = [];
  for (let i = 0; i <= columns; i++) {
    ticks.push({ side: 'top', index: i, x: bx + i * cell, y: by - TICK_GAP, size: TICK_SIZE });
    ticks.push({ side: 'bottom', index: i, x: bx + i * cell, y: by + bh + TICK_GAP, size: TICK_SIZE });
  }
  for (let i = 0; i <= rows; i++) {
    ticks.push({ side: 'left', index: i, x: bx - TICK_GAP, y: by + i * cell, size: TICK_SIZE });
    ticks.push({ side: 'right', index: i, x: bx + bw + TICK_GAP, y: by + i * cell, size: TICK_SIZE });
  }

  const coordinates: TextLine[] = [];
  for (let c = 0; c < columns; c++) {
    const x = bx + (c + 0.5) * cell;
    coordinates.push({ x, y: by - COORD_GAP, text: columnLetter(c), size: 2.6, bold: true, align: 'center' });
    coordinates.push({ x, y: by + bh + COORD_GAP + 2.4, text: columnLetter(c), size: 2.6, bold: true, align: 'center' });
  }
  for (let r = 0; r < rows; r++) {
    const y = by + (r + 0.5) * cell + 0.95;
    coordinates.push({ x: bx - COORD_GAP, y, text: String(r + 1), size: 2.6, bold: true, align: 'right' });
    coordinates.push({ x: bx + bw + COORD_GAP, y, text: String(r + 1), size: 2.6, bold: true, align: 'left' });
  }

  const n = chapter.clock.regions.length;
  const hours: HourGroup[] = chapter.clock.regions.map((spec, region) => {
    const edge = spec.edge as Side;
    const halves = chapter.clock.halves.filter((_, h) => h * n + region < chapter.clock.hours);
    const horizontal = edge === 'top' || edge === 'bottom';
    const [a, b] = horizontal ? regionExtent(spec, 'columns', columns) : regionExtent(spec, 'rows', rows);
    const from = (horizontal ? bx : by) + a * cell + 1;
    const to = (horizontal ? bx : by) + (b + 1) * cell - 1;
    const mid = (from + to) / 2;
    const bracket = edge === 'top' ? by - BRACKET_GAP : edge === 'bottom' ? by + bh + BRACKET_GAP : edge === 'left' ? bx - BRACKET_GAP : bx + bw + BRACKET_GAP;
    const out = edge === 'top' ? by - LABEL_GAP - 1.6 : edge === 'bottom' ? by + bh + LABEL_GAP + 1.6 : edge === 'left' ? bx - LABEL_GAP - 3 : bx + bw + LABEL_GAP + 3;
    return {
      region,
      edge,
      from,
      to,
      bracket,
      cx: horizontal ? mid : out,
      cy: horizontal ? out : mid,
      number: String(region + 1),
      halves,
    };
  });

  const title: TextLine[] = [
    { x: FRAME.width / 2, y: 6, text: `Worm & Cozy — ${chapter.title}`, size: 4.2, bold: true, align: 'center' },
    { x: FRAME.width / 2, y: 11.5, text: `sheet ${chapter.id}   ·   player ______________   ·   score ______`, size: 3, align: 'center' },
  ];

  // Tracks: rewards then the penalty, one row each, below the board's bottom labels.
  const trackTop = 33 + boxH + 18;
  const rowH = 12;
  const labelW = 58;
  const slotW = 11.5;
  const trackX = 12;
  const all = [...chapter.rewards.map((r) => ({ r, kind: 'reward' as const })), { r: chapter.penalty, kind: 'penalty' as const }];
  const tracks: TrackLayout[] = all.map(({ r, kind }, i) => {
    const y = trackTop + i * rowH;
    const slotsW = FRAME.width - 2 * trackX - labelW;
    const w = Math.min(slotW, slotsW / Math.max(1, r.track.length));
    return {
      kind,
      name: r.name,
      text: r.text ?? '',
      row: { x: trackX, y, w: FRAME.width - 2 * trackX, h: rowH - 1 },
      label: { x: trackX + 1.5, y, w: labelW - 3, h: rowH - 1 },
      slots: r.track.map((sym, k) => ({
        symbol: sym.symbol,
        count: sym.count ?? 1,
        at: sym.at,
        box: { x: trackX + labelW + k * w, y: y + 0.8, w: w - 0.8, h: rowH - 5 },
      })),
    };
  });

  // Die tables in the gutters: the shape die on the left, the organ dice (with their letters) on the right.
  const tableRow = 9.5;
  const tableTop = by + (bh - (6 * tableRow + 5)) / 2;
  const dieTables: DieTableLayout[] = (['shape', 'organ'] as const).map((kind) => {
    const x0 = kind === 'shape' ? 0.5 : FRAME.width - 18.5;
    const faces = kind === 'shape' ? chapter.dice.shape : chapter.dice.organ;
    return {
      kind,
      title: kind === 'shape' ? 'shape die' : 'organ dice',
      titleX: x0,
      titleY: tableTop + 2.5,
      rows: faces.map((face, k) => {
        const y = tableTop + 5 + k * tableRow;
        return { number: k + 1, face, icon: { x: x0 + 3.6, y, w: 8, h: 8 }, textX: x0 + 12.6, textY: y + 5.4 };
      }),
    };
  });

  // The legend (how to draw so that clew can read the sheet) and the rubric share the bottom band.
  const legendTop = trackTop + all.length * rowH + 1.5;
  const lx = MARKER_SIZE + MARKER_QUIET + 1;
  const rubricX = 148;
  const rubricLines: TextLine[] = [{ x: rubricX, y: legendTop + 3, text: 'How did you do?', size: 2.7, bold: true }];
  const steps = [{ from: Number.NEGATIVE_INFINITY, label: chapter.rubric.lowest }, ...chapter.rubric.steps];
  steps.forEach((st, k) => {
    const next = steps[k + 1];
    // Plain ASCII and WinAnsi only: the PDF uses the standard Helvetica fonts.
    const range = k === 0 ? `${(next?.from ?? 1) - 1} or less` : next && next.from - 1 > st.from ? `${st.from}–${next.from - 1}` : next ? `${st.from}` : `${st.from}+`;
    rubricLines.push({ x: rubricX, y: legendTop + 6.8 + k * 3.2, text: range, size: 2.3, bold: true });
    rubricLines.push({ x: rubricX + 12.5, y: legendTop + 6.8 + k * 3.2, text: st.label, size: 2.3 });
  });
  const rubric = { box: { x: rubricX - 1.5, y: legendTop, w: FRAME.width - MARKER_SIZE - MARKER_QUIET - rubricX + 0.5, h: 5 + steps.length * 3.2 + 1.5 }, lines: rubricLines };

  const legendLines: TextLine[] = [
    { x: lx, y: legendTop + 3, text: 'Draw so that clew can read your sheet:', size: 2.7, bold: true },
    { x: lx, y: legendTop + 6.8, text: 'Worm: a thick pencil line through the middle of its cells, carried across', size: 2.3 },
    { x: lx, y: legendTop + 10, text: 'the grid line to its next cell. Leave the grid line clear between two worms.', size: 2.3 },
    { x: lx, y: legendTop + 13.2, text: 'Organ: its letter in the cell, where the line stops: E eye, M mouth, T tail,', size: 2.3 },
    { x: lx, y: legendTop + 16.4, text: 'C collar, B brain, H heart. Eye, mouth: a short stroke to the side it faces.', size: 2.3 },
    { x: lx, y: legendTop + 19.6, text: 'Used (filled-in) brain: cross out its B. Food: a small circle in a blank cell.', size: 2.3 },
  ];
  const exY = legendTop + 22.5;
  const exCell = 6;
  const examples: LegendExample[] = [
    { x: lx, y: exY, cell: exCell, cells: ['E<', 'band', 'band', 'T'], joined: [true, true, true], caption: 'one worm' },
    { x: lx + 34, y: exY, cell: exCell, cells: ['band', 'band', 'band', 'band'], joined: [true, false, true], caption: 'two worms' },
    { x: lx + 68, y: exY, cell: exCell, cells: ['B', 'Bx', 'blank', 'food'], joined: [true, false, false], caption: 'brain, used brain, food' },
  ];
  const legend = { box: { x: lx - 1.5, y: legendTop, w: rubricX - lx - 1, h: FRAME.height - legendTop - 0.5 }, lines: legendLines, examples };

  return { chapterId: chapter.id, chapterCode: code, frame: { ...FRAME }, board, markers, ticks, coordinates, hours, title, tracks, dieTables, rubric, legend };
}

/** The rectangle of cell (column, row), 0-based, in frame millimetres. */
export function cellRect(layout: SheetLayout, column: number, row: number): Rect {
  const b = layout.board;
  return { x: b.x + column * b.cell, y: b.y + row * b.cell, w: b.cell, h: b.cell };
}

/** Where the frame's top-left corner sits on a page of this paper (mm from the page's top-left). */
export function frameOffset(paper: Paper): { x: number; y: number } {
  const p = PAPER_MM[paper];
  return { x: (p.width - FRAME.width) / 2, y: (p.height - FRAME.height) / 2 };
}

/** Every marker corner as [frame x, frame y] keyed by corner index then the square's corner (clockwise). */
export function markerCornerPoints(layout: SheetLayout): [number, number][][] {
  return layout.markers.map((m) => m.corners.map(([x, y]) => [x, y] as [number, number]));
}
