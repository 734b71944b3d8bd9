/**
 * The lean FusedBatchNorm gradient gives the same numbers as batch normalisation written out
 * with plain ops (whose gradients are tfjs's own), with the statistics taken from the batch as
 * tfjs-layers does in training, on wasm and cpu. (tfjs itself cannot differentiate a batch norm
 * without a scale: it saves the missing input for the backward pass; tfjs-layers always has one.)
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { initBackend } from '../../vision/model/backend.js';
import { registerLeanBatchNormGradient } from '../../vision/model/batchnorm-gradient.js';

function randn(seed: string, n: number): Float32Array {
  const rng = createRng(seed);
  return Float32Array.from({ length: n }, () => rng.normal() * 2 + 0.5);
}

async function grads(backend: string, fused: boolean, shape: number[], withScale: boolean): Promise<number[][]> {
  await tf.setBackend(backend);
  const c = shape[shape.length - 1]!;
  const size = shape.reduce((a, b) => a * b, 1);
  const axes = shape.slice(0, -1).map((_, i) => i);
  const out = tf.tidy(() => {
    const x = tf.tensor(randn(`x${shape}`, size), shape);
    const gamma = tf.tensor1d(randn(`g${shape}`, c));
    const beta = tf.tensor1d(randn(`b${shape}`, c));
    const weights = tf.sin(tf.range(0, size).reshape(shape));
    const f = (xs: tf.Tensor, b: tf.Tensor, g?: tf.Tensor) => {
      const { mean, variance } = tf.moments(xs, axes);
      const y = fused
        ? tf.batchNorm(xs, mean, variance, b, g, 1e-3)
        : tf.add(tf.mul(tf.mul(tf.sub(xs, mean), tf.rsqrt(tf.add(variance, 1e-3))), g ?? 1), b);
      return tf.sum(tf.mul(y, weights));
    };
    return withScale ? tf.grads(f)([x, beta, gamma]) : tf.grads((xs: tf.Tensor, b: tf.Tensor) => f(xs, b))([x, beta]);
  });
  const values = await Promise.all(out.map(async (t) => Array.from(await t.data())));
  tf.dispose(out);
  return values;
}

describe('lean batch-norm gradient', () => {
  beforeAll(async () => {
    await initBackend('wasm');
    registerLeanBatchNormGradient();
  });

  it.each([
    ['wasm', [4, 5, 5, 3], true],
    ['wasm', [8, 4, 4, 16], true],
    ['cpu', [2, 3, 3, 4], true],
    ['wasm', [6, 7], true],
  ] as const)('on %s, input %j, with scale %s: same as plain ops', async (backend, shape, withScale) => {
    const fused = await grads(backend, true, [...shape], withScale);
    const plain = await grads(backend, false, [...shape], withScale);
    fused.forEach((g, k) => {
      const scale = Math.max(1, ...plain[k]!.map(Math.abs));
      const worst = Math.max(...g.map((v, i) => Math.abs(v - plain[k]![i]!)));
      expect(worst / scale, `input ${k}`).toBeLessThan(1e-4);
    });
  });
});
