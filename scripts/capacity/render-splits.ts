/**
 * Renders the committed model's training, validation and test splits exactly as `npm run train`
 * and eval:dice do (seed, difficulty and knobs of vision/model/recipe.ts) into DIR, in the
 * dataset cache's format (one record a crop: class, set, 64×64×3 bytes), with a meta.json naming
 * the files, the classes and each dice set's classes, for scripts/capacity/capacity.py.
 *
 *   node --import tsx scripts/capacity/render-splits.ts DIR [TRAIN_COUNT] [TEST_COUNT]
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { loadOrRenderDataset, datasetKey } from '../../vision/model/dataset-store.js';
import { RECIPE } from '../../vision/model/recipe.js';
import { FACE_CLASSES, classesOfSets } from '../../vision/faces/classes.js';
import { DICE_SET_IDS } from '../../shared/dice.js';
import { CROP_PIXELS, type DatasetSpec } from '../../vision/model/dataset.js';

const [dir, trainCountArg, testCountArg] = process.argv.slice(2);
const trainCount = Number(trainCountArg ?? RECIPE.trainCount);
const testCount = Number(testCountArg ?? RECIPE.testCount);
if (!dir || !Number.isInteger(trainCount) || !Number.isInteger(testCount)) {
  throw new Error('usage: render-splits.ts DIR [TRAIN_COUNT] [TEST_COUNT] (whole numbers)');
}
mkdirSync(dir, { recursive: true });
const spec = (split: string, count: number): DatasetSpec => ({ seed: RECIPE.seed, split, count, difficulty: RECIPE.difficulty, knobs: RECIPE.knobs });
const t0 = performance.now();
const out: Record<string, string> = {};
for (const [split, count] of [['test', testCount], ['val', RECIPE.valCount], ['train', trainCount]] as const) {
  if (count <= 0) continue;
  let last = 0;
  await loadOrRenderDataset(spec(split, count), { cacheDir: dir, threads: os.availableParallelism(), onProgress: (d, t) => { if (d - last >= 8000 || d === t) { last = d; console.error(`${split} ${d}/${t} ${((performance.now() - t0) / 1000).toFixed(0)}s`); } } });
  out[split] = datasetKey(spec(split, count)) + '.bin';
}
const masks = Object.fromEntries(DICE_SET_IDS.map((s) => [s, classesOfSets([s]).map((c) => FACE_CLASSES.indexOf(c))]));
writeFileSync(path.join(dir, 'meta.json'), JSON.stringify({ files: out, classes: FACE_CLASSES, sets: DICE_SET_IDS, masks, cropBytes: CROP_PIXELS }, null, 1));
console.error(`rendered in ${((performance.now() - t0) / 1000).toFixed(1)} s on ${os.availableParallelism()} threads`);
