/**
 * `readSheetPhoto(bytes, chapter)`: a photographed Worm & Cozy sheet read into a sheet file, its
 * score, every cell's reading, the worms as proposed, the uncertain readings to confirm, and a
 * rectified preview for the phone to draw the proposal over. Nothing uncertain is silently guessed:
 * the best reading is used for the score and every doubt is in `uncertain`.
 */
import sharp from 'sharp';
import { geometry, type Geometry } from '../../shared/games/worm-and-cozy/board.js';
import { getChapter, loadChapter, parseChapter, type Chapter } from '../../shared/games/worm-and-cozy/chapters.js';
import type { CozyScore } from '../../shared/games/worm-and-cozy/scoring.js';
import type { SheetJson, SheetOrgan } from '../../shared/games/worm-and-cozy/sheet.js';
import type { ShapeName } from '../../shared/games/worm-and-cozy/state.js';
import { assemble, DEFAULT_ASSEMBLE, type ReadCell, type Uncertain } from './assemble.js';
import { measureCell, photoPencil, type CellMeasure } from './cells.js';
import { classifyCells, loadCellModel } from './classify.js';
import { clearUnderBars, coveredCells, darkBars, type BoardColour, type DarkBar } from './cover.js';
import { SheetReadError } from './errors.js';
import { boardRect, measureRegistered, type MeasuredBoard } from './measure.js';
import { registerPhoto, type RegisteredPhoto } from './photo.js';
import { rectifyRgb } from './register.js';


/** Share of the border's ticks below which the whole reading is put to the player (`readSheetPhoto`). */
const CHECK_ALL_BELOW = 0.75;
/** Share of the board's cells (rocks aside) covered at which the photo is refused rather than read. */
const REFUSE_COVERED = 0.25;
/** Share of those cells covered or under a pen (or a marker) at which it is refused. */
const REFUSE_HIDDEN = 0.5;
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

/**
 * The board's colour at 1 px per mm over the ink raster's rectangle (for coloured pens): rectified at
 * 2 px per mm and averaged in 2 × 2 blocks, so each pixel is a millimetre's mean, not one sample.
 */
export function boardColour(photo: RegisteredPhoto, measured: MeasuredBoard): BoardColour {
  const k = Math.max(1, Math.round(measured.raster.ppm));
  const width = Math.floor(measured.raster.ink.width / k);
  const height = Math.floor(measured.raster.ink.height / k);
  const rect = boardRect(photo.layout);
  const fine = rectifyRgb(photo.rgb, photo.grey.width, photo.grey.height, photo.registration, { x: rect.x, y: rect.y, w: width, h: height }, 2);
  const rgb = new Uint8Array(width * height * 3);
  const src = fine.data;
  const stride = fine.width * 3;
  for (let y = 0; y < height; y++)
    for (let i = 0; i < width * 3; i++) {
      // Byte i of the row is channel i % 3 of pixel i / 3; its 2 × 2 block starts at byte i + 3 · (i / 3) of row 2y.
      const o = 2 * y * stride + i + 3 * Math.floor(i / 3);
      rgb[y * width * 3 + i] = (src[o]! + src[o + 3]! + src[o + stride]! + src[o + stride + 3]! + 2) >> 2;
    }
  return { width, height, rgb };
}

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

