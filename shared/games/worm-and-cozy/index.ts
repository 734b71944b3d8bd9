/**
 * Worm & Cozy (Karl Hanf), as one clew game definition: a pure rules engine for the referee
 * display, the phones' highlights and sheet scoring. See docs/notes/worm-and-cozy.md.
 */
import { z } from 'zod';
import { playerIdSchema } from '../../player-id.js';
import { Errors, fail, ok, type GameDefinition, type GameStatus, type PlayerId, type PlayerInfo, type Result } from '../../game.js';
import { applyMove } from './apply.js';
import { parseChapter, loadChapter, hourLabel, DEFAULT_CHAPTER_ID, type Chapter } from './chapters.js';
import { boardView } from './view.js';
import { cozyDiceRequest, rollFromDice } from './dice.js';
import { mustOrgan } from './hour.js';
import { moveSchema, type CozyMove } from './moves.js';
import { legalOptions, type CozyOptions, type CozyQuery } from './options.js';
import { scoredSheet, twinUsed } from './paper.js';
import { scoreBoard, type CozyScore } from './scoring.js';
import type { CozyState, PlayerSheet } from './state.js';

export const optionsSchema = z
  .object({
    /** A bundled chapter id (default "clew-1"), or a whole chapter object (validated the same way). */
    chapter: z.union([z.string().min(1).max(40), z.record(z.string(), z.unknown())]).optional(),
    /** The seats; a solo game is one player (the default: one player "solo"). */
    players: z
      .array(z.object({ id: playerIdSchema, name: z.string().min(1).max(64), color: z.string().max(24).optional() }).strict())
      .min(1)
      .max(12)
      .optional(),
    /** "standard": three d6, the shape die told by its colour (default); "cozy": the icon dice. */
    dice: z.enum(['standard', 'cozy']).optional(),
  })
  .strict();
export type CozyOptionsInput = z.infer<typeof optionsSchema>;

/** One seat's score: from its paper sheet when one was given, else from its digital twin. */
export type SeatScore = { player: string; fromPaper: boolean; twinTotal?: number } & CozyScore;

export interface CozyStateScore {
  players: SeatScore[];
}

export function emptySheet(): PlayerSheet {
  return { worms: [], foods: [], dice: null, credits: 0, option: null, acted: [], stack: [], done: false };
}

export function setup(options: CozyOptionsInput = {}): Result<CozyState> {
  let chapter: Chapter;
  const c = options.chapter ?? DEFAULT_CHAPTER_ID;
  const r = typeof c === 'string' ? loadChapter(c) : parseChapter(c, 'chapter');
  if (!r.ok) return fail(Errors.setupInvalid, r.errors.join('; '));
  chapter = r.chapter;
  const players: PlayerInfo[] = (options.players ?? [{ id: 'solo', name: 'Solo' }]).map((p) => ({ ...p }));
  const ids = new Set(players.map((p) => p.id));
  if (ids.size !== players.length) return fail(Errors.setupInvalid, 'two players have the same id');
  return ok({
    game: 'worm-and-cozy',
    v: 1,
    chapter,
    dice: options.dice ?? 'standard',
    players,
    hour: 0,
    phase: 'roll',
    roll: null,
    sheets: players.map(() => emptySheet()),
  });
}

export function scoreState(state: CozyState): CozyStateScore {
  return {
    players: state.players.map((p, i) => {
      const { sheet, fromPaper } = scoredSheet(state, i);
      const score: SeatScore = { player: p.id, fromPaper, ...scoreBoard(state.chapter, boardView(state.chapter, sheet)) };
      // A twin kept as well as the paper: its own total, to show next to the paper's.
      if (fromPaper && twinUsed(state.sheets[i]!)) score.twinTotal = scoreBoard(state.chapter, boardView(state.chapter, state.sheets[i]!)).total;
      return score;
    }),
  };
}

