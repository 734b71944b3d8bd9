/**
 * The face classifier: one small convolutional net over all FACE_CLASSES. Input is a 64×64×3
 * standardised crop; strided 3×3 convolutions halve the resolution block by block, then the
 * embedding (used by calibration) is either a global average pool ('gap') or a dense layer over
 * the flattened last map ('dense', keeps where features are); a dense layer gives one logit per
 * class. Outputs: [logits, embedding].
 *
 * A block may instead be a residual basic block (two convolutions and a shortcut, as in ResNet):
 * the deeper nets `npm run train -- --net` offers (recipe.ts `NETS`).
 *
 * With batch normalisation, training uses conv → BN → ReLU (and dense → BN → ReLU for the dense
 * embedding); `foldForInference` merges each BN into the layer before it, so inference runs one
 * fused conv+bias(+ReLU) per convolution and one dense+bias+ReLU for the embedding.
 */
import * as tf from '@tensorflow/tfjs';

/** The tfjs model type, for code outside vision/ (only vision/ imports tfjs). */
export type LayersModel = tf.LayersModel;

export interface NetBlock {
  filters: number;
  kernel: number;
  stride: number;
  /**
   * A residual basic block instead of one convolution: conv (stride) → BN → ReLU → conv → BN,
   * added to its input (through a 1×1 convolution + BN where the stride or width changes), then
   * ReLU, as in ResNet. Deeper at full resolution: docs/notes/vision-model.md, "Real photos and
   * the net's size".
   */
  residual?: boolean;
}

export interface NetConfig {
  blocks: NetBlock[];
  batchNorm: boolean;
  /** Dropout on the embedding while training. */
  dropout: number;
  /**
   * How the last feature map becomes the embedding: global average ('gap', position-free) or a
   * small dense layer over the flattened map ('dense', keeps where the features are: pip layouts).
   */
  head?: 'gap' | 'dense';
  /** Width of the 'dense' head's embedding. */
  embedding?: number;
}

export const DEFAULT_NET: NetConfig = {
  blocks: [
    { filters: 16, kernel: 3, stride: 2 },
    { filters: 32, kernel: 3, stride: 2 },
    { filters: 64, kernel: 3, stride: 2 },
    { filters: 128, kernel: 3, stride: 2 },
  ],
  batchNorm: false,
  dropout: 0.2,
};

export function validateNetConfig(config: NetConfig): void {
  if (!Array.isArray(config.blocks) || config.blocks.length === 0) throw new Error('net config: blocks must be a non-empty list');
  config.blocks.forEach((b, i) => {
    for (const key of ['filters', 'kernel', 'stride'] as const) {
      if (!Number.isInteger(b[key]) || b[key] <= 0) throw new Error(`net config: block ${i} ${key} must be a positive integer, got ${String(b[key])}`);
    }
    // A stride past the kernel never looks at some pixels; and tfjs-backend-wasm 4.22 returns all
    // zeros for a 3×3 kernel at stride 4 (cpu does not), which silently killed a test's net.
    if (b.stride > b.kernel) throw new Error(`net config: block ${i} strides ${b.stride} with a ${b.kernel}×${b.kernel} kernel: the stride must not pass the kernel`);
  });
  if (!(config.dropout >= 0 && config.dropout < 1)) throw new Error(`net config: dropout must be in [0, 1), got ${config.dropout}`);
}

/**
 * The training graph. With `forInference`, BN layers are left out and every conv has a bias and
 * a fused ReLU (the shape `foldForInference` fills).
 */
