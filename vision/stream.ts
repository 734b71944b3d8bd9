/**
 * The stream reader for live play: frames in, one `settled` roll out once the tray has been
 * still for a few frames, read from the last few still frames and voted die by die.
 *
 * Pure parts (tested on frame sequences): grey thumbnails, the motion measure between two of
 * them, the settle state machine, and the vote that matches dice across frames by box overlap.
 * `DiceStream` wires them to a reader.
 */
import type { DiceSetId } from '../shared/dice.js';
import type { Box, CameraView, ReadOptions, RgbImage } from './types.js';
import type { DetailedReading } from './reader.js';

// ---------------------------------------------------------------- motion

export interface GreyThumb {
  width: number;
  height: number;
  data: Float32Array;
  /** The size of the frame it was made from. */
  source: { width: number; height: number };
}

/** A grey, box-filtered thumbnail whose longer side is at most `maxSide` (noise averages out). */
export function greyThumbnail(image: RgbImage, maxSide = 80): GreyThumb {
  if (image.width <= 0 || image.height <= 0 || image.data.length !== image.width * image.height * 3) {
    throw new Error(`stream: frame is not a well-formed RGB image (${image.width}×${image.height}, ${image.data.length} bytes)`);
  }
  const step = Math.max(1, Math.ceil(Math.max(image.width, image.height) / maxSide));
  const width = Math.floor(image.width / step) || 1;
  const height = Math.floor(image.height / step) || 1;
  const data = new Float32Array(width * height);
  for (let ty = 0; ty < height; ty++) {
    for (let tx = 0; tx < width; tx++) {
      let sum = 0;
      let n = 0;
      for (let y = ty * step; y < Math.min(image.height, (ty + 1) * step); y++) {
        let o = (y * image.width + tx * step) * 3;
        for (let x = tx * step; x < Math.min(image.width, (tx + 1) * step); x++, o += 3) {
          sum += 0.299 * image.data[o]! + 0.587 * image.data[o + 1]! + 0.114 * image.data[o + 2]!;
          n++;
        }
      }
      data[ty * width + tx] = sum / n;
    }
  }
  return { width, height, data, source: { width: image.width, height: image.height } };
}

/**
 * Share of thumbnail pixels whose grey level changed by more than `threshold` levels after
 * removing the global brightness change, fitted as a gain and an offset (least squares): a lamp
 * switched on or an exposure step multiplies the grey levels, it moves nothing. Where the brighter
 * frame clips (a white die under a lamp) the fit cannot follow, so a large step may still count.
 */
export function motionBetween(a: GreyThumb, b: GreyThumb, threshold = 14): number {
  // A new camera size is motion, even where both shrink to the same thumbnail (1280×960 and
  // 640×480): the dice's boxes of the two sizes must not be voted together.
  if (a.source.width !== b.source.width || a.source.height !== b.source.height || a.width !== b.width || a.height !== b.height) return 1;
  const n = a.data.length;
  let meanA = 0;
  let meanB = 0;
  for (let i = 0; i < n; i++) {
    meanA += a.data[i]!;
    meanB += b.data[i]!;
  }
  meanA /= n;
  meanB /= n;
  let covariance = 0;
  let variance = 0;
  for (let i = 0; i < n; i++) {
    const da = a.data[i]! - meanA;
    covariance += da * (b.data[i]! - meanB);
    variance += da * da;
  }
  // Bounded: a hand or a shadow over much of the frame pulls the fit, and must still leave residuals.
  const gain = variance > 0 ? Math.min(MAX_GAIN, Math.max(1 / MAX_GAIN, covariance / variance)) : 1;
  let moved = 0;
  for (let i = 0; i < n; i++) if (Math.abs(b.data[i]! - meanB - gain * (a.data[i]! - meanA)) > threshold) moved++;
  return moved / n;
}

/** The largest brightness factor between two frames taken for exposure rather than change (a lamp: ×1.3; the first frames of a camera starting: ×0.4). */
const MAX_GAIN = 2;

// ---------------------------------------------------------------- settle detection