export function status(state: CozyState): GameStatus {
  const label = hourLabel(state.chapter, Math.min(state.hour, state.chapter.clock.hours - 1));
  if (state.phase === 'over') {
    const scores = scoreState(state).players.map((p) => ({ player: p.player, score: p.total }));
    scores.sort((a, b) => b.score - a.score);
    const ranking = scores.map((s) => ({ ...s, rank: scores.findIndex((x) => x.score === s.score) }));
    return { headline: 'Game over', toAct: [], finished: true, ranking };
  }
  if (state.phase === 'roll') return { headline: `${label}: roll the dice`, toAct: [], finished: false };
  return { headline: label, toAct: state.players.filter((_, i) => !state.sheets[i]!.done).map((p) => p.id), finished: false };
}

/**
 * Everyone plays the hour at once, each on their own sheet: a player's move (and, once the game is
 * over, a player's paper sheet) changes only that player's sheet (apply.ts, paper.ts), so two
 * players' moves may be decided in either order. The roll and the hour's end change every sheet.
 */
export function ownSheetSeat(move: CozyMove): PlayerId | null {
  return move.type === 'roll' || move.type === 'endHour' ? null : move.player;
}

export const wormAndCozy: GameDefinition<CozyState, CozyMove, CozyQuery, CozyOptions, CozyOptionsInput, CozyStateScore> = {
  id: 'worm-and-cozy',
  title: 'Worm & Cozy',
  optionsSchema,
  moveSchema,
  setup,
  legalOptions,
  apply: applyMove,
  score: scoreState,
  players: (state) => state.players,
  authority: (_state, move) => (move.type === 'roll' || move.type === 'endHour' ? { kind: 'table' } : { kind: 'player', player: move.player }),
  status,
  diceRequest: (state) => (state.phase === 'roll' ? cozyDiceRequest(state.chapter, state.dice, hourLabel(state.chapter, state.hour)) : null),
  diceMove: (state, dice) => (state.phase === 'roll' ? rollFromDice(state.chapter, dice) : fail(Errors.wrongPhase, 'no roll is expected now: the hour is under way')),
  buttonMove: (state, button) => {
    if (state.phase !== 'play') return null;
    if (button === 'NEXT') return { type: 'endHour' };
    // OK: in a solo game, "nothing more this hour" (declines what is left undecided).
    if (button === 'OK' && state.players.length === 1 && !state.sheets[0]!.done) {
      return mustOrgan(state.sheets[0]!) ? null : { type: 'done', player: state.players[0]!.id };
    }
    return null;
  },
  independentSeat: ownSheetSeat,
};

export type { CozyState, PlayerSheet, PaperSheet, Worm, Organ, Roll, Pending, ShapeName, OrganType, Dir } from './state.js';
export { SHAPE_NAMES, ORGAN_TYPES, DIRS } from './state.js';
export type { CozyMove } from './moves.js';
export { moveSchema } from './moves.js';
export type { CozyOptions, CozyQuery, VerboseMove, Step } from './options.js';
export { legalOptions } from './options.js';
export { applyMove } from './apply.js';
export type { Chapter, Reward, TrackSymbol, RegionSpec } from './chapters.js';
export { CHAPTER_IDS, DEFAULT_CHAPTER_ID, getChapter, loadChapter, parseChapter, hourLabel, hourRegionIndex } from './chapters.js';
export { geometry, cellName, cellIndex, parseCellName, type Geometry } from './board.js';
export { scoreBoard, circledSymbols, trackPoints, symbolPoints, rubricLine, type CozyScore, type RewardScore } from './scoring.js';
export { COUNTERS, type BoardView, type Counter } from './counters.js';
export { eyeSight, organSpots } from './organs.js';
export { ORIENTATIONS, SHAPE_PATHS, shapeOfCells } from './shapes.js';
export { boardView } from './view.js';
export { rollFromDice, cozyDiceRequest } from './dice.js';
export { describePending } from './describe.js';
export { givePaperSheet, paperChapterProblem, scoredSheet, twinUsed } from './paper.js';
