/**
 * A leaner gradient for FusedBatchNorm (batch normalisation), registered for every backend.
 * tfjs-core's own builds a full-size `tile` of the inverse deviation and sums over the batch and
 * image axes with reductions that the wasm backend runs by transposing the whole tensor first.
 * This one is the same mathematics with broadcasting, and channel sums as one matrix product
 * (ones·X). For anything but per-channel statistics over the last axis it defers to the
 * original. Checked against the original and against plain ops in the tests.
 */
import * as tf from '@tensorflow/tfjs';
import type { GradConfig, NamedAttrMap, Tensor } from '@tensorflow/tfjs';

let original: GradConfig | undefined;

function channelSum(t: Tensor, channels: number): Tensor {
  const rows = t.size / channels;
  return tf.reshape(tf.matMul(tf.ones([1, rows]), tf.reshape(t, [rows, channels])), [channels]);
}

const lean: GradConfig = {
  kernelName: 'FusedBatchNorm',
  inputsToSave: ['x', 'mean', 'variance', 'scale'],
  gradFunc: (dy: Tensor | Tensor[], saved: Tensor[], attrs: NamedAttrMap) => {
    const [x, mean, variance, scale] = saved as [Tensor, Tensor, Tensor, Tensor | undefined];
    const grad = dy as Tensor;
    const channels = x.shape[x.rank - 1]!;
    const perChannel = mean.rank === 1 && mean.shape[0] === channels && variance.rank === 1 && (!scale || scale.rank === 1);
    if (!perChannel) return original!.gradFunc(dy, saved, attrs);
    const eps = (attrs as { varianceEpsilon: number }).varianceEpsilon;
    const rstd = tf.rsqrt(tf.add(variance, eps));
    const gamma = scale ?? tf.onesLike(rstd);
    const gammaRstd = tf.mul(gamma, rstd);
    const dyCentred = () => channelSum(tf.mul(grad, tf.sub(x, mean)), channels);
    const out: Record<string, () => Tensor> = {
      x: () => tf.mul(grad, gammaRstd),
      mean: () => tf.neg(tf.mul(channelSum(grad, channels), gammaRstd)),
      variance: () => tf.mul(dyCentred(), tf.mul(gamma, tf.mul(-0.5, tf.pow(rstd, 3)))),
      offset: () => channelSum(grad, channels),
    };
    if (scale) out.scale = () => tf.mul(dyCentred(), rstd);
    return out;
  },
};

/** Installs the lean gradient (once). */
export function registerLeanBatchNormGradient(): void {
  if (original) return;
  original = tf.getGradient('FusedBatchNorm');
  if (!original) throw new Error('tfjs has no FusedBatchNorm gradient to improve on');
  tf.registerGradient(lean);
}
