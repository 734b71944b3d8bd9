/**
 * Reading a photo of a paper sheet with the clew server's sheet reader (`POST
 * /api/sheet/read?chapter=ID`, the image bytes as the body; vision/sheet/read.ts and
 * docs/notes/sheets.md): the answer checked and turned into the editor's sheet, the server's score
 * and the reader's doubts; a refusal into the server's own message, shown as it is.
 */
import { parseCellName } from '../../../../shared/games/worm-and-cozy/board.js';
import { sheetSchema } from '../../../../shared/games/worm-and-cozy/sheet.js';
import { fromSheetJson, type EditorSheet } from './sheet-editor.js';

/** What the reader was not sure of (its `uncertain`): the cells, in words, the other readings. */
export interface SheetDoubt {
  cells: string[];
  what: string;
  options: string[];
  affectsScore: boolean;
}

/** The board cut out of the photo and straightened (the reader's `rectifiedPreview`). */
export interface ReadPreview {
  src: string;
  width: number;
  height: number;
  /** The board in preview pixels: top-left corner and cell size. */
  board: { x: number; y: number; cell: number; columns: number; rows: number };
}

export interface PhotoReading {
  sheet: EditorSheet;
  /** The server's total for the sheet it read (null when it could not score it). */
  total: number | null;
  /** Doubts that may change the score first, each in the reader's order. */
  doubts: SheetDoubt[];
  preview: ReadPreview | null;
}

export type PhotoResult = { ok: true; reading: PhotoReading } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function previewOf(v: unknown): ReadPreview | null {
  if (!isObject(v) || typeof v.data !== 'string' || typeof v.width !== 'number' || typeof v.height !== 'number' || !isObject(v.board)) return null;
  const b = v.board;
  if (![b.x, b.y, b.cell, b.columns, b.rows].every((n) => typeof n === 'number')) return null;
  const mime = typeof v.mime === 'string' ? v.mime : 'image/jpeg';
  return { src: `data:${mime};base64,${v.data}`, width: v.width, height: v.height, board: { x: b.x as number, y: b.y as number, cell: b.cell as number, columns: b.columns as number, rows: b.rows as number } };
}

/** The reader's answer for `chapter`, checked: a sheet the editor can hold, or why not. */
export function readingFromAnswer(answer: unknown, chapter: string): PhotoResult {
  const bad = (why: string): PhotoResult => ({ ok: false, message: `The server's answer could not be used: ${why}.` });
  if (!isObject(answer)) return bad('it is not a reading');
  const parsed = sheetSchema.safeParse(answer.sheet);
  if (!parsed.success) return bad(`its sheet is not a sheet file (${parsed.error.issues[0]?.message ?? 'unknown'})`);
  const sheet = fromSheetJson(parsed.data);
  if (!sheet) return bad('its sheet names no bundled chapter');
  if (sheet.chapter !== chapter) return bad(`it is a sheet of ${sheet.chapter}, not ${chapter}`);
  const total = isObject(answer.score) && typeof answer.score.total === 'number' ? answer.score.total : null;
  const doubts: SheetDoubt[] = (Array.isArray(answer.uncertain) ? answer.uncertain : []).flatMap((u): SheetDoubt[] =>
    isObject(u) && typeof u.what === 'string' ? [{ cells: strings(u.cells), what: u.what, options: strings(u.options), affectsScore: u.affectsScore === true }] : [],
  );
  // What may change the score is asked first; the rest keep the reader's order (a stable sort).
  doubts.sort((a, b) => Number(b.affectsScore) - Number(a.affectsScore));
  return { ok: true, reading: { sheet, total, doubts, preview: previewOf(answer.rectifiedPreview) } };
}

/** A refusal in the server's own words (`{ code, message }`), or what little is known without them. */
export function refusalMessage(status: number, body: unknown): string {
  if (isObject(body) && typeof body.message === 'string' && body.message) return body.message;
  if (status === 404) return 'this clew server has no sheet reader (an older version?)';
  return `the server answered ${status} without saying why`;
}

/** Sends the photo to the sheet reader and reads its answer. `post` is `fetch` (a test may pass its own). */
export async function readSheetPhoto(photo: Blob, chapter: string, post: typeof fetch = fetch): Promise<PhotoResult> {
  let res: Response;
  try {
    res = await post(`/api/sheet/read?chapter=${encodeURIComponent(chapter)}`, { method: 'POST', body: photo, headers: { 'content-type': photo.type || 'application/octet-stream' } });
  } catch (error) {
    return { ok: false, message: `clew could not be reached to read the photo (${(error as Error).message}). Is the phone still on the table's Wi-Fi?` };
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // not JSON: said below by the status alone
  }
  if (!res.ok) return { ok: false, message: refusalMessage(res.status, body) };
  return readingFromAnswer(body, chapter);
}

/** The part of the preview that shows these cells, half a cell around them, in preview pixels. */
export function doubtView(preview: ReadPreview, cells: readonly string[]): { x: number; y: number; w: number; h: number } | null {
  const at = cells.map(parseCellName).filter((p): p is [number, number] => !!p);
  if (at.length === 0) return null;
  const { x, y, cell } = preview.board;
  const xs = at.map((p) => p[0]);
  const ys = at.map((p) => p[1]);
  const left = Math.max(0, x + (Math.min(...xs) - 0.5) * cell);
  const top = Math.max(0, y + (Math.min(...ys) - 0.5) * cell);
  const right = Math.min(preview.width, x + (Math.max(...xs) + 1.5) * cell);
  const bottom = Math.min(preview.height, y + (Math.max(...ys) + 1.5) * cell);
  return right > left && bottom > top ? { x: left, y: top, w: right - left, h: bottom - top } : null;
}
