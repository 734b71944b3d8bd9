// @ts-check
/**
 * Starting tfjs's wasm backend, as the main thread (backend.ts) and the reading threads
 * (forward-worker.js) both do it. Plain JavaScript checked by `tsc` (forward-worker.js says why).
 */
import { createRequire } from 'node:module';
import path from 'node:path';

/** The folder holding the tfjs-backend-wasm `.wasm` binaries (resolved from node_modules). */
export function wasmBinaryDir() {
  const require = createRequire(import.meta.url);
  // The package's "main" is dist/tf-backend-wasm.node.js, so its folder is the dist/ we want.
  return path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep;
}

/**
 * Runs `start` (which loads the wasm module), then drops the process handlers the module's
 * Emscripten glue added that only rethrow what they are given. With them, any crash of a process
 * that loaded it (the server, the CLI, a test worker) prints the module's whole minified source
 * line, about 38 KB, before the error itself. Without them, Node does what it would have done
 * anyway (an uncaught error or rejection ends the process), and says so in a few lines.
 * @template T
 * @param {() => Promise<T>} start
 * @returns {Promise<T>}
 */
export async function withoutRethrowingHandlers(start) {
  const before = new Set([...process.listeners('uncaughtException'), ...process.listeners('unhandledRejection')]);
  try {
    return await start();
  } finally {
    /** @param {unknown} listener */
    const rethrows = (listener) => !before.has(/** @type {never} */ (listener)) && /ExitStatus|throw reason/.test(String(listener));
    for (const listener of process.listeners('uncaughtException')) if (rethrows(listener)) process.off('uncaughtException', listener);
    for (const listener of process.listeners('unhandledRejection')) if (rethrows(listener)) process.off('unhandledRejection', listener);
  }
}
