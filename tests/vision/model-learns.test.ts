/**
 * The training path learns features that carry over to crops it has never seen, and does so on
 * wasm exactly as on cpu over several optimiser steps.
 *
 * One-step gradient checks (model-train, model-wasm-gradients) cannot tell a net that learns from
 * one whose head merely memorises its training crops: both lower the training loss. Here a small
 * net of the committed family (conv → batch norm → ReLU blocks, dense head) is trained through
 * `trainClassifier` on 4 glyphs (dot, bar, ring, cross) drawn at random turns, sizes, places and
 * colours, and must read a held-out set of freshly drawn glyphs.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../shared/rng.js';
import { initBackend } from '../../vision/model/backend.js';
import { registerLeanBatchNormGradient } from '../../vision/model/batchnorm-gradient.js';
import { CROP_PIXELS } from '../../vision/model/dataset.js';
import type { CropSet } from '../../vision/model/dataset-store.js';
import type { NetConfig } from '../../vision/model/net.js';
import { RECIPE } from '../../vision/model/recipe.js';
import { argmax } from '../../vision/model/postprocess.js';
import { predictCrops, trainClassifier, type TrainConfig } from '../../vision/model/trainer.js';

const GLYPHS = 4;

/** Signed "inside" test of glyph `cls` at glyph-local coordinates (u, v), unit = half the die. */
function inside(cls: number, u: number, v: number): boolean {
  const r = Math.hypot(u, v);
  switch (cls) {
    case 0: return r < 0.22; // dot
    case 1: return Math.abs(u) < 0.6 && Math.abs(v) < 0.12; // bar
    case 2: return r > 0.35 && r < 0.55; // ring
    default: return (Math.abs(u - v) < 0.16 || Math.abs(u + v) < 0.16) && r < 0.65; // cross
  }
}

/** A 64×64 crop: a die-coloured square on a background, one glyph on it, turned and shifted. */
function drawGlyph(rng: Rng, cls: number): Uint8Array {
  const px = new Uint8Array(CROP_PIXELS);
  const colour = () => [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)];
  const bg = colour();
  const body = colour();
  // Ink contrasts with the body: the far end of each channel.
  const ink = body.map((c) => (c > 127 ? rng.int(0, 60) : rng.int(195, 255)));
  const half = 22 * rng.range(0.85, 1.15);
  const cx = 32 + rng.range(-4, 4);
  const cy = 32 + rng.range(-4, 4);
  const angle = rng.range(0, Math.PI);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) {
      const dx = (x - cx) / half;
      const dy = (y - cy) / half;
      const onDie = Math.abs(dx) < 1 && Math.abs(dy) < 1;
      const c = !onDie ? bg : inside(cls, cos * dx + sin * dy, -sin * dx + cos * dy) ? ink : body;
      const i = (y * 64 + x) * 3;
      for (let k = 0; k < 3; k++) px[i + k] = Math.max(0, Math.min(255, c[k]! + rng.int(-12, 12)));
    }
  }
  return px;
}

function glyphSet(seed: string, count: number): CropSet {
  const rng = createRng(seed);
  const set: CropSet = { count, classes: new Uint8Array(count), sets: new Uint8Array(count), pixels: new Uint8Array(count * CROP_PIXELS) };
  for (let i = 0; i < count; i++) {
    const cls = i % GLYPHS;
    set.classes[i] = cls;
    set.pixels.set(drawGlyph(rng, cls), i * CROP_PIXELS);
  }
  return set;
}

// The committed family at a third of the width: enough to learn 4 glyphs in seconds.
const NET: NetConfig = {
  blocks: [
    { filters: 8, kernel: 3, stride: 2 },
    { filters: 16, kernel: 3, stride: 2 },
    { filters: 24, kernel: 3, stride: 2 },
    { filters: 32, kernel: 3, stride: 2 },
  ],
  batchNorm: true,
  dropout: 0,
  head: 'dense',
  embedding: 32,
};

