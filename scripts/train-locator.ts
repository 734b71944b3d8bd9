/**
 * `tsx scripts/train-locator.ts`: trains the die detector (vision/locate/detector/) from rendered
 * scenes and writes its weights to vision/locate/detector/weights/. Seeded and reproducible on a
 * CPU: the scenes come from the synthetic renderer (cached on disk, rebuilt when missing), the
 * batches and augmentations from the seed.
 *
 *   tsx scripts/train-locator.ts [--scenes 800] [--steps 2000] [--crop 96] [--seed train] [--backend wasm|cpu]
 *   tsx scripts/train-locator.ts --evaluate [--eval-scenes 8]   (per-condition table, both locators)
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { initBackend, type BackendName } from '../vision/model/backend.js';
import { loadOrRenderSample, type DetectorSample } from '../vision/locate/detector/data.js';
import { trainDetector } from '../vision/locate/detector/train.js';
import { DEFAULT_WEIGHTS_DIR, saveDetector } from '../vision/locate/detector/weights.js';
import { outDirFor } from './train-out.js';
import { loadDieDetector } from '../vision/locate/detector/index.js';
import { EVAL_CASES, evaluateLocators, reportTable } from '../vision/locate/evaluate.js';
import { locateDice } from '../vision/locate/index.js';
import type { Box, RgbImage } from '../vision/types.js';

/** Where a trial's weights go (gitignored, replaced by the next trial). */
const SCRATCH_DETECTOR_DIR = 'tmp/train-detector';

const program = new Command()
  .name('train-locator')
  .option('--scenes <n>', 'rendered scenes (the last 10% are held out)', '800')
  .option('--steps <n>', 'training steps', '2000')
  .option('--batch <n>', 'scenes per step', '8')
  .option('--crop <n>', 'train on random square crops of this size (pixels of the quarter-size scene)', '96')
  .option('--lr <x>', 'peak learning rate (Adam, cosine decay)', '0.003')
  .option('--seed <s>', 'seed for scenes, initial weights and batches', 'train')
  .option('--backend <name>', 'tfjs backend (wasm or cpu)', 'wasm')
  .option('--cache <dir>', 'where rendered scenes are kept', path.join(os.tmpdir(), 'clew-locator-scenes'))
  .option('--out <dir>', `weights folder (default: the committed detector's, ${DEFAULT_WEIGHTS_DIR}, only for a run with every training option at its default, which reproduces it; any other run writes ${SCRATCH_DETECTOR_DIR}; --evaluate reads the committed one)`)
  .option('--evaluate', 'do not train: measure the committed detector and the classical locator on rendered test scenes')
  .option('--eval-scenes <n>', 'rendered scenes per case for --evaluate', '8')
  .parse();
const opts = program.opts<{ evaluate?: boolean; evalScenes: string; scenes: string; steps: string; batch: string; crop: string; lr: string; seed: string; backend: string; cache: string; out?: string }>();
// A trial with other options used to overwrite the committed detector: only the run that
// reproduces it writes there by default (the cache folder changes nothing in the weights).
const trainingOptions = ['scenes', 'steps', 'batch', 'crop', 'lr', 'seed', 'backend'] as const;
const reproduces = trainingOptions.every((name) => program.getOptionValueSource(name) === 'default');
const outDir = outDirFor(opts.out, opts.evaluate || reproduces, DEFAULT_WEIGHTS_DIR, SCRATCH_DETECTOR_DIR);
const int = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(v)}`);
  return n;
};
const sceneCount = int('scenes', opts.scenes), steps = int('steps', opts.steps), batch = int('batch', opts.batch);
const crop = int('crop', opts.crop);
if (crop % 16 !== 0) throw new Error(`--crop must be a multiple of 16, got ${crop}`);
const peakLr = Number(opts.lr);
if (!(peakLr > 0)) throw new Error(`--lr must be positive, got ${opts.lr}`);

const log = (msg: string) => process.stdout.write(`[train-locator] ${msg}\n`);
const backend = await initBackend(opts.backend as BackendName);
log(`backend ${backend.name}`);

if (opts.evaluate) {
  const detector = await loadDieDetector({ weightsDir: outDir });
  const perCase = int('eval-scenes', opts.evalScenes);
  const times = { learned: 0, classical: 0, hybrid: 0 };
  const timed = (key: keyof typeof times, f: (img: RgbImage) => Box[]) => (img: RgbImage) => {
    const t0 = performance.now();
    const out = f(img);
    times[key] += performance.now() - t0;
    return out;
  };
  const reports = evaluateLocators(
    {
      classical: timed('classical', (img) => locateDice(img).map((d) => d.box)),
      'classical + rescue': timed('hybrid', (img) => locateDice(img, { detector }).map((d) => d.box)),
      detector: timed('learned', (img) => locateDice(img, { detector, detectorOnly: true }).map((d) => d.box)),
    },
    { seed: 'eval-1', scenesPerCase: perCase, onScene: (c, i) => i === perCase - 1 && log(`${c} done`) },
  );
  process.stdout.write(reportTable(reports) + '\n');
  const frames = perCase * EVAL_CASES.length;
  log(`mean ms per frame (wall, this machine, shared): classical ${(times.classical / frames).toFixed(1)}, classical + rescue ${(times.hybrid / frames).toFixed(1)}, detector ${(times.learned / frames).toFixed(1)}`);
  detector.dispose();
} else {
  await train();
}

async function train(): Promise<void> {
  const samples: DetectorSample[] = [];
  const started = performance.now();
  for (let i = 0; i < sceneCount; i++) {
    samples.push(loadOrRenderSample(opts.cache, opts.seed, i));
    if ((i + 1) % 100 === 0) log(`scenes ${i + 1}/${sceneCount} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const holdOut = Math.max(1, Math.round(sceneCount * 0.1));
  const trainSet = samples.slice(0, sceneCount - holdOut);
  const valid = samples.slice(sceneCount - holdOut);
  log(`${trainSet.length} training scenes, ${valid.length} held out, ${trainSet.reduce((s, x) => s + x.boxes.length, 0)} training dice`);
  const best = trainDetector(trainSet, valid, { steps, batch, crop, lr: peakLr, seed: opts.seed, log });
  mkdirSync(outDir, { recursive: true });
  saveDetector(best.model, outDir, {
    inputScale: 0.25,
    normalisation: 'x/127.5-1',
    threshold: best.threshold,
    training: {
      command: `tsx scripts/train-locator.ts --scenes ${sceneCount} --steps ${steps} --batch ${batch} --crop ${crop} --lr ${peakLr} --seed ${opts.seed}`,
      backend: backend.name,
      scenes: sceneCount,
      heldOut: holdOut,
      heldOutRecall: Number(best.recall.toFixed(4)),
      heldOutPrecision: Number(best.precision.toFixed(4)),
      minutes: Number(((performance.now() - started) / 60000).toFixed(1)),
    },
  });
  log(`saved to ${outDir} (threshold ${best.threshold}: recall ${best.recall.toFixed(3)}, precision ${best.precision.toFixed(3)})`);
  best.model.dispose();
}
