/**
 * The loaded face classifier: 64×64 crops in, per-class logits and embeddings out, batched,
 * averaged over the model's quarter-turn views (test-time augmentation, views.ts). Everything it needs
 * (weights, class list, preprocessing, temperature) comes from the model directory.
 */
import * as tf from '@tensorflow/tfjs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RgbImage } from '../types.js';
import { initBackend, type BackendInfo, type BackendName } from './backend.js';
import { loadModel } from './io.js';
import { parseModelMeta, type ModelMeta } from './meta.js';
import { preprocessCrops } from './preprocess.js';
import { orientationDim, type OrientationHead } from './orientation.js';
import { autoReaderThreads, defaultReaderThreads, Meanwhile, startForwardPool, type MeanwhileHandle } from './forward-pool.js';
import { closerCrop, flipCrop, perCrop, shiftCrop, predictEachTurn, predictTurns, secondLookTurns, turnsOf } from './views.js';

export const DEFAULT_MODEL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'weights');

export interface CropScores {
  /** One row of FACE_CLASSES.length logits per crop. */
  logits: Float32Array[];
  /** One embedding per crop (the global-pool features the logits are made from). */
  embeddings: Float32Array[];
}

export interface Classifier {
  readonly meta: ModelMeta;
  /** Quarter-turn views averaged per crop (the model's, unless the loader overrode it). */
  readonly views: 1 | 2 | 4;
  /** The quarter turns of those views. */
  readonly turns: readonly number[];
  /** The quarter turns a second look reads a doubtful crop in (closer): [0] for an upright model. */
  readonly secondTurns: readonly number[];
  /** Whether the model reads crops upright (meta.json `upright`): turned views would mislead it. */
  readonly upright: boolean;
  /** An upright model's head that finds which quarter turn of a crop is upright (view 'any'), if it has one. */
  readonly orientation?: OrientationHead;
  readonly backend: BackendInfo;
  /** Dense layer of the net: logits = W·embedding + b (W is [dim][classes], row-major). */
  readonly head: { weights: Float32Array; bias: Float32Array; dim: number };
  /** Scores averaged over the model's views, or over the quarter turns given. */
  score(crops: readonly RgbImage[], turns?: readonly number[]): CropScores;
  /** A new copy of the net, trainable, for adapting to a table's dice (the caller disposes it). */
  copyNet(): Promise<tf.LayersModel>;
  /** As `score`, with another copy of the net (an adapted one): same preprocessing and views. */
  scoreWith(net: tf.LayersModel, crops: readonly RgbImage[], turns?: readonly number[]): CropScores;
  /** Scores in each of the quarter turns given, kept apart (`[turn]`; view 'any'), in one pass. */
  scoreEachTurn(crops: readonly RgbImage[], turns: readonly number[]): CropScores[];
  /** As `scoreEachTurn`, with another copy of the net. */
  scoreEachTurnWith(net: tf.LayersModel, crops: readonly RgbImage[], turns: readonly number[]): CropScores[];
  /** Threads that read a batch of crops (forward-pool.ts): this one and the workers that hold the shipped net. */
  readonly threads: number;
  /** Settles when the reading threads hold the shipped net (or were left out). */
  readonly threadsReady: Promise<void>;
  /** Lets the reading threads read `net` too (an adapted copy whose weights will not change again); resolves when they hold it. */
  shareNet(net: tf.LayersModel): Promise<void>;
  /** Drops the reading threads' copies of `net`; call it before disposing a shared net. */
  unshareNet(net: tf.LayersModel): void;
  /**
   * Work to do while the reading threads read the next batch (forward-pool.ts `meanwhile`):
   * `finish` does it now if it is not done yet (with one thread, always then), `cancel` drops it.
   */
  meanwhile(task: () => void): MeanwhileHandle;
  dispose(): void;
}

/** A net's last layer as plain arrays (logits = W·embedding + b). */
export function headOf(net: tf.LayersModel): Classifier['head'] {
  const [kernel, bias] = net.getLayer('logits').getWeights();
  return { weights: kernel!.dataSync() as Float32Array, bias: bias!.dataSync() as Float32Array, dim: kernel!.shape[0]! };
}

/** What reads crops: the shipped net, or a copy adapted to one dice set. */
export type Scorer = Pick<Classifier, 'score' | 'turns' | 'secondTurns'>;

/** A scorer that also reads each quarter turn apart (view 'any'). */
export type TurnScorer = Scorer & Pick<Classifier, 'scoreEachTurn'>;

export interface LoadClassifierOptions {
  modelDir?: string;
  backend?: BackendName;
  /** Override the number of test-time views stored in meta.json. */
  views?: 1 | 2 | 4;
  /**
   * Images (crops × views) per forward pass (default 32). Small passes keep the activations in
   * the CPU's cache: on wasm here a pass of 24–32 images costs ~0.32 ms an image, one of 128
   * ~0.43 ms.
   */
  imagesPerPass?: number;
  /**
   * Threads that read a batch of crops, this one included (default `defaultReaderThreads()`:
   * CLEW_READER_THREADS, else 1); 'auto': `autoReaderThreads()`, two where there are two cores.
   * Only the wasm backend uses more than one.
   */
  threads?: number | 'auto';
}

