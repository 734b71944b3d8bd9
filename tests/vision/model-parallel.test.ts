/**
 * The data-parallel trainer: gradients averaged in a fixed order, every worker applying the same
 * average, so a run is reproducible from its seed and worker count; the returned net has the
 * trained weights (not the initial ones).
 */
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { initBackend } from '../../vision/model/backend.js';
import { renderDatasetInline } from '../../vision/model/dataset-store.js';
import type { NetConfig } from '../../vision/model/net.js';
import { averageArrays, trainClassifierParallel } from '../../vision/model/parallel-trainer.js';
import { buildSeeded, type TrainConfig } from '../../vision/model/trainer.js';

// Strides of 2: wasm gave this net's second convolution, once 3×3 at stride 4, all zeros, so
// nothing past it learnt (net.ts now refuses a stride past the kernel).
const NET: NetConfig = { blocks: [{ filters: 8, kernel: 3, stride: 2 }, { filters: 16, kernel: 3, stride: 2 }], batchNorm: true, dropout: 0, head: 'dense', embedding: 16 };
const CONFIG: TrainConfig = { seed: 'parallel-test', net: NET, epochs: 1, batchSize: 8, learningRate: 5e-3, warmup: 0.1, weightDecay: 1e-4, labelSmoothing: 0.05, augment: 0.5 };

describe('averageArrays', () => {
  it('averages each variable element by element', () => {
    const avg = averageArrays([
      [Float32Array.of(1, 2), Float32Array.of(10)],
      [Float32Array.of(3, 6), Float32Array.of(20)],
    ]);
    expect([...avg[0]!]).toEqual([2, 4]);
    expect([...avg[1]!]).toEqual([15]);
  });

  it('refuses workers that disagree on a variable size', () => {
    expect(() => averageArrays([[Float32Array.of(1, 2)], [Float32Array.of(1)]])).toThrow(/variable 0/);
  });
});

describe('trainClassifierParallel', () => {
  const data = renderDatasetInline({ seed: 'parallel-test', split: 'train', count: 24, difficulty: [0.2, 0.5] });

  it('two workers train reproducibly, and the net it returns has moved from its seeded start', async () => {
    await initBackend('wasm');
    const runs: Float32Array[][] = [];
    const losses: number[][] = [[], []];
    for (const run of [0, 1]) {
      const model = await trainClassifierParallel(data, CONFIG, { workers: 2, backend: 'wasm' }, { onStep: (_, __, loss) => { losses[run]!.push(loss); } });
      runs.push(model.getWeights().map((w) => w.dataSync() as Float32Array));
      model.dispose();
    }
    expect(losses[0]!.length).toBe(3);
    expect(losses[0]!.every(Number.isFinite)).toBe(true);
    expect(losses[1]).toEqual(losses[0]);
    runs[1]!.forEach((w, i) => expect(w).toEqual(runs[0]![i]));
    // The workers start from buildSeeded(`${seed}:init`): the result must differ from that start.
    const start = buildSeeded(CONFIG, createRng(`${CONFIG.seed}:init`));
    const initial = start.getWeights().map((w) => w.dataSync() as Float32Array);
    const names = start.weights.map((w) => w.name);
    start.dispose();
    const moved = (i: number) => runs[0]![i]!.some((v, k) => Math.abs(v - initial[i]![k]!) > 1e-6);
    // Every batch norm's scale too: weight decay moves kernels alone, gradients move these, and
    // they reach every layer only when the whole net learns.
    names.forEach((name, i) => { if (/kernel|gamma/.test(name)) expect(moved(i), name).toBe(true); });
    expect(tf.memory().numTensors).toBeLessThan(100);
  }, 120_000);

  it('refuses a batch that does not split over the workers', async () => {
    await expect(trainClassifierParallel(data, { ...CONFIG, batchSize: 9 }, { workers: 2 })).rejects.toThrow(/split evenly/);
  });
});
