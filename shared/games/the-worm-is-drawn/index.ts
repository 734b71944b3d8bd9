/**
 * The worm is drawn: a Pickomino-family dice game for 2–7 players (rules text plus DECISIONS.md §2).
 * Pure: the dice are observations inside `roll` moves.
 */
import type { GameDefinition, PlayerInfo } from '../../game.js';
import { twidMoveSchema } from './moves.js';
import { legalOptions } from './options.js';
import { scoreGame } from './scoring.js';
import { initialState, twidOptionsSchema, type TwidSetupOptions } from './setup.js';
import { authority, buttonMove, diceMove, diceRequest, status } from './table.js';
import { step } from './turn.js';
import type { TwidMove, TwidOptions, TwidQuery, TwidScore, TwidState } from './types.js';

export const theWormIsDrawn: GameDefinition<TwidState, TwidMove, TwidQuery, TwidOptions, TwidSetupOptions, TwidScore> = {
  id: 'the-worm-is-drawn',
  title: 'The worm is drawn',
  optionsSchema: twidOptionsSchema,
  moveSchema: twidMoveSchema,
  setup: initialState,
  legalOptions,
  apply: step,
  score: scoreGame,
  players: (state): PlayerInfo[] => state.players.map((p) => ({ ...p })),
  authority,
  status,
  diceRequest,
  diceMove,
  buttonMove,
};

export type * from './types.js';
export type { TwidSetupOptions } from './setup.js';
export { PRESETS, EQUIPMENT, type PresetName, type Rules, type Tile } from './data.js';
export { toNotation, fromNotation } from './notation.js';
export { moveText, parseMove } from './moves.js';
export { judge, TwidErrors } from './turn.js';
export { legalMoves } from './options.js';
export { randomMove } from './random.js';
export { FACES } from './types.js';
