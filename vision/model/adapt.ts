/**
 * "Teach clew your dice", the whole net: fine-tunes a copy of the shipped classifier on a few
 * labelled crops of one dice set, so the features themselves learn how these dice look under
 * this camera. Refitting only the last layer cannot do that: the errors it leaves on real dice
 * (a 4 read as a 5 with a side face's pips in view) are in the features (docs/notes/vision-model.md).
 *
 * Each step trains on a batch of the taught crops, augmented (warps, light, a random quarter
 * turn unless the net reads upright), mixed half and half with rendered crops of the same set
 * ("replay"), so a handful of crops adapts the net without it forgetting the rest of the set's
 * looks; a third of the taught crops are shown with their colour channels turned round, as the
 * reader's colour look reads a doubtful die. The loss is the cross-entropy over the set's own
 * faces only: the copy reads nothing else. Adam with a small learning rate, no schedule.
 * Seeded: the same crops give the same net on the same backend.
 */
import * as tf from '@tensorflow/tfjs';
import { DICE_SETS, type DiceSetId } from '../../shared/dice.js';
import type { Rng } from '../../shared/rng.js';
import { FACE_CLASSES, classOf } from '../faces/classes.js';
import { renderCrop } from '../synth/index.js';
import type { RgbImage } from '../types.js';
import { MIRROR_SAFE, augmentCrop } from './augment.js';
import { countExamples } from './calibration.js';
import { standardiseInto, type Preprocessing } from './preprocess.js';
import { variablesOf } from './trainer.js';
import { turnCropInto } from './views.js';
import { reorderChannels, TURNED_CHANNELS } from '../image/channels.js';

export interface LabelledCrop {
  face: string;
  /** A 64×64 crop framed as the reader frames dice (`squareCrop`). */
  crop: RgbImage;
}

export interface AdaptOptions {
  /** Training steps (default 60). */
  steps?: number;
  /** Adam's learning rate (default 1e-4: 3e-4 already unlearnt more than it learnt). */
  learningRate?: number;
  /** Crops per step (default 32). */
  batchSize?: number;
  /** Share of each batch taken from rendered crops of the set (default 0.5). */
  replay?: number;
  /** Augmentation strength of the taught crops, 0..1 (default 0.4, as the last-layer refit's views). */
  strength?: number;
  /**
   * Share of the taught crops in a batch shown with their colour channels turned round (GBR or
   * BRG; default 1/3): the reader reads a die in doubt in those colours too (the colour look), with
   * the adapted net. Without them the adapted net's readings in turned colours pulled its own
   * down (docs/notes/vision-model.md, "The colour look").
   */
  turnedColours?: number;
  /** Called after every step; the loop also yields to the event loop there, so a server keeps serving. */
  onStep?: (step: number, steps: number) => void;
}

export const ADAPT_DEFAULTS = { steps: 60, learningRate: 1e-4, batchSize: 32, replay: 0.5, strength: 0.4, turnedColours: 1 / 3 } as const;

/** Rendered crops per face of the set kept for replay. */
const REPLAY_PER_FACE = 16;

/**
 * How the model reads crops (its meta.json): the preprocessing, and whether it reads them
 * upright, in which case the taught crops are never turned and the replayed renders keep world
 * up within ±roll degrees, as the net was trained.
 */
export interface ModelReading {
  preprocessing: Preprocessing;
  upright?: { roll: number };
}

/**
 * Trains `net` (a copy: `Classifier.copyNet`) in place on `examples`, which must cover every face
 * of `set`. Returns the steps taken.
 */
export async function adaptNet(net: tf.LayersModel, set: DiceSetId, examples: readonly LabelledCrop[], model: ModelReading, rng: Rng, options: AdaptOptions = {}): Promise<number> {
  const { preprocessing, upright } = model;
  countExamples(set, examples.map((e) => e.face));
  const size = preprocessing.size;
  for (const e of examples) {
    if (e.crop.width !== size || e.crop.height !== size) throw new Error(`adapt: crops must be ${size}×${size}, got ${e.crop.width}×${e.crop.height}`);
  }
  const o = { ...ADAPT_DEFAULTS, ...options };
  if (!(Number.isInteger(o.steps) && o.steps >= 0)) throw new RangeError(`adapt: steps must be a whole number ≥ 0, got ${o.steps}`);
  if (!(o.turnedColours >= 0 && o.turnedColours <= 1)) throw new RangeError(`adapt: turnedColours must be a share from 0 to 1, got ${o.turnedColours}`);
  const faces = DICE_SETS[set].faces;
  const replay: LabelledCrop[] = [];
  if (o.replay > 0) {
    for (let k = 0; k < REPLAY_PER_FACE; k++) {
      for (const face of faces) replay.push({ face, crop: renderCrop(rng.fork(), classOf(set, face), { sets: [set], difficulty: 0.5, size, ...(upright ? { knobs: { roll: upright.roll } } : {}) }) });
    }
  }
  // The set's columns of the logits, as a matrix (a gather's gradient needs a kernel wasm lacks).
  const pick = new Float32Array(FACE_CLASSES.length * faces.length);
  faces.forEach((f, j) => (pick[FACE_CLASSES.indexOf(classOf(set, f)) * faces.length + j] = 1));
  const columns = tf.tensor2d(pick, [FACE_CLASSES.length, faces.length]);
  const vars = variablesOf(net);
  const optimizer = tf.train.adam(o.learningRate);
  const per = size * size * 3;
  const standardised = new Float32Array(per);
  try {
    for (let step = 0; step < o.steps; step++) {
      const xs = new Float32Array(o.batchSize * per);
      const labels = new Int32Array(o.batchSize);
      for (let k = 0; k < o.batchSize; k++) {
        const fromReplay = replay.length > 0 && rng.next() < o.replay;
        let item = fromReplay ? rng.pick(replay) : rng.pick(examples);
        // The reader reads a doubtful die in its colours turned round too (the colour look), with this net.
        if (!fromReplay && o.turnedColours > 0 && rng.next() < o.turnedColours) item = { face: item.face, crop: reorderChannels(item.crop, rng.pick(TURNED_CHANNELS)) };
        const mirror = MIRROR_SAFE.has(classOf(set, item.face));
        standardiseInto(augmentCrop(item.crop.data, rng, { strength: o.strength, mirror, turns: !upright }), standardised, 0, preprocessing);
        const turn = rng.int(0, 3);
        turnCropInto(standardised, 0, xs, k * per, size, upright ? 0 : turn);
        labels[k] = faces.indexOf(item.face);
      }
      const x = tf.tensor4d(xs, [o.batchSize, size, size, 3]);
      const y = tf.tidy(() => tf.oneHot(tf.tensor1d(labels, 'int32'), faces.length).toFloat());
      const loss = optimizer.minimize(() => {
        const [logits] = net.apply(x, { training: true }) as tf.Tensor[];
        return tf.losses.softmaxCrossEntropy(y, tf.matMul(logits!, columns)) as tf.Scalar;
      }, false, vars);
      tf.dispose([x, y, loss ?? []]);
      o.onStep?.(step + 1, o.steps);
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    optimizer.dispose();
    columns.dispose();
  }
  return o.steps;
}
