/**
 * Board geometry: cells, names, neighbours, rocks and the hour regions of a chapter, compiled once
 * per chapter object into flat typed arrays (the hot paths look cells up by index).
 */
import type { Chapter, RegionSpec } from './chapters.js';
import type { Dir } from './state.js';

export interface Geometry {
  width: number;
  height: number;
  size: number;
  /** 1 where a rock is printed. */
  rock: Uint8Array;
  rocks: number[];
  /** An occupancy grid with only the rocks (−1) drawn: the start of every sheet's grid. */
  blank: Int16Array;
  /** Per clock region (not per hour): 1 where the cell is in the region. */
  regionMasks: Uint8Array[];
  regionCells: number[][];
  /** `neighbor[cell * 4 + d]` for d in N, E, S, W order, or -1 off the board. */
  neighbor: Int16Array;
  names: string[];
  /** Canonical cell name (`C7`) → index: moves name cells, and a map lookup beats parsing them. */
  index: ReadonlyMap<string, number>;
  /** Row bitmasks (bit x for column x), for the option-A scan: each cell's row and column bit. */
  rowOf: Int16Array;
  colBit: Int32Array;
  /** The rocks as row bitmasks, padded with 5 empty rows (a placement's masks reach 5 rows down). */
  rockRows: Int32Array;
}

export const DIR_INDEX: Readonly<Record<Dir, number>> = { N: 0, E: 1, S: 2, W: 3 };
export const DIR_BY_INDEX: readonly Dir[] = ['N', 'E', 'S', 'W'];
const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];

/** The direction 90° to the left and right of `d`. */
export function sides(d: Dir): [Dir, Dir] {
  const i = DIR_INDEX[d];
  return [DIR_BY_INDEX[(i + 3) % 4]!, DIR_BY_INDEX[(i + 1) % 4]!];
}

export function columnLetter(col: number): string {
  return String.fromCharCode(65 + col);
}

/** Parses `C7` → [column 2, row 6], or null when it is not a cell name. */
export function parseCellName(name: string): [number, number] | null {
  const m = /^([A-Za-z])(\d{1,2})$/.exec(name.trim());
  if (!m) return null;
  return [m[1]!.toUpperCase().charCodeAt(0) - 65, Number(m[2]) - 1];
}

/** Parses a range like `A-E` (columns) or `1-5` (rows) into inclusive 0-based bounds. */
export function parseRange(text: string, kind: 'columns' | 'rows'): [number, number] | null {
  const m = kind === 'columns' ? /^([A-Z])(?:-([A-Z]))?$/.exec(text) : /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const conv = (s: string) => (kind === 'columns' ? s.charCodeAt(0) - 65 : Number(s) - 1);
  const a = conv(m[1]!);
  const b = m[2] === undefined ? a : conv(m[2]);
  return a <= b ? [a, b] : null;
}

export function regionCellsOf(spec: RegionSpec, width: number, height: number): number[] {
  const out: number[] = [];
  const cols: [number, number] | null = spec.columns ? parseRange(spec.columns, 'columns') : [0, width - 1];
  const rows: [number, number] | null = spec.rows ? parseRange(spec.rows, 'rows') : [0, height - 1];
  if (!cols || !rows) return out;
  for (let r = Math.max(0, rows[0]); r <= Math.min(height - 1, rows[1]); r++)
    for (let c = Math.max(0, cols[0]); c <= Math.min(width - 1, cols[1]); c++) out.push(r * width + c);
  return out;
}

const cache = new WeakMap<Chapter, Geometry>();

/** The last chapter asked for: every move and listing asks again, and a comparison beats a WeakMap. */
let lastChapter: Chapter | null = null;
let lastGeometry: Geometry | null = null;

