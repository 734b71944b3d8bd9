/**
 * `legalOptions(state, query)`: exactly what a player may choose next, as the moves `apply` accepts
 * (after chess.js's `moves()`); `{ verbose: true }` adds each move's cells to highlight and the
 * hour's region (after `moves({ verbose: true })`).
 */
import type { PlayerId } from '../../game.js';
import { BABY_ORGAN_TYPES, actableOrgan, babiesForOrgans, babyPlacements, congaCells, growthSteps } from './actions.js';
import { cellName } from './board.js';
import { hourLabel } from './chapters.js';
import { describePending } from './describe.js';
import { atOptionStep, fillableBrains, optionBOrgans, optionCAllows, wormPlacements } from './hour.js';
import type { CozyMove } from './moves.js';
import { foodCells, organSpots } from './organs.js';
import { position, touchesRegion, wormAt, wormById, type Position } from './position.js';
import { placementsOf } from './shapes.js';
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
  if (index < 0) return make(state, label, query.player ?? null, 'done', `no player "${query.player}" at this table`, [state.phase === 'roll' ? 'roll' : 'endHour']);
  const player = state.players[index]!.id;
  const pos = position(state, index);
  if (state.phase === 'roll') {
    const r = make(state, label, player, 'roll', `Roll the dice for ${label}.`, ['roll']);
    if (verbose) r.verbose = { region: regionNames(pos), moves: [] };
    return r;
  }
  const sheet = pos.sheet;
  const moves: CozyMove[] = [];
  let step: Step;
  let prompt: string;
  let pending: PendingKind | null = null;
  if (sheet.done) {
    step = 'done';
    prompt = `Done with ${label}: waiting for the next hour.`;
  } else if (atOptionStep(sheet)) {
    step = 'option';
    prompt = state.hour === 0 ? 'Option A: place a worm of the rolled shape in the 1 AM region, then add a rolled organ.' : 'Choose option A, B or C (or nothing this hour); brains may change dice first.';
    optionMoves(pos, player, state.hour, moves);
    moves.push({ type: 'done', player });
  } else {
    const f = sheet.stack[sheet.stack.length - 1]!;
    step = 'decision';
    pending = f.k;
    prompt = describePending(pos, f);
    decisionMoves(pos, player, f, moves);
    if (!(f.k === 'organ' && f.must)) moves.push({ type: 'pass', player });
    if (!hasMustOrgan(sheet.stack)) moves.push({ type: 'done', player });
  }
  const result = make(state, label, player, step, prompt, ['endHour']);
  result.pending = pending;
  result.dice = sheet.dice;
  result.moves = moves;
  if (verbose) result.verbose = { region: regionNames(pos), moves: moves.map((move) => ({ move, cells: highlight(pos, move) })) };
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

function hasMustOrgan(stack: readonly Pending[]): boolean {
  for (const f of stack) if (f.k === 'organ' && f.must) return true;
  return false;
}

function regionNames(pos: Position): string[] {
  const out: string[] = [];
  for (let c = 0; c < pos.geo.size; c++) if (pos.region[c]) out.push(cellName(pos.geo, c));
  return out;
}

type Moves = CozyMove[];

function organMoves(pos: Position, player: PlayerId, worm: Worm, types: readonly OrganType[], moves: Moves): void {
  for (const t of types) {
    for (const s of organSpots(pos.geo, worm, t)) {
      const cell = cellName(pos.geo, s.cell);
      moves.push(s.facing ? { type: 'addOrgan', player, organ: t, cell, facing: s.facing } : { type: 'addOrgan', player, organ: t, cell });
    }
  }
}

function optionMoves(pos: Position, player: PlayerId, hour: number, moves: Moves): void {
  const sheet = pos.sheet;
  const dice = sheet.dice!;
  // Brains: die changes from brains that acted last hour, and from brains that may be filled now.
  const brains: (string | undefined)[] = [];
  if (sheet.credits > 0) brains.push(undefined);
  for (const b of fillableBrains(pos)) brains.push(cellName(pos.geo, b));
  for (const brain of brains) {
    const cell = brain;
    for (const face of SHAPE_NAMES) if (face !== dice.shape) moves.push(cell ? { type: 'changeDie', player, die: 0, face, brain: cell } : { type: 'changeDie', player, die: 0, face });
    for (const die of [1, 2] as const)
      for (const face of ORGAN_TYPES)
        if (face !== dice.organs[die - 1]) moves.push(cell ? { type: 'changeDie', player, die, face, brain: cell } : { type: 'changeDie', player, die, face });
  }
  // Option A.
  const p = placementsOf(pos.geo)[dice.shape];
  const ks = wormPlacements(pos, dice.shape);
  for (let i = 0; i < ks.length; i++) moves.push({ type: 'placeWorm', player, cells: p.names[ks[i]!] as string[] });
  if (hour === 0) return;
  for (const w of sheet.worms) {
    if (!touchesRegion(pos, w)) continue;
    organMoves(pos, player, w, optionBOrgans(dice, w), moves); // option B
    if (optionCAllows(dice, w)) moves.push({ type: 'activate', player, worm: w.id }); // option C
  }
}

/** The cells a verbose listing highlights for a move, read from the move itself. */
export function highlight(pos: Position, move: CozyMove): string[] {
  const cellsOf = (id: number) => (wormById(pos, id)?.cells ?? []).map((c) => cellName(pos.geo, c));
  switch (move.type) {
    case 'placeWorm':
    case 'baby':
      return [...move.cells];
    case 'grow':
      return [...move.cells];
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

function decisionMoves(pos: Position, player: PlayerId, f: Pending, moves: Moves): void {
  const g = pos.geo;
  switch (f.k) {
    case 'organ':
      organMoves(pos, player, wormById(pos, f.worm)!, f.types, moves);
      break;
    case 'act':
      for (const c of f.cells) if (actableOrgan(pos, c)) moves.push({ type: 'act', player, cell: cellName(g, c) });
      break;
    case 'food': {
      const eye = organAt(wormAt(pos, f.eye)!, f.eye)!;
      for (const c of foodCells(pos, eye)) moves.push({ type: 'food', player, cell: cellName(g, c) });
      break;
    }
    case 'grow': {
      // `from` only where a first cell touches both tips (the move is ambiguous without it).
      const steps = growthSteps(pos, f);
      for (const s of steps) {
        let both = false;
        for (const o of steps) if (o.cell === s.cell && o.from !== s.from) both = true;
        moves.push(both ? { type: 'grow', player, cells: [cellName(g, s.cell)], from: cellName(g, s.from) } : { type: 'grow', player, cells: [cellName(g, s.cell)] });
      }
      break;
    }
    case 'line':
      for (const line of f.lines) moves.push({ type: 'congaLine', player, worms: line });
      break;
    case 'conga':
      for (const c of congaCells(pos, f)) moves.push({ type: 'act', player, cell: cellName(g, c) });
      break;
    case 'partner':
      for (const id of f.partners) moves.push({ type: 'partner', player, worm: id });
      break;
    case 'collar': {
      for (const cells of babyPlacements(pos, f.worm, f.partner)) {
        const names: string[] = [];
        for (const c of cells) names.push(cellName(g, c));
        moves.push({ type: 'baby', player, cells: names });
      }
      const babies = babiesForOrgans(pos, f.worm, f.partner);
      if (babies.length > 0) moves.push({ type: 'babyOrgans', player });
      break;
    }
    case 'babyOrgans':
      for (const id of f.babies) organMoves(pos, player, wormById(pos, id)!, BABY_ORGAN_TYPES, moves);
      break;
  }
}
