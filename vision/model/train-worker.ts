/**
 * One worker of the data-parallel trainer (`parallel-trainer.ts`). tfjs's wasm backend runs on
 * one thread under Node, so each worker holds its own copy of the net on its own core: it makes
 * its share of every batch (augmentation seeded by step and worker), computes that share's
 * gradients, and applies the averaged gradients it is sent. Every worker starts from the same
 * seeded weights and applies the same averaged gradients, so their trainable weights stay equal.
 */
import * as tf from '@tensorflow/tfjs';
import { parentPort, workerData } from 'node:worker_threads';
import { createRng } from '../../shared/rng.js';
import { initBackend, type BackendName } from './backend.js';
import { registerLeanBatchNormGradient } from './batchnorm-gradient.js';
import type { CropSet } from './dataset-store.js';
import { batchLoss, buildSeeded, decayKernels, makeBatch, variablesOf, type TrainConfig } from './trainer.js';

export interface WorkerInit {
  config: TrainConfig;
  data: CropSet;
  index: number;
  backend: BackendName;
}

/** main → worker: apply the previous step's averaged gradients (if any), then compute this step's. */
export interface StepMessage {
  kind: 'step';
  step: number;
  indices: Int32Array;
  apply: Float32Array[] | null;
  applyLr: number;
}

/** main → worker: apply the last averaged gradients and send every weight back. */
export interface FinishMessage {
  kind: 'finish';
  apply: Float32Array[] | null;
  applyLr: number;
}

export type WorkerReply =
  | { kind: 'ready'; backend: string }
  | { kind: 'grads'; grads: Float32Array[]; loss: number; correct: number }
  | { kind: 'weights'; weights: Float32Array[] }
  | { kind: 'error'; message: string };

if (!parentPort) throw new Error('train-worker.ts must run in a worker thread');
const port = parentPort;
const init = workerData as WorkerInit;

const backend = await initBackend(init.backend);
registerLeanBatchNormGradient();
const { config, data, index } = init;
const model = buildSeeded(config, createRng(`${config.seed}:init`));
const vars = variablesOf(model);
const kernels = vars.filter((v) => /kernel/.test(v.name));
const optimizer = tf.train.adam(config.learningRate);

function apply(grads: Float32Array[] | null, lr: number): void {
  if (!grads) return;
  (optimizer as unknown as { learningRate: number }).learningRate = lr;
  const named = vars.map((v, i) => ({ name: v.name, tensor: tf.tensor(grads[i]!, v.shape) }));
  optimizer.applyGradients(named);
  tf.dispose(named.map((n) => n.tensor));
  decayKernels(kernels, lr, config.weightDecay);
}

port.on('message', (message: StepMessage | FinishMessage) => {
  try {
    apply(message.apply, message.applyLr);
    if (message.kind === 'finish') {
      const weights = model.getWeights().map((w) => w.dataSync() as Float32Array);
      port.postMessage({ kind: 'weights', weights } satisfies WorkerReply);
      return;
    }
    const rng = createRng(`${config.seed}:augment:${message.step}:${index}`);
    const { x, y } = makeBatch(data, Array.from(message.indices), rng, config.augment, undefined, !config.upright);
    let correct = 0;
    const { value, grads } = tf.variableGrads(() => {
      const out = batchLoss(model, x, y, config.labelSmoothing);
      correct = out.correct;
      return out.loss;
    }, vars);
    const arrays = vars.map((v) => grads[v.name]!.dataSync() as Float32Array);
    const loss = value.dataSync()[0]!;
    tf.dispose([x, y, value, ...Object.values(grads)]);
    port.postMessage({ kind: 'grads', grads: arrays, loss, correct } satisfies WorkerReply, arrays.map((a) => a.buffer as ArrayBuffer));
  } catch (error) {
    port.postMessage({ kind: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerReply);
  }
});
port.postMessage({ kind: 'ready', backend: backend.name } satisfies WorkerReply);
