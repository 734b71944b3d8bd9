/**
 * The classifier's pure pre- and post-processing: crop standardisation, the dice-set mask and
 * tempered softmax, face naming across sets, temperature fitting and calibration error,
 * float16 storage, augmentation rules, the class schedule and the learning-rate schedule.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { FACE_CLASSES } from '../../vision/faces/classes.js';
import { MIRROR_SAFE, augmentCrop, repeatEdge } from '../../vision/model/augment.js';
import { classSchedule, difficultyOf } from '../../vision/model/dataset.js';
import { toFloat16Bits } from '../../vision/model/io.js';
import { bestFace, classMask, maskedSoftmax } from '../../vision/model/postprocess.js';
import { DEFAULT_PREPROCESSING, preprocessCrops, standardiseInto } from '../../vision/model/preprocess.js';
import { expectedCalibrationError, fitTemperature, type Scored } from '../../vision/model/temperature.js';
import { learningRateAt } from '../../vision/model/trainer.js';

const idx = (c: string) => FACE_CLASSES.indexOf(c as (typeof FACE_CLASSES)[number]);

function fromFloat16(bits: number): number {
  const s = bits & 0x8000 ? -1 : 1;
  const e = (bits >> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

describe('preprocessing', () => {
  it('standardises a crop to mean 0 and deviation 1 over all pixels and channels', () => {
    const rng = createRng('pre');
    const px = Uint8Array.from({ length: 64 * 64 * 3 }, () => rng.int(40, 220));
    const out = new Float32Array(px.length);
    standardiseInto(px, out, 0);
    const mean = out.reduce((a, b) => a + b, 0) / out.length;
    const sd = Math.sqrt(out.reduce((a, b) => a + (b - mean) ** 2, 0) / out.length);
    expect(mean).toBeCloseTo(0, 5);
    expect(sd).toBeCloseTo(1, 4);
  });

  it('does not blow a flat crop up into noise (deviation floored)', () => {
    const px = Uint8Array.from({ length: 64 * 64 * 3 }, (_, i) => 128 + (i % 2));
    const out = new Float32Array(px.length);
    standardiseInto(px, out, 0);
    expect(Math.max(...out.map(Math.abs))).toBeLessThan(1 / DEFAULT_PREPROCESSING.minStd + 1e-6);
  });

  it('is blind to exposure: a brighter, contrastier copy gives the same input', () => {
    const rng = createRng('exposure');
    const px = Uint8Array.from({ length: 64 * 64 * 3 }, () => rng.int(60, 120));
    const bright = Uint8Array.from(px, (v) => 2 * v - 20);
    const [a, b] = [new Float32Array(px.length), new Float32Array(px.length)];
    standardiseInto(px, a, 0);
    standardiseInto(bright, b, 0);
    expect(Math.max(...a.map((v, i) => Math.abs(v - b[i]!)))).toBeLessThan(1e-5);
  });

  it('refuses crops that were not framed to 64×64, naming which', () => {
    const ok = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 3) };
    const bad = { width: 80, height: 64, data: new Uint8Array(80 * 64 * 3) };
    expect(() => preprocessCrops([ok, bad])).toThrow(/crop 1 is 80×64/);
  });
});

describe('masking and naming', () => {
  it('a d6 can only read pips: every other class gets probability 0', () => {
    const logits = FACE_CLASSES.map((_, i) => (i === idx('worm') ? 9 : i === idx('pips-4') ? 2 : 0));
    const p = maskedSoftmax(logits, classMask(['d6']));
    expect(p[idx('worm')]).toBe(0);
    expect(bestFace(p, ['d6'])).toMatchObject({ set: 'd6', face: '4', cls: 'pips-4' });
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('with two sets in play a shared look is named by the first set that has it', () => {
    const logits = FACE_CLASSES.map((_, i) => (i === idx('num-5') ? 5 : 0));
    const p = maskedSoftmax(logits, classMask(['piecepack', 'wurmeln']));
    expect(bestFace(p, ['wurmeln', 'piecepack'])).toMatchObject({ set: 'wurmeln', face: '5' });
    expect(bestFace(p, ['piecepack', 'wurmeln'])).toMatchObject({ set: 'piecepack', face: '5' });
  });

  it('a higher temperature softens confidence without changing the winner', () => {
    const logits = FACE_CLASSES.map((_, i) => (i === idx('pips-2') ? 3 : i === idx('pips-3') ? 1 : 0));
    const mask = classMask(['d6']);
    const cold = bestFace(maskedSoftmax(logits, mask, 0.5), ['d6']);
    const warm = bestFace(maskedSoftmax(logits, mask, 2), ['d6']);
    expect(cold.face).toBe('2');
    expect(warm.face).toBe('2');
    expect(warm.confidence).toBeLessThan(cold.confidence);
  });

  it('refuses an empty list of sets', () => {
    expect(() => classMask([])).toThrow(/at least one dice set/);
  });
});

describe('confidence calibration', () => {
  it('recovers the temperature that generated the labels', () => {
    const rng = createRng('temperature');
    const mask = classMask(['d6']);
    const trueT = 2.5;
    const items: Scored[] = [];
    for (let n = 0; n < 3000; n++) {
      const logits = FACE_CLASSES.map((_, i) => (mask[i] ? 4 * rng.normal() : 0));
      const p = maskedSoftmax(logits, mask, trueT);
      let u = rng.next();
      let label = 0;
      for (let i = 0; i < p.length; i++) { u -= p[i]!; if (u <= 0) { label = i; break; } }
      items.push({ logits, label, mask });
    }
    expect(fitTemperature(items)).toBeGreaterThan(2.2);
    expect(fitTemperature(items)).toBeLessThan(2.8);
  });

  it('ECE is 0 for confidences that match accuracy and large for overconfidence', () => {
    const conf = Array.from({ length: 100 }, () => 0.75);
    const right = Array.from({ length: 100 }, (_, i) => i % 4 !== 0);
    expect(expectedCalibrationError(conf, right)).toBeCloseTo(0, 10);
    expect(expectedCalibrationError(conf.map(() => 0.99), right)).toBeCloseTo(0.24, 5);
  });
});

describe('float16 weights', () => {
  it('round-trips typical weights within half-precision error, and handles extremes', () => {
    const rng = createRng('f16');
    for (let i = 0; i < 1000; i++) {
      const v = rng.normal() * 0.3;
      expect(Math.abs(fromFloat16(toFloat16Bits(v)) - v)).toBeLessThanOrEqual(Math.abs(v) * 2 ** -11 + 2 ** -25);
    }
    expect(fromFloat16(toFloat16Bits(0))).toBe(0);
    expect(fromFloat16(toFloat16Bits(1e6))).toBe(Infinity);
    expect(fromFloat16(toFloat16Bits(-2))).toBe(-2);
    expect(fromFloat16(toFloat16Bits(1e-9))).toBe(0);
  });
});

describe('augmentation', () => {
  const rng0 = createRng('aug-src');
  const src = Uint8Array.from({ length: 64 * 64 * 3 }, () => rng0.int(0, 255));

  it('is reproducible from the seed', () => {
    const a = augmentCrop(src, createRng('same'), { strength: 1, mirror: true });
    const b = augmentCrop(src, createRng('same'), { strength: 1, mirror: true });
    expect(a).toEqual(b);
  });

  it('written into a reused buffer, a crop is the same as in a new one, whatever the buffer held', () => {
    const buffer = new Float32Array(64 * 64 * 3).fill(Number.NaN);
    for (const seed of ['r1', 'r2', 'r3', 'r4']) {
      const fresh = augmentCrop(src, createRng(seed), { strength: 1, mirror: true, edgeChance: 0.5 });
      const reused = augmentCrop(src, createRng(seed), { strength: 1, mirror: true, edgeChance: 0.5 }, buffer);
      expect(reused).toBe(buffer);
      expect(reused).toEqual(fresh);
    }
    expect(() => augmentCrop(src, createRng('r'), { strength: 1, mirror: false }, new Float32Array(10))).toThrow(/output buffer/);
  });

  it('at strength 0 only turns the crop by quarter turns (pixels are moved, not changed)', () => {
    const out = augmentCrop(src, createRng('q'), { strength: 0, mirror: false, edgeChance: 0 });
    expect([...out].map(Math.round).sort((x, y) => x - y)).toEqual([...src].sort((x, y) => x - y));
  });

  it('an upright model\'s augmentation never turns the crop: at strength 0 it is the crop itself', () => {
    for (const seed of ['u1', 'u2', 'u3', 'u4', 'u5', 'u6']) {
      const out = augmentCrop(src, createRng(seed), { strength: 0, mirror: false, edgeChance: 0, turns: false });
      expect([...out].map(Math.round)).toEqual([...src]);
    }
    // With turns allowed, some of the same seeds turn it.
    const turned = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].filter((seed) => {
      const out = augmentCrop(src, createRng(seed), { strength: 0, mirror: false, edgeChance: 0 });
      return [...out].map(Math.round).some((v, i) => v !== src[i]);
    });
    expect(turned.length).toBeGreaterThan(0);
  });

  it('repeats the edge row or column outwards, as squareCrop does at the frame edge', () => {
    const img = Float32Array.from({ length: 64 * 64 * 3 }, (_, i) => i);
    const at = (x: number, y: number) => [...img.subarray((y * 64 + x) * 3, (y * 64 + x) * 3 + 3)];
    const before = [at(10, 5), at(10, 20), at(60, 30)];
    repeatEdge(img, 0, 5); // top: rows 0..4 become row 5
    expect(at(10, 0)).toEqual(before[0]);
    expect(at(10, 4)).toEqual(before[0]);
    expect(at(10, 20)).toEqual(before[1]);
    repeatEdge(img, 1, 3); // right: columns 61..63 become column 60
    expect(at(63, 30)).toEqual(before[2]);
    expect(at(61, 30)).toEqual(before[2]);
  });

  it('mirrors only faces whose mirror image is the same face', () => {
    expect(MIRROR_SAFE.has('pips-3')).toBe(true);
    for (const c of ['num-2', 'num-7', 'shape-L', 'shape-Z', 'worm', 'ace'] as const) expect(MIRROR_SAFE.has(c)).toBe(false);
  });

  it('refuses a crop of the wrong size', () => {
    expect(() => augmentCrop(new Uint8Array(10), createRng(1), { strength: 1, mirror: false })).toThrow(/64×64/);
  });
});

describe('training schedules', () => {
  it('every cycle of the class schedule holds each class once (weights 1)', () => {
    const s = classSchedule({ seed: 's', split: 'train', count: FACE_CLASSES.length * 3 });
    for (let c = 0; c < 3; c++) {
      expect(new Set(s.slice(c * FACE_CLASSES.length, (c + 1) * FACE_CLASSES.length)).size).toBe(FACE_CLASSES.length);
    }
  });

  it('class weights repeat a class within each cycle', () => {
    const s = classSchedule({ seed: 's', split: 'train', count: FACE_CLASSES.length + 1, classWeights: { 'pips-6': 2 } });
    expect(s.filter((c) => c === idx('pips-6')).length).toBe(2);
  });

  it("a crop's difficulty is the first draw of its own seed, within the split's range", () => {
    const spec = { seed: 's', split: 'test', difficulty: [0.2, 0.9] as [number, number] };
    const d = Array.from({ length: 200 }, (_, i) => difficultyOf(spec, i));
    expect(d.every((v) => v >= 0.2 && v < 0.9)).toBe(true);
    expect(difficultyOf(spec, 7)).toBe(d[7]);
    expect(difficultyOf(spec, 7)).toBe(createRng('s:test:7').range(0.2, 0.9));
    expect(new Set(d).size).toBe(200);
    // Spread over the range: every seventh of it holds some crops.
    for (let k = 0; k < 7; k++) expect(d.some((v) => v >= 0.2 + k * 0.1 && v < 0.3 + k * 0.1)).toBe(true);
  });

  it('the learning rate warms up, peaks, and decays to 2% of the peak', () => {
    const cfg = { learningRate: 1, warmup: 0.1 };
    expect(learningRateAt(0, 100, cfg)).toBeCloseTo(0.1);
    expect(learningRateAt(9, 100, cfg)).toBeCloseTo(1);
    expect(learningRateAt(55, 100, cfg)).toBeLessThan(0.6);
    expect(learningRateAt(100, 100, cfg)).toBeCloseTo(0.02);
  });
});
