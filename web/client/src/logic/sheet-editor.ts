/**
 * The "score a sheet" editor as pure data: a finished paper sheet copied onto the phone worm by
 * worm (a path dragged across cells), organ by organ and food by food, kept in the sheet file's
 * own format (shared/games/worm-and-cozy/sheet.ts) so the engine validates and scores it exactly
 * as `npm run score` does. Which way an organ may face (and whether the worm turns round for it)
 * is whatever `validateSheet` accepts, the engine's `organSpots` choosing among them first; a
 * worm's shape from `shapeOfCells`.
 */
import { DIRS, cellIndex, geometry, getChapter, organSpots, shapeOfCells, type Dir, type Geometry, type Organ, type OrganType, type ShapeName, type Worm } from '../../../../shared/games/worm-and-cozy/index.js';
import { dirBetween, parseCellName } from '../../../../shared/games/worm-and-cozy/board.js';
import { validateSheet, type SheetJson, type SheetOrgan, type SheetWorm } from '../../../../shared/games/worm-and-cozy/sheet.js';

export interface EditorSheet {
  chapter: string;
  worms: SheetWorm[];
  foods: string[];
}

/** `message`: something is wrong or refused; `note`: a plain word on what was done and what else could be. */
export type Edit = { sheet: EditorSheet; message?: string; note?: string };

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

/** The original shapes a drawn worm may have: its 5 cells', or those of any 5 in a row along a grown worm (distinct, in order along it). */
export function shapesOfPath(g: Geometry, cells: readonly string[]): ShapeName[] {
  const idx = cells.map((c) => cellIndex(g, c));
  const out: ShapeName[] = [];
  if (idx.some((i) => i < 0)) return out;
  for (let i = 0; i + 5 <= idx.length; i++) {
    const s = shapeOfCells(g, idx.slice(i, i + 5));
    if (s && !out.includes(s)) out.push(s);
  }
  return out;
}

/** The original shape of a worm: its 5 cells, or the first 5 in a row along a grown worm that form one. */
export function shapeOfPath(g: Geometry, cells: readonly string[]): ShapeName | null {
  return shapesOfPath(g, cells)[0] ?? null;
}

