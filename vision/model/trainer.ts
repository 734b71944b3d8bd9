/**
 * The training loop: seeded shuffles and augmentation, Adam with warm-up and cosine decay,
 * decoupled weight decay, label smoothing. Deterministic for a given seed, data and backend.
 */
import * as tf from '@tensorflow/tfjs';
import { createRng, type Rng } from '../../shared/rng.js';
import { FACE_CLASSES } from '../faces/classes.js';
import { MIRROR_SAFE, augmentCrop } from './augment.js';
import { CROP_PIXELS } from './dataset.js';
import type { CropSet } from './dataset-store.js';
import { buildNet, type NetConfig } from './net.js';
import { DEFAULT_PREPROCESSING, standardiseInto, type Preprocessing } from './preprocess.js';
import { perCrop, predictEachTurn, predictViews } from './views.js';

export interface TrainConfig {
  seed: string;
  net: NetConfig;
  epochs: number;
  batchSize: number;
  learningRate: number;
  /** Fraction of all steps spent warming the learning rate up from 0. */
  warmup: number;
  weightDecay: number;
  labelSmoothing: number;
  /** Augmentation strength 0..1. */
  augment: number;
  /** An upright model: no quarter turns in augmentation (its crops keep world up pointing up). */
  upright?: boolean;
}

export interface EpochReport {
  epoch: number;
  loss: number;
  trainAccuracy: number;
  seconds: number;
}

export interface TrainHooks {
  onEpoch?: (report: EpochReport, model: tf.LayersModel) => void | Promise<void>;
  onStep?: (step: number, steps: number, loss: number) => void;
}

const NUM_CLASSES = FACE_CLASSES.length;

/** One augmented, standardised batch as tensors (caller disposes). */
export function makeBatch(data: CropSet, indices: readonly number[], rng: Rng, strength: number, pre: Preprocessing = DEFAULT_PREPROCESSING, turns = true): { x: tf.Tensor4D; y: tf.Tensor2D } {
  const xs = new Float32Array(indices.length * CROP_PIXELS);
  const labels = new Int32Array(indices.length);
  const scratch = strength > 0 ? new Float32Array(CROP_PIXELS) : undefined;
  indices.forEach((index, k) => {
    const pixels = data.pixels.subarray(index * CROP_PIXELS, (index + 1) * CROP_PIXELS);
    const cls = data.classes[index]!;
    const crop = scratch ? augmentCrop(pixels, rng, { strength, mirror: MIRROR_SAFE.has(FACE_CLASSES[cls]!), turns }, scratch) : pixels;
    standardiseInto(crop, xs, k * CROP_PIXELS, pre);
    labels[k] = cls;
  });
  return tf.tidy(() => ({
    x: tf.tensor4d(xs, [indices.length, 64, 64, 3]),
    y: tf.oneHot(tf.tensor1d(labels, 'int32'), NUM_CLASSES).toFloat() as tf.Tensor2D,
  }));
}

/** The training loss of one batch (label-smoothed cross-entropy) and how many it got right. */
export function batchLoss(model: tf.LayersModel, x: tf.Tensor4D, y: tf.Tensor2D, labelSmoothing: number): { loss: tf.Scalar; correct: number } {
  const [logits] = model.apply(x, { training: true }) as tf.Tensor[];
  const correct = tf.tidy(() => tf.sum(tf.cast(tf.equal(tf.argMax(logits!, 1), tf.argMax(y, 1)), 'int32')).dataSync()[0]!);
  return { loss: tf.losses.softmaxCrossEntropy(y, logits!, undefined, labelSmoothing) as tf.Scalar, correct };
}

/** Decoupled weight decay on the kernels, after the optimiser's step. */
export function decayKernels(kernels: readonly tf.Variable[], lr: number, weightDecay: number): void {
  if (weightDecay > 0) tf.tidy(() => { for (const k of kernels) k.assign(tf.mul(k, 1 - lr * weightDecay)); });
}

/** The learning rate at a step: linear warm-up, then cosine decay to 2% of the peak. */
export function learningRateAt(step: number, steps: number, config: Pick<TrainConfig, 'learningRate' | 'warmup'>): number {
  const warm = Math.max(1, Math.round(config.warmup * steps));
  if (step < warm) return (config.learningRate * (step + 1)) / warm;
  const t = (step - warm) / Math.max(1, steps - warm);
  return config.learningRate * (0.02 + 0.98 * 0.5 * (1 + Math.cos(Math.PI * Math.min(1, t))));
}

export function variablesOf(model: tf.LayersModel): tf.Variable[] {
  // LayerVariable keeps its tf.Variable in `val`; minimize needs the variables themselves.
  return model.trainableWeights.map((w) => (w as unknown as { val: tf.Variable }).val);
}

