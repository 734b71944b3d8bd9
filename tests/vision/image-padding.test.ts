/**
 * Flat bars round a picture of one die (a crop cut past its photo's edge, letterboxing) are
 * taken off before the die is framed; a photo's own plain edges are not.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { squareCrop } from '../../vision/image/crop.js';
import { decodeImage } from '../../vision/image/decode.js';
import { insideFlatBars, shiftBox, withoutFlatBars } from '../../vision/image/padding.js';
import { frameDieImage } from '../../vision/model/framing.js';
import type { RgbImage } from '../../vision/types.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/dice-real');
const bytes = (file: string) => readFileSync(path.join(fixtures, file));

/** The picture padded to a square with bars above and below (as datasets pad), through JPEG as a file would be. */
async function paddedToSquare(file: string, colour: { r: number; g: number; b: number }): Promise<{ image: RgbImage; pad: [number, number] }> {
  const { width, height } = await sharp(bytes(file)).metadata();
  const pad: [number, number] = [Math.floor((width! - height!) / 2), Math.ceil((width! - height!) / 2)];
  const image = await decodeImage(await sharp(bytes(file)).extend({ top: pad[0], bottom: pad[1], background: colour }).jpeg({ quality: 95 }).toBuffer());
  return { image, pad };
}

function meanAbsDiff(a: RgbImage, b: RgbImage): number {
  let d = 0;
  for (let i = 0; i < a.data.length; i++) d += Math.abs(a.data[i]! - b.data[i]!);
  return d / a.data.length;
}

describe('insideFlatBars', () => {
  it('takes off the four black rows of a real crop cut past the top of its photo', async () => {
    const crop = await decodeImage(bytes('edge/WIN_20221211_13_10_50_Pro-die-1.jpg'));
    expect([crop.width, crop.height]).toEqual([113, 71]);
    expect(insideFlatBars(crop)).toEqual([0, 4, 113, 71]);
  });

  it('leaves the twelve real crops without bars as they are', async () => {
    for (const file of readFileSync(path.join(fixtures, 'labels.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[0]!)) {
      const crop = await decodeImage(bytes(file));
      expect(insideFlatBars(crop), file).toEqual([0, 0, crop.width, crop.height]);
    }
  });

  it('takes off the bars of a picture padded to a square in black or white, to within the line or two JPEG rings', async () => {
    for (const colour of [{ r: 0, g: 0, b: 0 }, { r: 255, g: 255, b: 255 }]) {
      const { image, pad } = await paddedToSquare('crops/WIN_20221210_14_48_48_Pro-die-0.jpg', colour);
      const [x0, y0, x1, y1] = insideFlatBars(image);
      expect([x0, x1], JSON.stringify(colour)).toEqual([0, image.width]);
      for (const [inset, padded] of [[y0, pad[0]], [image.height - y1, pad[1]]] as const) {
        expect(inset, JSON.stringify(colour)).toBeGreaterThanOrEqual(padded - 2);
        expect(inset, JSON.stringify(colour)).toBeLessThanOrEqual(padded + 3);
      }
    }
  });

  it('takes off both bars of a grey pad or neither, never one (the die would move off the middle)', async () => {
    // A grey pad beside this grey-brown floor steps along too little of its line to be sure
    // of (a limit: of the 151 Catan crops padded so, 101 lose both bars, 50 neither).
    const { image } = await paddedToSquare('crops/WIN_20221210_14_48_48_Pro-die-0.jpg', { r: 114, g: 114, b: 114 });
    const [, y0, , y1] = insideFlatBars(image);
    expect(y0 === 0).toBe(y1 === image.height);
  });

  it('takes off a frame of one colour all round, when each side steps along its line between the others', async () => {
    const image = await decodeImage(await sharp(bytes('crops/WIN_20221210_14_48_48_Pro-die-0.jpg')).extend({ top: 12, bottom: 12, left: 16, right: 16, background: { r: 0, g: 0, b: 0 } }).jpeg({ quality: 95 }).toBuffer());
    const [x0, y0, x1, y1] = insideFlatBars(image);
    for (const [inset, padded] of [[x0, 16], [y0, 12], [image.width - x1, 16], [image.height - y1, 12]] as const) {
      expect(inset).toBeGreaterThanOrEqual(padded - 2);
      expect(inset).toBeLessThanOrEqual(padded + 3);
    }
  });

  it('leaves a plain background round a die turned on its corner alone: its edges do not step', () => {
    // A noiseless card (as a render has) with a die turned 45° in the middle: flat on all four
    // sides, but the line where the die begins is nearly all card.
    const w = 90, h = 70, data = new Uint8Array(w * h * 3).fill(180);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      if (Math.abs(x - 45) + Math.abs(y - 35) < 22) data.set([200, 40, 40], (y * w + x) * 3);
    }
    expect(insideFlatBars({ width: w, height: h, data })).toEqual([0, 0, w, h]);
  });

  it("leaves a photo's plain edge alone: dim, noisy and fading into the picture", () => {
    // A dark table (value 40, noise ±5) whose middle brightens: no line is of one exact colour
    // and nothing steps from the edge's colour.
    const rng = createRng('plain-edge');
    const w = 80, h = 60, data = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const base = 40 + Math.max(0, 30 - Math.hypot(x - 40, y - 30));
      for (let k = 0; k < 3; k++) data[(y * w + x) * 3 + k] = Math.round(base + rng.range(-8, 8));
    }
    expect(insideFlatBars({ width: w, height: h, data })).toEqual([0, 0, w, h]);
  });

  it('leaves a picture of one flat colour alone (no side loses more than a third)', () => {
    const image: RgbImage = { width: 30, height: 20, data: new Uint8Array(30 * 20 * 3).fill(200) };
    expect(insideFlatBars(image)).toEqual([0, 0, 30, 20]);
  });
});

