/**
 * Organs acting, and chain reactions as a stack of pending optional decisions.
 *
 * When an organ acts its effect becomes a decision pushed on the player's stack (which cell gets
 * the food, which organ the mouth adds, which conga line...). The top decision is resolved first;
 * a decision it causes is pushed above it, so after a chain reaction the player returns to the
 * decision below (Tito finishes his tail's action). Each organ acts at most once per hour. After
 * every move `settle` closes decisions that have nothing left to choose, so `legalOptions` always
 * lists real choices.
 */
import { adjacent } from './board.js';
import { canTakeOrgan, facedCell, foodCells } from './organs.js';
import { FOOD, mutableWorm, wormAt, wormById, writableActed, writableFoods, type Draft, type Place, type Position } from './position.js';
import { ORGAN_TYPES, type Organ, type OrganType, type Pending, type Worm } from './state.js';
import { countOrgans, hasOrgan, organAt, tipOf, type End } from './worms.js';

export const BABY_ORGAN_TYPES: readonly OrganType[] = ORGAN_TYPES.filter((t) => t !== 'collar');

/**
 * The organ on a cell, if it may act now: not acted this hour, and not a filled brain. Found through
 * the organs, not the grid, so listing the organs that may act needs no grid.
 */
export function actableOrgan(pos: Place, cell: number): Organ | undefined {
  if (pos.sheet.acted.includes(cell)) return undefined;
  for (const w of pos.sheet.worms) for (const o of w.organs) if (o.cell === cell) return o.filled ? undefined : o;
  return undefined;
}

// ---- conga lines -------------------------------------------------------------------------------

/** Worm id → the other worm its tail tip points at (0: none). */
export function tailLinks(pos: Position): number[] {
  const worms = pos.sheet.worms;
  const next = new Array<number>(worms.length + 1).fill(0);
  for (const w of worms) {
    for (const o of w.organs) {
      if (o.type !== 'tail') continue;
      const t = facedCell(pos.geo, o);
      const to = t >= 0 ? pos.occ[t]! : 0;
      if (to > 0 && to !== w.id) next[w.id] = to;
    }
  }
  return next;
}

/**
 * The maximal conga lines that include worm `id` (worm ids in link order, each linking to the next).
 * A longer line through the same worms always offers more, so only maximal ones are offered.
 *
 * A line is some worms whose tails lead to `id`, then `id` and the worms its tail leads to. Each
 * worm has one tail, so the way on from `id` is one chain; where the tails close a loop, a line may
 * stop partway along it, leaving the rest of the loop to be come into from another worm (worm 3
 * pointing into the loop 1 → 2 → 1 gives 3 → 2 → 1 as well as 1 → 2). Every length of the chain is
 * tried, longest first, and a line that lies inside a longer one is dropped.
 */
export function congaLines(pos: Position, id: number): number[][] {
  const next = tailLinks(pos);
  const chain = [id];
  for (let w = next[id]!; w > 0 && !chain.includes(w); w = next[w]!) chain.push(w);
  const prev: number[][] = [];
  for (let from = 0; from < next.length; from++) prev.push([]);
  for (let from = 0; from < next.length; from++) if (next[from]! > 0) prev[next[from]!]!.push(from);
  const found: number[][] = [];
  for (let k = chain.length; k >= 1; k--) linesBack(prev, chain.slice(0, k), id, [], found);
  const unique = [...new Map(found.map((line) => [line.join(','), line])).values()];
  return unique.filter((line) => !unique.some((other) => other.length > line.length && containsRun(other, line)));
}

/** Whether `run` appears in `line` as consecutive worms, in order. */
function containsRun(line: readonly number[], run: readonly number[]): boolean {
  for (let at = 0; at + run.length <= line.length; at++) if (run.every((w, i) => line[at + i] === w)) return true;
  return false;
}

/** Walks back along the worms whose tails point at `w`: one line per worm at which the walk ends. */
function linesBack(prev: readonly number[][], forward: readonly number[], w: number, path: number[], lines: number[][]): void {
  let extended = false;
  for (const p of prev[w]!) {
    if (forward.includes(p) || path.includes(p)) continue;
    extended = true;
    path.push(p);
    linesBack(prev, forward, p, path, lines);
    path.pop();
  }
  if (extended) return;
  const line = path.slice().reverse().concat(forward);
  if (line.length >= 2) lines.push(line);
}

