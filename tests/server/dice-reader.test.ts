/**
 * The companion's lazily loaded dice reader (web/server/dice-reader.ts): what /api/health says
 * before, during and after loading, how many reading threads it reads on, and a failed load
 * refused fast until it is retried.
 */
import { describe, expect, it } from 'vitest';
import type { ClewDiceReader } from '../../vision/reader.js';
import { lazyReader, RETRY_LOAD_MS } from '../../web/server/dice-reader.js';
import { collectingLogger } from '../../web/server/logger.js';

/** The parts of a reader the holder looks at; the rest is never called here. */
function fakeReader(threads: number): ClewDiceReader {
  return { backend: 'wasm', modelId: 'bb755c9c', threads, dispose: () => {} } as unknown as ClewDiceReader;
}

describe('the lazily loaded dice reader', () => {
  it('says it loads on the first read, then which model on which backend, and its reading threads when more than one', async () => {
    let threads = 1;
    const reader = fakeReader(1);
    Object.defineProperty(reader, 'threads', { get: () => threads });
    const holder = lazyReader(async () => reader, collectingLogger());
    expect(holder.status()).toEqual({ ok: true, message: 'not loaded yet (loads on the first read)' });
    expect(holder.loaded()).toBeNull();
    expect(await holder.get()).toBe(reader);
    expect(holder.status()).toEqual({ ok: true, backend: 'wasm', message: 'model bb755c9c on wasm' });
    threads = 2; // the reading threads are ready after the reader loads
    expect(holder.status().message).toBe('model bb755c9c on wasm, 2 reading threads');
  });

  it('a reader that cannot load says why, is refused fast for a while, then loads on a later read', async () => {
    let clock = 0;
    let fail = true;
    const logger = collectingLogger();
    const holder = lazyReader(async () => {
      if (fail) throw new Error('no model here');
      return fakeReader(1);
    }, logger, () => {}, () => clock);
    await expect(holder.get()).rejects.toThrow('the dice reader could not load: no model here');
    expect(holder.status()).toEqual({ ok: false, message: 'the dice reader could not load: no model here' });
    expect(logger.lines.some((l) => l.level === 'error' && /no model here/.test(l.message))).toBe(true);
    fail = false;
    clock = RETRY_LOAD_MS - 1;
    await expect(holder.get()).rejects.toThrow(/no model here/);
    clock = RETRY_LOAD_MS;
    expect((await holder.get()).modelId).toBe('bb755c9c');
    expect(holder.status().ok).toBe(true);
  });
});
