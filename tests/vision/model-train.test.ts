/**
 * Training the real net works on wasm exactly as on cpu: one training step of the committed
 * architecture (batch norm, fused convolutions, global pooling) gives the same loss, the same
 * gradients for every variable and the same updated weights on both backends. Also: batch
 * norms fold into the inference net without changing its outputs, the float16 model files
 * round-trip, a short seeded training run is reproducible and learns, and the first convolution's
 * leaner gradient changes no number.
 */
import * as tf from '@tensorflow/tfjs';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { FACE_CLASSES } from '../../vision/faces/classes.js';
import { initBackend } from '../../vision/model/backend.js';
import { registerLeanBatchNormGradient } from '../../vision/model/batchnorm-gradient.js';
import { renderDatasetInline } from '../../vision/model/dataset-store.js';
import { loadModel, saveModel } from '../../vision/model/io.js';
import { buildNet, foldForInference, type NetConfig } from '../../vision/model/net.js';
import { RECIPE } from '../../vision/model/recipe.js';
import { makeBatch, predictCrops, trainClassifier } from '../../vision/model/trainer.js';
import { worstRelative } from '../support/numbers.js';
import { oneTrainingStep, seededWeights } from '../support/training-step.js';

const NET: NetConfig = { ...RECIPE.net, dropout: 0 }; // dropout draws random masks: keep the step deterministic
const data = renderDatasetInline({ seed: 'model-train-test', split: 'train', count: 16, difficulty: [0.3, 0.8] });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'clew-model-'));

