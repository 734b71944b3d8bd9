/**
 * Worker threads that run TypeScript modules (rendering and training workers): the worker
 * registers tsx's loader itself, because loader flags of the parent do not reach worker threads
 * on Node 20, then imports the module.
 */
import { Worker } from 'node:worker_threads';

export function startTsWorker(url: URL, workerData?: unknown): Worker {
  const api = import.meta.resolve('tsx/esm/api');
  const source = `(async () => { const { register } = await import(${JSON.stringify(api)}); register(); await import(${JSON.stringify(url.href)}); })()`;
  return new Worker(source, { eval: true, ...(workerData !== undefined ? { workerData } : {}) });
}
