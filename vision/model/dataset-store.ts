/**
 * Renders datasets in parallel worker threads and caches them on disk, so a training run (or
 * the evaluation) that asks again for the same seed, split, size and renderer source reads the
 * crops back instead of re-rendering (rendering costs tens of ms per crop; training is cheaper).
 * The cache key includes a hash of the renderer's source: a changed renderer renders afresh.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, appendFileSync, openSync, closeSync, readSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTsWorker } from './ts-worker.js';
import { DICE_SET_IDS, type DiceSetId } from '../../shared/dice.js';
import { CROP_PIXELS, classSchedule, renderSample, type DatasetSpec } from './dataset.js';

export interface CropSet {
  count: number;
  /** Class index (FACE_CLASSES) per crop. */
  classes: Uint8Array;
  /** Dice set index (DICE_SET_IDS) per crop: the set the die was drawn from. */
  sets: Uint8Array;
  /** count × 64 × 64 × 3 RGB bytes. */
  pixels: Uint8Array;
}

const RECORD = 2 + CROP_PIXELS;

/**
 * An empty crop set whose arrays live in shared memory, so training worker threads read the
 * crops without a copy (a 100,000-crop set is 1.2 GB).
 */
export function allocCropSet(count: number): CropSet {
  const shared = (n: number) => new Uint8Array(new SharedArrayBuffer(Math.max(1, n)), 0, n);
  return { count, classes: shared(count), sets: shared(count), pixels: shared(count * CROP_PIXELS) };
}
const here = path.dirname(fileURLToPath(import.meta.url));
const visionDir = path.resolve(here, '..');

/** Hash of every source file the renderer draws on (synth, face art, image helpers, dice data). */
export function rendererHash(): string {
  const h = createHash('sha256');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|json|svg)$/.test(name)) files.push(full);
    }
  };
  for (const sub of ['synth', 'faces', 'image']) {
    const dir = path.join(visionDir, sub);
    if (existsSync(dir)) walk(dir);
  }
  files.push(path.resolve(visionDir, '../shared/dice.ts'), path.resolve(visionDir, '../shared/rng.ts'));
  for (const f of files) h.update(path.relative(visionDir, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex').slice(0, 16);
}

export function datasetKey(spec: DatasetSpec, renderer = rendererHash()): string {
  const w = spec.classWeights ? JSON.stringify(Object.entries(spec.classWeights).sort()) : '';
  // Knobs join the key only when given, so the keys of existing caches stay valid.
  const parts: unknown[] = [spec.seed, spec.split, spec.difficulty, w, renderer];
  if (spec.knobs) parts.push(Object.entries(spec.knobs).sort(([a], [b]) => a.localeCompare(b)));
  const id = createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 12);
  return `${spec.split}-${id}`;
}

export interface RenderOptions {
  cacheDir: string;
  /** Use this label instead of the renderer's source hash in the cache key (experiments only). */
  pinRenderer?: string;
  threads?: number;
  onProgress?: (done: number, total: number) => void;
}

function readCached(file: string, want: number): { set: CropSet; have: number } {
  const set = allocCropSet(want);
  if (!existsSync(file)) return { set, have: 0 };
  const have = Math.min(want, Math.floor(statSync(file).size / RECORD));
  const fd = openSync(file, 'r');
  try {
    const rec = new Uint8Array(RECORD);
    for (let i = 0; i < have; i++) {
      readSync(fd, rec, 0, RECORD, i * RECORD);
      set.classes[i] = rec[0]!;
      set.sets[i] = rec[1]!;
      set.pixels.set(rec.subarray(2), i * CROP_PIXELS);
    }
  } finally {
    closeSync(fd);
  }
  return { set, have };
}

/**
 * The first `spec.count` crops of a dataset: from the cache where already rendered (a larger
 * cached set serves a smaller request), the rest rendered by `threads` workers and appended.
 */
