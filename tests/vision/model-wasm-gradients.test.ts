/**
 * The gradient kernels clew adds to the wasm backend give the cpu backend's numbers: each kernel
 * on its own, the full gradient of conv/depthwise/fused ops through tf.grads, over several
 * shapes, strides and paddings, on seeded random inputs; the matrix product in the
 * transposed forms the dense layers' gradients use; Identity and Cast sharing their data; and the
 * lean Mean gradient against tfjs's own formula, bit for bit.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { initBackend } from '../../vision/model/backend.js';
import { leanMeanGradient } from '../../vision/model/mean-gradient.js';
import { phaseFilter } from '../../vision/model/wasm-gradients.js';

type Pad = 'same' | 'valid' | number;

function randn(seed: string, n: number): Float32Array {
  const rng = createRng(seed);
  return Float32Array.from({ length: n }, () => rng.normal());
}

/** Runs `fn` on a backend and returns the flat values of every output. */
async function on(backend: 'cpu' | 'wasm', fn: () => tf.Tensor | tf.Tensor[]): Promise<number[][]> {
  await tf.setBackend(backend);
  const out = tf.tidy(fn);
  const list = Array.isArray(out) ? out : [out];
  const values = await Promise.all(list.map(async (t) => Array.from(await t.data())));
  tf.dispose(list);
  return values;
}

function expectClose(actual: number[][], expected: number[][], what: string): void {
  expect(actual.length, what).toBe(expected.length);
  actual.forEach((a, k) => {
    const e = expected[k]!;
    expect(a.length, `${what}: output ${k} size`).toBe(e.length);
    const scale = e.reduce((m, v) => Math.max(m, Math.abs(v)), 1);
    const worst = a.reduce((m, v, i) => Math.max(m, Math.abs(v - e[i]!)), 0);
    expect(worst / scale, `${what}: output ${k} worst relative error`).toBeLessThan(1e-4);
  });
}

interface ConvCase {
  n: number; h: number; w: number; ci: number; co: number; k: [number, number]; stride: [number, number]; pad: Pad;
}

const CONV_CASES: ConvCase[] = [
  { n: 2, h: 7, w: 7, ci: 3, co: 4, k: [3, 3], stride: [1, 1], pad: 'same' },
  { n: 2, h: 8, w: 8, ci: 3, co: 5, k: [3, 3], stride: [2, 2], pad: 'same' },
  { n: 1, h: 9, w: 6, ci: 2, co: 3, k: [3, 2], stride: [2, 1], pad: 'valid' },
  { n: 3, h: 5, w: 5, ci: 4, co: 2, k: [5, 5], stride: [1, 1], pad: 'same' },
  { n: 2, h: 10, w: 11, ci: 3, co: 6, k: [3, 3], stride: [3, 2], pad: 'valid' },
  { n: 1, h: 6, w: 6, ci: 2, co: 2, k: [3, 3], stride: [2, 2], pad: 1 },
  { n: 2, h: 4, w: 4, ci: 8, co: 8, k: [1, 1], stride: [1, 1], pad: 'valid' },
  { n: 1, h: 5, w: 6, ci: 2, co: 3, k: [3, 3], stride: [2, 2], pad: 3 },
  { n: 4, h: 16, w: 16, ci: 16, co: 24, k: [3, 3], stride: [2, 2], pad: 'same' },
];

const label = (c: ConvCase) => `${c.n}x${c.h}x${c.w}x${c.ci} k${c.k.join('x')} s${c.stride.join('x')} pad ${c.pad}`;

