/**
 * The net's forward pass on more than one core. tfjs's wasm backend runs on one thread under Node
 * (its threaded build is off there), so a frame's dice went through the net on one core while the
 * others idled. The pool keeps a copy of each shared net in `threads − 1` worker threads. A
 * forward pass puts its images in shared memory, cut into a few chunks; this thread and the
 * workers claim chunks one at a time from a shared counter until none is left, and this thread
 * waits (Atomics.wait) only for the chunks a worker claimed, so reading stays synchronous for its
 * callers. A worker that wakes late (an idle core of a virtual machine can take milliseconds)
 * simply claims fewer chunks: splitting the batch in fixed halves instead left this thread
 * waiting for the late half in about half the passes of a frame.
 *
 * The same numbers, bit for bit: each image's outputs do not depend on the other images of its
 * batch (XNNPACK's convolutions and matrix products compute each output row by itself, with the
 * same order of sums whatever the batch), and each worker's copy holds the main net's float32
 * weights as they are. tests/vision/model-forward-pool.test.ts checks it.
 *
 * Failure loses nothing: a worker that does not start or cannot take a net is left out; a chunk a
 * worker claimed but did not finish within WORKER_TIMEOUT_MS is read here, and the pool stops
 * sharing (the thread may still write into the shared memory later).
 */
import type * as tf from '@tensorflow/tfjs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { claimChunk, claimWord, CONTROL, MAX_OUTPUTS } from './forward-protocol.js';
import { netForward, type Forward, type ForwardOutput } from './views.js';


/** A task given to `ForwardPool.meanwhile`. */
export interface MeanwhileHandle {
  finish(): void;
  cancel(): void;
}

/** What a worker is started with (worker_threads' workerData). */
export interface ForwardWorkerInit {
  modelDir: string;
  size: number;
  /** Images a pass holds at most. */
  capacity: number;
  control: SharedArrayBuffer;
  /** `capacity` images in, then `capacity` × MAX_OUTPUTS outputs. */
  data: SharedArrayBuffer;
}

/** Messages between this thread and a worker, besides the shared memory. */
export type ToWorker =
  | { type: 'share'; id: number; weights: { shape: number[]; values: Float32Array }[] }
  | { type: 'forget'; id: number }
  | { type: 'memory'; id: number };
export type FromWorker = { type: 'shared'; id: number } | { type: 'failed'; id: number; message: string } | { type: 'memory'; id: number; tensors: number };

/** How long a pass waits for a chunk a worker claimed before reading it here. */
const WORKER_TIMEOUT_MS = 10_000;

/** Images a chunk holds at least: a pass of the net costs about 0.4 ms besides 0.3 ms an image here. */
const MIN_CHUNK = 4;

interface PoolWorker {
  worker: Worker;
  /** Net ids the worker holds a copy of. */
  nets: Set<number>;
  alive: boolean;
}

export interface ForwardPoolOptions {
  modelDir: string;
  /** Crop size (the net's input is size × size × 3). */
  size: number;
  /** Threads in all, this one included (≥ 2 to start any worker). */
  threads: number;
  /** Images a shared pass holds at most (default 128; the classifier's passes hold 32); larger passes are read here. */
  capacity?: number;
  /** Tests: how long a pass waits for a worker's chunk (default WORKER_TIMEOUT_MS), and another worker module. */
  timeoutMs?: number;
  workerUrl?: URL;
}

