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

/** Option A: indices of the placements of `shape` on blank cells touching the region. */
export function wormPlacements(pos: Position, shape: ShapeName): number[] {
  const p = placementsOf(pos.geo)[shape];
  const ks = p.byRegion[pos.regionIndex]!;
  const occ = pos.occ;
  const cells = p.cells;
  const out: number[] = [];
  for (let j = 0; j < ks.length; j++) {
    const k = ks[j]!;
    const i = k * 5;
    if (occ[cells[i]!] === 0 && occ[cells[i + 1]!] === 0 && occ[cells[i + 2]!] === 0 && occ[cells[i + 3]!] === 0 && occ[cells[i + 4]!] === 0) out.push(k);
  }
  return out;
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
