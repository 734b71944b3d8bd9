/**
 * A turn of The worm is drawn: roll, keep, (classic: stop), then take, steal or fail.
 * `step` is the pure transition; every rejection names what was wrong and leaves the state alone.
 */
import { Errors, fail, ok, type Result } from '../../game.js';
import { allFacesKept, isKept, keepableFaces, keptCount, total, wormHeld } from './dice.js';
import { failure, stealableTiles, takeableTiles } from './tiles.js';
import type { Face, Kept, Steal, TurnOutcome, TwidMove, TwidState } from './types.js';

/** Codes specific to this game, in the shared `move/` namespace. */
export const TwidErrors = {
  wrongDiceCount: 'move/wrong-dice-count',
  faceNotRolled: 'move/face-not-rolled',
  faceAlreadyKept: 'move/face-already-kept',
  cannotStop: 'move/cannot-stop',
  tileNotTakeable: 'move/tile-not-takeable',
  tileNotStealable: 'move/tile-not-stealable',
} as const;

export const PHASE_WORDS = {
  roll: 'to roll',
  keep: 'to keep a face',
  choose: 'to take or steal a tile',
  over: 'the game is over',
} as const;

/** What the kept dice are worth and what they can buy, for the turn as it stands. */
export interface Judgement {
  total: number;
  wormHeld: boolean;
  takeable: number[];
  stealable: Steal[];
  /** Why nothing can be taken, or null when something can. */
  whyNot: string | null;
}

export function judge(state: TwidState, kept: readonly Kept[] = state.kept): Judgement {
  const sum = total(kept, state.rules);
  const worm = wormHeld(kept);
  if (state.rules.wormRequired && !worm) {
    return { total: sum, wormHeld: worm, takeable: [], stealable: [], whyNot: 'no worm was kept' };
  }
  const takeable = takeableTiles(state.table, sum, state.rules);
  const stealable = stealableTiles(state.stacks, state.players, state.current, sum, state.tiles);
  const whyNot =
    takeable.length + stealable.length > 0
      ? null
      : `a total of ${sum} reaches no face-up tile and matches no opponent's top tile`;
  return { total: sum, wormHeld: worm, takeable, stealable, whyNot };
}

function endTurn(state: TwidState, changes: Pick<TwidState, 'table' | 'removed' | 'stacks'>, last: TurnOutcome): TwidState {
  return {
    ...state,
    ...changes,
    phase: changes.table.length === 0 ? 'over' : 'roll',
    current: (state.current + 1) % state.players.length,
    kept: [],
    roll: null,
    turn: state.turn + 1,
    last,
  };
}

function failTurn(state: TwidState, reason: string): TwidState {
  const stack = state.stacks[state.current]!;
  const f = failure(state.table, stack, state.rules);
  const stacks = state.stacks.map((s, i) => (i === state.current ? f.stack : s));
  const removed = f.flipped === null ? state.removed : [...state.removed, f.flipped].sort((a, b) => a - b);
  return endTurn(state, { table: f.table, removed, stacks }, {
    player: state.players[state.current]!.id,
    kind: 'failed',
    total: total(state.kept, state.rules),
    reason,
    returned: f.returned,
    flipped: f.flipped,
  });
}

/** The dice are all in: take/steal if anything is within reach, fail otherwise. */
function closeTurn(state: TwidState): TwidState {
  const j = judge(state);
  return j.whyNot === null ? { ...state, phase: 'choose', roll: null } : failTurn(state, j.whyNot);
}

function roll(state: TwidState, dice: Face[]): Result<TwidState> {
  const left = state.dice - keptCount(state.kept);
  if (dice.length !== left) {
    return fail(TwidErrors.wrongDiceCount, `${left} dice are to be rolled (${state.dice - left} kept), but the roll has ${dice.length}`);
  }
  const rolled: TwidState = { ...state, roll: [...dice], phase: 'keep' };
  if (keepableFaces(dice, state.kept).length > 0) return ok(rolled);
  // No die shows a new face: the text judges the total; classic calls it a bust.
  return ok(state.rules.stuckRollBusts ? failTurn(rolled, 'the roll showed no face that was not kept before') : closeTurn(rolled));
}

