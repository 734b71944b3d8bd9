/**
 * The camera pipeline: frames from a FrameSource → decode → the vision stream reader → a settled
 * roll becomes the table's pending roll. One pipeline per source (the table's camera, a phone's
 * camera). Frames are read only while the game expects dice, and only the newest frame is worked
 * on (the reader wants the tray as it is now, not a backlog), so a slow machine drops frames
 * instead of falling behind.
 */
import type { CameraFrame, FrameSource } from '../../device/types.js';
import { DIE_COLORS, type ObservedDie } from '../../shared/dice.js';
import type { DiceRequest, Result } from '../../shared/game.js';
import type { HardwareStatus, PendingRoll } from '../../shared/protocol.js';
import { fail, ok } from '../../shared/game.js';
import type { TrayFit, TrayReference } from '../../vision/locate/tray-reference.js';
import { expectationOf } from '../../vision/fit-roll.js';
import { iou } from '../../vision/stream.js';
import type { CameraEvidence, CameraView, DieReading, ReadOptions, RgbImage } from '../../vision/types.js';
import { createViewLearner, VIEW_LEARNER_DEFAULTS, viewOf, type ViewLearner, type ViewLearnerState } from '../../vision/view-learner.js';
import type { Logger } from './logger.js';
import { RollFrames } from './roll-frames.js';
import type { ViewMemory } from './view-memory.js';
import type { TableSession } from './session.js';
import type { GameLookup, RolledDie } from './table.js';

/**
 * What the pipeline needs from vision's stream reader: feed frames, get a roll when the tray has
 * settled; read a frame at once on request.
 */
export interface RollStream {
  /** One frame; resolves with the dice when this frame completes a settled roll, else null. */
  push(image: RgbImage, at: number, options: ReadOptions): Promise<DieReading[] | null>;
  /** Reads this frame now, settled or not (the READ button). */
  readNow(image: RgbImage, options: ReadOptions): Promise<DieReading[]>;
  /** Forget motion history (a new roll is expected). */
  reset(): void;
}

export interface PipelineOptions {
  source: FrameSource;
  /** How the table labels rolls from this source. */
  kind: 'camera' | 'phone-camera';
  session: TableSession;
  games: GameLookup;
  decode(jpeg: Uint8Array): Promise<RgbImage>;
  /** The stream reader, created on first use (loading the model is slow and big). */
  stream(): Promise<RollStream>;
  logger: Logger;
  /**
   * How this source's camera looks at the tray (default 'side'; ReadOptions.view), or 'auto':
   * read 'any' and learn the view from the settled rolls (vision/view-learner.ts), then read in it.
   */
  view?: CameraView | 'auto';
  /** With view 'auto': where the learnt view is kept over a restart (view-memory.ts). */
  viewMemory?: ViewMemory;
  /**
   * Dice in doubt read again in turned colours (`vision.colourLook`; ReadOptions.colourLook):
   * always, never, or 'auto', in frames of up to COLOUR_LOOK_UP_TO dice.
   */
  colourLook?: boolean | 'auto';
  /** Called when frames start or stop fitting the empty tray (the phones see whether it still fits). */
  onTrayFit?: () => void;
  /** Called with a frame that settled a still tray with no dice on it (the empty tray may be taken from it). */
  onSettledEmpty?: (frame: { jpeg: Uint8Array; image: RgbImage }) => void;
  /**
   * Where the frames of the rolls given to the table are kept over a restart (roll-frames.ts;
   * `restoreFrames` reads them back); none: in memory only.
   */
  framesDir?: string;
}

/**
 * The dice the game asks for, as reader options: the sets in play and the colours to name. When
 * every slot names its colour, those are the palette; when only some do (Worm & Cozy's red shape
 * die among plain ones), every named colour is, so the others are not forced onto the one named.
 */
