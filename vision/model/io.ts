/**
 * Reading and writing the classifier's files (tfjs layers-model format) in a directory:
 * `model.json` (topology + weights manifest) and `weights.bin` with float16 weights, which tfjs
 * dequantises when it loads them. Written by hand because @tensorflow/tfjs has no file system
 * handler without tfjs-node.
 */
import * as tf from '@tensorflow/tfjs';
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';

/** IEEE 754 half precision bits of a float (round to nearest even). */
export function toFloat16Bits(value: number): number {
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // Inf/NaN
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow → Inf
  if (e <= 0) {
    if (e < -10) return sign; // underflow → 0
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++;
  return sign | half;
}

/** Float arrays packed one after another as half-precision bits. */
function toFloat16Array(parts: readonly Float32Array[]): Uint16Array {
  const halves = new Uint16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) for (let i = 0; i < p.length; i++) halves[at++] = toFloat16Bits(p[i]!);
  return halves;
}

interface SavedModelJson {
  format: 'layers-model';
  generatedBy: string;
  convertedBy: string;
  modelTopology: object;
  weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
}

/** Saves `model` as `dir/model.json` + `dir/weights.bin` (float16). Returns the weights' bytes. */
export async function saveModel(model: tf.LayersModel, dir: string): Promise<number> {
  await mkdir(dir, { recursive: true });
  let artifacts: tf.io.ModelArtifacts | undefined;
  await model.save(tf.io.withSaveHandler(async (a) => {
    artifacts = a;
    return { modelArtifactsInfo: { dateSaved: new Date(0), modelTopologyType: 'JSON' } };
  }));
  if (!artifacts?.weightSpecs || !artifacts.weightData || !artifacts.modelTopology) throw new Error('saveModel: tfjs produced no weights');
  const data = artifacts.weightData;
  const buffer = Array.isArray(data) ? tf.io.concatenateArrayBuffers(data) : data;
  const halves = toFloat16Array([new Float32Array(buffer)]);
  const specs = artifacts.weightSpecs.map((spec) => {
    if (spec.dtype !== 'float32') throw new Error(`saveModel: weight ${spec.name} is ${spec.dtype}; only float32 weights are stored`);
    return { ...spec, quantization: { dtype: 'float16' as const } };
  });
  const json: SavedModelJson = {
    format: 'layers-model',
    generatedBy: `TensorFlow.js tfjs-layers v${tf.version_layers}`,
    convertedBy: 'clew vision/model/io.ts (float16 weights)',
    modelTopology: artifacts.modelTopology as object,
    weightsManifest: [{ paths: ['weights.bin'], weights: specs }],
  };
  await writeFile(path.join(dir, 'model.json'), JSON.stringify(json));
  await writeFile(path.join(dir, 'weights.bin'), new Uint8Array(halves.buffer));
  return halves.byteLength;
}

/** Loads a model saved by `saveModel`; errors name the file and what is wrong with it. */
export async function loadModel(dir: string): Promise<tf.LayersModel> {
  const jsonFile = path.join(dir, 'model.json');
  let json: SavedModelJson;
  try {
    json = JSON.parse(await readFile(jsonFile, 'utf8')) as SavedModelJson;
  } catch (error) {
    throw new Error(`cannot read the dice model ${jsonFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (json.format !== 'layers-model' || !json.modelTopology || !Array.isArray(json.weightsManifest)) {
    throw new Error(`${jsonFile} is not a tfjs layers model (format ${String(json.format)})`);
  }
  const specs = json.weightsManifest.flatMap((g) => g.weights);
  const buffers = await Promise.all(json.weightsManifest.flatMap((g) => g.paths).map(async (p) => {
    const file = path.join(dir, p);
    try {
      const bytes = await readFile(file);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    } catch (error) {
      throw new Error(`cannot read the dice model weights ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }));
  const weightData = tf.io.concatenateArrayBuffers(buffers);
  const expected = specs.reduce((n, s) => n + s.shape.reduce((a, b) => a * b, 1) * (s.quantization?.dtype === 'float16' ? 2 : 4), 0);
  if (weightData.byteLength !== expected) {
    throw new Error(`${dir}: weights are ${weightData.byteLength} bytes but model.json lists ${expected}`);
  }
  return tf.loadLayersModel(tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs: specs, weightData }));
}

/** The float a half-precision bit pattern stands for. */
export function fromFloat16Bits(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >>> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** All of a model's weights, in `getWeights()` order, as float16 in base64 (how calibrations keep an adapted net). */
export function encodeWeights(model: tf.LayersModel): string {
  const halves = toFloat16Array(model.getWeights().map((w) => w.dataSync() as Float32Array));
  return Buffer.from(halves.buffer, halves.byteOffset, halves.byteLength).toString('base64');
}

/**
 * Sets a model's weights from `encodeWeights` text. The text must hold exactly as many values as
 * the model has weights (a net adapted from another model does not fit and is refused).
 */
export function decodeWeightsInto(model: tf.LayersModel, text: string): void {
  const bytes = Buffer.from(text, 'base64');
  const shapes = model.getWeights().map((w) => w.shape);
  const count = shapes.reduce((n, s) => n + s.reduce((a, b) => a * b, 1), 0);
  if (bytes.byteLength !== count * 2) throw new Error(`adapted weights hold ${Math.floor(bytes.byteLength / 2)} values; this model has ${count}`);
  const halves = new Uint16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  let at = 0;
  const tensors = shapes.map((shape) => {
    const n = shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(n);
    for (let i = 0; i < n; i++) values[i] = fromFloat16Bits(halves[at++]!);
    return tf.tensor(values, shape);
  });
  model.setWeights(tensors);
  tf.dispose(tensors);
}
