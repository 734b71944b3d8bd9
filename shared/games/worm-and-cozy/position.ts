/**
 * One player's position this hour, as the rules code reads it: the sheet, the board geometry, this
 * hour's region and an occupancy grid. `borrowDraft()` makes the copy-on-write working copy that a
 * move mutates; the state it came from is never touched, so a rejected move leaves it as it was.
 */
import { geometry, type Geometry } from './board.js';
import { hourRegionIndex } from './chapters.js';
import type { CozyState, PlayerSheet, Worm } from './state.js';

/** Occupancy codes: 0 blank, ROCK, FOOD, or a worm id > 0. The draft's grid is its own (built fresh). */
export const ROCK = -1;
export const FOOD = -2;

/** A player's position without the occupancy grid: all that listing options A, B and C reads. */
export interface Place {
  geo: Geometry;
  hour: number;
  /** 1 where the cell is in this hour's region. */
  region: Uint8Array;
  /** The index of this hour's region in the chapter's clock. */
  regionIndex: number;
  sheet: PlayerSheet;
}

export interface Position extends Place {
  occ: Int16Array;
}

export interface Draft extends Position {
  /** Worm ids already copied in this draft (safe to mutate). */
  copied: number[];
  /** Which of the sheet's arrays are this draft's own copies; the others still belong to the state. */
  ownWorms: boolean;
  ownFoods: boolean;
  ownActed: boolean;
}

/**
 * The occupancy grid of a sheet. Rebuilding it (a copy of the rocks and a write per food and worm
 * cell) is cheaper than caching it per sheet object in a WeakMap, measured on the random-game bench.
 */
export function occupancyOf(geo: Geometry, sheet: PlayerSheet): Int16Array {
  const occ = geo.blank.slice();
  drawSheet(sheet, occ);
  return occ;
}

/** Draws the sheet's foods and worms on a grid that shows only the rocks. */
function drawSheet(sheet: PlayerSheet, occ: Int16Array): void {
  const foods = sheet.foods;
  for (let i = 0; i < foods.length; i++) occ[foods[i]!] = FOOD;
  const worms = sheet.worms;
  for (let i = 0; i < worms.length; i++) {
    const w = worms[i]!;
    const cells = w.cells;
    for (let j = 0; j < cells.length; j++) occ[cells[j]!] = w.id;
  }
}

export function position(state: CozyState, playerIndex: number): Position {
  const geo = geometry(state.chapter);
  return positionWith(state, playerIndex, geo, occupancyOf(geo, state.sheets[playerIndex]!));
}

/** The position without a grid (no grid to build: the option step lists moves from the sheet alone). */
export function placeOf(state: CozyState, playerIndex: number): Place {
  const geo = geometry(state.chapter);
  const hour = Math.min(state.hour, state.chapter.clock.hours - 1);
  const regionIndex = hourRegionIndex(state.chapter, hour);
  return { geo, hour, region: geo.regionMasks[regionIndex]!, regionIndex, sheet: state.sheets[playerIndex]! };
}

function positionWith(state: CozyState, playerIndex: number, geo: Geometry, occ: Int16Array): Position {
  const hour = Math.min(state.hour, state.chapter.clock.hours - 1);
  const regionIndex = hourRegionIndex(state.chapter, hour);
  return { geo, hour, region: geo.regionMasks[regionIndex]!, regionIndex, sheet: state.sheets[playerIndex]!, occ };
}

/*
 * legalOptions and applyMove need a grid only while they run (it never reaches a result), so they
 * borrow one spare grid instead of allocating one per call: the grids were a third of everything a
 * random game allocated. A borrow while the spare is out (nothing nests today) gets a fresh grid,
 * and a grid that is never given back is simply collected, so a slip costs speed, never correctness.
 */
let spareGrid: Int16Array | null = null;

/** `position()` on the spare grid; give it back with `releasePosition` once the position is unused. */
export function borrowPosition(state: CozyState, playerIndex: number): Position {
  const geo = geometry(state.chapter);
  return positionWith(state, playerIndex, geo, borrowGrid(geo, state.sheets[playerIndex]!));
}