describe('wasm gradient kernels match the cpu backend', () => {
  beforeAll(async () => {
    const info = await initBackend('wasm');
    expect(info.name).toBe('wasm');
  });

  it.each(CONV_CASES)('Conv2DBackpropFilter %#', async (c) => {
    const x = randn(`x${label(c)}`, c.n * c.h * c.w * c.ci);
    const probe = tf.tidy(() => tf.conv2d(tf.zeros([c.n, c.h, c.w, c.ci]) as tf.Tensor4D, tf.zeros([...c.k, c.ci, c.co]) as tf.Tensor4D, c.stride, c.pad));
    const dyShape = probe.shape;
    probe.dispose();
    const dy = randn(`dy${label(c)}`, dyShape.reduce((p, q) => p * q, 1));
    const run = () =>
      tf.engine().runKernel('Conv2DBackpropFilter', { x: tf.tensor4d(x, [c.n, c.h, c.w, c.ci]), dy: tf.tensor(dy, dyShape) }, {
        strides: c.stride, pad: c.pad, dataFormat: 'NHWC', filterShape: [...c.k, c.ci, c.co],
      }) as tf.Tensor;
    expectClose(await on('wasm', run), await on('cpu', run), label(c));
  });

  it.each(CONV_CASES)('conv2d gradients (input, filter) through tf.grads %#', async (c) => {
    const x = randn(`gx${label(c)}`, c.n * c.h * c.w * c.ci);
    const f = randn(`gf${label(c)}`, c.k[0] * c.k[1] * c.ci * c.co);
    const run = () => {
      const g = tf.grads((xs: tf.Tensor, fs: tf.Tensor) => {
        const y = tf.conv2d(xs as tf.Tensor4D, fs as tf.Tensor4D, c.stride, c.pad);
        // A non-uniform upstream gradient so every output position matters differently.
        return tf.sum(tf.mul(y, tf.sin(tf.range(0, y.size).reshape(y.shape))));
      });
      return g([tf.tensor4d(x, [c.n, c.h, c.w, c.ci]), tf.tensor4d(f, [...c.k, c.ci, c.co])]);
    };
    expectClose(await on('wasm', run), await on('cpu', run), label(c));
  });

  it.each(CONV_CASES.filter((c) => typeof c.pad === 'string'))('fused conv2d with bias, linear activation %#', async (c) => {
    const x = randn(`fx${label(c)}`, c.n * c.h * c.w * c.ci);
    const f = randn(`ff${label(c)}`, c.k[0] * c.k[1] * c.ci * c.co);
    const b = randn(`fb${label(c)}`, c.co);
    const run = () => {
      const g = tf.grads((xs: tf.Tensor, fs: tf.Tensor, bs: tf.Tensor) => {
        const y = tf.fused.conv2d({ x: xs as tf.Tensor4D, filter: fs as tf.Tensor4D, strides: c.stride, pad: c.pad as 'same' | 'valid', bias: bs, activation: 'linear' });
        return tf.sum(tf.mul(y, tf.cos(tf.range(0, y.size).reshape(y.shape))));
      });
      return g([tf.tensor4d(x, [c.n, c.h, c.w, c.ci]), tf.tensor4d(f, [...c.k, c.ci, c.co]), tf.tensor1d(b)]);
    };
    expectClose(await on('wasm', run), await on('cpu', run), label(c));
  });

  const DEPTHWISE: (ConvCase & { mult: number })[] = [
    { n: 2, h: 7, w: 7, ci: 3, co: 3, k: [3, 3], stride: [1, 1], pad: 'same', mult: 1 },
    { n: 2, h: 8, w: 8, ci: 4, co: 8, k: [3, 3], stride: [2, 2], pad: 'same', mult: 2 },
    { n: 1, h: 9, w: 7, ci: 2, co: 6, k: [3, 3], stride: [2, 2], pad: 'valid', mult: 3 },
    { n: 2, h: 6, w: 5, ci: 5, co: 5, k: [5, 3], stride: [1, 1], pad: 'valid', mult: 1 },
  ];

  it.each(DEPTHWISE)('depthwise conv2d gradients (input, filter) %#', async (c) => {
    const x = randn(`dx${label(c)}`, c.n * c.h * c.w * c.ci);
    const f = randn(`df${label(c)}`, c.k[0] * c.k[1] * c.ci * c.mult);
    const run = () => {
      const g = tf.grads((xs: tf.Tensor, fs: tf.Tensor) => {
        const y = tf.depthwiseConv2d(xs as tf.Tensor4D, fs as tf.Tensor4D, c.stride, c.pad);
        return tf.sum(tf.mul(y, tf.sin(tf.range(0, y.size).reshape(y.shape))));
      });
      return g([tf.tensor4d(x, [c.n, c.h, c.w, c.ci]), tf.tensor4d(f, [...c.k, c.ci, c.mult])]);
    };
    expectClose(await on('wasm', run), await on('cpu', run), label(c));
  });

  it('batch normalisation gradients (input, gamma, beta) with batch statistics', async () => {
    const x = randn('bn', 4 * 6 * 6 * 3);
    const run = () => {
      const g = tf.grads((xs: tf.Tensor, gamma: tf.Tensor, beta: tf.Tensor) => {
        const { mean, variance } = tf.moments(xs, [0, 1, 2]);
        const y = tf.batchNorm(xs as tf.Tensor4D, mean, variance, beta as tf.Tensor1D, gamma as tf.Tensor1D, 1e-3);
        return tf.sum(tf.mul(y, tf.sin(tf.range(0, y.size).reshape(y.shape))));
      });
      return g([tf.tensor4d(x, [4, 6, 6, 3]), tf.tensor1d([1, 0.5, 2]), tf.tensor1d([0, 0.1, -0.2])]);
    };
    expectClose(await on('wasm', run), await on('cpu', run), 'batchNorm');
  });

  const POOLS: { shape: [number, number, number, number]; size: number; stride: number; pad: 'same' | 'valid' }[] = [
    { shape: [1, 4, 4, 2], size: 2, stride: 2, pad: 'valid' },
    { shape: [4, 6, 6, 3], size: 2, stride: 2, pad: 'same' },
    { shape: [2, 7, 7, 5], size: 3, stride: 2, pad: 'same' },
    { shape: [2, 7, 6, 4], size: 3, stride: 1, pad: 'valid' },
  ];

  it.each(POOLS)('max pooling gradient (wasm build replaced: it drops gradients across channels) %#', async (p) => {
    const x = randn(`mp${p.shape.join()}`, p.shape.reduce((a, b) => a * b, 1));
    const run = () =>
      tf.grad((xs: tf.Tensor) => {
        const y = tf.maxPool(xs as tf.Tensor4D, p.size, p.stride, p.pad);
        return tf.sum(tf.mul(y, tf.range(1, y.size + 1).reshape(y.shape)));
      })(tf.tensor4d(x, p.shape));
    expectClose(await on('wasm', run), await on('cpu', run), `maxPool ${JSON.stringify(p)}`);
  });

  it.each(POOLS)('average pooling gradient %#', async (p) => {
    const x = randn(`ap${p.shape.join()}`, p.shape.reduce((a, b) => a * b, 1));
    const run = () =>
      tf.grad((xs: tf.Tensor) => {
        const y = tf.avgPool(xs as tf.Tensor4D, p.size, p.stride, p.pad);
        return tf.sum(tf.mul(y, tf.range(1, y.size + 1).reshape(y.shape)));
      })(tf.tensor4d(x, p.shape));
    expectClose(await on('wasm', run), await on('cpu', run), `avgPool ${JSON.stringify(p)}`);
  });

  it('matrix products with transposed operands (the dense layers\' gradients), batched or not, and their gradients', async () => {
    for (const [m, k, n, batch] of [[32, 2048, 96, 0], [5, 7, 3, 0], [4, 6, 5, 3]] as const) {
      const shape = (rows: number, cols: number) => (batch ? [batch, rows, cols] : [rows, cols]);
      const size = (rows: number, cols: number) => (batch || 1) * rows * cols;
      for (const [ta, tb] of [[false, false], [true, false], [false, true], [true, true]] as const) {
        const a = randn(`mm-a-${m}-${ta}`, size(m, k));
        const b = randn(`mm-b-${n}-${tb}`, size(k, n));
        const run = () => {
          const A = tf.tensor(a, ta ? shape(k, m) : shape(m, k));
          const B = tf.tensor(b, tb ? shape(n, k) : shape(k, n));
          const product = tf.matMul(A, B, ta, tb);
          const [ga, gb] = tf.grads((x: tf.Tensor, y: tf.Tensor) => tf.sum(tf.square(tf.matMul(x, y, ta, tb))))([A, B]);
          return [product, ga!, gb!];
        };
        expectClose(await on('wasm', run), await on('cpu', run), `matMul ${m}×${k}×${n} batch ${batch} transposes ${ta}/${tb}`);
      }
    }
  });

  it('a transposed product on wasm transposes first and runs the plain product (tfjs\'s own loop for transposed operands is 30× slower)', async () => {
    await tf.setBackend('wasm');
    const a = tf.tensor(randn('tf-a', 32 * 64), [32, 64]);
    const b = tf.tensor(randn('tf-b', 32 * 8), [32, 8]);
    const profile = await tf.profile(() => tf.matMul(a, b, true, false));
    const names = profile.kernels.map((k) => k.name);
    expect(names.indexOf('Transpose')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('Transpose')).toBeLessThan(names.lastIndexOf('BatchMatMul'));
    tf.dispose([a, b, profile.result as tf.Tensor]);
  });

  it('a stride phase\'s filter taps are the gathered taps with the channel axes swapped, value for value', async () => {
    await tf.setBackend('wasm');
    const shape: [number, number, number, number] = [3, 3, 4, 5];
    const weights = Float32Array.from(randn('phase-filter', 3 * 3 * 4 * 5));
    for (const [hTaps, wTaps] of [[[2, 0], [2, 0]], [[1], [2, 0]], [[2, 0], [1]], [[1], [1]]]) {
      const expected = tf.tidy(() => tf.transpose(tf.gather(tf.gather(tf.tensor4d(weights, shape), hTaps!, 0), wTaps!, 1), [0, 1, 3, 2]).dataSync());
      expect(Array.from(phaseFilter(weights, shape, hTaps!, wTaps!))).toEqual(Array.from(expected));
    }
  });

  it('Identity and an unchanged Cast share the data on wasm: the same values, nothing copied, and each tensor lives until its own dispose', async () => {
    await tf.setBackend('wasm');
    const before = tf.memory();
    const x = tf.tensor2d(randn('share', 12), [3, 4]);
    const values = Array.from(x.dataSync());
    const buffers = tf.memory().numDataBuffers;
    const profile = await tf.profile(() => [tf.clone(x), tf.cast(x, 'float32')]);
    const [copy, same] = profile.result as tf.Tensor[];
    expect(profile.kernels.map((k) => k.name)).toEqual(['Identity', 'Cast']);
    expect(tf.memory().numDataBuffers).toBe(buffers);
    x.dispose();
    expect(Array.from(copy!.dataSync())).toEqual(values);
    copy!.dispose();
    expect(Array.from(same!.dataSync())).toEqual(values);
    // A cast that changes the type still converts.
    const ints = tf.tensor1d([1, 2, 3], 'int32');
    const floats = tf.cast(ints, 'float32');
    expect(floats.dtype).toBe('float32');
    expect(Array.from(floats.dataSync())).toEqual([1, 2, 3]);
    tf.dispose([same!, ints, floats]);
    expect(tf.memory().numTensors).toBe(before.numTensors);
    expect(tf.memory().numBytes).toBe(before.numBytes);
  });

  it('the lean Mean gradient is tfjs\'s own bit for bit (ones times dy, divided), on wasm and cpu, over every reduction the nets use', async () => {
    const cases: { shape: number[]; axis?: number | number[] }[] = [
      { shape: [4, 6, 5, 3], axis: [0, 1, 2] },
      { shape: [4, 6, 5, 3], axis: [1, 2] },
      { shape: [8, 7], axis: 0 },
      { shape: [8, 7], axis: -1 },
      { shape: [2, 3, 4] },
    ];
    expect(tf.getGradient('Mean')).toBe(leanMeanGradient);
    for (const backend of ['wasm', 'cpu'] as const) {
      await tf.setBackend(backend);
      for (const { shape, axis } of cases) {
        const size = shape.reduce((a, b) => a * b, 1);
        const reduced = axis === undefined ? shape.map((_, a) => a) : (Array.isArray(axis) ? axis : [axis]).map((a) => (a < 0 ? shape.length + a : a));
        const count = reduced.reduce((n, a) => n * shape[a]!, 1);
        const kept = shape.map((d, a) => (reduced.includes(a) ? 1 : d));
        // dy: 1, 2, 3… over the mean's (kept-dimension) shape, so every element's gradient differs.
        const dy = () => tf.range(1, 1 + kept.reduce((a, b) => a * b, 1)).reshape(kept);
        const x = tf.tensor(randn(`mean-x-${shape.join('x')}`, size), shape);
        const lean = tf.tidy(() => tf.grad((v: tf.Tensor) => tf.sum(tf.mul(tf.mean(v, axis, true), dy())))(x));
        // tfjs-core's formula: dy with the reduced axes kept, times ones of x's shape, divided by the count.
        const own = tf.tidy(() => tf.div(tf.mul(dy(), tf.ones(shape)), count));
        expect(Array.from(lean.dataSync()), `${backend} ${shape.join('x')} axis ${String(axis)}`).toEqual(Array.from(own.dataSync()));
        tf.dispose([x, lean, own]);
      }
    }
  });

  it('refuses dilated convolutions with a clear message instead of a wrong answer', async () => {
    await tf.setBackend('wasm');
    expect(() =>
      tf.tidy(() => tf.engine().runKernel('DepthwiseConv2dNativeBackpropFilter', { x: tf.zeros([1, 5, 5, 1]), dy: tf.zeros([1, 5, 5, 1]) }, {
        strides: 1, dilations: 2, pad: 'same', filterShape: [3, 3, 1, 1],
      })),
    ).toThrow(/dilations .* not supported/);
  });
});
