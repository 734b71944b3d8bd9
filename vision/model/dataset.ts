/**
 * Synthetic training data: which crop index shows which class at which difficulty, rendered by
 * the synth renderer (`renderCrop`). Each crop has its own seed (`<seed>:<split>:<index>`), so a
 * dataset is the same whatever the number of worker threads or the order they finish in.
 */
import { createRng, type Rng } from '../../shared/rng.js';
import type { DiceSetId } from '../../shared/dice.js';
import { FACE_CLASSES, type FaceClass } from '../faces/classes.js';
import { renderCropDetail } from '../synth/index.js';
import type { SynthKnobs } from '../synth/knobs.js';

export const CROP_PIXELS = 64 * 64 * 3;

export interface DatasetSpec {
  seed: string;
  /** 'train', 'val' (temperature, early checks) or 'test' (the reported synthetic accuracy). */
  split: string;
  count: number;
  /** Difficulty range of the renderer, drawn uniformly per crop. */
  difficulty: [number, number];
  /** Renderer knobs that override the difficulty's (e.g. loose framing); part of the cache key. */
  knobs?: Partial<SynthKnobs>;
  /** Relative class frequencies (default 1 each); pips classes are the commonest dice. */
  classWeights?: Partial<Record<FaceClass, number>>;
}

export interface CropSample {
  cls: number;
  set: DiceSetId;
  pixels: Uint8Array;
}

/**
 * The class of every index: a weighted round robin (deterministic, balanced within every
 * window of one cycle), shuffled per cycle with the seed so batches mix classes.
 */
export function classSchedule(spec: Pick<DatasetSpec, 'seed' | 'split' | 'count' | 'classWeights'>): number[] {
  const cycle: number[] = [];
  FACE_CLASSES.forEach((cls, k) => {
    const w = spec.classWeights?.[cls] ?? 1;
    if (!(w >= 0) || !Number.isInteger(w)) throw new Error(`class weight for ${cls} must be a whole number ≥ 0, got ${w}`);
    for (let i = 0; i < w; i++) cycle.push(k);
  });
  if (cycle.length === 0) throw new Error('class weights leave no class to render');
  const rng = createRng(`${spec.seed}:${spec.split}:schedule`);
  const out: number[] = [];
  while (out.length < spec.count) out.push(...rng.shuffle(cycle));
  return out.slice(0, spec.count);
}

/**
 * The difficulty crop `index` of a dataset is rendered at: the first draw of its own rng (so
 * reports can break a split down by difficulty without rendering it again).
 */
export function difficultyOf(spec: Pick<DatasetSpec, 'seed' | 'split' | 'difficulty'>, index: number, rng: Rng = createRng(`${spec.seed}:${spec.split}:${index}`)): number {
  return rng.range(spec.difficulty[0], spec.difficulty[1]);
}

/** Renders crop `index` of a dataset (pure: same spec and index, same pixels). */
export function renderSample(spec: DatasetSpec, index: number, cls: number): CropSample {
  const rng = createRng(`${spec.seed}:${spec.split}:${index}`);
  const difficulty = difficultyOf(spec, index, rng);
  const name = FACE_CLASSES[cls];
  if (name === undefined) throw new Error(`renderSample: class index ${cls} out of range`);
  const detail = renderCropDetail(rng, name, { difficulty, ...(spec.knobs ? { knobs: spec.knobs } : {}) });
  if (detail.image.width !== 64 || detail.image.height !== 64) throw new Error('renderSample: the renderer returned a crop that is not 64×64');
  return { cls, set: detail.set, pixels: detail.image.data };
}
