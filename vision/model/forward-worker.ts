/**
 * A reading thread of the forward pool (forward-pool.ts): tfjs on wasm, copies of the nets the
 * main thread shares, and a loop that reads its share of each pass from shared memory.
 * Passes are signalled through the control array (Atomics.waitAsync, so messages that share or
 * forget nets are handled between passes).
 */
import * as tf from '@tensorflow/tfjs';
import { parentPort, workerData } from 'node:worker_threads';
import { initBackend } from './backend.js';
import { claimChunk, CONTROL, MAX_OUTPUTS, type ForwardWorkerInit, type FromWorker, type ToWorker } from './forward-pool.js';
import { loadModel } from './io.js';
import { netForward, type Forward } from './views.js';

const init = workerData as ForwardWorkerInit;
const port = parentPort!;
const control = new Int32Array(init.control);
const per = init.size * init.size * 3;
const input = new Float32Array(init.data, 0, init.capacity * per);
const output = new Float32Array(init.data, init.capacity * per * 4, init.capacity * MAX_OUTPUTS);
const nets = new Map<number, { net: tf.LayersModel; forward: Forward }>();

const ready = (async () => {
  const backend = await initBackend('wasm');
  if (backend.name !== 'wasm') throw new Error(`the reading thread needs the wasm backend; it got ${backend.name}`);
})();
ready.catch(() => undefined); // reported to the main thread when it shares a net

port.on('message', (m: ToWorker) => {
  if (m.type === 'memory') {
    port.postMessage({ type: 'memory', id: m.id, tensors: tf.memory().numTensors } satisfies FromWorker);
    return;
  }
  if (m.type === 'forget') {
    nets.get(m.id)?.net.dispose();
    nets.delete(m.id);
    return;
  }
  void (async () => {
    try {
      await ready;
      // The classifier's own architecture, given the main net's weights as they are.
      const net = await loadModel(init.modelDir);
      const tensors = m.weights.map((w) => tf.tensor(w.values, w.shape));
      try {
        net.setWeights(tensors);
      } finally {
        tf.dispose(tensors);
      }
      nets.get(m.id)?.net.dispose();
      nets.set(m.id, { net, forward: netForward(net, init.size) });
      port.postMessage({ type: 'shared', id: m.id } satisfies FromWorker);
    } catch (error) {
      port.postMessage({ type: 'failed', id: m.id, message: error instanceof Error ? error.message : String(error) } satisfies FromWorker);
    }
  })();
});

/** Chunk `k` of the pass in shared memory through its net: logits then embeddings at its first image's outputs. */
function readChunk(k: number): void {
  const images = Atomics.load(control, CONTROL.images), chunk = Atomics.load(control, CONTROL.chunk);
  const entry = nets.get(Atomics.load(control, CONTROL.net));
  const from = k * chunk, n = Math.min(chunk, images - from);
  if (!entry || !(n >= 1 && from + n <= init.capacity)) throw new Error('no such net or chunk');
  // A copy: tfjs reads a typed array over shared memory far more slowly (2.5 ms a pass here).
  const { logits, embeddings } = entry.forward(input.slice(from * per, (from + n) * per), n);
  if ((logits.length + embeddings.length) / n > MAX_OUTPUTS) throw new Error('outputs do not fit');
  output.set(logits, from * MAX_OUTPUTS);
  output.set(embeddings, from * MAX_OUTPUTS + logits.length);
}

/** Atomics.waitAsync: in Node since 16, in TypeScript's lib from ES2024 (this project's is ES2023). */
const waitAsync = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: Promise<unknown> | string } }).waitAsync;

let woken = Atomics.load(control, CONTROL.wake);
for (;;) {
  const wait = waitAsync(control, CONTROL.wake, woken);
  if (wait.async) await wait.value;
  woken = Atomics.load(control, CONTROL.wake);
  for (let c = claimChunk(control); c; c = claimChunk(control)) {
    let failed = 0;
    try {
      readChunk(c.chunk);
    } catch {
      failed = 1;
    }
    Atomics.store(control, CONTROL.failed + c.chunk, failed);
    Atomics.store(control, CONTROL.done + c.chunk, c.pass);
    Atomics.notify(control, CONTROL.done + c.chunk);
  }
}