/** Trains a new net on `data` (all classes); returns the training graph. */
export async function trainClassifier(data: CropSet, config: TrainConfig, hooks: TrainHooks = {}, initial?: tf.LayersModel): Promise<tf.LayersModel> {
  if (data.count < config.batchSize) throw new Error(`training needs at least one batch: ${data.count} crops < batch ${config.batchSize}`);
  const rng = createRng(`${config.seed}:train`);
  // Layer weights are initialised from tfjs's own random source; seed it from ours.
  const model = initial ?? buildSeeded(config, rng);
  const vars = variablesOf(model);
  const kernels = vars.filter((v) => /kernel/.test(v.name));
  const optimizer = tf.train.adam(config.learningRate);
  const perEpoch = Math.floor(data.count / config.batchSize);
  const steps = perEpoch * config.epochs;
  let step = 0;
  try {
    for (let epoch = 0; epoch < config.epochs; epoch++) {
      const start = performance.now();
      const order = rng.shuffle(Array.from({ length: data.count }, (_, i) => i));
      let lossSum = 0;
      let hits = 0;
      for (let b = 0; b < perEpoch; b++) {
        const lr = learningRateAt(step, steps, config);
        (optimizer as unknown as { learningRate: number }).learningRate = lr;
        const { x, y } = makeBatch(data, order.slice(b * config.batchSize, (b + 1) * config.batchSize), rng, config.augment, DEFAULT_PREPROCESSING, !config.upright);
        let correct = 0;
        const loss = optimizer.minimize(() => {
          const out = batchLoss(model, x, y, config.labelSmoothing);
          correct = out.correct;
          return out.loss;
        }, true, vars);
        decayKernels(kernels, lr, config.weightDecay);
        const value = loss!.dataSync()[0]!;
        tf.dispose([x, y, loss!]);
        lossSum += value;
        hits += correct;
        step++;
        hooks.onStep?.(step, steps, value);
      }
      await hooks.onEpoch?.({ epoch: epoch + 1, loss: lossSum / perEpoch, trainAccuracy: hits / (perEpoch * config.batchSize), seconds: (performance.now() - start) / 1000 }, model);
    }
  } finally {
    optimizer.dispose();
  }
  return model;
}

export function buildSeeded(config: Pick<TrainConfig, 'net'>, rng: Rng): tf.LayersModel {
  const model = buildNet(config.net, NUM_CLASSES);
  // Re-initialise every kernel from our seeded rng (He normal), so runs reproduce exactly.
  for (const layer of model.layers) {
    const weights = layer.getWeights();
    if (weights.length === 0) continue;
    const fresh = weights.map((w, i) => {
      const name = layer.weights[i]!.name;
      if (/kernel/.test(name)) {
        const shape = w.shape;
        const fanIn = shape.slice(0, -1).reduce((a, b) => a * b, 1);
        const std = Math.sqrt(2 / (fanIn + shape[shape.length - 1]!));
        return tf.tensor(Float32Array.from({ length: w.size }, () => rng.normal() * std), shape);
      }
      return w.clone();
    });
    layer.setWeights(fresh);
    tf.dispose(fresh);
  }
  return model;
}

/** The crops of a set standardised into one NHWC array, as the net reads them. */
function standardiseSet(data: CropSet, pre: Preprocessing): Float32Array {
  const xs = new Float32Array(data.count * CROP_PIXELS);
  for (let i = 0; i < data.count; i++) standardiseInto(data.pixels.subarray(i * CROP_PIXELS, (i + 1) * CROP_PIXELS), xs, i * CROP_PIXELS, pre);
  return xs;
}

/** Logits and embeddings of crops (no augmentation), in batches, averaged over `views` quarter turns as the reader reads them. */
export function predictCrops(model: tf.LayersModel, data: CropSet, batchSize = 128, pre: Preprocessing = DEFAULT_PREPROCESSING, views: 1 | 2 | 4 = 1): { logits: Float32Array; embeddings: Float32Array; dim: number } {
  return predictViews(model, standardiseSet(data, pre), data.count, pre.size, views, Math.max(1, Math.floor(batchSize / views)));
}

/**
 * Each crop's logits and embedding in each of its four quarter turns (`[turn].logits[crop]`), as
 * the orientation head is fitted on them and view 'any' reads (orientation.ts): one pass of
 * `batchSize` images holds a quarter as many crops, each in its four turns.
 */
export function scoreTurns(model: tf.LayersModel, data: CropSet, batchSize = 128, pre: Preprocessing = DEFAULT_PREPROCESSING): { logits: Float32Array[]; embeddings: Float32Array[] }[] {
  return predictEachTurn(model, standardiseSet(data, pre), data.count, pre.size, [0, 1, 2, 3], Math.max(1, Math.floor(batchSize / 4))).map((scores) => perCrop(scores, data.count));
}
