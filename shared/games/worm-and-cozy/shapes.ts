/**
 * The six worm shapes: pentominoes I, L, U, V, W, Z, each a path of 5 cells, in every rotation and
 * flip. A placement is the 5 cells of one orientation at one offset, in path order. Placements are
 * precomputed once per board geometry (a flat Int16Array per shape) for the hot option-A scan.
 */
import type { Geometry } from './board.js';
import { SHAPE_NAMES, type ShapeName } from './state.js';

/** Each shape as a path of (x, y) steps: consecutive cells are orthogonal neighbours. */
export const SHAPE_PATHS: Readonly<Record<ShapeName, readonly (readonly [number, number])[]>> = {
  I: [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]],
  L: [[0, 0], [0, 1], [0, 2], [0, 3], [1, 3]],
  U: [[0, 0], [0, 1], [1, 1], [2, 1], [2, 0]],
  V: [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2]],
  W: [[0, 0], [0, 1], [1, 1], [1, 2], [2, 2]],
  Z: [[0, 0], [1, 0], [1, 1], [1, 2], [2, 2]],
};

type Pt = readonly [number, number];

const TRANSFORMS: ((p: Pt) => Pt)[] = [
  ([x, y]) => [x, y],
  ([x, y]) => [-y, x],
  ([x, y]) => [-x, -y],
  ([x, y]) => [y, -x],
  ([x, y]) => [-x, y],
  ([x, y]) => [y, x],
  ([x, y]) => [x, -y],
  ([x, y]) => [-y, -x],
];

function normalise(pts: readonly Pt[]): Pt[] {
  const mx = Math.min(...pts.map((p) => p[0]));
  const my = Math.min(...pts.map((p) => p[1]));
  return pts.map(([x, y]) => [x - mx, y - my] as const);
}

function setKey(pts: readonly Pt[]): string {
  return normalise(pts)
    .map(([x, y]) => `${x},${y}`)
    .sort()
    .join(' ');
}


/** Distinct orientations (rotations and flips) of each shape, as paths normalised to (0, 0). */
export const ORIENTATIONS: Readonly<Record<ShapeName, readonly (readonly Pt[])[]>> = Object.fromEntries(
  SHAPE_NAMES.map((s) => {
    const seen = new Set<string>();
    const out: Pt[][] = [];
    for (const t of TRANSFORMS) {
      const pts = normalise(SHAPE_PATHS[s].map(t));
      const key = setKey(pts);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(pts);
      }
    }
    return [s, out];
  }),
) as Record<ShapeName, Pt[][]>;

/** A normalised set of up to 5 cells as a 25-bit mask of its 5 x 5 bounding box. */
function maskKey(xs: readonly number[], ys: readonly number[]): number {
  let mx = Infinity;
  let my = Infinity;
  for (let i = 0; i < xs.length; i++) {
    if (xs[i]! < mx) mx = xs[i]!;
    if (ys[i]! < my) my = ys[i]!;
  }
  let key = 0;
  for (let i = 0; i < xs.length; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    if (dx > 4 || dy > 4) return -1;
    key |= 1 << (dy * 5 + dx);
  }
  return key;
}

const SHAPE_BY_MASK = new Map<number, ShapeName>();
for (const s of SHAPE_NAMES)
  for (const o of ORIENTATIONS[s])
    SHAPE_BY_MASK.set(
      maskKey(
        o.map((p) => p[0]),
        o.map((p) => p[1]),
      ),
      s,
    );

/** The shape a set of 5 cells forms (any rotation or flip), or null. */
export function shapeOfCells(g: Geometry, cells: readonly number[]): ShapeName | null {
  if (cells.length !== 5) return null;
  // maskKey without the coordinate arrays (a placeWorm check runs it on every move).
  const w = g.width;
  let mx = Infinity;
  let my = Infinity;
  for (let i = 0; i < 5; i++) {
    const c = cells[i]!;
    const x = c % w;
    const y = Math.floor(c / w);
    if (x < mx) mx = x;
    if (y < my) my = y;
  }
  let key = 0;
  for (let i = 0; i < 5; i++) {
    const c = cells[i]!;
    const dx = (c % w) - mx;
    const dy = Math.floor(c / w) - my;
    if (dx > 4 || dy > 4) return null;
    key |= 1 << (dy * 5 + dx);
  }
  // A repeated cell sets a bit twice: fewer than 5 bits, so no shape matches.
  return SHAPE_BY_MASK.get(key) ?? null;
}

export interface ShapePlacements {
  /** Flat: placement k is cells[5k .. 5k+4], in path order. */
  cells: Int16Array;
  count: number;
  /** The same placements as cell names, shared (never mutate). */
  names: readonly (readonly string[])[];
  /**
   * Per clock region, the option-A scan list: the placements with a cell in the region and none on a
   * rock, as flat records `[k, top, m0 .. m(scanWords-1)]`. The board is read in windows of
   * `scanRows` rows packed in one 32-bit word (bit r * width + x for column x of row top + r), so
   * a placement (5 rows at most) is `scanWords` masks: mi covers rows top + i * scanRows on.
   * Flat, so the scan reads memory in order.
   */
  scan: Int32Array[];
  scanRows: number;
  scanWords: number;
}

