/**
 * *Score a sheet* at a table: whether this phone can give the sheet it scored to a seat of the
 * Worm & Cozy game it is joined to, and which seats. A seated phone gives it to its own seat; the
 * referee may pick any seat. The table's rules engine checks it again (`paperSheet`).
 */
import type { CozyState, Chapter } from '../../../../shared/games/worm-and-cozy/index.js';
import { hourLabel, loadChapter, paperChapterProblem, twinUsed } from '../../../../shared/games/worm-and-cozy/index.js';
import type { TableSnapshot } from '../../../../shared/protocol.js';

export interface PaperSeat {
  id: string;
  name: string;
  /** The seat's digital twin holds worms or foods (the paper still counts: its score is shown beside). */
  twinUsed: boolean;
  /** A paper sheet was given to this seat already (giving again replaces it). */
  paperGiven: boolean;
}

export type PaperGiving =
  /** No table, another game, or a phone only watching: nothing to give. */
  | { kind: 'none' }
  /** The sheet is scored with another chapter than the table plays. */
  | { kind: 'other-chapter'; table: Chapter }
  /** The table plays a chapter of its own (set up through the API or a config), which *Score a sheet* cannot draw. */
  | { kind: 'own-chapter'; table: Chapter }
  /** The game is still on: a sheet is scored after the final hour. */
  | { kind: 'not-over'; hour: string; last: string; seats: PaperSeat[] }
  /** `seats`: those this phone may give to (its own seat, or every seat for the referee). */
  | { kind: 'ready'; seats: PaperSeat[] };

export function paperGiving(snapshot: TableSnapshot | null | undefined, sheetChapter: string): PaperGiving {
  if (!snapshot || snapshot.game !== 'worm-and-cozy') return { kind: 'none' };
  const you = snapshot.you;
  if (you.role !== 'referee' && you.role !== 'player') return { kind: 'none' };
  const state = snapshot.state as CozyState;
  const all: PaperSeat[] = state.players.map((p, i) => ({ id: p.id, name: p.name, twinUsed: twinUsed(state.sheets[i]!), paperGiven: !!state.paper?.[i] }));
  const seats = you.role === 'referee' ? all : all.filter((s) => s.id === you.player);
  if (seats.length === 0) return { kind: 'none' };
  // Only bundled chapters can be drawn here: telling the player to choose one that is not offered helps nobody.
  if (paperChapterProblem(state, state.chapter.id) !== null) return { kind: 'own-chapter', table: state.chapter };
  if (paperChapterProblem(state, sheetChapter) !== null) return { kind: 'other-chapter', table: state.chapter };
  if (state.phase !== 'over') return { kind: 'not-over', hour: hourLabel(state.chapter, state.hour), last: hourLabel(state.chapter, state.chapter.clock.hours - 1), seats };
  return { kind: 'ready', seats };
}

/** The seat the referee's picker starts on: the first with neither a twin nor a paper sheet. */
export function firstPaperSeat(seats: readonly PaperSeat[]): string | undefined {
  return (seats.find((s) => !s.twinUsed && !s.paperGiven) ?? seats[0])?.id;
}