function keep(state: TwidState, face: Face): Result<TwidState> {
  const tray = state.roll ?? [];
  const count = tray.filter((f) => f === face).length;
  if (count === 0) return fail(TwidErrors.faceNotRolled, `no die in the roll (${tray.join(' ')}) shows ${face}`);
  if (isKept(state.kept, face)) return fail(TwidErrors.faceAlreadyKept, `${face} was already kept this turn; only a face not kept before may be taken`);
  const next: TwidState = { ...state, kept: [...state.kept, { face, count }], roll: null, phase: 'roll' };
  if (keptCount(next.kept) === state.dice) return ok(closeTurn(next));
  // The text: the turn ends when no die of a new value can be chosen; with every face kept, none can.
  if (!state.rules.mayStop && allFacesKept(next.kept)) return ok(closeTurn(next));
  return ok(next);
}

function stop(state: TwidState): Result<TwidState> {
  if (!state.rules.mayStop) return fail(TwidErrors.cannotStop, `the ${state.preset} preset has no stopping: the turn goes on until no new face can be kept`);
  if (state.kept.length === 0) return fail(TwidErrors.cannotStop, 'keep at least one face before stopping');
  return ok(closeTurn(state));
}

function take(state: TwidState, tile: number): Result<TwidState> {
  const j = judge(state);
  if (!j.takeable.includes(tile)) {
    const why = !state.table.includes(tile)
      ? `tile ${tile} is not face up on the table`
      : j.whyNot ?? (tile > j.total ? `tile ${tile} is above the total of ${j.total}` : `only the highest tile within ${j.total} may be taken (${j.takeable.join(', ')})`);
    return fail(TwidErrors.tileNotTakeable, why);
  }
  const stacks = state.stacks.map((s, i) => (i === state.current ? [...s, tile] : s));
  return ok(endTurn(state, { table: state.table.filter((v) => v !== tile), removed: state.removed, stacks }, {
    player: state.players[state.current]!.id,
    kind: 'took',
    total: j.total,
    tile,
  }));
}

function steal(state: TwidState, tile: number): Result<TwidState> {
  const j = judge(state);
  const target = j.stealable.find((s) => s.tile === tile);
  if (!target) {
    const why = j.whyNot ?? `tile ${tile} is not an opponent's top tile equal to the total of ${j.total}`;
    return fail(TwidErrors.tileNotStealable, why);
  }
  const victim = state.players.findIndex((p) => p.id === target.from);
  const stacks = state.stacks.map((s, i) => (i === state.current ? [...s, tile] : i === victim ? s.slice(0, -1) : s));
  return ok(endTurn(state, { table: state.table, removed: state.removed, stacks }, {
    player: state.players[state.current]!.id,
    kind: 'stole',
    total: j.total,
    tile,
    from: target.from,
  }));
}

const PHASE_OF: Record<TwidMove['type'], TwidState['phase'][]> = {
  roll: ['roll'],
  keep: ['keep'],
  stop: ['roll'],
  take: ['choose'],
  steal: ['choose'],
};

export function step(state: TwidState, move: TwidMove): Result<TwidState> {
  if (state.phase === 'over') return fail(Errors.gameOver, 'the game is over: no face-up tile is left on the table');
  if (!PHASE_OF[move.type].includes(state.phase)) {
    return fail(Errors.wrongPhase, `cannot ${move.type} now: it is ${state.players[state.current]!.name}'s turn ${PHASE_WORDS[state.phase]}`);
  }
  switch (move.type) {
    case 'roll':
      return roll(state, move.dice);
    case 'keep':
      return keep(state, move.face);
    case 'stop':
      return stop(state);
    case 'take':
      return take(state, move.tile);
    case 'steal':
      return steal(state, move.tile);
  }
}
