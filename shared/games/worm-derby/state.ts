/**
 * The Worm Derby state: plain JSON. The race itself happens on the table; the state holds what the
 * referee needs to turn each roll into an instruction and to check what the players report.
 */
import type { PlayerId, PlayerInfo } from '../../game.js';
import type { DieTable, PiecepackFace } from './die-table.js';

/** Basic rules: every worm is 6 coins. Advanced (cannibal worms): worms eat each other's end coins. */
export type DerbyRules = 'basic' | 'advanced';

/**
 * A worm's two ends. End A is the coin that starts between the start-line tiles, end B the far
 * end of the starting line; the names follow the coins' chain as the worm moves, so a step
 * "from end B" picks up the B coin and the worm travels towards end A.
 */
export type WormEnd = 'A' | 'B';
export const WORM_ENDS: readonly WormEnd[] = ['A', 'B'];

export const COINS_PER_WORM = 6;
export const MIN_WORM_LENGTH = 2;

/** "Bob ate a coin from my end B": on my next turn I move from end B and may not attack Bob. */
export interface Bite {
  by: PlayerId;
  end: WormEnd;
}

export interface Worm {
  player: PlayerId;
  /** Coins in the worm: always 6 in the basic rules, 2–6 with cannibal worms. */
  length: number;
  /** The owner's coins that were eaten and may be put back on an ace (length + eaten = 6). */
  eaten: number;
  roundedPylon: boolean;
  /** Finishing place (1 = winner), or null while racing. */
  place: number | null;
  /** Bites since this worm's last turn: they bind its next turn, then are cleared. */
  bites: Bite[];
  /** Obstacle tiles this player still has to place during setup. */
  tilesInHand: number;
}

export type DerbyPhase =
  /** Setup: players take turns placing their dealt obstacle tiles on the course. */
  | 'obstacles'
  /** The active player rolls their die (read by the camera or entered by hand). */
  | 'roll'
  /** An ace (or any face the table marks "obstacle"): move an obstacle or put an eaten coin back. */
  | 'ace'
  /** A number: the active player moves their worm and reports it. */
  | 'move'
  | 'over';

/** The roll being carried out. */
export interface PendingRoll {
  face: PiecepackFace;
  /** Steps the face gives (steps phase only; 0 otherwise). */
  rolled: number;
  /** Steps the worm may take: never more than its length. */
  steps: number;
  /** Rolled steps above the length, lost. */
  lost: number;
  rollAgain: boolean;
}

export interface LastRoll {
  player: PlayerId;
  face: PiecepackFace;
  /** Plain words for the dashboard: "4: move 4 steps from one end". */
  meaning: string;
}

export interface DerbyState {
  game: 'worm-derby';
  rules: DerbyRules;
  /** Slalom variant: no movable obstacles; red tiles are passed on their right, blue on their left. */
  slalom: boolean;
  /** Seats in clockwise turn order, the first player first. */
  players: PlayerInfo[];
  dieTable: DieTable;
  /** Obstacle tiles: dealt to players, put aside, and placed on the course. */
  obstacles: { dealt: number; aside: number; placed: number };
  /** One worm per player, in the same order as `players`. */
  worms: Worm[];
  phase: DerbyPhase;
  /** Index of the player to act (the placer in setup, the roller in the race). */
  active: number;
  pending: PendingRoll | null;
  /**
   * The end this turn's steps were first taken from, once a move names one: "if a worm is moving
   * multiple steps in one turn, it must make its whole move all in the same direction", so a roll
   * again moves from the same end. Absent until then; cleared when the turn ends.
   */
  turnEnd?: WormEnd;
  lastRoll: LastRoll | null;
  /** Turns begun in the race (1 = the first player's first turn). */
  turn: number;
  /** Rolls recorded in the race. */
  rolls: number;
  finishingOrder: PlayerId[];
  /** True when the table stopped the race before every place was decided. */
  stoppedEarly: boolean;
}

export function activeWorm(state: DerbyState): Worm {
  const worm = state.worms[state.active];
  if (!worm) throw new RangeError(`no worm at seat ${state.active}`);
  return worm;
}

export function wormOf(state: DerbyState, player: PlayerId): Worm | undefined {
  return state.worms.find((w) => w.player === player);
}

export function nameOf(state: DerbyState, player: PlayerId): string {
  return state.players.find((p) => p.id === player)?.name ?? player;
}

export const isRacing = (worm: Worm): boolean => worm.place === null;
