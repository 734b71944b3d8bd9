/**
 * `readSheetPhoto(bytes, chapter)`: a photographed Worm & Cozy sheet read into a sheet file, its
 * score, every cell's reading, the worms as proposed, the uncertain readings to confirm, and a
 * rectified preview for the phone to draw the proposal over. Nothing uncertain is silently guessed:
 * the best reading is used for the score and every doubt is in `uncertain`.
 */
import sharp from 'sharp';
import { geometry } from '../../shared/games/worm-and-cozy/board.js';
import { getChapter, loadChapter, parseChapter, type Chapter } from '../../shared/games/worm-and-cozy/chapters.js';
import type { CozyScore } from '../../shared/games/worm-and-cozy/scoring.js';
import type { SheetJson, SheetOrgan } from '../../shared/games/worm-and-cozy/sheet.js';
import type { ShapeName } from '../../shared/games/worm-and-cozy/state.js';
import { assemble, DEFAULT_ASSEMBLE, type ReadCell, type Uncertain } from './assemble.js';
import { classifyCells, loadCellModel } from './classify.js';
import { SheetReadError } from './errors.js';
import { measureRegistered } from './measure.js';
import { registerPhoto } from './photo.js';
import { rectifyRgb } from './register.js';


/** Share of the border's ticks below which the whole reading is put to the player (`readSheetPhoto`). */
const CHECK_ALL_BELOW = 0.75;
export interface RectifiedPreview {
  mime: 'image/jpeg';
  /** Base64 of the JPEG. */
  data: string;
  width: number;
  height: number;
  pxPerMm: number;
  /** The board in preview pixels: top-left corner and cell size. */
  board: { x: number; y: number; cell: number; columns: number; rows: number };
}

export interface SheetPhotoReading {
  chapter: string;
  /** The sheet file read from the photo (validates; the engine's sheet format). */
  sheet: SheetJson;
  /** The score of that sheet (null only if the read sheet failed validation). */
  score: CozyScore | null;
  cells: ReadCell[];
  worms: { id: number; cells: string[]; shape: ShapeName | null; organs: SheetOrgan[] }[];
  uncertain: Uncertain[];
  rectifiedPreview: RectifiedPreview;
  /** How well the photo could be registered. */
  quality: { markers: number; ticks: string; bendMm: number; pxPerMm: number };
}

const PREVIEW_PPM = 4;
const PREVIEW_MARGIN = 17;

function chapterOf(chapter: string | Chapter): Chapter {
  if (typeof chapter !== 'string') {
    const r = parseChapter(chapter, 'chapter');
    if (!r.ok) throw new SheetReadError('sheet/unknown-chapter', r.errors.join('; '));
    return r.chapter;
  }
  const r = loadChapter(chapter);
  if (!r.ok) throw new SheetReadError('sheet/unknown-chapter', r.errors.join('; '));
  return getChapter(chapter);
}

export async function readSheetPhoto(bytes: Uint8Array, chapter: string | Chapter): Promise<SheetPhotoReading> {
  const ch = chapterOf(chapter);
  const model = loadCellModel();
  const photo = await registerPhoto(bytes, ch);
  // The preview does not depend on the reading: its JPEG is encoded on sharp's thread while the cells are read.
  const b = photo.layout.board;
  const rect = { x: b.x - PREVIEW_MARGIN, y: b.y - PREVIEW_MARGIN, w: b.columns * b.cell + 2 * PREVIEW_MARGIN, h: b.rows * b.cell + 2 * PREVIEW_MARGIN };
  const pv = rectifyRgb(photo.rgb, photo.grey.width, photo.grey.height, photo.registration, rect, PREVIEW_PPM);
  const encoding = sharp(pv.data, { raw: { width: pv.width, height: pv.height, channels: 3 } }).jpeg({ quality: 82 }).toBuffer();
  // Awaited below; this only keeps a failure from counting as unhandled if reading the cells throws first.
  encoding.catch(() => undefined);
  const measured = measureRegistered(photo);
  const g = geometry(ch);
  const { inputs, joins } = classifyCells(model, g, measured.raster, measured.cells);
  const a = assemble(ch, g, inputs, joins, DEFAULT_ASSEMBLE);
  const jpeg = await encoding;
  const reg = photo.registration;
  // Few border ticks found (a blurred photo, a bent page): cells may read wrong with no doubt of
  // their own (one at σ 4 px blur read 12 of 44 and scored a point off, nothing flagged), so the
  // whole reading is put to the player. Rendered photos find 44 of 44.
  if (reg.ticksFound < reg.ticksTotal * CHECK_ALL_BELOW) {
    a.uncertain.unshift({ cells: [], what: `only ${reg.ticksFound} of the sheet's ${reg.ticksTotal} border ticks were found: the photo may be blurred or the page bent, so check the whole reading`, options: ['as read', 'photograph it again'], affectsScore: true });
  }
  return {
    chapter: ch.id,
    sheet: a.sheet,
    score: a.score,
    cells: a.cells,
    worms: a.worms,
    uncertain: a.uncertain,
    rectifiedPreview: {
      mime: 'image/jpeg',
      data: jpeg.toString('base64'),
      width: pv.width,
      height: pv.height,
      pxPerMm: PREVIEW_PPM,
      board: { x: PREVIEW_MARGIN * PREVIEW_PPM, y: PREVIEW_MARGIN * PREVIEW_PPM, cell: b.cell * PREVIEW_PPM, columns: b.columns, rows: b.rows },
    },
    quality: { markers: photo.markers.length, ticks: `${reg.ticksFound}/${reg.ticksTotal}`, bendMm: Math.round(reg.maxBendMm * 100) / 100, pxPerMm: Math.round(reg.pxPerMm * 100) / 100 },
  };
}
