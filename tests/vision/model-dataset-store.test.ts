/**
 * The rendered-crops cache: a dataset is the same whether rendered inline or by worker threads,
 * read back from the cache, or asked for twice at once (the second waits for the first's lock
 * instead of appending the same records again).
 */
import { mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CROP_PIXELS, TOP_VALUES, type DatasetSpec } from '../../vision/model/dataset.js';
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
    expect([...a.top]).toEqual([...inline.top]);
    expect(a.top.every((v) => Number.isFinite(v))).toBe(true);
    expect(statSync(path.join(dir, `${datasetKey(spec)}.bin`)).size).toBe(spec.count * (2 + CROP_PIXELS));
    expect(statSync(path.join(dir, `${datasetKey(spec)}.bin.top`)).size).toBe(spec.count * TOP_VALUES * 4);
    // Shared memory, so training workers read the crops without a copy.
    expect(a.pixels.buffer).toBeInstanceOf(SharedArrayBuffer);
  }, 60_000);

  it('a run cut between its two files: both are cut to the records they share, and the rest rendered again', async () => {
    const torn = { ...spec, seed: 'store-test-torn' };
    await loadOrRenderDataset(torn, { cacheDir: dir, threads: 1 });
    const file = path.join(dir, `${datasetKey(torn)}.bin`);
    truncateSync(`${file}.top`, 9 * TOP_VALUES * 4 + 7); // the top-face file lost its last records
    const again = await loadOrRenderDataset(torn, { cacheDir: dir, threads: 1 });
    const inline = renderDatasetInline(torn);
    expect(again.pixels).toEqual(inline.pixels);
    expect([...again.top]).toEqual([...inline.top]);
    expect(statSync(file).size).toBe(torn.count * (2 + CROP_PIXELS));
    expect(statSync(`${file}.top`).size).toBe(torn.count * TOP_VALUES * 4);
  }, 60_000);

  it('knobs are part of the cache key', () => {
    expect(datasetKey(spec, 'r')).not.toBe(datasetKey({ ...spec, knobs: { framing: [1, 1.2] } }, 'r'));
    expect(datasetKey({ ...spec, knobs: undefined }, 'r')).not.toBe(datasetKey(spec, 'r'));
  });
});
