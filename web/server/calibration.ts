/**
 * "Teach clew your dice" at the table. The referee labels dice of the pending camera roll
 * (`calibration/label`: die `index` is face `face`), commits a set (the reader fits and applies a
 * calibration and vision's store saves it as `CLEW_DATA/calibration/<set>.json`), or undoes the
 * last commit. Calibrations are not table events: they change how dice are read, not the game,
 * so they live in their own files and do not bump the table's version; the phones see the
 * progress in the snapshot's `calibration` list.
 *
 * The camera rolls a table uses measure and teach the reader (`played`). Each used roll is held
 * until the game moves on (a new roll, a new game, or a commit), because an undo brings it back to
 * be corrected; an undo drops it. Then its dice count in play per set (how many nobody corrected,
 * how many were marked "check": the table's own measure of the reader), and, with
 * `vision.learnFromChecks`, the dice a person corrected and, when a phone used the roll, the dice
 * marked "check" are what the table says they are: labels, as the Teach tab's.
 */
import { readdir } from 'node:fs/promises';
import { DICE_SET_IDS, type DiceSetId } from '../../shared/dice.js';
import { fail, ok, type Result } from '../../shared/game.js';
import type { CalibrationStatus, Intent, PendingRoll } from '../../shared/protocol.js';
import { countPendingOnDisk } from '../../vision/model/pending-store.js';
import type { Box, CameraView, RgbImage } from '../../vision/types.js';
import type { CameraPipeline } from './camera.js';
import type { ReaderHolder } from './dice-reader.js';
import type { Logger } from './logger.js';
import type { Actor, TableEvent, TableState } from './table.js';

export type CalibrationIntent = Extract<Intent, { type: 'calibration/label' | 'calibration/commit' | 'calibration/undo' }>;

/**
 * A used camera roll, not yet final: its dice count in play, and its checked dice (`taught`: their
 * indices) will teach, read from `frame`.
 */
interface HeldRoll {
  roll: PendingRoll;
  taught: number[];
  frame: { image: RgbImage; view: CameraView } | null;
}

/** Dice of a set used in camera rolls: how many, how many nobody corrected, how many the camera marked "check", how many it misread unmarked. */
interface InPlay {
  dice: number;
  right: number;
  marked: number;
  wrongUnmarked: number;
}

const NONE_IN_PLAY: InPlay = { dice: 0, right: 0, marked: 0, wrongUnmarked: 0 };

function plus(a: InPlay, b: InPlay): InPlay {
  return { dice: a.dice + b.dice, right: a.right + b.right, marked: a.marked + b.marked, wrongUnmarked: a.wrongUnmarked + b.wrongUnmarked };
}

