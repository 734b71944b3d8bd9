/**
 * Grey frames (a monochrome camera, a webcam in its black-and-white night mode): told from colour
 * frames by their missing chroma, and located with a lower lightness floor, since their dice
 * stand out by lightness alone.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../vision/image/decode.js';
import { hasHue, isGreyImage } from '../../vision/locate/grey.js';
import { locateDice } from '../../vision/locate/index.js';
import { iou } from '../../vision/stream.js';
import type { Box, RgbImage } from '../../vision/types.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/dice-real');
const readBoxes = (file: string): Box[] => readFileSync(path.join(fixtures, file), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').slice(1).map(Number) as Box);
/** A fixture frame as a monochrome camera's JPEG gives it (one channel, decoded to R = G = B). */
async function greyJpeg(file: string): Promise<RgbImage> {
  return decodeImage(new Uint8Array(await sharp(path.join(fixtures, file)).greyscale().jpeg({ quality: 90 }).toBuffer()));
}
const found = (dice: { box: Box }[], truth: readonly Box[]) => truth.map((t) => dice.some((d) => iou(d.box, t) >= 0.5));

let colour: RgbImage;
beforeAll(async () => {
  colour = await decodeImage(readFileSync(path.join(fixtures, 'frame.jpg')));
});

describe('isGreyImage', () => {
  it('is true for a frame with R = G = B, false for a real colour frame', async () => {
    expect(isGreyImage(await greyJpeg('frame.jpg'))).toBe(true);
    expect(isGreyImage(colour)).toBe(false);
    expect(isGreyImage(colour, 7)).toBe(false);
  });

  it('lets a few coloured pixels pass (0.3 %), not 1 %', async () => {
    const grey = await greyJpeg('frame.jpg');
    const tinted = (share: number): RgbImage => {
      const data = Uint8Array.from(grey.data);
      const n = grey.width * grey.height, k = Math.round(share * n);
      for (let j = 0; j < k; j++) data[3 * Math.floor((j * n) / k)] = 250; // red
      return { ...grey, data };
    };
    expect(isGreyImage(tinted(0.003))).toBe(true);
    expect(isGreyImage(tinted(0.01))).toBe(false);
  });

  it('is false for an empty picture', () => {
    expect(isGreyImage({ width: 0, height: 0, data: new Uint8Array(0) })).toBe(false);
  });
});

describe('hasHue', () => {
  it('tells the colours a grey picture cannot show from white, grey and black', () => {
    expect(['red', 'yellow', 'ivory', 'blue', 'brown'].map(hasHue)).toEqual([true, true, true, true, true]);
    expect(['white', 'grey', 'black', 'no such colour'].map(hasHue)).toEqual([false, false, false, false]);
  });
});

describe('locating dice in a grey frame', () => {
  it.each(['frame', 'frame-2'])('finds the real %s’s ivory die in grey, which the usual floor misses', async (name) => {
    const grey = await greyJpeg(`${name}.jpg`);
    const truth = readBoxes(`${name}.csv`);
    // Die 1 of each frame: an ivory die, in grey a little lighter than the wood round it. (Die 0,
    // a red die, is as dark as the wood's grain in grey, and is still missed.)
    expect(found(locateDice(grey, { greyFloor: false }), truth)[1]).toBe(false);
    expect(found(locateDice(grey), truth)[1]).toBe(true);
  });

  it('leaves colour frames as they were', () => {
    expect(locateDice(colour)).toEqual(locateDice(colour, { greyFloor: false }));
  });
});
