/**
 * Where `npm run train` writes its model when no --out is given. The committed model's folder is
 * the default only for a run of the committed recipe: a `--quick` check of the pipeline or a
 * trial of another net used to replace the shipped classifier, which `npm start` then read dice
 * with.
 */
import { RECIPE } from '../vision/model/recipe.js';

/** The committed model, read by the server and every script that reads dice. */
export const COMMITTED_MODEL_DIR = 'vision/model/weights';
/** Any other run's model (gitignored, replaced by the next such run). */
export const SCRATCH_MODEL_DIR = 'tmp/train-model';
/** The backend the committed model was trained on. */
export const RECIPE_BACKEND = 'wasm';

/** The options of a training run that change the model it makes. */
export interface TrainRunChoice {
  quick: boolean;
  net: string;
  seed: string;
  trainCount: number;
  epochs: number;
  workers: number;
  difficulty: readonly [number, number];
  backend: string;
  realCrops?: string | undefined;
  pinRenderer?: string | undefined;
}

/** True when the run makes the committed model: the recipe as `vision/model/recipe.ts` has it, nothing changed. */
export function followsCommittedRecipe(run: TrainRunChoice): boolean {
  return !run.quick
    && run.net === 'recipe'
    && run.seed === RECIPE.seed
    && run.trainCount === RECIPE.trainCount
    && run.epochs === RECIPE.epochs
    && run.workers === RECIPE.workers
    && run.difficulty[0] === RECIPE.difficulty[0] && run.difficulty[1] === RECIPE.difficulty[1]
    && run.backend === RECIPE_BACKEND
    && run.realCrops === undefined
    && run.pinRenderer === undefined;
}

/** --out when given; else the committed model's folder for the committed recipe, the scratch folder for any other run. */
export function trainOutDir(out: string | undefined, run: TrainRunChoice): string {
  return outDirFor(out, followsCommittedRecipe(run), COMMITTED_MODEL_DIR, SCRATCH_MODEL_DIR);
}

/** A training script's folder: --out when given; else the committed one only for the run that reproduces it (train, train-locator). */
export function outDirFor(out: string | undefined, reproduces: boolean, committed: string, scratch: string): string {
  return out ?? (reproduces ? committed : scratch);
}