const CONFIG: TrainConfig = { seed: 'glyphs', net: NET, epochs: 6, batchSize: 16, learningRate: 3e-3, warmup: 0.05, weightDecay: 1e-4, labelSmoothing: 0, augment: 0 };

function accuracy(model: tf.LayersModel, data: CropSet): number {
  const { logits } = predictCrops(model, data);
  const classes = logits.length / data.count;
  let hits = 0;
  for (let i = 0; i < data.count; i++) if (argmax(logits.subarray(i * classes, (i + 1) * classes)) === data.classes[i]) hits++;
  return hits / data.count;
}

beforeAll(async () => {
  await initBackend('wasm');
  registerLeanBatchNormGradient();
});

describe('the training path learns, on wasm as on cpu', () => {
  it("keeps the committed net's embedding alive under the recipe's optimiser (no dying layer)", async () => {
    // The failure this guards against: the dense embedding over the 2,048 flattened ReLU
    // features had no normalisation, Adam at the recipe's rate pushed nearly all its units below
    // zero within a few dozen steps, and the net settled on the class prior (loss ln 28).
    await tf.setBackend('wasm');
    const net: NetConfig = { ...RECIPE.net, dropout: 0 };
    const config: TrainConfig = { ...CONFIG, net, epochs: 2, batchSize: 16, learningRate: RECIPE.learningRate, warmup: RECIPE.warmup };
    const model = await trainClassifier(glyphSet('glyphs-alive', 256), config);
    const heldOut = glyphSet('glyphs-alive-held-out', 64);
    const { embeddings, dim } = predictCrops(model, heldOut);
    let dead = 0;
    for (let j = 0; j < dim; j++) {
      let fires = false;
      for (let i = 0; i < heldOut.count && !fires; i++) fires = embeddings[i * dim + j]! > 0;
      if (!fires) dead++;
    }
    expect(dead / dim).toBeLessThan(0.25);
    model.dispose();
  });

  it('reads glyphs it never saw, better than any single guess', async () => {
    await tf.setBackend('wasm');
    const model = await trainClassifier(glyphSet('glyphs-train', 320), CONFIG);
    // Chance is 25%. 320 crops is little for glyphs at any turn (it memorises them all); 1,280
    // reach 94% but cost a minute, so this pins a floor that a net reading nothing cannot pass.
    expect(accuracy(model, glyphSet('glyphs-held-out', 160))).toBeGreaterThan(0.45);
    model.dispose();
  });

  it('several Adam steps over changing batches give the same weights on wasm and cpu', async () => {
    const data = glyphSet('glyphs-steps', 12);
    const config: TrainConfig = { ...CONFIG, epochs: 1, batchSize: 4, augment: 0.5 };
    const weights: Float32Array[][] = [];
    const losses: number[][] = [];
    for (const backend of ['wasm', 'cpu']) {
      await tf.setBackend(backend);
      const stepLosses: number[] = [];
      const model = await trainClassifier(data, config, { onStep: (_, __, loss) => { stepLosses.push(loss); } });
      weights.push(model.getWeights().map((w) => w.dataSync() as Float32Array));
      losses.push(stepLosses);
      model.dispose();
    }
    await tf.setBackend('wasm');
    expect(losses[0]).toHaveLength(3);
    losses[0]!.forEach((l, i) => expect(Math.abs(l - losses[1]![i]!), `loss at step ${i + 1}`).toBeLessThan(1e-3 * Math.max(1, l)));
    weights[0]!.forEach((w, i) => {
      const cpu = weights[1]![i]!;
      let scale = 1e-3;
      let worst = 0;
      for (let k = 0; k < w.length; k++) {
        scale = Math.max(scale, Math.abs(cpu[k]!));
        worst = Math.max(worst, Math.abs(w[k]! - cpu[k]!));
      }
      // Adam's first steps move each weight by about ±lr whatever the gradient's size, so a
      // gradient that is float noise on both backends can flip one weight by 2·lr (≈ 2% of
      // the largest weights here); a wrong kernel moves them by far more.
      expect(worst / scale, `weight ${i}`).toBeLessThan(3e-2);
    });
  });
});
