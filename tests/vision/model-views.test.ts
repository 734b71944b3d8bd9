/**
 * Test-time views: the quarter turns made in JavaScript are the turns tfjs's transpose and
 * reverse make, and predictViews averages the net's outputs over the turned crops; a second look
 * reads only the doubtful crops in one more turn, closer, and averages all their views.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { initBackend } from '../../vision/model/backend.js';
import { SECOND_LOOK_SHIFT, SECOND_LOOK_ZOOM, scoreWithSecondLook, secondLookCrops, type CropScores } from '../../vision/model/classifier.js';
import { squareCrop } from '../../vision/image/crop.js';
import { createImage } from '../../vision/image/image.js';
import { resampleRect } from '../../vision/image/resize.js';
import { closerCrop, flipCrop, otherTurns, shiftCrop, predictTurns, predictViews, secondLookTurns, turnCropInto, turnsOf } from '../../vision/model/views.js';
import type { RgbImage } from '../../vision/types.js';

const SIZE = 8;
const rng = createRng('views');
const crop = Float32Array.from({ length: SIZE * SIZE * 3 }, () => rng.normal());

/** The turns as tfjs ops (what the classifier did before): k = 1, 2, 3 quarter turns. */
function tfTurn(x: tf.Tensor4D, k: number): tf.Tensor4D {
  if (k === 0) return x;
  if (k === 1) return tf.reverse(tf.transpose(x, [0, 2, 1, 3]), 1);
  if (k === 2) return tf.reverse(x, [1, 2]);
  return tf.reverse(tf.transpose(x, [0, 2, 1, 3]), 2);
}

beforeAll(async () => {
  await initBackend('cpu');
});

describe('turnCropInto', () => {
  it('turns a crop exactly as transpose and reverse do, for every quarter turn', () => {
    for (const k of [0, 1, 2, 3]) {
      const out = new Float32Array(crop.length + 5);
      turnCropInto(crop, 0, out, 5, SIZE, k);
      const want = tf.tidy(() => tfTurn(tf.tensor4d(crop, [1, SIZE, SIZE, 3]), k).dataSync());
      expect([...out.subarray(5)]).toEqual([...want]);
    }
  });

  it('four quarter turns give the crop back', () => {
    let a = Float32Array.from(crop);
    for (let k = 0; k < 4; k++) {
      const b = new Float32Array(a.length);
      turnCropInto(a, 0, b, 0, SIZE, 1);
      a = b;
    }
    expect([...a]).toEqual([...crop]);
  });
});

describe('predictViews', () => {
  it('averages the outputs over the turned crops, batch by batch', () => {
    // A net whose outputs are plain functions of its input: the mean of each channel and the
    // first pixel's values, so the average over turns can be worked out by hand.
    const input = tf.input({ shape: [SIZE, SIZE, 3] });
    const pooled = tf.layers.globalAveragePooling2d({}).apply(input) as tf.SymbolicTensor;
    const first = tf.layers.flatten({}).apply(tf.layers.cropping2D({ cropping: [[0, SIZE - 1], [0, SIZE - 1]] }).apply(input) as tf.SymbolicTensor) as tf.SymbolicTensor;
    const net = tf.model({ inputs: input, outputs: [first, pooled] });
    const n = 3;
    const pixels = Float32Array.from({ length: n * crop.length }, () => rng.normal());
    const got = predictViews(net, pixels, n, SIZE, 2, 2);
    expect(got.dim).toBe(3);
    for (let i = 0; i < n; i++) {
      const at = (r: number, c: number, ch: number) => pixels[i * crop.length + (r * SIZE + c) * 3 + ch]!;
      for (let ch = 0; ch < 3; ch++) {
        // Logits: the top-left pixel, averaged with the half turn's top-left (the bottom-right).
        expect(got.logits[i * 3 + ch]).toBeCloseTo((at(0, 0, ch) + at(SIZE - 1, SIZE - 1, ch)) / 2, 5);
        // Embedding: a channel mean, which no turn changes.
        let mean = 0;
        for (let r = 0; r < SIZE; r++) for (let c = 0; c < SIZE; c++) mean += at(r, c, ch) / (SIZE * SIZE);
        expect(got.embeddings[i * 3 + ch]).toBeCloseTo(mean, 5);
      }
    }
    net.dispose();
  });

  it('refuses pixels that are not n crops', () => {
    const input = tf.input({ shape: [SIZE, SIZE, 3] });
    const net = tf.model({ inputs: input, outputs: [input, input] });
    expect(() => predictViews(net, new Float32Array(10), 1, SIZE, 1)).toThrow(/10 values for 1 crops/);
  });
});