export async function loadClassifier(options: LoadClassifierOptions = {}): Promise<Classifier> {
  const dir = options.modelDir ?? DEFAULT_MODEL_DIR;
  const threads = options.threads === 'auto' ? autoReaderThreads() : options.threads ?? defaultReaderThreads();
  if (!(Number.isInteger(threads) && threads >= 1)) throw new RangeError(`threads must be a whole number ≥ 1, got ${threads}`);
  const metaFile = path.join(dir, 'meta.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(metaFile, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${metaFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const meta = parseModelMeta(raw, metaFile);
  const backend = await initBackend(options.backend);
  const model = await loadModel(dir);
  const upright = meta.upright !== undefined;
  // An upright model has one honest view: the crop as the camera saw it.
  const views = upright ? 1 : options.views ?? meta.views;
  const turns = turnsOf(views);
  const secondTurns = upright ? [0] : secondLookTurns(turns);
  const imagesPerPass = options.imagesPerPass ?? 32;
  const head = headOf(model);
  const orientation = meta.upright?.orientation;
  if (orientation && orientationDim(orientation) !== head.dim) {
    model.dispose();
    throw new Error(`${metaFile}: upright.orientation takes ${orientationDim(orientation)} values, the net's embedding has ${head.dim}`);
  }
  let disposed = false;
  const pool = backend.name === 'wasm' && threads > 1 ? await startForwardPool({ modelDir: dir, size: meta.preprocessing.size, threads }) : undefined;
  // The workers take the shipped net in the background (about a second here to start tfjs in
  // each): reads before that run on this thread, with the same results.
  const threadsReady = pool ? pool.share(model).catch(() => undefined) : Promise.resolve();
  const runs = (net: tf.LayersModel) => pool?.forward(net) ?? net;

  /** Standardised pixels of the crops and the crops per pass for these turns. */
  const prepare = (crops: readonly RgbImage[], at: readonly number[]) => {
    if (disposed) throw new Error('the dice classifier was disposed');
    return { pixels: preprocessCrops(crops, meta.preprocessing), perPass: Math.max(1, Math.floor(imagesPerPass / at.length)) };
  };

  const scoreWith = (net: tf.LayersModel, crops: readonly RgbImage[], at: readonly number[] = turns): CropScores => {
    const { pixels, perPass } = prepare(crops, at);
    return perCrop(predictTurns(runs(net), pixels, crops.length, meta.preprocessing.size, at, perPass), crops.length);
  };

  const scoreEachTurnWith = (net: tf.LayersModel, crops: readonly RgbImage[], at: readonly number[]): CropScores[] => {
    const { pixels, perPass } = prepare(crops, at);
    return predictEachTurn(runs(net), pixels, crops.length, meta.preprocessing.size, at, perPass).map((scores) => perCrop(scores, crops.length));
  };

  return {
    meta,
    views,
    turns,
    secondTurns,
    upright,
    ...(orientation ? { orientation } : {}),
    backend,
    head,
    score: (crops, at) => scoreWith(model, crops, at),
    scoreWith,
    scoreEachTurn: (crops, at) => scoreEachTurnWith(model, crops, at),
    scoreEachTurnWith,
    copyNet: () => loadModel(dir),
    get threads() {
      return pool?.threads ?? 1;
    },
    threadsReady,
    shareNet: async (net) => {
      await pool?.share(net).catch(() => undefined);
    },
    unshareNet: (net) => pool?.forget(net),
    meanwhile: (task) => pool?.meanwhile(task) ?? new Meanwhile(task).handle(),
    dispose() {
      if (disposed) return;
      disposed = true;
      pool?.dispose();
      model.dispose();
    },
  };
}

export interface SecondLookScores extends CropScores {
  /** Indices of the crops that were read once more (in the scorer's `secondTurns`). */
  lookedAgain: number[];
}

/**
 * How much closer a second look frames a doubtful die: 1.15 takes the 15 % margin `squareCrop`
 * leaves round the die's box back off, so the die fills the crop (scale 1.0 framing).
 */
export const SECOND_LOOK_ZOOM = 1.15;

/**
 * Reads every crop in the classifier's views, then reads the crops `unsure` flags once more,
 * closer (`closerCrop`: the die's own box, no margin) and in the scorer's `secondTurns` (one more
 * quarter turn round, or for an upright model not turned), and averages all their views: a
 * doubtful die gets one view more than a clear one. Clear dice are the many, so this costs a
 * fraction of reading everything in more views.
 * Measured (docs/notes/vision-model.md): the turned view gains what a third and a fourth turn
 * together gain on the synthetic test split, at half their cost; framing it closer gains a little
 * more (a locator's box, or a picture of one die, is often looser than the training framing).
 */
export function scoreWithSecondLook(
  classifier: Scorer,
  crops: readonly RgbImage[],
  unsure: (logits: Float32Array, embedding: Float32Array, index: number) => boolean,
  zoom = SECOND_LOOK_ZOOM,
  extra: SecondLookExtra | ((index: number) => SecondLookExtra) = 'none',
): SecondLookScores {
  const { scores, lookedAgain } = scoreAllWithSecondLook([classifier], crops, ([first], i) => unsure(first!.logits, first!.embedding, i), zoom, extra);
  return { ...scores[0]!, lookedAgain };
}

/**
 * What a second look reads besides the closer crop: nothing more; the crop and the closer crop
 * mirrored, where every face in play is its own mirror image (pips); or the closer crop moved
 * a few pixels either way along the picture's width.
 */
export type SecondLookExtra = 'none' | 'mirror' | 'shift';

/** How far a second look's moved crops are moved (of a 64 px crop; chosen on the validation split: 2, 3 and 4 px gained 0.5, 1.0 and 0.7 points). */
export const SECOND_LOOK_SHIFT = 3;

/**
 * The crops a second look reads a doubtful die in: closer, then the `extra` views. `axis` is
 * the picture's width once the crop is turned as it will be read ('y' for an odd quarter turn),
 * so a mirror stays left for right and a move stays sideways.
 */
export function secondLookCrops(crop: RgbImage, zoom: number, extra: SecondLookExtra, axis: 'x' | 'y' = 'x'): RgbImage[] {
  // SECOND_LOOK_CROPS below counts these.
  const closer = closerCrop(crop, zoom);
  if (extra === 'mirror') return [closer, flipCrop(crop, axis), flipCrop(closer, axis)];
  if (extra === 'shift') return [closer, shiftCrop(closer, axis, SECOND_LOOK_SHIFT), shiftCrop(closer, axis, -SECOND_LOOK_SHIFT)];
  return [closer];
}

/** How many crops `secondLookCrops` gives for each kind of second look. */
export const SECOND_LOOK_CROPS: Readonly<Record<SecondLookExtra, number>> = { none: 1, mirror: 3, shift: 3 };

/**
 * A crop's first read with `count` more views averaged in (rows[from..from+count)), the first
 * read weighing `firstShare` and the others the rest, alike.
 */
export function averageIn(first: Float32Array, rows: readonly Float32Array[], from: number, count: number, firstShare: number): Float32Array {
  let more = rows[from]!;
  if (count > 1) {
    more = new Float32Array(more.length);
    for (let v = 0; v < count; v++) {
      const row = rows[from + v]!;
      for (let c = 0; c < row.length; c++) more[c]! += row[c]! / count;
    }
  }
  return mix(first, more, firstShare, 1 - firstShare);
}

/**
 * The same with several scorers at once (the shipped net and nets adapted to dice sets in play):
 * `unsure` sees every scorer's first read of a crop, and a crop in doubt is read again by all of
 * them, so each scorer's result averages the same views.
 */
export function scoreAllWithSecondLook(
  scorers: readonly Scorer[],
  crops: readonly RgbImage[],
  unsure: (first: { logits: Float32Array; embedding: Float32Array }[], index: number) => boolean,
  zoom = SECOND_LOOK_ZOOM,
  extra: SecondLookExtra | ((index: number) => SecondLookExtra) = 'none',
): { scores: CropScores[]; lookedAgain: number[] } {
  if (scorers.length === 0) throw new Error('scoreAllWithSecondLook: no scorer');
  const turns = scorers[0]!.turns;
  const scores = scorers.map((s) => s.score(crops));
  const rest = scorers[0]!.secondTurns;
  const lookedAgain = rest.length === 0 ? [] : crops.map((_, i) => i).filter((i) => unsure(scores.map((f) => ({ logits: f.logits[i]!, embedding: f.embeddings[i]! })), i));
  if (lookedAgain.length === 0) return { scores, lookedAgain };
  // Each doubtful crop's second-look crops, one after another, read in `rest`.
  const extraOf = typeof extra === 'function' ? extra : () => extra;
  const perDie = lookedAgain.map((i) => secondLookCrops(crops[i]!, zoom, extraOf(i)));
  const looks = perDie.flat();
  scorers.forEach((scorer, j) => {
    const first = scores[j]!;
    const again = scorer.score(looks, rest);
    let at = 0;
    lookedAgain.forEach((i, k) => {
      const per = perDie[k]!.length;
      // Every view weighs the same: the first read's `turns`, and `per` crops × `rest` turns more.
      const a = turns.length / (turns.length + per * rest.length);
      first.logits[i] = averageIn(first.logits[i]!, again.logits, at, per, a);
      first.embeddings[i] = averageIn(first.embeddings[i]!, again.embeddings, at, per, a);
      at += per;
    });
  });
  return { scores, lookedAgain };
}

function mix(x: Float32Array, y: Float32Array, a: number, b: number): Float32Array {
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = a * x[i]! + b * y[i]!;
  return out;
}
