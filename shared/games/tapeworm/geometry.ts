/**
 * The table as a grid of square cards. The start card sits at (0, 0); x grows east, y grows south;
 * edges are N, E, S, W (0–3) and a rotation turns a card clockwise by quarter turns.
 *
 * This is the geometry the referee needs to check a placement (side by side, no overlap, every
 * touching edge matching), to list the open tapeworm ends, to see a ring close, and to work out
 * what a Cut severs. The physical table is the truth; the phone enters where each card went.
 */
import { EDGES, type CardKind, type Deck, type EdgeName } from './deck.js';

export type Rotation = 0 | 1 | 2 | 3;
export const DX = [0, 1, 0, -1] as const;
export const DY = [-1, 0, 1, 0] as const;
export const opposite = (edge: number): number => (edge + 2) % 4;
export const edgeIndex = (edge: EdgeName): number => EDGES.indexOf(edge);

export interface PlacedCard {
  card: string;
  x: number;
  y: number;
  rotation: Rotation;
  /** A wild card's colour, taken from the card it was first attached to. */
  color?: string;
}

/** How far the table reaches from the start card, in card widths ("cannot fall off the table"). */
export interface TableEdge {
  north: number;
  east: number;
  south: number;
  west: number;
}

export interface OpenEnd {
  x: number;
  y: number;
  edge: EdgeName;
  color: string;
}

/** A cell-indexed view of the table, built once per question. */
export interface Grid {
  deck: Deck;
  table: readonly PlacedCard[];
  /** Index into `table` of the card at a cell, or -1. */
  at(x: number, y: number): number;
  /** colors[i][edge]: the colour at each world edge of card i (a wild's taken colour), or null. */
  colors: (string | null)[][];
}

// Cells as one number: coordinates stay well inside ±2^15 (moves allow ±80).
const key = (x: number, y: number) => x * 65536 + y;

// States are never mutated in place (a move that changes the table copies it), so a table array
// always means the same layout: its grid is built once and shared by every question about it.
const grids = new WeakMap<readonly PlacedCard[], Grid>();

export function grid(deck: Deck, table: readonly PlacedCard[]): Grid {
  const hit = grids.get(table);
  if (hit && hit.deck === deck) return hit;
  const built = buildGrid(deck, table);
  grids.set(table, built);
  return built;
}

function buildGrid(deck: Deck, table: readonly PlacedCard[]): Grid {
  const cells = new Map<number, number>();
  const colors = table.map((c, i) => {
    cells.set(key(c.x, c.y), i);
    return kindOf(deck, c.card).edges[c.rotation]!.map((e) => (e === 'wild' ? (c.color ?? null) : e));
  });
  return { deck, table, colors, at: (x, y) => cells.get(key(x, y)) ?? -1 };
}

export function kindOf(deck: Deck, id: string): CardKind {
  const kind = deck.kinds.get(id);
  if (!kind) throw new RangeError(`unknown card "${id}"`);
  return kind;
}

/** The colour at a placed card's world edge (a wild's assumed colour), or null for no segment. */
export function colorAt(g: Grid, index: number, edge: number): string | null {
  return g.colors[index]![edge]!;
}

/** Every segment end that faces an empty cell: where the tapeworms can grow. */
export function openEnds(g: Grid): OpenEnd[] {
  const out: OpenEnd[] = [];
  g.table.forEach((c, i) => {
    for (let e = 0; e < 4; e++) {
      const color = colorAt(g, i, e);
      if (color !== null && g.at(c.x + DX[e]!, c.y + DY[e]!) < 0) out.push({ x: c.x, y: c.y, edge: EDGES[e]!, color });
    }
  });
  return out;
}

/** Indices of the cards joined to card `i` by a segment across an edge. */
export function links(g: Grid, i: number): number[] {
  const c = g.table[i]!;
  const out: number[] = [];
  for (let e = 0; e < 4; e++) {
    if (colorAt(g, i, e) === null) continue;
    const j = g.at(c.x + DX[e]!, c.y + DY[e]!);
    if (j >= 0) out.push(j);
  }
  return out;
}

export interface Connection {
  edge: number;
  color: string;
  neighbour: number;
}

export type Placement =
  | {
      ok: true;
      /** The new card's ends that join open ends already on the table. */
      connections: Connection[];
      /** The colour a wild card takes (null for a coloured card). */
      wildColor: string | null;
      /** Every colour on the card once placed. */
      colors: string[];
      head: boolean;
      /** The card joins two ends of one connected worm: a ring closes. */
      ring: boolean;
    }
  | { ok: false; code: 'move/cell-taken' | 'move/off-table' | 'move/not-attached' | 'move/edges-do-not-match'; message: string };

const where = (x: number, y: number) => `(${x}, ${y})`;

type PlacementFailure = Extract<Placement, { ok: false }>;
// Searches try many placements that do not fit: they get this one object, not a built message.
const NO_FIT: PlacementFailure = Object.freeze({ ok: false, code: 'move/edges-do-not-match', message: 'does not fit' });

