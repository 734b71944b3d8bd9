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
import { FOOD, mutableWorm, wormAt, wormById, type Draft, type Position } from './position.js';
import { ORGAN_TYPES, type Organ, type OrganType, type Pending, type Worm } from './state.js';
import { countOrgans, growthEnds, hasOrgan, organAt, tipOf, type End } from './worms.js';

export const BABY_ORGAN_TYPES: readonly OrganType[] = ORGAN_TYPES.filter((t) => t !== 'collar');

/** The organ on a cell, if it may act now: not acted this hour, and not a filled brain. */
export function actableOrgan(pos: Position, cell: number): Organ | undefined {
  const w = wormAt(pos, cell);
  const o = w && organAt(w, cell);
  if (!o || o.filled || pos.sheet.acted.includes(cell)) return undefined;
  return o;
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
 */
export function congaLines(pos: Position, id: number): number[][] {
  const next = tailLinks(pos);
  const forward = [id];
  for (let w = next[id]!; w > 0 && !forward.includes(w); w = next[w]!) forward.push(w);
  const prev: number[][] = next.map(() => []);
  next.forEach((to, from) => {
    if (to > 0) prev[to]!.push(from);
  });
  const lines: number[][] = [];
  const back = (w: number, path: number[]) => {
    const ps = prev[w]!.filter((p) => !forward.includes(p) && !path.includes(p));
    if (ps.length === 0) {
      const line = [...path].reverse().concat(forward);
      if (line.length >= 2) lines.push(line);
      return;
    }
    for (const p of ps) back(p, [...path, p]);
  };
  back(id, []);
  return lines;
}

/** Organs that may act for the conga line: on an unused line worm, not a tail. */
export function congaCells(pos: Position, frame: Extract<Pending, { k: 'conga' }>): number[] {
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

/** Touching worms with a collar anywhere on them. */
export function collarPartners(pos: Position, worm: Worm): number[] {
  const seen = new Set<number>();
  for (const c of worm.cells) {
    for (let d = 0; d < 4; d++) {
      const m = pos.geo.neighbor[c * 4 + d]!;
      const o = m >= 0 ? pos.occ[m]! : 0;
      if (o > 0 && o !== worm.id && !seen.has(o) && hasOrgan(wormById(pos, o)!, 'collar')) seen.add(o);
    }
  }
  return [...seen].sort((a, b) => a - b);
}

/** My collars, plus my partner's collars that touch one of mine. */
export function collarActions(pos: Position, me: Worm, partner: Worm): number {
  const mine = me.organs.filter((o) => o.type === 'collar');
  const theirs = partner.organs.filter((o) => o.type === 'collar' && mine.some((m) => adjacent(pos.geo, m.cell, o.cell)));
  return mine.length + theirs.length;
}

/** Our babies (both parents are this pair) made this hour. */
export function ourBabies(pos: Position, a: number, b: number): Worm[] {
  return pos.sheet.worms.filter((w) => w.parents && w.born === pos.hour && ((w.parents[0] === a && w.parents[1] === b) || (w.parents[0] === b && w.parents[1] === a)));
}

export function babiesForOrgans(pos: Position, a: number, b: number): number[] {
  return ourBabies(pos, a, b)
    .filter((w) => canTakeOrgan(pos.geo, w, BABY_ORGAN_TYPES))
    .map((w) => w.id);
}

/** Is `c` next to a cell of either worm? */
function touchesEither(pos: Position, c: number, a: number, b: number): boolean {
  for (let d = 0; d < 4; d++) {
    const m = pos.geo.neighbor[c * 4 + d]!;
    if (m >= 0 && (pos.occ[m] === a || pos.occ[m] === b)) return true;
  }
  return false;
}

/**
 * Every baby placement for a pair: paths of 2 or 3 blank cells touching either parent. Each set of
 * cells appears once, in path order (a 3-cell baby's middle cell is the one touching both others).
 */
export function babyPlacements(pos: Position, a: number, b: number): number[][] {
  const out: number[][] = [];
  const { geo, occ } = pos;
  const nb = geo.neighbor;
  const seen = new Set<string>();
  for (let c = 0; c < geo.size; c++) {
    if (occ[c] !== 0) continue;
    const blanks: number[] = [];
    for (let d = 0; d < 4; d++) {
      const m = nb[c * 4 + d]!;
      if (m >= 0 && occ[m] === 0) blanks.push(m);
    }
    const cTouches = touchesEither(pos, c, a, b);
    // two cells: c and a neighbour with a larger index (each pair once)
    for (const m of blanks) if (m > c && (cTouches || touchesEither(pos, m, a, b))) out.push([c, m]);
    // three cells with c in the middle
    for (let i = 0; i < blanks.length; i++)
      for (let j = i + 1; j < blanks.length; j++) {
        const x = blanks[i]!;
        const y = blanks[j]!;
        if (cTouches || touchesEither(pos, x, a, b) || touchesEither(pos, y, a, b)) {
          const key = `${x},${c},${y}`;
          if (!seen.has(key)) {
            seen.add(key);
            out.push([x, c, y]);
          }
        }
      }
  }
  return out;
}

function anyBabyPlacement(pos: Position, a: number, b: number): boolean {
  const { geo, occ } = pos;
  const nb = geo.neighbor;
  for (let c = 0; c < geo.size; c++) {
    if (occ[c] !== 0 || !touchesEither(pos, c, a, b)) continue;
    for (let d = 0; d < 4; d++) {
      const m = nb[c * 4 + d]!;
      if (m >= 0 && occ[m] === 0) return true;
    }
  }
  return false;
}

// ---- hearts ----------------------------------------------------------------------------------------

/** The tips a growth may continue from now: [end, tip] pairs. */
export function growthTips(pos: Position, frame: Extract<Pending, { k: 'grow' }>): [End, number][] {
  const w = wormById(pos, frame.worm)!;
  const ends = frame.end ? [frame.end] : growthEnds(w);
  return ends.map((e) => [e, tipOf(w, e)]);
}

/** Blank cells the growth may take next, with the end each continues. */
export function growthSteps(pos: Position, frame: Extract<Pending, { k: 'grow' }>): { end: End; from: number; cell: number }[] {
  const out: { end: End; from: number; cell: number }[] = [];
  if (frame.grown >= frame.max) return out;
  for (const [end, tip] of growthTips(pos, frame)) {
    for (let d = 0; d < 4; d++) {
      const m = pos.geo.neighbor[tip * 4 + d]!;
      if (m >= 0 && pos.occ[m] === 0) out.push({ end, from: tip, cell: m });
    }
  }
  return out;
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
  d.sheet.foods.push(cell);
}

// ---- acting ----------------------------------------------------------------------------------------

function push(d: Draft, frame: Pending): void {
  d.sheet.stack.push(frame);
}

/** The organ on `cell` acts: it is marked, and its effect becomes the next pending decision. */
export function actOrgan(d: Draft, cell: number): void {
  const w = wormAt(d, cell)!;
  const organ = organAt(w, cell)!;
  d.sheet.acted.push(cell);
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
      return f.babies.some((id) => canTakeOrgan(pos.geo, wormById(pos, id)!, BABY_ORGAN_TYPES));
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
