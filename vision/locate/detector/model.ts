/**
 * The die detector network: a small fully-convolutional encoder–decoder (separable convolutions,
 * about 16 k weights) that maps a quarter-size frame to a grid of die-centre heat, centre offset
 * and log box size per cell (see targets.ts). Built in code; only the weights are stored.
 */
import * as tf from '@tensorflow/tfjs';
import type { RgbImage } from '../../types.js';
import { OUTPUT_CHANNELS, OUTPUT_STRIDE } from './targets.js';

/** The encoder downsamples 4 times by 2: inputs are padded to a multiple of this. */
export const INPUT_MULTIPLE = 16;

export function buildDetector(seed = 1): tf.LayersModel {
  let n = 0;
  const init = () => tf.initializers.heNormal({ seed: seed * 1000 + n++ });
  const sep = (x: tf.SymbolicTensor, filters: number, strides: number, name: string) =>
    tf.layers
      .separableConv2d({
        name,
        filters,
        kernelSize: 3,
        strides,
        padding: 'same',
        activation: 'relu',
        depthwiseInitializer: init(),
        pointwiseInitializer: init(),
      })
      .apply(x) as tf.SymbolicTensor;
  const up = (x: tf.SymbolicTensor, skip: tf.SymbolicTensor, name: string) =>
    tf.layers.concatenate({ name: `${name}_cat` }).apply([tf.layers.upSampling2d({ size: [2, 2], name: `${name}_up` }).apply(x) as tf.SymbolicTensor, skip]) as tf.SymbolicTensor;

  const input = tf.input({ shape: [null, null, 3], name: 'frame' });
  const s2 = tf.layers
    .conv2d({ name: 'stem', filters: 16, kernelSize: 3, strides: 2, padding: 'same', activation: 'relu', kernelInitializer: init() })
    .apply(input) as tf.SymbolicTensor;
  const s4 = sep(s2, 24, 2, 'down4');
  const s8 = sep(s4, 32, 2, 'down8');
  let s16 = sep(s8, 48, 2, 'down16');
  s16 = sep(s16, 48, 1, 'mid1');
  s16 = sep(s16, 48, 1, 'mid2');
  let u = sep(up(s16, s8, 'u8'), 32, 1, 'dec8');
  u = sep(up(u, s4, 'u4'), 24, 1, 'dec4');
  u = sep(up(u, s2, 'u2'), 16, 1, 'dec2');
  const out = tf.layers
    .conv2d({
      name: 'head',
      filters: OUTPUT_CHANNELS,
      kernelSize: 1,
      padding: 'same',
      kernelInitializer: tf.initializers.glorotNormal({ seed: seed * 1000 + n++ }),
      // Start with little heat everywhere (focal-loss practice): sigmoid(-4) ≈ 0.02.
      biasInitializer: tf.initializers.constant({ value: 0 }),
    })
    .apply(u) as tf.SymbolicTensor;
  const model = tf.model({ inputs: input, outputs: out, name: 'die_detector' });
  const head = model.getLayer('head');
  const b = new Float32Array(OUTPUT_CHANNELS);
  b[0] = -4;
  b[3] = Math.log(12);
  b[4] = Math.log(12);
  tf.tidy(() => head.setWeights([head.getWeights()[0]!, tf.tensor1d(b)]));
  return model;
}

/** Input tensor [1, H', W', 3] in [-1, 1], padded (edge pixels repeated) to a multiple of 16. */
export function toInput(image: RgbImage): tf.Tensor4D {
  const W = Math.ceil(image.width / INPUT_MULTIPLE) * INPUT_MULTIPLE;
  const H = Math.ceil(image.height / INPUT_MULTIPLE) * INPUT_MULTIPLE;
  const data = new Float32Array(W * H * 3);
  const src = image.data;
  for (let y = 0; y < H; y++) {
    const sy = Math.min(image.height - 1, y);
    for (let x = 0; x < W; x++) {
      const s = (sy * image.width + Math.min(image.width - 1, x)) * 3;
      const d = (y * W + x) * 3;
      data[d] = src[s]! / 127.5 - 1;
      data[d + 1] = src[s + 1]! / 127.5 - 1;
      data[d + 2] = src[s + 2]! / 127.5 - 1;
    }
  }
  return tf.tensor4d(data, [1, H, W, 3]);
}

/** Run the network on one image; the raw output grid (channels last) and its size. */
export function runDetector(model: tf.LayersModel, image: RgbImage): { out: Float32Array; gw: number; gh: number } {
  const result = tf.tidy(() => {
    const x = toInput(image);
    return model.predict(x) as tf.Tensor4D;
  });
  const [, gh, gw] = result.shape;
  const out = result.dataSync() as Float32Array;
  result.dispose();
  // Cells past the image (the padding) are dropped by the caller's box clipping; keep the grid.
  return { out, gw: gw!, gh: gh! };
}

export { OUTPUT_STRIDE };
