/**
 * The "score a sheet" editor as pure data: a finished paper sheet copied onto the phone worm by
 * worm (a path dragged across cells), organ by organ and food by food, kept in the sheet file's
 * own format (shared/games/worm-and-cozy/sheet.ts) so the engine validates and scores it exactly
 * as `npm run score` does. Where an organ goes and which way it faces comes from the engine's
 * `organSpots`; a worm's shape from `shapeOfCells`.
 */
import { cellIndex, geometry, getChapter, organSpots, shapeOfCells, type Geometry, type Organ, type OrganType, type ShapeName, type Worm } from '../../../../shared/games/worm-and-cozy/index.js';
import { dirBetween, parseCellName } from '../../../../shared/games/worm-and-cozy/board.js';
import type { SheetJson, SheetOrgan, SheetWorm } from '../../../../shared/games/worm-and-cozy/sheet.js';

export interface EditorSheet {
  chapter: string;
  worms: SheetWorm[];
  foods: string[];
}

export type Edit = { sheet: EditorSheet; message?: string };

export const emptySheet = (chapter: string): EditorSheet => ({ chapter, worms: [], foods: [] });

function geo(sheet: EditorSheet): Geometry {
  return geometry(getChapter(sheet.chapter));
}

function adjacentNames(a: string, b: string): boolean {
  const p = parseCellName(a);
  const q = parseCellName(b);
  return !!p && !!q && Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) === 1;
}

/**
 * The path being dragged, after the finger enters `cell`: one step on (a neighbour not yet in
 * the path), one step back (the cell before the last), or unchanged (a jump or a loop).
 */
export function extendPath(path: readonly string[], cell: string): string[] {
  if (path.length === 0) return [cell];
  const last = path[path.length - 1]!;
  if (cell === last) return [...path];
  if (path.length >= 2 && path[path.length - 2] === cell) return path.slice(0, -1);
  if (path.includes(cell) || !adjacentNames(last, cell)) return [...path];
  return [...path, cell];
}

/** The original shape of a worm: its 5 cells, or the first 5 in a row along a grown worm that form one. */
export function shapeOfPath(g: Geometry, cells: readonly string[]): ShapeName | null {
  const idx = cells.map((c) => cellIndex(g, c));
  if (idx.length < 5) return null;
  for (let i = 0; i + 5 <= idx.length; i++) {
    const s = shapeOfCells(g, idx.slice(i, i + 5));
    if (s) return s;
  }
  return null;
}

/** Adds a drawn worm: 5 cells take their shape, fewer are a baby; a longer worm grew from its shape. */
export function addWorm(sheet: EditorSheet, cells: readonly string[]): Edit {
  if (cells.length < 2) return { sheet, message: 'Drag across at least 2 cells to draw a worm.' };
  const g = geo(sheet);
  const shape = shapeOfPath(g, cells);
  const worm: SheetWorm = shape ? { cells: [...cells], shape } : { cells: [...cells] };
  const message =
    cells.length === 5 && !shape
      ? 'These 5 cells are not one of the six worm shapes (I, L, U, V, W, Z); it is kept as drawn.'
      : cells.length > 5 && !shape
        ? 'No 5 cells in a row along this worm form a worm shape; choose its shape below.'
        : undefined;
  return message ? { sheet: { ...sheet, worms: [...sheet.worms, worm] }, message } : { sheet: { ...sheet, worms: [...sheet.worms, worm] } };
}

/** The editor's worm in engine terms, for the engine's organ rules. */
function engineWorm(g: Geometry, w: SheetWorm, id: number): Worm {
  const organs: Organ[] = (w.organs ?? []).map((o) => {
    const organ: Organ = { type: o.type, cell: cellIndex(g, o.cell) };
    if (o.facing) organ.facing = o.facing;
    if (o.filled) organ.filled = true;
    return organ;
  });
  return { id, cells: w.cells.map((c) => cellIndex(g, c)), front: organs.some((o) => o.type === 'eye' || o.type === 'mouth' || o.type === 'tail'), shape: w.shape ?? null, organs, ext: 0 };
}

export function wormIndexAt(sheet: EditorSheet, cell: string): number {
  return sheet.worms.findIndex((w) => w.cells.includes(cell));
}

/**
 * Adds an organ where the finger tapped. On a legal spot it takes the engine's facing (and the worm
 * turns round if that end becomes its front or rear); elsewhere it is added as drawn and the
 * validation says what is wrong with it.
 */