/** Organs that may act for the conga line: on an unused line worm, not a tail. */
export function congaCells(pos: Place, frame: Extract<Pending, { k: 'conga' }>): number[] {
  const out: number[] = [];
  if (frame.left <= 0) return out;
  for (const id of frame.worms) {
    if (frame.used.includes(id)) continue;
    for (const o of wormById(pos, id)!.organs) if (o.type !== 'tail' && actableOrgan(pos, o.cell)) out.push(o.cell);
  }
  return out;
}

// ---- collars -------------------------------------------------------------------------------------

export function wormsTouch(pos: Position, a: Worm, b: Worm): boolean {
  for (const c of a.cells) {
    for (let d = 0; d < 4; d++) {
      const m = pos.geo.neighbor[c * 4 + d]!;
      if (m >= 0 && pos.occ[m] === b.id) return true;
    }
  }
  return false;
}

/** Touching worms with a collar anywhere on them, in id order. */
export function collarPartners(pos: Position, worm: Worm): number[] {
  const out: number[] = [];
  const nb = pos.geo.neighbor;
  for (const c of worm.cells) {
    for (let d = 0; d < 4; d++) {
      const m = nb[c * 4 + d]!;
      const o = m >= 0 ? pos.occ[m]! : 0;
      if (o > 0 && o !== worm.id && !out.includes(o) && hasOrgan(wormById(pos, o)!, 'collar')) out.push(o);
    }
  }
  return out.sort(ascending);
}

function ascending(a: number, b: number): number {
  return a - b;
}

/** My collars, plus my partner's collars that touch one of mine. */
export function collarActions(pos: Position, me: Worm, partner: Worm): number {
  let mine = 0;
  let theirs = 0;
  for (const o of me.organs) if (o.type === 'collar') mine++;
  for (const o of partner.organs) {
    if (o.type !== 'collar') continue;
    for (const m of me.organs) {
      if (m.type === 'collar' && adjacent(pos.geo, m.cell, o.cell)) {
        theirs++;
        break;
      }
    }
  }
  return mine + theirs;
}

/** Our babies (both parents are this pair) made this hour. */
export function ourBabies(pos: Place, a: number, b: number): Worm[] {
  const out: Worm[] = [];
  for (const w of pos.sheet.worms) if (isOurBaby(pos, w, a, b)) out.push(w);
  return out;
}

function isOurBaby(pos: Place, w: Worm, a: number, b: number): boolean {
  const p = w.parents;
  return !!p && w.born === pos.hour && ((p[0] === a && p[1] === b) || (p[0] === b && p[1] === a));
}

export function babiesForOrgans(pos: Place, a: number, b: number): number[] {
  const out: number[] = [];
  for (const w of pos.sheet.worms) if (isOurBaby(pos, w, a, b) && canTakeOrgan(pos.geo, w, BABY_ORGAN_TYPES)) out.push(w.id);
  return out;
}

/**
 * 1 on every cell next to a cell of worm `a` or `b` (where a baby of theirs may touch them). One
 * scratch mask serves every call (its users never nest): a typed array this size lives outside the
 * heap, and allocating one per call cost more than the search it serves.
 */
function touchMask(pos: Place, a: number, b: number): Uint8Array {
  if (touchScratch.length !== pos.geo.size) touchScratch = new Uint8Array(pos.geo.size);
  const mask = touchScratch;
  mask.fill(0);
  const nb = pos.geo.neighbor;
  const worms = pos.sheet.worms;
  markNeighbours(worms[a - 1], nb, mask);
  if (b !== a) markNeighbours(worms[b - 1], nb, mask);
  return mask;
}

let touchScratch = new Uint8Array(0);

function markNeighbours(w: Worm | undefined, nb: Int16Array, mask: Uint8Array): void {
  if (!w) return;
  for (const c of w.cells) {
    for (let d = 0; d < 4; d++) {
      const m = nb[c * 4 + d]!;
      if (m >= 0) mask[m] = 1;
    }
  }
}

