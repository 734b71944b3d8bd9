/**
 * The learned die detector with its committed weights: it loads; alongside the classical locator
 * (which it only adds confident dice to) real frames still give every die and nothing else, and
 * rendered scenes give more dice than the classical locator alone; it leaks no tensors; damaged
 * weight files are refused with a clear message.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { decodeImage } from '../../vision/image/decode.js';
import { loadDieDetector, type DieDetector } from '../../vision/locate/detector/index.js';
import { buildDetector } from '../../vision/locate/detector/model.js';
import { detectorSeedNumber, trainDetector } from '../../vision/locate/detector/train.js';
import { DEFAULT_WEIGHTS_DIR, loadDetectorWeights } from '../../vision/locate/detector/weights.js';
import { evaluateLocators, matchDice } from '../../vision/locate/evaluate.js';
import { locateDice } from '../../vision/locate/index.js';
import { paintScene } from './locate-scenes.js';
import { FRAME_DICE, FRAMES_DIR } from './real-frames.js';

const framesDir = FRAMES_DIR, rows = FRAME_DICE;

let detector: DieDetector;
beforeAll(async () => {
  detector = await loadDieDetector();
});
afterAll(() => detector?.dispose());

describe('the learned die detector', () => {
  it('loads the committed weights with their preprocessing metadata', () => {
    expect(detector.manifest.format).toBe('clew-die-detector/1');
    expect(detector.manifest.inputScale).toBe(0.25);
    expect(detector.manifest.threshold).toBeGreaterThan(0);
    expect(detector.manifest.threshold).toBeLessThan(1);
  });

  it.each([...new Set(rows.map((r) => r.file))])('real frame %s with the detector rescuing: both dice, nothing else', async (file) => {
    const image = await decodeImage(readFileSync(path.join(framesDir, file)));
    const truth = rows.filter((r) => r.file === file).map((r) => r.box);
    const found = locateDice(image, { detector }).map((d) => d.box);
    const m = matchDice(truth, found);
    expect({ missed: truth.filter((_, i) => !m.hit[i]), spurious: m.spurious.map((j) => found[j]) }).toEqual({ missed: [], spurious: [] });
  });

  it('on seeded rendered scenes it never saw, adds dice the classical locator misses', () => {
    const reports = evaluateLocators(
      {
        classical: (img) => locateDice(img).map((d) => d.box),
        rescued: (img) => locateDice(img, { detector }).map((d) => d.box),
        detector: (img) => locateDice(img, { detector, detectorOnly: true }).map((d) => d.box),
      },
      { seed: 'test', scenesPerCase: 1, size: 480 },
    );
    const recall = (name: string) => reports[name]!.all.found / reports[name]!.all.dice;
    const precision = (name: string) => reports[name]!.all.found / (reports[name]!.all.found + reports[name]!.all.spurious);
    expect(reports.classical!.all.dice).toBeGreaterThan(40);
    // Floors well under what these scenes give today (classical 60 % / 85 %): a regression trips them.
    expect(recall('classical')).toBeGreaterThan(0.5);
    expect(precision('classical')).toBeGreaterThan(0.75);
    expect(recall('rescued')).toBeGreaterThan(recall('classical'));
    expect(recall('detector')).toBeGreaterThan(0.5);
    expect(precision('rescued')).toBeGreaterThan(0.6);
  });

  it('finds nothing on a blank frame or an empty tray', () => {
    expect(detector.detect({ width: 640, height: 480, data: new Uint8Array(640 * 480 * 3).fill(128) })).toEqual([]);
    const { image } = paintScene(createRng('empty-felt'), { width: 320, height: 240, tray: [40, 110, 60], texture: 'mottled', dice: [] });
    expect(locateDice(image, { detector })).toEqual([]);
  });

  it('leaks no tensors over many frames', () => {
    const { image } = paintScene(createRng('leak'), { width: 160, height: 160, tray: [90, 90, 90], dice: [{ cx: 80, cy: 80, side: 30, body: [200, 30, 30] }] });
    detector.detect(image);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 200; i++) detector.detect(image);
    expect(tf.memory().numTensors).toBe(before);
  });

  it('trains on the running backend (wasm, with the registered gradient kernels): the weights move', () => {
    expect(tf.getBackend()).toBe(detector.backend);
    const sample = (seed: string) => {
      const { image, boxes } = paintScene(createRng(seed), {
        width: 64,
        height: 64,
        tray: [60, 110, 70],
        dice: [{ cx: 24, cy: 30, side: 16, angle: 0.3, body: [235, 235, 230] }, { cx: 46, cy: 44, side: 14, body: [190, 30, 35], pip: [250, 250, 250] }],
      });
      return { image, boxes };
    };
    // The network training starts from, rebuilt from the same seed.
    const before = buildDetector(detectorSeedNumber('unit'));
    const start = Array.from(before.getLayer('stem').getWeights()[0]!.dataSync().slice(0, 5));
    const result = trainDetector([sample('a'), sample('b')], [sample('c')], { steps: 2, batch: 2, crop: 32, lr: 1e-3, seed: 'unit' });
    const trained = Array.from(result.model.getLayer('stem').getWeights()[0]!.dataSync().slice(0, 5));
    expect(trained.every(Number.isFinite)).toBe(true);
    expect(trained).not.toEqual(start);
    expect(result.recall).toBeGreaterThanOrEqual(0);
    expect(result.precision).toBeLessThanOrEqual(1);
    before.dispose();
    result.model.dispose();
  });

  describe('damaged weight files', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'clew-detector-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a missing manifest names the file', () => {
      expect(() => loadDetectorWeights(path.join(dir, 'nowhere'))).toThrow(/cannot read .*nowhere.*detector\.json/);
    });

    it('a truncated weights file says so', () => {
      copyFileSync(path.join(DEFAULT_WEIGHTS_DIR, 'detector.json'), path.join(dir, 'detector.json'));
      writeFileSync(path.join(dir, 'detector.bin'), readFileSync(path.join(DEFAULT_WEIGHTS_DIR, 'detector.bin')).subarray(0, 4000));
      expect(() => loadDetectorWeights(dir)).toThrow(/detector\.bin is too short/);
    });

    it('a manifest of another format is refused', () => {
      writeFileSync(path.join(dir, 'detector.json'), JSON.stringify({ format: 'something-else/9' }));
      expect(() => loadDetectorWeights(dir)).toThrow(/format "something-else\/9", expected clew-die-detector\/1/);
    });
  });
});
