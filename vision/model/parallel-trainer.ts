/**
 * Data-parallel training on several cores. tfjs's wasm backend is single-threaded under Node,
 * so `npm run train` on a 2-core machine would leave a core idle; here each worker thread
 * (`train-worker.ts`) computes the gradients of its share of every batch and this thread
 * averages them and sends the average back to be applied by all. The result depends on the seed,
 * the data and the number of workers (each share's batch-norm statistics and augmentation), not
 * on timing: the run is reproducible.
 */
import * as tf from '@tensorflow/tfjs';
import { createRng } from '../../shared/rng.js';
import { FACE_CLASSES } from '../faces/classes.js';
import type { BackendName } from './backend.js';
import { allocCropSet, type CropSet } from './dataset-store.js';
import { buildNet } from './net.js';
import { startTsWorker } from './ts-worker.js';
import { learningRateAt, type EpochReport, type TrainConfig } from './trainer.js';
import type { FinishMessage, StepMessage, WorkerInit, WorkerReply } from './train-worker.js';

export interface ParallelHooks {
  onEpoch?: (report: EpochReport) => void | Promise<void>;
  onStep?: (step: number, steps: number, loss: number) => void;
}

export interface ParallelOptions {
  workers: number;
  backend?: BackendName;
}

/** The crops in shared memory (a copy only when they are not there already). */
function shared(data: CropSet): CropSet {
  if (data.pixels.buffer instanceof SharedArrayBuffer && data.classes.buffer instanceof SharedArrayBuffer && data.sets.buffer instanceof SharedArrayBuffer) return data;
  const out = allocCropSet(data.count);
  out.classes.set(data.classes);
  out.sets.set(data.sets);
  out.pixels.set(data.pixels);
  return out;
}

/** Mean of the workers' arrays, element by element, in a fixed order (reproducible sums). */
export function averageArrays(parts: readonly Float32Array[][]): Float32Array[] {
  const n = parts.length;
  return parts[0]!.map((first, v) => {
    const out = new Float32Array(first.length);
    for (const part of parts) {
      const a = part[v]!;
      if (a.length !== out.length) throw new Error(`averageArrays: variable ${v} has ${a.length} values in one worker and ${out.length} in another`);
      for (let i = 0; i < a.length; i++) out[i]! += a[i]!;
    }
    for (let i = 0; i < out.length; i++) out[i]! /= n;
    return out;
  });
}

/** Trains a new net on `data` with `options.workers` threads; returns the training graph. */
export async function trainClassifierParallel(data: CropSet, config: TrainConfig, options: ParallelOptions, hooks: ParallelHooks = {}): Promise<tf.LayersModel> {
  const workers = options.workers;
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`workers must be a whole number ≥ 1, got ${workers}`);
  if (config.batchSize % workers !== 0) throw new Error(`batch ${config.batchSize} does not split evenly over ${workers} workers`);
  if (data.count < config.batchSize) throw new Error(`training needs at least one batch: ${data.count} crops < batch ${config.batchSize}`);
  const crops = shared(data);
  const share = config.batchSize / workers;
  const url = new URL('./train-worker.ts', import.meta.url);
  const threads = Array.from({ length: workers }, (_, index) =>
    startTsWorker(url, { config, data: crops, index, backend: options.backend ?? 'wasm' } satisfies WorkerInit),
  );
  // One pending reply per worker at a time: messages and failures go to whoever waits.
  const waiting: ((reply: WorkerReply) => void)[] = [];
  const failures: Error[] = [];
  threads.forEach((t, i) => {
    t.on('message', (reply: WorkerReply) => waiting[i]?.(reply));
    t.on('error', (error) => { failures.push(error); waiting[i]?.({ kind: 'error', message: error.message }); });
  });
  const next = (i: number): Promise<WorkerReply> => new Promise((resolve) => { waiting[i] = resolve; });
  const all = async <K extends WorkerReply['kind']>(kind: K, send?: (i: number) => StepMessage | FinishMessage): Promise<Extract<WorkerReply, { kind: K }>[]> => {
    const replies = threads.map((_, i) => next(i));
    if (send) threads.forEach((t, i) => t.postMessage(send(i)));
    const got = await Promise.all(replies);
    const bad = got.find((r) => r.kind === 'error') as Extract<WorkerReply, { kind: 'error' }> | undefined;
    if (bad) throw new Error(`training worker failed: ${bad.message}`);
    for (const r of got) if (r.kind !== kind) throw new Error(`training worker sent ${r.kind}, expected ${kind}`);
    return got as Extract<WorkerReply, { kind: K }>[];
  };

  try {
    await all('ready');
    const rng = createRng(`${config.seed}:order`);
    const perEpoch = Math.floor(data.count / config.batchSize);
    const steps = perEpoch * config.epochs;
    let step = 0;
    let pending: Float32Array[] | null = null;
    let pendingLr = 0;
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      const start = performance.now();
      const order = Int32Array.from(rng.shuffle(Array.from({ length: data.count }, (_, i) => i)));
      let lossSum = 0;
      let hits = 0;
      for (let b = 0; b < perEpoch; b++) {
        const lr = learningRateAt(step, steps, config);
        const apply = pending;
        const applyLr = pendingLr;
        const replies = await all('grads', (i) => ({
          kind: 'step',
          step,
          indices: order.slice(b * config.batchSize + i * share, b * config.batchSize + (i + 1) * share),
          // postMessage copies the average to each worker (nothing is transferred).
          apply,
          applyLr,
        }));
        pending = averageArrays(replies.map((r) => r.grads));
        pendingLr = lr;
        const loss = replies.reduce((s, r) => s + r.loss, 0) / workers;
        lossSum += loss;
        hits += replies.reduce((s, r) => s + r.correct, 0);
        step++;
        hooks.onStep?.(step, steps, loss);
      }
      await hooks.onEpoch?.({ epoch: epoch + 1, loss: lossSum / perEpoch, trainAccuracy: hits / (perEpoch * config.batchSize), seconds: (performance.now() - start) / 1000 });
    }
    const finals = await all('weights', () => ({ kind: 'finish', apply: pending, applyLr: pendingLr }));
    const model = buildNet(config.net, FACE_CLASSES.length);
    // Trainable weights are equal in every worker; batch-norm moving statistics differ (each saw
    // its own share), so those are averaged.
    const trainable = new Set(model.trainableWeights.map((w) => w.name));
    const averaged = averageArrays(finals.map((f) => f.weights));
    const weights = model.weights.map((w, i) => tf.tensor(trainable.has(w.name) ? finals[0]!.weights[i]! : averaged[i]!, w.shape as number[]));
    model.setWeights(weights);
    tf.dispose(weights);
    return model;
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
  }
}