/** The compiled geometry of a chapter (cached per chapter object; chapters are never mutated). */
export function geometry(chapter: Chapter): Geometry {
  if (chapter === lastChapter) return lastGeometry!;
  let g = cache.get(chapter);
  if (!g) {
    g = compileGeometry(chapter);
    cache.set(chapter, g);
  }
  lastChapter = chapter;
  lastGeometry = g;
  return g;
}

function compileGeometry(chapter: Chapter): Geometry {
  return gridGeometry(chapter.board.columns, chapter.board.rows, chapter.board.rocks, chapter.clock.regions);
}

/** A geometry from its parts (a chapter's board, or a board read from notation). */
export function gridGeometry(width: number, height: number, rockNames: readonly string[], regions: readonly RegionSpec[] = []): Geometry {
  const size = width * height;
  const names: string[] = [];
  const index = new Map<string, number>();
  const neighbor = new Int16Array(size * 4);
  for (let i = 0; i < size; i++) {
    const x = i % width;
    const y = (i - x) / width;
    const name = columnLetter(x) + String(y + 1);
    names.push(name);
    index.set(name, i);
    for (let d = 0; d < 4; d++) {
      const nx = x + DX[d]!;
      const ny = y + DY[d]!;
      neighbor[i * 4 + d] = nx >= 0 && nx < width && ny >= 0 && ny < height ? ny * width + nx : -1;
    }
  }
  const rock = new Uint8Array(size);
  const rocks: number[] = [];
  for (const name of rockNames) {
    const p = parseCellName(name);
    if (p && p[0] >= 0 && p[1] >= 0 && p[0] < width && p[1] < height) {
      const i = p[1] * width + p[0];
      rock[i] = 1;
      rocks.push(i);
    }
  }
  const regionCells = regions.map((r) => regionCellsOf(r, width, height));
  const regionMasks = regionCells.map((cells) => {
    const m = new Uint8Array(size);
    for (const c of cells) m[c] = 1;
    return m;
  });
  const blank = Int16Array.from(rock, (r) => (r ? -1 : 0));
  const rowOf = new Int16Array(size);
  const colBit = new Int32Array(size);
  const rockRows = new Int32Array(height + 5);
  for (let i = 0; i < size; i++) {
    rowOf[i] = Math.floor(i / width);
    colBit[i] = 1 << i % width;
    if (rock[i]) rockRows[rowOf[i]!] = rockRows[rowOf[i]!]! | colBit[i]!;
  }
  return { width, height, size, rock, rocks, blank, regionMasks, regionCells, neighbor, names, index, rowOf, colBit, rockRows };
}

export function cellName(g: Geometry, cell: number): string {
  return g.names[cell] ?? `#${cell}`;
}

/** The index of a cell name on this board, or -1 when it is not a cell of this board. */
export function cellIndex(g: Geometry, name: string): number {
  const i = g.index.get(name);
  if (i !== undefined) return i;
  // Not canonical (lower case, spaces, "C07") or not on this board: parse it.
  const p = parseCellName(name);
  if (!p || p[0] < 0 || p[0] >= g.width || p[1] < 0 || p[1] >= g.height) return -1;
  return p[1] * g.width + p[0];
}

export function step(g: Geometry, cell: number, d: Dir): number {
  return g.neighbor[cell * 4 + DIR_INDEX[d]]!;
}

/** The direction from `a` to the orthogonally adjacent `b`, or null when they do not touch. */
export function dirBetween(g: Geometry, a: number, b: number): Dir | null {
  for (let d = 0; d < 4; d++) if (g.neighbor[a * 4 + d] === b) return DIR_BY_INDEX[d]!;
  return null;
}

export function adjacent(g: Geometry, a: number, b: number): boolean {
  const n = g.neighbor;
  const k = a * 4;
  return n[k] === b || n[k + 1] === b || n[k + 2] === b || n[k + 3] === b;
}

export function describeBoard(g: Geometry): string {
  return `${g.width} x ${g.height}, columns A–${columnLetter(g.width - 1)}, rows 1–${g.height}`;
}
