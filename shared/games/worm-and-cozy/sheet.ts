/**
 * The sheet file: a finished (or in-progress) paper sheet as JSON, used by the phone editor, the
 * photo reader and `npm run score`. The minimal form is always accepted:
 *
 * ```json
 * {"chapter": "clew-1",
 *  "worms": [{"cells": ["B2", "B3", "B4", "C4", "D4"], "shape": "L",
 *             "organs": [{"type": "eye", "cell": "B2", "facing": "N"},
 *                        {"type": "brain", "cell": "C4", "filled": true}]}],
 *  "foods": ["E5"]}
 * ```
 *
 * Cells run from the front end to the rear end when the worm has a front (an eye, mouth or tail);
 * `facing` is N, E, S or W; `shape` is absent for babies. Validation reports one message per
 * problem, naming the worm (1-based, in file order) and the cell.
 */
import { z } from 'zod';
import { cellName, describeBoard, dirBetween, geometry, parseCellName, type Geometry } from './board.js';
import { loadChapter, parseChapter, type Chapter, type ChapterResult } from './chapters.js';
import { drawnWormProblems, SHAPE_CELLS } from './drawn.js';
import { scoreBoard, type CozyScore } from './scoring.js';
import { shapeOfCells } from './shapes.js';
import { DIRS, ORGAN_TYPES, SHAPE_NAMES, type CozyState, type Dir, type Organ, type OrganType, type ShapeName, type Worm } from './state.js';
import { boardView } from './view.js';

const organSchema = z
  .object({
    type: z.enum(ORGAN_TYPES as [OrganType, ...OrganType[]]),
    cell: z.string(),
    facing: z.enum(DIRS as [Dir, ...Dir[]]).optional(),
    filled: z.boolean().optional(),
  })
  .strict();

const wormSchema = z
  .object({
    cells: z.array(z.string()).min(1).max(400),
    shape: z.enum(SHAPE_NAMES as [ShapeName, ...ShapeName[]]).optional(),
    organs: z.array(organSchema).max(400).optional(),
  })
  .strict();

export const sheetSchema = z
  .object({
    /** A bundled chapter id, or a whole chapter object. */
    chapter: z.union([z.string().min(1).max(40), z.record(z.string(), z.unknown())]),
    worms: z.array(wormSchema).max(200),
    foods: z.array(z.string()).max(400).optional(),
    /** Optional: whose sheet it is. */
    player: z.string().max(64).optional(),
  })
  .strict();

export type SheetJson = z.infer<typeof sheetSchema>;
export type SheetWorm = z.infer<typeof wormSchema>;
export type SheetOrgan = z.infer<typeof organSchema>;

/** A valid sheet, read into engine terms (cell indices, worm ids 1..n in file order). */
export interface ValidSheet {
  sheet: SheetJson;
  chapter: Chapter;
  geo: Geometry;
  worms: Worm[];
  foods: number[];
  /**
   * Doubts that do not stop scoring: a named shape its cells do not form. (The issue's own minimal
   * example names an L on cells that form a V, and that file must always be accepted.)
   */
  warnings: string[];
}

export type SheetResult = { ok: true; value: ValidSheet } | { ok: false; errors: string[] };

function zodPath(path: readonly PropertyKey[]): string {
  const out: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const k = path[i];
    const next = path[i + 1];
    if (k === 'worms' && typeof next === 'number') {
      out.push(`worm ${next + 1}`);
      i++;
    } else if (k === 'organs' && typeof next === 'number') {
      out.push(`organ ${next + 1}`);
      i++;
    } else if (k === 'cells' && typeof next === 'number') {
      out.push(`cell ${next + 1}`);
      i++;
    } else if (k === 'foods' && typeof next === 'number') {
      out.push(`food ${next + 1}`);
      i++;
    } else out.push(String(k));
  }
  return out.length ? out.join(', ') : 'the sheet';
}

