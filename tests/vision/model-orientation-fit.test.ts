/**
 * The orientation head fitted on the committed net as `npm run train` fits it (a few rendered
 * crops here, 12,000 there): the net's embedding carries which way is up, so the head names the
 * turn of more crops than chance; the fit is reproducible; view 'any''s temperature sharpens.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../vision/model/backend.js';
import { DEFAULT_MODEL_DIR } from '../../vision/model/classifier.js';
import { renderDatasetInline } from '../../vision/model/dataset-store.js';
import { loadModel } from '../../vision/model/io.js';
import type { LayersModel } from '../../vision/model/net.js';
import { fitViewAny } from '../../vision/model/orientation-fit.js';
import { RECIPE } from '../../vision/model/recipe.js';

let model: LayersModel;
const spec = (split: string, count: number) => ({ seed: 'orientation-fit-test', split, count, difficulty: [0.2, 0.5] as [number, number], knobs: RECIPE.knobs });
const data = { orient: renderDatasetInline(spec('orient', 96)), val: renderDatasetInline(spec('val', 48)), test: renderDatasetInline(spec('test', 48)) };

beforeAll(async () => {
  await initBackend('wasm');
  model = await loadModel(DEFAULT_MODEL_DIR);
});

describe('fitViewAny on the committed net', () => {
  it('names the turn of upright rendered crops better than chance, reproducibly, and sharpens the mixture', () => {
    const a = fitViewAny(model, data, 1, 60);
    expect(a.crops).toBe(96);
    expect(a.head.weights).toHaveLength(4);
    expect(a.head.mean).toHaveLength(96);
    // Chance is 25 % over four turns; the committed run names 58 % of 12,000 crops × 4.
    expect(a.turnAccuracy).toBeGreaterThan(0.4);
    // The four turns' mixture is less sure than one upright reading: the fitted temperature sharpens it.
    expect(a.head.temperature).toBeLessThan(1);
    expect(a.test.accuracy).toBeGreaterThan(0.5);
    expect(fitViewAny(model, data, 1, 60)).toEqual(a);
  });
});
