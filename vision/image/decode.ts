/**
 * Image bytes ⇄ `RgbImage`, through sharp (libvips). Decoding applies EXIF orientation, drops
 * alpha (composited on white) and expands grey to RGB, so every caller sees upright 8-bit RGB.
 */
import sharp from 'sharp';
import type { RgbImage } from '../types.js';
import { describeImageFailure, type ImageFailureKind } from './failure.js';
import { assertImage } from './image.js';

/** Refuse absurd inputs before decoding (a 640×640 frame is 0.4 MP; phones give ~12–50 MP). */
export const MAX_PIXELS = 100_000_000;
/**
 * Larger pictures are shrunk as they are decoded to about this many pixels (a 48 MP phone photo
 * to 6,000×4,000): the locator works at 640 px and looks closer at up to 2,560, so nothing it
 * reads needs more, and a 100 MP picture decoded whole took about 1 GB and 9 s of a Pi-sized
 * server (JPEG shrinks by halves as it decodes, so such a picture also decodes faster).
 */
export const DECODE_PIXELS = 24_000_000;

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

/** Upright (EXIF), alpha on white, sRGB, raw: refused over `limit` pixels, shrunk to fit a `side`-pixel square where given. */
function rgbOf(bytes: Uint8Array, limit: number, side?: number): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }> {
  let pipeline = sharp(bytes, { failOn: 'error', limitInputPixels: limit }).rotate(); // no angle: orient from EXIF
  if (side !== undefined) pipeline = pipeline.resize({ width: side, height: side, fit: 'inside', kernel: 'lanczos3' });
  return pipeline.flatten({ background: { r: 255, g: 255, b: 255 } }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
}

export async function decodeImage(bytes: Uint8Array): Promise<RgbImage> {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('decodeImage: expected the file bytes as a Uint8Array');
  if (bytes.length === 0) throw new Error('decodeImage: empty file (0 bytes)');
  let decoded: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    try {
      // Most pictures are under DECODE_PIXELS and decode in one pass, with no header read of their own.
      decoded = await rgbOf(bytes, DECODE_PIXELS);
    } catch (error) {
      if (!/exceeds pixel limit/i.test((error as Error).message)) throw error;
      // Larger: refused over MAX_PIXELS, else shrunk as it is decoded.
      const { width: w = 0, height: h = 0 } = await sharp(bytes, { failOn: 'error', limitInputPixels: false }).metadata();
      if (w * h > MAX_PIXELS) {
        throw new ImageDecodeError('too-large', `decodeImage: too large to read: ${w}×${h} pixels (${Math.round((w * h) / 1e6)} MP; at most ${MAX_PIXELS / 1e6} MP). Send a smaller picture`);
      }
      // Before the EXIF turn is applied the stored sides come in either order: fit both within the scaled box.
      decoded = await rgbOf(bytes, MAX_PIXELS, Math.floor(Math.max(w, h) * Math.sqrt(DECODE_PIXELS / (w * h))));
    }
  } catch (error) {
    if (error instanceof ImageDecodeError) throw error;
    const failure = describeImageFailure(bytes, error);
    throw new ImageDecodeError(failure.kind, `decodeImage: ${failure.message}`);
  }
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