function chapterOf(chapter: SheetJson['chapter']): ChapterResult {
  return typeof chapter === 'string' ? loadChapter(chapter) : parseChapter(chapter, 'chapter');
}

/** Validates a sheet: every problem, one message each. */
export function validateSheet(json: unknown): SheetResult {
  const parsed = sheetSchema.safeParse(json);
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => `${zodPath(i.path)}: ${i.message}`);
    // The rest of the file being malformed does not hide an unknown or bad chapter: one more problem.
    const chapter = sheetSchema.shape.chapter.safeParse((json as { chapter?: unknown } | null)?.chapter);
    if (chapter.success) {
      const cr = chapterOf(chapter.data);
      if (!cr.ok) errors.unshift(...cr.errors);
    }
    return { ok: false, errors };
  }
  const sheet = parsed.data;
  const cr = chapterOf(sheet.chapter);
  if (!cr.ok) return { ok: false, errors: cr.errors };
  const chapter = cr.chapter;
  const geo = geometry(chapter);
  const errors: string[] = [];
  const warnings: string[] = [];
  const owner = new Map<number, number>();
  const worms: Worm[] = [];
  const cellOf = (name: string, where: string): number => {
    const p = parseCellName(name);
    if (!p) {
      // Quoted at most 16 characters: a refusal echoes no megabyte of what was sent.
      errors.push(`${where}: "${name.length > 16 ? `${name.slice(0, 16)}…` : name}" is not a cell name (like "C7")`);
      return -1;
    }
    if (p[0] >= geo.width || p[1] >= geo.height || p[0] < 0 || p[1] < 0) {
      errors.push(`${where}: cell ${name} is off the board (${describeBoard(geo)})`);
      return -1;
    }
    return p[1] * geo.width + p[0];
  };
  sheet.worms.forEach((sw, i) => {
    const id = i + 1;
    const label = `worm ${id}`;
    const cells: number[] = [];
    let ok = true;
    const seen = new Set<number>();
    for (const name of sw.cells) {
      const c = cellOf(name, label);
      if (c < 0) {
        ok = false;
        continue;
      }
      if (seen.has(c)) {
        errors.push(`${label} is not a path: it visits ${name} twice`);
        ok = false;
        continue;
      }
      seen.add(c);
      cells.push(c);
      if (geo.rock[c]) errors.push(`${label} lies on the rock at ${name}`);
      const other = owner.get(c);
      if (other !== undefined) errors.push(`worm ${id} and worm ${other} overlap at ${name}`);
      else owner.set(c, id);
    }
    if (!ok) return;
    for (let k = 1; k < cells.length; k++) {
      if (!dirBetween(geo, cells[k - 1]!, cells[k]!)) {
        errors.push(`${label} is not a path: ${cellName(geo, cells[k - 1]!)} and ${cellName(geo, cells[k]!)} do not touch`);
        ok = false;
      }
    }
    const shape = sw.shape ?? null;
    if (shape === null && cells.length < 2) errors.push(`${label}: a baby has at least 2 cells`);
    // A shape on fewer than 5 cells is an error (drawnWormProblems below); one its cells do not form, a doubt.
    if (shape !== null && ok) {
      if (cells.length === SHAPE_CELLS && shapeOfCells(geo, cells) !== shape) {
        const got = shapeOfCells(geo, cells);
        warnings.push(`${label}: its cells form ${got ? `a ${got}` : 'no worm shape'}, not the ${shape} it names`);
      } else if (cells.length > SHAPE_CELLS && !windows(cells).some((w) => shapeOfCells(geo, w) === shape)) {
        warnings.push(`${label}: no 5 cells in a row along it form its original shape ${shape}`);
      }
    }
    const organs: Organ[] = [];
    const organCells = new Set<number>();
    for (const so of sw.organs ?? []) {
      const c = cellOf(so.cell, `${label}, ${so.type}`);
      if (c < 0) continue;
      const at = `the ${so.type} at ${so.cell}`;
      const idx = cells.indexOf(c);
      if (idx < 0) {
        errors.push(`${label}: ${at} is not on the worm`);
        continue;
      }
      if (organCells.has(c)) errors.push(`${label}: two organs on ${so.cell} (one organ per cell)`);
      organCells.add(c);
      if (so.filled !== undefined && so.type !== 'brain') errors.push(`${label}: only a brain can be filled in, not ${at}`);
      if (so.type === 'eye' || so.type === 'mouth' || so.type === 'tail') {
        if (!so.facing) errors.push(`${label}: ${at} needs a facing (N, E, S or W)`);
      } else if (so.facing) errors.push(`${label}: ${at} has a facing, but only eyes, mouths and tails face a way`);
      const organ: Organ = { type: so.type, cell: c };
      if (so.facing) organ.facing = so.facing;
      if (so.filled) organ.filled = true;
      organs.push(organ);
    }
    // Where the organs sit and face: the rules the board notation checks too.
    if (ok) errors.push(...drawnWormProblems(geo, { cells, shape, organs }, label));
    const front = organs.some((o) => o.type === 'eye' || o.type === 'mouth' || o.type === 'tail');
    worms.push({ id, cells, front, shape, organs, ext: 0 });
  });
  const foods: number[] = [];
  const foodSeen = new Set<number>();
  for (const name of sheet.foods ?? []) {
    const c = cellOf(name, 'food');
    if (c < 0) continue;
    if (foodSeen.has(c)) errors.push(`food at ${name} is listed twice`);
    else if (geo.rock[c]) errors.push(`food at ${name} is on a rock`);
    else if (owner.has(c)) errors.push(`food at ${name} is on worm ${owner.get(c)}`);
    foodSeen.add(c);
    foods.push(c);
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: { sheet, chapter, geo, worms, foods, warnings } };
}