const placementCache = new WeakMap<Geometry, Record<ShapeName, ShapePlacements>>();

/** Every placement of every shape on this board, ignoring what is drawn (rocks included, but not in `scan`). */
export function placementsOf(g: Geometry): Record<ShapeName, ShapePlacements> {
  if (g === lastGeometry) return lastPlacements!;
  let p = placementCache.get(g);
  if (!p) {
    p = Object.fromEntries(
      SHAPE_NAMES.map((s) => {
        const flat: number[] = [];
        const names: string[][] = [];
        for (const o of ORIENTATIONS[s]) {
          const w = Math.max(...o.map((q) => q[0])) + 1;
          const h = Math.max(...o.map((q) => q[1])) + 1;
          for (let y = 0; y + h <= g.height; y++)
            for (let x = 0; x + w <= g.width; x++) {
              const cells = o.map(([dx, dy]) => (y + dy) * g.width + x + dx);
              flat.push(...cells);
              names.push(cells.map((c) => g.names[c]!));
            }
        }
        // Shared by every legalOptions call: frozen so no caller can change them.
        const frozen = names.map((n) => Object.freeze(n));
        // As many rows as fit a word (a placement spans 5 at most); at least two words (one scan loop).
        const scanRows = Math.max(1, Math.min(5, Math.floor(32 / g.width)));
        const scanWords = Math.max(2, Math.ceil(5 / scanRows));
        const scan = g.regionMasks.map((mask) => {
          const records: number[] = [];
          for (let k = 0; k < names.length; k++) {
            const cells = flat.slice(k * 5, k * 5 + 5);
            if (!cells.some((c) => mask[c]) || cells.some((c) => g.rock[c])) continue;
            const top = Math.min(...cells.map((c) => Math.floor(c / g.width)));
            const words = new Array<number>(scanWords).fill(0);
            for (const c of cells) {
              const r = Math.floor(c / g.width) - top;
              words[Math.floor(r / scanRows)]! |= 1 << ((r % scanRows) * g.width + (c % g.width));
            }
            records.push(k, top, ...words);
          }
          return Int32Array.from(records);
        });
        const placements: ShapePlacements = { cells: Int16Array.from(flat), count: names.length, names: Object.freeze(frozen), scan, scanRows, scanWords };
        return [s, placements];
      }),
    ) as unknown as Record<ShapeName, ShapePlacements>;
    placementCache.set(g, p);
  }
  lastGeometry = g;
  lastPlacements = p;
  return p;
}

/** The last board asked for (a comparison beats a WeakMap on every option step). */
let lastGeometry: Geometry | null = null;
let lastPlacements: Record<ShapeName, ShapePlacements> | null = null;

/**
 * Orders a set of cells as a path (each cell touching the next), or returns null when the cells do
 * not form a simple path. When several orders exist (a worm touching itself), the first found wins.
 */
export function orderAsPath(g: Geometry, cells: readonly number[]): number[] | null {
  const n = cells.length;
  if (n === 0) return null;
  if (new Set(cells).size !== n) return null;
  // Start from an end (a cell with one neighbour in the set) when there is one: a stable sort by
  // the number of neighbours in the set (no closures: a baby move runs this every time).
  const starts = cells.slice();
  const degree: number[] = [];
  for (const c of starts) degree.push(neighboursIn(g, c, cells));
  for (let i = 1; i < n; i++) {
    const c = starts[i]!;
    const k = degree[i]!;
    let j = i - 1;
    for (; j >= 0 && degree[j]! > k; j--) {
      starts[j + 1] = starts[j]!;
      degree[j + 1] = degree[j]!;
    }
    starts[j + 1] = c;
    degree[j + 1] = k;
  }
  const path: number[] = [];
  for (const start of starts) if (extendPath(g, cells, start, path)) return path;
  return null;
}

function neighboursIn(g: Geometry, c: number, cells: readonly number[]): number {
  let k = 0;
  for (let d = 0; d < 4; d++) {
    const m = g.neighbor[c * 4 + d]!;
    if (m >= 0 && cells.includes(m)) k++;
  }
  return k;
}

/** Depth-first: puts `c` on the path and tries the neighbours in N, E, S, W order until all cells are on it. */
function extendPath(g: Geometry, cells: readonly number[], c: number, path: number[]): boolean {
  path.push(c);
  if (path.length === cells.length) return true;
  for (let d = 0; d < 4; d++) {
    const m = g.neighbor[c * 4 + d]!;
    if (m >= 0 && cells.includes(m) && !path.includes(m) && extendPath(g, cells, m, path)) return true;
  }
  path.pop();
  return false;
}

/** True when consecutive cells touch and no cell repeats. */
export function isPath(g: Geometry, cells: readonly number[]): boolean {
  const n = cells.length;
  if (n <= 16) {
    // Worms and babies are short: pairwise beats building a Set.
    for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) if (cells[i] === cells[j]) return false;
  } else if (new Set(cells).size !== n) return false;
  const nb = g.neighbor;
  for (let i = 1; i < n; i++) {
    const a = cells[i - 1]!;
    const b = cells[i]!;
    const k = a * 4;
    if (nb[k] !== b && nb[k + 1] !== b && nb[k + 2] !== b && nb[k + 3] !== b) return false;
  }
  return true;
}
