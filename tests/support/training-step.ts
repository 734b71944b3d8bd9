/**
 * One training step of a net on a given backend, from given weights: how the tests check that
 * the wasm backend (with clew's registered gradients) trains exactly as the cpu backend does.
 */
import * as tf from '@tensorflow/tfjs';
import { createRng } from '../../shared/rng.js';
import { FACE_CLASSES } from '../../vision/faces/classes.js';
import type { CropSet } from '../../vision/model/dataset-store.js';
import { buildNet, type NetConfig } from '../../vision/model/net.js';
import { makeBatch } from '../../vision/model/trainer.js';

export interface InitialWeight { shape: number[]; values: Float32Array }

/** Seeded initial weights for the net, as plain arrays (so both backends start identical). */
export function seededWeights(net: NetConfig, seed: string): InitialWeight[] {
  const rng = createRng(seed);
  const model = buildNet(net, FACE_CLASSES.length);
  const out = model.getWeights().map((w) => ({ shape: w.shape, values: Float32Array.from({ length: w.size }, () => (w.shape.length > 1 ? 0.2 * rng.normal() : 0.05 * rng.normal())) }));
  model.dispose();
  return out;
}

export interface StepResult { loss: number; grads: Float32Array[]; after: Float32Array[] }

/**
 * The loss, every trainable variable's gradient (in the model's variable order) and the weights
 * after one SGD step, for a batch of `data`'s crops `indices` drawn with `batchSeed`.
 */
export async function oneTrainingStep(backend: 'wasm' | 'cpu', net: NetConfig, init: InitialWeight[], data: CropSet, indices: number[], batchSeed: string): Promise<StepResult> {
  await tf.setBackend(backend);
  const model = buildNet(net, FACE_CLASSES.length);
  model.setWeights(init.map((w) => tf.tensor(w.values, w.shape)));
  const { x, y } = makeBatch(data, indices, createRng(batchSeed), 0.5);
  const vars = model.trainableWeights.map((w) => (w as unknown as { val: tf.Variable }).val);
  const { value, grads } = tf.variableGrads(() => {
    const [logits] = model.apply(x, { training: true }) as tf.Tensor[];
    return tf.losses.softmaxCrossEntropy(y, logits!) as tf.Scalar;
  }, vars);
  // Variable names get per-model suffixes: compare gradients in the model's variable order.
  const gradValues = vars.map((v) => grads[v.name]!.dataSync() as Float32Array);
  tf.train.sgd(0.1).applyGradients(grads);
  const result = { loss: value.dataSync()[0]!, grads: gradValues, after: model.getWeights().map((w) => w.dataSync() as Float32Array) };
  tf.dispose([x, y, value, ...Object.values(grads)]);
  model.dispose();
  return result;
}
