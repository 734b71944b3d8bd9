/**
 * A picture read as one die (`readCrops`, `npm run dice -- --crop`) that shows several whole dice
 * is read, but not as sure: marked for a person to check, its confidence at most one in n, and it
 * says how many dice it shows. Pictures of one die, a neighbour cut at their edge or not, are read
 * as before. The count reuses what the framing's locator found (several-dice.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { squareAround } from '../../vision/image/crop.js';
import { decodeImage } from '../../vision/image/decode.js';
import { cropRect } from '../../vision/image/image.js';
import { resize } from '../../vision/image/resize.js';
import { readAsOneOfSeveral, wholeDiceIn, WHOLE_DIE_SIDE, type FoundInPicture } from '../../vision/image/several-dice.js';
import { loadDiceReader, type ClewDiceReader } from '../../vision/reader.js';
import { renderCropDetail, renderScene } from '../../vision/synth/index.js';
import type { Box, RgbImage } from '../../vision/types.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/dice-real');

/** A picture's locator finds: boxes in a picture of this size. */
const found = (width: number, height: number, ...dice: { box: Box; fromPips?: boolean }[]): FoundInPicture => ({ width, height, dice: dice.map((d) => ({ score: 0.8, marked: true, ...d })) });

describe('counting the whole dice a picture of one die shows', () => {
  it('counts dice of a fifth of the picture\'s longer side or more, found from their outline, clear of its edges', () => {
    // Two dice side by side in a 120 × 80 picture, 40 px each (a third of its longer side).
    expect(wholeDiceIn(found(120, 80, { box: [10, 20, 50, 60] }, { box: [65, 18, 105, 58] }))).toBe(2);
    // A close die's pips, 14 px in a 103 × 65 picture (as the locator finds in a Catan crop): not dice.
    expect(wholeDiceIn(found(103, 65, { box: [30, 17, 44, 29] }, { box: [66, 28, 80, 41] }, { box: [49, 4, 63, 17] }))).toBe(0);
    // A neighbour the picture cuts is not whole; a die inferred from its pips was never seen.
    expect(wholeDiceIn(found(120, 80, { box: [10, 20, 50, 60] }, { box: [80, 20, 120, 60] }))).toBe(1);
    expect(wholeDiceIn(found(120, 80, { box: [10, 20, 50, 60] }, { box: [65, 18, 105, 58], fromPips: true }))).toBe(1);
    // Exactly a fifth counts; just under does not.
    const fifth = WHOLE_DIE_SIDE * 100;
    expect(wholeDiceIn(found(100, 100, { box: [5, 5, 5 + fifth, 5 + fifth] }, { box: [50, 50, 50 + fifth, 50 + fifth] }))).toBe(2);
    expect(wholeDiceIn(found(100, 100, { box: [5, 5, 5 + fifth, 5 + fifth] }, { box: [50, 50, 49.5 + fifth, 49.5 + fifth] }))).toBe(1);
  });

  it('where nothing of a fifth was found, small dice a second look found count: outline-found, marked, die-shaped, under a tenth, clear of the edges', () => {
    // A 960 × 540 tray photo: its two dice 40 px (4 % of its side), found only by the look for small dice.
    const tray = (...small: { box: Box; score?: number; marked?: boolean; fromPips?: boolean }[]): FoundInPicture => ({ ...found(960, 540), small: small.map((d) => ({ score: 0.7, marked: true, ...d })) });
    expect(wholeDiceIn(tray({ box: [300, 200, 340, 240] }, { box: [520, 260, 561, 300] }))).toBe(2);
    expect(wholeDiceIn(tray({ box: [300, 200, 340, 240] }, { box: [520, 260, 561, 300] }, { box: [700, 100, 738, 139] }))).toBe(3);
    // Not dice: a piece with no marks seen inside (a lone pip), a faint region, a long one (a stick,
    // a shadow), one inferred from pips, one the picture cuts.
    const one: { box: Box } = { box: [300, 200, 340, 240] };
    expect(wholeDiceIn(tray(one, { box: [520, 260, 561, 300], marked: false }))).toBe(0);
    expect(wholeDiceIn(tray(one, { box: [520, 260, 561, 300], score: 0.3 }))).toBe(0);
    expect(wholeDiceIn(tray(one, { box: [520, 260, 600, 300] }))).toBe(0);
    expect(wholeDiceIn(tray(one, { box: [520, 260, 561, 300], fromPips: true }))).toBe(0);
    expect(wholeDiceIn(tray(one, { box: [0, 260, 40, 300] }))).toBe(0);
    // A tenth of the picture or more is a close die's pips' size (11–15 %), however large the picture.
    expect(wholeDiceIn({ ...found(400, 300), small: [{ box: [100, 100, 145, 145], score: 0.8, marked: true }, { box: [200, 100, 245, 145], score: 0.8, marked: true }] })).toBe(0);
  });

  it('a reading of a picture of n ≥ 2 dice is marked, its confidence at most 1/n; fewer leave it as it was', () => {
    const sure = { face: '4', confidence: 0.97, uncertain: false };
    expect(readAsOneOfSeveral(sure, 3)).toEqual({ face: '4', confidence: 1 / 3, uncertain: true, diceInPicture: 3 });
    expect(readAsOneOfSeveral({ ...sure, confidence: 0.3 }, 2)).toEqual({ face: '4', confidence: 0.3, uncertain: true, diceInPicture: 2 });
    expect(readAsOneOfSeveral(sure, 1)).toBe(sure);
    expect(readAsOneOfSeveral(sure, 0)).toBe(sure);
  });
});

