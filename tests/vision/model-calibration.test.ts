/**
 * "Teach clew your dice", its parts: the last-layer refit, how calibrated sets share a die's
 * logits, the files they are kept in, and the whole-net adaptation on the committed model.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DICE_SETS } from '../../shared/dice.js';
import { createRng } from '../../shared/rng.js';
import { FACE_CLASSES, classOf } from '../../vision/faces/classes.js';
import { decodeImage } from '../../vision/image/decode.js';
import { frameDieImage } from '../../vision/model/framing.js';
import { adaptNet } from '../../vision/model/adapt.js';
import { reorderChannels, TURNED_CHANNELS } from '../../vision/image/channels.js';
import { calibratedLogits, countExamples, fitCalibration, type Calibration, type Head } from '../../vision/model/calibration.js';
import { CalibrationStore, parseCalibration } from '../../vision/model/calibration-store.js';
import { loadClassifier, type Classifier } from '../../vision/model/classifier.js';
import { decodeWeightsInto, encodeWeights, fromFloat16Bits, toFloat16Bits } from '../../vision/model/io.js';
import { classMask, maskedSoftmax } from '../../vision/model/postprocess.js';
import type { RgbImage } from '../../vision/types.js';

const K = FACE_CLASSES.length;
const idx = (set: 'd6' | 'worm', face: string) => FACE_CLASSES.indexOf(classOf(set, face));

/** A head over a 2-value embedding that scores every class 0. */
const zeroHead: Head = { weights: new Float32Array(2 * K), bias: new Float32Array(K), dim: 2 };

function rowsCalibration(set: 'd6' | 'worm', rows: Record<string, [number, number, number]>): Calibration {
  const faces = Object.keys(rows);
  return {
    version: 1, set, modelId: 'm', createdAt: 't', counts: {}, fitAccuracy: 1,
    classes: faces.map((f) => classOf(set, f)),
    weights: faces.map((f) => rows[f]!.slice(0, 2)),
    bias: faces.map((f) => rows[f]![2]),
  };
}

describe('the last-layer refit', () => {
  it('learns to tell apart faces the shipped head cannot: each face\'s examples then score highest for it', () => {
    // Embeddings: face f sits at angle f·60°; the shipped head says nothing (all zeros).
    const samples = DICE_SETS.d6.faces.flatMap((face, f) => [0, 1, 2].map((k) => ({ face, embedding: [Math.cos((f * Math.PI) / 3) * (3 + k * 0.1), Math.sin((f * Math.PI) / 3) * (3 + k * 0.1)] })));
    const cal = fitCalibration('d6', samples, zeroHead, { modelId: 'm', createdAt: 't' }, { iterations: 300 });
    expect(cal.fitAccuracy).toBe(1);
    expect(cal.counts).toEqual({ '1': 3, '2': 3, '3': 3, '4': 3, '5': 3, '6': 3 });
    const logits = calibratedLogits(new Float32Array(K), [0, 3], [{ calibration: cal }]); // at 90°: between 2 (60°) and 3 (120°)
    const d6 = DICE_SETS.d6.faces.map((f) => logits[idx('d6', f)]!);
    expect(Math.max(...d6)).toBeCloseTo(Math.max(d6[1]!, d6[2]!), 9);
  });

  it('needs every face once and only the set\'s faces, and says which', () => {
    expect(() => countExamples('d6', ['1', '2', '3'])).toThrow(/missing: 4, 5, 6/);
    expect(() => countExamples('worm', ['1', '6'])).toThrow(/"6" is not a face of worm/);
    expect(countExamples('worm', ['1', '2', '3', '4', '5', 'worm', 'worm'])).toMatchObject({ worm: 2, '1': 1 });
  });
});

