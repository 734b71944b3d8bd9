/**
 * A round of Worm-up: reveal → (two players: the ghost's dice) → (a valid X: its number) → the
 * worms move in order → next round. `step` is the pure transition; every rejection names what was
 * wrong and leaves the state alone.
 */
import { Errors, fail, ok, type Result } from '../../game.js';
import { freeNumbers, ghostOf, judgeBids, movementOrder, restrictedAfter, validX } from './bids.js';
import { GHOST_BELOW } from './setup.js';
import type { Bid, Round, WormUpMove, WormUpState } from './types.js';

/** Codes specific to this game, in the shared `move/` namespace. */
export const WormUpErrors = {
  missingBid: 'move/missing-bid',
  unknownPlayer: 'move/unknown-player',
  numberTaken: 'move/number-taken',
  notAPlayer: 'move/not-a-player',
} as const;

const PHASE_WORDS: Record<WormUpState['phase'], string> = {
  bid: 'time to reveal the bids',
  ghost: "time to roll the ghost's two dice",
  x: 'time for X to name its number',
  move: 'time for the worms to move',
  over: 'the race is over',
};

export const needsGhost = (state: WormUpState) => state.players.length < GHOST_BELOW;

/**
 * Some worm has moved in a round played (every valid bid moves its worm). Before that no head can
 * touch the card: the worms start behind the line, and a post swings only with an X that moves.
 * A round of void bids only is played but moves nothing.
 */
export const anyWormMoved = (state: WormUpState) => state.history.some((r) => r.moved > 0);

/** Closes the round: valid 7s and Xs are restricted next round. */
function closeRound(state: WormUpState, round: Round): WormUpState {
  return {
    ...state,
    phase: 'bid',
    round: state.round + 1,
    current: null,
    restricted: restrictedAfter(round.bids),
    history: [...state.history, round],
  };
}

/** With every bid judged: X names its number first, otherwise the worms move (or nobody can). */
function afterJudging(state: WormUpState, round: Round): WormUpState {
  if (validX(round.bids)) return { ...state, phase: 'x', current: round };
  const order = movementOrder(round.bids, null);
  return order.length === 0 ? closeRound(state, round) : { ...state, phase: 'move', current: { ...round, order } };
}

function reveal(state: WormUpState, bids: Record<string, Bid>): Result<WormUpState> {
  const unknown = Object.keys(bids).filter((id) => !state.players.some((p) => p.id === id));
  if (unknown.length) return fail(WormUpErrors.unknownPlayer, `no player ${unknown.join(', ')} at this table`);
  // Own keys only: a player id such as "constructor" must not find an object's built-in.
  const missing = state.players.filter((p) => !Object.hasOwn(bids, p.id));
  if (missing.length) return fail(WormUpErrors.missingBid, `bids are revealed all at once: missing ${missing.map((p) => `${p.name} (${p.color})`).join(', ')}`);
  const revealed = state.players.map((p) => ({ player: p.id, bid: bids[p.id]! }));
  const round: Round = { number: state.round, bids: judgeBids(revealed, state.restricted, null), ghost: null, xNumber: null, order: [], moved: 0, post: null };
  return ok(needsGhost(state) ? { ...state, phase: 'ghost', current: round } : afterJudging(state, round));
}

function ghost(state: WormUpState, dice: [Bid, Bid]): Result<WormUpState> {
  const round = state.current!;
  const g = ghostOf(dice);
  const bids = judgeBids(round.bids, state.restricted, g);
  return ok(afterJudging(state, { ...round, ghost: g, bids }));
}

function nameX(state: WormUpState, n: number): Result<WormUpState> {
  const round = state.current!;
  const free = freeNumbers(round.bids, round.ghost);
  if (!free.includes(n)) {
    return fail(WormUpErrors.numberTaken, `X must name a number 3–7 that nobody bid this round: ${free.join(', ')}${n >= 3 && n <= 7 ? ` (${n} was bid)` : ''}`);
  }
  return ok({ ...state, phase: 'move', current: { ...round, xNumber: n, order: movementOrder(round.bids, n) } });
}

function moved(state: WormUpState, post: 'left' | 'right' | undefined): Result<WormUpState> {
  const round = state.current!;
  const mover = round.order[round.moved]!;
  if (post && mover.bid !== 'X') return fail(Errors.illegal, `only the X may move a finish post; ${mover.player} bid ${mover.bid}`);
  const next: Round = { ...round, moved: round.moved + 1, post: post ?? round.post };
  return ok(next.moved === next.order.length ? closeRound(state, next) : { ...state, current: next });
}

function finish(state: WormUpState, winner: string): Result<WormUpState> {
  if (!state.players.some((p) => p.id === winner)) return fail(WormUpErrors.notAPlayer, `no player ${winner} at this table`);
  // Declared mid-round: the round so far goes into the history.
  const history = state.current ? [...state.history, state.current] : state.history;
  return ok({ ...state, phase: 'over', current: null, history, winner });
}

const PHASE_OF: Record<WormUpMove['type'], WormUpState['phase'][]> = {
  reveal: ['bid'],
  ghost: ['ghost'],
  x: ['x'],
  moved: ['move'],
  // Whenever the referee says a head touched the card (DECISIONS §3), a round's ghost or X still unplayed included.
  finish: ['move', 'bid', 'ghost', 'x'],
};

export function step(state: WormUpState, move: WormUpMove): Result<WormUpState> {
  if (state.phase === 'over') return fail(Errors.gameOver, `the race is over: ${state.winner} won`);
  if (!PHASE_OF[move.type].includes(state.phase)) return fail(Errors.wrongPhase, `cannot ${move.type} now: it is ${PHASE_WORDS[state.phase]}`);
  switch (move.type) {
    case 'reveal':
      return reveal(state, move.bids);
    case 'ghost':
      return ghost(state, move.dice);
    case 'x':
      return nameX(state, move.number);
    case 'moved':
      return moved(state, move.post);
    case 'finish':
      // A head touches the card during someone's move; in the bidding that follows, it can only be
      // by a move already made, so until a worm has moved there is no race to end.
      if (state.phase !== 'move' && !anyWormMoved(state)) return fail(Errors.wrongPhase, 'no worm has moved yet');
      return finish(state, move.winner);
  }
}