/** The covered cells in groups of side-by-side cells (one doubt each), by name, in board order. */
function coveredGroups(g: Geometry, covered: readonly boolean[]): string[][] {
  const seen = new Uint8Array(g.size);
  const groups: string[][] = [];
  for (let i = 0; i < g.size; i++) {
    if (!covered[i] || seen[i]) continue;
    const group: number[] = [];
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const k = stack.pop()!;
      group.push(k);
      for (let d = 0; d < 4; d++) {
        const n = g.neighbor[k * 4 + d]!;
        if (n >= 0 && covered[n] && !seen[n]) {
          seen[n] = 1;
          stack.push(n);
        }
      }
    }
    groups.push(group.sort((a, b) => a - b).map((k) => g.names[k]!));
  }
  return groups;
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
  // A finger, a pencil or a sheet of paper on the board (or glare, or the board's edge out of the
  // photo) hides the pencil: those cells read as a confident "blank". Their printed grid is not
  // seen either, which is what is checked (cover.ts).
  let cells: CellMeasure[] = measured.cells;
  const cover = coveredCells(measured.raster, photoPencil(cells));
  // A pen or a marker lying on it reads as a pencil band instead (worm cells, letters), and hides
  // what is under it (black, grey or coloured: its colour is looked at too): its ink is cleared, the
  // cells beside it read from what is seen of them, and the cells under it are asked about. (Which cells show no grid stays as measured with its ink:
  // beside it the grid lines were left out as under pencil, and the cleared ink shows none.)
  const bars = cover.checked ? darkBars(measured.raster, cover.typical, boardColour(photo, measured)) : [];
  if (bars.length) {
    clearUnderBars(measured.raster, bars);
    cells = cells.map((_, i) => measureCell(measured.raster, i % g.width, Math.floor(i / g.width)));
  }
  const underBar = (bar: DarkBar) => bar.cells.filter((i) => !g.rock[i]);
  const barAt = new Set(bars.flatMap(underBar));
  const coveredAt = g.names.map((_, i) => cover.covered[i]! && !g.rock[i] && !barAt.has(i));
  // No grid line seen anywhere, yet the border's ticks around it are (a blurred photo loses its
  // ticks first): something lies over the whole board.
  if (cover.noneSeen && photo.registration.ticksFound >= photo.registration.ticksTotal * CHECK_ALL_BELOW) {
    throw new SheetReadError(
      'photo/covered',
      `the board is covered: its printed grid is seen almost nowhere, though the sheet's border ticks around it are (${photo.registration.ticksFound} of ${photo.registration.ticksTotal} found), so the photo is not blurred (a sheet of paper or a book lying on it?). ` +
        'Photograph the whole sheet again, flat and uncovered, with nothing on the board.',
    );
  }
  const coveredCount = coveredAt.filter(Boolean).length;
  const readable = g.size - g.rocks.length;
  // A pen is asked about however many cells it lies across (it shows in the preview, and is easily
  // lifted); a cover over a quarter of the board, or anything over half of it, is refused.
  if (coveredCount >= REFUSE_COVERED * readable || coveredCount + barAt.size >= REFUSE_HIDDEN * readable) {
    const hidden = coveredCount + barAt.size;
    const pen = barAt.size ? `, ${barAt.size} of them under a pen or another long object lying on it` : '';
    throw new SheetReadError(
      'photo/covered',
      `part of the board is covered or out of the picture: the printed grid is not seen in ${hidden} of its ${readable} cells${pen} (a hand, a pen, a pencil or a sheet of paper on it, glare, or a fold?). ` +
        'Photograph the whole sheet again, flat and uncovered, with nothing on the board.',
    );
  }
  const { inputs, joins } = classifyCells(model, g, measured.raster, cells);
  const a = assemble(ch, g, inputs, joins, DEFAULT_ASSEMBLE);
  const jpeg = await encoding;
  const reg = photo.registration;
  // Covered cells first: what is under the cover is not known, so each group may change the score.
  a.uncertain.unshift(
    ...coveredGroups(g, coveredAt).map((cells) => ({
      cells,
      what: `${cells.length === 1 ? `${cells[0]} looks` : `${cells.join(', ')} look`} covered (a finger, a pencil, a sheet of paper?) or washed out: the printed grid lines are not seen there, so what is drawn there is not known`,
      options: ['as read', 'photograph it again'],
      affectsScore: true,
    })),
  );
  // Pens first of all: what they hide is not known, and what was read of them would have been pencil.
  a.uncertain.unshift(
    ...bars.map(underBar).filter((c) => c.length).map((c) => {
      const names = c.sort((x, y) => x - y).map((i) => g.names[i]!);
      return {
        cells: names,
        what: `${names.join(', ')} ${names.length === 1 ? 'lies' : 'lie'} under a pen or another long object on the sheet: the printed grid is not seen through it, so what is drawn there is not known (it was not read as pencil)`,
        options: ['as read', 'photograph it again'],
        affectsScore: true,
      };
    }),
  );
  // Another sheet in view: this one was read from its own markers, but the player may have meant the other.
  const other = photo.otherSheet;
  if (other) {
    const whose = other.chapters.length ? `of chapter ${other.chapters.join(' or ')}` : 'of a chapter clew does not know';
    a.uncertain.unshift({ cells: [], what: `the photo also shows ${other.markers === 1 ? 'a corner marker' : `${other.markers} corner markers`} of another sheet (${whose}): the ${ch.id} sheet was read`, options: ['as read', 'photograph it again'], affectsScore: false });
  }
  // Few border ticks found (a blurred photo, a bent page): cells may read wrong with no doubt of
  // their own (one at σ 4 px blur read 12 of 44 and scored a point off, nothing flagged), so the
  // whole reading is put to the player. Rendered photos find 44 of 44.
  if (reg.ticksFound < reg.ticksTotal * CHECK_ALL_BELOW) {
    a.uncertain.unshift({ cells: [], what: `only ${reg.ticksFound} of the sheet's ${reg.ticksTotal} border ticks were found: the photo may be blurred, the page bent or part of the sheet covered, so check the whole reading`, options: ['as read', 'photograph it again'], affectsScore: true });
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