export function buildNet(config: NetConfig, numClasses: number, forInference = false): tf.LayersModel {
  validateNetConfig(config);
  const input = tf.input({ shape: [64, 64, 3], name: 'crop' });
  let x: tf.SymbolicTensor = input;
  const bn = config.batchNorm && !forInference;
  /** Convolution `conv<id>`, then (training with BN) `bn<id>`; ReLU'd if `relu`. */
  const convUnit = (from: tf.SymbolicTensor, id: string, filters: number, kernel: number, stride: number, relu: boolean, plain = false): tf.SymbolicTensor => {
    const conv = tf.layers.conv2d({
      name: `conv${id}`,
      filters,
      kernelSize: kernel,
      strides: stride,
      padding: 'same',
      useBias: !bn,
      activation: bn || !relu ? 'linear' : 'relu',
      kernelInitializer: 'heNormal',
    });
    if (plain && bn) convolvePlainly(conv, stride);
    let y = conv.apply(from) as tf.SymbolicTensor;
    if (bn) {
      y = tf.layers.batchNormalization({ name: `bn${id}`, momentum: 0.9 }).apply(y) as tf.SymbolicTensor;
      if (relu) y = tf.layers.reLU({ name: `relu${id}` }).apply(y) as tf.SymbolicTensor;
    }
    return y;
  };
  config.blocks.forEach((b, i) => {
    const id = `${i + 1}`;
    if (!b.residual) {
      x = convUnit(x, id, b.filters, b.kernel, b.stride, true, i === 0);
    } else {
      const inner = convUnit(convUnit(x, id, b.filters, b.kernel, b.stride, true, i === 0), `${id}b`, b.filters, b.kernel, 1, false);
      const channels = i === 0 ? 3 : config.blocks[i - 1]!.filters;
      const shortcut = b.stride === 1 && channels === b.filters ? x : convUnit(x, `${id}s`, b.filters, 1, b.stride, false);
      const sum = tf.layers.add({ name: `add${id}` }).apply([inner, shortcut]) as tf.SymbolicTensor;
      x = tf.layers.reLU({ name: `relu${id}_out` }).apply(sum) as tf.SymbolicTensor;
    }
  });
  let embedding: tf.SymbolicTensor;
  if ((config.head ?? 'gap') === 'gap') {
    embedding = tf.layers.globalAveragePooling2d({ name: 'embedding' }).apply(x) as tf.SymbolicTensor;
  } else {
    const flat = tf.layers.flatten({ name: 'flatten' }).apply(x) as tf.SymbolicTensor;
    const units = config.embedding ?? 128;
    if (bn) {
      // Batch norm before the ReLU here too. Without it, Adam kills the layer within a few dozen
      // steps: its 2,048 inputs are all ≥ 0 (ReLU outputs), so a per-weight step of lr moves
      // every pre-activation by up to lr·Σx ≈ 1.6 at once, and most units never fire again
      // (88 of 96 dead after 64 steps; the net then outputs the class prior). See the notes.
      const z = tf.layers.dense({ name: 'embedding', units, useBias: false, activation: 'linear', kernelInitializer: 'heNormal' }).apply(flat) as tf.SymbolicTensor;
      const zn = tf.layers.batchNormalization({ name: 'bn_embedding', momentum: 0.9 }).apply(z) as tf.SymbolicTensor;
      embedding = tf.layers.reLU({ name: 'relu_embedding' }).apply(zn) as tf.SymbolicTensor;
    } else {
      embedding = tf.layers.dense({ name: 'embedding', units, activation: 'relu', kernelInitializer: 'heNormal' }).apply(flat) as tf.SymbolicTensor;
    }
  }
  let head = embedding;
  if (config.dropout > 0 && !forInference) head = tf.layers.dropout({ name: 'dropout', rate: config.dropout }).apply(head) as tf.SymbolicTensor;
  const logits = tf.layers.dense({ name: 'logits', units: numClasses }).apply(head) as tf.SymbolicTensor;
  return tf.model({ inputs: input, outputs: [logits, embedding], name: 'clew-faces' });
}

/**
 * Makes a training graph's first convolution (no bias, linear) run as plain `tf.conv2d`.
 * tfjs-layers runs every convolution through the fused op, whose gradient computes the input's
 * gradient eagerly along with the filter's. For the first layer the input is the batch of crops,
 * so that gradient, a full-resolution transposed convolution costing about 18 % of a training
 * step on wasm, was computed and thrown away; `tf.conv2d`'s gradient computes only what the tape
 * asks for. The forward pass and the filter's gradient are the same kernels, so training gives
 * the same weights bit for bit (tests/vision/model-train.test.ts).
 */
function convolvePlainly(conv: ReturnType<typeof tf.layers.conv2d>, stride: number): void {
  conv.call = (inputs) =>
    tf.tidy(() => {
      const x = Array.isArray(inputs) ? inputs[0]! : inputs;
      const kernel = conv.trainableWeights[0]!.read() as tf.Tensor4D;
      return tf.conv2d(x as tf.Tensor4D, kernel, stride, 'same');
    });
}

/** An inference copy of a trained net: batch norms folded into their convolutions. */
export function foldForInference(trained: tf.LayersModel, config: NetConfig, numClasses: number): tf.LayersModel {
  const inference = buildNet(config, numClasses, true);
  tf.tidy(() => {
    // Every convolution of the inference graph (a residual block has two or three), by name.
    const convs = inference.layers.map((l) => l.name).filter((n) => n.startsWith('conv'));
    convs.forEach((name) => {
      const conv = trained.getLayer(name);
      const [kernel, maybeBias] = conv.getWeights();
      if (!config.batchNorm) {
        inference.getLayer(name).setWeights([kernel!, maybeBias!]);
        return;
      }
      const bnLayer = trained.getLayer(`bn${name.slice('conv'.length)}`);
      const [gamma, beta, mean, variance] = bnLayer.getWeights();
      const epsilon = (bnLayer.getConfig() as { epsilon?: number }).epsilon ?? 1e-3;
      const scale = tf.div(gamma!, tf.sqrt(tf.add(variance!, epsilon)));
      inference.getLayer(name).setWeights([tf.mul(kernel!, scale), tf.sub(beta!, tf.mul(mean!, scale))]);
    });
    inference.getLayer('logits').setWeights(trained.getLayer('logits').getWeights());
    if (config.head === 'dense') {
      const weights = trained.getLayer('embedding').getWeights();
      if (!config.batchNorm) {
        inference.getLayer('embedding').setWeights(weights);
      } else {
        const bnLayer = trained.getLayer('bn_embedding');
        const [gamma, beta, mean, variance] = bnLayer.getWeights();
        const epsilon = (bnLayer.getConfig() as { epsilon?: number }).epsilon ?? 1e-3;
        const scale = tf.div(gamma!, tf.sqrt(tf.add(variance!, epsilon)));
        inference.getLayer('embedding').setWeights([tf.mul(weights[0]!, scale), tf.sub(beta!, tf.mul(mean!, scale))]);
      }
    }
  });
  return inference;
}
