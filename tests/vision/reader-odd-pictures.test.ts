/**
 * Odd pictures never break the reader: a pixel, a sliver, a line of a panorama, pictures of one
 * flat colour, of noise, of stripes, read every way the reader is asked to read (a frame in each
 * view, a picture, a picture of one die, against an empty tray learnt from the same picture). Each
 * gives readings or, where the picture cannot be an empty tray, an error that says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { learnEmptyTray } from '../../vision/empty-tray.js';
import { loadDiceReader, type ClewDiceReader } from '../../vision/reader.js';
import type { RgbImage } from '../../vision/types.js';

let reader: ClewDiceReader;
beforeAll(async () => {
  reader = await loadDiceReader();
});
afterAll(() => reader.dispose());

type Kind = 'noise' | 'blob' | 'white' | 'stripes';

/** A seeded w×h picture: noise, a light disc on a dark ground, all white, or 4 px stripes. */
function picture(w: number, h: number, kind: Kind, seed: string): RgbImage {
  const rng = createRng(seed);
  const data = new Uint8Array(w * h * 3);
  const r = Math.min(w, h) / 4;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let ch = 0; ch < 3; ch++) {
        data[(y * w + x) * 3 + ch] =
          kind === 'noise' ? rng.int(0, 255) : kind === 'white' ? 255 : kind === 'stripes' ? ((x >> 2) % 2 ? 250 : 5) : (x - w / 2) ** 2 + (y - h / 2) ** 2 < r * r ? 235 : 40 + 20 * ch;
      }
    }
  }
  return { width: w, height: h, data };
}

const SIZES: [number, number][] = [[1, 1], [2, 3], [7, 7], [31, 200], [200, 31], [65, 1], [1, 400], [640, 12], [2000, 40], [120, 90]];
const KINDS: Kind[] = ['noise', 'blob', 'white', 'stripes'];

describe('odd pictures', () => {
  it.each(SIZES)('%i×%i: read as a frame, a picture and a picture of one die, or refused as an empty tray with its size', async (w, h) => {
    for (const kind of KINDS) {
      const image = picture(w, h, kind, `odd-${w}x${h}-${kind}`);
      const frames = [
        await reader.read(image, { sets: ['d6'], view: 'any', picture: true, palette: ['white', 'red'] }),
        await reader.read(image, { sets: ['d6', 'worm'], view: 'side' }),
        await reader.read(image, { sets: ['cozy-shape', 'cozy-organ'], view: 'overhead' }),
      ];
      for (const readings of frames) {
        expect(Array.isArray(readings)).toBe(true);
        for (const r of readings) {
          // Every box lies inside the picture, whatever was (wrongly) taken for a die.
          expect(r.box[0]).toBeGreaterThanOrEqual(0);
          expect(r.box[1]).toBeGreaterThanOrEqual(0);
          expect(r.box[2]).toBeLessThanOrEqual(w);
          expect(r.box[3]).toBeLessThanOrEqual(h);
          expect(r.confidence).toBeGreaterThanOrEqual(0);
          expect(r.confidence).toBeLessThanOrEqual(1);
        }
      }
      const [one] = await reader.readCrops([image], { sets: ['d6'], view: 'any', palette: ['white', 'black'] });
      expect(['1', '2', '3', '4', '5', '6']).toContain(one!.face);
      let tray;
      try {
        tray = learnEmptyTray(image);
      } catch (error) {
        expect(error).toBeInstanceOf(RangeError);
        expect((error as Error).message).toMatch(new RegExp(`too small \\(${w}×${h}[;: ]`));
        expect(Math.min(w, h)).toBeLessThan(16 + 20); // only a picture that small (or barred down to it)
        continue;
      }
      expect(Array.isArray(await reader.read(image, { sets: ['d6'], view: 'overhead', tray }))).toBe(true);
    }
  });
});
