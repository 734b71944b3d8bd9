/**
 * `npm run train`: reproduces the committed dice classifier (vision/model/weights/) from a seed.
 *
 *   1. renders the synthetic train / val / test crops (worker threads, cached under
 *      tmp/train-cache keyed by seed and the renderer's source hash),
 *   2. adds the owner's real labelled crops, when --real-crops DIR is given (DIR/<set>/<face>/*.jpg),
 *   3. trains the net (tfjs, wasm backend by default: measured fastest here, see the notes),
 *   4. folds batch norms, fits the temperature on val, scores the test split per dice set, and
 *      for an upright model fits the orientation head (which quarter turn is up) on crops of
 *      their own,
 *   5. writes model.json, weights.bin (float16) and meta.json to --out: by default the committed
 *      model's folder for the committed recipe only, tmp/train-model for any other run
 *      (scripts/train-out.ts).
 *
 * Nothing else trains: install and start only read the committed files.
 */
import { Command } from 'commander';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DICE_SET_IDS } from '../shared/dice.js';
import { FACE_CLASSES, classOf } from '../vision/faces/classes.js';
import { initBackend, type BackendName } from '../vision/model/backend.js';
import { registerLeanBatchNormGradient } from '../vision/model/batchnorm-gradient.js';
import { CROP_PIXELS, type DatasetSpec } from '../vision/model/dataset.js';
import { allocCropSet, loadOrRenderDataset, rendererHash, type CropSet } from '../vision/model/dataset-store.js';
import { evaluate, fitTemperatureOn } from '../vision/model/evaluate.js';
import { loadModel, saveModel } from '../vision/model/io.js';
import { readSetFolders } from '../vision/model/labelled-folder.js';
import { parseModelMeta, type ModelMeta } from '../vision/model/meta.js';
import { foldForInference, type LayersModel } from '../vision/model/net.js';
import { DEFAULT_PREPROCESSING } from '../vision/model/preprocess.js';
import { trainClassifierParallel } from '../vision/model/parallel-trainer.js';
import { fitViewAny, type FittedViewAny } from '../vision/model/orientation-fit.js';
import { predictCrops, trainClassifier, type TrainConfig } from '../vision/model/trainer.js';
import { RECIPE, NETS, netNamed } from '../vision/model/recipe.js';
import { COMMITTED_MODEL_DIR, RECIPE_BACKEND, SCRATCH_MODEL_DIR, trainOutDir } from './train-out.js';

const program = new Command()
  .name('train')
  .description('train the dice face classifier from synthetic renders (and optional real crops)')
  .option('--seed <seed>', 'training seed', RECIPE.seed)
  .option('--out <dir>', `where to write the model (default: ${COMMITTED_MODEL_DIR}, the committed model, only for the committed recipe, i.e. none of --quick, --net, --seed, --train-count, --epochs, --workers, --backend, --difficulty, --real-crops, --pin-renderer changed; any other run writes ${SCRATCH_MODEL_DIR})`)
  .option('--train-count <n>', 'synthetic training crops', String(RECIPE.trainCount))
  .option('--epochs <n>', 'epochs', String(RECIPE.epochs))
  .option('--threads <n>', 'render threads', String(os.availableParallelism()))
  .option('--workers <n>', 'training threads (the result depends on this number)', String(RECIPE.workers))
  .option('--cache-dir <dir>', 'rendered crops cache', 'tmp/train-cache')
  .option('--real-crops <dir>', 'real labelled crops: DIR/<set>/<face>/*.jpg')
  .option('--backend <name>', 'tfjs backend (wasm, cpu, tensorflow)', RECIPE_BACKEND)
  .option('--net <name>', `the net: ${Object.keys(NETS).join(' or ')} (recipe: the committed model's; resnet10: deeper, about three times the training time; resnet10w8: its narrow version, about the committed net's read)`, 'recipe')
  .option('--quick', `a tiny run to check the pipeline (not the committed model: writes ${SCRATCH_MODEL_DIR} unless --out)`)
  .option('--pin-renderer <label>', 'experiments: reuse cached crops under this label whatever the renderer source')
  .option('--difficulty <lo,hi>', 'renderer difficulty range', RECIPE.difficulty.join(','))
  .option('--from-weights <dir>', 'skip training: take the trained net in DIR (made by this recipe) and redo only the steps after training (temperature, test scores, orientation head, meta.json)')
  .parse();