export interface SettleConfig {
  /** Largest moved share (motionBetween) for a frame to count as still. */
  stillBelow: number;
  /** Consecutive still frames before the roll counts as settled. */
  stillFrames: number;
  /**
   * And for how long (ms, by the frames' own times): counted in frames only, a tray (or a hand
   * held over it) still for a tenth of a second settled at 30 fps, and waited 3 s at 1 fps.
   */
  stillMs: number;
  /** How many of the last still frames are read and voted. */
  voteFrames: number;
}

/**
 * Still for 270 ms: four frames at the camera's default 10 fps span three intervals, 300 ms, so a
 * roll settles there as before. Less 10 %: frames are timed on arrival, and a millisecond of
 * jitter made the span 299.x ms and the settle wait for a fifth frame.
 */
export const DEFAULT_SETTLE: SettleConfig = { stillBelow: 0.004, stillFrames: 4, stillMs: 270, voteFrames: 3 };

export interface SettleState {
  phase: 'moving' | 'still' | 'settled';
  /** Length of the current run of still frames. */
  run: number;
  /** When the run began (its first frame's time), and the latest frame time seen (-Infinity: none yet). */
  since: number;
  latest: number;
}

export const INITIAL_SETTLE: SettleState = { phase: 'moving', run: 0, since: 0, latest: -Infinity };

export interface SettleStep {
  state: SettleState;
  /** 'moving' when stillness ends, 'settled' once per still run. */
  event?: 'moving' | 'settled';
  /** This frame is one of those to read for the vote. */
  read: boolean;
}

/**
 * One frame's step, taken at `at` (ms); `motion` is undefined for the very first frame (nothing to
 * compare). Time is the latest frame time seen: a frame late or out of order does not shorten the wait.
 */
export function settleStep(state: SettleState, motion: number | undefined, at: number, config: SettleConfig = DEFAULT_SETTLE): SettleStep {
  if (config.voteFrames > config.stillFrames) throw new Error('stream: voteFrames cannot exceed stillFrames');
  const still = motion !== undefined && motion <= config.stillBelow;
  const latest = Math.max(state.latest, at);
  if (!still) {
    // Only the end of a reported roll is news; motion while waiting just restarts the wait.
    const event = state.phase === 'settled' ? 'moving' : undefined;
    // The first frame, or the first after motion, starts a new run of one (it may be the still scene).
    const next: SettleState = { phase: 'moving', run: 1, since: latest, latest };
    return { state: next, event, read: config.stillFrames - config.voteFrames < 1 };
  }
  const run = state.run + 1;
  const read = run > config.stillFrames - config.voteFrames;
  const next = { run, since: state.since, latest };
  if (state.phase === 'settled') return { state: { phase: 'settled', ...next }, read: false };
  if (run >= config.stillFrames && latest - state.since >= config.stillMs) return { state: { phase: 'settled', ...next }, event: 'settled', read };
  return { state: { phase: 'still', ...next }, read };
}

// ---------------------------------------------------------------- voting

export function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}

/** What the vote needs of a reading. */
export type VoteInput = Pick<DetailedReading, 'set' | 'face' | 'confidence' | 'box' | 'probabilities' | 'color' | 'guessed'>;

export interface VotedDie {
  set: DiceSetId;
  face: string;
  /** Mean probability of the face over the voted frames (a frame that missed the die counts 0). */
  confidence: number;
  box: Box;
  color?: string;
  /** Frames (of those voted) in which the die was found. */
  seen: number;
  /** Low confidence, missing from some frames, read differently across frames, or its box guessed. */
  uncertain: boolean;
  /** Its box was guessed (DieReading.guessed) in at least one of the voted frames. */
  guessed?: boolean;
}

export interface VoteConfig {
  /** Smallest box overlap for two readings to be the same die. */
  minIou: number;
  uncertainBelow: number;
}

export const DEFAULT_VOTE: VoteConfig = { minIou: 0.4, uncertainBelow: 0.85 };

/**
 * Matches dice across frames (greedy by overlap, each reading to at most one track) and votes
 * each track's face by summed probability. Tracks seen in fewer than half the frames are dropped
 * (a flicker of the locator, not a die).
 */
