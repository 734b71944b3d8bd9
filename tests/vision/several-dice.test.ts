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
import { readAsOneOfSeveral, showsMarks, wholeDiceIn, WHOLE_DIE_SIDE, type FoundInPicture } from '../../vision/image/several-dice.js';
import { createImage } from '../../vision/image/image.js';
import { frameDieImage } from '../../vision/model/framing.js';
import type { DiceSetId } from '../../shared/dice.js';
import type { TableKind } from '../../vision/synth/index.js';
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

  it('where nothing of a fifth was found, dice of a tenth to a fifth that show marks count where they are a tray\'s: two or more of one size, spread wider than a face\'s pips', () => {
    // A 480 × 360 picture of three dice of 60 px (an eighth of its side), spread over it.
    const picture = (...middling: Box[]): FoundInPicture => ({ ...found(480, 360), middling: middling.map((box) => ({ box, score: 0.8, marked: true })) });
    expect(wholeDiceIn(picture([40, 40, 100, 100], [200, 150, 260, 210], [380, 250, 440, 310]))).toBe(3);
    expect(wholeDiceIn(picture([40, 40, 100, 100], [300, 200, 360, 260]))).toBe(2);
    // Two side by side span no more than a 2's pips do: not counted (the face of one die, enlarged, looks so).
    expect(wholeDiceIn(picture([40, 40, 100, 100], [105, 40, 165, 100]))).toBe(0);
    // A face's pips of that size (a close die enlarged): a 5 within four pip sizes is one die's face.
    expect(wholeDiceIn(picture([160, 120, 210, 170], [270, 120, 320, 170], [215, 165, 265, 215], [160, 210, 210, 260], [270, 210, 320, 260]))).toBe(0);
    // One alone is the picture's die, not several.
    expect(wholeDiceIn(picture([40, 40, 100, 100]))).toBe(0);
  });

  it('a die the edge cuts is not whole in a large picture either: its box, measured at 640 px, may end a few pixels short of the edge', () => {
    // 1,280 × 960: a whole die, and one the right edge cuts whose box ends 2 px short of it.
    expect(wholeDiceIn(found(1280, 960, { box: [300, 300, 600, 600] }, { box: [1000, 300, 1278, 600] }))).toBe(1);
    // The same pair 10 px clear of the edge are two dice.
    expect(wholeDiceIn(found(1280, 960, { box: [300, 300, 600, 600] }, { box: [970, 300, 1270, 600] }))).toBe(2);
  });

  it('boxes overlapping by more than 8 % of the smaller are one die (a busy face\'s pieces), touching dice two', () => {
    // Two pieces of one face in a 400 px close-up, overlapping by a fifth of the smaller.
    expect(wholeDiceIn(found(400, 400, { box: [100, 100, 220, 220] }, { box: [196, 100, 316, 220] }))).toBe(1);
    // Two dice whose boxes just touch.
    expect(wholeDiceIn(found(400, 400, { box: [100, 100, 200, 200] }, { box: [200, 100, 300, 200] }))).toBe(2);
  });

  it('small dice are a tray\'s: not pieces of a larger find, one each where boxes overlap, of one size, and not a printed cloth\'s blots', () => {
    const tray = (dice: { box: Box; fromPips?: boolean }[], ...small: Box[]): FoundInPicture => ({ ...found(960, 540, ...dice), small: small.map((box) => ({ box, score: 0.7, marked: true })) });
    const two: Box[] = [[300, 200, 340, 240], [520, 260, 561, 300]];
    expect(wholeDiceIn(tray([], ...two))).toBe(2);
    // Pieces of a larger find (a marbled die's patches inside the die) are not dice.
    expect(wholeDiceIn(tray([], [300, 200, 340, 240], [380, 260, 421, 300], [290, 190, 430, 310]))).toBe(0);
    // Two close dice whose pips the first look grouped as one die count.
    expect(wholeDiceIn(tray([{ box: [290, 190, 431, 310], fromPips: true }], [300, 200, 340, 240], [380, 260, 421, 300]))).toBe(2);
    // Two finds of one die (overlapping) are one.
    expect(wholeDiceIn(tray([], [300, 200, 340, 240], [310, 205, 350, 245]))).toBe(0);
    // A die and a find twice its size are not two dice of a tray.
    expect(wholeDiceIn(tray([], [300, 200, 340, 240], [520, 260, 600, 340]))).toBe(0);
    // Three dice of one size and a larger find: the three.
    expect(wholeDiceIn(tray([], ...two, [700, 100, 738, 139], [100, 300, 180, 380]))).toBe(3);
    // A printed cloth: blots found at every size.
    expect(wholeDiceIn(tray([], ...two, [700, 100, 738, 139], [100, 300, 180, 380], [600, 400, 624, 424], [800, 380, 890, 470]))).toBe(0);
  });

  it('a glare spot is even inside; a small die shows its marks', () => {
    const picture = createImage(200, 100, [150, 90, 40]);
    const paint = (x0: number, y0: number, x1: number, y1: number, rgb: [number, number, number]) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) picture.data.set(rgb, 3 * (y * picture.width + x));
    };
    paint(20, 20, 60, 60, [240, 236, 230]); // a bright blob, no marks
    paint(120, 20, 160, 60, [240, 236, 230]); // a die's face with three pips
    for (const k of [0, 1, 2]) paint(126 + 11 * k, 26 + 11 * k, 132 + 11 * k, 32 + 11 * k, [20, 20, 20]);
    expect(showsMarks(picture, [20, 20, 60, 60])).toBe(false);
    expect(showsMarks(picture, [120, 20, 160, 60])).toBe(true);
  });

  it('a reading of a picture of n ≥ 2 dice is marked, its confidence at most 1/n; fewer leave it as it was', () => {
    const sure = { face: '4', confidence: 0.97, uncertain: false };
    expect(readAsOneOfSeveral(sure, 3)).toEqual({ face: '4', confidence: 1 / 3, uncertain: true, diceInPicture: 3 });
    expect(readAsOneOfSeveral({ ...sure, confidence: 0.3 }, 2)).toEqual({ face: '4', confidence: 0.3, uncertain: true, diceInPicture: 2 });
    expect(readAsOneOfSeveral(sure, 1)).toBe(sure);
    expect(readAsOneOfSeveral(sure, 0)).toBe(sure);
  });
});