/**
 * Every baby placement for a pair: paths of 2 or 3 blank cells touching either parent. Each set of
 * cells appears once, in path order (a 3-cell baby's middle cell is the one touching both others;
 * its two ends are never neighbours on a square grid, so the middle is unique).
 */
export function babyPlacements(pos: Position, a: number, b: number): number[][] {
  const out: number[][] = [];
  const { geo, occ } = pos;
  const nb = geo.neighbor;
  const touch = touchMask(pos, a, b);
  const blanks = [0, 0, 0, 0];
  for (let c = 0; c < geo.size; c++) {
    if (occ[c] !== 0) continue;
    let n = 0;
    for (let d = 0; d < 4; d++) {
      const m = nb[c * 4 + d]!;
      if (m >= 0 && occ[m] === 0) blanks[n++] = m;
    }
    const cTouches = touch[c] === 1;
    // two cells: c and a neighbour with a larger index (each pair once)
    for (let i = 0; i < n; i++) {
      const m = blanks[i]!;
      if (m > c && (cTouches || touch[m] === 1)) out.push([c, m]);
    }
    // three cells with c in the middle
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const x = blanks[i]!;
        const y = blanks[j]!;
        if (cTouches || touch[x] === 1 || touch[y] === 1) out.push([x, c, y]);
      }
  }
  return out;
}

/** Is this path of blank cells a baby placement of the pair (2 or 3 cells, one touching a parent)? */
export function isBabyPlacement(pos: Position, a: number, b: number, path: readonly number[]): boolean {
  if (path.length !== 2 && path.length !== 3) return false;
  const touch = touchMask(pos, a, b);
  for (const c of path) if (touch[c] === 1) return true;
  return false;
}

function anyBabyPlacement(pos: Position, a: number, b: number): boolean {
  const { geo, occ } = pos;
  const nb = geo.neighbor;
  const touch = touchMask(pos, a, b);
  for (let c = 0; c < geo.size; c++) {
    if (occ[c] !== 0 || touch[c] === 0) continue;
    for (let d = 0; d < 4; d++) {
      const m = nb[c * 4 + d]!;
      if (m >= 0 && occ[m] === 0) return true;
    }
  }
  return false;
}

// ---- hearts ----------------------------------------------------------------------------------------

export interface GrowthStep {
  end: End;
  /** The tip it continues. */
  from: number;
  cell: number;
}

/** Blank cells the growth may take next, with the end each continues (front tip first). */
export function growthSteps(pos: Position, frame: Extract<Pending, { k: 'grow' }>): GrowthStep[] {
  const out: GrowthStep[] = [];
  if (frame.grown >= frame.max) return out;
  const w = wormById(pos, frame.worm)!;
  if (frame.end !== null) pushGrowthSteps(pos, frame.end, tipOf(w, frame.end), out);
  else {
    pushGrowthSteps(pos, 'front', tipOf(w, 'front'), out);
    if (!hasOrgan(w, 'tail')) pushGrowthSteps(pos, 'rear', tipOf(w, 'rear'), out);
  }
  return out;
}

function pushGrowthSteps(pos: Position, end: End, tip: number, out: GrowthStep[]): void {
  const nb = pos.geo.neighbor;
  for (let d = 0; d < 4; d++) {
    const m = nb[tip * 4 + d]!;
    if (m >= 0 && pos.occ[m] === 0) out.push({ end, from: tip, cell: m });
  }
}

/** Grows the worm by one blank cell at `end`; the extension's size is recorded as it grows. */
export function growOne(d: Draft, frame: Extract<Pending, { k: 'grow' }>, end: End, cell: number): Extract<Pending, { k: 'grow' }> {
  const w = mutableWorm(d, frame.worm);
  if (end === 'front') w.cells.unshift(cell);
  else w.cells.push(cell);
  d.occ[cell] = w.id;
  const grown = frame.grown + 1;
  if (grown > w.ext) w.ext = grown;
  return { k: 'grow', worm: frame.worm, max: frame.max, end, grown };
}

// ---- eyes and mouths -------------------------------------------------------------------------------

