/**
 * Tapeworm (Edmund McMillen): a tile-laying card game of colour matching, 1–4 players (one is
 * solo practice). clew is the turn referee (DECISIONS §5): whose turn, the locked colour, the
 * geometry of the tapeworms on the table, hand and deck counts with the reshuffle, the effects
 * to resolve, and the winner. The physical cards are not read: the table records each action.
 */
import type { GameDefinition, PlayerInfo } from '../../game.js';
import { legalOptions, type TapewormLegal, type TapewormQuery } from './legal.js';
import { tapewormMoveSchema, type TapewormMove } from './moves.js';
import { tapewormOptionsSchema, type TapewormOptions } from './options.js';
import type { TapewormState } from './state.js';
import { authority, buttonMove, diceMove, diceRequest, score, status, type TapewormScore } from './table.js';
import { applyMove, initialState } from './turn.js';

export const tapeworm: GameDefinition<TapewormState, TapewormMove, TapewormQuery, TapewormLegal, TapewormOptions, TapewormScore> = {
  id: 'tapeworm',
  title: 'Tapeworm',
  optionsSchema: tapewormOptionsSchema,
  moveSchema: tapewormMoveSchema,
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
export type { TapewormLegal, TapewormQuery, PlacementOption, CutOption } from './legal.js';
export type { TapewormMove, TapewormMoveType } from './moves.js';
export type { TapewormOptions } from './options.js';
export type { TapewormScore, TapewormScoreLine } from './table.js';
export type { PlacedCard, OpenEnd, Rotation, TableEdge } from './geometry.js';
export { DEFAULT_DECK, DECK_SIZE, EDGES, EFFECTS, expandDeck, parseDeck, deckDefinitionSchema, type DeckDefinition, type CardKind, type Effect } from './deck.js';
export { HAND_SIZE } from './options.js';
export { TapewormErrors, onlyCutsRemain } from './turn.js';
export { placementsFor, cutsFor } from './legal.js';
export { openEnds, cutLines, tableProblems, grid } from './geometry.js';
export { hiddenCount, hiddenKinds, kindsAfterDraw, publicCounts } from './pool.js';
export { describeTurn, effectText } from './instructions.js';
export { toNotation, fromNotation, NotationError } from './notation.js';
export { dealTable, randomStep, type SimulatedTable } from './simulate.js';
