/**
 * The board of a registered photo, measured: rectified at BOARD_PPM pixels per mm with a margin,
 * turned into ink, and every cell measured (cells.ts). Shared by the reader and the training-data
 * builder, so the classifier learns from exactly what the reader sees.
 */
import type { Chapter } from '../../shared/games/worm-and-cozy/chapters.js';
import type { SheetLayout } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { measureCell, type BoardRaster, type CellMeasure } from './cells.js';
import { inkMap } from './ink.js';
import type { GreyImage } from './markers.js';
import { registerPhoto, type RegisteredPhoto } from './photo.js';
import { rectify } from './register.js';

export const BOARD_PPM = 5;
export const BOARD_MARGIN_MM = 3;
/** Wider than any pencil line (the closing that finds the paper's brightness). */
const PAPER_WINDOW_MM = 10;

export interface MeasuredBoard {
  photo: RegisteredPhoto;
  rectified: GreyImage;
  raster: BoardRaster;
  /** Row-major, one per cell. */
  cells: CellMeasure[];
}

/** The board's rectangle in frame mm, with the margin, as rectified. */
export function boardRect(layout: SheetLayout): { x: number; y: number; w: number; h: number } {
  const b = layout.board;
  return { x: b.x - BOARD_MARGIN_MM, y: b.y - BOARD_MARGIN_MM, w: b.columns * b.cell + 2 * BOARD_MARGIN_MM, h: b.rows * b.cell + 2 * BOARD_MARGIN_MM };
}

/** Measures a rectified board image (BOARD_PPM, with the margin). */
export function measureRectified(rectified: GreyImage, layout: SheetLayout): { raster: BoardRaster; cells: CellMeasure[] } {
  const b = layout.board;
  const ink = inkMap(rectified, PAPER_WINDOW_MM * BOARD_PPM);
  const raster: BoardRaster = { ink, ppm: BOARD_PPM, originMm: BOARD_MARGIN_MM, cell: b.cell, columns: b.columns, rows: b.rows };
  const cells: CellMeasure[] = [];
  for (let r = 0; r < b.rows; r++) for (let c = 0; c < b.columns; c++) cells.push(measureCell(raster, c, r));
  return { raster, cells };
}

export function measureRegistered(photo: RegisteredPhoto): MeasuredBoard {
  const rectified = rectify(photo.grey, photo.registration, boardRect(photo.layout), BOARD_PPM);
  return { photo, rectified, ...measureRectified(rectified, photo.layout) };
}

export async function measurePhoto(bytes: Uint8Array, chapter: Chapter): Promise<MeasuredBoard> {
  return measureRegistered(await registerPhoto(bytes, chapter));
}
