/**
 * No tensor leaks: reading 1,000 crops (in batches, as a game does) and a run of whole frames
 * leaves `tf.memory().numTensors` where it was, and dispose() frees the model's weights.
 */
import * as tf from '@tensorflow/tfjs';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { decodeImage } from '../../vision/image/decode.js';
import { initBackend } from '../../vision/model/backend.js';
import { loadDiceReader } from '../../vision/reader.js';
import type { RgbImage } from '../../vision/types.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/dice-real');

describe('tensor leaks', () => {
  it('1,000 crops and 10 frames later, as many tensors as before; none after dispose', async () => {
    await initBackend();
    const before = tf.memory().numTensors;
    const reader = await loadDiceReader();
    const rng = createRng('leak');
    const crop = (): RgbImage => ({ width: 64, height: 64, data: Uint8Array.from({ length: 64 * 64 * 3 }, () => rng.int(0, 255)) });
    const frame = await decodeImage(readFileSync(path.join(fixtures, 'frame.jpg')));
    // Warm up once (backend kernels may cache on first use), then count.
    await reader.readCrops([crop()], { sets: ['d6'] });
    await reader.read(frame, { sets: ['d6'] });
    const loaded = tf.memory().numTensors;
    let read = 0;
    for (let batch = 0; batch < 50; batch++) {
      const crops = Array.from({ length: 20 }, crop);
      read += (await reader.readCrops(crops, { sets: batch % 2 ? ['d6'] : ['cozy-organ', 'cozy-shape'] })).length;
      expect(tf.memory().numTensors).toBe(loaded);
    }
    expect(read).toBe(1000);
    for (let i = 0; i < 10; i++) {
      // Every other frame with the colour look, as the tray camera reads a roll of a few dice.
      await reader.read(frame, { sets: ['d6'], ...(i % 2 ? { colourLook: true } : {}) });
      expect(tf.memory().numTensors).toBe(loaded);
    }
    reader.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('teaching adds one adapted net\'s weights while it is in force, reading with it leaks nothing, and undo or dispose frees it', async () => {
    await initBackend();
    const before = tf.memory().numTensors;
    const reader = await loadDiceReader({ adapt: { steps: 2 } });
    const labels = readFileSync(path.join(fixtures, 'labels.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const crops = await Promise.all(labels.map(async ([file, face]) => ({ face: face!, image: await decodeImage(readFileSync(path.join(fixtures, file!))) })));
    await reader.readCrops([crops[0]!.image], { sets: ['d6'] });
    const loaded = tf.memory().numTensors;
    const taught = async () => {
      for (const c of crops) await reader.calibration.add('d6', c.face, c.image);
      await reader.calibration.commit('d6', { persist: false });
    };
    await taught();
    const adapted = tf.memory().numTensors;
    expect(adapted).toBeGreaterThan(loaded);
    for (let i = 0; i < 5; i++) {
      await reader.readCrops(crops.map((c) => c.image), { sets: ['d6', 'worm'] });
      expect(tf.memory().numTensors).toBe(adapted);
    }
    await reader.calibration.undo('d6');
    expect(tf.memory().numTensors).toBe(loaded);
    await taught();
    expect(tf.memory().numTensors).toBe(adapted);
    reader.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });
});