/**
 * Can a card of this kind go at (x, y) turned `rotation`? All the placement rules at once.
 * `explain: false` (for searches) skips building the message of a refusal.
 */
export function checkPlacement(g: Grid, kind: CardKind, x: number, y: number, rotation: Rotation, edge?: TableEdge, explain = true): Placement {
  if (g.at(x, y) >= 0) return explain ? { ok: false, code: 'move/cell-taken', message: `a card already lies at ${where(x, y)}: cards may not overlap` } : NO_FIT;
  if (edge && (y < -edge.north || y > edge.south || x > edge.east || x < -edge.west)) {
    return explain ? { ok: false, code: 'move/off-table', message: `${where(x, y)} would fall off the edge of the table` } : NO_FIT;
  }
  const mine = kind.edges[rotation]!;
  const connections: Connection[] = [];
  for (let e = 0; e < 4; e++) {
    const n = g.at(x + DX[e]!, y + DY[e]!);
    if (n < 0) continue;
    const theirs = colorAt(g, n, opposite(e));
    const own = mine[e]!;
    if (own === null && theirs === null) continue;
    if (own === null || theirs === null) {
      if (!explain) return NO_FIT;
      const what = own === null ? `the ${theirs} open end of the card at ${where(g.table[n]!.x, g.table[n]!.y)}` : `its ${own === 'wild' ? 'rainbow' : own} segment`;
      return { ok: false, code: 'move/edges-do-not-match', message: `${kind.id} at ${where(x, y)}: ${what} would meet a side with no segment on the ${EDGES[e]} edge` };
    }
    if (own !== 'wild' && own !== theirs) {
      if (!explain) return NO_FIT;
      return { ok: false, code: 'move/edges-do-not-match', message: `${kind.id} at ${where(x, y)}: its ${own} segment would meet a ${theirs} one on the ${EDGES[e]} edge` };
    }
    connections.push({ edge: e, color: theirs, neighbour: n });
  }
  if (connections.length === 0) {
    if (!explain) return NO_FIT;
    return { ok: false, code: 'move/not-attached', message: `${kind.id} at ${where(x, y)} does not extend any open tapeworm segment` };
  }
  let wildColor: string | null = null;
  if (kind.wild) {
    // A rainbow card takes the colour of the card it is first attached to, and keeps it.
    wildColor = connections[0]!.color;
    const other = connections.find((c) => c.color !== wildColor);
    if (other && !explain) return NO_FIT;
    if (other) return { ok: false, code: 'move/edges-do-not-match', message: `a rainbow card takes one colour: it cannot join ${wildColor} and ${other.color} at once` };
  }
  return {
    ok: true,
    connections,
    wildColor,
    colors: kind.wild ? [wildColor!] : kind.colors,
    head: kind.head,
    ring: closesRing(g, kind, rotation, connections),
  };
}

/** A segment of the new card joining two cards that are already connected closes a ring. */
function closesRing(g: Grid, kind: CardKind, rotation: Rotation, connections: Connection[]): boolean {
  const bySegment = new Map<number, number[]>();
  for (const c of connections) {
    const s = kind.segment[rotation]![c.edge]!;
    bySegment.set(s, [...(bySegment.get(s) ?? []), c.neighbour]);
  }
  for (const neighbours of bySegment.values()) {
    if (neighbours.length < 2) continue;
    const reach = reachable(g, neighbours[0]!, null);
    if (neighbours.slice(1).some((n) => reach.has(n))) return true;
  }
  return false;
}

/** Cards reachable from `from` along segment links, optionally with one link removed. */
export function reachable(g: Grid, from: number, without: [number, number] | null): Set<number> {
  const seen = new Set<number>([from]);
  const todo = [from];
  while (todo.length) {
    const i = todo.pop()!;
    for (const j of links(g, i)) {
      if (without && ((i === without[0] && j === without[1]) || (i === without[1] && j === without[0]))) continue;
      if (!seen.has(j)) {
        seen.add(j);
        todo.push(j);
      }
    }
  }
  return seen;
}

export type CutLine =
  | { ok: true; color: string; /** indices of the cards severed (the side away from the start card) */ removed: number[] }
  | { ok: false; code: 'move/no-cut-line' | 'move/cut-inside-ringworm'; message: string };

/** The line between the card at (x, y) and its neighbour across `edge`: what a Cut there severs. */
export function cutLine(g: Grid, x: number, y: number, edge: number): CutLine {
  const a = g.at(x, y);
  const b = a < 0 ? -1 : g.at(x + DX[edge]!, y + DY[edge]!);
  const color = a < 0 ? null : colorAt(g, a, edge);
  if (a < 0 || b < 0 || color === null) {
    return { ok: false, code: 'move/no-cut-line', message: `no tapeworm crosses the ${EDGES[edge]} edge of ${where(x, y)}: a cut line joins two cards' segments` };
  }
  const startIndex = g.table.findIndex((c) => kindOf(g.deck, c.card).start);
  const fromStart = reachable(g, startIndex, [a, b]);
  if (fromStart.has(a) && fromStart.has(b)) {
    return { ok: false, code: 'move/cut-inside-ringworm', message: `the line at the ${EDGES[edge]} edge of ${where(x, y)} is part of a ringworm: one cut cannot detach anything there` };
  }
  const removed = g.table.map((_, i) => i).filter((i) => !fromStart.has(i));
  return { ok: true, color, removed };
}

