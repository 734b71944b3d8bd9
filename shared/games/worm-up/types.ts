/** The state and moves of Worm-up, as plain JSON. */
import type { PlayerId } from '../../game.js';

/** A bid: a face of the player's die. */
export type Bid = '3' | '4' | '5' | '6' | '7' | 'X';
export const BIDS: readonly Bid[] = ['3', '4', '5', '6', '7', 'X'];
export const NUMBERS = [3, 4, 5, 6, 7] as const;

/** A seat: every player's die and worm have one colour, which names the player. */
export interface Seat {
  id: PlayerId;
  name: string;
  color: string;
}

/**
 * Why a bid is void: `collision` (someone else bid the same), `ghost` (the ghost bid the same, two
 * players), `restricted` (7 or X right after the player's valid 7 or X).
 */
export type VoidReason = 'collision' | 'ghost' | 'restricted';

export interface BidResult {
  player: PlayerId;
  bid: Bid;
  /** Empty for a valid bid. */
  void: VoidReason[];
}

/** The ghost's two dice and its bid, the higher of them (X beats 7). */
export interface Ghost {
  dice: [Bid, Bid];
  bid: Bid;
}

/** A worm moving this round: valid bids, lowest first; X moves in the slot of its chosen number. */
export interface Mover {
  player: PlayerId;
  bid: Bid;
  steps: number;
}

export interface Round {
  number: number;
  /** Every seat's bid, in seat order. */
  bids: BidResult[];
  ghost: Ghost | null;
  /** The number the valid X bid named, once named. */
  xNumber: number | null;
  /** The movement order (empty until X's number is named). */
  order: Mover[];
  /** How many of `order` have moved. */
  moved: number;
  /** The finish post the X player swung, when the table recorded it. */
  post: 'left' | 'right' | null;
}

/**
 * `bid`: everyone bids secretly, then the dice are revealed together; `ghost`: two players, the
 * ghost's two dice are rolled; `x`: the valid X names its number; `move`: the worms move in order;
 * `over`: the referee declared the winner.
 */
export type Phase = 'bid' | 'ghost' | 'x' | 'move' | 'over';

export interface WormUpState {
  game: 'worm-up';
  players: Seat[];
  phase: Phase;
  /** The round being played, from 1. */
  round: number;
  /** The round being resolved, or null while bidding. */
  current: Round | null;
  /** Players who may not bid 7 or X this round (their last bid was a valid 7 or X). */
  restricted: PlayerId[];
  /** Finished rounds, oldest first. */
  history: Round[];
  winner: PlayerId | null;
}

export type WormUpMove =
  | { type: 'reveal'; bids: Record<PlayerId, Bid> }
  | { type: 'ghost'; dice: [Bid, Bid] }
  | { type: 'x'; number: number }
  | { type: 'moved'; post?: 'left' | 'right' }
  | { type: 'finish'; winner: PlayerId };

export interface WormUpQuery {
  verbose?: boolean;
}

export interface WormUpDetail {
  /** While bidding: what each player may bid, and the dashboard's warning for a restricted player. */
  bidding: { player: PlayerId; color: string; allowed: Bid[]; warning: string | null }[];
  /** The revealed bids with their validity (null while bidding). */
  bids: BidResult[] | null;
  ghost: Ghost | null;
  /** The player with the valid X this round, if any. */
  xPlayer: PlayerId | null;
  /** Numbers X may name: 3–7 not bid by anyone this round (void bids and the ghost count). */
  free: number[];
  order: Mover[];
  /** The worm to move now. */
  next: Mover | null;
  /** The round before, for the "last round" panel. */
  lastRound: Round | null;
}

export interface WormUpOptions {
  phase: Phase;
  round: number;
  toAct: PlayerId[];
  /** The observation the table must make now: the revealed bids, the ghost's dice, or none. */
  awaiting: 'bids' | 'ghost' | null;
  /** Every other legal move, in move text (`x 4`, `moved`, `finish p2`). */
  moves: string[];
  /** Present with `{ verbose: true }`. */
  detail?: WormUpDetail;
}

export interface WormUpScore {
  finished: boolean;
  winner: PlayerId | null;
  /** Rounds begun. */
  rounds: number;
  /** Segments each worm has been moved, by the bids the table recorded. */
  advanced: Record<PlayerId, number>;
}
