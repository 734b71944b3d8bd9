/**
 * Image bytes ⇄ `RgbImage`, through sharp (libvips). Decoding applies EXIF orientation, drops
 * alpha (composited on white) and expands grey to RGB, so every caller sees upright 8-bit RGB.
 * Pictures over DECODE_PIXELS come back shrunk: `decodePicture` says by how much, and
 * `toPictureBox` puts a box found in the decoded pixels back in the picture's own.
 */
import { lstat, open, readlink } from 'node:fs/promises';
import sharp from 'sharp';
import type { Box, RgbImage } from '../types.js';
import { describeImageFailure, ftypNames, HEVC_BRANDS, READABLE_FORMATS, type ImageFailureKind } from './failure.js';
import { assertImage } from './image.js';

// Each picture is decoded once: libvips's operation cache (up to 50 MB by default) only kept the
// last pictures' pixels alive in a server sized for a Pi.
sharp.cache(false);

/** Refuse absurd inputs before decoding (a 640×640 frame is 0.4 MP; phones give ~12–50 MP). */
export const MAX_PIXELS = 100_000_000;
/**
 * Larger pictures are shrunk as they are decoded to about this many pixels (a 48 MP phone photo
 * to 6,000×4,000): the locator works at 640 px and looks closer at up to 2,560, so nothing it
 * reads needs more, and a 100 MP picture decoded whole took about 1 GB and 9 s of a Pi-sized
 * server (JPEG shrinks by halves as it decodes, so such a picture also decodes faster).
 */
export const DECODE_PIXELS = 24_000_000;
/**
 * A picture file larger than this is refused before it is read: an uncompressed 8-bit RGB picture
 * of MAX_PIXELS. A phone's video named among its photos (`DCIM/*`) was read whole first: 400 MB
 * took 1 GB of memory to be told it is not a picture.
 */
export const MAX_FILE_BYTES = 3 * MAX_PIXELS;

/** A file sharp could not decode: `kind` says whether it is damaged or a format not read here. */
export class ImageDecodeError extends Error {
  constructor(
    readonly kind: ImageFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'ImageDecodeError';
  }
}

/** A decoded picture and the picture it came from. */
export interface DecodedPicture {
  /** Upright RGB: the picture itself, or over DECODE_PIXELS the picture shrunk. */
  image: RgbImage;
  /** The picture's own size, upright (EXIF orientation applied), before any shrink. */
  picture: { width: number; height: number };
  /** Decoded pixels per picture pixel: 1 when decoded whole, less when shrunk. */
  scale: number;
}

/** A box in `decoded.image`'s pixels → the same box in the upright picture's own pixels. */
export function toPictureBox(box: Box, decoded: DecodedPicture): Box {
  const sx = decoded.picture.width / decoded.image.width;
  const sy = decoded.picture.height / decoded.image.height;
  return [box[0] * sx, box[1] * sy, box[2] * sx, box[3] * sy];
}

/** Brands of the HEIF container (ISO/IEC 23008-12, AVIF): a still picture, not a video's `isom`/`qt  `. */
const HEIF_BRANDS: ReadonlySet<string> = new Set(['mif1', 'mif2', 'msf1', 'miaf', 'avif', 'avis', 'avio', ...HEVC_BRANDS, 'MiHE', 'MiHA', 'MiHB', 'MiPr']);

/** How many leading bytes `sniffPicture` looks at (an ftyp box's brands fit in far fewer). */
export const SNIFF_BYTES = 4096;

/**
 * What the first bytes of a file say it is: one of the formats clew reads (READABLE_FORMATS, and
 * HEIF, whose HEVC kind decodeImage then names), or in words what else it looks like. Libvips
 * would read more (SVG, PPM, Radiance…), none of them documented, and an SVG is a program for librsvg.
 */
export function sniffPicture(head: Uint8Array): { ok: true } | { ok: false; looksLike: string } {
  const at = (i: number, text: string) => [...text].every((c, k) => head[i + k] === c.charCodeAt(0));
  const bytes = (...b: number[]) => b.every((v, k) => head[k] === v);
  if (bytes(0xff, 0xd8)) return { ok: true }; // JPEG (libvips looks no further either)
  if (bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { ok: true }; // PNG
  if (at(0, 'GIF8')) return { ok: true };
  if (at(0, 'RIFF') && at(8, 'WEBP')) return { ok: true };
  if (bytes(0x49, 0x49, 0x2a, 0x00) || bytes(0x4d, 0x4d, 0x00, 0x2a) || bytes(0x49, 0x49, 0x2b, 0x00) || bytes(0x4d, 0x4d, 0x00, 0x2b)) return { ok: true }; // TIFF, BigTIFF
  if (at(4, 'ftyp')) return ftypNames(head, HEIF_BRANDS) ? { ok: true } : { ok: false, looksLike: 'a video (MP4 or MOV)' };
  const text = new TextDecoder().decode(head.subarray(0, 512)).replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('<') && /<svg[\s>]/i.test(text)) return { ok: false, looksLike: 'an SVG drawing' };
  if (at(0, '%PDF')) return { ok: false, looksLike: 'a PDF document' };
  if (at(0, 'BM')) return { ok: false, looksLike: 'a BMP picture' };
  return { ok: false, looksLike: '' };
}

