/**
 * Paper sheets at a table: a player who played on paper (not on the phone's digital twin) has the
 * finished sheet scored on *Score a sheet* and given to their seat with the `paperSheet` move. The
 * rules score "your board", the paper one ("1 game sheet & pencil per player"); the twin is only
 * the phone's copy of it. So once given, the paper sheet is the seat's score at the end, whether
 * or not the twin was used (a twin may have missed a move or taken a mistap; the paper is what the
 * player drew). It is given only once the game is over: the rules score after the final hour.
 */
import { Errors, fail, ok, type Result } from '../../game.js';
import { hourLabel, loadChapter, parseChapter, type Chapter } from './chapters.js';
import { validateSheet, type SheetJson } from './sheet.js';
import type { CozyState, PaperSheet, PlayerSheet } from './state.js';

/** How many of a bad sheet's problems the refusal names (the editor lists them all). */
const PROBLEMS_NAMED = 3;

function sameChapter(a: Chapter, b: Chapter): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

const named = (c: Chapter) => `${c.id} (“${c.title}”)`;

/** Why a sheet of `chapter` cannot be given at this table (another chapter), or null. */
export function paperChapterProblem(state: CozyState, chapter: SheetJson['chapter']): string | null {
  const r = typeof chapter === 'string' ? loadChapter(chapter) : parseChapter(chapter, 'the sheet’s chapter');
  if (!r.ok) return `the sheet’s chapter is not one clew knows: ${r.errors.join('; ')}`;
  if (sameChapter(r.chapter, state.chapter)) return null;
  const same = r.chapter.id === state.chapter.id ? ' (a chapter of its own with the same id)' : '';
  return `the sheet is chapter ${named(r.chapter)}, but this game plays ${named(state.chapter)}${same}: score it with the game’s chapter`;
}

/** The `paperSheet` move: the seat's finished paper sheet, checked as *Score a sheet* checks it. */
export function givePaperSheet(state: CozyState, player: string, sheet: SheetJson): Result<CozyState> {
  const index = state.players.findIndex((p) => p.id === player);
  if (index < 0) return fail(Errors.notYourTurn, `no player "${player}" at this table (players: ${state.players.map((p) => p.id).join(', ')})`);
  const name = state.players[index]!.name;
  if (state.phase !== 'over') {
    const now = hourLabel(state.chapter, state.hour);
    const last = hourLabel(state.chapter, state.chapter.clock.hours - 1);
    return fail(Errors.wrongPhase, `${name}’s paper sheet is scored once the game is over, after ${last}; the game is at ${now}`);
  }
  if (sheet.player !== undefined && sheet.player !== player) return fail(Errors.sheetInvalid, `the sheet says it is ${sheet.player}’s, not ${name}’s`);
  const chapter = paperChapterProblem(state, sheet.chapter);
  if (chapter) return fail(Errors.sheetInvalid, chapter);
  const v = validateSheet(sheet);
  if (!v.ok) {
    const more = v.errors.length - PROBLEMS_NAMED;
    const listed = v.errors.slice(0, PROBLEMS_NAMED).join('; ') + (more > 0 ? `; and ${more} more` : '');
    return fail(Errors.sheetInvalid, `${name}’s sheet is not a legal sheet (${v.errors.length === 1 ? 'one problem' : `${v.errors.length} problems`}): ${listed}`);
  }
  const paper: (PaperSheet | null)[] = state.players.map((_, i) => state.paper?.[i] ?? null);
  // Given again (a cell fixed after a misread), the later sheet replaces the earlier one; BACK
  // brings the earlier one back.
  paper[index] = { worms: v.value.worms, foods: v.value.foods };
  return ok({ ...state, paper });
}

/** Whether a twin holds anything (a paper-only player's twin stays empty all game). */
export function twinUsed(sheet: Pick<PlayerSheet, 'worms' | 'foods'>): boolean {
  return sheet.worms.length > 0 || sheet.foods.length > 0;
}

/** The sheet seat `index` is scored on: its paper sheet when one was given, else its twin. */
export function scoredSheet(state: CozyState, index: number): { sheet: Pick<PlayerSheet, 'worms' | 'foods'>; fromPaper: boolean } {
  const paper = state.paper?.[index];
  return paper ? { sheet: paper, fromPaper: true } : { sheet: state.sheets[index]!, fromPaper: false };
}