describe('withoutFlatBars', () => {
  it('gives the part inside the bars and where it lies; shiftBox moves boxes between the two', async () => {
    const crop = await decodeImage(bytes('edge/WIN_20221211_13_10_50_Pro-die-1.jpg'));
    const { image, offset } = withoutFlatBars(crop);
    expect([image.width, image.height, ...offset]).toEqual([113, 67, 0, 4]);
    expect(image.data.subarray(0, 3)).toEqual(crop.data.subarray(4 * 113 * 3, 4 * 113 * 3 + 3));
    expect(shiftBox([10, 10, 20, 30], offset)).toEqual([10, 14, 20, 34]);
    expect(shiftBox(shiftBox([10, 10, 20, 30], offset), offset, -1)).toEqual([10, 10, 20, 30]);
  });

  it('hands back the very picture when there is nothing to take off', async () => {
    const crop = await decodeImage(bytes('crops/WIN_20221210_14_48_48_Pro-die-0.jpg'));
    const out = withoutFlatBars(crop);
    expect(out.image).toBe(crop);
    expect(out.offset).toEqual([0, 0]);
  });
});

describe('frameDieImage on a padded picture', () => {
  it('frames the picture inside the bars, and gives boxes in the padded picture\'s coordinates', async () => {
    const file = 'crops/WIN_20221210_14_48_48_Pro-die-0.jpg';
    const plain = await decodeImage(bytes(file));
    const { image, pad } = await paddedToSquare(file, { r: 0, g: 0, b: 0 });
    // Framed as the picture itself (bars and all), the die is a smaller part of the crop.
    const asIs = squareCrop(image, [0, 0, image.width, image.height]);
    for (const mode of ['whole', 'locate'] as const) {
      const a = frameDieImage(plain, mode);
      const b = frameDieImage(image, mode);
      // Nearly the crop of the picture without bars (JPEG's second pass and a ringing line
      // apart), far nearer than the picture framed with its bars.
      expect(meanAbsDiff(a.crop, b.crop), mode).toBeLessThan(meanAbsDiff(a.crop, asIs) / 2);
      expect(b.box[1], mode).toBeGreaterThanOrEqual(pad[0] - 2);
      expect(b.box[3], mode).toBeLessThanOrEqual(image.height - pad[1] + 2);
    }
  });
});