/** Refuses bytes whose first bytes are of no format clew reads (sniffPicture), saying what they look like. */
function assertSniffed(bytes: Uint8Array): void {
  const sniffed = sniffPicture(bytes.subarray(0, SNIFF_BYTES));
  if (!sniffed.ok) throw new ImageDecodeError('unsupported', `decodeImage: ${notAPicture(sniffed.looksLike, bytes.length)}`);
}

function notAPicture(looksLike: string, size: number): string {
  return `not an image clew can read (${READABLE_FORMATS}${looksLike ? `; this is ${looksLike}` : ''}; ${size} bytes)`;
}

function tooLargeMessage(w: number, h: number): string {
  return `too large to read: ${w}×${h} pixels (${Math.round((w * h) / 1e6)} MP; at most ${MAX_PIXELS / 1e6} MP). Send a smaller picture`;
}

/**
 * Refuses, from the header alone, bytes clew will not decode: not one of its formats (by their
 * first bytes) or over MAX_PIXELS. A header sharp cannot parse is let through, for the decoder to
 * say what is wrong with it. For a reader with a decoder of its own (the sheet's), so an upload is
 * answered alike whichever reader it is sent to.
 */
export async function assertReadablePicture(bytes: Uint8Array): Promise<void> {
  if (bytes.length === 0) return;
  assertSniffed(bytes);
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata().catch(() => null);
  const { width: w = 0, height: h = 0 } = meta ?? {};
  if (w * h > MAX_PIXELS) throw new ImageDecodeError('too-large', `decodeImage: ${tooLargeMessage(w, h)}`);
}

/** Why a picture file cannot be read, before it is decoded. */
export type PictureFileProblem = 'missing' | 'broken-link' | 'folder' | 'not-a-file' | 'too-big' | 'not-a-picture';

export class PictureFileError extends Error {
  constructor(
    readonly problem: PictureFileProblem,
    message: string,
  ) {
    super(message);
    this.name = 'PictureFileError';
  }
}

/**
 * A picture file's bytes, not copied: refused from its size and its first bytes before it is read
 * whole (a folder, a broken link, a video, a file over MAX_FILE_BYTES), each in words that follow
 * the file's name. Read errors of other kinds (EACCES) are thrown as they are.
 */
export async function readPictureFile(file: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      const link = await lstat(file).then((s) => s.isSymbolicLink(), () => false);
      if (link) throw new PictureFileError('broken-link', `a broken link: what it points to (${await readlink(file).catch(() => '?')}) does not exist`);
      throw new PictureFileError('missing', 'no such file');
    }
    if (code === 'EISDIR') throw new PictureFileError('folder', 'is a folder, not an image');
    throw error;
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new PictureFileError('folder', 'is a folder, not an image');
    if (!info.isFile()) throw new PictureFileError('not-a-file', 'is not a file (a device or a pipe), not an image');
    if (info.size > MAX_FILE_BYTES) throw new PictureFileError('too-big', `too big to be a picture clew reads (${Math.ceil(info.size / 1e6)} MB; at most ${MAX_FILE_BYTES / 1e6} MB)`);
    if (info.size === 0) return new Uint8Array(0); // decodeImage says "empty file"
    const head = new Uint8Array(Math.min(info.size, SNIFF_BYTES));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const sniffed = sniffPicture(head.subarray(0, bytesRead));
    if (!sniffed.ok) throw new PictureFileError('not-a-picture', notAPicture(sniffed.looksLike, info.size));
    // A Buffer is a Uint8Array: handed on as it is, not copied.
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** How strictly bytes are decoded. */
export interface DecodeOptions {
  /**
   * Refuse what the decoder only warns about (sharp's `failOn: 'warning'`): a camera frame cut
   * short that still ends with its end marker (a USB webcam's lost packets) decoded as a
   * half-grey picture, and the stream took it for motion. For camera frames; every good replay
   * and real webcam frame decodes so. An upload or a file is read as far as it goes.
   */
  strict?: boolean;
}

