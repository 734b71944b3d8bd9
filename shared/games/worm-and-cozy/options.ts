/**
 * `legalOptions(state, query)`: exactly what a player may choose next, as the moves `apply` accepts
 * (after chess.js's `moves()`); `{ verbose: true }` adds each move's cells to highlight and the
 * hour's region (after `moves({ verbose: true })`).
 */
import type { PlayerId } from '../../game.js';
import { BABY_ORGAN_TYPES, actableOrgan, babiesForOrgans, babyPlacements, congaCells, growthSteps } from './actions.js';
import { actMove, activateMove, changeDieMove, foodMove, growMove, moveBook, organMove, placementMoves, type MoveBook } from './book.js';
import { cellName } from './board.js';
import { hourLabel } from './chapters.js';
import { describePending } from './describe.js';
import { atOptionStep, freePlacements, mustOrgan, optionBAllows, optionCAllows, organBits } from './hour.js';
import type { CozyMove } from './moves.js';
import { foodCells, spotCell, spotCodes, spotFacingCode } from './organs.js';
import { borrowPosition, placeOf, releasePosition, touchesRegion, wormAt, wormById, type Place, type Position } from './position.js';
import { ORGAN_TYPES, SHAPE_NAMES, type CozyState, type OrganType, type Pending, type PendingKind, type Phase, type Roll, type Worm } from './state.js';
import { organAt } from './worms.js';

export interface CozyQuery {
  /** Whose options; defaults to the only player, or the first who still has to act. */
  player?: PlayerId;
  verbose?: boolean;
}

/** Where the player is in the hour. */
export type Step = 'roll' | 'option' | 'decision' | 'done' | 'over';

export interface VerboseMove {
  move: CozyMove;
  /** Cells to highlight for this move (the worm to draw, the organ's cell, the food...). */
  cells: string[];
}

export interface CozyOptions {
  hour: number;
  label: string;
  phase: Phase;
  player: PlayerId | null;
  step: Step;
  /** The kind of the pending decision being made (step 'decision'). */
  pending: PendingKind | null;
  /** Plain words: what to do now. */
  prompt: string;
  /** This player's dice this hour, after brain changes. */
  dice: Roll | null;
  /** Every legal move of this player now. */
  moves: CozyMove[];
  /** Table moves possible now: 'roll' (any faces) or 'endHour'. */
  table: ('roll' | 'endHour')[];
  verbose?: { region: string[]; moves: VerboseMove[] };
}

function defaultPlayer(state: CozyState): number {
  if (state.players.length === 1) return 0;
  for (let i = 0; i < state.sheets.length; i++) if (!state.sheets[i]!.done) return i;
  return 0;
}

export function legalOptions(state: CozyState, query: CozyQuery = {}): CozyOptions {
  const index = query.player === undefined ? defaultPlayer(state) : playerIndex(state, query.player);
  const label = hourLabel(state.chapter, Math.min(state.hour, state.chapter.clock.hours - 1));
  const verbose = query.verbose === true;
  if (state.phase === 'over') return make(state, label, null, 'over', 'The game is over.', []);
  if (index < 0) return make(state, label, query.player ?? null, 'done', `no player "${query.player}" at this table`, state.phase === 'roll' ? ['roll'] : tableMovesInPlay(state));
  const player = state.players[index]!.id;
  if (state.phase === 'roll') {
    const r = make(state, label, player, 'roll', `Roll the dice for ${label}.`, ['roll']);
    if (verbose) r.verbose = { region: regionNames(placeOf(state, index)), moves: [] };
    return r;
  }
  const sheet = state.sheets[index]!;
  const decision = !sheet.done && !atOptionStep(sheet);
  // Few steps read the occupancy grid (see needsGrid): the others list moves from the sheet alone.
  const grid = decision && needsGrid(sheet.stack[sheet.stack.length - 1]!) ? borrowPosition(state, index) : null;
  const pos: Place = grid ?? placeOf(state, index);
  const book = moveBook(pos.geo, player);
  const moves = gathered;
  moves.n = 0;
  let step: Step;
  let prompt: string;
  let pending: PendingKind | null = null;
  if (sheet.done) {
    step = 'done';
    prompt = `Done with ${label}: waiting for the next hour.`;
  } else if (!decision) {
    step = 'option';
    prompt = state.hour === 0 ? 'Option A: place a worm of the rolled shape in the 1 AM region, then add a rolled organ.' : 'Choose option A, B or C (or nothing this hour); brains may change dice first.';
    optionMoves(pos, book, state.hour, moves);
    add(moves, book.done);
  } else {
    const f = sheet.stack[sheet.stack.length - 1]!;
    step = 'decision';
    pending = f.k;
    prompt = describePending(pos, f);
    decisionMoves(pos, grid, book, f, moves);
    if (!(f.k === 'organ' && f.must)) add(moves, book.pass);
    if (!mustOrgan(sheet)) add(moves, book.done);
  }
  const result = make(state, label, player, step, prompt, tableMovesInPlay(state));
  result.pending = pending;
  result.dice = sheet.dice;
  result.moves = moves.list.slice(0, moves.n);
  if (verbose) result.verbose = { region: regionNames(pos), moves: result.moves.map((move) => ({ move, cells: highlight(pos, move) })) };
  if (grid) releasePosition(grid); // the grid is not read after this
  return result;
}

