/**
 * The table side of Worm Derby: the referee headline, who may send which move, what the camera
 * should read, what the hardware buttons mean, and the finishing order as a score.
 */
import type { ObservedDie } from '../../dice.js';
import { fail, ok, type Authority, type ButtonName, type DiceRequest, type GameStatus, type PlayerId, type Result } from '../../game.js';
import { PIECEPACK_FACES, type PiecepackFace } from './die-table.js';
import { forcedEnds, instruction } from './instructions.js';
import type { DerbyMove } from './moves.js';
import { activeWorm, nameOf, type DerbyState } from './state.js';

export const DiceErrors = {
  notExpected: 'dice/not-expected',
  wrongSet: 'dice/wrong-set',
  wrongCount: 'dice/wrong-count',
  badFace: 'dice/bad-face',
} as const;

export interface DerbyScoreLine {
  player: PlayerId;
  /** 1 = winner; worms that did not finish share the place after the last finisher. */
  rank: number;
  place: number | null;
  length: number;
  eaten: number;
  roundedPylon: boolean;
}

export interface DerbyScore {
  finished: boolean;
  finishingOrder: PlayerId[];
  lines: DerbyScoreLine[];
  dieTable: { name: string; reconstructed: boolean };
}

export function score(state: DerbyState): DerbyScore {
  const finishers = state.finishingOrder.length;
  const lines = state.worms
    .map((w) => ({
      player: w.player,
      rank: w.place ?? finishers + 1,
      place: w.place,
      length: w.length,
      eaten: w.eaten,
      roundedPylon: w.roundedPylon,
    }))
    .sort((a, b) => a.rank - b.rank);
  return {
    finished: state.phase === 'over',
    finishingOrder: state.finishingOrder.slice(),
    lines,
    dieTable: { name: state.dieTable.name, reconstructed: state.dieTable.reconstructed },
  };
}

/** The roll and stopping the race are the table's; reports about a worm are its player's. */
export function authority(_state: DerbyState, move: DerbyMove): Authority {
  if (move.type === 'roll' || move.type === 'stop-race') return { kind: 'table' };
  return { kind: 'player', player: move.player };
}

export function status(state: DerbyState): GameStatus {
  if (state.phase === 'over') {
    const s = score(state);
    return {
      headline: instruction(state),
      toAct: [],
      finished: true,
      // Places are the score: the winner scores one point for every worm behind it.
      ranking: s.lines.map((l) => ({ player: l.player, rank: l.rank, score: state.worms.length - l.rank })),
    };
  }
  return { headline: instruction(state), toAct: [activeWorm(state).player], finished: false };
}

export function diceRequest(state: DerbyState): DiceRequest | null {
  if (state.phase !== 'roll') return null;
  const player = state.players[state.active]!;
  return {
    sets: ['piecepack', 'd6'],
    slots: [{ set: 'piecepack', role: player.id, ...(player.color ? { color: player.color } : {}) }],
    count: { min: 1, max: 1 },
    prompt: `${player.name}: roll your die`,
  };
}

/** A d6 may stand in for the piecepack die: 1 is the ace, 2–5 are themselves, 6 is the null. */
const D6_STAND_IN: Record<string, PiecepackFace> = { '1': 'ace', '2': '2', '3': '3', '4': '4', '5': '5', '6': 'null' };

export function diceMove(state: DerbyState, dice: ObservedDie[]): Result<DerbyMove> {
  if (state.phase !== 'roll') {
    return fail(DiceErrors.notExpected, state.phase === 'over' ? 'the race is over' : `no roll is expected now: ${instruction(state)}`);
  }
  if (dice.length !== 1) return fail(DiceErrors.wrongCount, `expected the active player's one die, saw ${dice.length}`);
  const die = dice[0]!;
  let face: PiecepackFace | undefined;
  if (die.set === 'piecepack') face = PIECEPACK_FACES.find((f) => f === die.face);
  else if (die.set === 'd6') face = D6_STAND_IN[die.face];
  else return fail(DiceErrors.wrongSet, `the die is from the ${die.set} set; Worm Derby uses a piecepack die (or a d6)`);
  if (!face) return fail(DiceErrors.badFace, `"${die.face}" is not a face of the ${die.set} set`);
  return ok({ type: 'roll', face });
}

/**
 * NEXT confirms the instruction as done: a tile placed, an obstacle moved, or the full steps
 * taken (from the bitten end when the worm must move away; with both ends bitten it cannot tell
 * which, so it means nothing). OK passes an ace without using it. READ and BACK are the server's.
 */
export function buttonMove(state: DerbyState, button: ButtonName): DerbyMove | null {
  if (state.phase === 'over' || state.phase === 'roll') return null;
  const worm = activeWorm(state);
  const player = worm.player;
  if (state.phase === 'obstacles') return button === 'NEXT' ? { type: 'place-obstacle', player } : null;
  if (state.phase === 'ace') {
    if (button === 'OK') return { type: 'pass-ace', player };
    if (button !== 'NEXT') return null;
    return state.obstacles.placed > 0 ? { type: 'move-obstacle', player } : { type: 'return-coin', player };
  }
  if (button !== 'NEXT' || !state.pending) return null;
  // Later in a turn the steps come from the end the worm already moved from.
  if (state.turnEnd) return { type: 'move', player, steps: state.pending.steps, from: state.turnEnd };
  const ends = forcedEnds(worm);
  if (ends && ends.length > 1) return null;
  return { type: 'move', player, steps: state.pending.steps, ...(ends ? { from: ends[0]! } : {}) };
}

/** One line for logs: "bob moved 3 steps from B, ate alice@A". */
export function moveText(state: DerbyState, move: DerbyMove): string {
  switch (move.type) {
    case 'roll':
      return `${nameOf(state, activeWorm(state).player)} rolled ${move.face}`;
    case 'stop-race':
      return 'the race was stopped';
    case 'place-obstacle':
      return `${nameOf(state, move.player)} placed an obstacle`;
    case 'move-obstacle':
      return `${nameOf(state, move.player)} moved an obstacle`;
    case 'return-coin':
      return `${nameOf(state, move.player)} put an eaten coin back${move.end ? ` on end ${move.end}` : ''}`;
    case 'pass-ace':
      return `${nameOf(state, move.player)} used nothing on the ace`;
    case 'move': {
      const parts = [`${nameOf(state, move.player)} moved ${move.steps} step${move.steps === 1 ? '' : 's'}${move.from ? ` from end ${move.from}` : ''}`];
      if (move.blocked) parts.push('blocked');
      if (move.ate) parts.push(`ate a coin of ${nameOf(state, move.ate.player)} at end ${move.ate.end}`);
      if (move.roundedPylon) parts.push('rounded the pylon');
      if (move.finished) parts.push('finished');
      return parts.join(', ');
    }
  }
}
