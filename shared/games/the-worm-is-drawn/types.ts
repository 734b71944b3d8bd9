/** The state and moves of The worm is drawn, as plain JSON. */
import type { PlayerId, PlayerInfo } from '../../game.js';
import type { PresetName, Rules, Tile } from './data.js';

/** A die face, as the `worm` dice set labels it. */
export type Face = '1' | '2' | '3' | '4' | '5' | 'worm';
export const FACES: readonly Face[] = ['1', '2', '3', '4', '5', 'worm'];

/** All dice of one face set aside in one keep. */
export interface Kept {
  face: Face;
  count: number;
}

/**
 * `roll`: the player rolls the dice not yet kept; `keep`: a roll lies in the tray and a face must be
 * kept; `choose`: the turn is over and a tile must be taken or stolen; `over`: the game has ended.
 */
export type Phase = 'roll' | 'keep' | 'choose' | 'over';

/** How the last finished turn went, for the referee screen. */
export type TurnOutcome =
  | { player: PlayerId; kind: 'took'; total: number; tile: number }
  | { player: PlayerId; kind: 'stole'; total: number; tile: number; from: PlayerId }
  | {
      player: PlayerId;
      kind: 'failed';
      total: number;
      /** Why nothing could be taken, in words. */
      reason: string;
      /** The tile put back on the table, or null when the player held none. */
      returned: number | null;
      /** The table tile turned face down, or null when none was. */
      flipped: number | null;
    };

export interface TwidState {
  game: 'the-worm-is-drawn';
  preset: PresetName;
  /** The preset's rules as they were at setup, so editing the data file never changes a running game. */
  rules: Rules;
  /** Which physical dice the camera should expect. */
  diceSet: 'worm' | 'd6';
  /** Number of dice in play. */
  dice: number;
  /** Every tile in the box (the worms on each tile). */
  tiles: Tile[];
  players: PlayerInfo[];
  /** Index into `players` of whose turn it is. */
  current: number;
  phase: Phase;
  /** Face-up tiles on the table, ascending. */
  table: number[];
  /** Tiles turned face down: out of the game. */
  removed: number[];
  /** Each player's stack of tiles, bottom first (the last entry is the top tile), aligned with `players`. */
  stacks: number[][];
  /** Dice set aside this turn, in the order they were kept. */
  kept: Kept[];
  /** The dice in the tray that were not kept, or null before the turn's first roll. */
  roll: Face[] | null;
  /** Turns played so far. */
  turn: number;
  last: TurnOutcome | null;
}

export type TwidMove =
  | { type: 'roll'; dice: Face[] }
  | { type: 'keep'; face: Face }
  | { type: 'stop' }
  | { type: 'take'; tile: number }
  | { type: 'steal'; tile: number };

export interface TwidQuery {
  verbose?: boolean;
}

/** A tile that may be stolen now: the top of an opponent's stack. */
export interface Steal {
  tile: number;
  worms: number;
  from: PlayerId;
}

/** The verbose legal-options detail: everything the dashboard highlights for this roll. */
export interface TwidDetail {
  /** The running total of the kept dice (worms count the preset's worm value). */
  total: number;
  wormHeld: boolean;
  kept: Kept[];
  /** Dice still to roll. */
  diceLeft: number;
  /** Faces of the tray that may be kept, with how many dice and the total after keeping them. */
  keepable: { face: Face; count: number; totalAfter: number }[];
  /** Faces of the tray that may not be kept because they were kept before. */
  blocked: Face[];
  /** Table tiles that may be taken now. */
  takeable: Tile[];
  /** Opponents' top tiles that may be stolen now. */
  stealable: Steal[];
  /** Why a failing turn would fail, when it would. */
  whyNot: string | null;
  /** What a failure would cost now: the tile returned and the table tile turned down. */
  ifFail: { returned: number | null; flipped: number | null };
}

export interface TwidOptions {
  player: PlayerId | null;
  phase: Phase;
  /** Dice to roll now (0 when no roll is expected). */
  roll: number;
  /** Every other legal move, in move text (`keep worm`, `stop`, `take 26`, `steal 26`). */
  moves: string[];
  /** Present with `{ verbose: true }`. */
  detail?: TwidDetail;
}

export interface TwidScoreLine {
  player: PlayerId;
  worms: number;
  tiles: number[];
  /** The highest tile held (the tie-break), or null. */
  highest: number | null;
  rank: number;
}

export interface TwidScore {
  finished: boolean;
  /** Best first: most worms, then the highest tile. */
  lines: TwidScoreLine[];
}