/** Adds a drawn worm: 5 cells take their shape, fewer are a baby; a longer worm grew from its shape. */
export function addWorm(sheet: EditorSheet, cells: readonly string[]): Edit {
  if (cells.length < 2) return { sheet, message: 'Drag across at least 2 cells to draw a worm.' };
  const g = geo(sheet);
  const shapes = shapesOfPath(g, cells);
  const shape = shapes[0] ?? null;
  const worm: SheetWorm = shape ? { cells: [...cells], shape } : { cells: [...cells] };
  const next = { ...sheet, worms: [...sheet.worms, worm] };
  const message =
    cells.length === 5 && !shape
      ? 'These 5 cells are not one of the six worm shapes (I, L, U, V, W, Z); it is kept as drawn.'
      : cells.length > 5 && !shape
        ? 'No 5 cells in a row along this worm form a worm shape; choose its shape below.'
        : undefined;
  if (message) return { sheet: next, message };
  // The drawing cannot tell which of several shapes along a grown worm it grew from (it can change
  // the score): the first is taken and the player is told, to choose another below.
  if (shapes.length > 1) return { sheet: next, note: `Worm ${next.worms.length} could have grown from ${shapes.join(' or ')}: ${shape} was taken; choose below if it grew from another.` };
  return { sheet: next };
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

/** The organ put on worm `w`, at place `at` of its organs, the worm turned round or not. */
function withOrgan(w: SheetWorm, organ: SheetOrgan, at: number, reverse: boolean): SheetWorm {
  const organs = [...(w.organs ?? [])];
  organs.splice(at, 0, organ);
  return { ...w, cells: reverse ? [...w.cells].reverse() : [...w.cells], organs };
}

/** What validation says about this worm alone (other worms' problems are not its organ's). */
function wormErrors(chapter: string, w: SheetWorm): string[] {
  const v = validateSheet({ chapter, worms: [w], foods: [] });
  return v.ok ? [] : v.errors;
}

/**
 * Every way an organ of `type` at `cell` may go on worm `w` (which lacks it) that `validateSheet`
 * accepts: each facing, and the worm turned round where its other organs allow. An organ is
 * accepted when it adds no problem to the worm's own. Eyes and mouths on a grown worm may face
 * either way forward at a bend, and a worm with no front yet may run either way, so a cell can
 * have several; the engine's `organSpots` spot (a fresh worm's one way) comes first.
 */
export function organChoices(sheet: EditorSheet, w: SheetWorm, type: OrganType, cell: string, at = (w.organs ?? []).length): SheetWorm[] {
  const g = geo(sheet);
  const before = new Set(wormErrors(sheet.chapter, w));
  const facesAWay = type === 'eye' || type === 'mouth' || type === 'tail';
  const out: SheetWorm[] = [];
  for (const reverse of facesAWay ? [false, true] : [false]) {
    const cells = reverse ? [...w.cells].reverse() : w.cells;
    const i = cells.indexOf(cell);
    // Forward along the worm first (the way validation names), then the rest.
    const along = [cells[i + 1], cells[i - 1]].map((n, k) => (n ? (k === 0 ? dirBetween(g, cellIndex(g, n), cellIndex(g, cell)) : dirBetween(g, cellIndex(g, cell), cellIndex(g, n))) : null));
    const facings: (Dir | undefined)[] = facesAWay ? [...new Set([...along.filter((d): d is Dir => !!d), ...DIRS])] : [undefined];
    for (const facing of facings) {
      const organ: SheetOrgan = facing ? { type, cell, facing } : { type, cell };
      const choice = withOrgan(w, organ, at, reverse);
      if (wormErrors(sheet.chapter, choice).every((e) => before.has(e))) out.push(choice);
    }
  }
  const spot = organSpots(g, engineWorm(g, w, 1), type).find((s) => s.cell === cellIndex(g, cell));
  const first = spot ? out.findIndex((c) => c.cells[0] === (spot.reverse ? w.cells[w.cells.length - 1] : w.cells[0]) && c.organs![at]!.facing === spot.facing) : -1;
  if (first > 0) out.unshift(...out.splice(first, 1));
  return out;
}

const organWord = (type: OrganType) => (type === 'eye' ? 'an eye' : `a ${type}`);

/**
 * Adds an organ where the finger tapped, in the first way validation accepts (the engine's own spot
 * when there is one; the worm turns round if that end becomes its front or rear). A second tap with
 * the same organ on it turns it to the next accepted way, through all of them. Where the rules
 * allow it nowhere, it is added as drawn and the validation says what is wrong with it.
 */
export function addOrgan(sheet: EditorSheet, type: OrganType, cell: string): Edit {
  const wi = wormIndexAt(sheet, cell);
  if (wi < 0) return { sheet, message: `${cell} is not on a worm: organs go on worms.` };
  const g = geo(sheet);
  const w = sheet.worms[wi]!;
  const put = (worm: SheetWorm): EditorSheet => ({ ...sheet, worms: sheet.worms.map((x, i) => (i === wi ? worm : x)) });
  const at = (w.organs ?? []).findIndex((o) => o.cell === cell);
  if (at >= 0) {
    const here = w.organs![at]!;
    if (here.type !== type || !here.facing) return { sheet, message: `${cell} already has an organ: erase it first.` };
    const bare: SheetWorm = { ...w, organs: w.organs!.filter((_, i) => i !== at) };
    // A fixed order, whichever way the worm runs now, so that tapping on goes through every choice.
    const key = (c: SheetWorm) => `${c.cells.join(',')}|${c.organs![at]!.facing}`;
    const choices = organChoices(sheet, bare, type, cell, at).sort((a, b) => (key(a) < key(b) ? -1 : 1));
    if (choices.length === 0) return { sheet, message: `The ${type} at ${cell} cannot go here by the rules whichever way it faces; it is kept as drawn and marked.` };
    const now = choices.findIndex((c) => key(c) === key(w));
    if (now >= 0 && choices.length === 1) return { sheet, note: `The ${type} at ${cell} can face only ${here.facing} here.` };
    const next = choices[(now + 1) % choices.length]!;
    const turned = next.cells[0] !== w.cells[0] ? `; the worm's front is now at ${next.cells[0]}` : '';
    return { sheet: put(next), note: `The ${type} at ${cell} now faces ${next.organs![at]!.facing}${turned}.` };
  }
  const choices = organChoices(sheet, w, type, cell);
  if (choices.length) return choices.length > 1 ? { sheet: put(choices[0]!), note: `Tap the ${type} again to turn it: ${choices.length} ways are allowed here.` } : { sheet: put(choices[0]!) };
  // Allowed nowhere: keep what the paper shows, facing along the worm, for the validation to judge.
  let facing: Dir | undefined;
  if (type === 'eye' || type === 'mouth' || type === 'tail') {
    const i = w.cells.indexOf(cell);
    const next = w.cells[i + 1] ?? w.cells[i - 1];
    facing = (next ? dirBetween(g, cellIndex(g, next), cellIndex(g, cell)) : null) ?? 'N';
  }
  const organ: SheetOrgan = facing ? { type, cell, facing } : { type, cell };
  return { sheet: put(withOrgan(w, organ, (w.organs ?? []).length, false)), message: `That is not where ${type === 'eye' || type === 'mouth' ? `${type}s go` : `${organWord(type)} goes`} in the rules; it is kept as drawn and marked.` };
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