/** The test net above: logits = the top-left pixel, embedding = the channel means. */
function cornerNet(): tf.LayersModel {
  const input = tf.input({ shape: [SIZE, SIZE, 3] });
  const pooled = tf.layers.globalAveragePooling2d({}).apply(input) as tf.SymbolicTensor;
  const first = tf.layers.flatten({}).apply(tf.layers.cropping2D({ cropping: [[0, SIZE - 1], [0, SIZE - 1]] }).apply(input) as tf.SymbolicTensor) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: [first, pooled] });
}

describe('quarter turns', () => {
  it('spaces the views evenly and names what is left', () => {
    expect(turnsOf(1)).toEqual([0]);
    expect(turnsOf(2)).toEqual([0, 2]);
    expect(turnsOf(4)).toEqual([0, 1, 2, 3]);
    expect(otherTurns([0, 2])).toEqual([1, 3]);
  });

  it('a second look adds the half turn to one view, a quarter turn to two, nothing to four', () => {
    expect(secondLookTurns([0])).toEqual([2]);
    expect(secondLookTurns([0, 2])).toEqual([1]);
    expect(secondLookTurns([0, 1, 2, 3])).toEqual([]);
  });

  it('predictTurns with [0, 2] is predictViews with 2 views; [1] reads the quarter turn\'s corner', () => {
    const net = cornerNet();
    const n = 2;
    const pixels = Float32Array.from({ length: n * crop.length }, () => rng.normal());
    const two = predictViews(net, pixels, n, SIZE, 2);
    expect([...predictTurns(net, pixels, n, SIZE, [0, 2]).logits]).toEqual([...two.logits]);
    const quarter = predictTurns(net, pixels, n, SIZE, [1]);
    // One quarter turn: row 0 of the result is column SIZE−1 of the crop, so its corner is (0, SIZE−1).
    for (let i = 0; i < n; i++) for (let ch = 0; ch < 3; ch++) {
      expect(quarter.logits[i * 3 + ch]).toBeCloseTo(pixels[i * crop.length + (SIZE - 1) * 3 + ch]!, 6);
    }
    expect(() => predictTurns(net, pixels, n, SIZE, [4])).toThrow(/quarter turns 0–3/);
    expect(() => predictTurns(net, pixels, n, SIZE, [])).toThrow(/quarter turns 0–3/);
    net.dispose();
  });
});

describe('closerCrop', () => {
  /** A grey frame with a dark 20×20 die at (40, 30), as a locator would box it. */
  const frame = createImage(120, 100, [200, 200, 200]);
  for (let y = 30; y < 50; y++) for (let x = 40; x < 60; x++) frame.data.fill(40, (y * 120 + x) * 3, (y * 120 + x) * 3 + 3);
  const box = [40, 30, 60, 50] as const;

  it('is what squareCrop gives with its margin taken off: the die fills the crop', () => {
    const closer = closerCrop(squareCrop(frame, [...box]), SECOND_LOOK_ZOOM);
    const direct = squareCrop(frame, [...box], { scale: 1.15 / SECOND_LOOK_ZOOM });
    let diff = 0;
    for (let i = 0; i < direct.data.length; i++) diff += Math.abs(closer.data[i]! - direct.data[i]!);
    // Resampling twice blurs the die's outline a little; the pictures are otherwise the same.
    expect(diff / direct.data.length).toBeLessThan(6);
    expect([closer.width, closer.height]).toEqual([64, 64]);
    // The die's outline sits at the crop's edge at scale 1.0: its centre row is dark from end to end.
    const row = 32 * 64 * 3;
    expect(closer.data[row + 1 * 3]).toBeLessThan(100);
    expect(closer.data[row + 62 * 3]).toBeLessThan(100);
    // ...while the first look's framing keeps a margin of tray round it.
    expect(squareCrop(frame, [...box]).data[row + 1 * 3]).toBeGreaterThan(150);
  });

  it('samples where the general resampler samples (to a level of rounding)', () => {
    const noisy = createImage(64, 64);
    for (let i = 0; i < noisy.data.length; i++) noisy.data[i] = (i * 7919) % 256;
    for (const zoom of [1.15, 1.5, 2]) {
      const side = 64 / zoom;
      const general = resampleRect(noisy, (64 - side) / 2, (64 - side) / 2, side, side, 64, 64);
      const closer = closerCrop(noisy, zoom);
      let worst = 0;
      for (let i = 0; i < general.data.length; i++) worst = Math.max(worst, Math.abs(closer.data[i]! - general.data[i]!));
      expect(worst).toBeLessThanOrEqual(1);
    }
  });

  it('zoom 1 is the crop itself; a zoom under 1 is refused', () => {
    const c = squareCrop(frame, [...box]);
    expect(closerCrop(c, 1)).toBe(c);
    expect(() => closerCrop(c, 0.8)).toThrow(/zoom must be at least 1/);
    expect(() => closerCrop(c, Number.NaN)).toThrow(/zoom/);
  });
});