export function voteFrames(frames: readonly (readonly VoteInput[])[], config: VoteConfig = DEFAULT_VOTE): VotedDie[] {
  interface Track { readings: VoteInput[]; box: Box }
  const tracks: Track[] = [];
  for (const readings of frames) {
    const pairs: { t: number; r: number; o: number }[] = [];
    tracks.forEach((t, ti) => readings.forEach((r, ri) => {
      const o = iou(t.box, r.box);
      if (o >= config.minIou) pairs.push({ t: ti, r: ri, o });
    }));
    pairs.sort((p, q) => q.o - p.o);
    const usedT = new Set<number>();
    const usedR = new Set<number>();
    for (const p of pairs) {
      if (usedT.has(p.t) || usedR.has(p.r)) continue;
      usedT.add(p.t);
      usedR.add(p.r);
      tracks[p.t]!.readings.push(readings[p.r]!);
      tracks[p.t]!.box = readings[p.r]!.box;
    }
    readings.forEach((r, ri) => {
      if (!usedR.has(ri)) tracks.push({ readings: [r], box: r.box });
    });
  }
  const k = frames.length;
  const out: VotedDie[] = [];
  for (const t of tracks) {
    if (t.readings.length * 2 < k) continue;
    const score = new Map<string, { set: DiceSetId; face: string; total: number }>();
    for (const r of t.readings) {
      for (const [face, p] of Object.entries(r.probabilities)) {
        const key = `${r.set}\u0000${face}`;
        const s = score.get(key) ?? { set: r.set, face, total: 0 };
        s.total += p;
        score.set(key, s);
      }
    }
    const best = [...score.values()].sort((a, b) => b.total - a.total)[0]!;
    const confidence = best.total / k;
    const agreed = t.readings.every((r) => r.face === best.face && r.set === best.set);
    // A box the locator guessed in any of the frames: its outline was not seen steadily.
    const guessed = t.readings.some((r) => r.guessed === true);
    const last = t.readings[t.readings.length - 1]!;
    const die: VotedDie = {
      set: best.set,
      face: best.face,
      confidence,
      box: t.box,
      seen: t.readings.length,
      uncertain: confidence < config.uncertainBelow || t.readings.length < k || !agreed || guessed,
    };
    if (guessed) die.guessed = true;
    if (last.color !== undefined) die.color = last.color;
    out.push(die);
  }
  // Reading order: rows (boxes whose centres are within half a die of each other), then left to right.
  return out.sort((a, b) => {
    const dy = (a.box[1] + a.box[3] - b.box[1] - b.box[3]) / 2;
    const half = Math.max(a.box[3] - a.box[1], b.box[3] - b.box[1]) / 2;
    return Math.abs(dy) > half ? dy : a.box[0] - b.box[0];
  });
}

// ---------------------------------------------------------------- the stream

export interface FrameReader {
  readDetailed(image: RgbImage, options: ReadOptions): Promise<DetailedReading[]>;
}

export type StreamEvent =
  | { type: 'moving'; at: number }
  | { type: 'settled'; at: number; dice: VotedDie[]; frames: number };

export interface DiceStreamOptions {
  sets: DiceSetId[];
  palette?: string[];
  /** How the camera looks at the tray (ReadOptions.view). */
  view?: CameraView;
  /** The empty tray this camera sees, and who is told whether each frame fitted it (ReadOptions). */
  tray?: ReadOptions['tray'];
  onTray?: ReadOptions['onTray'];
  /** Told what each frame read in view 'any' says about the camera (ReadOptions.onCameraEvidence). */
  onCameraEvidence?: ReadOptions['onCameraEvidence'];
  /** What earlier frames said about the camera (ReadOptions.cameraPrior). */
  cameraPrior?: ReadOptions['cameraPrior'];
  /** The dice the game asks for (ReadOptions.expect): each frame's dice are fitted to them. */
  expect?: ReadOptions['expect'];
  /** Dice in doubt read again in turned colours (ReadOptions.colourLook; off unless asked), or in frames of up to so many dice (colourLookUpTo). */
  colourLook?: boolean;
  colourLookUpTo?: number;
  settle?: Partial<SettleConfig>;
  vote?: Partial<VoteConfig>;
  /** Longer side of the motion thumbnails. */
  thumbnailSide?: number;
}

