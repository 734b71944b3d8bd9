/** A player's sheet as the scoring counters see it. */
import { geometry } from './board.js';
import type { Chapter } from './chapters.js';
import type { BoardView } from './counters.js';
import type { PlayerSheet } from './state.js';

export function boardView(chapter: Chapter, sheet: Pick<PlayerSheet, 'worms' | 'foods'>): BoardView {
  return { geo: geometry(chapter), worms: sheet.worms, foods: sheet.foods };
}