describe('whose logits a die gets', () => {
  const base = Float32Array.from({ length: K }, (_, k) => k / 10);

  it('a set with refitted rows scores its classes from the shipped embedding; every other class keeps the shipped logit', () => {
    const cal = rowsCalibration('worm', { worm: [1, 2, 0.5] });
    const out = calibratedLogits(base, [10, 100], [{ calibration: cal }]);
    expect(out[idx('worm', 'worm')]).toBeCloseTo(210.5, 9);
    expect(out[idx('d6', '1')]).toBeCloseTo(base[idx('d6', '1')]!, 6);
  });

  it('a set with an adapted net takes that net\'s logits for its classes, and a class two calibrated sets share gets the mean', () => {
    const netLogits = new Float32Array(K).fill(7);
    const d6Net: Calibration = { ...rowsCalibration('d6', { '1': [0, 0, 0], '6': [0, 0, 0] }), version: 2, net: { weights: '', steps: 1 } };
    const wormRows = rowsCalibration('worm', { '1': [0, 0, 3] });
    const out = calibratedLogits(base, [1, 1], [{ calibration: d6Net, logits: netLogits }, { calibration: wormRows }]);
    expect(out[idx('d6', '6')]).toBe(7);
    if (idx('d6', '1') === idx('worm', '1')) expect(out[idx('d6', '1')]).toBe(5); // (7 + 3) / 2
    // Every set in play adapted: no shipped logits at all, the rest is 0 (and masked away).
    const alone = calibratedLogits(null, null, [{ calibration: d6Net, logits: netLogits }]);
    expect(alone[idx('d6', '6')]).toBe(7);
    expect(alone[idx('worm', 'worm')]).toBe(0);
    expect(() => calibratedLogits(null, null, [{ calibration: wormRows }])).toThrow(/need the shipped net's embedding/);
  });
});

describe('calibration files', () => {
  const good = { ...rowsCalibration('d6', { '1': [0, 1, 2] }), counts: { '1': 1 } };

  it('reads both versions, and an adapted net only in version 2', () => {
    expect(parseCalibration(good, 'f.json').set).toBe('d6');
    expect(parseCalibration({ ...good, version: 2, net: { weights: 'AAAA', steps: 60 } }, 'f.json').net?.steps).toBe(60);
    expect(() => parseCalibration({ ...good, net: { weights: 'AAAA', steps: 60 } }, 'f.json')).toThrow(/f\.json: an adapted net needs version 2/);
    expect(() => parseCalibration({ ...good, version: 2, net: { weights: 'not base64!', steps: 60 } }, 'f.json')).toThrow(/f\.json: net\.weights: not base64/);
    expect(() => parseCalibration({ ...good, weights: [] }, 'f.json')).toThrow(/1 classes but 0 weight rows/);
    expect(() => parseCalibration({ ...good, version: 3 }, 'f.json')).toThrow(/f\.json: version/);
    // What the taught pictures said about their camera: one log-likelihood per camera hypothesis.
    expect(parseCalibration({ ...good, pictures: { camera: [-2, -9, -8, -9, -5], count: 3, up: 0 } }, 'f.json').pictures?.up).toBe(0);
    expect(() => parseCalibration({ ...good, pictures: { camera: [-2, -9], count: 3, up: null } }, 'f.json')).toThrow(/f\.json: pictures\.camera/);
    expect(() => parseCalibration({ ...good, pictures: { camera: [-2, -9, -8, -9, null], count: 3, up: null } }, 'f.json')).toThrow(/f\.json: pictures\.camera\.4/);
    expect(() => parseCalibration({ ...good, pictures: { camera: [-2, -9, -8, -9, -5], count: 3, up: 4 } }, 'f.json')).toThrow(/f\.json: pictures\.up/);
  });

  it('a torn file is refused with its name, and the store keeps the one before for undo', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'clew-cal-store-'));
    try {
      const store = new CalibrationStore(dir);
      await store.save({ ...good, createdAt: 'first' });
      await store.save({ ...good, createdAt: 'second' });
      expect((await store.read('d6'))?.createdAt).toBe('second');
      expect((await store.undo('d6'))?.createdAt).toBe('first');
      const text = readFileSync(path.join(dir, 'd6.json'), 'utf8');
      writeFileSync(path.join(dir, 'd6.json'), text.slice(0, text.length / 2));
      await expect(store.read('d6')).rejects.toThrow(/cannot read calibration .*d6\.json/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('float16 text of a net\'s weights', () => {
  it('half precision bits go back to the float they round', () => {
    // Within half a unit of the last place: 2^-11 relative, or half the smallest subnormal.
    for (const v of [0, 1, -2.5, 0.1, 65504, 6e-8, -1e-3]) expect(Math.abs(fromFloat16Bits(toFloat16Bits(v)) - v)).toBeLessThanOrEqual(Math.abs(v) * 2 ** -11 + 2 ** -25);
    expect(fromFloat16Bits(toFloat16Bits(Infinity))).toBe(Infinity);
  });
});

describe('adapting the whole net (committed model)', () => {
  let classifier: Classifier;
  let examples: { face: string; crop: RgbImage }[];
  const fixtures = path.resolve(import.meta.dirname, '../fixtures/dice-real');

  beforeAll(async () => {
    classifier = await loadClassifier();
    const labels = readFileSync(path.join(fixtures, 'labels.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    examples = await Promise.all(labels.map(async ([file, face]) => ({ face: face!, crop: frameDieImage(await decodeImage(readFileSync(path.join(fixtures, file!)))).crop })));
  });
  afterAll(() => classifier.dispose());

  /** Mean cross-entropy of the taught crops' labels over the d6 faces, as `net` reads them. */
  const loss = (net: Parameters<Classifier['scoreWith']>[0]) => {
    const read = classifier.scoreWith(net, examples.map((e) => e.crop));
    return read.logits.reduce((sum, l, i) => sum - Math.log(maskedSoftmax(l, classMask(['d6']))[idx('d6', examples[i]!.face)]!), 0) / examples.length;
  };

  it('moves the net towards the taught crops, reproducibly from the seed; its weights survive the float16 text', async () => {
    const a = await classifier.copyNet();
    const b = await classifier.copyNet();
    try {
      const shipped = encodeWeights(a);
      const before = loss(a);
      expect(await adaptNet(a, 'd6', examples, classifier.meta, createRng('t'), { steps: 12 })).toBe(12);
      await adaptNet(b, 'd6', examples, classifier.meta, createRng('t'), { steps: 12 });
      const text = encodeWeights(a);
      expect(text).not.toBe(shipped);
      expect(encodeWeights(b)).toBe(text);
      expect(loss(a)).toBeLessThan(before);
      // Into a fresh copy through the text: reads as the adapted net (up to float16 rounding).
      decodeWeightsInto(b, shipped);
      expect(encodeWeights(b)).toBe(shipped);
      decodeWeightsInto(b, text);
      expect(loss(b)).toBeCloseTo(loss(a), 2);
      expect(() => decodeWeightsInto(b, text.slice(0, 400))).toThrow(/adapted weights hold 150 values; this model has \d+/);
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it('shows a third of the taught crops in turned colours, as the colour look reads them: the net learns them in those colours too', async () => {
    const a = await classifier.copyNet();
    const c = await classifier.copyNet();
    const turned = examples.map((e) => ({ ...e, crop: reorderChannels(e.crop, TURNED_CHANNELS[1]!) }));
    const lossOn = (net: Parameters<Classifier['scoreWith']>[0], list: typeof examples) =>
      classifier.scoreWith(net, list.map((e) => e.crop)).logits.reduce((sum, l, i) => sum - Math.log(maskedSoftmax(l, classMask(['d6']))[idx('d6', list[i]!.face)]!), 0) / list.length;
    try {
      await adaptNet(a, 'd6', examples, classifier.meta, createRng('t'), { steps: 12 });
      await adaptNet(c, 'd6', examples, classifier.meta, createRng('t'), { steps: 12, turnedColours: 0 });
      expect(encodeWeights(a)).not.toBe(encodeWeights(c));
      expect(lossOn(a, turned)).toBeLessThan(lossOn(c, turned));
      await expect(adaptNet(c, 'd6', examples, classifier.meta, createRng('t'), { turnedColours: 1.5 })).rejects.toThrow(/turnedColours must be a share from 0 to 1, got 1.5/);
    } finally {
      a.dispose();
      c.dispose();
    }
  });

  it('no steps, no change; a face nobody taught is refused before any training', async () => {
    const net = await classifier.copyNet();
    try {
      const shipped = encodeWeights(net);
      await adaptNet(net, 'd6', examples, classifier.meta, createRng('t'), { steps: 0, replay: 0 });
      expect(encodeWeights(net)).toBe(shipped);
      await expect(adaptNet(net, 'd6', examples.filter((e) => e.face !== '6'), classifier.meta, createRng('t'))).rejects.toThrow(/missing: 6/);
    } finally {
      net.dispose();
    }
  });
});