export function addOrgan(sheet: EditorSheet, type: OrganType, cell: string): Edit {
  const wi = wormIndexAt(sheet, cell);
  if (wi < 0) return { sheet, message: `${cell} is not on a worm: organs go on worms.` };
  const g = geo(sheet);
  const w = sheet.worms[wi]!;
  if ((w.organs ?? []).some((o) => o.cell === cell)) return { sheet, message: `${cell} already has an organ: erase it first.` };
  const spot = organSpots(g, engineWorm(g, w, wi + 1), type).find((s) => s.cell === cellIndex(g, cell));
  let cells = [...w.cells];
  let facing = spot?.facing;
  if (spot?.reverse) cells = cells.reverse();
  if (!spot && (type === 'eye' || type === 'mouth' || type === 'tail')) {
    // Not a legal spot: keep what the paper shows, facing along the worm, for the validation to judge.
    const i = cells.indexOf(cell);
    const next = cells[i + 1] ?? cells[i - 1];
    const d = next ? dirBetween(g, cellIndex(g, next), cellIndex(g, cell)) : null;
    facing = d ?? 'N';
  }
  const organ: SheetOrgan = facing ? { type, cell, facing } : { type, cell };
  const worm: SheetWorm = { ...w, cells, organs: [...(w.organs ?? []), organ] };
  const worms = sheet.worms.map((x, i) => (i === wi ? worm : x));
  return spot ? { sheet: { ...sheet, worms } } : { sheet: { ...sheet, worms }, message: `That is not where ${type === 'eye' || type === 'mouth' ? `${type}s go` : 'it goes'} in the rules; it is kept as drawn and marked.` };
}

/** A food in a blank cell, or off again. */
export function toggleFood(sheet: EditorSheet, cell: string): Edit {
  if (sheet.foods.includes(cell)) return { sheet: { ...sheet, foods: sheet.foods.filter((f) => f !== cell) } };
  if (wormIndexAt(sheet, cell) >= 0) return { sheet, message: `${cell} is on a worm: foods go in blank cells.` };
  return { sheet: { ...sheet, foods: [...sheet.foods, cell] } };
}

/** A brain filled in (used to change a die), or not. */
export function toggleFilled(sheet: EditorSheet, cell: string): Edit {
  const wi = wormIndexAt(sheet, cell);
  const brain = wi >= 0 ? sheet.worms[wi]!.organs?.find((o) => o.cell === cell && o.type === 'brain') : undefined;
  if (!brain) return { sheet, message: `${cell} has no brain to fill in.` };
  const organs = sheet.worms[wi]!.organs!.map((o) => (o === brain ? (o.filled ? { type: o.type, cell: o.cell } : { ...o, filled: true }) : o));
  return { sheet: { ...sheet, worms: sheet.worms.map((w, i) => (i === wi ? { ...w, organs } : w)) } };
}

/** Erases what is at a cell: an organ first, else a food, else the worm. */
export function eraseAt(sheet: EditorSheet, cell: string): Edit {
  const wi = wormIndexAt(sheet, cell);
  if (wi >= 0) {
    const w = sheet.worms[wi]!;
    if ((w.organs ?? []).some((o) => o.cell === cell)) {
      const organs = w.organs!.filter((o) => o.cell !== cell);
      const rest: SheetWorm = organs.length ? { ...w, organs } : { cells: w.cells, ...(w.shape ? { shape: w.shape } : {}) };
      return { sheet: { ...sheet, worms: sheet.worms.map((x, i) => (i === wi ? rest : x)) } };
    }
    return { sheet: { ...sheet, worms: sheet.worms.filter((_, i) => i !== wi) } };
  }
  if (sheet.foods.includes(cell)) return { sheet: { ...sheet, foods: sheet.foods.filter((f) => f !== cell) } };
  return { sheet, message: `Nothing to erase at ${cell}.` };
}

/** Sets the original shape of worm `index` (a grown worm whose shape the drawing cannot tell). */
export function setShape(sheet: EditorSheet, index: number, shape: ShapeName | null): EditorSheet {
  return {
    ...sheet,
    worms: sheet.worms.map((w, i) => {
      if (i !== index) return w;
      const { shape: _old, ...rest } = w;
      return shape ? { ...rest, shape } : rest;
    }),
  };
}

export function toSheetJson(sheet: EditorSheet): SheetJson {
  return { chapter: sheet.chapter, worms: sheet.worms, foods: sheet.foods };
}

/** Reads a sheet file back into the editor (the chapter must be a bundled one, by id). */
export function fromSheetJson(json: SheetJson): EditorSheet | null {
  if (typeof json.chapter !== 'string') return null;
  return { chapter: json.chapter, worms: json.worms.map((w) => ({ ...w })), foods: [...(json.foods ?? [])] };
}

/** The cells a validation message names (to mark them on the grid); examples in "(like …)" are not cells. */
export function cellsInMessages(messages: readonly string[], g: Geometry): Set<string> {
  const out = new Set<string>();
  for (const m of messages) {
    const text = m.replace(/\(like [^)]*\)/g, '');
    for (const hit of text.matchAll(/\b([A-Z])(\d{1,2})\b/g)) {
      const name = `${hit[1]}${hit[2]}`;
      if (cellIndex(g, name) >= 0) out.add(name);
    }
  }
  return out;
}
