/**
 * The forward pool (vision/model/forward-pool.ts): a batch of crops read on two threads gives the
 * same numbers, bit for bit, as on one; adapted nets are shared and forgotten; a pool whose
 * workers cannot work reads everything here; chunks are claimed once each; nothing leaks in the
 * workers either.
 */
import * as tf from '@tensorflow/tfjs';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { initBackend } from '../../vision/model/backend.js';
import { DEFAULT_MODEL_DIR } from '../../vision/model/classifier.js';
import { autoReaderThreads, chunking, defaultReaderThreads, startForwardPool, type ForwardPool } from '../../vision/model/forward-pool.js';
import { CONTROL, claimChunk, claimWord } from '../../vision/model/forward-protocol.js';
import { loadModel } from '../../vision/model/io.js';
import { netForward } from '../../vision/model/views.js';

const SIZE = 64;
const PER = SIZE * SIZE * 3;

function images(seed: string, n: number): Float32Array {
  const rng = createRng(seed);
  return Float32Array.from({ length: n * PER }, () => rng.next() * 4 - 2);
}

describe('chunks of a pass', () => {
  it('about two a thread, at least 4 images each, covering the pass', () => {
    expect(chunking(32, 2)).toEqual({ size: 8, chunks: 4 });
    expect(chunking(27, 2)).toEqual({ size: 7, chunks: 4 });
    expect(chunking(10, 2)).toEqual({ size: 4, chunks: 3 });
    expect(chunking(3, 2)).toEqual({ size: 4, chunks: 1 });
    expect(chunking(32, 4)).toEqual({ size: 4, chunks: 8 });
    for (const [n, t] of [[1, 2], [33, 3], [128, 4], [64, 2]] as const) {
      const { size, chunks } = chunking(n, t);
      expect(size * chunks).toBeGreaterThanOrEqual(n);
      expect(size * (chunks - 1)).toBeLessThan(n);
    }
  });

  it('each chunk is claimed once, in order, with its pass; none after the last', () => {
    const control = new Int32Array(new SharedArrayBuffer(CONTROL.slots * 4));
    Atomics.store(control, CONTROL.claim, claimWord(7, 3, 0));
    expect([claimChunk(control), claimChunk(control), claimChunk(control), claimChunk(control)]).toEqual([
      { chunk: 0, pass: 7 }, { chunk: 1, pass: 7 }, { chunk: 2, pass: 7 }, undefined,
    ]);
    // A new pass starts from its first chunk; pass numbers wrap at 16 bits.
    Atomics.store(control, CONTROL.claim, claimWord(0x1_0008, 2, 0));
    expect(claimChunk(control)).toEqual({ chunk: 0, pass: 8 });
  });
});

