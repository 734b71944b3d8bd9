/**
 * Learning a tray camera's view from the rolls it reads. A camera straight over the tray and one
 * looking from one side want different readings (a die's side faces show towards the frame's
 * centre, or below its top), and a camera set up wrongly read rendered trays at 75 % instead of
 * 86 %. View 'any' needs no setting: the orientation head finds each die's up, and the dice of a
 * frame are judged together (frame-up.ts). It costs four readings a die. Each roll read so also
 * says which camera hypothesis its dice fit (`cameraEvidence`), one roll weakly (on rendered
 * trays one roll's leader is right about 60 % of the time) but many rolls surely: the summed
 * log-likelihoods of the hypotheses part, the right one ahead. Once the leader is ahead by
 * `margin` over `minDice` dice or more, the view is learnt, and the camera is read in it
 * (docs/notes/vision-model.md, "Learning the tray camera's view").
 *
 * Evidence given after that checks the view: it is summed apart, and a hypothesis that gets ahead
 * of the learnt one by the same margin there is learnt instead. A view learnt wrong (never seen on
 * rendered trays, but real cameras are not rendered ones) so mends itself instead of staying
 * until the camera moves.
 */
import { CAMERA_HYPOTHESES, type CameraHypothesis } from './model/frame-up.js';
import type { CameraView } from './types.js';

/** A view learnt before, with the rolls and dice it was learnt from (kept over a restart, web/server/view-memory.ts). */
export interface KnownView {
  learnt: CameraHypothesis;
  rolls: number;
  dice: number;
}

export interface ViewLearnerOptions {
  /**
   * How far (natural log-likelihood, summed over the rolls) the leading hypothesis must be ahead
   * of the next. On rendered Worm & Cozy rolls a wrong leader was never more than 3.1 ahead, and
   * the right one reached 25 after 15–33 rolls of three dice.
   */
  margin?: number;
  /** Dice that must have been seen first. */
  minDice?: number;
  /** A view learnt before (kept over a restart): the learner starts settled on it. */
  known?: KnownView;
}

export const VIEW_LEARNER_DEFAULTS = { margin: 25, minDice: 12 } as const;

export interface ViewLearnerState {
  /** The hypothesis learnt, once settled; null while learning. */
  learnt: CameraHypothesis | null;
  /** The hypothesis ahead so far, and by how much. */
  leader: CameraHypothesis | null;
  margin: number;
  /** Rolls and dice the evidence came from. */
  rolls: number;
  dice: number;
  /** The view was learnt before and given back (`known`), not learnt from this run's rolls. */
  remembered: boolean;
  /** Rolls that checked the learnt view since it was learnt. */
  checked: number;
  /** How far the best other hypothesis is ahead of the learnt one in those checks (below 0: behind; 0 before any). */
  doubt: number;
}

export interface ViewLearner {
  /** One settled roll's evidence (`ReadOptions.onCameraEvidence`): towards learning the view, or once learnt, checking it. */
  add(evidence: { logLikelihood: ArrayLike<number>; dice: number }): void;
  state(): ViewLearnerState;
  /**
   * Everything the rolls said about the camera, summed (what it learnt from and the checks since;
   * CAMERA_HYPOTHESES order), for reading the next frames with (`ReadOptions.cameraPrior`); null
   * before any (a view given back from before a restart brings no evidence).
   */
  evidence(): Float64Array | null;
  /** Forget everything (the camera moved). */
  reset(): void;
}

/** The reader's view for a hypothesis: 'side' and 'overhead' as they are; a camera on its side reads 'any' (no reader view turns a frame). */
export function viewOf(hypothesis: CameraHypothesis | null): CameraView {
  return hypothesis === 'side' ? 'side' : hypothesis === 'overhead' ? 'overhead' : 'any';
}

