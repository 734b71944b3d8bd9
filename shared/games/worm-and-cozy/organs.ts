/**
 * Adding organs: where each type may go and which way it faces, and what an eye can see.
 *
 * - eye, mouth: on one of the first two cells from the front, facing forward (second cell → tip);
 *   with no front yet, at either end, which then becomes the front.
 * - tail: on the rear tip, pointing outward; one per worm; with no front yet, either tip, whose end
 *   becomes the rear.
 * - brain, heart, collar: any organ-free cell. One organ per cell.
 */
import { DIR_INDEX, step, type Geometry } from './board.js';
import { mutableWorm, type Draft, type Position } from './position.js';
import type { Dir, Organ, OrganType, Worm } from './state.js';
import { hasOrgan, organAt } from './worms.js';

export interface OrganSpot {
  cell: number;
  facing?: Dir;
  /** The worm turns around: the spot is at the end that becomes the front (eye, mouth) or rear (tail). */
  reverse: boolean;
}

export const FACING_ORGANS: ReadonlySet<OrganType> = new Set(['eye', 'mouth', 'tail']);

/*
 * Spots as numbers, so listing them allocates nothing (legalOptions lists organ spots on most
 * steps): cell * 16 + facing * 2 + reverse, where facing is 0 (none) or 1..4 (N, E, S, W).
 */
const FACING_OF_CODE: readonly (Dir | undefined)[] = [undefined, 'N', 'E', 'S', 'W'];

export function spotCell(code: number): number {
  return code >> 4;
}

/** The facing's code: 0 (none) or 1..4 for N, E, S, W. */
export function spotFacingCode(code: number): number {
  return (code >> 1) & 7;
}

function spotOf(code: number): OrganSpot {
  const facing = FACING_OF_CODE[spotFacingCode(code)];
  const reverse = (code & 1) === 1;
  return facing ? { cell: spotCell(code), facing, reverse } : { cell: spotCell(code), reverse };
}

/** Every legal spot for a new organ of `type` on `worm`. */
export function organSpots(g: Geometry, worm: Worm, type: OrganType): OrganSpot[] {
  const codes: number[] = [];
  const n = spotCodes(g, worm, type, codes, 0);
  const out: OrganSpot[] = [];
  for (let i = 0; i < n; i++) out.push(spotOf(codes[i]!));
  return out;
}

/**
 * `organSpots` as spot codes, written into `out` from index `n` on (callers reuse one buffer, and
 * shortening an array frees its storage); returns the index after the last code written.
 */
export function spotCodes(g: Geometry, worm: Worm, type: OrganType, out: number[], n: number): number {
  const c = worm.cells;
  const len = c.length;
  if (worm.organs.length >= len) return n;
  if (type === 'eye' || type === 'mouth') {
    n = headSpots(g, worm, c[0]!, c[1]!, 0, out, n);
    if (!worm.front) n = headSpots(g, worm, c[len - 1]!, c[len - 2]!, 1, out, n);
  } else if (type === 'tail') {
    if (hasOrgan(worm, 'tail')) return n;
    // The tail goes on the rear tip: cells[len-1]; before a front exists, cells[0] works too (reversing).
    if (!organAt(worm, c[len - 1]!)) out[n++] = c[len - 1]! * 16 + facingCode(g, c[len - 2]!, c[len - 1]!) * 2;
    if (!worm.front && !organAt(worm, c[0]!)) out[n++] = c[0]! * 16 + facingCode(g, c[1]!, c[0]!) * 2 + 1;
  } else {
    for (const cell of c) if (!organAt(worm, cell)) out[n++] = cell * 16;
  }
  return n;
}

/** Eye or mouth spots at one end (tip, then the cell behind it), facing out of that end. */
function headSpots(g: Geometry, worm: Worm, tip: number, second: number, reverse: 0 | 1, out: number[], n: number): number {
  const facing = facingCode(g, second, tip);
  if (!organAt(worm, tip)) out[n++] = tip * 16 + facing * 2 + reverse;
  if (!organAt(worm, second)) out[n++] = second * 16 + facing * 2 + reverse;
  return n;
}

/** The facing code of the step from `a` to its neighbour `b` (0 when they do not touch). */
function facingCode(g: Geometry, a: number, b: number): number {
  const nb = g.neighbor;
  for (let d = 0; d < 4; d++) if (nb[a * 4 + d] === b) return d + 1;
  return 0;
}

/** Is there any legal spot for an organ of `type` on `worm` (organSpots without the list)? */
function hasSpot(worm: Worm, type: OrganType): boolean {
  const c = worm.cells;
  const n = c.length;
  if (worm.organs.length >= n) return false;
  if (type === 'eye' || type === 'mouth') return !organAt(worm, c[0]!) || !organAt(worm, c[1]!) || (!worm.front && (!organAt(worm, c[n - 1]!) || !organAt(worm, c[n - 2]!)));
  if (type === 'tail') return !hasOrgan(worm, 'tail') && (!organAt(worm, c[n - 1]!) || (!worm.front && !organAt(worm, c[0]!)));
  for (const cell of c) if (!organAt(worm, cell)) return true;
  return false;
}

/** Can any organ of these types go on this worm? */
export function canTakeOrgan(_g: Geometry, worm: Worm, types: readonly OrganType[]): boolean {
  if (worm.organs.length >= worm.cells.length) return false;
  for (const t of types) if (hasSpot(worm, t)) return true;
  return false;
}

/** Finds the spot a move names: its cell and, where two facings are possible there, its facing. */
export function findSpot(g: Geometry, worm: Worm, type: OrganType, cell: number, facing: Dir | undefined): OrganSpot | { error: string } {
  const codes = spotScratch;
  const n = spotCodes(g, worm, type, codes, 0);
  let first = -1;
  let matching = -1;
  let count = 0;
  let facings = '';
  for (let i = 0; i < n; i++) {
    const code = codes[i]!;
    if (spotCell(code) !== cell) continue;
    count++;
    if (first < 0) first = code;
    const f = FACING_OF_CODE[spotFacingCode(code)];
    if (facing && matching < 0 && f === facing) matching = code;
    facings += (facings ? ' or ' : '') + f;
  }
  if (first < 0) return { error: 'not a legal cell for it' };
  if (!FACING_ORGANS.has(type)) {
    if (facing) return { error: `a ${type} has no facing` };
    return spotOf(first);
  }
  if (facing) return matching >= 0 ? spotOf(matching) : { error: `it would face ${facings} there, not ${facing}` };
  if (count > 1) return { error: `say which way it faces (${facings})` };
  return spotOf(first);
}

/** Scratch list for `findSpot` (it never nests). */
const spotScratch: number[] = [];

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
  const nb = g.neighbor;
  const f = DIR_INDEX[facing];
  const l = (f + 3) % 4; // 90° to the left
  const r = (f + 1) % 4;
  for (let c = nb[cell * 4 + l]!; c >= 0; c = nb[c * 4 + l]!) out.push(c);
  for (let c = nb[cell * 4 + r]!; c >= 0; c = nb[c * 4 + r]!) out.push(c);
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
  const out: number[] = [];
  const occ = pos.occ;
  for (const c of eyeSight(pos.geo, eye.cell, eye.facing!)) if (occ[c] === 0) out.push(c);
  return out;
}

/** The cell a mouth (or tail) faces. */
export function facedCell(g: Geometry, organ: Organ): number {
  return organ.facing ? step(g, organ.cell, organ.facing) : -1;
}
