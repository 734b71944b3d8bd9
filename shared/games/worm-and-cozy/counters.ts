/**
 * The library of named reward counters that chapter files refer to. Each counter reads only what a
 * finished paper sheet shows (worm cells, original shapes, organs with facing and filled brains,
 * foods, rocks), so the same code scores the engine's state, a phone-entered sheet and a photo.
 */
import { z } from 'zod';
import { step, type Geometry } from './board.js';
import { ORGAN_TYPES, type OrganType, type Worm } from './state.js';

export type WormLike = Pick<Worm, 'cells' | 'shape' | 'organs'>;

/** What scoring looks at: the board and what is drawn on it. */
export interface BoardView {
  geo: Geometry;
  worms: readonly WormLike[];
  foods: readonly number[];
}

export interface Counter {
  name: string;
  /** How a sheet would word it. */
  description: string;
  params: z.ZodType<Record<string, unknown>>;
  count(view: BoardView, params: Record<string, unknown>): number;
}

function define<P extends Record<string, unknown>>(c: {
  name: string;
  description: string;
  params: z.ZodType<P>;
  count(view: BoardView, params: P): number;
}): Counter {
  return {
    name: c.name,
    description: c.description,
    params: c.params as unknown as z.ZodType<Record<string, unknown>>,
    // Parameters were checked when the chapter loaded; parse again so a hand-built chapter cannot slip past.
    count: (view, raw) => c.count(view, c.params.parse(raw)),
  };
}

/** Cell → 0 blank, −1 rock, −2 food, k > 0 worm k (1-based position in `view.worms`). */
export function occupancy(view: BoardView): Int16Array {
  const occ = new Int16Array(view.geo.size);
  for (const r of view.geo.rocks) occ[r] = -1;
  for (const f of view.foods) occ[f] = -2;
  view.worms.forEach((w, i) => {
    for (const c of w.cells) occ[c] = i + 1;
  });
  return occ;
}

/** Does worm `w` (1-based) touch a cell for which `pred(occupant)` holds? */
function touches(view: BoardView, occ: Int16Array, w: WormLike, index: number, pred: (o: number) => boolean): boolean {
  const n = view.geo.neighbor;
  for (const c of w.cells) {
    for (let d = 0; d < 4; d++) {
      const m = n[c * 4 + d]!;
      if (m >= 0 && occ[m] !== index && pred(occ[m]!)) return true;
    }
  }
  return false;
}

/** Worms (1-based) touching at least one blank cell: the penalty on every sheet. */
export function wormsTouchingBlank(view: BoardView): number[] {
  const occ = occupancy(view);
  const out: number[] = [];
  view.worms.forEach((w, i) => {
    if (touches(view, occ, w, i + 1, (o) => o === 0)) out.push(i + 1);
  });
  return out;
}

/** Conga links: worm i (1-based) → the other worm its tail tip points at (0 for none). */
export function congaLinks(view: BoardView, occ = occupancy(view)): number[] {
  const links = new Array<number>(view.worms.length + 1).fill(0);
  view.worms.forEach((w, i) => {
    const tail = w.organs.find((o) => o.type === 'tail');
    if (!tail || !tail.facing) return;
    const t = step(view.geo, tail.cell, tail.facing);
    const o = t >= 0 ? occ[t]! : 0;
    if (o > 0 && o !== i + 1) links[i + 1] = o;
  });
  return links;
}

/** The longest a baby is drawn (a collar places a baby of 2 or 3 cells). */
export const BABY_MAX_CELLS = 3;

/** A counter by name; an own key only, so "toString" or "constructor" name no counter. */
export function counterNamed(name: string): Counter | undefined {
  return Object.hasOwn(COUNTERS, name) ? COUNTERS[name] : undefined;
}

const organType = z.enum(['any', ...ORGAN_TYPES] as [OrganType | 'any', ...(OrganType | 'any')[]]);