describe('scoreWithSecondLook', () => {
  // A classifier stand-in that reports, per crop, which turns it was read in: logits[t] = 1 for
  // each turn t read, averaged, so the mix of first and second look is visible in the numbers.
  const calls: { crops: number; turns: number[] }[] = [];
  const seen: RgbImage[][] = [];
  const classifier = {
    turns: [0, 2] as readonly number[],
    secondTurns: secondLookTurns([0, 2]),
    score(crops: readonly RgbImage[], turns: readonly number[] = [0, 2]): CropScores {
      calls.push({ crops: crops.length, turns: [...turns] });
      seen.push([...crops]);
      const row = () => Float32Array.from([0, 1, 2, 3], (t) => (turns.includes(t) ? 1 / turns.length : 0));
      return { logits: crops.map(row), embeddings: crops.map(row) };
    },
  };
  const crops: RgbImage[] = Array.from({ length: 4 }, (_, k) => {
    const image = createImage(8, 8, [10 * k, 0, 0]);
    image.data.fill(255, 0, 8 * 3); // a bright top row: framed closer, it leaves the picture
    return image;
  });

  it('reads only the unsure crops again, in one more turn and closer, and weighs every view the same', () => {
    calls.length = 0;
    seen.length = 0;
    const got = scoreWithSecondLook(classifier, crops, (_l, _e, i) => i === 1 || i === 3);
    expect(calls).toEqual([{ crops: 4, turns: [0, 2] }, { crops: 2, turns: [1] }]);
    expect(seen[0]).toEqual(crops);
    expect(seen[1]).toEqual([closerCrop(crops[1]!, SECOND_LOOK_ZOOM), closerCrop(crops[3]!, SECOND_LOOK_ZOOM)]);
    expect(seen[1]![0]!.data[0]).toBeLessThan(255);
    expect(got.lookedAgain).toEqual([1, 3]);
    for (const i of [0, 2]) expect([...got.logits[i]!]).toEqual([0.5, 0, 0.5, 0]);
    for (const i of [1, 3]) {
      for (const [t, v] of [1 / 3, 1 / 3, 1 / 3, 0].entries()) expect(got.logits[i]![t]).toBeCloseTo(v, 6);
      expect([...got.embeddings[i]!]).toEqual([...got.logits[i]!]);
    }
  });

  it('costs nothing more when every crop is clear', () => {
    calls.length = 0;
    const got = scoreWithSecondLook(classifier, crops, () => false);
    expect(calls).toHaveLength(1);
    expect(got.lookedAgain).toEqual([]);
  });

  it('mirrored, reads an unsure crop closer, mirrored and mirrored closer, every view weighing the same', () => {
    calls.length = 0;
    seen.length = 0;
    const got = scoreWithSecondLook(classifier, crops, (_l, _e, i) => i === 2, SECOND_LOOK_ZOOM, 'mirror');
    expect(calls).toEqual([{ crops: 4, turns: [0, 2] }, { crops: 3, turns: [1] }]);
    const closer = closerCrop(crops[2]!, SECOND_LOOK_ZOOM);
    expect(seen[1]).toEqual([closer, flipCrop(crops[2]!, 'x'), flipCrop(closer, 'x')]);
    // Two views first, three crops in one turn after: each of the five weighs a fifth.
    for (const [t, v] of [0.2, 0.6, 0.2, 0].entries()) expect(got.logits[2]![t]).toBeCloseTo(v, 6);
    for (const i of [0, 1, 3]) expect([...got.logits[i]!]).toEqual([0.5, 0, 0.5, 0]);
  });

  it('moved, reads an unsure crop closer and closer moved sideways both ways; the extra views can differ per crop', () => {
    calls.length = 0;
    seen.length = 0;
    const got = scoreWithSecondLook(classifier, crops, (_l, _e, i) => i === 1 || i === 3, SECOND_LOOK_ZOOM, (i) => (i === 1 ? 'shift' : 'none'));
    expect(calls).toEqual([{ crops: 4, turns: [0, 2] }, { crops: 4, turns: [1] }]);
    const closer = closerCrop(crops[1]!, SECOND_LOOK_ZOOM);
    expect(seen[1]).toEqual([closer, shiftCrop(closer, 'x', SECOND_LOOK_SHIFT), shiftCrop(closer, 'x', -SECOND_LOOK_SHIFT), closerCrop(crops[3]!, SECOND_LOOK_ZOOM)]);
    for (const [t, v] of [0.2, 0.6, 0.2, 0].entries()) expect(got.logits[1]![t]).toBeCloseTo(v, 6);
    for (const [t, v] of [1 / 3, 1 / 3, 1 / 3, 0].entries()) expect(got.logits[3]![t]).toBeCloseTo(v, 6);
  });
});

