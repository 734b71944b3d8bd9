/**
 * The hour: the table's roll, each player's brain die changes, then exactly one of options A, B, C
 * (or nothing), and the end of the hour. Only the option's worm must touch this hour's region;
 * worms reached by chain reactions need not. At 1 AM there are no worms yet, so only option A.
 */
import { placementsOf } from './shapes.js';
import { copySheet, touchesRegion, type Place } from './position.js';
import type { OrganType, Pending, PlayerSheet, Roll, ShapeName, Worm } from './state.js';

/** Option A's organ, while the player still owes it: the one decision that cannot be passed. */
export function mustOrgan(sheet: PlayerSheet): Pending | undefined {
  for (const f of sheet.stack) if (f.k === 'organ' && f.must) return f;
  return undefined;
}

/** Can this player still change dice or choose an option (not started an option, not done)? */
export function atOptionStep(sheet: PlayerSheet): boolean {
  return !sheet.done && sheet.option === null && sheet.stack.length === 0 && sheet.dice !== null;
}

/**
 * Option A: writes `items[k]` for every free placement k of `shape` that touches the region into
 * `out` from index `n` on, and returns the index after the last (`items` is indexed like the
 * placements: the option-A moves made once per board and player). It runs on every option step
 * over hundreds of placements, so it tests bitmasks: on a 10-column board a placement is two masks
 * over windows of three rows, and it is free when neither meets a drawn cell.
 */
export function freePlacements<T>(pos: Place, shape: ShapeName, items: readonly T[], out: T[], n: number): number {
  const p = placementsOf(pos.geo)[shape];
  const scan = p.scan[pos.regionIndex]!;
  const R = p.scanRows;
  const b = drawnWindows(pos, R);
  // One loop per record size (a loop over the words would cost more than the test itself).
  if (p.scanWords <= 2) {
    for (let r = 0; r < scan.length; r += 4) {
      const y = scan[r + 1]!;
      if (((b[y]! & scan[r + 2]!) | (b[y + R]! & scan[r + 3]!)) === 0) out[n++] = items[scan[r]!]!;
    }
  } else if (p.scanWords === 3) {
    for (let r = 0; r < scan.length; r += 5) {
      const y = scan[r + 1]!;
      if (((b[y]! & scan[r + 2]!) | (b[y + 2]! & scan[r + 3]!) | (b[y + 4]! & scan[r + 4]!)) === 0) out[n++] = items[scan[r]!]!;
    }
  } else {
    for (let r = 0; r < scan.length; r += 7) {
      const y = scan[r + 1]!;
      if (((b[y]! & scan[r + 2]!) | (b[y + 1]! & scan[r + 3]!) | (b[y + 2]! & scan[r + 4]!) | (b[y + 3]! & scan[r + 5]!) | (b[y + 4]! & scan[r + 6]!)) === 0) out[n++] = items[scan[r]!]!;
    }
  }
  return n;
}

/** Scratch buffers for `drawnWindows` (the scan never nests, so one set serves every call). */
let rows = new Int32Array(0);
let windows = new Int32Array(0);

/**
 * Every drawn cell (rock, food, worm) as windows of `R` rows: word y holds rows y .. y + R − 1
 * (bit r * width + x), for every y a placement's masks may start at, with empty rows past the board.
 */
function drawnWindows(pos: Place, R: number): Int32Array {
  const g = pos.geo;
  const size = g.height + 5;
  if (rows.length < size + R) rows = new Int32Array(size + R);
  if (windows.length < size) windows = new Int32Array(size);
  rows.fill(0);
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
  for (let y = 0; y < size; y++) {
    let w = 0;
    for (let r = 0; r < R; r++) w |= rows[y + r]! << (r * g.width);
    windows[y] = w;
  }
  return windows;
}

/** The organ types on a worm as bits (`ORGAN_BIT`): the option checks read them for every worm. */
export const ORGAN_BIT: Readonly<Record<OrganType, number>> = { eye: 1, mouth: 2, tail: 4, collar: 8, brain: 16, heart: 32 };

export function organBits(worm: Worm): number {
  let bits = 0;
  for (const o of worm.organs) bits |= ORGAN_BIT[o.type];
  return bits;
}

/**
 * May option B add rolled organ `i` (0 or 1) to this worm (`bits`: its organBits)? It needs the
 * other organ rolled, or the rolled shape. Two equal organ dice offer the organ once (as organ 0).
 */
export function optionBAllows(roll: Roll, worm: Worm, bits: number, i: 0 | 1): boolean {
  if (i === 1 && roll.organs[1] === roll.organs[0]) return false;
  return (worm.shape !== null && worm.shape === roll.shape) || (bits & ORGAN_BIT[roll.organs[1 - i]!]) !== 0;
}

/** The rolled organs that option B may add to this worm: it has the other organ rolled, or the rolled shape. */
export function optionBOrgans(roll: Roll, worm: Worm): OrganType[] {
  const bits = organBits(worm);
  const out: OrganType[] = [];
  if (optionBAllows(roll, worm, bits, 0)) out.push(roll.organs[0]);
  if (optionBAllows(roll, worm, bits, 1)) out.push(roll.organs[1]);
  return out;
}

/** Option C: the worm has either organ rolled, or the rolled shape (`bits`: its organBits). */
export function optionCAllows(roll: Roll, worm: Worm, bits = organBits(worm)): boolean {
  return (worm.shape !== null && worm.shape === roll.shape) || (bits & (ORGAN_BIT[roll.organs[0]] | ORGAN_BIT[roll.organs[1]])) !== 0;
}

/** Why option B or C may not use this worm now (region or first hour), or null. */
export function optionWormProblem(pos: Place, worm: Worm): string | null {
  if (pos.hour === 0) return 'at 1 AM the only option is to place a new worm';
  if (!touchesRegion(pos, worm)) return `worm ${worm.id} has no cell in this hour's region`;
  return null;
}

/** Unfilled brains on worms touching the region: each may be filled now for one die change. */
export function fillableBrains(pos: Place): number[] {
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