export function readOptions(request: DiceRequest): ReadOptions {
  const slots = request.slots ?? [];
  const named = [...new Set(slots.map((s) => s.color).filter((c): c is string => !!c))];
  // The dice it asks for: a frame's dice are fitted to them (vision/fit-roll.ts); but where the
  // game names every die's colour and its slots name none, the game tells its dice apart by colour
  // (Worm-up's ghost: the two dice of no player's colour), so every die is kept (the fit kept the
  // two dice it was surest of, a player's bid as likely as the ghost's).
  const wanted = request.colors && named.length === 0 ? undefined : expectationOf(request);
  const expect = wanted ? { expect: wanted } : {};
  if (request.colors && request.colors.length > 0) return { sets: request.sets, palette: request.colors, ...expect };
  if (named.length === 0) return { sets: request.sets, ...expect };
  const palette = slots.every((s) => s.color) ? named : Object.keys(DIE_COLORS);
  return { sets: request.sets, palette, ...expect };
}

export function toRolled(readings: DieReading[]): RolledDie[] {
  return readings.map((r) => ({
    set: r.set,
    face: r.face,
    confidence: r.confidence,
    box: r.box,
    ...(r.color !== undefined ? { color: r.color } : {}),
    ...(r.uncertain ? { uncertain: true } : {}),
  }));
}

/** Same dice as the pending roll, as the camera read them (corrections aside): nothing new on the tray. */
export function sameRoll(a: RolledDie[], pending: RolledDie[] | undefined, removed: readonly ObservedDie[] = []): boolean {
  if (!pending) return false;
  const key = (d: ObservedDie, face: string, color: string | undefined) => `${d.set}:${face}:${color ?? ''}`;
  // What the camera read for the pending roll: its dice as read (not those a person added), and
  // those a person took out.
  const right = [...pending.filter((d) => !d.added).map((d) => key(d, d.readAs ?? d.face, d.readColor ?? d.color)), ...removed.map((d) => key(d, d.face, d.color))].sort();
  if (a.length !== right.length) return false;
  const left = a.map((d) => key(d, d.face, d.color)).sort();
  return left.every((k, i) => k === right[i]);
}

/** Box overlap above which a die read again is the die read there before (box jitter between reads is far less). */
export const SAME_SPOT_IOU = 0.5;

/**
 * Every die of `dice` lies where a die of `before` lay (boxes overlapping by at least
 * SAME_SPOT_IOU) and shows the same face: the camera's last reading settled again, whole or in
 * part (dice hidden by a hand, or taken away), re-lit by a lamp or re-settled after a shadow or a
 * camera restart: no die was thrown. Colour is not compared (a die re-lit may be named another).
 */