beforeAll(async () => {
  await initBackend('wasm');
  registerLeanBatchNormGradient();
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('training the real net', () => {
  it('one training step on wasm equals the same step on cpu (loss, every gradient, updated weights)', async () => {
    const init = seededWeights(NET, 'init');
    // A small batch: the cpu backend's convolution gradients are plain JavaScript loops.
    const wasm = await oneTrainingStep('wasm', NET, init, data, [0, 5, 10, 15], 'batch');
    const cpu = await oneTrainingStep('cpu', NET, init, data, [0, 5, 10, 15], 'batch');
    await tf.setBackend('wasm');
    expect(Math.abs(wasm.loss - cpu.loss)).toBeLessThan(1e-4 * Math.max(1, cpu.loss));
    // One gradient per trainable variable, counted from the config: a kernel per conv (no bias
    // under batch norm) and gamma, beta per batch norm; the same for a dense head; logits.
    // (Under batch norm the dense head's bias becomes its batch norm's gamma and beta.)
    const perBlock = NET.batchNorm ? 3 : 2;
    const head = NET.head === 'dense' ? perBlock : 0;
    expect(wasm.grads).toHaveLength(NET.blocks.length * perBlock + head + 2);
    wasm.grads.forEach((g, i) => expect(worstRelative(g, cpu.grads[i]!), `gradient ${i}`).toBeLessThan(2e-3));
    wasm.after.forEach((w, i) => expect(worstRelative(w, cpu.after[i]!), `weight ${i}`).toBeLessThan(1e-3));
  });

  it('the first convolution skips the crops\' own gradient and trains to the same weights, bit for bit', async () => {
    // The net runs its first conv as plain tf.conv2d (the fused op's gradient also computes the
    // gradient of its input, here the crops, and throws it away). Against the fused op: three
    // Adam steps give identical weights, and one step has one transposed convolution fewer.
    const init = seededWeights(NET, 'init');
    const build = (fused: boolean) => {
      const model = buildNet(NET, FACE_CLASSES.length);
      if (fused) delete (model.getLayer('conv1') as unknown as { call?: unknown }).call; // the prototype's fused path
      model.setWeights(init.map((w) => tf.tensor(w.values, w.shape)));
      return model;
    };
    const train = async (model: tf.LayersModel) => {
      const vars = model.trainableWeights.map((w) => (w as unknown as { val: tf.Variable }).val);
      const optimizer = tf.train.adam(5e-3);
      const rng = createRng('steps');
      let inputGradients = 0;
      for (let step = 0; step < 3; step++) {
        const { x, y } = makeBatch(data, [step, step + 4, step + 8, step + 12], rng, 0.5);
        const profile = await tf.profile(() => {
          const loss = optimizer.minimize(() => tf.losses.softmaxCrossEntropy(y, (model.apply(x, { training: true }) as tf.Tensor[])[0]!) as tf.Scalar, true, vars);
          if (loss) loss.dispose();
        });
        inputGradients = profile.kernels.filter((k) => k.name === 'Conv2DBackpropInput').length;
        tf.dispose([x, y]);
      }
      optimizer.dispose();
      const weights = model.getWeights().map((w) => w.dataSync() as Float32Array);
      model.dispose();
      return { weights, inputGradients };
    };
    const plain = await train(build(false));
    const fused = await train(build(true));
    expect(plain.inputGradients).toBe(NET.blocks.length - 1);
    expect(fused.inputGradients).toBe(NET.blocks.length);
    plain.weights.forEach((w, i) => expect(Buffer.from(w.buffer).equals(Buffer.from(fused.weights[i]!.buffer)), `weights ${i}`).toBe(true));
  });

  it('a short seeded run is reproducible and learns the crops it sees', async () => {
    await tf.setBackend('wasm');
    const config = { seed: 'repro', net: NET, epochs: 8, batchSize: 8, learningRate: 3e-3, warmup: 0.1, weightDecay: 0, labelSmoothing: 0, augment: 0 };
    const losses: number[][] = [[], []];
    const models = [];
    for (const run of [0, 1]) models.push(await trainClassifier(data, config, { onEpoch: (r) => { losses[run]!.push(r.loss); } }));
    expect(losses[0]).toEqual(losses[1]);
    expect(losses[0]!.at(-1)!).toBeLessThan(losses[0]![0]! * 0.5);
    const [a, b] = models.map((m) => m.getWeights().map((w) => Array.from(w.dataSync())));
    expect(a).toEqual(b);
    models.forEach((m) => m.dispose());
  });

  it('refuses a net whose stride passes its kernel (wasm gives a 3×3 convolution at stride 4 all zeros)', () => {
    const blocks = [{ filters: 8, kernel: 3, stride: 2 }, { filters: 16, kernel: 3, stride: 4 }];
    expect(() => buildNet({ ...NET, blocks }, FACE_CLASSES.length)).toThrow(/block 1 strides 4 with a 3×3 kernel/);
  });

  it('folding batch norms into the convolutions leaves the outputs unchanged', async () => {
    await tf.setBackend('wasm');
    const trained = await trainClassifier(data, { seed: 'fold', net: NET, epochs: 2, batchSize: 8, learningRate: 3e-3, warmup: 0.1, weightDecay: 0, labelSmoothing: 0, augment: 0.5 });
    const folded = foldForInference(trained, NET, FACE_CLASSES.length);
    const a = predictCrops(trained, data);
    const b = predictCrops(folded, data);
    expect(worstRelative(b.logits, a.logits)).toBeLessThan(1e-4);
    expect(worstRelative(b.embeddings, a.embeddings)).toBeLessThan(1e-4);
    expect(folded.layers.some((l) => l.getClassName() === 'BatchNormalization')).toBe(false);

    const bytes = await saveModel(folded, tmp);
    expect(statSync(path.join(tmp, 'weights.bin')).size).toBe(bytes);
    expect(bytes).toBe(folded.countParams() * 2); // float16
    const loaded = await loadModel(tmp);
    const c = predictCrops(loaded, data);
    expect(worstRelative(c.logits, b.logits)).toBeLessThan(2e-2); // half-precision weights
    for (const m of [trained, folded, loaded]) m.dispose();
  });

  it('a damaged model folder is refused with the file and the reason', async () => {
    await expect(loadModel(path.join(tmp, 'nowhere'))).rejects.toThrow(/cannot read the dice model .*model\.json/);
  });
});
