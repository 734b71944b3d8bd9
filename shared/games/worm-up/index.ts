/**
 * Worm-up (Alex Randolph's Würmeln): a bidding race for 2–5 players, with the ghost for two
 * (rules text plus DECISIONS.md §3). clew reads the revealed bids and referees the round; it
 * cannot see the race, so the referee declares the winner.
 */
import type { GameDefinition, PlayerInfo } from '../../game.js';
import { wormUpMoveSchema } from './moves.js';
import { legalOptions } from './options.js';
import { step } from './round.js';
import { scoreRace } from './scoring.js';
import { initialState, wormUpOptionsSchema, type WormUpSetupOptions } from './setup.js';
import { authority, buttonMove, diceMove, diceRequest, status } from './table.js';
import type { WormUpMove, WormUpOptions, WormUpQuery, WormUpScore, WormUpState } from './types.js';

export const wormUp: GameDefinition<WormUpState, WormUpMove, WormUpQuery, WormUpOptions, WormUpSetupOptions, WormUpScore> = {
  id: 'worm-up',
  title: 'Worm-up',
  optionsSchema: wormUpOptionsSchema,
  moveSchema: wormUpMoveSchema,
  setup: initialState,
  legalOptions,
  apply: step,
  score: scoreRace,
  players: (state): PlayerInfo[] => state.players.map((p) => ({ ...p })),
  authority,
  status,
  diceRequest,
  diceMove,
  buttonMove,
};

export type * from './types.js';
export type { WormUpSetupOptions } from './setup.js';
export { EQUIPMENT } from './data.js';
export { bidRank, freeNumbers, ghostOf, judgeBids, movementOrder, RESTRICTED_BIDS } from './bids.js';
export { legalMoves } from './options.js';
export { moveText, parseMove } from './moves.js';
export { toNotation } from './notation.js';
export { randomMove } from './random.js';
export { WormUpErrors } from './round.js';
export { BIDS, NUMBERS } from './types.js';
