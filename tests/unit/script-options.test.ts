/**
 * The developer scripts' options, where a wrong guess used to cost something: `npm run train
 * -- --quick` replaced the shipped dice model, `npm run screenshots -- --help` deleted and
 * rewrote every picture in docs/screenshots/, and `npm run eval:teaching` without the real photos
 * ended in a stack trace. Only option parsing runs here: no training, no browser.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECIPE } from '../../vision/model/recipe.js';
import { COMMITTED_MODEL_DIR, SCRATCH_MODEL_DIR, followsCommittedRecipe, trainOutDir, type TrainRunChoice } from '../../scripts/train-out.js';
import { scratchDir } from '../support/scratch.js';

const root = path.resolve(import.meta.dirname, '../..');

function script(file: string, ...args: string[]) {
  return spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), path.join('scripts', file), ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
}

/** A run as `npm run train` makes it with no option given. */
const recipeRun: TrainRunChoice = {
  quick: false,
  net: 'recipe',
  seed: RECIPE.seed,
  trainCount: RECIPE.trainCount,
  epochs: RECIPE.epochs,
  workers: RECIPE.workers,
  difficulty: RECIPE.difficulty,
  backend: 'wasm',
};

describe('npm run train: where the model is written', () => {
  it('writes the committed model only for the committed recipe', () => {
    expect(followsCommittedRecipe(recipeRun)).toBe(true);
    expect(trainOutDir(undefined, recipeRun)).toBe(COMMITTED_MODEL_DIR);
    expect(COMMITTED_MODEL_DIR).toBe('vision/model/weights');
  });

  it('writes a --quick run or another net to the scratch folder, outside the committed model', () => {
    expect(trainOutDir(undefined, { ...recipeRun, quick: true })).toBe(SCRATCH_MODEL_DIR);
    expect(trainOutDir(undefined, { ...recipeRun, net: 'resnet10' })).toBe(SCRATCH_MODEL_DIR);
    expect(trainOutDir(undefined, { ...recipeRun, net: 'resnet10w8' })).toBe(SCRATCH_MODEL_DIR);
    expect(SCRATCH_MODEL_DIR.startsWith('tmp/')).toBe(true);
  });

  it('writes any other change to the recipe to the scratch folder too', () => {
    const changed: Partial<TrainRunChoice>[] = [
      { seed: 'clew-faces-2' },
      { trainCount: 1000 },
      { epochs: 1 },
      { workers: 1 },
      { difficulty: [0, 1] },
      { backend: 'cpu' },
      { realCrops: 'my-crops' },
      { pinRenderer: 'old' },
    ];
    for (const change of changed) expect(trainOutDir(undefined, { ...recipeRun, ...change }), JSON.stringify(change)).toBe(SCRATCH_MODEL_DIR);
  });

  it('writes wherever --out says, the committed folder included', () => {
    expect(trainOutDir('tmp/mine', recipeRun)).toBe('tmp/mine');
    expect(trainOutDir(COMMITTED_MODEL_DIR, { ...recipeRun, net: 'resnet10' })).toBe(COMMITTED_MODEL_DIR);
  });

  it('says so in --help', () => {
    const r = script('train.ts', '--help');
    expect(r.status, r.stderr).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    expect(help).toContain(`writes ${SCRATCH_MODEL_DIR} unless --out`);
    expect(help).toContain(`default: ${COMMITTED_MODEL_DIR}, the committed model, only for the committed recipe`);
  });
});

describe('npm run screenshots: options', () => {
  const pictures = path.join(root, 'docs/screenshots');
  /** Every picture's name, size and modification time: what a run would change. */
  const snapshot = () => readdirSync(pictures).filter((f) => f.endsWith('.png')).map((f) => {
    const s = statSync(path.join(pictures, f));
    return `${f} ${s.size} ${s.mtimeMs}`;
  });

  it('prints its options for --help, --only among them, and writes nothing', () => {
    const before = snapshot();
    const r = script('screenshots.ts', '--help');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('--only <group>');
    expect(r.stdout).toContain('deletes every PNG');
    expect(snapshot()).toEqual(before);
  });

  it('refuses an unknown flag, a stray argument and an --only that names no group, and writes nothing', () => {
    const before = snapshot();
    for (const args of [['--bogus'], ['cozy'], ['--only', 'no-such-screen']]) {
      const r = script('screenshots.ts', ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
    }
    expect(snapshot()).toEqual(before);
  });
});

describe('npm run eval:teaching without the real photos', () => {
  it('says the folder is missing and how to pass it, exit 2, as eval:dice does, without a stack trace', () => {
    const missing = path.join(scratchDir('clew-eval-teaching-'), 'dice-real');
    const r = script('eval-teaching.ts', '--real', missing);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`eval:teaching: ${missing} not found (pass --real DIR)\n`);
  });

  it('says a folder without labels.csv is not the real photos folder', () => {
    const empty = scratchDir('clew-eval-teaching-');
    const r = script('eval-teaching.ts', '--real', empty);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`eval:teaching: ${empty} has no labels.csv (pass --real DIR: a folder with labels.csv and catan-crops/)\n`);
  });
});
