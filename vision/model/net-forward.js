// @ts-check
/**
 * A forward pass of the classifier's net, as the main thread (views.ts) and the reading threads
 * (forward-worker.js) both run it: one function, so the two give the same numbers bit for bit.
 * Plain JavaScript checked by `tsc`, with tfjs-core and tfjs-layers only, because the reading
 * threads run without TypeScript's loader (forward-worker.js says why).
 */
import * as tf from '@tensorflow/tfjs-core';

/**
 * A forward pass of `model` on this thread. Through `execute`, not `predict`: predict cuts its
 * input into batches of 32 with a copy of each (and concatenates the outputs) even when the pass
 * is one batch, which cost 1.5–5 ms a pass of 25–32 crops here and tripled a pass of 100; the
 * same kernels run on the same batch either way, so the outputs are the same bit for bit.
 * @param {import('@tensorflow/tfjs-layers').LayersModel} model
 * @param {number} size
 * @returns {(input: Float32Array, images: number) => { logits: Float32Array; embeddings: Float32Array }}
 */
export function netForward(model, size) {
  const outputs = model.outputs.map((o) => o.name);
  if (outputs.length !== 2) throw new Error(`netForward: the net must have two outputs (logits, embedding), it has ${outputs.length}`);
  return (input, images) => tf.tidy(() => {
    const [l, e] = /** @type {tf.Tensor[]} */ (model.execute(tf.tensor4d(input, [images, size, size, 3]), outputs));
    return { logits: /** @type {Float32Array} */ (/** @type {tf.Tensor} */ (l).dataSync()), embeddings: /** @type {Float32Array} */ (/** @type {tf.Tensor} */ (e).dataSync()) };
  });
}
