/**
 * Test-time views: the quarter turns made in JavaScript are the turns tfjs's transpose and
 * reverse make, and predictViews averages the net's outputs over the turned crops.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { initBackend } from '../../vision/model/backend.js';
import { predictViews, turnCropInto } from '../../vision/model/views.js';

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
