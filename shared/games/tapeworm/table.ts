/**
 * The table side of Tapeworm: headline and ranking, who may send moves (the active player; the
 * referee always may), no dice, and what the hardware buttons mean.
 */
import type { ObservedDie } from '../../dice.js';
import { fail, type Authority, type ButtonName, type DiceRequest, type GameStatus, type PlayerId, type Result } from '../../game.js';
import { describeTurn } from './instructions.js';
import type { TapewormMove } from './moves.js';
import { canDraw } from './pool.js';
import { activePlayer, type EndReason, type TapewormState } from './state.js';

export interface TapewormScoreLine {
  player: PlayerId;
  /** 1 for the winner; everyone else shares 2 (the game names only a winner). */
  rank: number;
  cards: number;
}

export interface TapewormScore {
  finished: boolean;
  winner: PlayerId | null;
  end: EndReason | null;
  turns: number;
  lines: TapewormScoreLine[];
  deck: { name: string; official: boolean };
}

export function score(state: TapewormState): TapewormScore {
  const lines = state.players
    .map((p, i) => ({ player: p.id, rank: p.id === state.winner ? 1 : state.winner ? 2 : 1, cards: state.hands[i]! }))
    .sort((a, b) => a.rank - b.rank);
  return {
    finished: state.phase === 'over',
    winner: state.winner,
    end: state.end,
    turns: state.turn,
    lines,
    deck: { name: state.deck.name, official: state.deck.official },
  };
}

/** Every action is the active player's to record (the server lets the referee record it too). */
export function authority(_state: TapewormState, move: TapewormMove): Authority {
  return { kind: 'player', player: move.player };
}

export function status(state: TapewormState): GameStatus {
  if (state.phase === 'over') {
    return {
      headline: describeTurn(state),
      toAct: [],
      finished: true,
      // Score: cards left in hand (the winner has none, or was the last to play).
      ranking: score(state).lines.map((l) => ({ player: l.player, rank: l.rank, score: l.cards })),
    };
  }
  return { headline: describeTurn(state), toAct: [activePlayer(state).id], finished: false };
}

/** Tapeworm has no dice, and its cards are not read by the camera. */
export function diceRequest(): DiceRequest | null {
  return null;
}

export function diceMove(_state: TapewormState, _dice: ObservedDie[]): Result<TapewormMove> {
  return fail('dice/not-expected', 'Tapeworm uses no dice');
}

/** NEXT: draw, or end the turn, or decline the pending effect. OK: use a Peek (it needs no choice). */
export function buttonMove(state: TapewormState, button: ButtonName): TapewormMove | null {
  if (state.phase === 'over') return null;
  const player = activePlayer(state).id;
  if (button === 'NEXT') {
    if (state.phase === 'draw') return { type: 'draw', player };
    if (state.phase === 'play') return { type: 'end-turn', player };
    return { type: 'decline', player };
  }
  if (button === 'OK' && state.phase === 'effect' && state.pending[0]?.effect === 'peek' && canDraw(state)) return { type: 'peek', player };
  return null;
}