/*
 * No closures in the hot paths of this file: under tsx (esbuild keepNames) every arrow function
 * created costs a defineProperty call, which the random-game bench showed as the largest cost.
 */
function make(state: CozyState, label: string, player: PlayerId | null, step: Step, prompt: string, table: CozyOptions['table']): CozyOptions {
  return { hour: state.hour, label, phase: state.phase, player, step, pending: null, prompt, dice: null, moves: [], table };
}

function playerIndex(state: CozyState, id: PlayerId): number {
  for (let i = 0; i < state.players.length; i++) if (state.players[i]!.id === id) return i;
  return -1;
}

/** The hour may end unless somebody still owes option A's organ. */
function tableMovesInPlay(state: CozyState): ('roll' | 'endHour')[] {
  for (const s of state.sheets) if (mustOrgan(s)) return [];
  return ['endHour'];
}


function regionNames(pos: Place): string[] {
  const out: string[] = [];
  for (let c = 0; c < pos.geo.size; c++) if (pos.region[c]) out.push(cellName(pos.geo, c));
  return out;
}

/**
 * The moves of one call, gathered in a buffer kept between calls (calls never nest): the result gets
 * an exact copy, where pushing onto a fresh array reallocated it as it grew, on every call.
 */
interface Moves {
  list: CozyMove[];
  n: number;
}

const gathered: Moves = { list: [], n: 0 };

function add(moves: Moves, move: CozyMove): void {
  moves.list[moves.n++] = move;
}

function organMoves(pos: Place, book: MoveBook, worm: Worm, types: readonly OrganType[], moves: Moves): void {
  for (const t of types) organTypeMoves(pos, book, worm, t, moves);
}

function organTypeMoves(pos: Place, book: MoveBook, worm: Worm, type: OrganType, moves: Moves): void {
  const codes = spotScratch;
  const n = spotCodes(pos.geo, worm, type, codes, 0);
  for (let i = 0; i < n; i++) add(moves, organMove(book, type, spotCell(codes[i]!), spotFacingCode(codes[i]!)));
}

/** Scratch lists for one call (calls never nest): spot codes, and which worms touch the region. */
const spotScratch: number[] = [];
const touchScratch: boolean[] = [];

function optionMoves(pos: Place, book: MoveBook, hour: number, moves: Moves): void {
  const sheet = pos.sheet;
  const dice = sheet.dice!;
  const worms = sheet.worms;
  const touching = touchScratch;
  for (let i = 0; i < worms.length; i++) touching[i] = touchesRegion(pos, worms[i]!);
  // Brains: die changes from brains that acted last hour (−1), then from each unfilled brain on a
  // worm touching the region (fillableBrains, in the same order).
  if (sheet.credits > 0) dieChanges(book, dice, -1, moves);
  for (let i = 0; i < worms.length; i++) {
    if (!touching[i]) continue;
    for (const o of worms[i]!.organs) if (o.type === 'brain' && !o.filled) dieChanges(book, dice, o.cell, moves);
  }
  // Option A.
  moves.n = freePlacements(pos, dice.shape, placementMoves(book, dice.shape), moves.list, moves.n);
  if (hour === 0) return;
  for (let i = 0; i < worms.length; i++) {
    if (!touching[i]) continue;
    const w = worms[i]!;
    const bits = organBits(w);
    // Option B (optionBOrgans, without its list), then option C.
    if (optionBAllows(dice, w, bits, 0)) organTypeMoves(pos, book, w, dice.organs[0], moves);
    if (optionBAllows(dice, w, bits, 1)) organTypeMoves(pos, book, w, dice.organs[1], moves);
    if (optionCAllows(dice, w, bits)) add(moves, activateMove(book, w.id));
  }
}

