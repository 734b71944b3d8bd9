/**
 * One camera, one up (frame-up.ts): the dice of a frame revise each other's upright weights. A
 * doubtful die takes the turn the other dice agree on, from the side at any roll and from
 * overhead; a die never votes for itself; a lone die and a frame without evidence are left alone;
 * the overhead turns follow `turnCropInto`'s direction.
 */
import { describe, expect, it } from 'vitest';
import { FRAME_UP_DEFAULTS, cameraEvidence, frameUprightWeights, hypothesisTurns, likeliestSideUp, sharedUpCertainty } from '../../vision/model/frame-up.js';
import { overheadUp } from '../../vision/image/upright.js';
import { turnCropInto } from '../../vision/model/views.js';
import type { Box } from '../../vision/types.js';

/** Weights sure of turn `t` (a die whose side faces show clearly). */
const sure = (t: number, p = 0.85): number[] => [0, 1, 2, 3].map((k) => (k === t ? p : (1 - p) / 3));
const unsure = [0.3, 0.26, 0.2, 0.24];
const argmax = (w: ArrayLike<number>) => Array.from(w).indexOf(Math.max(...Array.from(w)));

describe('frameUprightWeights', () => {
  it('from the side, at any roll: a doubtful die takes the quarter turn the others agree on', () => {
    for (const roll of [0, 1, 2, 3]) {
      const weights = [sure(roll), sure(roll), sure(roll, 0.6), unsure];
      // Positions all round the centre: the overhead hypothesis would want a different turn for each.
      const ups = [0, Math.PI / 2, Math.PI, -Math.PI / 2];
      const revised = frameUprightWeights(weights, ups);
      expect(argmax(revised[3]!)).toBe(roll);
      expect(revised[3]![roll]!).toBeGreaterThan(0.7);
      for (const w of revised) expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
  });

  it('from overhead: a doubtful die takes the turn that points away from the centre', () => {
    // Dice above, right of, below and left of the centre, each sure its up points outwards; the
    // fifth, at the lower right, is unsure: overhead, its up lies between turns 1 and 2.
    const ups = [0, Math.PI / 2, Math.PI, -Math.PI / 2, (3 * Math.PI) / 4];
    const weights = [sure(0), sure(1), sure(2), sure(3), unsure];
    const revised = frameUprightWeights(weights, ups);
    const w = revised[4]!;
    expect(w[1]! + w[2]!).toBeGreaterThan(0.85);
    // The sure dice keep their own turns.
    for (let i = 0; i < 4; i++) expect(argmax(revised[i]!)).toBe(i);
  });

  it('never counts a die as evidence for itself: its revised weights are its own times what the others say', () => {
    const others = [sure(1), sure(1, 0.5)];
    const ups = [0.3, 1.2, -2];
    const a = frameUprightWeights([...others, [0.7, 0.1, 0.1, 0.1]], ups)[2]!;
    const b = frameUprightWeights([...others, [0.1, 0.1, 0.1, 0.7]], ups)[2]!;
    // The prior from the others is the same in both: revised ∝ own × prior, so the ratios agree.
    const priorA = [0, 1, 2, 3].map((t) => a[t]! / [0.7, 0.1, 0.1, 0.1][t]!);
    const priorB = [0, 1, 2, 3].map((t) => b[t]! / [0.1, 0.1, 0.1, 0.7][t]!);
    const norm = (p: number[]) => p.map((v) => v / p.reduce((x, y) => x + y, 0));
    norm(priorA).forEach((v, t) => expect(v).toBeCloseTo(norm(priorB)[t]!, 10));
    // Two dice that each insist on another turn do not talk each other out of it.
    const pair = frameUprightWeights([sure(0, 0.9), sure(2, 0.9)], [0, 0]);
    expect(argmax(pair[0]!)).toBe(0);
    expect(argmax(pair[1]!)).toBe(2);
  });

  it('leaves a lone die, a frame of dice with no evidence, and evidence 0 as they were', () => {
    expect(Array.from(frameUprightWeights([unsure], [0.4])[0]!)).toEqual(unsure);
    const flat = [0.25, 0.25, 0.25, 0.25];
    for (const w of frameUprightWeights([flat, flat, unsure], [0, 1, null])) expect(w.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(Array.from(frameUprightWeights([flat, flat, unsure], [0, 1, null])[2]!).map((v) => +v.toFixed(12))).toEqual(unsure);
    const weights = [sure(1), sure(1), unsure];
    expect(frameUprightWeights(weights, [0, 1, 2], { evidence: 0 }).map((w) => Array.from(w))).toEqual(weights);
  });

  it('judges a frame with what earlier frames said about the camera, a lone die too, as if they were more dice of the frame', () => {
    // Earlier frames: from the side, picture turned once (hypothesis 1), far ahead.
    const earlier = [-30, 0, -30, -30, -30];
    const [lone] = frameUprightWeights([unsure], [0.4], {}, earlier);
    expect(argmax(lone!)).toBe(1);
    // The same as one more die of the frame that said so: the earlier evidence and a die's own log-likelihoods add.
    const withDie = frameUprightWeights([unsure, sure(1, 0.99)], [0.4, 2], { evidence: 1 });
    const asEarlier = frameUprightWeights([unsure], [0.4], { evidence: 1 }, cameraEvidence([sure(1, 0.99)], [2]));
    expect(Array.from(asEarlier[0]!).map((v) => +v.toFixed(12))).toEqual(Array.from(withDie[0]!).map((v) => +v.toFixed(12)));
    // Nothing said earlier (all equal) changes nothing against no earlier evidence at all, for a frame of dice.
    const weights = [sure(2), sure(2, 0.6), unsure];
    const plain = frameUprightWeights(weights, [0, 1, 2]);
    const even = frameUprightWeights(weights, [0, 1, 2], {}, [0, 0, 0, 0, 0]);
    expect(even.map((w) => Array.from(w).map((v) => +v.toFixed(12)))).toEqual(plain.map((w) => Array.from(w).map((v) => +v.toFixed(12))));
    expect(() => frameUprightWeights([unsure], [0], {}, [0, 0])).toThrow(/earlier evidence must be 5 finite log-likelihoods/);
    expect(() => frameUprightWeights([unsure], [0], {}, [0, 0, Number.NaN, 0, 0])).toThrow(/earlier evidence must be 5 finite/);
  });

  it('refuses mismatched input with a message that says what was wrong', () => {
    expect(() => frameUprightWeights([unsure], [0, 1])).toThrow(/1 dice's weights for 2 up angles/);
    expect(() => frameUprightWeights([[0.5, 0.5]], [0])).toThrow(/four weights per die/);
    expect(() => frameUprightWeights([unsure, unsure], [0, 0], { evidence: -1 })).toThrow(/evidence/);
    expect(() => frameUprightWeights([unsure, unsure], [0, 0], { slack: 0 })).toThrow(/slack/);
  });
});

describe('hypothesisTurns', () => {
  it('spreads the slack evenly and shares a diagonal die between its two nearest turns', () => {
    const slack = FRAME_UP_DEFAULTS.slack;
    const turns = hypothesisTurns(Math.PI / 4, slack);
    expect(turns).toHaveLength(5);
    expect(turns[2]![2]).toBeCloseTo(1 - slack + slack / 4, 12);
    expect(turns[2]![0]).toBeCloseTo(slack / 4, 12);
    const overhead = turns[4]!;
    expect(overhead[0]).toBeCloseTo(overhead[1]!, 12);
    expect(overhead[2]).toBeCloseTo(slack / 4, 12);
    expect(Array.from(hypothesisTurns(null, slack)[4]!)).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it("names the turn that brings an overhead die's up to the crop's top, as turnCropInto turns", () => {
    // A die right of the centre seen from overhead: its up points right (clockwise π/2).
    const box: Box = [500, 300, 540, 340];
    const up = overheadUp(box, 640, 640)!;
    expect(up).toBeCloseTo(Math.PI / 2, 1);
    const t = argmax(hypothesisTurns(up, 0.1)[4]!);
    // A 4×4 crop marked on its right column: turned by t, the mark is on the top row.
    const size = 4;
    const crop = new Uint8Array(size * size * 3);
    for (let y = 0; y < size; y++) crop[(y * size + size - 1) * 3] = 255;
    const turned = new Uint8Array(crop.length);
    turnCropInto(crop, 0, turned, 0, size, t);
    for (let x = 0; x < size; x++) expect(turned[x * 3]).toBe(255);
    expect(overheadUp([310, 310, 330, 330], 640, 640)).toBeNull();
  });
});

describe('sharedUpCertainty', () => {
  it('is near 1 for evidence of one shared up, near 0 for evidence of none, and in between for little evidence', () => {
    const nulls = (n: number) => Array.from({ length: n }, () => null);
    const side = cameraEvidence(Array.from({ length: 12 }, () => sure(3)), nulls(12));
    expect(sharedUpCertainty(side)).toBeGreaterThan(0.99);
    const none = cameraEvidence([0, 1, 2, 3, 0, 1, 2, 3].map((t) => sure(t)), nulls(8));
    expect(sharedUpCertainty(none)).toBeLessThan(0.1);
    expect(sharedUpCertainty([0, 0, 0, 0, 0])).toBeCloseTo(0.2, 12);
    expect(() => sharedUpCertainty([0, 0])).toThrow(/5 finite log-likelihoods/);
  });
});

describe('likeliestSideUp', () => {
  it('names the turn of the likeliest side hypothesis where it is likelier than overhead; null otherwise', () => {
    expect(likeliestSideUp([-5, -30, -30, -30, -20])).toBe(0);
    expect(likeliestSideUp([-30, -30, -30, -5, -20])).toBe(3);
    expect(likeliestSideUp([-30, -30, -30, -30, -5])).toBeNull();
    expect(likeliestSideUp([-5, -30, -30, -30, -5])).toBeNull();
    expect(() => likeliestSideUp([1, 2, 3])).toThrow(/5 finite log-likelihoods/);
  });
});
