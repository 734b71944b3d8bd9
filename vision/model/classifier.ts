/**
 * The loaded face classifier: 64×64 crops in, per-class logits and embeddings out, batched,
 * optionally averaged over quarter-turn views (test-time augmentation). Everything it needs
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

export const DEFAULT_MODEL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'weights');

export interface CropScores {
  /** One row of FACE_CLASSES.length logits per crop. */
  logits: Float32Array[];
  /** One embedding per crop (the global-pool features the logits are made from). */
  embeddings: Float32Array[];
}

export interface Classifier {
  readonly meta: ModelMeta;
  readonly backend: BackendInfo;
  /** Dense layer of the net: logits = W·embedding + b (W is [dim][classes], row-major). */
  readonly head: { weights: Float32Array; bias: Float32Array; dim: number };
  score(crops: readonly RgbImage[]): CropScores;
  dispose(): void;
}

export interface LoadClassifierOptions {
  modelDir?: string;
  backend?: BackendName;
  /** Override the number of test-time views stored in meta.json. */
  views?: 1 | 2 | 4;
  /** Crops per forward pass. */
  batchSize?: number;
}

/** Quarter turns of an NHWC batch: k = 0..3 times 90° counter-clockwise. */
export function quarterTurn(x: tf.Tensor4D, k: number): tf.Tensor4D {
  switch (((k % 4) + 4) % 4) {
    case 0: return x;
    case 1: return tf.reverse(tf.transpose(x, [0, 2, 1, 3]), 1);
    case 2: return tf.reverse(x, [1, 2]);
    default: return tf.reverse(tf.transpose(x, [0, 2, 1, 3]), 2);
  }
}

export async function loadClassifier(options: LoadClassifierOptions = {}): Promise<Classifier> {
  const dir = options.modelDir ?? DEFAULT_MODEL_DIR;
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
  const views = options.views ?? meta.views;
  const batchSize = options.batchSize ?? 64;
  const [kernel, bias] = model.getLayer('logits').getWeights();
  const head = { weights: kernel!.dataSync() as Float32Array, bias: bias!.dataSync() as Float32Array, dim: kernel!.shape[0]! };
  let disposed = false;

  const score = (crops: readonly RgbImage[]): CropScores => {
    if (disposed) throw new Error('the dice classifier was disposed');
    const logits: Float32Array[] = [];
    const embeddings: Float32Array[] = [];
    const classes = meta.classes.length;
    for (let start = 0; start < crops.length; start += batchSize) {
      const part = crops.slice(start, start + batchSize);
      const data = preprocessCrops(part, meta.preprocessing);
      tf.tidy(() => {
        const x = tf.tensor4d(data, [part.length, meta.preprocessing.size, meta.preprocessing.size, 3]);
        let l: tf.Tensor | undefined;
        let e: tf.Tensor | undefined;
        for (let v = 0; v < views; v++) {
          const [lv, ev] = model.predict(quarterTurn(x, (v * 4) / views)) as tf.Tensor[];
          l = l ? tf.add(l, lv!) : lv!;
          e = e ? tf.add(e, ev!) : ev!;
        }
        const lv = tf.div(l!, views).dataSync() as Float32Array;
        const ev = tf.div(e!, views).dataSync() as Float32Array;
        const dim = ev.length / part.length;
        for (let k = 0; k < part.length; k++) {
          logits.push(lv.slice(k * classes, (k + 1) * classes));
          embeddings.push(ev.slice(k * dim, (k + 1) * dim));
        }
      });
    }
    return { logits, embeddings };
  };

  return {
    meta,
    backend,
    head,
    score,
    dispose() {
      if (disposed) return;
      disposed = true;
      model.dispose();
    },
  };
}
