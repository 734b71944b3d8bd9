/**
 * Learning a tray camera's view (vision/view-learner.ts): each settled roll read in view 'any'
 * says which camera its dice fit (cameraEvidence, frame-up.ts); summed over rolls the right one
 * pulls ahead, and once it is far enough ahead over enough dice, the view is learnt. Evidence
 * after that checks it, and a view the later rolls contradict by the same margin is learnt anew.
 */
import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { CAMERA_HYPOTHESES, cameraEvidence, frameUprightWeights } from '../../vision/model/frame-up.js';
import { loadDiceReader, type ClewDiceReader } from '../../vision/reader.js';
import { renderScene } from '../../vision/synth/index.js';
import { createViewLearner, VIEW_LEARNER_DEFAULTS, viewOf } from '../../vision/view-learner.js';

/** Evidence that favours hypothesis `h` by `by` nats, from `dice` dice. */
const favouring = (h: number, by: number, dice = 4) => ({ logLikelihood: Float64Array.from(CAMERA_HYPOTHESES, (_, k) => (k === h ? 0 : -by)), dice });

describe('cameraEvidence', () => {
  it('sums each die\'s log-likelihood per hypothesis: dice upright as they lie say "side"; dice whose up points away from the centre say "overhead"', () => {
    const upright = [[0.9, 0.04, 0.02, 0.04], [0.85, 0.05, 0.05, 0.05], [0.8, 0.1, 0.05, 0.05]];
    const side = cameraEvidence(upright, [0, Math.PI / 2, -Math.PI / 2]);
    expect(side.indexOf(Math.max(...side))).toBe(0);
    // From overhead, a die right of the centre (up at 90°) is upright turned a quarter: turn 1.
    const away = [[0.05, 0.85, 0.05, 0.05], [0.05, 0.05, 0.05, 0.85], [0.05, 0.05, 0.85, 0.05]];
    const overhead = cameraEvidence(away, [Math.PI / 2, -Math.PI / 2, Math.PI]);
    expect(CAMERA_HYPOTHESES[overhead.indexOf(Math.max(...overhead))]).toBe('overhead');
    // A die near the centre (no up) says nothing about overhead against any side turn.
    const centre = cameraEvidence([[0.25, 0.25, 0.25, 0.25]], [null]);
    expect(new Set(Array.from(centre, (v) => v.toFixed(9))).size).toBe(1);
  });

  it('is the evidence frameUprightWeights weighs: with all other dice agreeing, a die\'s weights move towards their hypothesis', () => {
    const weights = [[0.9, 0.04, 0.02, 0.04], [0.85, 0.05, 0.05, 0.05], [0.3, 0.3, 0.2, 0.2]];
    const ups = [0.3, 2, -1];
    const revised = frameUprightWeights(weights, ups);
    expect(revised[2]![0]).toBeGreaterThan(0.3);
    expect(() => cameraEvidence(weights, [0])).toThrow(/3 dice's weights for 1 up angles/);
  });
});

describe('createViewLearner', () => {
  it('learns the hypothesis ahead by the margin over enough dice, and not before', () => {
    const learner = createViewLearner();
    expect(learner.state()).toEqual({ learnt: null, leader: null, margin: 0, rolls: 0, dice: 0, remembered: false, checked: 0, doubt: 0 });
    learner.add(favouring(4, 30, 3)); // far ahead, but only 3 dice
    expect(learner.state()).toMatchObject({ learnt: null, leader: 'overhead', rolls: 1, dice: 3 });
    expect(learner.state().margin).toBeCloseTo(30, 9);
    learner.add(favouring(0, 10, 3)); // the side gains a little: overhead still 20 ahead
    learner.add(favouring(4, 2, 3));
    expect(learner.state()).toMatchObject({ learnt: null, leader: 'overhead', dice: 9 });
    learner.add(favouring(4, 5, 3)); // 12 dice, 27 ahead of the next (side at -10… the turned sides at -37)
    expect(learner.state()).toMatchObject({ learnt: 'overhead', rolls: 4, dice: 12 });
    expect(learner.state().margin).toBeGreaterThanOrEqual(VIEW_LEARNER_DEFAULTS.margin);
  });

  it('keeps what it learnt while the later rolls agree, until reset (the camera moved), then learns again', () => {
    const learner = createViewLearner({ margin: 10, minDice: 4 });
    learner.add(favouring(0, 12, 4));
    expect(learner.state().learnt).toBe('side');
    learner.add(favouring(0, 100, 4));
    expect(learner.state()).toMatchObject({ learnt: 'side', rolls: 1, checked: 1, doubt: -100 });
    learner.reset();
    expect(learner.state()).toEqual({ learnt: null, leader: null, margin: 0, rolls: 0, dice: 0, remembered: false, checked: 0, doubt: 0 });
    learner.add(favouring(2, 11, 4));
    expect(learner.state().learnt).toBe('side turned 2');
  });

  it('checks a learnt view with the rolls after it: another view ahead by the margin there is learnt instead, from those rolls alone', () => {
    const learner = createViewLearner({ margin: 10, minDice: 4 });
    learner.add(favouring(0, 12, 4));
    expect(learner.state().learnt).toBe('side');
    learner.add(favouring(4, 6, 2)); // overhead ahead of side by 6 in the checks: not yet
    expect(learner.state()).toMatchObject({ learnt: 'side', checked: 1, doubt: 6 });
    learner.add(favouring(4, 6, 1)); // 12 ahead, but over 3 dice
    expect(learner.state()).toMatchObject({ learnt: 'side', checked: 2, doubt: 12 });
    learner.add(favouring(4, 0.5, 1));
    expect(learner.state()).toEqual({ learnt: 'overhead', leader: 'overhead', margin: 12.5, rolls: 3, dice: 4, remembered: false, checked: 0, doubt: 0 });
    // A remembered view is checked the same way.
    const known = createViewLearner({ margin: 10, minDice: 4, known: { learnt: 'overhead', rolls: 20, dice: 151 } });
    known.add(favouring(0, 11, 4));
    expect(known.state()).toMatchObject({ learnt: 'side', rolls: 1, dice: 4, remembered: false });
  });

  it('starts settled on a view learnt before, and forgets it on reset', () => {
    const learner = createViewLearner({ known: { learnt: 'overhead', rolls: 20, dice: 151 } });
    expect(learner.state()).toEqual({ learnt: 'overhead', leader: null, margin: 0, rolls: 20, dice: 151, remembered: true, checked: 0, doubt: 0 });
    learner.add(favouring(4, 100));
    expect(learner.state()).toMatchObject({ learnt: 'overhead', rolls: 20, checked: 1 });
    learner.reset();
    expect(learner.state()).toEqual({ learnt: null, leader: null, margin: 0, rolls: 0, dice: 0, remembered: false, checked: 0, doubt: 0 });
    expect(() => createViewLearner({ known: { learnt: 'upside down' as 'side', rolls: 1, dice: 2 } })).toThrow(/a known view is one of side, side turned 1, side turned 2, side turned 3, overhead, got "upside down"/);
  });

  it('gives back everything the rolls said, learning and checks summed, to read the next frames with; nothing before any roll', () => {
    const learner = createViewLearner({ margin: 10, minDice: 4 });
    expect(learner.evidence()).toBeNull();
    learner.add(favouring(0, 12, 4));
    expect(Array.from(learner.evidence()!)).toEqual([0, -12, -12, -12, -12]);
    learner.add(favouring(4, 3, 4)); // a check
    expect(Array.from(learner.evidence()!)).toEqual([-3, -15, -15, -15, -12]);
    learner.reset();
    expect(learner.evidence()).toBeNull();
    expect(createViewLearner({ known: { learnt: 'side', rolls: 9, dice: 31 } }).evidence()).toBeNull();
  });

  it('refuses evidence it cannot use, saying why, and keeps what it had', () => {
    const learner = createViewLearner();
    learner.add(favouring(4, 3));
    const before = learner.state();
    expect(() => learner.add({ logLikelihood: [0, 1, 2], dice: 2 })).toThrow(/5 log-likelihoods expected \(side, side turned 1, side turned 2, side turned 3, overhead\), got 3/);
    expect(() => learner.add({ logLikelihood: [0, 0, Number.NaN, 0, 0], dice: 2 })).toThrow(/log-likelihood 2 is not a finite number/);
    expect(learner.state()).toEqual(before);
    expect(() => createViewLearner({ margin: 0 })).toThrow(/margin must be a positive number/);
    expect(() => createViewLearner({ minDice: 1.5 })).toThrow(/minDice must be a whole number/);
  });

  it('reads a learnt side or overhead in that view, and a camera on its side "any"', () => {
    expect(CAMERA_HYPOTHESES.map(viewOf)).toEqual(['side', 'any', 'any', 'any', 'overhead']);
    expect(viewOf(null)).toBe('any');
  });
});

describe('learning the view of rendered trays', () => {
  let reader: ClewDiceReader;
  beforeAll(async () => {
    reader = await loadDiceReader();
  });
  afterAll(() => reader?.dispose());

  /** Rolls of 8 d6 from one side (oblique up to 45°) or from overhead, read 'any' one after another until the view is learnt. */
  async function learn(pose: 'side' | 'overhead', rolls: number) {
    const learner = createViewLearner();
    const want = pose === 'side' ? 'side' : 'overhead';
    let wrongLead = 0;
    for (let k = 0; k < rolls && !learner.state().learnt; k++) {
      const scene = renderScene(createRng(`view-learner-${pose}-${k}`), { dice: 8, sets: ['d6'], difficulty: 0.4, dieSize: [40, 90], knobs: pose === 'overhead' ? { maxOblique: 0 } : { maxOblique: 45, roll: 10 } });
      let told = 0;
      await reader.read(scene.image, { sets: ['d6'], view: 'any', onCameraEvidence: (e) => (told++, learner.add(e)) });
      expect(told).toBe(1);
      const { leader, margin } = learner.state();
      if (leader !== want) wrongLead = Math.max(wrongLead, margin);
    }
    return { ...learner.state(), wrongLead };
  }

  it('from overhead and from one side, the camera is learnt right within 24 rolls of 8 dice, and no wrong camera is ever far ahead', async () => {
    // Measured: overhead learnt after 20 rolls, the side after 8.
    const overhead = await learn('overhead', 24);
    expect(overhead.learnt).toBe('overhead');
    const side = await learn('side', 24);
    expect(side.learnt).toBe('side');
    expect(Math.max(overhead.wrongLead, side.wrongLead)).toBeLessThan(VIEW_LEARNER_DEFAULTS.margin / 3);
  }, 120_000);

  it('refuses earlier evidence it cannot use, saying what it must be', async () => {
    const scene = renderScene(createRng('view-learner-quiet'), { dice: 4, sets: ['d6'], dieSize: [40, 90] });
    await expect(reader.read(scene.image, { sets: ['d6'], view: 'any', cameraPrior: [0, 1] })).rejects.toThrow(/cameraPrior must be 5 finite log-likelihoods \(side, side turned 1, side turned 2, side turned 3, overhead\)/);
    await expect(reader.read(scene.image, { sets: ['d6'], view: 'any', cameraPrior: [0, 0, Number.POSITIVE_INFINITY, 0, 0] })).rejects.toThrow(/cameraPrior must be 5 finite/);
  }, 60_000);

  it('a frame read in another view, or a picture of one die, says nothing', async () => {
    const scene = renderScene(createRng('view-learner-quiet'), { dice: 4, sets: ['d6'], dieSize: [40, 90] });
    let told = 0;
    await reader.read(scene.image, { sets: ['d6'], view: 'overhead', onCameraEvidence: () => told++ });
    await reader.readCrops([scene.image], { sets: ['d6'], view: 'any', onCameraEvidence: () => told++ });
    expect(told).toBe(0);
  }, 60_000);
});
