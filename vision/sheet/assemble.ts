/**
 * From what each cell and border shows to a sheet: worm cells joined where the pencil line crosses
 * their border, split where the grid line was left clear; each worm a path (a cell with three joins
 * or a closed loop is a misreading: the weakest join goes, and the cells are listed); its shape from
 * its cells; organs from the letters, turned so the sheet is valid (tail on the rear tip, eyes and
 * mouths facing forward, the facing stroke deciding where a bend leaves two ways). Pure logic on the
 * readings, tested on its own. Everything uncertain is listed, with whether it changes the score.
 */
import { cellName, dirBetween, type Geometry } from '../../shared/games/worm-and-cozy/board.js';
import type { Chapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { scoreSheet, validateSheet, type SheetJson, type SheetOrgan, type SheetWorm } from '../../shared/games/worm-and-cozy/sheet.js';
import type { CozyScore } from '../../shared/games/worm-and-cozy/scoring.js';
import { shapeOfCells } from '../../shared/games/worm-and-cozy/shapes.js';
import type { Dir, OrganType, ShapeName } from '../../shared/games/worm-and-cozy/state.js';

/** What the classifier can see in a cell. */
export const CELL_CLASSES = ['blank', 'band', 'food', 'eye', 'mouth', 'tail', 'collar', 'brain', 'usedBrain', 'heart'] as const;
export type CellClass = (typeof CELL_CLASSES)[number];

export type CellState = 'blank' | 'worm' | 'food' | 'rock';

export interface CellInput {
  /** Probabilities over CELL_CLASSES (ignored for rocks). */
  probs: readonly number[];
  /** Facing-stroke evidence towards N, E, S, W (0..1, relative to the pencil's darkness). */
  pointers: readonly number[];
}

export interface JoinInput {
  a: number;
  b: number;
  /** Probability that the worm line crosses this border (0..1). */
  p: number;
}

export interface ReadCell {
  cell: string;
  state: CellState;
  /** What is drawn: the worm line, an organ's letter, a used brain, a food; absent when blank or rock. */
  mark?: CellClass;
  /** The worm (1-based, as in `sheet.worms`) this cell belongs to. */
  worm?: number;
  confidence: number;
}

export interface Uncertain {
  cells: string[];
  what: string;
  /** The alternatives, most likely first. */
  options?: string[];
  /** Would another reading of these cells change the score? */
  affectsScore: boolean;
}

export interface Assembled {
  sheet: SheetJson;
  score: CozyScore | null;
  /** Messages when the read sheet does not validate (should not happen: the assembler keeps it valid). */
  errors: string[];
  cells: ReadCell[];
  worms: { id: number; cells: string[]; shape: ShapeName | null; organs: SheetOrgan[] }[];
  uncertain: Uncertain[];
}

export interface AssembleOptions {
  /** Below this the most likely class of a cell is listed as uncertain. */
  cellConfidence: number;
  /** Joins with probability in [1 − band, band] are listed as uncertain. */
  joinBand: number;
  /** Facing stroke evidence: above `strong` it is there, below `weak` it is not, between: uncertain. */
  pointerWeak: number;
  pointerStrong: number;
  /** Check which uncertain readings change the score (off inside that check itself). */
  scoreCheck?: boolean;
}

export const DEFAULT_ASSEMBLE: AssembleOptions = { cellConfidence: 0.9, joinBand: 0.85, pointerWeak: 0.16, pointerStrong: 0.3, scoreCheck: true };

const ORGANS: readonly CellClass[] = ['eye', 'mouth', 'tail', 'collar', 'brain', 'usedBrain', 'heart'];
/** A runner-up organ below this probability is not a reading, only noise. */
const RUNNER_UP_MIN = 0.02;

function organWords(k: CellClass): string {
  return k === 'usedBrain' ? 'a used brain' : `a${k === 'eye' ? 'n' : ''} ${k}`;
}
const DIR_INDEX: Readonly<Record<Dir, number>> = { N: 0, E: 1, S: 2, W: 3 };

function argmax(p: readonly number[]): number {
  let b = 0;
  for (let k = 1; k < p.length; k++) if (p[k]! > p[b]!) b = k;
  return b;
}

function stateOf(c: CellClass): CellState {
  return c === 'blank' ? 'blank' : c === 'food' ? 'food' : 'worm';
}

interface WormPlan {
  cells: number[];
  organs: SheetOrgan[];
  shape: ShapeName | null;
}

/** Joins into paths: at most two joins per cell, no loops; what had to be cut is reported. */
function pathsFrom(g: Geometry, worm: Uint8Array, joins: JoinInput[], uncertain: Uncertain[]): number[][] {
  const on = joins.filter((j) => j.p >= 0.5 && worm[j.a] && worm[j.b]).sort((x, y) => y.p - x.p);
  const degree = new Uint8Array(g.size);
  const parent = Array.from({ length: g.size }, (_, i) => i);
  const find = (a: number): number => (parent[a] === a ? a : (parent[a] = find(parent[a]!)));
  const adj: number[][] = Array.from({ length: g.size }, () => []);
  // Strongest joins first: a join that would give a cell a third join or close a loop is cut.
  for (const j of on) {
    const cut = degree[j.a]! >= 2 || degree[j.b]! >= 2 || find(j.a) === find(j.b);
    if (cut) {
      uncertain.push({
        cells: [cellName(g, j.a), cellName(g, j.b)],
        what: `the pencil line looks carried across the border between ${cellName(g, j.a)} and ${cellName(g, j.b)}, but a worm is a path: read as two worms meeting there`,
        options: ['two worms', 'one worm'],
        affectsScore: true,
      });
      continue;
    }
    degree[j.a]!++;
    degree[j.b]!++;
    parent[find(j.a)] = find(j.b);
    adj[j.a]!.push(j.b);
    adj[j.b]!.push(j.a);
  }
  // A lone worm cell: a worm has at least 2 cells, so take its likeliest join if any was seen at all.
  for (let c = 0; c < g.size; c++) {
    if (!worm[c] || degree[c]) continue;
    const best = joins.filter((j) => (j.a === c || j.b === c) && worm[j.a] && worm[j.b]).sort((x, y) => y.p - x.p)[0];
    const other = best ? (best.a === c ? best.b : best.a) : -1;
    if (best && best.p > 0.05 && degree[other]! < 2) {
      degree[c]!++;
      degree[other]!++;
      parent[find(c)] = find(other);
      adj[c]!.push(other);
      adj[other]!.push(c);
      uncertain.push({ cells: [cellName(g, c), cellName(g, other)], what: `${cellName(g, c)} is a worm cell on its own; joined to ${cellName(g, other)}, where the line was faint`, options: ['joined', 'not a worm cell'], affectsScore: true });
    } else {
      // No line seen to any neighbour: it stays out of the worms, and the player is asked (a
      // baby whose join did not read would change the score without a word otherwise).
      uncertain.push({ cells: [cellName(g, c)], what: `${cellName(g, c)} is a worm cell on its own, with no line seen to a neighbour: left out of the worms`, options: ['not a worm cell', 'joined'], affectsScore: true });
    }
  }
  const seen = new Uint8Array(g.size);
  const paths: number[][] = [];
  for (let c = 0; c < g.size; c++) {
    if (!worm[c] || seen[c] || adj[c]!.length > 1) continue;
    const path = [c];
    seen[c] = 1;
    let prev = -1;
    let cur = c;
    for (;;) {
      const next = adj[cur]!.find((n) => n !== prev && !seen[n]);
      if (next === undefined) break;
      path.push(next);
      seen[next] = 1;
      prev = cur;
      cur = next;
    }
    paths.push(path);
  }
  return paths;
}

/**
 * Forward directions an eye or mouth may face at index i of cells (front first): on a worm that
 * never grew, the one way from its second cell to its end cell (as the engine places them); on a
 * grown one, either way along the worm there (the organ was placed before the worm grew).
 */
function forwardDirs(g: Geometry, cells: readonly number[], i: number, shape: ShapeName | null): Dir[] {
  const neverGrown = shape !== null ? cells.length === 5 : cells.length === 2;
  if (neverGrown && i <= 1) return [dirBetween(g, cells[1]!, cells[0]!)!];
  const out: Dir[] = [];
  if (i + 1 < cells.length) out.push(dirBetween(g, cells[i + 1]!, cells[i]!)!);
  if (i >= 1) out.push(dirBetween(g, cells[i]!, cells[i - 1]!)!);
  return [...new Set(out)];
}

/** Can the organs sit on this path with cells[0] as the front? The engine's placement rules. */
function fitsFront(g: Geometry, cells: readonly number[], organs: { type: OrganType; cell: number }[], shape: ShapeName | null): boolean {
  const n = cells.length;
  const neverGrown = shape !== null ? n === 5 : n <= 3;
  for (const o of organs) {
    const i = cells.indexOf(o.cell);
    if (o.type === 'tail' && i !== n - 1) return false;
    if ((o.type === 'eye' || o.type === 'mouth') && neverGrown && i > 1) return false;
  }
  return true;
}

export function assemble(chapter: Chapter, g: Geometry, inputs: readonly CellInput[], joins: readonly JoinInput[], options: AssembleOptions = DEFAULT_ASSEMBLE): Assembled {
  const uncertain: Uncertain[] = [];
  const cls: CellClass[] = inputs.map((c, i) => (g.rock[i] ? 'blank' : CELL_CLASSES[argmax(c.probs)]!));
  const conf = inputs.map((c, i) => (g.rock[i] ? 1 : c.probs[argmax(c.probs)]!));
  const worm = new Uint8Array(g.size);
  for (let i = 0; i < g.size; i++) if (!g.rock[i] && stateOf(cls[i]!) === 'worm') worm[i] = 1;

  // Uncertain cells: the two likeliest classes.
  for (let i = 0; i < g.size; i++) {
    if (g.rock[i] || conf[i]! >= options.cellConfidence) continue;
    const order = inputs[i]!.probs.map((p, k) => [p, k] as const).sort((a, b) => b[0] - a[0]);
    uncertain.push({
      cells: [cellName(g, i)],
      what: `${cellName(g, i)}: is it ${CELL_CLASSES[order[0]![1]]} or ${CELL_CLASSES[order[1]![1]]}?`,
      options: order.slice(0, 3).filter((o) => o[0] > 0.02).map((o) => CELL_CLASSES[o[1]]!),
      affectsScore: false,
    });
  }
  const paths = pathsFrom(g, worm, joins as JoinInput[], uncertain);
  const inPath = new Set<string>();
  for (const p of paths) for (let k = 1; k < p.length; k++) inPath.add(`${Math.min(p[k - 1]!, p[k]!)}-${Math.max(p[k - 1]!, p[k]!)}`);
  const listed = new Set(uncertain.map((u) => u.cells.join()));
  for (const j of joins) {
    if (!worm[j.a] || !worm[j.b] || listed.has(`${cellName(g, j.a)},${cellName(g, j.b)}`)) continue;
    const used = inPath.has(`${Math.min(j.a, j.b)}-${Math.max(j.a, j.b)}`);
    if (j.p > 1 - options.joinBand && j.p < options.joinBand)
      uncertain.push({ cells: [cellName(g, j.a), cellName(g, j.b)], what: `is the border between ${cellName(g, j.a)} and ${cellName(g, j.b)} crossed by one worm, or left clear between two?`, options: used ? ['one worm', 'two worms'] : ['two worms', 'one worm'], affectsScore: false });
  }
  const plans: WormPlan[] = [];
  for (const path of paths) {
    const n = path.length;
    let shape: ShapeName | null = null;
    const names = path.map((c) => cellName(g, c));
    if (n === 5) {
      shape = shapeOfCells(g, path);
      if (!shape) uncertain.push({ cells: names, what: `the worm ${names.join('-')} has 5 cells but is none of the six shapes: a grown baby, or misread`, affectsScore: true });
    } else if (n > 5) {
      const cands = [...new Set(Array.from({ length: n - 4 }, (_, k) => shapeOfCells(g, path.slice(k, k + 5))).filter((s): s is ShapeName => s !== null))];
      shape = cands[0] ?? null;
      if (cands.length > 1) uncertain.push({ cells: names, what: `the grown worm ${names.join('-')} could have started as ${cands.join(' or ')}`, options: cands, affectsScore: false });
      if (cands.length === 0) uncertain.push({ cells: names, what: `the grown worm ${names.join('-')} has no 5 cells in a row that form a worm shape: read as a grown baby`, affectsScore: true });
    }
    // A letter read as an organ that cannot sit where it is on this worm is most likely misread:
    // take the likeliest other organ that can (a heart read as a mouth mid-worm, a collar read as
    // an eye), rather than dropping it, and ask.
    const fitsAlone = (c: number, k: CellClass) => {
      const o = [{ type: (k === 'usedBrain' ? 'brain' : k) as OrganType, cell: c }];
      return fitsFront(g, path, o, shape) || fitsFront(g, path.slice().reverse(), o, shape);
    };
    for (const c of path) {
      const read = cls[c]!;
      if (!ORGANS.includes(read) || fitsAlone(c, read)) continue;
      const alt = inputs[c]!.probs
        .map((p, k) => [p, CELL_CLASSES[k]!] as const)
        .filter(([p, k]) => k !== read && ORGANS.includes(k) && p >= RUNNER_UP_MIN)
        .sort((a, b) => b[0] - a[0])
        .find(([, k]) => fitsAlone(c, k));
      if (!alt) continue;
      const name = cellName(g, c);
      // This question replaces the cell's plain "is it X or Y?" doubt: the phone asks once.
      const plain = uncertain.findIndex((u) => u.cells.length === 1 && u.cells[0] === name && !u.affectsScore);
      if (plain >= 0) uncertain.splice(plain, 1);
      uncertain.push({ cells: [name], what: `${name} reads as ${organWords(read)}, which cannot sit there on this worm: taken as ${organWords(alt[1])}, the next likeliest`, options: [alt[1], read, 'band'], affectsScore: true });
      cls[c] = alt[1];
      conf[c] = alt[0];
    }
    const organs = path.filter((c) => ORGANS.includes(cls[c]!)).map((c) => ({ type: (cls[c] === 'usedBrain' ? 'brain' : cls[c]) as OrganType, cell: c, used: cls[c] === 'usedBrain' }));
    // Orientation: cells[0] must be the front. Try both ends; keep organs that cannot fit at all out.
    let cells = path.slice();
    const fwd = fitsFront(g, cells, organs, shape);
    const rev = fitsFront(g, cells.slice().reverse(), organs, shape);
    if (!fwd && rev) cells = cells.reverse();
    let kept = organs;
    if (!fwd && !rev) {
      // Drop the organs that break placement (a misread letter, most likely), and say so.
      const bad = organs.filter((o) => !fitsFront(g, cells, [o], shape) && !fitsFront(g, cells.slice().reverse(), [o], shape));
      const tails = organs.filter((o) => o.type === 'tail');
      kept = organs.filter((o) => !bad.includes(o));
      if (tails.length > 1 || !fitsFront(g, cells, kept, shape)) {
        if (!fitsFront(g, cells, kept, shape) && fitsFront(g, cells.slice().reverse(), kept, shape)) cells = cells.reverse();
      }
      if (!fitsFront(g, cells, kept, shape)) {
        // Still no fit (two tails, or eyes at both ends of a fresh worm): keep the likelier ones.
        const order = kept.slice().sort((a, b) => conf[b.cell]! - conf[a.cell]!);
        kept = [];
        for (const o of order) if (fitsFront(g, cells, [...kept, o], shape) || fitsFront(g, cells.slice().reverse(), [...kept, o], shape)) kept.push(o);
        if (!fitsFront(g, cells, kept, shape)) cells = cells.reverse();
      }
      for (const o of organs.filter((x) => !kept.includes(x)))
        uncertain.push({ cells: [cellName(g, o.cell)], what: `${cellName(g, o.cell)} reads as a ${o.type}, which cannot sit there on this worm: left out`, options: [o.type, 'no organ'], affectsScore: true });
    } else if (fwd && rev && organs.some((o) => o.type === 'eye' || o.type === 'mouth' || o.type === 'tail')) {
      // Both ends fit (a grown worm, or organs in the middle): prefer the end nearer the eyes and mouths.
      const heads = organs.filter((o) => o.type === 'eye' || o.type === 'mouth').map((o) => cells.indexOf(o.cell));
      const mean = heads.length ? heads.reduce((a, b) => a + b, 0) / heads.length : cells.length / 2;
      if (mean > (cells.length - 1) / 2) cells = cells.reverse();
    }
    const sheetOrgans: SheetOrgan[] = [];
    for (const o of kept) {
      const i = cells.indexOf(o.cell);
      const so: SheetOrgan = { type: o.type, cell: cellName(g, o.cell) };
      if (o.used) so.filled = true;
      if (o.type === 'tail') so.facing = dirBetween(g, cells[cells.length - 2]!, o.cell)!;
      if (o.type === 'eye' || o.type === 'mouth') {
        const dirs = forwardDirs(g, cells, i, shape);
        if (dirs.length === 1) so.facing = dirs[0]!;
        else {
          // At a bend: the way towards the previous cell is where the line runs; the other way is a
          // border of its own, so a stroke there is the facing stroke.
          const along = dirBetween(g, o.cell, cells[i - 1]!)!;
          const other = dirs.find((d) => d !== along)!;
          const ev = inputs[o.cell]!.pointers[DIR_INDEX[other]]!;
          so.facing = ev >= (options.pointerWeak + options.pointerStrong) / 2 ? other : along;
          if (ev > options.pointerWeak && ev < options.pointerStrong)
            uncertain.push({ cells: [cellName(g, o.cell)], what: `which way does the ${o.type} at ${cellName(g, o.cell)} face: ${other} or ${along}?`, options: so.facing === other ? [other, along] : [along, other], affectsScore: false });
        }
      }
      sheetOrgans.push(so);
    }
    if (cells.length === 1) continue;
    plans.push({ cells, organs: sheetOrgans, shape });
  }

  const foods = g.names.filter((_, i) => !g.rock[i] && cls[i] === 'food');
  const sheet: SheetJson = {
    chapter: chapter.id,
    worms: plans.map((p) => {
      const w: SheetWorm = { cells: p.cells.map((c) => cellName(g, c)) };
      if (p.shape) w.shape = p.shape;
      if (p.organs.length) w.organs = p.organs;
      return w;
    }),
    foods,
  };
  const scored = scoreSheet(sheet);
  const score = scored.ok ? scored.score : null;
  const errors = scored.ok ? [] : scored.errors;

  const wormOf = new Map<number, number>();
  plans.forEach((p, k) => p.cells.forEach((c) => wormOf.set(c, k + 1)));
  const cells: ReadCell[] = g.names.map((name, i) => {
    if (g.rock[i]) return { cell: name, state: 'rock', confidence: 1 };
    const c = cls[i]!;
    const rc: ReadCell = { cell: name, state: wormOf.has(i) ? 'worm' : c === 'food' ? 'food' : stateOf(c) === 'worm' ? 'worm' : 'blank', confidence: conf[i]! };
    if (c !== 'blank') rc.mark = c;
    const w = wormOf.get(i);
    if (w !== undefined) rc.worm = w;
    return rc;
  });

  // Which uncertain readings would change the score: try the runner-up for each one on its own.
  if (score && options.scoreCheck !== false) {
    for (const u of uncertain) {
      if (u.affectsScore || !u.options || u.options.length < 2) continue;
      u.affectsScore = alternativeChangesScore(chapter, g, inputs, joins, options, u, score.total);
    }
  }
  return { sheet, score, errors, cells, worms: plans.map((p, k) => ({ id: k + 1, cells: p.cells.map((c) => cellName(g, c)), shape: p.shape, organs: p.organs })), uncertain };
}

/** Re-assembles with one uncertain reading flipped to its runner-up; true when the total changes. */
function alternativeChangesScore(chapter: Chapter, g: Geometry, inputs: readonly CellInput[], joins: readonly JoinInput[], options: AssembleOptions, u: Uncertain, total: number): boolean {
  const alt = u.options![1]!;
  const idx = u.cells.map((n) => g.names.indexOf(n));
  let inputs2 = inputs;
  let joins2 = joins;
  if (u.cells.length === 1 && (CELL_CLASSES as readonly string[]).includes(alt)) {
    const k = CELL_CLASSES.indexOf(alt as CellClass);
    inputs2 = inputs.map((c, i) => (i === idx[0] ? { ...c, probs: c.probs.map((_, q) => (q === k ? 1 : 0)) } : c));
  } else if (u.cells.length === 2 && (alt === 'one worm' || alt === 'two worms')) {
    joins2 = joins.map((j) => ((j.a === idx[0] && j.b === idx[1]) || (j.a === idx[1] && j.b === idx[0]) ? { ...j, p: alt === 'one worm' ? 1 : 0 } : j));
  } else if (u.cells.length === 1 && (['N', 'E', 'S', 'W'] as string[]).includes(alt)) {
    const d = DIR_INDEX[alt as Dir];
    inputs2 = inputs.map((c, i) => (i === idx[0] ? { ...c, pointers: c.pointers.map((v, q) => (q === d ? 1 : 0)) } : c));
  } else return false;
  const strict = { ...options, cellConfidence: 0, joinBand: 0.5, scoreCheck: false };
  const r = assemble(chapter, g, inputs2, joins2, strict);
  const s = r.score;
  return !s || s.total !== total;
}

/** The sheet validates? (Exposed for tests.) */
export function sheetErrors(sheet: SheetJson): string[] {
  const v = validateSheet(sheet);
  return v.ok ? [] : v.errors;
}
