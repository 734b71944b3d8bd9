/**
 * Worker thread body for `renderDataset`: renders the crop indices it is sent and posts the
 * pixels back (transferred, not copied).
 */
import { parentPort } from 'node:worker_threads';
import { renderSample, type DatasetSpec } from './dataset.js';

interface Job { spec: DatasetSpec; indices: number[]; classes: number[] }

if (!parentPort) throw new Error('render-worker.ts must run in a worker thread');
const port = parentPort;
port.on('message', (job: Job) => {
  try {
    const out = job.indices.map((index, k) => {
      const s = renderSample(job.spec, index, job.classes[k]!);
      return { index, cls: s.cls, set: s.set, pixels: s.pixels };
    });
    port.postMessage({ ok: true, out }, out.map((o) => o.pixels.buffer as ArrayBuffer));
  } catch (error) {
    port.postMessage({ ok: false, error: error instanceof Error ? error.stack ?? error.message : String(error) });
  }
});
