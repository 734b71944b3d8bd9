/**
 * The dice reader on two threads (vision/model/forward-pool.ts) reads exactly as on one: the same
 * dice, faces, confidences and probabilities for real frames in every view, for rendered trays,
 * and for real crops before and after teaching it the dice.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { decodeImage } from '../../vision/image/decode.js';
import { loadDiceReader, type ClewDiceReader } from '../../vision/reader.js';
import { renderScene } from '../../vision/synth/scene.js';
import type { RgbImage } from '../../vision/types.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/dice-real');
let one: ClewDiceReader;
let two: ClewDiceReader;
let frames: RgbImage[];
let crops: { face: string; image: RgbImage }[];

beforeAll(async () => {
  [one, two] = await Promise.all([loadDiceReader({ threads: 1, adapt: { steps: 4 } }), loadDiceReader({ threads: 2, adapt: { steps: 4 } })]);
  await two.threadsReady;
  frames = [
    await decodeImage(readFileSync(path.join(fixtures, 'frame.jpg'))),
    await decodeImage(readFileSync(path.join(fixtures, 'frame-2.jpg'))),
    renderScene(createRng('threads:tray'), { dice: 20, dieSize: [30, 70], sets: ['d6'] }).image,
  ];
  const labels = readFileSync(path.join(fixtures, 'labels.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  crops = await Promise.all(labels.map(async ([file, face]) => ({ face: face!, image: await decodeImage(readFileSync(path.join(fixtures, file!))) })));
});
afterAll(() => {
  one?.dispose();
  two?.dispose();
});

describe('two reading threads', () => {
  it('are in use once ready', () => {
    expect(one.threads).toBe(1);
    expect(two.threads).toBe(2);
  });

  it('read frames as one thread does, in every view', async () => {
    for (const view of ['side', 'overhead', 'any'] as const) {
      for (const frame of frames) {
        const a = await one.readDetailed(frame, { sets: ['d6'], view, palette: ['white', 'red', 'black'] });
        const b = await two.readDetailed(frame, { sets: ['d6'], view, palette: ['white', 'red', 'black'] });
        expect(a.length).toBeGreaterThan(0);
        expect(b).toEqual(a);
      }
    }
  });

  it('name the dice colours as one thread does (measured while the other thread reads): one by one, fitted to a roll\'s coloured dice, against the empty tray', async () => {
    const rolled = renderScene(createRng('threads:colours'), { dice: 6, dieSize: [40, 80], sets: ['d6'], empty: true });
    const palette = ['white', 'red', 'blue', 'green', 'yellow', 'black'];
    const slots = { slots: palette.map((color) => ({ set: 'd6' as const, color })) };
    const tray = two.learnTray(rolled.empty!);
    for (const opts of [{ palette }, { palette, expect: slots }, { palette, tray }, { palette: ['red'] }]) {
      for (const frame of [rolled.image, frames[0]!]) {
        const a = await one.readDetailed(frame, { sets: ['d6'], ...opts });
        const b = await two.readDetailed(frame, { sets: ['d6'], ...opts });
        expect(a.length).toBeGreaterThan(0);
        expect(a.every((d) => d.color !== undefined)).toBe(true);
        expect(b).toEqual(a);
      }
    }
  });

  it('read crops as one thread does, before and after teaching the same dice', async () => {
    const images = crops.map((c) => c.image);
    expect(await two.readCropsDetailed(images, { sets: ['d6', 'worm'] })).toEqual(await one.readCropsDetailed(images, { sets: ['d6', 'worm'] }));
    for (const reader of [one, two]) {
      for (const c of crops) await reader.calibration.add('d6', c.face, c.image);
      await reader.calibration.commit('d6', { persist: false, createdAt: '2026-11-28T00:00:00.000Z' });
    }
    expect(two.calibration.list()).toEqual(one.calibration.list());
    // The adapted net reaches the other thread in the background; reads agree before and after.
    expect(await two.readCropsDetailed(images, { sets: ['d6'] })).toEqual(await one.readCropsDetailed(images, { sets: ['d6'] }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await two.readCropsDetailed(images, { sets: ['d6'] })).toEqual(await one.readCropsDetailed(images, { sets: ['d6'] }));
    expect(await two.readDetailed(frames[0]!, { sets: ['d6'], view: 'any' })).toEqual(await one.readDetailed(frames[0]!, { sets: ['d6'], view: 'any' }));
  });
});