/** Mouths (not yet acted) at a food cell: adjacent to it and facing it. */
export function mouthsAt(pos: Position, food: number): number[] {
  const out: number[] = [];
  for (let d = 0; d < 4; d++) {
    const m = pos.geo.neighbor[food * 4 + d]!;
    if (m < 0 || pos.occ[m]! <= 0) continue;
    const o = organAt(wormById(pos, pos.occ[m]!)!, m);
    if (o && o.type === 'mouth' && facedCell(pos.geo, o) === food && !pos.sheet.acted.includes(m)) out.push(m);
  }
  return out;
}

export function addFood(d: Draft, cell: number): void {
  d.occ[cell] = FOOD;
  writableFoods(d).push(cell);
}

// ---- acting ----------------------------------------------------------------------------------------

function push(d: Draft, frame: Pending): void {
  d.sheet.stack.push(frame);
}

/** The organ on `cell` acts: it is marked, and its effect becomes the next pending decision. */
export function actOrgan(d: Draft, cell: number): void {
  const w = wormAt(d, cell)!;
  const organ = organAt(w, cell)!;
  writableActed(d).push(cell);
  switch (organ.type) {
    case 'eye':
      push(d, { k: 'food', eye: cell, left: countOrgans(w, 'eye') });
      break;
    case 'mouth': {
      const t = facedCell(d.geo, organ);
      if (t >= 0 && d.occ[t] === FOOD) push(d, { k: 'organ', worm: w.id, types: [...ORGAN_TYPES], must: false });
      break;
    }
    case 'tail': {
      const lines = congaLines(d, w.id);
      if (lines.length === 1) push(d, { k: 'conga', worms: lines[0]!, used: [], left: lines[0]!.length - 1 });
      else if (lines.length > 1) push(d, { k: 'line', lines });
      break;
    }
    case 'collar': {
      const partners = collarPartners(d, w);
      if (partners.length === 1) startCollar(d, w.id, partners[0]!);
      else if (partners.length > 1) push(d, { k: 'partner', worm: w.id, partners });
      break;
    }
    case 'brain':
      // Its power comes next hour (one die change); `acted` remembers it.
      break;
    case 'heart':
      push(d, { k: 'grow', worm: w.id, max: countOrgans(w, 'heart') + w.ext, end: null, grown: 0 });
      break;
  }
}

export function startCollar(d: Draft, me: number, partner: number): void {
  push(d, { k: 'collar', worm: me, partner, left: collarActions(d, wormById(d, me)!, wormById(d, partner)!) });
}

/** Does the decision still offer something besides declining it? */
export function hasChoices(pos: Position, f: Pending): boolean {
  switch (f.k) {
    case 'organ':
      return canTakeOrgan(pos.geo, wormById(pos, f.worm)!, f.types);
    case 'act':
      for (const c of f.cells) if (actableOrgan(pos, c) !== undefined) return true;
      return false;
    case 'food': {
      if (f.left <= 0) return false;
      const eye = organAt(wormAt(pos, f.eye)!, f.eye)!;
      return foodCells(pos, eye).length > 0;
    }
    case 'grow':
      return growthSteps(pos, f).length > 0;
    case 'line':
      return f.lines.length > 0;
    case 'conga':
      return congaCells(pos, f).length > 0;
    case 'partner':
      return f.partners.length > 0;
    case 'collar':
      return f.left > 0 && (anyBabyPlacement(pos, f.worm, f.partner) || babiesForOrgans(pos, f.worm, f.partner).length > 0);
    case 'babyOrgans':
      for (const id of f.babies) if (canTakeOrgan(pos.geo, wormById(pos, id)!, BABY_ORGAN_TYPES)) return true;
      return false;
  }
}

/** Pops the top decision; giving babies organs ends with every added organ free to act. */
export function closeTop(d: Draft): void {
  const f = d.sheet.stack.pop();
  if (f && f.k === 'babyOrgans' && f.added.length > 0) push(d, { k: 'act', cells: f.added });
}

/** Closes decisions with nothing left to choose; a finished option ends the player's hour. */
export function settle(d: Draft): void {
  const stack = d.sheet.stack;
  while (stack.length > 0 && !hasChoices(d, stack[stack.length - 1]!)) closeTop(d);
  if (stack.length === 0 && d.sheet.option !== null) d.sheet.done = true;
}