export interface ForwardPool {
  /** Threads that read now, this one included. */
  readonly threads: number;
  /**
   * Copies `net` (its current weights) into every worker; until then, and after a failure, it is
   * read here only. Resolves when every worker holds it or was left out; never rejects, unless the
   * pool was disposed first.
   */
  share(net: tf.LayersModel): Promise<void>;
  /** Drops the workers' copies of `net` (before it is disposed). */
  forget(net: tf.LayersModel): void;
  /** Live tensors in each working thread (tf.memory().numTensors there): for leak checks. */
  workerTensors(): Promise<number[]>;
  /** `net`'s forward pass, shared among the threads when they all hold it. */
  forward(net: tf.LayersModel): Forward;
  /**
   * Work of this thread's own that need not wait for the net (a frame's dice colours): done at the
   * next shared pass, after the workers are woken and before this thread claims a chunk, so the
   * workers claim the chunks this thread would have read meanwhile, instead of this thread doing
   * it after the pass and the workers idling. `finish` does it now where no shared pass has yet
   * (one thread, a small batch), and throws what it threw: call it before using what `task`
   * makes. `cancel` drops it where it is not done yet (its owner failed: left queued, it would be
   * done in another read's pass, holding what it refers to until then).
   */
  meanwhile(task: () => void): MeanwhileHandle;
  dispose(): void;
}

/**
 * The companion's reading threads when its config says `"auto"` (the default): two where the
 * machine has two cores or more. A further thread holds about 40–55 MB more resident memory (the
 * lean worker, forward-worker.js) and takes up to a fifth off a 25-dice frame on two cores here;
 * a third thread would take less again for as much memory (docs/notes/vision-model.md, "Lean
 * reading threads").
 */
export function autoReaderThreads(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(2, cores));
}

/**
 * The threads the dice reader uses by default: CLEW_READER_THREADS when set ('cores': the
 * machine's cores up to 4; 'auto': as the companion's `"auto"`), else 1. One by default because
 * the tools (`npm run dice`, eval, bench) mostly read a few pictures and exit, and a thread starts
 * in about a second: reads before then run on one thread anyway.
 */
export function defaultReaderThreads(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.CLEW_READER_THREADS;
  if (raw === undefined || raw === '') return 1;
  if (raw === 'cores') return Math.min(4, availableParallelism());
  if (raw === 'auto') return autoReaderThreads();
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`CLEW_READER_THREADS must be a whole number from 1 to 64, "auto" or "cores", got "${raw}"`);
  return n;
}

/** Chunks of a pass of `images` on `threads` threads: about two a thread, at least MIN_CHUNK images each. */
export function chunking(images: number, threads: number): { size: number; chunks: number } {
  const size = Math.max(MIN_CHUNK, Math.ceil(images / (2 * threads)));
  return { size, chunks: Math.ceil(images / size) };
}