export async function loadOrRenderDataset(spec: DatasetSpec, options: RenderOptions): Promise<CropSet> {
  mkdirSync(options.cacheDir, { recursive: true });
  const renderer = options.pinRenderer ?? rendererHash();
  const key = datasetKey(spec, renderer);
  // Two processes appending to one cache file would interleave their records: one at a time.
  const release = await lockFile(path.join(options.cacheDir, `${key}.lock`));
  try {
    return await loadOrRenderLocked(spec, options, renderer, key);
  } finally {
    release();
  }
}

/** Takes `lock` (created exclusively), waiting while another process holds it; a lock whose process is gone is taken over. */
async function lockFile(lock: string): Promise<() => void> {
  for (let waited = 0; ; waited++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lock, 'utf8'));
      if (!processAlive(owner)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (waited % 60 === 0) process.stderr.write(`waiting for process ${owner} to finish rendering (${lock})\n`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function loadOrRenderLocked(spec: DatasetSpec, options: RenderOptions, renderer: string, key: string): Promise<CropSet> {
  const file = path.join(options.cacheDir, `${key}.bin`);
  writeFileSync(path.join(options.cacheDir, `${key}.json`), JSON.stringify({ ...spec, count: undefined, renderer }, null, 2));
  const { set, have } = readCached(file, spec.count);
  const schedule = classSchedule(spec);
  if (have >= spec.count) return set;
  const threads = Math.max(1, options.threads ?? os.availableParallelism());
  const todo = Array.from({ length: spec.count - have }, (_, k) => have + k);
  let next = 0;
  let flushed = have;
  const ready = new Map<number, { cls: number; set: DiceSetId; pixels: Uint8Array }>();
  const flush = () => {
    const chunks: Uint8Array[] = [];
    while (ready.has(flushed)) {
      const r = ready.get(flushed)!;
      ready.delete(flushed);
      const rec = new Uint8Array(RECORD);
      rec[0] = r.cls;
      rec[1] = DICE_SET_IDS.indexOf(r.set);
      rec.set(r.pixels, 2);
      chunks.push(rec);
      set.classes[flushed] = r.cls;
      set.sets[flushed] = rec[1]!;
      set.pixels.set(r.pixels, flushed * CROP_PIXELS);
      flushed++;
    }
    if (chunks.length) appendFileSync(file, Buffer.concat(chunks));
    options.onProgress?.(flushed, spec.count);
  };
  const batch = 16;
  const workerUrl = new URL('./render-worker.ts', import.meta.url);
  await Promise.all(
    Array.from({ length: Math.min(threads, todo.length) }, async () => {
      const worker = startTsWorker(workerUrl);
      try {
        for (;;) {
          const indices = todo.slice(next, next + batch);
          next += batch;
          if (indices.length === 0) break;
          type Reply = { ok: boolean; error?: string; out?: { index: number; cls: number; set: DiceSetId; pixels: Uint8Array }[] };
          const reply = await new Promise<Reply>((resolve, reject) => {
            const onError = (error: Error) => { worker.off('message', onMessage); reject(error); };
            const onMessage = (message: Reply) => { worker.off('error', onError); resolve(message); };
            worker.once('message', onMessage);
            worker.once('error', onError);
            worker.postMessage({ spec, indices, classes: indices.map((i) => schedule[i]!) });
          });
          if (!reply.ok) throw new Error(`rendering crops ${indices[0]}–${indices.at(-1)} failed: ${reply.error}`);
          for (const o of reply.out!) ready.set(o.index, o);
          flush();
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  if (flushed !== spec.count) throw new Error(`dataset ${key}: rendered ${flushed} of ${spec.count} crops`);
  return set;
}

/** Renders a small dataset in this thread (tests, quick checks). */
export function renderDatasetInline(spec: DatasetSpec): CropSet {
  const schedule = classSchedule(spec);
  const set = allocCropSet(spec.count);
  for (let i = 0; i < spec.count; i++) {
    const s = renderSample(spec, i, schedule[i]!);
    set.classes[i] = s.cls;
    set.sets[i] = DICE_SET_IDS.indexOf(s.set);
    set.pixels.set(s.pixels, i * CROP_PIXELS);
  }
  return set;
}
