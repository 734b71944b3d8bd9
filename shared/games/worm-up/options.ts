/**
 * Legal options: compact by default (phase, who acts, what the table must observe, move texts), and
 * with `{ verbose: true }` the bids, the ghost, X's free numbers and the movement order.
 */
import { RESTRICTED_BIDS, freeNumbers, validX } from './bids.js';
import { moveText } from './moves.js';
import { anyWormMoved } from './round.js';
import { BIDS, type WormUpDetail, type WormUpMove, type WormUpOptions, type WormUpQuery, type WormUpState } from './types.js';

/** Every legal move that needs no observation (reveal and ghost carry the dice the table saw). */
export function legalMoves(state: WormUpState): WormUpMove[] {
  const round = state.current;
  const finishes = (): WormUpMove[] => state.players.map((p) => ({ type: 'finish', winner: p.id }));
  switch (state.phase) {
    case 'bid':
      return anyWormMoved(state) ? finishes() : [];
    case 'ghost':
      return anyWormMoved(state) ? finishes() : [];
    case 'x':
      return [...freeNumbers(round!.bids, round!.ghost).map((n): WormUpMove => ({ type: 'x', number: n })), ...(anyWormMoved(state) ? finishes() : [])];
    case 'move': {
      const mover = round!.order[round!.moved]!;
      const moves: WormUpMove[] = [{ type: 'moved' }];
      if (mover.bid === 'X') moves.push({ type: 'moved', post: 'left' }, { type: 'moved', post: 'right' });
      return [...moves, ...finishes()];
    }
    case 'over':
      return [];
  }
}

export function toAct(state: WormUpState): string[] {
  switch (state.phase) {
    case 'bid':
      return state.players.map((p) => p.id);
    case 'x':
      return [validX(state.current!.bids)!.player];
    case 'move': {
      const r = state.current!;
      return [r.order[r.moved]!.player];
    }
    default:
      return [];
  }
}

export function warningFor(state: WormUpState, player: string): string | null {
  return state.restricted.includes(player) ? `may not bid ${RESTRICTED_BIDS.join(' or ')} after a valid ${RESTRICTED_BIDS.join(' or ')}: such a bid is void` : null;
}

function detail(state: WormUpState): WormUpDetail {
  const r = state.current;
  return {
    bidding:
      state.phase === 'bid'
        ? state.players.map((p) => ({
            player: p.id,
            color: p.color,
            allowed: BIDS.filter((b) => !(state.restricted.includes(p.id) && RESTRICTED_BIDS.includes(b))),
            warning: warningFor(state, p.id),
          }))
        : [],
    bids: r ? r.bids.map((b) => ({ ...b, void: [...b.void] })) : null,
    ghost: r?.ghost ?? null,
    xPlayer: r ? validX(r.bids)?.player ?? null : null,
    free: r && state.phase === 'x' ? freeNumbers(r.bids, r.ghost) : [],
    order: r ? r.order.map((m) => ({ ...m })) : [],
    next: r && state.phase === 'move' ? { ...r.order[r.moved]! } : null,
    lastRound: state.history[state.history.length - 1] ?? null,
  };
}

export function legalOptions(state: WormUpState, query?: WormUpQuery): WormUpOptions {
  const out: WormUpOptions = {
    phase: state.phase,
    round: state.round,
    toAct: toAct(state),
    awaiting: state.phase === 'bid' ? 'bids' : state.phase === 'ghost' ? 'ghost' : null,
    moves: legalMoves(state).map(moveText),
  };
  if (query?.verbose) out.detail = detail(state);
  return out;
}