export function sameTray(dice: readonly RolledDie[], before: readonly RolledDie[]): boolean {
  const left = [...before];
  return dice.every((d) => {
    const i = left.findIndex((o) => o.set === d.set && o.face === d.face && !!o.box && !!d.box && iou(o.box, d.box) >= SAME_SPOT_IOU);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

type CameraStatus = HardwareStatus['camera'];

/** A problem's message with its numbers (a frame's byte count, its size) left out: the same problem at each frame. */
const sansNumbers = (message: string): string => message.replace(/\d+/g, '#');

/**
 * Once a camera's view is learnt, one new roll in this many is read 'any' to check it. A roll
 * read so reads about as well (docs/notes/vision-model.md), at about a third more time a frame.
 * On rendered trays a view learnt wrong was mended after 14–22 checks (70–110 rolls), and a right
 * one was never doubted by more than 3.5 nats of the 25 over 40 checks.
 */
export const VIEW_CHECK_EVERY = 5;

/** A camera's status with what it has learnt of its view, when its view is 'auto'. */
export function withViewLearning(camera: CameraStatus, learning: ViewLearnerState | null): CameraStatus {
  if (!learning) return camera;
  const count = (n: number, one: string, more = `${one}s`) => `${n} ${n === 1 ? one : more}`;
  const checks = learning.checked > 0 ? `; checked on ${count(learning.checked, 'roll')} since${learning.doubt > 0 ? `, another view ahead by ${learning.doubt.toFixed(1)} of ${VIEW_LEARNER_DEFAULTS.margin}` : ''}` : '';
  const said = learning.learnt
    ? `view learnt from ${count(learning.rolls, 'roll')}${learning.remembered ? ' (before the restart)' : ''}: ${learning.learnt}${viewOf(learning.learnt) === 'any' ? ' (read "any")' : ''}${checks}`
    : `learning its view (read "any" meanwhile): ${count(learning.rolls, 'roll')}, ${count(learning.dice, 'die', 'dice')}${learning.leader ? `, ${learning.leader} ahead by ${learning.margin.toFixed(1)} of ${VIEW_LEARNER_DEFAULTS.margin}` : ''}`;
  return { ...camera, message: camera.message ? `${camera.message}; ${said}` : said };
}

/** The last frame the pipeline decoded and what it read there (calibration crops come from it). */
export interface LastRead {
  image: RgbImage;
  readings: DieReading[];
  /**
   * The frame's time, after every frame time kept from before the restart (`timeFramesAfter`):
   * with a die's box it names the die a Teach label was given to (calibration.ts), also over restarts.
   */
  at: number;
}

/**
 * Frames of the rolls given to the table kept for teaching (`frameFor`): as far back as BACK goes
 * in an ordinary game (about a megabyte a 640×480 frame in memory; on disk, with `framesDir`, the
 * camera's JPEG, within ROLL_FRAMES_MAX_BYTES).
 */
export const OFFERED_KEPT = 8;

/** A roll's frame kept from before a restart that could not be read back: why (naming its file). */
interface LostFrame {
  readings: DieReading[];
  problem: string;
}

/** The most dice a frame may hold for its dice in doubt to get the colour look, with `vision.colourLook` 'auto': the most any of clew's games rolls. */
export const COLOUR_LOOK_UP_TO = 8;

/** ReadOptions for `vision.colourLook`. */
export function colourLookOptions(setting: boolean | 'auto' | undefined): Pick<ReadOptions, 'colourLook' | 'colourLookUpTo'> {
  if (setting === 'auto') return { colourLookUpTo: COLOUR_LOOK_UP_TO };
  return setting === undefined ? {} : { colourLook: setting };
}

/**
 * The most of a still frame with no dice that may differ from the empty tray for the dice read
 * last to be forgotten: an empty tray compared with its own reference differs in under 1-2 %
 * (tests/vision/locate-tray-reference.test.ts); a hand over the dice differs in far more.
 */
export const BARE_TRAY_DIFFERING = 0.02;

export class CameraPipeline {
  private running = false;
  private loop: Promise<void> | null = null;
  private latest: CameraFrame | null = null;
  private busy = false;
  /** READs in flight (not the frame loop's work: `busy` does not cover them). */
  private readonly reads = new Set<Promise<Result<unknown>>>();
  private lastRead: LastRead | null = null;
  /** The frames of the last rolls this pipeline gave the table, newest first (OFFERED_KEPT of them). */
  private offered: (LastRead | LostFrame)[] = [];
  /** The same frames on disk, with `framesDir`. */
  private readonly frames: RollFrames | null;
  /**
   * The dice this camera last read on a settled tray or at a READ (taken by the table or not): a
   * settle of the same tray (`sameTray`) is no new roll, so neither the used roll comes back as
   * the next player's nor does a roll a person entered over them give way to the misreading.
   */
  private lastOffered: RolledDie[] | null = null;
  /** The tray settled on the dice read last (`lastOffered`) and no new dice were asked of a replay since. */
  private trayRead = false;
  /** A settle was refused as the dice read last and not yet said (the log says it once a streak). */
  private sameTraySaid = false;
  /** How the frame being read fitted the empty tray (null: no reference, or not compared). */
  private frameFit: TrayFit | null = null;
  private unsubscribe: (() => void) | null = null;
  /**
   * Added to the source's frame times (monotonic, from near 0 in each process) to time this run's
   * frames after every frame time kept from before the restart (`timeFramesAfter`).
   */
  private timeBase = 0;
  private wake: (() => void) | null = null;
  private problem: string | null = null;
  /** The empty tray this camera's frames are compared with, and how the last frame read fitted it. */
  private tray: TrayReference | null = null;
  private trayFit: TrayFit | null = null;
  /** How many frames were decoded and how many skipped (behind, or no dice expected). */
  readonly counts = { decoded: 0, skipped: 0, rolls: 0 };
  /** With view 'auto': what the settled rolls say about the camera, and the last frame's word. */
  private readonly learner: ViewLearner | null;
  private frameEvidence: CameraEvidence | null = null;
  /** New rolls taken since the view was learnt, and whether the next roll is read 'any' to check it. */
  private rollsSinceLearnt = 0;
  private checkNext = false;

  constructor(private readonly opts: PipelineOptions) {
    const known = opts.view === 'auto' ? opts.viewMemory?.load() : null;
    this.learner = opts.view === 'auto' ? createViewLearner(known ? { known } : {}) : null;
    this.frames = opts.framesDir ? new RollFrames(opts.framesDir, opts.logger, { frames: OFFERED_KEPT }) : null;
  }

  /**
   * The frames of the rolls given to the table before the restart, read back from `framesDir`
   * (before `start`): a roll read before it is labelled and taught from its frame as before, by its
   * frame time as before. Says the latest frame time kept in the folder (null: none), after which
   * this run's frames are timed; with more than one camera, give each the latest of all
   * (`timeFramesAfter`): a Teach label names a die by frame time and box, whichever camera's.
   */
  async restoreFrames(): Promise<number | null> {
    if (!this.frames) return null;
    const restored = await this.frames.load(this.opts.decode);
    // Older than any frame of this run.
    this.offered = [...this.offered, ...restored].slice(0, OFFERED_KEPT);
    // A roll entered by hand over the camera's last roll before the restart stands after it too.
    const newest = restored[0];
    if (!this.lastOffered && newest) this.lastOffered = toRolled(newest.readings);
    const latest = this.frames.latest;
    if (latest !== null) this.timeFramesAfter(latest);
    return latest;
  }

  /**
   * This run's frames are timed after `time` (a frame time kept from before the restart): the
   * source's clock starts again near 0 in each process, so a new frame could have had the time of
   * an old one, and a die of it in the same box was taken for the die labelled before. Call before
   * `start`; the source's times are monotonic and never below 0 (performance.now()).
   */
  timeFramesAfter(time: number): void {
    this.timeBase = Math.max(this.timeBase, time + 1);
  }

  /** A frame's time in this run (LastRead.at). */
  private timeOf(frame: CameraFrame): number {
    return this.timeBase + frame.at;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // A new game's first throw is no settle of the last game's tray. Optional: stand-in sessions
    // in tests have no listeners.
    this.unsubscribe = this.opts.session.onChange?.((_table, change) => {
      if (change.event.type === 'setup') this.rememberReading(null);
    }) ?? null;
    this.loop = this.consume();
  }

  /**
   * The dice this camera read last (offered, or read by a READ), a new streak of same-tray settles
   * to say; null: the next settle is a throw, whatever dice it shows (the tray was seen bare, a new
   * game, a replay's cue).
   */
  private rememberReading(dice: RolledDie[] | null): void {
    this.lastOffered = dice;
    this.sameTraySaid = false;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.wake?.();
    await this.loop;
    // A frame being read finishes first, so nothing reaches the table after stop.
    while (this.busy) await new Promise((resolve) => setTimeout(resolve, 10));
    // A READ too (its roll's frame kept), so nothing reaches the frames folder after stop either.
    while (this.reads.size > 0) await Promise.allSettled([...this.reads]);
    // A READ pressed after (the phones are still connected while the server stops) keeps no frame
    // on disk: the folder is the next start's.
    await this.frames?.close();
  }

  /** The last decoded frame with its readings, if any. */
  last(): LastRead | null {
    return this.lastRead;
  }

  /** How this source's camera looks at the tray: the view its frames are read in (with 'auto', 'any' until the view is learnt). */
  get view(): CameraView {
    const view = this.opts.view ?? 'side';
    return view === 'auto' ? viewOf(this.learner!.state().learnt) : view;
  }

  /** With view 'auto': what has been learnt about the camera so far; null when the view is set. */
  viewLearning(): ViewLearnerState | null {
    return this.learner?.state() ?? null;
  }

  /**
   * The frame `roll` was read from, among the last rolls this pipeline gave the table, or null:
   * a roll BACK brought back is an older roll than the last, and its dice must be cut from its own
   * frame (before, the last roll's frame was used, and another roll's pixels taught as a face).
   * A frame is the roll's when every die of the roll the camera saw was read in it: the same box,
   * set and face as read (before any person's correction).
   */
  frameFor(roll: PendingRoll): LastRead | null {
    const frame = this.offeredFor(roll);
    return frame && 'image' in frame ? frame : null;
  }

  /** Why the frame of `roll` is not at hand where it was kept over the restart but could not be read back (its file named), else null. */
  lostFrameFor(roll: PendingRoll): string | null {
    const frame = this.offeredFor(roll);
    return frame && 'problem' in frame ? frame.problem : null;
  }

  private offeredFor(roll: PendingRoll): LastRead | LostFrame | null {
    const seen = roll.dice.filter((d) => !d.added && d.box);
    if (seen.length === 0) return null;
    const key = (set: string, face: string, box: readonly number[]) => `${set}:${face}:${box.join(',')}`;
    return this.offered.find((f) => {
      const read = new Set(f.readings.map((r) => key(r.set, r.face, r.box)));
      return seen.every((d) => read.has(key(d.set, d.readAs ?? d.face, d.box!)));
    }) ?? null;
  }

  status(): string | null {
    return this.problem;
  }

  /** Compare this camera's frames with the empty tray from now on (null: model the tray again). */
  setTray(tray: TrayReference | null): void {
    this.tray = tray;
    this.trayFit = null;
  }

  /** The empty tray in use, and how the last frame read against it fitted (null: none read since). */
  trayState(): { tray: TrayReference | null; fit: TrayFit | null } {
    return { tray: this.tray, fit: this.trayFit };
  }

  /** The newest frame from the source, as it came and decoded (the empty tray is learned from it). */
  async newestFrame(): Promise<{ jpeg: Uint8Array; image: RgbImage } | null> {
    const frame = this.newest();
    return frame ? { jpeg: frame.jpeg, image: await this.opts.decode(frame.jpeg) } : null;
  }

  /**
   * Why the newest frame is not the tray as it is now, if it is not: a camera that stopped
   * delivering (unplugged, crashed, restarting) leaves its last frame behind, often the roll before.
   */
  notDelivering(): string | null {
    const status = this.opts.source.status?.();
    return status && !status.ok ? `the ${this.opts.source.kind} camera is not delivering frames (${status.message})` : null;
  }

  /** The frame waiting to be worked on, else the source's last one (a frame already read); none while the camera is not delivering. */
  private newest(): CameraFrame | null {
    if (this.notDelivering()) return null;
    return this.latest ?? ('latest' in this.opts.source && typeof this.opts.source.latest === 'function' ? (this.opts.source.latest as () => CameraFrame | null)() : null);
  }

  /** Reader options for a frame of this camera: the game's dice, the camera's view, the empty tray. */
  private frameOptions(request: DiceRequest): ReadOptions {
    const tray = this.tray;
    const checking = this.learner !== null && (!this.learner.state().learnt || this.checkNext);
    // Read 'any', the frame's dice are judged with what the earlier rolls said about the camera.
    const earlier = checking ? this.learner!.evidence() : null;
    const learning = checking ? { onCameraEvidence: (e: CameraEvidence) => (this.frameEvidence = e), ...(earlier ? { cameraPrior: earlier } : {}) } : {};
    return { ...readOptions(request), view: checking ? 'any' : this.view, ...learning, ...(tray ? { tray, onTray: (fit: TrayFit) => this.noteFit(tray, fit) } : {}), ...colourLookOptions(this.opts.colourLook) };
  }

  /**
   * A new roll was settled and taken: its frame's evidence about the camera counts (once a roll:
   * a still tray's frames say the same thing). Once the view is learnt, one roll in
   * VIEW_CHECK_EVERY is read 'any' again, and its evidence checks the view (view-learner.ts).
   */
  private learnFrom(evidence: CameraEvidence | null): void {
    if (!this.learner) return;
    const before = this.learner.state().learnt;
    if (evidence) this.learner.add(evidence);
    const state = this.learner.state();
    if (state.learnt && state.learnt !== before) {
      this.remember(state);
      this.rollsSinceLearnt = 0;
      const what = `${state.learnt}${viewOf(state.learnt) === 'any' ? ' (read "any": no reader view turns a frame)' : ''}`;
      if (before) this.opts.logger.warn(`camera ${this.opts.source.kind}: the rolls since the view was learnt say otherwise; view learnt again from ${state.rolls} rolls (${state.dice} dice): ${what}`);
      else this.opts.logger.info(`camera ${this.opts.source.kind}: view learnt from ${state.rolls} rolls (${state.dice} dice): ${what}`);
    } else if (state.learnt) this.rollsSinceLearnt++;
    this.checkNext = state.learnt !== null && this.rollsSinceLearnt % VIEW_CHECK_EVERY === VIEW_CHECK_EVERY - 1;
  }

  /** Keeps the learnt view over a restart, or forgets it; a failure to write is said, not fatal. */
  private remember(state: ViewLearnerState): void {
    this.opts.viewMemory?.save(state).catch((error: Error) => this.opts.logger.warn(`camera ${this.opts.source.kind}: the learnt view could not be kept: ${error.message}`));
  }

  private noteFit(tray: TrayReference, fit: TrayFit): void {
    if (tray !== this.tray) return; // forgotten or replaced meanwhile
    // The camera moved: what was learnt about its view may no longer hold.
    if (!fit.used && fit.reason !== 'size' && this.trayFit?.used !== false && this.learner) {
      this.learner.reset();
      this.rollsSinceLearnt = 0;
      this.checkNext = false;
      this.remember(this.learner.state());
    }
    // Said once when the frames stop fitting (the camera moved), not at every frame.
    if (!fit.used && this.trayFit?.used !== false) this.opts.logger.warn(`camera ${this.opts.source.kind}: the frames no longer fit the empty tray (${fit.reason === 'size' ? 'another frame size' : 'the camera moved, the tray changed, or it was not empty when shown'}): the tray is modelled from each frame until it is shown empty again`);
    const changed = this.trayFit?.used !== fit.used;
    this.trayFit = fit;
    this.frameFit = fit;
    if (changed) this.opts.onTrayFit?.();
  }

  /** True while a frame is being decoded or read. */
  working(): boolean {
    return this.busy;
  }

  private request(): DiceRequest | null {
    const table = this.opts.session.table;
    return this.opts.games(table.game)?.diceRequest(table.state) ?? null;
  }

  private async consume(): Promise<void> {
    const { source, logger } = this.opts;
    while (this.running) {
      let frames: AsyncIterator<CameraFrame> | undefined;
      try {
        frames = source.frames()[Symbol.asyncIterator]();
        for (;;) {
          const next = await this.orStopped(frames.next());
          if (next === 'stopped' || next.done || !this.running) break;
          this.latest = next.value;
          // Work on the newest frame only; frames that arrive meanwhile replace each other.
          if (this.busy) {
            this.counts.skipped++;
            continue;
          }
          void this.work();
        }
      } catch (error) {
        logger.warn(`camera ${source.kind}: frames stopped: ${(error as Error).message}`);
      } finally {
        void frames?.return?.();
      }
      if (!this.running) break;
      // The source ended (stopped, or restarting): look again shortly.
      await this.orStopped(new Promise((resolve) => setTimeout(resolve, 500).unref()));
    }
  }

  /**
   * `next`, or 'stopped' as soon as stop() is called: stop() must not wait for the source's next
   * frame (a phone camera may never send one). A fresh promise each wait: one promise raced
   * against every frame for the pipeline's life kept every frame alive (each race leaves a
   * reaction on it that holds the race's result), about a frame's JPEG for each frame seen.
   */
  private orStopped<T>(next: Promise<T>): Promise<T | 'stopped'> {
    if (!this.running) return Promise.resolve('stopped');
    return new Promise<T | 'stopped'>((resolve, reject) => {
      this.wake = () => resolve('stopped');
      next.then(resolve, reject);
    }).finally(() => (this.wake = null));
  }

  private async work(): Promise<void> {
    this.busy = true;
    try {
      while (this.running && this.latest) {
        const frame = this.latest;
        this.latest = null;
        // A frame that fails is said and the next one read: a frame that came meanwhile is not left waiting.
        try {
          if (await this.workOn(frame)) this.problem = null;
        } catch (error) {
          const message = (error as Error).message;
          // Said once, not at every frame; /api/health keeps showing it. Compared without its
          // numbers: a run of corrupt frames names each frame's byte count, and was said at each.
          if (this.problem === null || sansNumbers(message) !== sansNumbers(this.problem)) this.opts.logger.warn(`camera ${this.opts.source.kind}: ${message}`);
          this.problem = message;
        }
      }
    } finally {
      this.busy = false;
    }
  }

  /** Reads one frame, if the game expects dice (else skips it: false). */
  private async workOn(frame: CameraFrame): Promise<boolean> {
    const request = this.request();
    if (!request) {
      this.counts.skipped++;
      return false;
    }
    // A replay throws its next roll when the table wants one and the last is read (and used, or
    // not taken): else a waiting roll would be replaced by the next at each loop.
    if (this.trayRead && !this.opts.session.table.roll && this.opts.source.replayDiceWanted) {
      this.trayRead = false;
      // The replay throws again: a roll played again lands as before and is still a throw (a
      // replay of one roll, or a looped folder, gave the table one roll and never another).
      this.rememberReading(null);
      this.opts.source.replayDiceWanted();
    }
    const stream = await this.opts.stream();
    const image = await this.opts.decode(frame.jpeg);
    this.counts.decoded++;
    this.frameEvidence = null;
    this.frameFit = null;
    const readings = await stream.push(image, frame.at, this.frameOptions(request));
    if (readings) {
      // The bare tray, seen still: the dice read last were taken away, and the next throw is a
      // roll even where it lands as they lay. Only where this frame fits the empty tray with less
      // differing than a hand makes: a hand held still over all the dice also gives no dice.
      // Without an empty tray to compare, the reading is kept (READ takes such a throw).
      if (readings.length === 0 && this.showsBareTray()) this.rememberReading(null);
      this.lastRead = { image, readings, at: this.timeOf(frame) };
      if (await this.offer(this.lastRead, frame.jpeg)) this.learnFrom(this.frameEvidence);
      if (readings.length === 0) this.opts.onSettledEmpty?.({ jpeg: frame.jpeg, image });
    }
    return true;
  }

  /** The frame just read fitted the empty tray, differing from it less than a hand over the dice would. */
  private showsBareTray(): boolean {
    const fit = this.frameFit;
    return fit !== null && fit.used && fit.differing <= BARE_TRAY_DIFFERING;
  }

  /**
   * A settled roll: becomes the pending roll unless it is the dice this camera read last (`sameTray`)
   * or the roll already pending. Says whether the table took it as a new roll.
   */
  private async offer(read: LastRead, jpeg: Uint8Array): Promise<boolean> {
    const dice = toRolled(read.readings);
    if (dice.length === 0) return false;
    // A settle is the tray still again, not always a new roll: after a lamp, a shadow, a hand
    // drawn back, a camera restart or a corrupt frame, the used roll's dice came back as the next
    // player's; under a hand, a part of them replaced the pending roll and the correction made to
    // it. Nor is such a settle remembered as the last reading (a part of the tray remembered made
    // the whole tray new again). A roll entered by hand over a misreading stands the same way. The
    // cost: a throw landing on the same spots with the same faces is not offered, unless the tray
    // was seen bare since (workOn) or a new game began; the log says so, and READ takes it.
    const before = this.lastOffered;
    this.trayRead = true;
    if (before && sameTray(dice, before)) {
      // Said, or a table waiting on a throw that landed as the last dice lay would not know why.
      if (!this.sameTraySaid) this.opts.logger.info(`camera ${this.opts.source.kind}: the tray settled on the dice read last; not a new roll (READ if it is a new throw)`);
      this.sameTraySaid = true;
      return false;
    }
    this.rememberReading(dice);
    const pending = this.opts.session.table.roll;
    if (sameRoll(dice, pending?.dice, pending?.removed)) return false;
    const ack = await this.opts.session.cameraRoll(dice, this.opts.kind);
    if (ack.ok) {
      this.counts.rolls++;
      this.keepOffered(read, jpeg);
      // The phones say so too (web/client/src/net/notices.ts); the log keeps when.
      if (pending?.source === 'manual') this.opts.logger.info(`camera ${this.opts.source.kind}: a new roll on the tray replaced the roll entered by hand`);
    } else this.opts.logger.info(`camera ${this.opts.source.kind}: roll not used: ${ack.message}`);
    return ack.ok;
  }

  /** A roll the table took: its frame kept, and with `framesDir` written after (the roll has reached the phones already). */
  private keepOffered(read: LastRead, jpeg: Uint8Array): void {
    this.offered = [read, ...this.offered.filter((f) => f !== read)].slice(0, OFFERED_KEPT);
    this.frames?.keep({ at: read.at, readings: read.readings, jpeg });
  }

  /** READ: read the newest frame now, settled or not. */
  readNow(): Promise<Result<unknown>> {
    const reading = this.readNewest();
    this.reads.add(reading);
    const done = () => void this.reads.delete(reading);
    reading.then(done, done);
    return reading;
  }

  private async readNewest(): Promise<Result<unknown>> {
    const request = this.request();
    if (!request) return fail('dice/not-expected', 'the game expects no dice right now');
    const frame = this.newest();
    if (!frame) return fail('camera/no-frame', this.notDelivering() ?? `no frame from the ${this.opts.source.kind} camera yet`);
    try {
      const stream = await this.opts.stream();
      const image = await this.opts.decode(frame.jpeg);
      const readings = await stream.readNow(image, this.frameOptions(request));
      // This READ's own: the frame loop may settle another frame (this.lastRead) while the roll goes to the table.
      const read = { image, readings, at: this.timeOf(frame) };
      this.lastRead = read;
      stream.reset();
      const dice = toRolled(readings);
      if (dice.length === 0) return fail('dice/none-seen', 'no dice were found on the tray');
      // READ is asked for by a person: it replaces a roll entered by hand, and its dice are what
      // this camera read last (the next settle of the same tray replaces nothing).
      this.rememberReading(dice);
      // The dice this camera read for the pending roll, read again: the roll stands, with any
      // corrections made to it (a READ pressed twice replaced it, and the corrections were lost).
      const pending = this.opts.session.table.roll;
      if (pending?.source === this.opts.kind && sameRoll(dice, pending.dice, pending.removed)) return ok(this.opts.session.table.version);
      const ack = await this.opts.session.cameraRoll(dice, this.opts.kind);
      if (ack.ok) this.keepOffered(read, frame.jpeg);
      return ack.ok ? ok(ack.version) : fail(ack.code, ack.message);
    } catch (error) {
      return fail('camera/read-failed', `the dice could not be read: ${(error as Error).message}`);
    }
  }
}
