/**
 * The Tapeworm state: plain JSON and public information only. The snapshot goes to every phone,
 * so hands are counts, not cards; a card's identity is recorded when it becomes public (placed on
 * the table, discarded). The deck definition travels in the state so the rules stay pure.
 */
import type { PlayerId, PlayerInfo } from '../../game.js';
import type { DeckDefinition } from './deck.js';
import type { PlacedCard, TableEdge } from './geometry.js';

export type TapewormPhase =
  /** The active player draws a card. */
  | 'draw'
  /** The active player plays cards (the first one chooses the colour), cuts, or ends the turn. */
  | 'play'
  /** A played card's icon (or a closed ring) offers an effect: use it or decline it. */
  | 'effect'
  | 'over';

export type IconEffect = 'peek' | 'hatch' | 'swap' | 'dig';
export type PendingEffect = { effect: IconEffect | 'ringworm'; /** the card that brought it */ card: string };

export type EndReason = 'emptied-hand' | 'stalled';

export interface TapewormState {
  game: 'tapeworm';
  /** Seats in clockwise turn order, the first player first. One player: solo practice. */
  players: PlayerInfo[];
  deck: DeckDefinition;
  tableEdge: TableEdge | null;
  /** Face-down cards left to draw. */
  drawPile: number;
  /** Cards in each hand, by seat. */
  hands: number[];
  /** Discarded card ids, oldest first. */
  discard: string[];
  /** Cards on the table; the start card first, at (0, 0). */
  table: PlacedCard[];
  phase: TapewormPhase;
  active: number;
  turn: number;
  /** The colour being extended this turn: locked by the first card played (or Cut). */
  lock: string | null;
  /** Cards played this turn (placed or used to Cut). */
  played: number;
  /** A Cut was played this turn: every card played in it must be wholly the locked colour (absent until then). */
  cut?: boolean;
  /** A head or a colour change was played: the turn ends once its effects are resolved. */
  turnEnds: boolean;
  /** Effects to resolve, first first. */
  pending: PendingEffect[];
  /** Turns in a row that ended with no card played. */
  passes: number;
  lastToPlay: PlayerId | null;
  winner: PlayerId | null;
  end: EndReason | null;
  /** How many times the discards were shuffled into a new deck. */
  reshuffles: number;
}

export function activePlayer(state: TapewormState): PlayerInfo {
  const p = state.players[state.active];
  if (!p) throw new RangeError(`no player at seat ${state.active}`);
  return p;
}

export function nameOf(state: TapewormState, player: PlayerId): string {
  return state.players.find((p) => p.id === player)?.name ?? player;
}

export const isSolo = (state: TapewormState): boolean => state.players.length === 1;
