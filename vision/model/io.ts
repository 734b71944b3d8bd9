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
  const floats = new Float32Array(buffer);
  const halves = new Uint16Array(floats.length);
  for (let i = 0; i < floats.length; i++) halves[i] = toFloat16Bits(floats[i]!);
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