describe('the reader, a picture read as one die', () => {
  let reader: ClewDiceReader;
  let whole: ClewDiceReader;
  let frame: RgbImage;
  beforeAll(async () => {
    reader = await loadDiceReader({});
    whole = await loadDiceReader({ cropFraming: 'whole' });
    frame = await decodeImage(readFileSync(path.join(fixtures, 'frame.jpg')));
  });
  afterAll(() => {
    reader.dispose();
    whole.dispose();
  });

  /** The real frame cut round its two labelled dice × `factor` (the dice a third to a quarter of the picture). */
  const frameCut = (factor: number): RgbImage => {
    const [a, b] = readFileSync(path.join(fixtures, 'frame.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').slice(1).map(Number) as Box);
    const u: Box = [Math.min(a![0], b![0]), Math.min(a![1], b![1]), Math.max(a![2], b![2]), Math.max(a![3], b![3])];
    const [x0, y0, x1, y1] = squareAround(u, factor).map(Math.round) as Box;
    return cropRect(frame, x0, y0, x1, y1);
  };

  it('a real picture of two dice is read, marked, at most 0.5 sure, and says it shows 2 dice', async () => {
    for (const factor of [1.5, 2]) {
      const [r] = await reader.readCrops([frameCut(factor)], { sets: ['d6'], view: 'any' });
      expect(r!.diceInPicture).toBe(2);
      expect(r!.uncertain).toBe(true);
      expect(r!.confidence).toBeLessThanOrEqual(0.5);
    }
  });

  it('rendered pictures cut round three dice say they show 3', async () => {
    for (let k = 0; k < 4; k++) {
      const scene = renderScene(createRng(`several-dice-${k}`), { sets: ['d6'], dice: 3, width: 320, height: 240, dieSize: [50, 80], difficulty: 0.3 });
      const boxes = scene.dice.map((d) => d.box);
      const u: Box = [Math.min(...boxes.map((x) => x[0])), Math.min(...boxes.map((x) => x[1])), Math.max(...boxes.map((x) => x[2])), Math.max(...boxes.map((x) => x[3]))];
      const [x0, y0, x1, y1] = squareAround(u, 1.2).map(Math.round) as Box;
      const [r] = await reader.readCrops([cropRect(scene.image, x0, y0, x1, y1)], { sets: ['d6'], view: 'any' });
      expect(r!.diceInPicture, `scene ${k}`).toBe(3);
      expect(r!.confidence).toBeLessThanOrEqual(1 / 3);
      expect(r!.uncertain).toBe(true);
    }
  });

  it('pictures of one die are not: the real crops, and rendered ones whose touching neighbour the picture cuts', async () => {
    const labels = readFileSync(path.join(fixtures, 'labels.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')[0]!);
    const real = await Promise.all([...labels, 'edge/WIN_20221211_13_10_50_Pro-die-1.jpg'].map(async (f) => decodeImage(readFileSync(path.join(fixtures, f)))));
    for (const r of await reader.readCrops(real, { sets: ['d6'], view: 'any' })) expect(r.diceInPicture).toBeUndefined();
    for (let k = 0; k < 4; k++) {
      const d = renderCropDetail(createRng(`one-die-${k}`), 'pips-3', { difficulty: 0.4, knobs: { roll: 30, framing: [5, 5], neighbours: 3, touchChance: 1 } });
      const [x0, y0, x1, y1] = squareAround(d.box, 2).map(Math.round) as Box;
      const [r] = await reader.readCrops([cropRect(d.window, x0, y0, x1, y1)], { sets: ['d6'], view: 'side' });
      expect(r!.diceInPicture, `picture ${k}`).toBeUndefined();
      expect(r!.face, `picture ${k}`).toBe('3');
    }
  });

  it('a whole real tray photo read as one die (its dice 4 % of its side) says it shows 2 dice; a close crop of one die enlarged to a photo\'s size does not', async () => {
    const frames = await Promise.all(['frame.jpg', 'frame-2.jpg'].map(async (f) => decodeImage(readFileSync(path.join(fixtures, f)))));
    for (const r of await reader.readCrops(frames, { sets: ['d6'], view: 'any' })) {
      expect(r.diceInPicture).toBe(2);
      expect(r.uncertain).toBe(true);
      expect(r.confidence).toBeLessThanOrEqual(0.5);
    }
    // Its pips are a tenth of the picture or more, which a look for small dice does not count.
    const rows = readFileSync(path.join(fixtures, 'labels.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const crops = await Promise.all(rows.map(async ([f]) => decodeImage(readFileSync(path.join(fixtures, f!)))));
    const enlarged = crops.map((c) => resize(c, c.width * 4, c.height * 4));
    const readings = await reader.readCrops(enlarged, { sets: ['d6'], view: 'any' });
    readings.forEach((r, i) => {
      expect(r.diceInPicture, rows[i]![0]).toBeUndefined();
      expect(r.face, rows[i]![0]).toBe(rows[i]![1]);
    });
  });

  it('framed whole (the picture is the die, as the caller says) nothing is counted', async () => {
    const [r] = await whole.readCrops([frameCut(1.5)], { sets: ['d6'], view: 'any' });
    expect(r!.diceInPicture).toBeUndefined();
  });
});