export const COUNTERS: Readonly<Record<string, Counter>> = Object.fromEntries(
  [
    define({
      name: 'organs',
      description: 'organs of a type (filled brains only, with filled: true)',
      params: z.object({ type: organType, filled: z.boolean().optional() }).strict(),
      count: (v, p) =>
        v.worms.reduce(
          (n, w) => n + w.organs.filter((o) => (p.type === 'any' || o.type === p.type) && (p.filled === undefined || Boolean(o.filled) === p.filled)).length,
          0,
        ),
    }),
    define({
      name: 'foods',
      description: 'foods on the board',
      params: z.object({}).strict(),
      count: (v) => v.foods.length,
    }),
    define({
      name: 'worms',
      description: 'worms (of at least minLength cells)',
      params: z.object({ minLength: z.number().int().min(1).optional() }).strict(),
      count: (v, p) => v.worms.filter((w) => w.cells.length >= (p.minLength ?? 1)).length,
    }),
    define({
      name: 'babies',
      description: 'baby worms',
      params: z.object({}).strict(),
      count: (v) => v.worms.filter((w) => w.shape === null).length,
    }),
    define({
      name: 'longestWorm',
      description: 'cells in your longest worm',
      params: z.object({}).strict(),
      count: (v) => v.worms.reduce((m, w) => Math.max(m, w.cells.length), 0),
    }),
    define({
      name: 'wormsWithOrgans',
      description: 'worms with at least `min` organs',
      params: z.object({ min: z.number().int().min(1) }).strict(),
      count: (v, p) => v.worms.filter((w) => w.organs.length >= p.min).length,
    }),
    define({
      name: 'wormsWithOrgan',
      description: 'worms with at least one organ of a type',
      params: z.object({ type: organType }).strict(),
      count: (v, p) => v.worms.filter((w) => w.organs.some((o) => p.type === 'any' || o.type === p.type)).length,
    }),
    define({
      name: 'mostOrganTypes',
      description: 'different organ types on your most varied worm',
      params: z.object({}).strict(),
      count: (v) => v.worms.reduce((m, w) => Math.max(m, new Set(w.organs.map((o) => o.type)).size), 0),
    }),
    define({
      name: 'congaWorms',
      description: 'worms in conga lines (a tail tip pointing at another worm, or pointed at)',
      params: z.object({}).strict(),
      count: (v) => {
        const links = congaLinks(v);
        const inLine = new Set<number>();
        links.forEach((to, from) => {
          if (to > 0) inLine.add(from).add(to);
        });
        return inLine.size;
      },
    }),
    define({
      name: 'longestCongaLine',
      description: 'worms in your longest conga line',
      params: z.object({}).strict(),
      count: (v) => {
        const links = congaLinks(v);
        let best = 0;
        for (let s = 1; s < links.length; s++) {
          const seen = new Set<number>([s]);
          let w = s;
          while (links[w]! > 0 && !seen.has(links[w]!)) {
            w = links[w]!;
            seen.add(w);
          }
          if (seen.size >= 2) best = Math.max(best, seen.size);
        }
        return best;
      },
    }),
    define({
      name: 'rocksTouched',
      description: 'rocks touched by at least one worm',
      params: z.object({}).strict(),
      count: (v) => {
        const occ = occupancy(v);
        return v.geo.rocks.filter((r) => {
          for (let d = 0; d < 4; d++) {
            const m = v.geo.neighbor[r * 4 + d]!;
            if (m >= 0 && occ[m]! > 0) return true;
          }
          return false;
        }).length;
      },
    }),
    define({
      name: 'wormsTouchingRocks',
      description: 'worms touching a rock',
      params: z.object({}).strict(),
      count: (v) => {
        const occ = occupancy(v);
        return v.worms.filter((w, i) => touches(v, occ, w, i + 1, (o) => o === -1)).length;
      },
    }),
    define({
      name: 'wormsTouchingBlank',
      description: 'worms touching blank space(s)',
      params: z.object({}).strict(),
      count: (v) => wormsTouchingBlank(v).length,
    }),
    define({
      name: 'cozyWorms',
      description: 'worms touching no blank space',
      params: z.object({}).strict(),
      count: (v) => v.worms.length - wormsTouchingBlank(v).length,
    }),
    define({
      name: 'fullLines',
      description: 'rows and/or columns with no blank cell',
      params: z.object({ lines: z.enum(['rows', 'columns', 'both']) }).strict(),
      count: (v, p) => {
        const occ = occupancy(v);
        const { width, height } = v.geo;
        let n = 0;
        if (p.lines !== 'columns')
          for (let r = 0; r < height; r++) {
            let full = true;
            for (let c = 0; c < width && full; c++) full = occ[r * width + c] !== 0;
            if (full) n++;
          }
        if (p.lines !== 'rows')
          for (let c = 0; c < width; c++) {
            let full = true;
            for (let r = 0; r < height && full; r++) full = occ[r * width + c] !== 0;
            if (full) n++;
          }
        return n;
      },
    }),
    define({
      name: 'fedMouths',
      description: 'mouths at a food (facing an adjacent food)',
      params: z.object({}).strict(),
      count: (v) => {
        const food = new Set(v.foods);
        let n = 0;
        for (const w of v.worms)
          for (const o of w.organs) {
            if (o.type !== 'mouth' || !o.facing) continue;
            const t = step(v.geo, o.cell, o.facing);
            if (t >= 0 && food.has(t)) n++;
          }
        return n;
      },
    }),
    define({
      name: 'distinctShapes',
      description: 'different shapes among your worms (babies have none)',
      params: z.object({}).strict(),
      count: (v) => new Set(v.worms.map((w) => w.shape).filter((s) => s !== null)).size,
    }),
    define({
      name: 'grownWorms',
      description: 'worms longer than any worm is drawn: over 5 cells, or over 3 for a baby (a baby is drawn with 2 or 3 cells, and a sheet does not show which, so a 3-cell baby does not count)',
      params: z.object({}).strict(),
      // A baby is placed with 2 or 3 cells (rules text, collar); the paper shows only its length now,
      // so the engine counts what the paper can prove, and an engine game and its sheet score alike.
      count: (v) => v.worms.filter((w) => w.cells.length > (w.shape === null ? BABY_MAX_CELLS : 5)).length,
    }),
    define({
      name: 'coupledWorms',
      description: 'worms with a collar touching another worm with a collar',
      params: z.object({}).strict(),
      count: (v) => {
        const occ = occupancy(v);
        const collared = v.worms.map((w) => w.organs.some((o) => o.type === 'collar'));
        return v.worms.filter((w, i) => collared[i] && touches(v, occ, w, i + 1, (o) => o > 0 && collared[o - 1] === true)).length;
      },
    }),
  ].map((c) => [c.name, c]),
);