export function createViewLearner(options: ViewLearnerOptions = {}): ViewLearner {
  const { margin: needed, minDice } = { ...VIEW_LEARNER_DEFAULTS, ...options };
  if (!(needed > 0 && Number.isFinite(needed))) throw new RangeError(`view learner: margin must be a positive number, got ${needed}`);
  if (!(Number.isInteger(minDice) && minDice >= 0)) throw new RangeError(`view learner: minDice must be a whole number ≥ 0, got ${minDice}`);
  const known = options.known;
  if (known && !CAMERA_HYPOTHESES.includes(known.learnt)) throw new RangeError(`view learner: a known view is one of ${CAMERA_HYPOTHESES.join(', ')}, got "${String(known.learnt)}"`);
  let total = new Float64Array(CAMERA_HYPOTHESES.length);
  let rolls = known?.rolls ?? 0, dice = known?.dice ?? 0;
  let learnt: CameraHypothesis | null = known?.learnt ?? null;
  // Rolls whose evidence is in `total` (a known view brings its counts, not its evidence).
  let added = 0;
  let remembered = known !== undefined;
  // The checks of a learnt view: their evidence, rolls and dice, apart from what it was learnt from.
  let since = new Float64Array(CAMERA_HYPOTHESES.length);
  let checked = 0, checkedDice = 0;
  const doubt = (): { rival: number; by: number } => {
    if (!learnt || checked === 0) return { rival: -1, by: 0 };
    const own = CAMERA_HYPOTHESES.indexOf(learnt);
    let rival = -1;
    for (let h = 0; h < since.length; h++) if (h !== own && (rival < 0 || since[h]! > since[rival]!)) rival = h;
    return { rival, by: since[rival]! - since[own]! };
  };
  const standing = () => {
    if (added === 0) return { leader: null, margin: 0 };
    let best = 0, second = -1;
    for (let h = 1; h < total.length; h++) {
      if (total[h]! > total[best]!) (second = best), (best = h);
      else if (second < 0 || total[h]! > total[second]!) second = h;
    }
    return { leader: CAMERA_HYPOTHESES[best]!, margin: total[best]! - total[second]! };
  };
  return {
    add(evidence) {
      const l = evidence.logLikelihood;
      if (l.length !== CAMERA_HYPOTHESES.length) throw new Error(`view learner: ${CAMERA_HYPOTHESES.length} log-likelihoods expected (${CAMERA_HYPOTHESES.join(', ')}), got ${l.length}`);
      for (let h = 0; h < l.length; h++) if (!Number.isFinite(l[h]!)) throw new Error(`view learner: log-likelihood ${h} is not a finite number (${l[h]})`);
      if (learnt) {
        for (let h = 0; h < l.length; h++) since[h]! += l[h]!;
        checked++;
        checkedDice += evidence.dice;
        const { rival, by } = doubt();
        if (by >= needed && checkedDice >= minDice) {
          // Learnt again from the checks alone: what it was learnt from before is what they contradict.
          learnt = CAMERA_HYPOTHESES[rival]!;
          total = since;
          added = rolls = checked;
          dice = checkedDice;
          remembered = false;
          since = new Float64Array(CAMERA_HYPOTHESES.length);
          checked = checkedDice = 0;
        }
        return;
      }
      for (let h = 0; h < l.length; h++) total[h]! += l[h]!;
      added++;
      rolls++;
      dice += evidence.dice;
      const { leader, margin } = standing();
      if (leader && margin >= needed && dice >= minDice) learnt = leader;
    },
    state() {
      return { learnt, ...standing(), rolls, dice, remembered, checked, doubt: doubt().by };
    },
    evidence() {
      if (added === 0 && checked === 0) return null;
      return Float64Array.from(total, (v, h) => v + since[h]!);
    },
    reset() {
      total = new Float64Array(CAMERA_HYPOTHESES.length);
      since = new Float64Array(CAMERA_HYPOTHESES.length);
      checked = checkedDice = 0;
      added = 0;
      rolls = 0;
      dice = 0;
      learnt = null;
      remembered = false;
    },
  };
}
