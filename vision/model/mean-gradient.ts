/**
 * A leaner gradient for Mean, registered for every backend. Batch normalisation in training takes
 * its statistics with `tf.moments`, two means over nearly the whole activation, and tfjs-core's
 * Mean gradient builds a full-size tensor of ones in JavaScript, multiplies the incoming gradient
 * by it and divides the product: two full-size passes and a full-size copy into the backend, per
 * mean, per step. This one divides the (small) incoming gradient first and spreads it with one
 * broadcasting multiply by ones the backend fills itself. Each element is dy·1/n either way, and
 * multiplying by one is exact, so the gradients are the same bit for bit (a test compares them
 * with the original's).
 */
import * as tf from '@tensorflow/tfjs';
import type { GradConfig, NamedAttrMap, Tensor } from '@tensorflow/tfjs';

export const leanMeanGradient: GradConfig = {
  kernelName: 'Mean',
  inputsToSave: ['x'],
  gradFunc: (dy: Tensor | Tensor[], saved: Tensor[], attrs: NamedAttrMap) => {
    const [x] = saved as [Tensor];
    const { axis } = attrs as unknown as { axis: number | number[] };
    const axes = tf.util.parseAxisParam(axis, x.shape);
    const reduceSize = axes.reduce((n, a) => n * x.shape[a]!, 1);
    return {
      x: () => {
        const expanded = x.shape.map((d, a) => (axes.includes(a) ? 1 : d));
        const share = tf.div(tf.reshape(dy as Tensor, expanded), reduceSize);
        return tf.mul(share, tf.fill(x.shape, 1, 'float32'));
      },
    };
  },
};

let registered = false;

/** Installs the lean gradient (once). */
export function registerLeanMeanGradient(): void {
  if (registered) return;
  if (!tf.getGradient('Mean')) throw new Error('tfjs has no Mean gradient to improve on');
  tf.registerGradient(leanMeanGradient);
  registered = true;
}