function dieChanges(book: MoveBook, dice: Roll, brain: number, moves: Moves): void {
  for (const face of SHAPE_NAMES) if (face !== dice.shape) add(moves, changeDieMove(book, 0, face, brain));
  for (const face of ORGAN_TYPES) if (face !== dice.organs[0]) add(moves, changeDieMove(book, 1, face, brain));
  for (const face of ORGAN_TYPES) if (face !== dice.organs[1]) add(moves, changeDieMove(book, 2, face, brain));
}

/** The cells a verbose listing highlights for a move, read from the move itself. */
export function highlight(pos: Place, move: CozyMove): string[] {
  const cellsOf = (id: number) => (wormById(pos, id)?.cells ?? []).map((c) => cellName(pos.geo, c));
  switch (move.type) {
    case 'placeWorm':
    case 'baby':
    case 'grow':
      return move.cells.slice();
    case 'addOrgan':
    case 'act':
    case 'food':
      return [move.cell];
    case 'changeDie':
      return move.brain ? [move.brain] : [];
    case 'activate':
    case 'partner':
      return cellsOf(move.worm);
    case 'congaLine':
      return move.worms.flatMap(cellsOf);
    case 'babyOrgans': {
      const f = pos.sheet.stack[pos.sheet.stack.length - 1];
      return f?.k === 'collar' ? babiesForOrgans(pos, f.worm, f.partner).flatMap(cellsOf) : [];
    }
    default:
      return [];
  }
}

/** The decisions whose moves depend on blank cells: the eye's foods, growth, babies. */
function needsGrid(f: Pending): boolean {
  return f.k === 'food' || f.k === 'grow' || f.k === 'collar';
}

/** The moves of the pending decision `f`; `grid` is the position with its grid when `needsGrid(f)`. */
function decisionMoves(pos: Place, grid: Position | null, book: MoveBook, f: Pending, moves: Moves): void {
  const g = pos.geo;
  const player = book.player;
  switch (f.k) {
    case 'organ':
      organMoves(pos, book, wormById(pos, f.worm)!, f.types, moves);
      break;
    case 'act':
      for (const c of f.cells) if (actableOrgan(pos, c)) add(moves, actMove(book, c));
      break;
    case 'food': {
      const eye = organAt(wormAt(grid!, f.eye)!, f.eye)!;
      for (const c of foodCells(grid!, eye)) add(moves, foodMove(book, c));
      break;
    }
    case 'grow': {
      // `from` only where a first cell touches both tips (the move is ambiguous without it).
      const steps = growthSteps(grid!, f);
      for (const s of steps) {
        let both = false;
        for (const o of steps) if (o.cell === s.cell && o.from !== s.from) both = true;
        add(moves, both ? { type: 'grow', player, cells: [cellName(g, s.cell)], from: cellName(g, s.from) } : growMove(book, s.cell));
      }
      break;
    }
    case 'line':
      for (const line of f.lines) add(moves, { type: 'congaLine', player, worms: line });
      break;
    case 'conga':
      for (const c of congaCells(pos, f)) add(moves, actMove(book, c));
      break;
    case 'partner':
      for (const id of f.partners) add(moves, { type: 'partner', player, worm: id });
      break;
    case 'collar': {
      for (const cells of babyPlacements(grid!, f.worm, f.partner)) {
        const names: string[] = [];
        for (const c of cells) names.push(cellName(g, c));
        add(moves, { type: 'baby', player, cells: names });
      }
      const babies = babiesForOrgans(pos, f.worm, f.partner);
      if (babies.length > 0) add(moves, { type: 'babyOrgans', player });
      break;
    }
    case 'babyOrgans':
      for (const id of f.babies) organMoves(pos, book, wormById(pos, id)!, BABY_ORGAN_TYPES, moves);
      break;
  }
}
