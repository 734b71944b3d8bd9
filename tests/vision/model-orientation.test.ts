/**
 * The orientation head (which quarter turn of a crop is upright) as pure functions: fitting finds
 * the turn when the embedding carries it, reproducibly; weights and probabilities are
 * normalised; a head of the wrong size is refused; a square image turns as the net's input does.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { ModelMetaSchema } from '../../vision/model/meta.js';
import { fitOrientationHead, turnProbabilities, uprightWeights, type OrientationHead } from '../../vision/model/orientation.js';
import { turnCropInto, turnSquare } from '../../vision/model/views.js';
import type { RgbImage } from '../../vision/types.js';

const DIM = 6;
/**
 * Embeddings of `n` crops in their four turns: noise, plus a "where the side faces show" pair of
 * features that turns with the crop (cos, sin of the turn), present only when `cue` says so (a
 * die seen straight down shows no side face, so nothing tells its turn).
 */
function embeddings(seed: string, n: number, cue = (_i: number) => true): number[][][] {
  const rng = createRng(seed);
  const base = Array.from({ length: n }, () => Array.from({ length: DIM }, () => rng.next() * 2 - 1));
  return [0, 1, 2, 3].map((k) => base.map((b, i) => {
    const e = b.map((v) => v + (rng.next() - 0.5) * 0.2);
    if (cue(i)) {
      e[0]! += 2 * Math.cos((k * Math.PI) / 2);
      e[1]! += 2 * Math.sin((k * Math.PI) / 2);
    }
    return e;
  }));
}

describe('fitOrientationHead', () => {
  it('names the turn of crops whose embedding carries it, and weighs the upright turn most at read time', () => {
    const { head, accuracy } = fitOrientationHead(embeddings('orient-fit', 200), { steps: 150, learningRate: 0.05 });
    expect(accuracy).toBeGreaterThan(0.95);
    const held = embeddings('orient-held', 50);
    let right = 0;
    for (let i = 0; i < 50; i++) {
      // A crop that is upright when turned by 3: its turn-t view is upright turned by (t − 3).
      const views = [0, 1, 2, 3].map((t) => held[(t + 1) % 4]![i]!);
      const w = uprightWeights(head, views);
      expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      if (w.indexOf(Math.max(...w)) === 3) right++;
    }
    expect(right).toBeGreaterThanOrEqual(48);
  });

  it('with no cue in the embedding, finds no turn: accuracy near chance and near-even weights', () => {
    const fit = fitOrientationHead(embeddings('orient-none', 200, () => false), { steps: 60 });
    expect(fit.accuracy).toBeLessThan(0.4);
    const w = uprightWeights(fit.head, embeddings('orient-none-held', 1, () => false).map((t) => t[0]!));
    for (const v of w) expect(v).toBeGreaterThan(0.15);
  });

  it('is reproducible: the same embeddings give the same head', () => {
    const data = embeddings('orient-repro', 40);
    expect(fitOrientationHead(data)).toEqual(fitOrientationHead(data));
  });

  it('refuses fewer than four turns, turns of different lengths, or no crops', () => {
    const data = embeddings('orient-bad', 4);
    expect(() => fitOrientationHead(data.slice(0, 3))).toThrow(/4 quarter turns/);
    expect(() => fitOrientationHead([data[0]!, data[1]!, data[2]!, data[3]!.slice(1)])).toThrow(/same crops/);
    expect(() => fitOrientationHead([[], [], [], []])).toThrow(/at least one/);
  });
});

describe('turnProbabilities', () => {
  const head: OrientationHead = { mean: [0, 0], scale: [1, 2], weights: [[1, 0], [0, 1], [-1, 0], [0, -1]], bias: [0, 0, 0, 0] };
  it('standardises the embedding and gives a probability per turn', () => {
    const p = turnProbabilities(head, [3, 0]);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p.indexOf(Math.max(...p))).toBe(0);
    // scale 2 on the second dimension: [0, 4] scores turn 1 at 2, as [2, 0] scores turn 0.
    expect(turnProbabilities(head, [0, 4])[1]).toBeCloseTo(turnProbabilities(head, [2, 0])[0]!, 12);
  });

  it('refuses an embedding of another size, and meta.json refuses a head without four rows', () => {
    expect(() => turnProbabilities(head, [1, 2, 3])).toThrow(/3 values, the head takes 2/);
    const upright = ModelMetaSchema.shape.upright;
    expect(upright.safeParse({ roll: 30, orientation: head }).success).toBe(true);
    expect(upright.safeParse({ roll: 30, orientation: { ...head, weights: head.weights.slice(0, 3) } }).success).toBe(false);
    expect(upright.safeParse({ roll: 30, orientation: { ...head, scale: [1, 0] } }).success).toBe(false);
  });
});

describe('turnSquare', () => {
  const size = 5;
  const img: RgbImage = { width: size, height: size, data: Uint8Array.from({ length: size * size * 3 }, (_, i) => i % 251) };
  it('turns a square picture exactly as the net\'s input is turned (turnCropInto), and four turns give it back', () => {
    for (const k of [0, 1, 2, 3]) {
      const dst = new Float32Array(size * size * 3);
      turnCropInto(Float32Array.from(img.data), 0, dst, 0, size, k);
      expect([...turnSquare(img, k).data]).toEqual([...dst]);
    }
    let back = img;
    for (let k = 0; k < 4; k++) back = turnSquare(back, 1);
    expect([...back.data]).toEqual([...img.data]);
    // turn 1 makes the right column the top row.
    expect([...turnSquare(img, 1).data.subarray(0, 3)]).toEqual([...img.data.subarray((size - 1) * 3, size * 3)]);
  });

  it('refuses a picture that is not square', () => {
    expect(() => turnSquare({ width: 4, height: 3, data: new Uint8Array(36) }, 1)).toThrow(/must be square, got 4×3/);
  });
});
