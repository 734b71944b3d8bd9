/**
 * One camera, one up: in view 'any' the orientation head judges each die of a frame alone, but
 * every die of a frame was seen by the same camera. From one side, world up is the same quarter
 * turn of the picture for all of them; from overhead, each die's up points away from the frame's
 * centre. So the dice of a frame are evidence for each other.
 *
 * Five hypotheses about the camera: from the side, turned by 0–3 quarter turns; or from
 * overhead. Each die's head weights (`uprightWeights`: how upright each of its quarter turns
 * looks) are a likelihood of each hypothesis. For die i, the other dice's likelihoods (tempered,
 * since the head was fitted on renders and is over-sure on real dice) give a posterior over the
 * hypotheses, and that posterior's expected upright turn for die i is a prior its own weights are
 * multiplied by. A die never counts as evidence for itself, so one die's mistake is not
 * confirmed by its own vote; a frame of one die is left as the head read it, unless earlier
 * frames of the same camera are given as evidence too (docs/notes/vision-model.md, "One camera,
 * one up" and "Learning the tray camera's view").
 */

/** Tuning of `frameUprightWeights`, chosen on rendered trays (docs/notes/vision-model.md). */
export interface FrameUpOptions {
  /** Exponent on each other die's likelihood: 1 trusts the head fully, 0 ignores the frame. */
  evidence?: number;
  /**
   * Share of each hypothesis' expected turn spread evenly over the four turns: a die may lie
   * against the frame's rule (a die on its edge against another, a head that is wrong).
   */
  slack?: number;
}

export const FRAME_UP_DEFAULTS = { evidence: 0.5, slack: 0.1 } as const;

/**
 * Per die, the quarter turn that would make it upright under each hypothesis, as a distribution
 * over turns 0–3: hypotheses 0–3 are "from the side, up at that quarter turn"; hypothesis 4 is
 * "from overhead", where a die at clockwise angle `up` (radians, `upAngle`) from the picture's up
 * is upright at turn up / 90°, shared between the two nearest turns when it lies between them, and
 * a die at the centre (`up` null) has no up.
 */
export function hypothesisTurns(up: number | null, slack: number): Float64Array[] {
  const spread = (q: ArrayLike<number>) => Float64Array.from({ length: 4 }, (_, t) => (1 - slack) * q[t]! + slack / 4);
  const side = [0, 1, 2, 3].map((k) => spread([0, 1, 2, 3].map((t) => (t === k ? 1 : 0))));
  let overhead: number[];
  if (up === null) overhead = [0.25, 0.25, 0.25, 0.25];
  else {
    const near = [0, 1, 2, 3].map((t) => Math.max(0, Math.cos(up - (t * Math.PI) / 2)));
    const sum = near.reduce((a, b) => a + b, 0);
    overhead = near.map((v) => v / sum);
  }
  return [...side, spread(overhead)];
}

/** The five camera hypotheses of `frameUprightWeights`, in its order. */
export const CAMERA_HYPOTHESES = ['side', 'side turned 1', 'side turned 2', 'side turned 3', 'overhead'] as const;
export type CameraHypothesis = (typeof CAMERA_HYPOTHESES)[number];

/** Whether `values` can be evidence about the camera: one finite log-likelihood per hypothesis. */
export function isCameraEvidence(values: ArrayLike<number>): boolean {
  return values.length === CAMERA_HYPOTHESES.length && Array.from(values).every(Number.isFinite);
}

/**
 * Per die, the log-likelihood of each camera hypothesis given its upright weights: log of how
 * much of its weight lies where the hypothesis expects its up (up to a constant per die).
 */
function dieLogLikelihoods(weights: readonly ArrayLike<number>[], ups: readonly (number | null)[], slack: number): number[][] {
  const turns = ups.map((up) => hypothesisTurns(up, slack));
  return weights.map((w, j) => turns[j]!.map((q) => Math.log(Math.max(1e-12, q.reduce((s, qt, t) => s + qt * w[t]!, 0)))));
}

/**
 * What a frame's dice say about the camera: the sum over its dice of each hypothesis'
 * log-likelihood (CAMERA_HYPOTHESES order), the evidence `frameUprightWeights` weighs one frame
 * by. Summed over many frames, it tells a camera's view (view-learner.ts).
 */
export function cameraEvidence(weights: readonly ArrayLike<number>[], ups: readonly (number | null)[], options: Pick<FrameUpOptions, 'slack'> = {}): Float64Array {
  if (weights.length !== ups.length) throw new Error(`cameraEvidence: ${weights.length} dice's weights for ${ups.length} up angles`);
  const slack = options.slack ?? FRAME_UP_DEFAULTS.slack;
  const total = new Float64Array(CAMERA_HYPOTHESES.length);
  for (const l of dieLogLikelihoods(weights, ups, slack)) l.forEach((v, h) => (total[h]! += v));
  return total;
}