describe('threads by default', () => {
  it('the tools read on one, unless CLEW_READER_THREADS says a number, "auto" or "cores" (up to 4); nonsense is refused with the variable named', () => {
    expect(defaultReaderThreads({})).toBe(1);
    expect(defaultReaderThreads({ CLEW_READER_THREADS: '3' })).toBe(3);
    expect(defaultReaderThreads({ CLEW_READER_THREADS: '1' })).toBe(1);
    const cores = defaultReaderThreads({ CLEW_READER_THREADS: 'cores' });
    expect(cores).toBe(Math.min(4, availableParallelism()));
    expect(defaultReaderThreads({ CLEW_READER_THREADS: 'auto' })).toBe(autoReaderThreads());
    for (const bad of ['0', '-2', '1.5', 'two', '65']) expect(() => defaultReaderThreads({ CLEW_READER_THREADS: bad })).toThrow(/CLEW_READER_THREADS must be a whole number from 1 to 64, "auto" or "cores", got "/);
  });

  it('the companion\'s "auto": two threads where the machine has two cores or more, one on a single core', () => {
    expect(autoReaderThreads(1)).toBe(1);
    expect(autoReaderThreads(2)).toBe(2);
    expect(autoReaderThreads(4)).toBe(2);
    expect(autoReaderThreads(64)).toBe(2);
    expect(autoReaderThreads()).toBe(Math.min(2, availableParallelism()));
  });
});

describe('a pool of two threads with the shipped net', () => {
  let pool: ForwardPool;
  let net: tf.LayersModel;

  beforeAll(async () => {
    await initBackend('wasm');
    net = await loadModel(DEFAULT_MODEL_DIR);
    pool = await startForwardPool({ modelDir: DEFAULT_MODEL_DIR, size: SIZE, threads: 2 });
    expect(pool.threads).toBe(1); // no net shared yet
    await pool.share(net);
    expect(pool.threads).toBe(2);
  });
  afterAll(() => {
    pool?.dispose();
    net?.dispose();
  });

  it('reads a batch as one thread does, bit for bit, whatever the batch size', () => {
    const here = netForward(net, SIZE);
    const shared = pool.forward(net);
    for (const n of [1, 2, 5, 9, 27, 32, 64]) {
      const x = images(`pool:${n}`, n);
      const a = here(x, n), b = shared(x, n);
      expect(b.logits.length).toBe(a.logits.length);
      expect(Buffer.from(b.logits.buffer).equals(Buffer.from(a.logits.buffer))).toBe(true);
      expect(Buffer.from(b.embeddings.buffer).equals(Buffer.from(a.embeddings.buffer))).toBe(true);
    }
  });

  it('a pass on this thread (execute) reads as predict does, bit for bit, under, at and over predict\'s batches of 32', () => {
    const here = netForward(net, SIZE);
    for (const n of [1, 25, 32, 33, 100]) {
      const x = images(`execute:${n}`, n);
      const a = here(x, n);
      const [l, e] = tf.tidy(() => (net.predict(tf.tensor4d(x, [n, SIZE, SIZE, 3])) as tf.Tensor[]).map((t) => t.dataSync() as Float32Array));
      expect(Buffer.from(a.logits.buffer).equals(Buffer.from(l!.buffer))).toBe(true);
      expect(Buffer.from(a.embeddings.buffer).equals(Buffer.from(e!.buffer))).toBe(true);
    }
  });

  it('a batch larger than the shared memory is read here', () => {
    const x = images('pool:big', 130);
    const a = netForward(net, SIZE)(x, 130), b = pool.forward(net)(x, 130);
    expect(Buffer.from(b.logits.buffer).equals(Buffer.from(a.logits.buffer))).toBe(true);
  });

  it('an adapted copy is read with its own weights once shared, and here again once forgotten', async () => {
    const copy = await loadModel(DEFAULT_MODEL_DIR);
    // "Adapted": every weight moved a little, as teaching moves them.
    const moved = copy.getWeights().map((w) => tf.tidy(() => w.mul(1.01)));
    copy.setWeights(moved);
    tf.dispose(moved);
    const x = images('pool:adapted', 32);
    const expected = netForward(copy, SIZE)(x, 32);
    const shipped = netForward(net, SIZE)(x, 32);
    expect(Buffer.from(expected.logits.buffer).equals(Buffer.from(shipped.logits.buffer))).toBe(false);
    await pool.share(copy);
    const got = pool.forward(copy)(x, 32);
    expect(Buffer.from(got.logits.buffer).equals(Buffer.from(expected.logits.buffer))).toBe(true);
    expect(Buffer.from(got.embeddings.buffer).equals(Buffer.from(expected.embeddings.buffer))).toBe(true);
    pool.forget(copy);
    const after = pool.forward(copy)(x, 32);
    expect(Buffer.from(after.logits.buffer).equals(Buffer.from(expected.logits.buffer))).toBe(true);
    copy.dispose();
    // The shipped net is still shared and read right.
    const again = pool.forward(net)(x, 32);
    expect(Buffer.from(again.logits.buffer).equals(Buffer.from(shipped.logits.buffer))).toBe(true);
  });

  it('work given meanwhile is done once, at the next shared pass, and the pass reads as one thread does however long it takes', () => {
    const here = netForward(net, SIZE);
    const x = images('pool:meanwhile', 25);
    const expected = here(x, 25);
    let done = 0;
    const task = pool.meanwhile(() => {
      done++;
      // Long enough for the worker to claim every chunk this thread would have read.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    });
    expect(done).toBe(0);
    const got = pool.forward(net)(x, 25);
    expect(done).toBe(1);
    expect(Buffer.from(got.logits.buffer).equals(Buffer.from(expected.logits.buffer))).toBe(true);
    expect(Buffer.from(got.embeddings.buffer).equals(Buffer.from(expected.embeddings.buffer))).toBe(true);
    task.finish();
    pool.forward(net)(x, 25);
    expect(done).toBe(1);
  });

  it('work given meanwhile waits for its owner where no pass is shared (a batch of one chunk), and what it throws reaches its owner, not the pass', () => {
    let done = 0;
    const task = pool.meanwhile(() => done++);
    pool.forward(net)(images('pool:small', 3), 3);
    expect(done).toBe(0);
    task.finish();
    expect(done).toBe(1);
    const x = images('pool:throws', 25);
    const failing = pool.meanwhile(() => {
      throw new Error('no colours');
    });
    const got = pool.forward(net)(x, 25);
    expect(Buffer.from(got.logits.buffer).equals(Buffer.from(netForward(net, SIZE)(x, 25).logits.buffer))).toBe(true);
    expect(() => failing.finish()).toThrow('no colours');
  });

  it('work given meanwhile and cancelled (its read failed) is never done: not in a later read\'s pass, not when finished', () => {
    let done = 0;
    const task = pool.meanwhile(() => done++);
    task.cancel();
    pool.forward(net)(images('pool:cancelled', 25), 25);
    task.finish();
    expect(done).toBe(0);
  });

  it('1,000 images later, as many tensors here and in the worker as before', async () => {
    const shared = pool.forward(net);
    const x = images('pool:leak', 25);
    shared(x, 25);
    const here = tf.memory().numTensors;
    const there = await pool.workerTensors();
    for (let i = 0; i < 40; i++) shared(x, 25);
    expect(tf.memory().numTensors).toBe(here);
    expect(await pool.workerTensors()).toEqual(there);
  });
});

describe('a pool in the companion\'s process', () => {
  it('starts its reading thread under npm start\'s flags (V8\'s heap flags, tsx\'s loader), which a worker refuses as its own, and reads as one thread does', () => {
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
    const heapFlags = start.match(/--max-[\w-]+=\d+/g) ?? [];
    expect(heapFlags.length).toBeGreaterThan(0);
    const run = spawnSync(process.execPath, [...heapFlags, '--import', 'tsx', 'tests/fixtures/vision/pool-under-start-flags.ts'], { encoding: 'utf8', timeout: 120_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual({ threads: 2, same: true, warnings: [] });
  });
});

describe('a pool whose workers cannot work', () => {
  it('a worker that cannot build the net is left out with a warning, and everything is read here', async () => {
    await initBackend('wasm');
    const net = await loadModel(DEFAULT_MODEL_DIR);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const pool = await startForwardPool({ modelDir: '/no/such/model', size: SIZE, threads: 2 });
    try {
      await pool.share(net);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(pool.threads).toBe(1);
      expect(warnings.join('\n')).toMatch(/a reading thread was left out \(could not take the net: cannot read the dice model \/no\/such\/model\/model\.json/);
      const x = images('pool:alone', 20);
      const a = netForward(net, SIZE)(x, 20), b = pool.forward(net)(x, 20);
      expect(Buffer.from(b.logits.buffer).equals(Buffer.from(a.logits.buffer))).toBe(true);
    } finally {
      process.off('warning', onWarning);
      pool.dispose();
      net.dispose();
    }
  });

  for (const fault of ['fail', 'stuck'] as const) {
    it(`a worker whose chunk ${fault === 'fail' ? 'fails' : 'never finishes'}: that chunk is read here, with a warning, and the pool stops sharing`, async () => {
      await initBackend('wasm');
      const net = await loadModel(DEFAULT_MODEL_DIR);
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.message);
      process.on('warning', onWarning);
      const pool = await startForwardPool({ modelDir: fault, size: SIZE, threads: 2, timeoutMs: 200, workerUrl: new URL('../fixtures/vision/faulty-forward-worker.js', import.meta.url) });
      try {
        await pool.share(net);
        expect(pool.threads).toBe(2);
        const here = netForward(net, SIZE), shared = pool.forward(net);
        // The worker spins, so it claims in the first pass; a few more in case this thread was quicker.
        for (let i = 0; i < 10 && pool.threads === 2; i++) {
          const x = images(`pool:${fault}:${i}`, 64);
          expect(Buffer.from(shared(x, 64).logits.buffer).equals(Buffer.from(here(x, 64).logits.buffer))).toBe(true);
        }
        expect(pool.threads).toBe(1);
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings.join('\n')).toMatch(/a reading thread did not finish its share within 200 ms or failed; reading on the main thread only from now on/);
        // From now on everything is read here, still right.
        const x = images(`pool:${fault}:after`, 32);
        expect(Buffer.from(shared(x, 32).embeddings.buffer).equals(Buffer.from(here(x, 32).embeddings.buffer))).toBe(true);
      } finally {
        process.off('warning', onWarning);
        pool.dispose();
        net.dispose();
      }
    });
  }

  it('a disposed pool reads here and refuses to share', async () => {
    await initBackend('wasm');
    const net = await loadModel(DEFAULT_MODEL_DIR);
    const pool = await startForwardPool({ modelDir: DEFAULT_MODEL_DIR, size: SIZE, threads: 2 });
    pool.dispose();
    await expect(pool.share(net)).rejects.toThrow(/disposed/);
    const x = images('pool:disposed', 8);
    expect(Buffer.from(pool.forward(net)(x, 8).logits.buffer).equals(Buffer.from(netForward(net, SIZE)(x, 8).logits.buffer))).toBe(true);
    net.dispose();
  });
});
