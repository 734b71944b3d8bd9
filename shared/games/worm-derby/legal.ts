/**
 * What the table may do now. Compact by default (the move kinds and the numbers a phone shows);
 * `{ verbose: true }` adds `detail`, every distinct legal move, for highlights and for tests.
 */
import type { PlayerId } from '../../game.js';
import { PIECEPACK_FACES } from './die-table.js';
import { forcedEnds, instruction, protectedBiters } from './instructions.js';
import type { DerbyMove, DerbyMoveType } from './moves.js';
import { isRacing, MIN_WORM_LENGTH, WORM_ENDS, type DerbyPhase, type DerbyState, type Worm, type WormEnd } from './state.js';

export interface DerbyQuery {
  verbose?: boolean;
}

export interface StepOptions {
  /** Steps the worm may take (never more than its length). */
  steps: number;
  /** Rolled steps above the worm's length, lost. */
  lost: number;
  /** The ends the steps may be taken from ('either', unless the worm was bitten or already moved from one end this turn). */
  from: WormEnd[] | 'either';
  /** Worms this one may eat, and at which ends (advanced rules). */
  mayEat: { player: PlayerId; ends: WormEnd[] }[];
  mayRoundPylon: boolean;
  mayFinish: boolean;
  rollAgain: boolean;
}

export interface DerbyLegal {
  phase: DerbyPhase;
  /** Who acts now (the roller in the roll phase); null when the race is over. */
  player: PlayerId | null;
  instruction: string;
  moves: DerbyMoveType[];
  dieTable: { name: string; reconstructed: boolean };
  steps?: StepOptions;
  ace?: { moveObstacle: boolean; returnCoin: boolean; rollAgain: boolean };
  /** Verbose only: every distinct legal move. */
  detail?: DerbyMove[];
}

/** Worms the mover may eat now: racing, longer than two coins, and not a biter it must spare. */
export function edibleWorms(state: DerbyState, mover: Worm): Worm[] {
  if (state.rules !== 'advanced') return [];
  const spared = protectedBiters(mover);
  return state.worms.filter((w) => w.player !== mover.player && isRacing(w) && w.length > MIN_WORM_LENGTH && !spared.includes(w.player));
}

/** The step move's options for the active worm (phase 'move'). */
export function stepOptions(state: DerbyState, mover: Worm): StepOptions | undefined {
  const pending = state.pending;
  if (!pending) return undefined;
  return {
    steps: pending.steps,
    lost: pending.lost,
    // A roll again keeps the turn's direction: the end it first moved from (one of the bitten ends, if bitten).
    from: state.turnEnd ? [state.turnEnd] : (forcedEnds(mover) ?? 'either'),
    mayEat: pending.steps > 0 ? edibleWorms(state, mover).map((w) => ({ player: w.player, ends: [...WORM_ENDS] })) : [],
    mayRoundPylon: !mover.roundedPylon,
    mayFinish: true,
    rollAgain: pending.rollAgain,
  };
}

function stepMoves(player: PlayerId, mover: Worm, options: StepOptions): DerbyMove[] {
  const out: DerbyMove[] = [];
  const froms: (WormEnd | undefined)[] = options.from === 'either' ? [undefined, ...WORM_ENDS] : options.from;
  const flagSets: { roundedPylon?: true; finished?: true }[] = mover.roundedPylon
    ? [{}, { finished: true }]
    : [{}, { roundedPylon: true }, { roundedPylon: true, finished: true }];
  const bodies: Omit<Extract<DerbyMove, { type: 'move' }>, 'type' | 'player' | 'from'>[] = [{ steps: options.steps }];
  for (let k = 0; k < options.steps; k++) bodies.push({ steps: k, blocked: true });
  for (const target of options.mayEat) {
    for (const end of target.ends) {
      for (let k = 1; k <= options.steps; k++) bodies.push({ steps: k, ate: { player: target.player, end } });
    }
  }
  for (const body of bodies) {
    // With no steps there is no end to name, and no pylon rounded or line crossed.
    const ends = body.steps === 0 ? [undefined] : froms;
    for (const from of ends) {
      for (const flags of body.steps === 0 ? [{}] : flagSets) {
        out.push({ type: 'move', player, ...body, ...(from ? { from } : {}), ...flags });
      }
    }
  }
  // Home in the middle of the roll: the steps after the line are not taken.
  for (let k = 1; k < options.steps; k++) {
    for (const from of froms) {
      for (const flags of flagSets.filter((f) => f.finished)) out.push({ type: 'move', player, steps: k, ...(from ? { from } : {}), ...flags });
    }
  }
  return out;
}

export function legalOptions(state: DerbyState, query?: DerbyQuery): DerbyLegal {
  const base = {
    phase: state.phase,
    instruction: instruction(state),
    dieTable: { name: state.dieTable.name, reconstructed: state.dieTable.reconstructed },
  };
  if (state.phase === 'over') {
    return { ...base, player: null, moves: [], ...(query?.verbose ? { detail: [] } : {}) };
  }
  const mover = state.worms[state.active]!;
  const player = mover.player;
  const stop: DerbyMove = { type: 'stop-race' };
  switch (state.phase) {
    case 'obstacles': {
      const detail: DerbyMove[] = [{ type: 'place-obstacle', player }, stop];
      return { ...base, player, moves: ['place-obstacle', 'stop-race'], ...(query?.verbose ? { detail } : {}) };
    }
    case 'roll': {
      const detail: DerbyMove[] = [...PIECEPACK_FACES.map((face): DerbyMove => ({ type: 'roll', face })), stop];
      return { ...base, player, moves: ['roll', 'stop-race'], ...(query?.verbose ? { detail } : {}) };
    }
    case 'ace': {
      const ace = {
        moveObstacle: state.obstacles.placed > 0,
        returnCoin: state.rules === 'advanced' && mover.eaten > 0,
        rollAgain: state.pending?.rollAgain ?? false,
      };
      const moves: DerbyMoveType[] = [];
      const detail: DerbyMove[] = [];
      if (ace.moveObstacle) {
        moves.push('move-obstacle');
        detail.push({ type: 'move-obstacle', player });
      }
      if (ace.returnCoin) {
        moves.push('return-coin');
        detail.push({ type: 'return-coin', player }, ...WORM_ENDS.map((end): DerbyMove => ({ type: 'return-coin', player, end })));
      }
      moves.push('pass-ace', 'stop-race');
      detail.push({ type: 'pass-ace', player }, stop);
      return { ...base, player, moves, ace, ...(query?.verbose ? { detail } : {}) };
    }
    case 'move': {
      const steps = stepOptions(state, mover);
      const detail = query?.verbose ? (steps ? [...stepMoves(player, mover, steps), stop] : [stop]) : null;
      return { ...base, player, moves: ['move', 'stop-race'], ...(steps ? { steps } : {}), ...(detail ? { detail } : {}) };
    }
  }
}
