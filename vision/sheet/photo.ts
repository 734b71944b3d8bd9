/**
 * From photo bytes to a registered sheet: decode (sharp, EXIF-upright, shrunk on load), find the
 * corner markers on a small grey copy, check the chapter they carry, decode a reading copy sized to
 * about 7 px per sheet millimetre, and register the layout in it. Clear errors for a corrupt file,
 * a photo without a sheet and a sheet of another chapter.
 */
import sharp from 'sharp';
import { CHAPTER_IDS, getChapter, type Chapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { chapterCode, codeSlice, CORNER_NAMES, MARKER_SIZE, sheetLayout, type SheetLayout } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { clearestPerCorner, findAllMarkers, type FoundMarker, type GreyImage } from './markers.js';
import { markerHomography, register, type Registration } from './register.js';
import { describeImageFailure } from '../image/failure.js';
import { SheetReadError } from './errors.js';

const MAX_PIXELS = 100_000_000;
/** Long side of the copy the markers are searched in. */

/** Share of the border's ticks below which the markers are not taken for one sheet (photo.ts, `registerPhoto`). */
const MIN_TICK_SHARE = 0.25;
/**
 * Markers of one sheet fit one homography to within this (RMS, sheet mm): at most 0.84 in the
 * synthetic and reviewers' photos (curled pages, steep views), 14 or more for markers of two sheets.
 */
const ONE_SHEET_MM = 4;
export const DETECT_SIDE = 1600;
/** Sheet millimetres per... the reading copy aims at this many pixels per sheet millimetre. */
export const READ_PPM = 7;

export interface Decoded {
  rgb: Uint8Array;
  grey: GreyImage;
}

/** Decoded pixels, interleaved: `channels` bytes each, R G B first. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** Upright sRGB pixels, the long side at most `maxSide` (shrunk on load where the JPEG allows). */
async function decode(bytes: Uint8Array, maxSide: number | null): Promise<RgbImage> {
  try {
    let s = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS }).rotate();
    if (maxSide) s = s.resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true, fastShrinkOnLoad: true });
    s = s.removeAlpha().toColourspace('srgb');
    const { data, info } = await s.raw().toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: info.channels };
  } catch (error) {
    throw new SheetReadError('photo/unreadable', `the photo is ${describeImageFailure(bytes, error).message}`);
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Grey (0.30 R + 0.59 G + 0.11 B, in integers: (77 R + 150 G + 29 B) >> 8) of decoded pixels.
 * Done here rather than by sharp: libvips's greyscale goes through linear light and cost two thirds
 * of the marker copy's decode. Three-channel pixels are read four at a time as three 32-bit words
 * (twice as fast on a 10-megapixel copy); the same numbers as pixel by pixel.
 */
export function greyOf(img: RgbImage): GreyImage {
  const n = img.width * img.height;
  const out = new Uint8Array(n);
  const d = img.data;
  const c = img.channels;
  if (c < 3) {
    for (let i = 0; i < n; i++) out[i] = d[i * c]!;
    return { width: img.width, height: img.height, data: out };
  }
  let i = 0;
  if (c === 3 && LITTLE_ENDIAN && d.byteOffset % 4 === 0) {
    const quads = n >> 2;
    const w = new Uint32Array(d.buffer, d.byteOffset, quads * 3);
    const o = new Uint32Array(out.buffer, 0, quads);
    for (let q = 0, k = 0; q < quads; q++, k += 3) {
      const a = w[k]!;
      const b = w[k + 1]!;
      const e = w[k + 2]!;
      // Bytes: a = R0 G0 B0 R1, b = G1 B1 R2 G2, e = B2 R3 G3 B3 (lowest first).
      const p0 = ((a & 255) * 77 + ((a >>> 8) & 255) * 150 + ((a >>> 16) & 255) * 29) >> 8;
      const p1 = ((a >>> 24) * 77 + (b & 255) * 150 + ((b >>> 8) & 255) * 29) >> 8;
      const p2 = (((b >>> 16) & 255) * 77 + (b >>> 24) * 150 + (e & 255) * 29) >> 8;
      const p3 = (((e >>> 8) & 255) * 77 + ((e >>> 16) & 255) * 150 + (e >>> 24) * 29) >> 8;
      o[q] = p0 | (p1 << 8) | (p2 << 16) | (p3 << 24);
    }
    i = quads * 4;
  }
  for (let j = i * c; i < n; i++, j += c) out[i] = (d[j]! * 77 + d[j + 1]! * 150 + d[j + 2]! * 29) >> 8;
  return { width: img.width, height: img.height, data: out };
}

export interface RegisteredPhoto {
  chapter: Chapter;
  layout: SheetLayout;
  /** The reading copy: grey for reading, RGB for the preview. */
  grey: GreyImage;
  rgb: Uint8Array;
  registration: Registration;
  markers: FoundMarker[];
  /**
   * Markers of another sheet in the photo (not the chapter asked for), and the bundled chapters
   * they are likeliest from (empty: a chapter clew does not know); null when there are none.
   */
  otherSheet: { markers: number; chapters: string[] } | null;
  /** Size of the decoded (upright) photo. */
  photo: { width: number; height: number };
}

/** The bundled chapters whose printed code agrees with every marker found. */
export function chaptersMatching(markers: readonly FoundMarker[]): string[] {
  return CHAPTER_IDS.filter((id) => markers.every((m) => codeSlice(chapterCode(id), m.corner) === m.slice));
}

/** How many corners of chapter `id`'s sheet `markers` carry its code at. */
function cornersCarrying(markers: readonly FoundMarker[], id: string): number {
  return new Set(markers.filter((m) => codeSlice(chapterCode(id), m.corner) === m.slice).map((m) => m.corner)).size;
}

/** Bundled chapters whose code `markers` carry at the most corners (at least `min`), likeliest first. */
function chaptersCarried(markers: readonly FoundMarker[], min: number): string[] {
  const counts = CHAPTER_IDS.map((id) => ({ id, n: cornersCarrying(markers, id) }));
  const most = Math.max(0, ...counts.map((c) => c.n));
  return most >= min ? counts.filter((c) => c.n === most).map((c) => c.id) : [];
}

function sidePx(m: FoundMarker): number {
  return Math.hypot(m.points[1]![0] - m.points[0]![0], m.points[1]![1] - m.points[0]![1]);
}

/**
 * The markers of one sheet among `candidates` (all carrying the chapter's code): one per corner.
 * Chapters share the code slices of some corners, so a second sheet in the photo gives a corner two
 * candidates: the set that fits one homography is taken, the most corners first. With one candidate
 * a corner (every photo of one sheet), those are the markers, as before.
 */
function oneSheet(layout: SheetLayout, candidates: readonly FoundMarker[]): FoundMarker[] {
  const byCorner = [0, 1, 2, 3].map((c) => candidates.filter((m) => m.corner === c).slice(0, 3));
  if (byCorner.every((l) => l.length <= 1) || byCorner.filter((l) => l.length).length < 3) return clearestPerCorner(candidates);
  const best = { markers: [] as FoundMarker[], mm: Infinity };
  const visit = (k: number, chosen: FoundMarker[]): void => {
    if (k === 4) {
      if (chosen.length < 3) return;
      const fit = markerHomography(layout, chosen);
      if (!fit) return;
      const mm = (fit.residual / (chosen.reduce((s, m) => s + sidePx(m), 0) / chosen.length)) * MARKER_SIZE;
      if (mm > ONE_SHEET_MM) return;
      if (chosen.length > best.markers.length || (chosen.length === best.markers.length && mm < best.mm)) Object.assign(best, { markers: chosen, mm });
      return;
    }
    visit(k + 1, chosen);
    for (const m of byCorner[k]!) visit(k + 1, [...chosen, m]);
  };
  visit(0, []);
  // None fit: the clearest of each corner, which the border-tick check then refuses.
  return best.markers.length ? best.markers : clearestPerCorner(candidates);
}

export async function registerPhoto(bytes: Uint8Array, chapter: Chapter): Promise<RegisteredPhoto> {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) throw new SheetReadError('photo/empty', 'the photo is empty (0 bytes): send the image file as the request body');
  const small = await decode(bytes, DETECT_SIDE);
  const det = greyOf(small);
  // Two sheets in one photo give markers of both: the chapter asked for is read from the markers
  // that carry its code and fit one sheet (`oneSheet`); the other sheet is named.
  const found = findAllMarkers(det);
  const layout = sheetLayout(chapter);
  const code = chapterCode(chapter.id);
  const markers = oneSheet(layout, found.filter((m) => codeSlice(code, m.corner) === m.slice));
  if (markers.length < 3) {
    const corners = clearestPerCorner(found);
    if (corners.length < 3) {
      const seen = corners.map((m) => CORNER_NAMES[m.corner]).join(', ');
      throw new SheetReadError(
        'photo/no-sheet',
        `no Worm & Cozy sheet found in the photo: ${corners.length} of its 4 black corner markers were found${seen ? ` (${seen})` : ''}. ` +
          'Photograph the whole printed sheet, flat and well lit, with all four corner squares in view.',
      );
    }
    // Whose sheet(s) it is: chapters with three corners in view, else those every marker agrees with.
    const sheets = CHAPTER_IDS.filter((id) => id !== chapter.id && cornersCarrying(found, id) >= 3);
    const others = sheets.length ? sheets : chaptersMatching(corners);
    const named = (ids: readonly string[], joint: string) => ids.map((id) => `${id} ("${getChapter(id).title}")`).join(joint);
    // Worded for any caller (the phone, the API): the CLI adds its --chapter flag from `chaptersSeen`.
    throw new SheetReadError(
      'sheet/wrong-chapter',
      sheets.length > 1
        ? `this photo shows the sheets of chapters ${named(sheets, ' and ')}, not of ${chapter.id}: photograph the ${chapter.id} sheet on its own, or read the photo as one of those chapters`
        : others.length
          ? `this is the sheet of chapter ${named(others, ' or ')}, not ${chapter.id}: read it as chapter ${others[0]}`
          : `this sheet was printed for a chapter clew does not know, not for ${chapter.id} (its corner markers carry another chapter's code)`,
      others,
    );
  }
  // The rest are another sheet's (a marker found twice, at the same place, is not).
  const near = (a: FoundMarker, b: FoundMarker) => Math.hypot(a.points[0]![0] - b.points[0]![0], a.points[0]![1] - b.points[0]![1]) < sidePx(b);
  const others = found.filter((m) => !markers.some((k) => k === m || near(m, k)));
  const otherSheet = others.length ? { markers: others.length, chapters: chaptersCarried(others, 1) } : null;
  // Pick the reading copy's size from how big the markers look.
  const meta = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS })
    .rotate()
    .metadata()
    .catch(() => null);
  let fullW = meta?.autoOrient?.width ?? meta?.width ?? small.width;
  let fullH = meta?.autoOrient?.height ?? meta?.height ?? small.height;
  if ((fullW > fullH) !== (small.width > small.height) && small.width !== small.height) [fullW, fullH] = [fullH, fullW];
  const side = markers.reduce((s, m) => s + Math.hypot(m.points[1]![0] - m.points[0]![0], m.points[1]![1] - m.points[0]![1]) + Math.hypot(m.points[3]![0] - m.points[0]![0], m.points[3]![1] - m.points[0]![1]), 0) / (2 * markers.length);
  const detPpm = side / MARKER_SIZE;
  const fullPpm = detPpm * (Math.max(fullW, fullH) / Math.max(small.width, small.height));
  const target = fullPpm <= READ_PPM ? null : Math.round((Math.max(fullW, fullH) * READ_PPM) / fullPpm);
  const reduce = target && target < Math.max(fullW, fullH) ? target : null;
  // A photo no bigger than the marker copy was decoded whole already: the same pixels, not decoded twice.
  const whole = small.width === fullW && small.height === fullH;
  const big = whole && !reduce ? small : await decode(bytes, reduce);
  const img = big === small ? det : greyOf(big);
  const c = big.channels;
  const sx = big.width / small.width;
  const sy = big.height / small.height;
  const scaled = markers.map((m) => ({ ...m, points: m.points.map(([x, y]) => [x * sx, y * sy] as [number, number]) }));
  const reg = register(layout, img, scaled, 1);
  if (!reg) throw new SheetReadError('photo/no-sheet', 'the corner markers were found but do not form a sheet (are they from two different sheets?)');
  // The border's ticks check the markers: where they put the board, a sheet's ticks are found
  // (44 of 44 in every rendered photo, 12 in one blurred at σ 4 px). Under a quarter, the markers
  // are not one sheet's (two sheets in one photo, each partly hidden): refused, not read wrong.
  if (reg.ticksFound < reg.ticksTotal * MIN_TICK_SHARE) {
    throw new SheetReadError('photo/no-sheet', `the sheet's border ticks are not where its corner markers put them (${reg.ticksFound} of ${reg.ticksTotal} found): are the markers from two different sheets, or is the photo blurred or the page folded? Photograph one sheet, flat and in focus`);
  }
  let rgb = big.data;
  if (c !== 3) {
    rgb = new Uint8Array(big.width * big.height * 3);
    for (let i = 0; i < big.width * big.height; i++) for (let k = 0; k < 3; k++) rgb[i * 3 + k] = big.data[i * c + Math.min(k, c - 1)]!;
  }
  return { chapter, layout, grey: img, rgb, registration: reg, markers: scaled, otherSheet, photo: { width: fullW, height: fullH } };
}
