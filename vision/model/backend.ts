/**
 * Picks and starts the TensorFlow.js backend for clew.
 *
 * Order: `tensorflow` (@tensorflow/tfjs-node, an optional dependency that is used only when it
 * loads), then `wasm` (portable baseline, XNNPACK + SIMD; single-threaded under Node because tfjs
 * disables wasm threads there), then `cpu` (plain JS, always there). The wasm backend lacks some
 * gradient kernels; they are registered from `./wasm-gradients.ts` before any training runs.
 */
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { registerLeanMeanGradient } from './mean-gradient.js';
import { registerWasmGradientKernels } from './wasm-gradients.js';
import { wasmBinaryDir, withoutRethrowingHandlers } from './wasm-start.js';

export type BackendName = 'tensorflow' | 'wasm' | 'cpu';
export const BACKEND_NAMES: readonly BackendName[] = ['tensorflow', 'wasm', 'cpu'];

export interface BackendInfo {
  /** The backend tfjs now runs on. */
  name: BackendName;
  /** Why the preferred backends were skipped, in order (empty when the first choice worked). */
  skipped: string[];
  /** wasm only: SIMD in use. */
  simd?: boolean;
}

let wasmPathsSet = false;
let current: BackendInfo | undefined;

async function tryTensorflow(): Promise<void> {
  // A variable specifier keeps TypeScript and bundlers from requiring the optional package.
  const name = '@tensorflow/tfjs-node';
  await import(name);
  if (!(await tf.setBackend('tensorflow'))) throw new Error('tfjs-node loaded but its backend did not start');
}

async function tryWasm(): Promise<void> {
  if (!wasmPathsSet) {
    setWasmPaths(wasmBinaryDir());
    wasmPathsSet = true;
  }
  registerWasmGradientKernels();
  if (!(await withoutRethrowingHandlers(() => tf.setBackend('wasm')))) throw new Error('the wasm backend failed to initialise');
}

async function tryCpu(): Promise<void> {
  if (!(await tf.setBackend('cpu'))) throw new Error('the cpu backend failed to initialise');
}

const STARTERS: Record<BackendName, () => Promise<void>> = {
  tensorflow: tryTensorflow,
  wasm: tryWasm,
  cpu: tryCpu,
};

/**
 * Starts the first backend that works, beginning with `preferred` when given (then falling back
 * in the usual order). Safe to call more than once; switching backends moves live tensors.
 */
export function initBackend(preferred?: BackendName): Promise<BackendInfo> {
  if (preferred !== undefined && !BACKEND_NAMES.includes(preferred)) {
    return Promise.reject(new Error(`unknown tfjs backend "${String(preferred)}" (expected one of ${BACKEND_NAMES.join(', ')})`));
  }
  // One start at a time: two readers loaded at once each started the backends in turn, and one
  // could end on the cpu backend (the wasm one still starting), reading a little differently.
  const run = starting.then(() => startBackend(preferred));
  starting = run.catch(() => undefined);
  return run;
}

let starting: Promise<unknown> = Promise.resolve();

async function startBackend(preferred?: BackendName): Promise<BackendInfo> {
  // The same gradients bit for bit on every backend, only cheaper (mean-gradient.ts).
  registerLeanMeanGradient();
  if (current && tf.getBackend() === current.name && (preferred === undefined || current.name === preferred)) return current;
  const order = preferred ? [preferred, ...BACKEND_NAMES.filter((b) => b !== preferred)] : [...BACKEND_NAMES];
  const skipped: string[] = [];
  for (const name of order) {
    try {
      await STARTERS[name]();
      await tf.ready();
      current = await describe(name, skipped);
      return current;
    } catch (error) {
      skipped.push(`${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  throw new Error(`no tfjs backend could start (${skipped.join('; ')})`);
}

async function describe(name: BackendName, skipped: string[]): Promise<BackendInfo> {
  const info: BackendInfo = { name, skipped };
  if (name === 'wasm') info.simd = Boolean(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'));
  return info;
}
