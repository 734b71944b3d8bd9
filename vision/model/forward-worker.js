// @ts-check
/**
 * A reading thread of the forward pool (forward-pool.ts): tfjs on wasm, copies of the nets the
 * main thread shares, and a loop that reads its share of each pass from shared memory.
 * Passes are signalled through the control array (Atomics.waitAsync, so messages that share or
 * forget nets are handled between passes).
 *
 * Plain JavaScript (type-checked by `tsc` through its JSDoc) and only the parts of TensorFlow.js a
 * forward pass needs (tfjs-core, tfjs-layers, the wasm backend), because each thread holds its
 * own copy of whatever it loads: written in TypeScript it ran under tsx's loader and loaded the
 * whole `@tensorflow/tfjs`, about 100 MB resident a thread; so it is about 40–55 MB
 * (docs/notes/vision-model.md, "Lean reading threads"). The numbers are the main thread's, bit for
 * bit: the same kernels of the same backend, on the main net's float32 weights as they are.
 */
import * as tf from '@tensorflow/tfjs-core';
import * as tfl from '@tensorflow/tfjs-layers';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { claimChunk, CONTROL, MAX_OUTPUTS } from './forward-protocol.js';
import { netForward } from './net-forward.js';
import { wasmBinaryDir, withoutRethrowingHandlers } from './wasm-start.js';

/** @typedef {import('./forward-pool.js').ForwardWorkerInit} ForwardWorkerInit */
/** @typedef {import('./forward-pool.js').ToWorker} ToWorker */
/** @typedef {import('./forward-pool.js').FromWorker} FromWorker */
/** @typedef {(input: Float32Array, images: number) => { logits: Float32Array; embeddings: Float32Array }} Forward */

const init = /** @type {ForwardWorkerInit} */ (workerData);
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const control = new Int32Array(init.control);
const per = init.size * init.size * 3;
const input = new Float32Array(init.data, 0, init.capacity * per);
const output = new Float32Array(init.data, init.capacity * per * 4, init.capacity * MAX_OUTPUTS);
/** @type {Map<number, { net: tfl.LayersModel; forward: Forward }>} */
const nets = new Map();

/** The wasm backend, as `initBackend('wasm')` starts it on the main thread (backend.ts). */
async function startWasm() {
  setWasmPaths(wasmBinaryDir());
  if (!(await withoutRethrowingHandlers(() => tf.setBackend('wasm')))) throw new Error('the wasm backend failed to initialise');
}

const ready = startWasm();
ready.catch(() => undefined); // reported to the main thread when it shares a net

/**
 * The classifier's architecture from its model.json (the weights come from the main thread).
 * @returns {Promise<tfl.LayersModel>}
 */
async function architecture() {
  const jsonFile = path.join(init.modelDir, 'model.json');
  /** @type {{ modelTopology?: import('@tensorflow/tfjs-core').io.ModelJSON['modelTopology'] }} */
  let json;
  try {
    json = JSON.parse(await readFile(jsonFile, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the dice model ${jsonFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!json.modelTopology) throw new Error(`${jsonFile} is not a tfjs layers model`);
  return tfl.models.modelFromJSON({ modelTopology: json.modelTopology });
}

port.on('message', (/** @type {ToWorker} */ m) => {
  if (m.type === 'memory') {
    port.postMessage(/** @type {FromWorker} */ ({ type: 'memory', id: m.id, tensors: tf.memory().numTensors }));
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
      const net = await architecture();
      const tensors = m.weights.map((w) => tf.tensor(w.values, w.shape));
      try {
        net.setWeights(tensors);
      } finally {
        tf.dispose(tensors);
      }
      nets.get(m.id)?.net.dispose();
      nets.set(m.id, { net, forward: netForward(net, init.size) });
      port.postMessage(/** @type {FromWorker} */ ({ type: 'shared', id: m.id }));
    } catch (error) {
      port.postMessage(/** @type {FromWorker} */ ({ type: 'failed', id: m.id, message: error instanceof Error ? error.message : String(error) }));
    }
  })();
});

/**
 * Chunk `k` of the pass in shared memory through its net: logits then embeddings at its first image's outputs.
 * @param {number} k
 */
function readChunk(k) {
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
const waitAsync = /** @type {{ waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: Promise<unknown> | string } }} */ (/** @type {unknown} */ (Atomics)).waitAsync;

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
