/**
 * The sheet reader for the HTTP API: `POST /api/sheet/read?chapter=ID` with the photo as the body.
 * Maps the reader's errors onto HTTP statuses; the body of a success is `readSheetPhoto`'s result.
 */
import type { ErrorCode } from '../../shared/game.js';
import { SheetReadError } from './errors.js';
import { readSheetPhoto, type SheetPhotoReading } from './read.js';

export type SheetReadResult = { ok: true; json: SheetPhotoReading } | { ok: false; status: number; code: ErrorCode; message: string };

const STATUS: Readonly<Record<string, number>> = {
  'photo/empty': 400,
  'photo/unreadable': 415,
  'photo/no-sheet': 422,
  'photo/covered': 422,
  'sheet/wrong-chapter': 422,
  'sheet/unknown-chapter': 400,
};

export async function readSheetForHttp(image: Uint8Array, chapter: string): Promise<SheetReadResult> {
  try {
    return { ok: true, json: await readSheetPhoto(image, chapter) };
  } catch (error) {
    if (error instanceof SheetReadError) return { ok: false, status: STATUS[error.code] ?? 422, code: error.code, message: error.message };
    throw error;
  }
}
