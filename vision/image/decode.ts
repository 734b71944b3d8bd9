/**
 * Image bytes ⇄ `RgbImage`, through sharp (libvips). Decoding applies EXIF orientation, drops
 * alpha (composited on white) and expands grey to RGB, so every caller sees upright 8-bit RGB.
 */
import sharp from 'sharp';
import type { RgbImage } from '../types.js';
import { describeImageFailure, type ImageFailureKind } from './failure.js';
import { assertImage } from './image.js';

/** Refuse absurd inputs before decoding (a 640×640 frame is 0.4 MP; phones give ~12–50 MP). */
const MAX_PIXELS = 100_000_000;

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

export async function decodeImage(bytes: Uint8Array): Promise<RgbImage> {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('decodeImage: expected the file bytes as a Uint8Array');
  if (bytes.length === 0) throw new Error('decodeImage: empty file (0 bytes)');
  let decoded: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    decoded = await sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PIXELS })
      .rotate() // no angle: orient from EXIF
      .flatten({ background: { r: 255, g: 255, b: 255 } })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
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