export class TableCalibration {
  /** Sets with a calibration file on disk, read at start (shown before the reader loads). */
  private onDisk = new Set<DiceSetId>();
  /** Labelled crops kept on disk from before the start, per set and face (shown before the reader loads). */
  private pendingOnDisk = new Map<DiceSetId, Record<string, number>>();
  /** Sets labelled since the start (their pending counts are shown). */
  private touched = new Set<DiceSetId>();
  /** Per set: labels given since the last commit and how many the camera had read right; the last commit's figures. */
  private tally = new Map<DiceSetId, { crops: number; right: number; fromPlay: number; before: number | null; after: number | null; checked: number }>();
  /** The last used camera roll, not yet final (an undo may bring it back to be corrected). */
  private held: HeldRoll | null = null;
  /** Per set: its dice in used camera rolls since the start, or since its calibration last changed here. */
  private inPlay = new Map<DiceSetId, InPlay & { since: 'start' | 'save' | 'undo' }>();
  /** Held dice being made labels now, in order, and the chain of such work (one roll after another). */
  private learning: { set: DiceSetId; face: string }[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** Sets whose calibration is being fitted now, and how far it has got. */
  private fitting = new Map<DiceSetId, { step: number; steps: number }>();

  constructor(
    private readonly dir: string,
    private readonly reader: ReaderHolder,
    /** The pipeline whose last roll a pending roll from `source` came from. */
    private readonly pipelineFor: (source: 'camera' | 'phone-camera') => CameraPipeline | null,
    private readonly logger: Logger,
    /** Called when the status changes while a calibration is fitted (the phones are told). */
    private readonly onProgress: () => void = () => {},
    /** Whether dice checked during play label themselves (`vision.learnFromChecks`). */
    private readonly learnFromChecks = false,
  ) {}

  async load(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    this.onDisk = new Set(DICE_SET_IDS.filter((s) => names.includes(`${s}.json`)));
    for (const set of DICE_SET_IDS) {
      const counts = await countPendingOnDisk(this.dir, set);
      if (Object.values(counts).some((n) => n > 0)) this.pendingOnDisk.set(set, counts);
    }
  }

  status(): CalibrationStatus[] {
    const r = this.reader.loaded();
    if (!r) {
      return DICE_SET_IDS.filter((s) => this.onDisk.has(s) || this.pendingOnDisk.has(s)).map((set) => ({ set, samples: this.pendingOnDisk.get(set) ?? {}, active: this.onDisk.has(set) }));
    }
    const active = new Set(r.calibration.list().map((c) => c.set));
    const held = this.heldDice();
    // A set with labels kept from before a restart shows too.
    const labelled = (s: DiceSetId) => Object.values(r.calibration.pending(s).counts).some((n) => n > 0);
    const sets = DICE_SET_IDS.filter((s) => active.has(s) || this.touched.has(s) || this.fitting.has(s) || held.some((d) => d.set === s) || labelled(s) || this.inPlayOf(s));
    return sets.map((set) => {
      const t = this.tally.get(set);
      // The held dice are counted already: the game moving on only makes them labels.
      const samples = { ...r.calibration.pending(set).counts };
      const heldHere = held.filter((d) => d.set === set);
      for (const d of heldHere) samples[d.face] = (samples[d.face] ?? 0) + 1;
      const status: CalibrationStatus = { set, samples, active: active.has(set) };
      const fromPlay = (t?.fromPlay ?? 0) + heldHere.length;
      if (fromPlay > 0) status.fromPlay = fromPlay;
      const played = this.inPlayOf(set);
      if (played) status.inPlay = played;
      // Shown once a commit has both figures (the phone counts its own labels while labelling).
      if (t && t.after !== null) status.accuracy = { before: t.before, after: t.after, crops: t.checked };
      const fitting = this.fitting.get(set);
      if (fitting) status.fitting = { ...fitting };
      return status;
    });
  }

  async handle(intent: CalibrationIntent, table: TableState): Promise<Result<unknown>> {
    let reader;
    try {
      reader = await this.reader.get();
    } catch (error) {
      return fail('calibration/unavailable', (error as Error).message);
    }
    try {
      switch (intent.type) {
        case 'calibration/label': {
          const roll = table.roll;
          if (!roll) return fail('calibration/no-roll', 'roll the dice first: labels are given to dice of the pending roll');
          if (roll.source === 'manual') return fail('calibration/no-crop', 'this roll was entered by hand; label a roll the camera read');
          const die = roll.dice[intent.index];
          if (!die) return fail('calibration/no-such-die', `the roll has ${roll.dice.length} dice; there is no die number ${intent.index + 1}`);
          if (die.set !== intent.set) return fail('calibration/wrong-set', `die ${intent.index + 1} is a ${die.set} die, not ${intent.set}`);
          const pipeline = this.pipelineFor(roll.source);
          const last = pipeline?.rollFrame();
          if (!die.box || !last) return fail('calibration/no-crop', 'the camera frame of this roll is no longer available; roll again');
          // Framed as the roll was read: the same camera view, the die's up judged with the roll's other dice.
          const others = roll.dice.flatMap((d, k) => (k !== intent.index && d.box ? [d.box] : []));
          const counts = await reader.calibration.add(intent.set, intent.face, last.image, die.box, pipeline!.view, others);
          this.touched.add(intent.set);
          const t = this.tally.get(intent.set) ?? { crops: 0, right: 0, fromPlay: 0, before: null, after: null, checked: 0 };
          // What the camera read, before any person corrected it.
          const read = die.readAs ?? die.face;
          this.tally.set(intent.set, { ...t, crops: t.crops + 1, right: t.right + (read === intent.face ? 1 : 0) });
          return ok(counts);
        }
        case 'calibration/commit': {
          // The last used roll's checked dice count: the referee saves what the tab shows.
          await this.flush();
          if (this.fitting.has(intent.set)) return fail('calibration/busy', `the ${intent.set} calibration is being fitted already; wait for it to finish`);
          this.fitting.set(intent.set, { step: 0, steps: 0 });
          this.onProgress();
          let cal;
          try {
            cal = await reader.calibration.commit(intent.set, {
              // Every few steps is enough for a progress bar (each broadcast is a snapshot per phone).
              onStep: (step, steps) => {
                this.fitting.set(intent.set, { step, steps });
                if (step % 5 === 0 || step === steps) this.onProgress();
              },
            });
          } finally {
            this.fitting.delete(intent.set);
          }
          this.onDisk.add(intent.set);
          // From now on the dice in play measure the new calibration.
          this.inPlay.set(intent.set, { ...NONE_IN_PLAY, since: 'save' });
          const t = this.tally.get(intent.set);
          this.tally.set(intent.set, { crops: 0, right: 0, fromPlay: 0, before: t && t.crops > 0 ? t.right / t.crops : null, after: cal.fitAccuracy, checked: t?.crops ?? 0 });
          this.logger.info(`calibration: ${intent.set} calibrated from ${Object.values(cal.counts).reduce((a, b) => a + b, 0)} crops (fit ${Math.round(cal.fitAccuracy * 100)}%)`);
          return ok(cal.counts);
        }
        case 'calibration/undo': {
          const now = await reader.calibration.undo(intent.set);
          if (!now) this.onDisk.delete(intent.set);
          this.tally.delete(intent.set);
          await this.flush();
          this.inPlay.set(intent.set, { ...NONE_IN_PLAY, since: 'undo' });
          this.logger.info(`calibration: ${intent.set} undone (${now ? 'the previous calibration is back' : 'back to the shipped model'})`);
          return ok(null);
        }
      }
    } catch (error) {
      // The reader's messages are written for people ("needs at least one crop of every face; missing: 5, 6").
      return fail('calibration/refused', (error as Error).message);
    }
  }

  /**
   * A committed table change. A used camera roll is held: the game moving on (a new roll, a new
   * game, a save) makes it final, and an undo drops it, since BACK brings the roll back to be
   * corrected. A final roll's dice count in play, and with `vision.learnFromChecks` its checked
   * dice become labels.
   */
  played(event: TableEvent, before: TableState): void {
    if (event.type === 'undo') {
      this.held = null;
      return;
    }
    if (event.type === 'confirm' || event.type === 'roll' || event.type === 'setup') void this.flush();
    if (event.type === 'confirm' && before.roll && before.roll.source !== 'manual') this.held = this.hold(before.roll, event.by);
  }

  /** A used camera roll, with the dice the table has checked in it and the frame they were read from. */
  private hold(roll: PendingRoll, by: Actor): HeldRoll {
    // A phone's "use" follows the "check the dice" prompt; the button box's OK may not.
    const looked = by.kind === 'referee' || by.kind === 'player';
    const checked = roll.dice.flatMap((d, index) => (d.box && !d.added && (d.corrected || (looked && d.uncertain)) ? [index] : []));
    const pipeline = this.learnFromChecks && checked.length > 0 ? this.pipelineFor(roll.source as 'camera' | 'phone-camera') : null;
    const last = pipeline?.rollFrame();
    const frame = pipeline && last ? { image: last.image, view: pipeline.view } : null;
    return { roll, taught: frame ? checked : [], frame };
  }

  /** A set's dice in play, the held roll's included; undefined while there are none. */
  private inPlayOf(set: DiceSetId): (InPlay & { since: 'start' | 'save' | 'undo' }) | undefined {
    const base = this.inPlay.get(set) ?? { ...NONE_IN_PLAY, since: 'start' as const };
    const all = this.held ? { ...plus(base, countInPlay(this.held.roll, set)), since: base.since } : base;
    return all.dice > 0 ? all : undefined;
  }

  /** The dice held, and those of a roll being made labels now: the tab counts them all. */
  private heldDice(): { set: DiceSetId; face: string }[] {
    const held = this.held;
    return [...(held ? held.taught.map((i) => held.roll.dice[i]!) : []), ...this.learning];
  }

  /**
   * The held roll becomes final: its dice count in play, and its checked dice become labels, after
   * any roll's before them (a commit waits for this).
   */
  private flush(): Promise<void> {
    const held = this.held;
    this.held = null;
    if (held) {
      for (const set of new Set(held.roll.dice.map((d) => d.set))) {
        const add = countInPlay(held.roll, set);
        const now = this.inPlay.get(set) ?? { ...NONE_IN_PLAY, since: 'start' as const };
        if (add.dice > 0) this.inPlay.set(set, { ...plus(now, add), since: now.since });
      }
    }
    if (held && held.taught.length > 0) {
      this.flushing = this.flushing
        .then(() => this.learn(held))
        .catch((error: unknown) => this.logger.error(`calibration: the dice checked during play could not be learnt: ${(error as Error).message}`));
    }
    return this.flushing;
  }

  /** A used roll's checked dice become their sets' labelled crops, as the Teach tab's labels do. */
  private async learn(held: HeldRoll): Promise<void> {
    const frame = held.frame;
    if (!frame) return;
    this.learning = held.taught.map((i) => held.roll.dice[i]!);
    let reader;
    try {
      reader = await this.reader.get();
    } catch {
      this.learning = [];
      return; // no reader, nothing to teach
    }
    let learnt = 0;
    for (const index of held.taught) {
      const die = held.roll.dice[index]!;
      const others: Box[] = held.roll.dice.flatMap((d, k) => (k !== index && d.box ? [d.box] : []));
      try {
        await reader.calibration.add(die.set, die.face, frame.image, die.box, frame.view, others);
      } catch (error) {
        this.logger.warn(`calibration: die ${index + 1} of a used roll could not be learnt: ${(error as Error).message}`);
        continue;
      } finally {
        this.learning.shift();
      }
      this.touched.add(die.set);
      const t = this.tally.get(die.set) ?? { crops: 0, right: 0, fromPlay: 0, before: null, after: null, checked: 0 };
      this.tally.set(die.set, { ...t, crops: t.crops + 1, right: t.right + ((die.readAs ?? die.face) === die.face ? 1 : 0), fromPlay: t.fromPlay + 1 });
      learnt++;
    }
    if (learnt > 0) this.logger.info(`calibration: ${learnt} ${learnt === 1 ? 'die' : 'dice'} checked during play added to the taught crops`);
    this.onProgress();
  }
}

/** A used camera roll's dice of one set as the camera saw them: a die a person added is not counted. */
function countInPlay(roll: PendingRoll, set: DiceSetId): InPlay {
  const seen = roll.dice.filter((d) => d.set === set && !d.added);
  const right = (d: (typeof seen)[number]) => (d.readAs ?? d.face) === d.face;
  const marked = (d: (typeof seen)[number]) => Boolean(d.uncertain || d.readUncertain);
  return {
    dice: seen.length,
    right: seen.filter(right).length,
    marked: seen.filter(marked).length,
    wrongUnmarked: seen.filter((d) => !right(d) && !marked(d)).length,
  };
}