/** Upright (EXIF), alpha on white, sRGB, raw: refused over `limit` pixels, shrunk to fit a `side`-pixel square where given. */
function rgbOf(bytes: Uint8Array, limit: number, side?: number, strict = false): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }> {
  let pipeline = sharp(bytes, { failOn: strict ? 'warning' : 'error', limitInputPixels: limit }).rotate(); // no angle: orient from EXIF
  if (side !== undefined) pipeline = pipeline.resize({ width: side, height: side, fit: 'inside', kernel: 'lanczos3' });
  return pipeline.flatten({ background: { r: 255, g: 255, b: 255 } }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
}

/** Upright RGB of the bytes: see `decodePicture`, which also says whether it was shrunk. */
export async function decodeImage(bytes: Uint8Array, options: DecodeOptions = {}): Promise<RgbImage> {
  return (await decodePicture(bytes, options)).image;
}

/**
 * Upright RGB of the bytes, shrunk as it is decoded when over DECODE_PIXELS, with the picture's
 * own upright size: whatever is found in `image` is in the picture at `toPictureBox`.
 */
export async function decodePicture(bytes: Uint8Array, options: DecodeOptions = {}): Promise<DecodedPicture> {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('decodeImage: expected the file bytes as a Uint8Array');
  if (bytes.length === 0) throw new Error('decodeImage: empty file (0 bytes)');
  assertSniffed(bytes);
  let decoded: { data: Buffer; info: { width: number; height: number; channels: number } };
  let picture: { width: number; height: number } | null = null;
  try {
    try {
      // Most pictures are under DECODE_PIXELS and decode in one pass, with no header read of their own.
      decoded = await rgbOf(bytes, DECODE_PIXELS, undefined, options.strict);
    } catch (error) {
      if (!/exceeds pixel limit/i.test((error as Error).message)) throw error;
      // Larger: refused over MAX_PIXELS, else shrunk as it is decoded.
      const { width: w = 0, height: h = 0, orientation = 1 } = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
      if (w * h > MAX_PIXELS) throw new ImageDecodeError('too-large', `decodeImage: ${tooLargeMessage(w, h)}`);
      // EXIF orientations 5 to 8 turn the picture a quarter: its upright width is the stored height.
      picture = orientation >= 5 ? { width: h, height: w } : { width: w, height: h };
      // Before the EXIF turn is applied the stored sides come in either order: fit both within the scaled box.
      decoded = await rgbOf(bytes, MAX_PIXELS, Math.floor(Math.max(w, h) * Math.sqrt(DECODE_PIXELS / (w * h))), options.strict);
    }
  } catch (error) {
    if (error instanceof ImageDecodeError) throw error;
    const failure = describeImageFailure(bytes, error);
    throw new ImageDecodeError(failure.kind, `decodeImage: ${failure.message}`);
  }
  const { width, height } = decoded.info;
  const image = rgbOfDecoded(decoded);
  picture ??= { width, height };
  return { image, picture, scale: Math.sqrt((width * height) / (picture.width * picture.height)) };
}

function rgbOfDecoded(decoded: { data: Buffer; info: { width: number; height: number; channels: number } }): RgbImage {
  const { width, height, channels } = decoded.info;
  const src = decoded.data;
  if (channels === 3) {
    return { width, height, data: new Uint8Array(src.buffer, src.byteOffset, src.length) };
  }
  // Grey (1), grey+alpha (2) or RGBA (4) despite the conversion: expand/drop to RGB.
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const s = i * channels;
    if (channels < 3) {
      data[i * 3] = data[i * 3 + 1] = data[i * 3 + 2] = src[s]!;
    } else {
      data[i * 3] = src[s]!;
      data[i * 3 + 1] = src[s + 1]!;
      data[i * 3 + 2] = src[s + 2]!;
    }
  }
  return { width, height, data };
}

function sharpOf(image: RgbImage): ReturnType<typeof sharp> {
  assertImage(image, 'encode');
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
}

export async function encodePng(image: RgbImage): Promise<Uint8Array> {
  return new Uint8Array(await sharpOf(image).png({ compressionLevel: 6 }).toBuffer());
}

export async function encodeJpeg(image: RgbImage, quality = 90): Promise<Uint8Array> {
  if (!(quality >= 1 && quality <= 100)) throw new RangeError(`encodeJpeg: quality must be 1..100, got ${quality}`);
  return new Uint8Array(await sharpOf(image).jpeg({ quality: Math.round(quality) }).toBuffer());
}