function windows(cells: number[]): number[][] {
  const out: number[][] = [];
  for (let i = 0; i + 5 <= cells.length; i++) out.push(cells.slice(i, i + 5));
  return out;
}

export type SheetScoreResult = { ok: true; score: CozyScore; warnings: string[] } | { ok: false; errors: string[] };

/** Validates and scores a sheet. */
export function scoreSheet(json: unknown): SheetScoreResult {
  const r = validateSheet(json);
  if (!r.ok) return r;
  return { ok: true, score: scoreBoard(r.value.chapter, boardView(r.value.chapter, r.value)), warnings: r.value.warnings };
}

/** A player's sheet in the engine's state, written as a sheet file (bundled chapters by id). */
export function sheetFromState(state: CozyState, player: string): SheetJson {
  const i = state.players.findIndex((p) => p.id === player);
  if (i < 0) throw new Error(`no player "${player}"`);
  return sheetFromBoard(state.chapter, state.sheets[i]!.worms, state.sheets[i]!.foods, player);
}

export function sheetFromBoard(chapter: Chapter, worms: readonly Worm[], foods: readonly number[], player?: string): SheetJson {
  const geo = geometry(chapter);
  const name = (c: number) => cellName(geo, c);
  const loaded = loadChapter(chapter.id);
  const sameAsBundled = loaded.ok && (loaded.chapter === chapter || JSON.stringify(loaded.chapter) === JSON.stringify(chapter));
  const out: SheetJson = {
    chapter: sameAsBundled ? chapter.id : (chapter as unknown as Record<string, unknown>),
    worms: worms.map((w) => {
      const sw: SheetWorm = { cells: w.cells.map(name) };
      if (w.shape) sw.shape = w.shape;
      if (w.organs.length)
        sw.organs = w.organs.map((o) => {
          const so: SheetOrgan = { type: o.type, cell: name(o.cell) };
          if (o.facing) so.facing = o.facing;
          if (o.filled) so.filled = true;
          return so;
        });
      return sw;
    }),
    foods: foods.map(name),
  };
  if (player !== undefined) out.player = player;
  return out;
}
