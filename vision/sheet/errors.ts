/** The reader's errors: a namespaced code (shared/game.ts) and a message that says what to do. */
import type { ErrorCode } from '../../shared/game.js';

export type SheetReadCode = 'photo/empty' | 'photo/unreadable' | 'photo/no-sheet' | 'sheet/wrong-chapter' | 'sheet/unknown-chapter';

export class SheetReadError extends Error {
  constructor(
    readonly code: SheetReadCode & ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SheetReadError';
  }
}
