/** The reader's errors: a namespaced code (shared/game.ts) and a message that says what to do. */
import type { ErrorCode } from '../../shared/game.js';

export type SheetReadCode = 'photo/empty' | 'photo/unreadable' | 'photo/no-sheet' | 'photo/covered' | 'sheet/wrong-chapter' | 'sheet/unknown-chapter';

export class SheetReadError extends Error {
  constructor(
    readonly code: SheetReadCode & ErrorCode,
    message: string,
    /** For `sheet/wrong-chapter`: the chapters whose sheets are in the photo, so a caller can say how to read them its own way (the CLI names its --chapter flag). */
    readonly chaptersSeen: readonly string[] = [],
  ) {
    super(message);
    this.name = 'SheetReadError';
  }
}
