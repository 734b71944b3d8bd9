/**
 * The tfjs copies of the GPU capacity runs' nets (scripts/capacity/capacity.py) are the nets
 * measured there: the same trainable parameters as PyTorch counted for each (docs/notes/
 * capacity-runs.jsonl), so the cost table in vision-model.md prices the nets whose accuracy it
 * reports.
 */
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../vision/model/backend.js';
import { buildResNet, measureNetCost, trainableParams } from '../../vision/model/capacity-nets.js';
import { FACE_CLASSES } from '../../vision/faces/classes.js';

beforeAll(async () => {
  await initBackend('wasm');
});

describe('capacity nets', () => {
  it.each([
    // [blocks, width, PyTorch's count from the GPU runs and the smoke run of the untried plan]
    [2, 16, 703_788],
    [2, 24, 1_578_676],
    [2, 8, 177_572],
    [1, 16, 311_148],
  ])('ResNet with %i blocks a stage, width %i: %i trainable parameters, as in PyTorch', (blocks, width, torchCount) => {
    const net = buildResNet(width, blocks, FACE_CLASSES.length);
    expect(trainableParams(net)).toBe(torchCount);
    // tfjs also counts each batch norm's moving mean and variance: two per channel.
    expect(net.countParams()).toBeGreaterThan(torchCount);
    net.dispose();
  });

  it('reads a batch and takes a training step on wasm, leaving no tensor behind', async () => {
    const net = buildResNet(4, 1, FACE_CLASSES.length);
    const before = tf.memory().numTensors;
    const cost = await measureNetCost(net, 1);
    expect(tf.memory().numTensors).toBe(before);
    expect(cost.params).toBe(net.countParams());
    expect(cost.readMs).toBeGreaterThan(0);
    expect(cost.stepMs).toBeGreaterThan(0);
    await measureNetCost(net, 1);
    expect(tf.memory().numTensors).toBe(before);
    net.dispose();
  });
});

afterAll(() => {
  tf.disposeVariables();
});
