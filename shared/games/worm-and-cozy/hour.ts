/**
 * The hour: the table's roll, each player's brain die changes, then exactly one of options A, B, C
 * (or nothing), and the end of the hour. Only the option's worm must touch this hour's region;
 * worms reached by chain reactions need not. At 1 AM there are no worms yet, so only option A.
 */
import { placementsOf } from './shapes.js';
import { copySheet, touchesRegion, type Position } from './position.js';
import type { OrganType, PlayerSheet, Roll, ShapeName, Worm } from './state.js';
import { hasOrgan } from './worms.js';

/** Can this player still change dice or choose an option (not started an option, not done)? */
export function atOptionStep(sheet: PlayerSheet): boolean {
  return !sheet.done && sheet.option === null && sheet.stack.length === 0 && sheet.dice !== null;
}

/**
 * Option A: writes `items[k]` for every free placement k of `shape` that touches the region into
 * `out` from index `n` on, and returns the index after the last (`items` is indexed like the
 * placements: the option-A moves made once per board and player). The scan tests row bitmasks, five
 * ANDs per placement and no branch per cell: it runs on every option step, over hundreds of placements.
 */
export function freePlacements<T>(pos: Position, shape: ShapeName, items: readonly T[], out: T[], n: number): number {
  const p = placementsOf(pos.geo)[shape];
  const ks = p.byRegion[pos.regionIndex]!;
  const bits = drawnRows(pos);
  const top = p.top;
  const masks = p.rowBits;
  for (let j = 0; j < ks.length; j++) {
    const k = ks[j]!;
    const y = top[k]!;
    const m = k * 5;
    if (((bits[y]! & masks[m]!) | (bits[y + 1]! & masks[m + 1]!) | (bits[y + 2]! & masks[m + 2]!) | (bits[y + 3]! & masks[m + 3]!) | (bits[y + 4]! & masks[m + 4]!)) === 0) out[n++] = items[k]!;
  }
  return n;
}

/** Scratch rows for `drawnRows` (the scan never nests, so one buffer serves every call). */
let rows = new Int32Array(0);

/** Every drawn cell (rock, food, worm) as row bitmasks, with the 5 padding rows empty. */
function drawnRows(pos: Position): Int32Array {
  const g = pos.geo;
  if (rows.length !== g.rockRows.length) rows = new Int32Array(g.rockRows.length);
  rows.set(g.rockRows);
  const rowOf = g.rowOf;
  const colBit = g.colBit;
  const foods = pos.sheet.foods;
  for (let i = 0; i < foods.length; i++) {
    const c = foods[i]!;
    rows[rowOf[c]!] = rows[rowOf[c]!]! | colBit[c]!;
  }
  const worms = pos.sheet.worms;
  for (let i = 0; i < worms.length; i++) {
    const cells = worms[i]!.cells;
    for (let j = 0; j < cells.length; j++) {
      const c = cells[j]!;
      rows[rowOf[c]!] = rows[rowOf[c]!]! | colBit[c]!;
    }
  }
  return rows;
}

/** The rolled organs that option B may add to this worm: it has the other organ rolled, or the rolled shape. */
export function optionBOrgans(roll: Roll, worm: Worm): OrganType[] {
  const [x, y] = roll.organs;
  const shapeMatch = worm.shape !== null && worm.shape === roll.shape;
  const out: OrganType[] = [];
  if (shapeMatch || hasOrgan(worm, y)) out.push(x);
  if (y !== x && (shapeMatch || hasOrgan(worm, x))) out.push(y);
  return out;
}

/** Option C: the worm has either organ rolled, or the rolled shape. */
export function optionCAllows(roll: Roll, worm: Worm): boolean {
  return (worm.shape !== null && worm.shape === roll.shape) || hasOrgan(worm, roll.organs[0]) || hasOrgan(worm, roll.organs[1]);
}

/** Why option B or C may not use this worm now (region or first hour), or null. */
export function optionWormProblem(pos: Position, worm: Worm): string | null {
  if (pos.hour === 0) return 'at 1 AM the only option is to place a new worm';
  if (!touchesRegion(pos, worm)) return `worm ${worm.id} has no cell in this hour's region`;
  return null;
}

/** Unfilled brains on worms touching the region: each may be filled now for one die change. */
export function fillableBrains(pos: Position): number[] {
  const out: number[] = [];
  for (const w of pos.sheet.worms) {
    if (!touchesRegion(pos, w)) continue;
    for (const o of w.organs) if (o.type === 'brain' && !o.filled) out.push(o.cell);
  }
  return out;
}

/** Brains that acted this hour (unfilled): the die changes their owner gets next hour. */
export function brainCredits(sheet: PlayerSheet): number {
  let n = 0;
  for (const w of sheet.worms) for (const o of w.organs) if (o.type === 'brain' && !o.filled && sheet.acted.includes(o.cell)) n++;
  return n;
}

/** A new hour's sheet: the roll copied as the player's own dice, nothing acted yet. */
export function startHourSheet(sheet: PlayerSheet, roll: Roll): PlayerSheet {
  return copySheet(sheet, { shape: roll.shape, organs: [roll.organs[0], roll.organs[1]] }, sheet.credits, null, [], [], false);
}

/** The end of the hour: what was left undecided is dropped; acted brains become next hour's changes. */
export function endHourSheet(sheet: PlayerSheet): PlayerSheet {
  return copySheet(sheet, null, brainCredits(sheet), null, [], [], false);
}