/** Starts `threads − 1` workers, each with tfjs on wasm. */
export async function startForwardPool(options: ForwardPoolOptions): Promise<ForwardPool> {
  const { modelDir, size } = options;
  const capacity = options.capacity ?? 128;
  const timeoutMs = options.timeoutMs ?? WORKER_TIMEOUT_MS;
  const per = size * size * 3;
  const controlBuffer = new SharedArrayBuffer(CONTROL.slots * 4);
  const data = new SharedArrayBuffer(capacity * (per + MAX_OUTPUTS) * 4);
  const control = new Int32Array(controlBuffer);
  const input = new Float32Array(data, 0, capacity * per);
  const output = new Float32Array(data, capacity * per * 4, capacity * MAX_OUTPUTS);
  const workers: PoolWorker[] = [];
  const ids = new WeakMap<tf.LayersModel, number>();
  let nextId = 1;
  let pass = 0;
  let disposed = false;
  /** Set when a worker did not finish a chunk in time: its thread may still write into `data`. */
  let broken = false;
  /** Replies awaited, by worker and net id. */
  const waiting = new Map<string, { resolve: (m: FromWorker) => void; reject: (e: Error) => void }>();

  const leaveOut = (w: PoolWorker, why: string) => {
    if (!w.alive) return;
    w.alive = false;
    const index = workers.indexOf(w);
    for (const [key, p] of waiting) if (key.startsWith(`${index}:`)) p.reject(new Error(why));
    void w.worker.terminate();
    if (!disposed) process.emitWarning(`dice reader: a reading thread was left out (${why}); the others read its share`);
  };

  for (let k = 0; k < options.threads - 1; k++) {
    const init: ForwardWorkerInit = { modelDir, size, capacity, control: controlBuffer, data };
    let worker: Worker;
    try {
      // No flags of its own: this process's `--import tsx` would load tsx's loader into the
      // thread for nothing (about 35 MB), and V8's heap flags, which hold for it anyway, a worker
      // refuses.
      worker = new Worker(options.workerUrl ?? new URL('./forward-worker.js', import.meta.url), { workerData: init, execArgv: [] });
    } catch (error) {
      process.emitWarning(`dice reader: a reading thread did not start (${(error as Error).message}); reading on fewer threads`);
      continue;
    }
    const w: PoolWorker = { worker, nets: new Set(), alive: true };
    const index = workers.length;
    w.worker.on('message', (m: FromWorker) => {
      const p = waiting.get(`${index}:${m.id}`);
      if (!p) return;
      waiting.delete(`${index}:${m.id}`);
      if (m.type === 'failed') p.reject(new Error(m.message));
      else p.resolve(m);
    });
    w.worker.on('error', (e) => leaveOut(w, e.message));
    w.worker.on('exit', (code) => leaveOut(w, `exited with code ${code}`));
    w.worker.unref();
    workers.push(w);
  }

  /** Tasks for this thread's next shared pass (`meanwhile`). */
  let tasks: Meanwhile[] = [];
  const runTasks = () => {
    const now = tasks;
    tasks = [];
    for (const t of now) t.run();
  };

  /** Waits until a worker has finished chunk `k` of pass `p`; false when it did not in time. */
  const finished = (k: number, p: number): boolean => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const done = Atomics.load(control, CONTROL.done + k);
      if (done === p) return Atomics.load(control, CONTROL.failed + k) === 0;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(control, CONTROL.done + k, done, left);
    }
  };

  const pool: ForwardPool = {
    get threads() {
      return broken || disposed ? 1 : 1 + workers.filter((w) => w.alive && w.nets.size > 0).length;
    },
    async share(net) {
      if (disposed) throw new Error('the forward pool was disposed');
      const outputs = (net.outputs.map((o) => o.shape.at(-1)) as number[]).reduce((a, b) => a + b, 0);
      if (net.outputs.length !== 2 || !(outputs <= MAX_OUTPUTS)) return; // not a classifier's net: read here
      const id = ids.get(net) ?? nextId++;
      ids.set(net, id);
      const weights = net.getWeights().map((t) => ({ shape: t.shape, values: t.dataSync() as Float32Array }));
      await Promise.all(workers.filter((w) => w.alive).map(async (w) => {
        const index = workers.indexOf(w);
        w.worker.ref(); // a share awaited keeps the process alive until the worker answers
        try {
          await new Promise<FromWorker>((resolve, reject) => {
            waiting.set(`${index}:${id}`, { resolve, reject });
            w.worker.postMessage({ type: 'share', id, weights } satisfies ToWorker);
          });
          if (ids.get(net) === id) w.nets.add(id); // not forgotten meanwhile
        } catch (error) {
          leaveOut(w, `could not take the net: ${(error as Error).message}`);
        } finally {
          waiting.delete(`${index}:${id}`);
          w.worker.unref();
        }
      }));
    },
    async workerTensors() {
      const live = workers.filter((w) => w.alive);
      return Promise.all(live.map(async (w) => {
        const index = workers.indexOf(w), id = nextId++;
        w.worker.ref();
        try {
          const reply = await new Promise<FromWorker>((resolve, reject) => {
            waiting.set(`${index}:${id}`, { resolve, reject });
            w.worker.postMessage({ type: 'memory', id } satisfies ToWorker);
          });
          return reply.type === 'memory' ? reply.tensors : NaN;
        } finally {
          waiting.delete(`${index}:${id}`);
          w.worker.unref();
        }
      }));
    },
    forget(net) {
      const id = ids.get(net);
      if (id === undefined) return;
      ids.delete(net);
      for (const w of workers) {
        if (!w.nets.delete(id) || !w.alive) continue;
        w.worker.postMessage({ type: 'forget', id } satisfies ToWorker);
      }
    },
    forward(net) {
      const here = netForward(net, size);
      const [classes, dim] = net.outputs.map((o) => o.shape.at(-1) as number) as [number, number];
      return (images: Float32Array, count: number): ForwardOutput => {
        const id = ids.get(net);
        const live = workers.filter((w) => w.alive);
        const shared = !broken && !disposed && id !== undefined && live.length > 0 && live.every((w) => w.nets.has(id)) && count <= capacity;
        const { size: chunk, chunks } = chunking(count, live.length + 1);
        if (!shared || chunks < 2) return here(images, count);
        input.set(images.subarray(0, count * per));
        Atomics.store(control, CONTROL.net, id);
        Atomics.store(control, CONTROL.images, count);
        Atomics.store(control, CONTROL.chunk, chunk);
        for (let k = 0; k < chunks; k++) Atomics.store(control, CONTROL.done + k, -1); // no stale pass number can match
        pass = (pass + 1) & 0xffff;
        Atomics.store(control, CONTROL.claim, claimWord(pass, chunks, 0));
        Atomics.add(control, CONTROL.wake, 1);
        Atomics.notify(control, CONTROL.wake);
        runTasks();
        const logits = new Float32Array(count * classes);
        const embeddings = new Float32Array(count * dim);
        const mine = new Set<number>();
        const readHere = (k: number) => {
          const from = k * chunk, n = Math.min(chunk, count - from);
          const out = here(images.subarray(from * per, (from + n) * per), n);
          logits.set(out.logits, from * classes);
          embeddings.set(out.embeddings, from * dim);
        };
        for (let c = claimChunk(control); c; c = claimChunk(control)) {
          mine.add(c.chunk);
          readHere(c.chunk);
        }
        for (let k = 0; k < chunks; k++) {
          if (mine.has(k)) continue;
          const from = k * chunk, n = Math.min(chunk, count - from);
          if (!broken && finished(k, pass)) {
            // A worker writes a chunk's logits then its embeddings at the chunk's first image.
            const at = from * MAX_OUTPUTS;
            logits.set(output.subarray(at, at + n * classes), from * classes);
            embeddings.set(output.subarray(at + n * classes, at + n * (classes + dim)), from * dim);
            continue;
          }
          if (!broken) {
            broken = true;
            process.emitWarning(`dice reader: a reading thread did not finish its share within ${timeoutMs} ms or failed; reading on the main thread only from now on`);
          }
          readHere(k);
        }
        return { logits, embeddings };
      };
    },
    meanwhile(task) {
      const t = new Meanwhile(task);
      tasks.push(t);
      return t.handle(() => (tasks = tasks.filter((other) => other !== t)));
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      for (const w of workers) {
        w.alive = false;
        void w.worker.terminate();
      }
      for (const p of waiting.values()) p.reject(new Error('the forward pool was disposed'));
      waiting.clear();
    },
  };
  return pool;
}

/**
 * A task done once, whoever asks first. What it throws is kept for its owner: thrown inside a pass,
 * it would leave the workers' chunks of that pass unread while this thread moved on.
 */
export class Meanwhile {
  private done = false;
  private failure: { error: unknown } | undefined;
  constructor(private readonly task: () => void) {}
  run(): void {
    if (this.done) return;
    this.done = true;
    try {
      this.task();
    } catch (error) {
      this.failure = { error };
    }
  }
  /** Its owner's handle; `leave` takes it out of whatever queue holds it. */
  handle(leave: () => void = () => {}): MeanwhileHandle {
    return {
      finish: () => {
        leave();
        this.run();
        if (this.failure) throw this.failure.error;
      },
      cancel: () => {
        leave();
        this.done = true; // never to be done: its owner failed
      },
    };
  }
}