describe('rendered photos of one die at a phone\'s size are not counted as several', () => {
  // A marbled die (its patches), a d6 beside a round glare spot, a d6 on a printed cloth: each was
  // said to show 2–20 dice by the look for small dice.
  const photos: [string, TableKind, DiceSetId, [number, number]][] = [
    ['odr-felt-cozy-shape-1', 'felt', 'cozy-shape', [40, 240]],
    ['odr-wood-d6-2', 'wood', 'd6', [40, 240]],
    ['rs-one-pattern-d6-0', 'pattern', 'd6', [40, 120]],
  ];
  for (const [seed, table, set, dieSize] of photos) {
    it(`${seed}: a ${set} die on ${table}`, () => {
      const scene = renderScene(createRng(seed), { sets: [set], dice: 1, width: 1280, height: 960, dieSize, difficulty: 0.4, table });
      expect(wholeDiceIn(frameDieImage(scene.image, 'locate').found!)).toBeLessThan(2);
    });
  }

  it('close-ups of one busy face (numerals, organ and shape icons), as cut and enlarged × 3', () => {
    for (const [set, k] of [['wurmeln', 0], ['wurmeln', 15], ['cozy-shape', 13], ['cozy-organ', 0], ['cozy-organ', 9]] as [DiceSetId, number][]) {
      const scene = renderScene(createRng(`cu-${set}-${k}`), { sets: [set], dice: 1, width: 720, height: 720, dieSize: [200, 240], difficulty: 0.4 });
      const [x0, y0, x1, y1] = squareAround(scene.dice[0]!.box, 1.15).map(Math.round) as Box;
      const close = cropRect(scene.image, Math.max(0, x0), Math.max(0, y0), Math.min(720, x1), Math.min(720, y1));
      for (const picture of [close, resize(close, close.width * 3, close.height * 3)]) {
        expect(wholeDiceIn(frameDieImage(picture, 'locate').found!), `${set} ${k} at ${picture.width} px`).toBeLessThan(2);
      }
    }
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

  it('rendered pictures cut round three dice say they show several (3, or 2 where two touching dice\'s boxes overlap by more than 8 %, as a busy face\'s pieces do)', async () => {
    for (let k = 0; k < 4; k++) {
      const scene = renderScene(createRng(`several-dice-${k}`), { sets: ['d6'], dice: 3, width: 320, height: 240, dieSize: [50, 80], difficulty: 0.3 });
      const boxes = scene.dice.map((d) => d.box);
      const u: Box = [Math.min(...boxes.map((x) => x[0])), Math.min(...boxes.map((x) => x[1])), Math.max(...boxes.map((x) => x[2])), Math.max(...boxes.map((x) => x[3]))];
      const [x0, y0, x1, y1] = squareAround(u, 1.2).map(Math.round) as Box;
      const [r] = await reader.readCrops([cropRect(scene.image, x0, y0, x1, y1)], { sets: ['d6'], view: 'any' });
      // In scenes 1 and 3 two of the dice touch, their boxes overlapping by more than 8 % (13 % in scene 1).
      expect(r!.diceInPicture, `scene ${k}`).toBe(k === 1 || k === 3 ? 2 : 3);
      expect(r!.confidence).toBeLessThanOrEqual(1 / r!.diceInPicture!);
      expect(r!.uncertain).toBe(true);
    }
  });

  it('rendered trays of five dice of a tenth to a fifth of the picture, read surely as one die before, say they show 5', async () => {
    // The seeded pictures of a measuring run (docs/notes/vision-model.md, "Since the forty-first session").
    for (const k of [52, 87]) {
      const rng = createRng(`sev-eval-${k}`);
      const W = [320, 480, 640][k % 3]!;
      const scene = renderScene(rng, { sets: ['d6'], dice: 2 + (k % 7), width: W, height: Math.round(W * 0.75), dieSize: [30, 140], difficulty: 0.2 + 0.6 * rng.next() });
      const [r] = await reader.readCrops([scene.image], { sets: ['d6'], view: 'any' });
      expect(r!.diceInPicture, `tray ${k}`).toBe(5);
      expect(r!.confidence).toBeLessThanOrEqual(0.2);
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
