/**
 * Worms as ordered paths. `cells[0]` is the front tip once the worm has a front; until then either
 * end may become it. Ends are named by position in `cells`: 'front' is cells[0], 'rear' the last.
 */
import { dirBetween, type Geometry } from './board.js';
import type { Dir, Organ, OrganType, Worm } from './state.js';

export type End = 'front' | 'rear';

export function tipOf(worm: Worm, end: End): number {
  return end === 'front' ? worm.cells[0]! : worm.cells[worm.cells.length - 1]!;
}

/** The two cells at an end, tip first. */
export function endCells(worm: Worm, end: End): [number, number] {
  const c = worm.cells;
  const n = c.length;
  return end === 'front' ? [c[0]!, c[1]!] : [c[n - 1]!, c[n - 2]!];
}

/** The outward direction at an end: from the second cell to the tip. */
export function outward(g: Geometry, worm: Worm, end: End): Dir {
  const [tip, second] = endCells(worm, end);
  return dirBetween(g, second, tip)!;
}

export function organAt(worm: Worm, cell: number): Organ | undefined {
  for (const o of worm.organs) if (o.cell === cell) return o;
  return undefined;
}

export function countOrgans(worm: Worm, type: OrganType): number {
  let n = 0;
  for (const o of worm.organs) if (o.type === type) n++;
  return n;
}

export function hasOrgan(worm: Worm, type: OrganType): boolean {
  for (const o of worm.organs) if (o.type === type) return true;
  return false;
}

export function hasFreeCell(worm: Worm): boolean {
  return worm.organs.length < worm.cells.length;
}

/** The ends a heart may grow from: the front tip, or a tailless rear tip (either end before a front). */
export function growthEnds(worm: Worm): End[] {
  return hasOrgan(worm, 'tail') ? ['front'] : ['front', 'rear'];
}

/** Turns the worm around (an eye, mouth or tail added at the rear end makes that end the front/rear). */
export function reverseWorm(worm: Worm): void {
  worm.cells.reverse();
}
