/**
 * What a worm drawn on a sheet may look like under the rules: the checks the sheet file
 * (`validateSheet`) and the board notation (`parseBoard`) share, so neither format can describe a
 * position no game reaches. Each format checks its own spelling (cell names, facings present)
 * first; this is what is left: a named shape's size, and where each facing organ sits and faces.
 *
 * A drawn worm carries no growth history, so the checks are lenient where growth hides it: on a
 * worm longer than it was drawn (a shape of 5 cells, a baby of 2), an eye or mouth may be on any
 * cell facing along the worm, since growth at the front moves the first two cells on.
 */
import { cellName, dirBetween, type Geometry } from './board.js';
import type { Dir, Organ, ShapeName } from './state.js';

export interface DrawnWorm {
  /** From the front end to the rear end when the worm has a front. */
  readonly cells: readonly number[];
  /** The original shape; null for a baby. */
  readonly shape: ShapeName | null;
  readonly organs: readonly Organ[];
}

/** A shape is drawn with 5 cells (option A); a worm only grows from there. */
export const SHAPE_CELLS = 5;

/**
 * The rules a drawn worm breaks, one message each, `label` naming it ("worm 2"). Its cells must
 * already be a path; organs with no facing are not checked for where they face.
 */
export function drawnWormProblems(g: Geometry, worm: DrawnWorm, label: string): string[] {
  const problems: string[] = [];
  const { cells, shape, organs } = worm;
  const n = cells.length;
  const name = (c: number) => cellName(g, c);
  if (shape !== null && n < SHAPE_CELLS) problems.push(`${label} has the shape ${shape} but only ${n} cell${n === 1 ? '' : 's'}`);
  if (n >= 2) {
    for (const o of organs) {
      const idx = cells.indexOf(o.cell);
      if (idx < 0 || !o.facing) continue;
      const at = `the ${o.type} at ${name(o.cell)}`;
      if (o.type === 'tail') {
        // DECISIONS: only on the last cell of the rear end, pointing outward.
        const out = dirBetween(g, cells[n - 2]!, cells[n - 1]!)!;
        if (idx !== n - 1) problems.push(`${label}: ${at} must be on the rear tip (${name(cells[n - 1]!)}): cells run from the front end to the rear end`);
        else if (o.facing !== out) problems.push(`${label}: ${at} faces ${o.facing}, but a tail points outward from the rear tip (${out})`);
      } else if (o.type === 'eye' || o.type === 'mouth') {
        const neverGrown = shape !== null ? n === SHAPE_CELLS : n === 2;
        // Placed on a worm as drawn, an eye or mouth faces the one way forward there (DECISIONS: from
        // the second cell to the end cell). On a worm grown since, the cell it was placed on is no
        // longer known: it may have been the end cell or the second one then.
        const forward: Dir[] = [];
        if (neverGrown) forward.push(dirBetween(g, cells[1]!, cells[0]!)!);
        else {
          if (idx + 1 < n) forward.push(dirBetween(g, cells[idx + 1]!, o.cell)!);
          if (idx >= 1) forward.push(dirBetween(g, o.cell, cells[idx - 1]!)!);
        }
        if (neverGrown && idx > 1) {
          problems.push(`${label}: ${at} must be on one of the first two cells (${name(cells[0]!)}, ${name(cells[1]!)}): cells run from the front end`);
        } else if (!forward.includes(o.facing)) {
          problems.push(`${label}: ${at} faces ${o.facing}, but ${o.type}s face forward along the worm (${[...new Set(forward)].join(' or ')} there)`);
        }
      }
    }
  }
  // The rules: "Except for a tail, it's possible for a worm to eventually get 'duplicates'".
  const tails = organs.filter((o) => o.type === 'tail');
  if (tails.length > 1) problems.push(`${label} has ${tails.length} tails (${tails.map((t) => name(t.cell)).join(', ')}); a worm has at most one`);
  return problems;
}
