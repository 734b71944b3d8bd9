/**
 * Sticker sheets for 16 mm dice: each die is a 3 x 2 block of its six faces (14 mm squares with
 * rounded corners, so 1 mm of the die shows around a sticker), with cut guides, several dice per
 * page. Pure geometry, tested on its own; stickers-pdf.ts draws it.
 */
import { PAPER_MM, type Paper } from '../../shared/games/worm-and-cozy/sheet-layout.js';

export const FACE_MM = 14;
/** Gap between faces: room to cut between two stickers. */
export const GAP_MM = 4;
const MARGIN_MM = 12;
const HEADER_MM = 14;
const LABEL_MM = 4;
const DIE_GAP_MM = 7;

export interface StickerFace {
  /** Die number on the whole sheet (1-based) and the face's index 0..5 in the set's order. */
  die: number;
  face: number;
  x: number;
  y: number;
  size: number;
}

export interface StickerPage {
  faces: StickerFace[];
  labels: { x: number; y: number; text: string }[];
}

export function dieBlock(): { w: number; h: number } {
  return { w: 3 * FACE_MM + 2 * GAP_MM, h: 2 * FACE_MM + GAP_MM + LABEL_MM };
}

export function dicePerPage(paper: Paper): { columns: number; rows: number } {
  const p = PAPER_MM[paper];
  const block = dieBlock();
  const columns = Math.floor((p.width - 2 * MARGIN_MM + DIE_GAP_MM) / (block.w + DIE_GAP_MM));
  const rows = Math.floor((p.height - 2 * MARGIN_MM - HEADER_MM + DIE_GAP_MM) / (block.h + DIE_GAP_MM));
  return { columns, rows };
}

/** Pages of stickers for `dice` dice (each face once per die), page-centred across. */
export function stickerPages(paper: Paper, dice: number): StickerPage[] {
  if (!Number.isInteger(dice) || dice < 1 || dice > 500) throw new RangeError(`stickers: the number of dice must be 1..500, got ${dice}`);
  const p = PAPER_MM[paper];
  const { columns, rows } = dicePerPage(paper);
  const perPage = columns * rows;
  const block = dieBlock();
  const used = columns * block.w + (columns - 1) * DIE_GAP_MM;
  const x0 = (p.width - used) / 2;
  const pages: StickerPage[] = [];
  for (let d = 0; d < dice; d++) {
    const k = d % perPage;
    if (k === 0) pages.push({ faces: [], labels: [] });
    const page = pages[pages.length - 1]!;
    const bx = x0 + (k % columns) * (block.w + DIE_GAP_MM);
    const by = MARGIN_MM + HEADER_MM + Math.floor(k / columns) * (block.h + DIE_GAP_MM);
    page.labels.push({ x: bx, y: by + 3, text: `die ${d + 1}` });
    for (let f = 0; f < 6; f++) {
      page.faces.push({ die: d + 1, face: f, x: bx + (f % 3) * (FACE_MM + GAP_MM), y: by + LABEL_MM + Math.floor(f / 3) * (FACE_MM + GAP_MM), size: FACE_MM });
    }
  }
  return pages;
}
