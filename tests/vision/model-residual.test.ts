/**
 * Residual blocks in the face classifier's net (`NetBlock.residual`): the ResNet-10 the GPU runs
 * measured (docs/notes/vision-model.md, "Real photos and the net's size") has PyTorch's number of
 * trainable parameters; a residual net trains on wasm exactly as on cpu; its batch norms fold
 * into the inference graph without changing its outputs, and it round-trips through the model
 * files. The committed recipe's net keeps its layers.
 */
import * as tf from '@tensorflow/tfjs';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_CLASSES } from '../../vision/faces/classes.js';
import { initBackend } from '../../vision/model/backend.js';
import { registerLeanBatchNormGradient } from '../../vision/model/batchnorm-gradient.js';
import { renderDatasetInline } from '../../vision/model/dataset-store.js';
import { loadModel, saveModel } from '../../vision/model/io.js';
import { buildNet, foldForInference, type NetConfig } from '../../vision/model/net.js';
import { NETS, RECIPE, netNamed } from '../../vision/model/recipe.js';
import { predictCrops, trainClassifier } from '../../vision/model/trainer.js';
import { worstRelative } from '../support/numbers.js';
import { oneTrainingStep, seededWeights } from '../support/training-step.js';

/** ResNet-10 of width 16 as real-transfer.py trained it: a 3×3 stem of stride 2, four basic blocks, pooled. */
const RESNET10 = NETS.resnet10;
/** A small residual net (one identity shortcut, one projected), cheap enough for the cpu backend. */
const SMALL: NetConfig = {
  blocks: [
    { filters: 8, kernel: 3, stride: 2 },
    { filters: 8, kernel: 3, stride: 1, residual: true },
    { filters: 16, kernel: 3, stride: 2, residual: true },
  ],
  batchNorm: true,
  dropout: 0,
  head: 'dense',
  embedding: 24,
};
const data = renderDatasetInline({ seed: 'model-residual-test', split: 'train', count: 16, difficulty: [0.3, 0.8] });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'clew-residual-'));

const trainable = (m: tf.LayersModel) => m.trainableWeights.reduce((n, w) => n + w.shape.reduce<number>((a, b) => a * (b ?? 1), 1), 0);

beforeAll(async () => {
  await initBackend('wasm');
  registerLeanBatchNormGradient();
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('residual blocks', () => {
  it('ResNet-10 of width 16 has the trainable parameters of the PyTorch net the GPU runs trained (311,148)', () => {
    const net = buildNet(RESNET10, FACE_CLASSES.length);
    expect(trainable(net)).toBe(311_148);
    // Shortcuts: identity where the width and size stay, a 1×1 projection where they change.
    const names = net.layers.map((l) => l.name);
    expect(names).not.toContain('conv2s');
    expect(names.filter((n) => /^conv\ds$/.test(n))).toEqual(['conv3s', 'conv4s', 'conv5s']);
    const [logits, embedding] = net.outputs;
    expect(logits!.shape).toEqual([null, FACE_CLASSES.length]);
    expect(embedding!.shape).toEqual([null, 128]);
    net.dispose();
  });

  it('npm run train names its nets: the recipe\'s by default, resnet10 and resnet10w8 (PyTorch\'s parameter counts), and refuses others with the choices', () => {
    expect(netNamed('recipe')).toBe(RECIPE.net);
    expect(netNamed('resnet10').blocks.filter((b) => b.residual)).toHaveLength(4);
    expect(trainable(buildNet(netNamed('resnet10w8'), FACE_CLASSES.length))).toBe(79_172);
    expect(() => netNamed('resnet50')).toThrow(/--net must be one of recipe, resnet10, resnet10w8, got "resnet50"/);
  });

  it('leaves the committed recipe\'s plain net as it was: four conv, batch-norm and ReLU layers, no adds', () => {
    const net = buildNet(RECIPE.net, FACE_CLASSES.length);
    const names = net.layers.map((l) => l.name);
    expect(names.filter((n) => /^(conv|bn|relu)\d$/.test(n))).toEqual(['conv1', 'bn1', 'relu1', 'conv2', 'bn2', 'relu2', 'conv3', 'bn3', 'relu3', 'conv4', 'bn4', 'relu4']);
    expect(names.some((n) => n.startsWith('add'))).toBe(false);
    net.dispose();
  });

  it('one training step of a residual net on wasm equals the same step on cpu (loss, every gradient)', async () => {
    const init = seededWeights(SMALL, 'residual-init');
    const wasm = await oneTrainingStep('wasm', SMALL, init, data, [1, 6, 11], 'residual-batch');
    const cpu = await oneTrainingStep('cpu', SMALL, init, data, [1, 6, 11], 'residual-batch');
    await tf.setBackend('wasm');
    expect(Math.abs(wasm.loss - cpu.loss)).toBeLessThan(1e-4 * Math.max(1, cpu.loss));
    // Kernels of 1 + 2 + 3 convolutions, each with a batch norm's gamma and beta; the dense
    // embedding's kernel, gamma and beta; the logits' kernel and bias.
    expect(wasm.grads).toHaveLength(6 * 3 + 3 + 2);
    wasm.grads.forEach((g, i) => {
      expect(g.some((v) => v !== 0), `gradient ${i} is not all zeros`).toBe(true);
      expect(worstRelative(g, cpu.grads[i]!), `gradient ${i}`).toBeLessThan(2e-3);
    });
  });

  it('folds its batch norms into every convolution, shortcuts included, without changing its outputs', async () => {
    const trained = await trainClassifier(data, { seed: 'fold-residual', net: SMALL, epochs: 2, batchSize: 8, learningRate: 3e-3, warmup: 0.1, weightDecay: 0, labelSmoothing: 0, augment: 0.5 });
    const folded = foldForInference(trained, SMALL, FACE_CLASSES.length);
    expect(folded.layers.some((l) => l.getClassName() === 'BatchNormalization')).toBe(false);
    expect(folded.countParams()).toBeLessThan(trained.countParams());
    const a = predictCrops(trained, data);
    const b = predictCrops(folded, data);
    expect(worstRelative(b.logits, a.logits)).toBeLessThan(1e-4);
    expect(worstRelative(b.embeddings, a.embeddings)).toBeLessThan(1e-4);
    await saveModel(folded, tmp);
    const loaded = await loadModel(tmp);
    expect(worstRelative(predictCrops(loaded, data).logits, b.logits)).toBeLessThan(2e-2); // half-precision weights
    for (const m of [trained, folded, loaded]) m.dispose();
  });
});