/**
 * Feed frames with `push`; it resolves to an event when one happens. Still frames near the end
 * of a still run are read as they arrive, so the settled roll costs one more read, not K.
 */
export class DiceStream {
  private state: SettleState = INITIAL_SETTLE;
  private previous: GreyThumb | undefined;
  private reads: DetailedReading[][] = [];
  private readonly settle: SettleConfig;
  private readonly vote: VoteConfig;

  constructor(private readonly reader: FrameReader, private readonly options: DiceStreamOptions) {
    if (!options.sets?.length) throw new Error('DiceStream: name at least one dice set');
    this.settle = { ...DEFAULT_SETTLE, ...options.settle };
    this.vote = { ...DEFAULT_VOTE, ...options.vote };
  }

  /** The current phase: moving, still (waiting), or settled (roll reported). */
  get phase(): SettleState['phase'] {
    return this.state.phase;
  }

  /**
   * One frame, taken at `at` (ms). `frame` may give this frame's empty tray instead of the
   * stream's own (a tray shown empty or forgotten while the stream runs).
   */
  async push(image: RgbImage, at: number, frame?: Pick<DiceStreamOptions, 'tray' | 'onTray' | 'onCameraEvidence' | 'cameraPrior'>): Promise<StreamEvent | undefined> {
    const thumb = greyThumbnail(image, this.options.thumbnailSide ?? 80);
    const motion = this.previous ? motionBetween(this.previous, thumb) : undefined;
    this.previous = thumb;
    const step = settleStep(this.state, motion, at, this.settle);
    const wasSettled = this.state.phase === 'settled';
    this.state = step.state;
    if (step.state.run === 1 && !wasSettled) this.reads = [];
    if (step.event === 'moving') this.reads = [];
    if (step.read) {
      const { sets, palette, view, expect, colourLook, colourLookUpTo } = this.options;
      const { tray, onTray, onCameraEvidence, cameraPrior } = frame ?? this.options;
      let read: DetailedReading[];
      try {
        read = await this.reader.readDetailed(image, { sets, ...(palette ? { palette } : {}), ...(view ? { view } : {}), ...(tray ? { tray } : {}), ...(onTray ? { onTray } : {}), ...(onCameraEvidence ? { onCameraEvidence } : {}), ...(cameraPrior ? { cameraPrior } : {}), ...(expect ? { expect } : {}), ...(colourLook !== undefined ? { colourLook } : {}), ...(colourLookUpTo !== undefined ? { colourLookUpTo } : {}) });
      } catch (error) {
        // The frame that would settle the roll could not be read: not settled yet, so the next
        // still frame settles it (else the roll lying there would never be reported).
        if (step.event === 'settled') this.state = { ...step.state, phase: 'still', run: step.state.run - 1 };
        throw error;
      }
      this.reads.push(read);
      if (this.reads.length > this.settle.voteFrames) this.reads.shift();
    }
    if (step.event === 'moving') return { type: 'moving', at };
    if (step.event === 'settled') {
      const frames = this.reads.length;
      return { type: 'settled', at, dice: voteFrames(this.reads, this.vote), frames };
    }
    return undefined;
  }

  /** Forget the scene (e.g. a new game): the next still run settles again. */
  reset(): void {
    this.state = INITIAL_SETTLE;
    this.previous = undefined;
    this.reads = [];
  }

  /**
   * Takes over the scene of the stream this one replaces (the game asks for other dice): a roll
   * `from` has reported stays reported, so the dice already lying on the tray are not reported
   * again as the new request's roll; the next roll needs the tray to move first. A roll not yet
   * reported is waited for afresh, its frames read for the new request.
   */
  continueFrom(from: DiceStream): void {
    if (from.state.phase !== 'settled') return;
    this.state = from.state;
    this.previous = from.previous;
    this.reads = [];
  }
}