/** A draft of the player's position on the spare grid (see `draftSheet`); give it back with `releasePosition`. */
export function borrowDraft(state: CozyState, playerIndex: number): Draft {
  const geo = geometry(state.chapter);
  const s = state.sheets[playerIndex]!;
  const occ = borrowGrid(geo, s);
  const hour = Math.min(state.hour, state.chapter.clock.hours - 1);
  const regionIndex = hourRegionIndex(state.chapter, hour);
  return { geo, hour, region: geo.regionMasks[regionIndex]!, regionIndex, sheet: draftSheet(s), occ, copied: [], ownWorms: false, ownFoods: false, ownActed: false };
}

function borrowGrid(geo: Geometry, sheet: PlayerSheet): Int16Array {
  const grid = spareGrid;
  if (grid === null || grid.length !== geo.size) return occupancyOf(geo, sheet);
  spareGrid = null;
  grid.set(geo.blank);
  drawSheet(sheet, grid);
  return grid;
}

export function releasePosition(pos: Position): void {
  spareGrid = pos.occ;
}

/**
 * A working copy: a new sheet object with its own stack (nearly every move changes it); the worms,
 * foods and acted lists are copied on first write (`writableWorms`...), each worm on its first change
 * (`mutableWorm`). Most moves change one or two of them, and the copies were a good part of a move.
 */
function draftSheet(s: PlayerSheet): PlayerSheet {
  const d = copySheet(s, s.dice, s.credits, s.option, s.acted, s.stack.slice(), s.done);
  if (s.creditsUsed) d.creditsUsed = s.creditsUsed;
  return d;
}

export function writableWorms(d: Draft): Worm[] {
  if (!d.ownWorms) {
    d.sheet.worms = d.sheet.worms.slice();
    d.ownWorms = true;
  }
  return d.sheet.worms;
}

export function writableFoods(d: Draft): number[] {
  if (!d.ownFoods) {
    d.sheet.foods = d.sheet.foods.slice();
    d.ownFoods = true;
  }
  return d.sheet.foods;
}

export function writableActed(d: Draft): number[] {
  if (!d.ownActed) {
    d.sheet.acted = d.sheet.acted.slice();
    d.ownActed = true;
  }
  return d.sheet.acted;
}

/*
 * Explicit copies instead of object spread: V8 takes a slow path for `{ ...x, key: v }` that cost
 * microseconds per move on the random-game bench.
 */
export function copySheet(s: PlayerSheet, dice: PlayerSheet['dice'], credits: number, option: PlayerSheet['option'], acted: number[], stack: PlayerSheet['stack'], done: boolean): PlayerSheet {
  return { worms: s.worms, foods: s.foods, dice, credits, option, acted, stack, done };
}

export function copyState(s: CozyState, hour: number, phase: CozyState['phase'], roll: CozyState['roll'], sheets: PlayerSheet[]): CozyState {
  return { game: s.game, v: s.v, chapter: s.chapter, dice: s.dice, players: s.players, hour, phase, roll, sheets };
}

export function wormById(pos: Place, id: number): Worm | undefined {
  return pos.sheet.worms[id - 1];
}

/** The worm on a cell, if any. */
export function wormAt(pos: Position, cell: number): Worm | undefined {
  const o = pos.occ[cell]!;
  return o > 0 ? pos.sheet.worms[o - 1] : undefined;
}

/** A mutable copy of worm `id` inside the draft. */
export function mutableWorm(d: Draft, id: number): Worm {
  const w = d.sheet.worms[id - 1]!;
  if (d.copied.includes(id)) return w;
  const copy: Worm = { id: w.id, cells: w.cells.slice(), front: w.front, shape: w.shape, organs: w.organs.slice(), ext: w.ext };
  if (w.parents) copy.parents = [w.parents[0], w.parents[1]];
  if (w.born !== undefined) copy.born = w.born;
  writableWorms(d)[id - 1] = copy;
  d.copied.push(id);
  return copy;
}

export function isBlank(pos: Position, cell: number): boolean {
  return pos.occ[cell] === 0;
}

export function touchesRegion(pos: Place, worm: Worm): boolean {
  for (const c of worm.cells) if (pos.region[c]) return true;
  return false;
}

export function hasActed(pos: Position, cell: number): boolean {
  return pos.sheet.acted.includes(cell);
}
