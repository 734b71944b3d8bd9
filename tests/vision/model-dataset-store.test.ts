/**
 * The rendered-crops cache: a dataset is the same whether rendered inline or by worker threads,
 * read back from the cache, or asked for twice at once (the second waits for the first's lock
 * instead of appending the same records again).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CROP_PIXELS, type DatasetSpec } from '../../vision/model/dataset.js';
import { datasetKey, loadOrRenderDataset, renderDatasetInline } from '../../vision/model/dataset-store.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'clew-crops-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadOrRenderDataset', () => {
  const spec: DatasetSpec = { seed: 'store-test', split: 'train', count: 12, difficulty: [0.3, 0.6], knobs: { framing: [1, 1.4] } };

  it('two requests at once render once, and both get what an inline render gives', async () => {
    const [a, b] = await Promise.all([loadOrRenderDataset(spec, { cacheDir: dir, threads: 2 }), loadOrRenderDataset(spec, { cacheDir: dir, threads: 1 })]);
    const inline = renderDatasetInline(spec);
    expect(a.pixels).toEqual(inline.pixels);
    expect(b.pixels).toEqual(inline.pixels);
    expect([...a.classes]).toEqual([...inline.classes]);
    expect(statSync(path.join(dir, `${datasetKey(spec)}.bin`)).size).toBe(spec.count * (2 + CROP_PIXELS));
    // Shared memory, so training workers read the crops without a copy.
    expect(a.pixels.buffer).toBeInstanceOf(SharedArrayBuffer);
  }, 60_000);

  it('knobs are part of the cache key', () => {
    expect(datasetKey(spec, 'r')).not.toBe(datasetKey({ ...spec, knobs: { framing: [1, 1.2] } }, 'r'));
    expect(datasetKey({ ...spec, knobs: undefined }, 'r')).not.toBe(datasetKey(spec, 'r'));
  });
});