describe('secondLookCrops', () => {
  const crop = createImage(8, 8, [50, 60, 70]);
  crop.data.set([255, 0, 0], 0); // a red top-left pixel shows which way each view went

  it('closer only; closer with the crop and the closer crop mirrored; closer and closer moved both ways', () => {
    const closer = closerCrop(crop, SECOND_LOOK_ZOOM);
    expect(secondLookCrops(crop, SECOND_LOOK_ZOOM, 'none')).toEqual([closer]);
    expect(secondLookCrops(crop, SECOND_LOOK_ZOOM, 'mirror')).toEqual([closer, flipCrop(crop, 'x'), flipCrop(closer, 'x')]);
    expect(secondLookCrops(crop, SECOND_LOOK_ZOOM, 'shift', 'y')).toEqual([closer, shiftCrop(closer, 'y', SECOND_LOOK_SHIFT), shiftCrop(closer, 'y', -SECOND_LOOK_SHIFT)]);
  });
});

describe('shiftCrop', () => {
  const image = createImage(4, 2);
  image.data.set([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8]);
  const values = (im: RgbImage) => Array.from({ length: im.width * im.height }, (_, p) => im.data[3 * p]);

  it('moves the picture, the edge repeated into what is uncovered', () => {
    expect(values(shiftCrop(image, 'x', 1))).toEqual([1, 1, 2, 3, 5, 5, 6, 7]);
    expect(values(shiftCrop(image, 'x', -2))).toEqual([3, 4, 4, 4, 7, 8, 8, 8]);
    expect(values(shiftCrop(image, 'y', 1))).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
    expect(shiftCrop(image, 'x', 0)).toEqual(image);
    expect(() => shiftCrop(image, 'x', 1.5)).toThrow(/whole number/);
  });
});

describe('flipCrop', () => {
  const image = createImage(3, 2);
  image.data.set([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6]);
  const values = (im: RgbImage) => Array.from({ length: im.width * im.height }, (_, p) => im.data[3 * p]);

  it('mirrors left for right, or top for bottom', () => {
    expect(values(flipCrop(image, 'x'))).toEqual([3, 2, 1, 6, 5, 4]);
    expect(values(flipCrop(image, 'y'))).toEqual([4, 5, 6, 1, 2, 3]);
    expect(flipCrop(flipCrop(image, 'x'), 'x')).toEqual(image);
  });

  it('moves every channel of every pixel of a picture that is not square, each to its mirror place', () => {
    const w = 5, h = 3;
    const odd: RgbImage = { width: w, height: h, data: Uint8Array.from({ length: w * h * 3 }, (_, i) => (i * 37 + 11) & 255) };
    for (const axis of ['x', 'y'] as const) {
      const flipped = flipCrop(odd, axis);
      expect(flipped.width).toBe(w);
      expect(flipped.height).toBe(h);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let c = 0; c < 3; c++) {
        const from = axis === 'x' ? (y * w + (w - 1 - x)) * 3 + c : ((h - 1 - y) * w + x) * 3 + c;
        expect(flipped.data[(y * w + x) * 3 + c]).toBe(odd.data[from]);
      }
    }
  });

  it('top for bottom, then a quarter turn, is the quarter turn mirrored left for right', () => {
    const n = SIZE * SIZE * 3;
    const asImage = (f: Float32Array): RgbImage => ({ width: SIZE, height: SIZE, data: Uint8Array.from(f, (v) => Math.round(128 + 20 * v)) });
    const bytes = asImage(crop);
    const floats = (im: RgbImage) => Float32Array.from(im.data);
    for (const k of [1, 3]) {
      const a = new Float32Array(n), b = new Float32Array(n);
      turnCropInto(floats(flipCrop(bytes, 'y')), 0, a, 0, SIZE, k);
      turnCropInto(floats(bytes), 0, b, 0, SIZE, k);
      const turned: RgbImage = { width: SIZE, height: SIZE, data: Uint8Array.from(b) };
      expect(Uint8Array.from(a)).toEqual(flipCrop(turned, 'x').data);
    }
  });
});