/**
 * Every line a Cut could sever, each once (named from its west or north card), with its colour
 * and how many cards it would discard. A cuttable line is a bridge of the card graph (Tarjan's
 * low-link, one depth-first walk from the start card); the cards severed are the far subtree.
 */
export function cutLines(g: Grid): { x: number; y: number; edge: EdgeName; color: string; removes: number }[] {
  const n = g.table.length;
  const root = g.table.findIndex((c) => kindOf(g.deck, c.card).start);
  const order = new Array<number>(n).fill(-1);
  const low = new Array<number>(n).fill(0);
  const size = new Array<number>(n).fill(1);
  const parent = new Array<number>(n).fill(-1);
  const adj = g.table.map((_, i) => links(g, i));
  const bridges: [number, number][] = [];
  let clock = 0;
  // Iterative DFS: (card, next neighbour index to visit).
  const stack: [number, number][] = [[root, 0]];
  order[root] = low[root] = clock++;
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const [v, k] = top;
    const next = adj[v]![k];
    if (next !== undefined) {
      top[1] = k + 1;
      if (order[next] === -1) {
        parent[next] = v;
        order[next] = low[next] = clock++;
        stack.push([next, 0]);
      } else if (next !== parent[v]) {
        low[v] = Math.min(low[v]!, order[next]!);
      }
      continue;
    }
    stack.pop();
    const p = parent[v]!;
    if (p >= 0) {
      low[p] = Math.min(low[p]!, low[v]!);
      size[p]! += size[v]!;
      if (low[v]! > order[p]!) bridges.push([p, v]);
    }
  }
  const out: { x: number; y: number; edge: EdgeName; color: string; removes: number }[] = [];
  for (const [p, v] of bridges) {
    const a = g.table[p]!;
    const b = g.table[v]!;
    // Name the line from the west or north card of the pair.
    const [from, to] = b.x < a.x || b.y < a.y ? [v, p] : [p, v];
    const f = g.table[from]!;
    const t = g.table[to]!;
    const e = t.x > f.x ? 1 : 2;
    out.push({ x: f.x, y: f.y, edge: EDGES[e]!, color: colorAt(g, from, e)!, removes: size[v]! });
  }
  return out.sort((l, m) => l.y - m.y || l.x - m.x || EDGES.indexOf(l.edge) - EDGES.indexOf(m.edge));
}

/** Every cell where a new card would touch an open end. */
export function frontier(g: Grid): { x: number; y: number }[] {
  const seen = new Set<number>();
  const out: { x: number; y: number }[] = [];
  for (const end of openEnds(g)) {
    const e = edgeIndex(end.edge);
    const x = end.x + DX[e]!;
    const y = end.y + DY[e]!;
    if (!seen.has(key(x, y))) {
      seen.add(key(x, y));
      out.push({ x, y });
    }
  }
  return out;
}

/**
 * What is wrong with a table, if anything: the start card first at (0, 0), no two cards on a cell,
 * every touching pair of edges matching, wilds coloured, and every card joined to the start card.
 */
export function tableProblems(deck: Deck, table: readonly PlacedCard[]): string[] {
  const out: string[] = [];
  const first = table[0];
  if (!first || !deck.kinds.get(first.card)?.start || first.x !== 0 || first.y !== 0) out.push('the start card must come first, at (0, 0)');
  for (const c of table) {
    const kind = deck.kinds.get(c.card);
    if (!kind) out.push(`unknown card "${c.card}"`);
    else if (kind.wild !== (c.color !== undefined)) out.push(`${c.card} at ${where(c.x, c.y)}: ${kind.wild ? 'a wild needs the colour it took' : 'only wilds carry a colour'}`);
    else if (c.color !== undefined && !deck.colors.includes(c.color)) out.push(`${c.card} at ${where(c.x, c.y)}: "${c.color}" is not a colour of the deck`);
  }
  if (out.length) return out;
  const g = grid(deck, table);
  table.forEach((c, i) => {
    if (g.at(c.x, c.y) !== i) out.push(`two cards lie at ${where(c.x, c.y)}`);
    for (const e of [1, 2]) {
      const n = g.at(c.x + DX[e]!, c.y + DY[e]!);
      if (n < 0) continue;
      const mine = colorAt(g, i, e);
      const theirs = colorAt(g, n, opposite(e));
      if (mine !== theirs) out.push(`${c.card} at ${where(c.x, c.y)} meets ${table[n]!.card} on its ${EDGES[e]} edge with ${mine ?? 'no segment'} against ${theirs ?? 'no segment'}`);
    }
  });
  if (out.length) return out;
  const joined = reachable(g, 0, null);
  table.forEach((c, i) => {
    if (!joined.has(i)) out.push(`${c.card} at ${where(c.x, c.y)} is not joined to the start card`);
  });
  return out;
}