/**
 * The dice's upright weights (one array of four per die) revised by the other dice of the same
 * frame. `ups[i]` is die i's up angle were the camera overhead (`upAngle`), or null near the
 * centre. `earlier`, what earlier frames of the same camera said (summed log-likelihoods of
 * CAMERA_HYPOTHESES, `cameraEvidence`, as the view learner holds them), counts as more dice of
 * this frame, so a frame of one die is judged too. Returns new arrays, each summing to 1.
 */
export function frameUprightWeights(weights: readonly ArrayLike<number>[], ups: readonly (number | null)[], options: FrameUpOptions = {}, earlier?: ArrayLike<number>): Float64Array[] {
  if (weights.length !== ups.length) throw new Error(`frameUprightWeights: ${weights.length} dice's weights for ${ups.length} up angles`);
  for (const w of weights) if (w.length !== 4) throw new Error(`frameUprightWeights: four weights per die (one per quarter turn), got ${w.length}`);
  const { evidence, slack } = { ...FRAME_UP_DEFAULTS, ...options };
  if (!(evidence >= 0 && Number.isFinite(evidence))) throw new RangeError(`frameUprightWeights: evidence must be ≥ 0, got ${evidence}`);
  if (!(slack > 0 && slack <= 1)) throw new RangeError(`frameUprightWeights: slack must be in (0, 1], got ${slack}`);
  if (earlier && !isCameraEvidence(earlier)) {
    throw new Error(`frameUprightWeights: the earlier evidence must be ${CAMERA_HYPOTHESES.length} finite log-likelihoods (${CAMERA_HYPOTHESES.join(', ')}), got ${JSON.stringify(Array.from(earlier))}`);
  }
  const copy = (w: ArrayLike<number>) => Float64Array.from(w);
  if ((weights.length < 2 && !earlier) || weights.length === 0 || evidence === 0) return weights.map(copy);
  const turns = ups.map((up) => hypothesisTurns(up, slack));
  // log P(die j's weights | hypothesis h), up to a constant: how much of its weight lies where h expects its up.
  const logLike = dieLogLikelihoods(weights, ups, slack);
  const total = earlier ? Float64Array.from(earlier) : new Float64Array(CAMERA_HYPOTHESES.length);
  for (const l of logLike) l.forEach((v, h) => (total[h]! += v));
  return weights.map((w, i) => {
    // The others' evidence only: the whole frame's minus die i's own.
    const score = Array.from(total, (v, h) => evidence * (v - logLike[i]![h]!));
    const posterior = posteriorOf(score);
    const prior = new Float64Array(4);
    turns[i]!.forEach((q, h) => q.forEach((qt, t) => (prior[t]! += posterior[h]! * qt)));
    const revised = Float64Array.from(w, (v, t) => v * prior[t]!);
    const sum = revised.reduce((a, b) => a + b, 0);
    return sum > 0 ? revised.map((v) => v / sum) : copy(w);
  });
}

/**
 * How sure evidence about a camera (summed log-likelihoods, CAMERA_HYPOTHESES order) is of one
 * up shared by all its dice: the posterior of the likeliest side hypothesis, the evidence
 * tempered as `frameUprightWeights` tempers it. Near 0 where it says no shared up (overhead).
 */
export function sharedUpCertainty(evidence: ArrayLike<number>, options: Pick<FrameUpOptions, 'evidence'> = {}): number {
  checkEvidence('sharedUpCertainty', evidence);
  const scale = options.evidence ?? FRAME_UP_DEFAULTS.evidence;
  return Math.max(...posteriorOf(Array.from(evidence, (v) => scale * v)).slice(0, OVERHEAD));
}

/**
 * The quarter turn of the side hypothesis ("side turned k" → k) the evidence about a camera
 * favours most, where it is likelier than the overhead one (which, for pictures without a frame,
 * expects no shared up); null otherwise.
 */
export function likeliestSideUp(evidence: ArrayLike<number>): number | null {
  checkEvidence('likeliestSideUp', evidence);
  const values = Array.from(evidence);
  const sides = values.slice(0, OVERHEAD);
  const best = sides.indexOf(Math.max(...sides));
  return sides[best]! > values[OVERHEAD]! ? best : null;
}

/** Where the overhead hypothesis sits in CAMERA_HYPOTHESES (the side ones come before it). */
const OVERHEAD = CAMERA_HYPOTHESES.indexOf('overhead');

function checkEvidence(where: string, evidence: ArrayLike<number>): void {
  if (!isCameraEvidence(evidence)) throw new Error(`${where}: ${CAMERA_HYPOTHESES.length} finite log-likelihoods expected (${CAMERA_HYPOTHESES.join(', ')})`);
}

/** Scores (log, up to a constant) normalised to probabilities. */
function posteriorOf(score: readonly number[]): number[] {
  const top = Math.max(...score);
  const odds = score.map((v) => Math.exp(v - top));
  const z = odds.reduce((a, b) => a + b, 0);
  return odds.map((v) => v / z);
}
