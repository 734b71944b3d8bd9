/**
 * One player's position this hour, as the rules code reads it: the sheet, the board geometry, this
 * hour's region and an occupancy grid. `draft()` makes a copy-on-write working copy that a move
 * mutates; the state it came from is never touched, so a rejected move leaves it as it was.
 */
import { geometry, type Geometry } from './board.js';
import { hourRegionIndex } from './chapters.js';
import type { CozyState, PlayerSheet, Worm } from './state.js';

/** Occupancy codes: 0 blank, ROCK, FOOD, or a worm id > 0. The draft's grid is its own (built fresh). */
export const ROCK = -1;
export const FOOD = -2;

export interface Position {
  geo: Geometry;
  hour: number;
  /** 1 where the cell is in this hour's region. */
  region: Uint8Array;
  /** The index of this hour's region in the chapter's clock. */
  regionIndex: number;
  sheet: PlayerSheet;
  occ: number[];
}

export interface Draft extends Position {
  /** Worm ids already copied in this draft (safe to mutate). */
  copied: number[];
}

/**
 * The occupancy grid of a sheet. Rebuilding it (about a hundred writes) is cheaper than caching it
 * per sheet object in a WeakMap, measured on the random-game bench.
 */
export function occupancyOf(geo: Geometry, sheet: PlayerSheet): number[] {
  const occ = geo.blank.slice();
  const foods = sheet.foods;
  for (let i = 0; i < foods.length; i++) occ[foods[i]!] = FOOD;
  const worms = sheet.worms;
  for (let i = 0; i < worms.length; i++) {
    const w = worms[i]!;
    const cells = w.cells;
    for (let j = 0; j < cells.length; j++) occ[cells[j]!] = w.id;
  }
  return occ;
}

export function position(state: CozyState, playerIndex: number): Position {
  const geo = geometry(state.chapter);
  const sheet = state.sheets[playerIndex]!;
  const hour = Math.min(state.hour, state.chapter.clock.hours - 1);
  const regionIndex = hourRegionIndex(state.chapter, hour);
  return { geo, hour, region: geo.regionMasks[regionIndex]!, regionIndex, sheet, occ: occupancyOf(geo, sheet) };
}

/** A working copy: the sheet and its arrays are shallow copies; worms are copied on first write. */
export function draft(pos: Position): Draft {
  const s = pos.sheet;
  const sheet = copySheet(s, s.dice, s.credits, s.option, s.acted.slice(), s.stack.slice(), s.done);
  sheet.worms = s.worms.slice();
  sheet.foods = s.foods.slice();
  return { geo: pos.geo, hour: pos.hour, region: pos.region, regionIndex: pos.regionIndex, sheet, occ: pos.occ, copied: [] };
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

export function wormById(pos: Position, id: number): Worm | undefined {
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
  d.sheet.worms[id - 1] = copy;
  d.copied.push(id);
  return copy;
}

export function isBlank(pos: Position, cell: number): boolean {
  return pos.occ[cell] === 0;
}

export function touchesRegion(pos: Position, worm: Worm): boolean {
  for (const c of worm.cells) if (pos.region[c]) return true;
  return false;
}

export function hasActed(pos: Position, cell: number): boolean {
  return pos.sheet.acted.includes(cell);
}
