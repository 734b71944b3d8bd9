/**
 * Adding organs: where each type may go and which way it faces, and what an eye can see.
 *
 * - eye, mouth: on one of the first two cells from the front, facing forward (second cell → tip);
 *   with no front yet, at either end, which then becomes the front.
 * - tail: on the rear tip, pointing outward; one per worm; with no front yet, either tip, whose end
 *   becomes the rear.
 * - brain, heart, collar: any organ-free cell. One organ per cell.
 */
import { DIR_INDEX, sides, step, type Geometry } from './board.js';
import { mutableWorm, type Draft, type Position } from './position.js';
import type { Dir, Organ, OrganType, Worm } from './state.js';
import { endCells, hasOrgan, organAt, outward, type End } from './worms.js';

export interface OrganSpot {
  cell: number;
  facing?: Dir;
  /** The worm turns around: the spot is at the end that becomes the front (eye, mouth) or rear (tail). */
  reverse: boolean;
}

export const FACING_ORGANS: ReadonlySet<OrganType> = new Set(['eye', 'mouth', 'tail']);

/** Every legal spot for a new organ of `type` on `worm`. */
export function organSpots(g: Geometry, worm: Worm, type: OrganType): OrganSpot[] {
  const out: OrganSpot[] = [];
  if (worm.organs.length >= worm.cells.length) return out;
  if (type === 'eye' || type === 'mouth') {
    const ends: End[] = worm.front ? ['front'] : ['front', 'rear'];
    for (const end of ends) {
      const facing = outward(g, worm, end);
      for (const cell of endCells(worm, end)) if (!organAt(worm, cell)) out.push({ cell, facing, reverse: end === 'rear' });
    }
  } else if (type === 'tail') {
    if (hasOrgan(worm, 'tail')) return out;
    // The tail goes on the rear tip: cells[n-1]; before a front exists, cells[0] works too (reversing).
    const ends: End[] = worm.front ? ['rear'] : ['rear', 'front'];
    for (const end of ends) {
      const [tip] = endCells(worm, end);
      if (!organAt(worm, tip)) out.push({ cell: tip, facing: outward(g, worm, end), reverse: end === 'front' });
    }
  } else {
    for (const cell of worm.cells) if (!organAt(worm, cell)) out.push({ cell, reverse: false });
  }
  return out;
}

/** Can any organ of these types go on this worm? */
export function canTakeOrgan(g: Geometry, worm: Worm, types: readonly OrganType[]): boolean {
  if (worm.organs.length >= worm.cells.length) return false;
  for (const t of types) if (organSpots(g, worm, t).length > 0) return true;
  return false;
}

/** Finds the spot a move names: its cell and, where two facings are possible there, its facing. */
export function findSpot(g: Geometry, worm: Worm, type: OrganType, cell: number, facing: Dir | undefined): OrganSpot | { error: string } {
  const spots = organSpots(g, worm, type).filter((s) => s.cell === cell);
  if (spots.length === 0) return { error: 'not a legal cell for it' };
  if (!FACING_ORGANS.has(type)) {
    if (facing) return { error: `a ${type} has no facing` };
    return spots[0]!;
  }
  if (facing) {
    const s = spots.find((x) => x.facing === facing);
    return s ?? { error: `it would face ${spots.map((x) => x.facing).join(' or ')} there, not ${facing}` };
  }
  if (spots.length > 1) return { error: `say which way it faces (${spots.map((x) => x.facing).join(' or ')})` };
  return spots[0]!;
}

/** Draws the organ; turns the worm around first when the spot says so. Returns the organ's cell. */
export function drawOrgan(d: Draft, wormId: number, type: OrganType, spot: OrganSpot): number {
  const w = mutableWorm(d, wormId);
  if (spot.reverse) w.cells.reverse();
  if (FACING_ORGANS.has(type)) w.front = true;
  const organ: Organ = spot.facing ? { type, cell: spot.cell, facing: spot.facing } : { type, cell: spot.cell };
  w.organs.push(organ);
  return spot.cell;
}

/**
 * What an eye on `cell` facing `facing` sees: every cell on the straight rays forward, left and
 * right, plus every cell alongside the forward ray. Nothing blocks sight.
 */
export function eyeSight(g: Geometry, cell: number, facing: Dir): number[] {
  const out: number[] = [];
  const [left, right] = sides(facing);
  const nb = g.neighbor;
  const f = DIR_INDEX[facing];
  const l = DIR_INDEX[left];
  const r = DIR_INDEX[right];
  for (const d of [l, r]) for (let c = nb[cell * 4 + d]!; c >= 0; c = nb[c * 4 + d]!) out.push(c);
  for (let c = nb[cell * 4 + f]!; c >= 0; c = nb[c * 4 + f]!) {
    out.push(c);
    const a = nb[c * 4 + l]!;
    const b = nb[c * 4 + r]!;
    if (a >= 0) out.push(a);
    if (b >= 0) out.push(b);
  }
  return out;
}

/** Blank cells where the acting eye may add a food. */
export function foodCells(pos: Position, eye: Organ): number[] {
  return eyeSight(pos.geo, eye.cell, eye.facing!).filter((c) => pos.occ[c] === 0);
}

/** The cell a mouth (or tail) faces. */
export function facedCell(g: Geometry, organ: Organ): number {
  return organ.facing ? step(g, organ.cell, organ.facing) : -1;
}
