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
import { predictViews } from './views.js';

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
    const classes = meta.classes.length;
    const size = meta.preprocessing.size;
    const scores = predictViews(model, preprocessCrops(crops, meta.preprocessing), crops.length, size, views, batchSize);
    const logits = Array.from({ length: crops.length }, (_, k) => scores.logits.slice(k * classes, (k + 1) * classes));
    const embeddings = Array.from({ length: crops.length }, (_, k) => scores.embeddings.slice(k * scores.dim, (k + 1) * scores.dim));
    return { logits, embeddings };
  };

  return {
    meta,
    views,
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
