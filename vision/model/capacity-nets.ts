/**
 * The larger nets of the GPU capacity runs (scripts/capacity/capacity.py), built in tfjs so their
 * cost on clew's CPU can be measured (scripts/capacity/tfjs-cost.ts). Here, not beside those
 * scripts, because only vision/ imports tfjs (the house rules). Not used by the reader: the
 * notes (vision-model.md, "How far the split can be read") say why.
 */
import * as tf from '@tensorflow/tfjs';

/**
 * capacity.py's ResNet: a 3×3 stem of stride 2, four stages of `blocks` basic blocks (2:
 * ResNet-18, 1: ResNet-10), `width` filters in the first stage, doubled at each later stage, whose
 * first block halves the size; global average pooling and a dense layer of `classes` logits.
 */
export function buildResNet(width: number, blocks: number, classes: number): tf.LayersModel {
  const input = tf.input({ shape: [64, 64, 3] });
  const convBn = (x: tf.SymbolicTensor, filters: number, kernel: number, stride: number, relu: boolean): tf.SymbolicTensor => {
    let y = tf.layers.conv2d({ filters, kernelSize: kernel, strides: stride, padding: 'same', useBias: false }).apply(x) as tf.SymbolicTensor;
    y = tf.layers.batchNormalization().apply(y) as tf.SymbolicTensor;
    return relu ? (tf.layers.reLU().apply(y) as tf.SymbolicTensor) : y;
  };
  let x = convBn(input, width, 3, 2, true);
  let channels = width;
  const plan = [1, 2, 4, 8].flatMap((k, stage) => Array.from({ length: blocks }, (_, b) => [k * width, stage > 0 && b === 0 ? 2 : 1] as const));
  for (const [filters, stride] of plan) {
    const y = convBn(convBn(x, filters, 3, stride, true), filters, 3, 1, false);
    const shortcut = stride === 1 && channels === filters ? x : convBn(x, filters, 1, stride, false);
    x = tf.layers.reLU().apply(tf.layers.add().apply([y, shortcut]) as tf.SymbolicTensor) as tf.SymbolicTensor;
    channels = filters;
  }
  x = tf.layers.globalAveragePooling2d({}).apply(x) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: tf.layers.dense({ units: classes }).apply(x) as tf.SymbolicTensor });
}

/** Parameters a training step updates (batch norms' moving statistics left out, as PyTorch counts). */
export function trainableParams(model: tf.LayersModel): number {
  return model.trainableWeights.reduce((n, w) => n + w.shape.reduce<number>((a, b) => a * (b ?? 1), 1), 0);
}

export interface NetCost {
  /** Every weight, the batch norms' moving statistics included (what a saved model holds). */
  params: number;
  /** Wall ms a crop, reading a batch of 25 (median of `runs`). */
  readMs: number;
  /** Wall ms of one training step on a batch of 64 (median). */
  stepMs: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * What a net costs on the current backend, on random crops and labels: a batch of 25 read, and
 * a training step of 64 with Adam. A net with several outputs is timed on its first (the logits).
 */
export async function measureNetCost(net: tf.LayersModel, runs: number): Promise<NetCost> {
  const model = net.outputs.length > 1 ? tf.model({ inputs: net.inputs, outputs: net.outputs[0]! }) : net;
  const classes = model.outputs[0]!.shape.at(-1)!;
  const crops = tf.randomUniform([25, 64, 64, 3], -1, 1);
  const read: number[] = [];
  for (let r = 0; r <= runs; r++) {
    const t0 = performance.now();
    tf.tidy(() => (model.predict(crops) as tf.Tensor).dataSync());
    if (r > 0) read.push((performance.now() - t0) / 25);
  }
  crops.dispose();
  model.compile({ optimizer: tf.train.adam(1e-3), loss: 'categoricalCrossentropy' });
  const xs = tf.randomUniform([64, 64, 64, 3], -1, 1);
  const ys = tf.tidy(() => tf.oneHot(tf.randomUniform([64], 0, classes, 'int32'), classes));
  const step: number[] = [];
  for (let r = 0; r <= Math.max(2, Math.ceil(runs / 2)); r++) {
    const t0 = performance.now();
    await model.trainOnBatch(xs, ys);
    if (r > 0) step.push(performance.now() - t0);
  }
  xs.dispose();
  ys.dispose();
  // Adam's moments would otherwise outlive the measurement (a second compile makes new ones).
  model.optimizer.dispose();
  return { params: net.countParams(), readMs: median(read), stepMs: median(step) };
}
