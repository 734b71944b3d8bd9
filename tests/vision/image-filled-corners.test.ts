/**
 * Corners a rotation filled (vision/image/filled-corners.ts): a picture turned on a grown canvas
 * has a flat black or white wedge in each corner, painted over from inside before the die is
 * framed; a photo's own corners, a flat bar and other fill colours are left as they are.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../vision/image/decode.js';
import { filledCorners, withoutFilledCorners } from '../../vision/image/filled-corners.js';
import { frameDieImage } from '../../vision/model/framing.js';
import type { RgbImage } from '../../vision/types.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/dice-real');
const labels = readFileSync(path.join(fixtures, 'labels.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[0]!);
const bytes = (file: string) => readFileSync(path.join(fixtures, file));

/** A fixture crop turned on a grown canvas, its corners filled with `level` grey, through JPEG as a file would be. */
async function turned(file: string, degrees: number, fill: { r: number; g: number; b: number }): Promise<RgbImage> {
  return decodeImage(await sharp(bytes(file)).rotate(degrees, { background: fill }).jpeg({ quality: 95 }).toBuffer());
}

const black = { r: 0, g: 0, b: 0 }, white = { r: 255, g: 255, b: 255 };

/** Pixels within 12 of `level` in every channel, in the picture's four corner triangles (legs a quarter of each side). */
function cornerPixelsNear(image: RgbImage, level: number): number {
  const { width: w, height: h, data } = image;
  let n = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const u = Math.min(x, w - 1 - x) / (w / 4), v = Math.min(y, h - 1 - y) / (h / 4);
      if (u + v >= 1) continue;
      const i = (y * w + x) * 3;
      if (Math.abs(data[i]! - level) <= 12 && Math.abs(data[i + 1]! - level) <= 12 && Math.abs(data[i + 2]! - level) <= 12) n++;
    }
  }
  return n;
}

describe('filledCorners', () => {
  it('finds the four wedges of every fixture crop turned 15° or 30° on black or white', async () => {
    for (const file of labels) {
      for (const [degrees, fill] of [[15, black], [30, white]] as const) {
        expect(filledCorners(await turned(file, degrees, fill)).length, `${file} ${degrees}°`).toBe(4);
      }
    }
  });

  it('finds none in the fixture crops as they are (a photo\'s corners are its table, not flat)', async () => {
    for (const file of labels) expect(filledCorners(await decodeImage(bytes(file))), file).toEqual([]);
  });

  it('finds none where the fill is another colour, or the flat black is a bar along an edge', async () => {
    const file = labels[0]!;
    expect(filledCorners(await turned(file, 15, { r: 128, g: 100, b: 70 }))).toEqual([]);
    const { width, height } = await sharp(bytes(file)).metadata();
    const barred = await decodeImage(await sharp(bytes(file)).extend({ top: Math.round(height! / 4), background: black }).jpeg({ quality: 95 }).toBuffer());
    expect(filledCorners(barred)).toEqual([]);
    // A black frame all round: every corner's black runs the whole edge.
    const framed = await decodeImage(await sharp(bytes(file)).extend({ top: 6, bottom: 6, left: Math.round(width! / 10), right: 6, background: black }).jpeg({ quality: 95 }).toBuffer());
    expect(filledCorners(framed)).toEqual([]);
  });

  it('finds none in a picture too small to hold a wedge', () => {
    expect(filledCorners({ width: 4, height: 4, data: new Uint8Array(48) })).toEqual([]);
  });
});

describe('withoutFilledCorners', () => {
  it('paints the wedges over from inside and leaves the middle of the picture as it was', async () => {
    for (const [fill, level] of [[black, 0], [white, 255]] as const) {
      const image = await turned(labels[4]!, 15, fill);
      const { image: painted, wedges } = withoutFilledCorners(image);
      expect(wedges).toBe(4);
      expect([painted.width, painted.height]).toEqual([image.width, image.height]);
      expect(cornerPixelsNear(image, level)).toBeGreaterThan(400);
      expect(cornerPixelsNear(painted, level)).toBeLessThan(20);
      // The middle third is untouched.
      const { width: w, height: h } = image;
      for (let y = Math.floor(h / 3); y < (2 * h) / 3; y++) {
        for (let x = Math.floor(w / 3); x < (2 * w) / 3; x++) {
          const i = (y * w + x) * 3;
          expect(painted.data[i]).toBe(image.data[i]);
        }
      }
    }
  });

  it('returns the picture itself when no corner was filled', async () => {
    const image = await decodeImage(bytes(labels[0]!));
    expect(withoutFilledCorners(image)).toEqual({ image, wedges: 0 });
    expect(withoutFilledCorners(image).image).toBe(image);
  });
});

describe('framing a picture of one die with filled corners', () => {
  it('frames the painted picture, and the picture as it came beside it for the reader to fall back on', async () => {
    // A tight crop of a turned die on a blown-out background has four wedges of its own: the
    // reader keeps the reading of the picture as it came when that is clearly surer (reader.ts).
    const image = await turned(labels[4]!, 15, black);
    const framed = frameDieImage(image, 'locate');
    expect(framed.unpainted).toBeDefined();
    expect(framed.unpainted!.crop.data).not.toEqual(framed.crop.data);
    const plain = frameDieImage(await decodeImage(bytes(labels[4]!)), 'locate');
    expect(plain.unpainted).toBeUndefined();
  });
});
