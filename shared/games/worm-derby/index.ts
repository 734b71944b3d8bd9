/**
 * Worm Derby (Mark A. Biggar, piecepack): a race of coin worms around a pylon, 2–4 players.
 * The race happens on the table; this engine turns each roll into an instruction and checks what
 * the players report against the rules text and DECISIONS.md §4. Pure: the die is an observation.
 */
import type { GameDefinition, PlayerInfo } from '../../game.js';
import { legalOptions, type DerbyLegal, type DerbyQuery } from './legal.js';
import { derbyMoveSchema, type DerbyMove } from './moves.js';
import { derbyOptionsSchema, type DerbyOptions } from './options.js';
import { applyMove, initialState } from './race.js';
import type { DerbyState } from './state.js';
import { authority, buttonMove, diceMove, diceRequest, score, status, type DerbyScore } from './table.js';

export const wormDerby: GameDefinition<DerbyState, DerbyMove, DerbyQuery, DerbyLegal, DerbyOptions, DerbyScore> = {
  id: 'worm-derby',
  title: 'Worm Derby',
  optionsSchema: derbyOptionsSchema,
  moveSchema: derbyMoveSchema,
  setup: initialState,
  legalOptions,
  apply: applyMove,
  score,
  players: (state): PlayerInfo[] => state.players.map((p) => ({ ...p })),
  authority,
  status,
  diceRequest,
  diceMove,
  buttonMove,
};

export type * from './state.js';
export type { DerbyLegal, DerbyQuery, StepOptions } from './legal.js';
export type { DerbyMove, DerbyMoveType } from './moves.js';
export type { DerbyOptions } from './options.js';
export type { DerbyScore, DerbyScoreLine } from './table.js';
export { DEFAULT_DIE_TABLE, PIECEPACK_FACES, parseDieTable, describeFace, dieTableSchema, type DieTable, type PiecepackFace } from './die-table.js';
export { DerbyErrors } from './race.js';
export { DiceErrors, moveText } from './table.js';
export { edibleWorms } from './legal.js';
export { instruction, SLALOM_RULE } from './instructions.js';
export { toNotation, fromNotation, NotationError } from './notation.js';
export { randomMove } from './random.js';