const opts = program.opts<{ seed: string; out?: string; trainCount: string; epochs: string; threads: string; workers: string; cacheDir: string; realCrops?: string; backend: string; quick?: boolean; pinRenderer?: string; difficulty: string; fromWeights?: string; net: string }>();

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number, got "${value}"`);
  return n;
}

const started = performance.now();
const log = (msg: string) => process.stderr.write(`[train ${((performance.now() - started) / 1000).toFixed(0).padStart(5)}s] ${msg}\n`);

const quick = Boolean(opts.quick);
const trainCount = quick ? 256 : positiveInt('train-count', opts.trainCount);
const epochs = quick ? 1 : positiveInt('epochs', opts.epochs);
const threads = positiveInt('threads', opts.threads);
const net = netNamed(opts.net);
/** The recipe as this run follows it (recorded in meta.json; --from-weights must match it). */
const recipeRun = { ...RECIPE, net, trainCount, epochs };
const workers = positiveInt('workers', opts.workers);
const difficulty = opts.difficulty.split(',').map(Number) as [number, number];
if (difficulty.length !== 2 || !difficulty.every((d) => d >= 0 && d <= 1) || difficulty[0] > difficulty[1]) throw new Error(`--difficulty must be lo,hi within 0..1, got "${opts.difficulty}"`);
const out = trainOutDir(opts.out, { quick, net: opts.net, seed: opts.seed, trainCount, epochs, workers, difficulty, backend: opts.backend, realCrops: opts.realCrops, pinRenderer: opts.pinRenderer });
const valCount = quick ? 128 : RECIPE.valCount;
const testCount = quick ? 128 : RECIPE.testCount;

const backend = await initBackend(opts.backend as BackendName);
if (backend.name !== opts.backend) log(`backend ${opts.backend} unavailable, using ${backend.name} (${backend.skipped.join('; ')})`);
registerLeanBatchNormGradient();
log(`backend ${backend.name}${backend.simd ? ' (SIMD)' : ''}; renderer ${rendererHash()}; writing ${out}`);

const spec = (split: string, count: number): DatasetSpec => ({ seed: opts.seed, split, count, difficulty, knobs: RECIPE.knobs });
const render = async (split: string, count: number): Promise<CropSet> => {
  let last = 0;
  const set = await loadOrRenderDataset(spec(split, count), {
    cacheDir: opts.cacheDir,
    threads,
    ...(opts.pinRenderer ? { pinRenderer: opts.pinRenderer } : {}),
    onProgress: (done, total) => {
      if (done - last >= 1000 || done === total) {
        last = done;
        log(`rendered ${split} ${done}/${total}`);
      }
    },
  });
  return set;
};
const val = await render('val', valCount);
const test = await render('test', testCount);

/** The committed model's `training` record and weights, when only the last steps are redone. */
async function previousRun(dir: string): Promise<{ model: LayersModel; training: ModelMeta['training'] }> {
  const old = parseModelMeta(JSON.parse(await readFile(path.join(dir, 'meta.json'), 'utf8')), path.join(dir, 'meta.json'));
  // The weights must come from this recipe: everything but what is done after training (the
  // read-time views, the orientation head) must match.
  const { views: _oldViews, orientation: _oldOrientation, ...oldRecipe } = (old.training.recipe ?? {}) as Record<string, unknown>;
  const { views: _views, orientation: _orientation, ...recipe } = recipeRun as Record<string, unknown>;
  if (JSON.stringify(oldRecipe) !== JSON.stringify(JSON.parse(JSON.stringify(recipe)))) {
    throw new Error(`--from-weights ${dir}: those weights were trained with another recipe than vision/model/recipe.ts; train afresh`);
  }
  log(`weights from ${dir} (trained ${String(old.training.trainSeconds)} s); training skipped`);
  return { model: await loadModel(dir), training: old.training };
}

let model: LayersModel;
let training: ModelMeta['training'];
/** The stored weights' bytes: saved once, right after training, or from --from-weights at the end. */
let bytes: number | undefined;
if (opts.fromWeights) {
  ({ model, training } = await previousRun(opts.fromWeights));
} else {
  let train = await render('train', trainCount);

  if (opts.realCrops) {
    const real = await readSetFolders(opts.realCrops);
    log(`real crops: ${real.length} from ${opts.realCrops}, each repeated ${RECIPE.realRepeat}×`);
    const n = train.count + real.length * RECIPE.realRepeat;
    const merged = allocCropSet(n);
    merged.classes.set(train.classes);
    merged.sets.set(train.sets);
    merged.pixels.set(train.pixels);
    let i = train.count;
    for (let r = 0; r < RECIPE.realRepeat; r++) {
      for (const c of real) {
        merged.classes[i] = FACE_CLASSES.indexOf(classOf(c.set, c.face));
        merged.sets[i] = DICE_SET_IDS.indexOf(c.set);
        merged.pixels.set(c.crop.data, i * CROP_PIXELS);
        i++;
      }
    }
    train = merged;
  }

  const config: TrainConfig = {
    seed: opts.seed,
    net,
    epochs,
    batchSize: RECIPE.batchSize,
    learningRate: RECIPE.learningRate,
    warmup: RECIPE.warmup,
    weightDecay: RECIPE.weightDecay,
    labelSmoothing: RECIPE.labelSmoothing,
    augment: RECIPE.augment,
    upright: RECIPE.upright,
  };
  const trainStart = performance.now();
  const onEpoch = (r: { epoch: number; loss: number; trainAccuracy: number; seconds: number }) => {
    log(`epoch ${r.epoch}/${epochs}: loss ${r.loss.toFixed(3)}, train accuracy ${(100 * r.trainAccuracy).toFixed(1)}% (${r.seconds.toFixed(0)} s)`);
  };
  log(`training ${train.count} crops, ${epochs} epochs, ${workers} worker${workers === 1 ? '' : 's'}`);
  // One worker trains in this thread; more run data-parallel in worker threads (one core each).
  const trained = workers === 1
    ? await trainClassifier(train, config, { onEpoch })
    : await trainClassifierParallel(train, config, { workers, backend: backend.name }, { onEpoch });
  const trainSeconds = (performance.now() - trainStart) / 1000;
  const folded = foldForInference(trained, net, FACE_CLASSES.length);
  trained.dispose();
  // What follows (the temperature, the test scores, the orientation head) is fitted on the net as
  // it is stored, float16, and as the reader loads it: fitted on the float32 net in memory, the
  // temperature came out 0.98430 where the stored weights give 0.98413, so a run's meta.json
  // differed from one redone with --from-weights on its own weights. Saved here, the weights are
  // also on disk before the steps after training run.
  bytes = await saveModel(folded, out);
  folded.dispose();
  model = await loadModel(out);
  training = {
    seed: opts.seed,
    recipe: recipeRun,
    renderer: opts.pinRenderer ?? rendererHash(),
    difficulty,
    backend: backend.name,
    realCrops: opts.realCrops ? path.basename(opts.realCrops) : null,
    trainCrops: train.count,
    trainSeconds: Math.round(trainSeconds),
    totalSeconds: Math.round((performance.now() - started) / 1000),
    quick,
  };
}

// Scored as the reader reads: averaged over the recipe's test-time views.
const valScores = predictCrops(model, val, 128, DEFAULT_PREPROCESSING, RECIPE.views);
const temperature = fitTemperatureOn(valScores.logits, val);
const testScores = predictCrops(model, test, 128, DEFAULT_PREPROCESSING, RECIPE.views);
const before = evaluate(testScores.logits, test, 1);
const after = evaluate(testScores.logits, test, temperature);
log(`temperature ${temperature.toFixed(3)}; test accuracy ${(100 * after.overall.accuracy).toFixed(2)}%, ECE ${before.ece.toFixed(4)} → ${after.ece.toFixed(4)}`);
for (const [set, s] of Object.entries(after.perSet)) log(`  ${set.padEnd(11)} ${(100 * s.accuracy).toFixed(2)}% of ${s.n}`);

// An upright model learns where a picture's up is: the orientation head, on crops of their own.
let orientation: FittedViewAny | undefined;
if (RECIPE.upright) {
  const orient = await render('orient', quick ? 256 : RECIPE.orientation.crops);
  orientation = fitViewAny(model, { orient, val, test }, temperature, RECIPE.orientation.steps);
  log(`orientation head: the turn named right for ${(100 * orientation.turnAccuracy).toFixed(1)}% of ${orient.count} crops × 4 turns`);
  log(`view any: temperature ${orientation.head.temperature.toFixed(3)}; test accuracy ${(100 * orientation.test.accuracy).toFixed(2)}%, ECE ${orientation.test.ece.toFixed(4)}`);
}

bytes ??= await saveModel(model, out);
const meta: ModelMeta = {
  version: 1,
  classes: [...FACE_CLASSES],
  crop: { size: 64, scale: 1.15 },
  preprocessing: DEFAULT_PREPROCESSING,
  temperature,
  views: RECIPE.views,
  ...(RECIPE.upright ? { upright: { roll: RECIPE.knobs.roll, ...(orientation ? { orientation: orientation.head } : {}) } } : {}),
  net,
  training: { ...training, recipe: recipeRun },
  metrics: {
    syntheticTest: {
      crops: test.count,
      difficulty,
      accuracy: after.overall.accuracy,
      perSet: Object.fromEntries(Object.entries(after.perSet).map(([k, v]) => [k, { n: v.n, accuracy: v.accuracy }])),
      unmaskedAccuracy: after.unmasked,
      eceBeforeTemperature: before.ece,
      eceAfterTemperature: after.ece,
    },
    ...(orientation ? { orientation: { crops: orientation.crops, turnAccuracy: orientation.turnAccuracy, syntheticTestAny: orientation.test } } : {}),
    weightBytes: bytes,
    parameters: model.countParams(),
  },
};
await writeFile(path.join(out, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
log(`wrote ${out} (${(bytes / 1024).toFixed(0)} KiB of float16 weights, ${model.countParams()} parameters)`);
model.dispose();
