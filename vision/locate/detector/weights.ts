/**
 * The detector's weights on disk: `detector.json` (format, preprocessing, tensor names and shapes,
 * how it was trained) beside `detector.bin` (float32, little-endian, in the model's weight order).
 * The network itself is built in code (model.ts), so only numbers travel.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { buildDetector } from './model.js';

export const WEIGHTS_FORMAT = 'clew-die-detector/1';

export interface DetectorManifest {
  format: typeof WEIGHTS_FORMAT;
  /** The detector sees the working frame (≤ 640 px) shrunk by this factor. */
  inputScale: number;
  /** Pixel values are mapped to x / 127.5 − 1. */
  normalisation: 'x/127.5-1';
  /** Heat at or above this is a die. */
  threshold: number;
  tensors: { name: string; shape: number[] }[];
  training?: Record<string, unknown>;
}

/** The committed weights, next to this module. */
export const DEFAULT_WEIGHTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'weights');

export function saveDetector(model: tf.LayersModel, dir: string, manifest: Omit<DetectorManifest, 'format' | 'tensors'>): void {
  const weights = model.weights;
  const values = weights.map((w) => w.read().dataSync() as Float32Array);
  const total = values.reduce((s, v) => s + v.length, 0);
  const all = new Float32Array(total);
  let at = 0;
  for (const v of values) {
    all.set(v, at);
    at += v.length;
  }
  const full: DetectorManifest = {
    format: WEIGHTS_FORMAT,
    ...manifest,
    tensors: weights.map((w) => ({ name: w.originalName, shape: w.shape.map(Number) })),
  };
  writeFileSync(path.join(dir, 'detector.json'), JSON.stringify(full, null, 2) + '\n');
  writeFileSync(path.join(dir, 'detector.bin'), new Uint8Array(all.buffer));
}

export function loadDetectorWeights(dir: string = DEFAULT_WEIGHTS_DIR): { model: tf.LayersModel; manifest: DetectorManifest } {
  const jsonPath = path.join(dir, 'detector.json');
  let manifest: DetectorManifest;
  try {
    manifest = JSON.parse(readFileSync(jsonPath, 'utf8')) as DetectorManifest;
  } catch (error) {
    throw new Error(`die detector: cannot read ${jsonPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (manifest.format !== WEIGHTS_FORMAT) throw new Error(`die detector: ${jsonPath} has format ${JSON.stringify(manifest.format)}, expected ${WEIGHTS_FORMAT}`);
  const binPath = path.join(dir, 'detector.bin');
  let bytes: Buffer;
  try {
    bytes = readFileSync(binPath);
  } catch (error) {
    throw new Error(`die detector: cannot read ${binPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (bytes.byteLength % 4 !== 0) throw new Error(`die detector: ${binPath} has ${bytes.byteLength} bytes, not a whole number of float32 values`);
  const all = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const model = buildDetector();
  const weights = model.weights;
  if (weights.length !== manifest.tensors.length) {
    model.dispose();
    throw new Error(`die detector: ${jsonPath} lists ${manifest.tensors.length} tensors, the network has ${weights.length}`);
  }
  const tensors: tf.Tensor[] = [];
  try {
    let at = 0;
    weights.forEach((w, i) => {
      const want = manifest.tensors[i]!;
      const shape = w.shape.map(Number);
      if (want.name !== w.originalName || JSON.stringify(want.shape) !== JSON.stringify(shape)) {
        throw new Error(`die detector: tensor ${i} is ${want.name} ${JSON.stringify(want.shape)} in ${jsonPath}, the network expects ${w.originalName} ${JSON.stringify(shape)}`);
      }
      const size = shape.reduce((s, d) => s * d, 1);
      if (at + size > all.length) throw new Error(`die detector: detector.bin is too short (${all.length} floats) for ${w.originalName}`);
      tensors.push(tf.tensor(all.subarray(at, at + size), shape));
      at += size;
    });
    if (at !== all.length) throw new Error(`die detector: detector.bin has ${all.length} floats, the network uses ${at}`);
    model.setWeights(tensors);
  } catch (error) {
    model.dispose();
    throw error;
  } finally {
    tensors.forEach((t) => t.dispose());
  }
  return { model, manifest };
}
