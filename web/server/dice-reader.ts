/**
 * The dice reader, loaded lazily: TensorFlow.js and the model cost memory and a few seconds, so
 * they load on the first read (a camera frame while the game expects dice, an upload, a
 * calibration), once, and a table that never reads dice never pays for them. `status()` is what
 * `/api/health` says about the model.
 */
import type { ClewDiceReader } from '../../vision/reader.js';
import type { Logger } from './logger.js';

export interface ModelStatus {
  ok: boolean;
  backend?: string;
  message?: string;
}

export interface ReaderHolder {
  /** The reader, loading it on the first call. Rejects when it cannot load (and says why in status). */
  get(): Promise<ClewDiceReader>;
  /** The reader if it has loaded, without loading it. */
  loaded(): ClewDiceReader | null;
  status(): ModelStatus;
  dispose(): void;
}

/** After a failed load, reads fail fast for this long before loading is tried again. */
export const RETRY_LOAD_MS = 30_000;

export function lazyReader(
  load: () => Promise<ClewDiceReader>,
  logger: Logger,
  onChange: () => void = () => {},
  now: () => number = () => performance.now(),
): ReaderHolder {
  let reader: ClewDiceReader | null = null;
  let loading: Promise<ClewDiceReader> | null = null;
  let failedAt = -Infinity;
  let state: ModelStatus = { ok: true, message: 'not loaded yet (loads on the first read)' };
  return {
    get() {
      if (reader) return Promise.resolve(reader);
      // A camera asks at every frame: a reader that cannot load is not retried at every frame.
      if (!loading && now() - failedAt < RETRY_LOAD_MS) return Promise.reject(new Error(state.message));
      loading ??= (async () => {
        state = { ok: true, message: 'loading' };
        const started = performance.now();
        try {
          const r = await load();
          reader = r;
          state = { ok: true, backend: r.backend, message: `model ${r.modelId} on ${r.backend}` };
          logger.info(`dice reader: loaded in ${Math.round(performance.now() - started)} ms (${state.message})`);
          return r;
        } catch (error) {
          const message = `the dice reader could not load: ${(error as Error).message}`;
          state = { ok: false, message };
          logger.error(message);
          failedAt = now();
          loading = null; // a later read tries again, after RETRY_LOAD_MS
          throw new Error(message);
        } finally {
          onChange();
        }
      })();
      return loading;
    },
    loaded: () => reader,
    // The reading threads start after the reader loads, so their number is told as it stands.
    status: () => (reader && reader.threads > 1 ? { ...state, message: `${state.message}, ${reader.threads} reading threads` } : state),
    dispose() {
      reader?.dispose();
      reader = null;
    },
  };
}

/** Used when `vision.enabled` is false: reading is refused with a clear reason. */
export const noReader: ReaderHolder = {
  get: () => Promise.reject(new Error('this server runs without a dice reader (vision.enabled is false)')),
  loaded: () => null,
  status: () => ({ ok: true, message: 'disabled in config (vision.enabled = false): dice are entered by hand' }),
  dispose: () => {},
};
