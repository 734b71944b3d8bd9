/**
 * "Teach clew your dice" at the table. The referee labels dice of the pending camera roll
 * (`calibration/label`: die `index` is face `face`), commits a set (the reader fits and applies a
 * calibration and vision's store saves it as `CLEW_DATA/calibration/<set>.json`), or undoes the
 * last commit. Calibrations are not table events: they change how dice are read, not the game,
 * so they live in their own files and do not bump the table's version; the phones see the
 * progress in the snapshot's `calibration` list.
 *
 * The camera rolls a table uses measure the reader and, with `vision.learnFromChecks`, add labels
 * of their own (played-rolls.ts); the status shows both. The dice labelled and the last rolls made
 * final are remembered over restarts (label-memory.ts), and so are the crops being added or
 * withdrawn: at the start a crop a crash left on disk with no label naming it is taken out.
 */
import { readdir, rm } from 'node:fs/promises';
import { DICE_SET_IDS, type DiceSetId } from '../../shared/dice.js';
import { fail, ok, type Result } from '../../shared/game.js';
import type { CalibrationStatus, Intent } from '../../shared/protocol.js';
import { countPendingOnDisk } from '../../vision/model/pending-store.js';
import type { CameraPipeline } from './camera.js';
import type { ReaderHolder } from './dice-reader.js';
import { cropFile, LabelMemory, type CropName, type Remembered, type TeachLabel } from './label-memory.js';
import type { Logger } from './logger.js';
import { PlayedRolls } from './played-rolls.js';
import type { TableEvent, TableState } from './table.js';

export type CalibrationIntent = Extract<Intent, { type: 'calibration/label' | 'calibration/commit' | 'calibration/undo' }>;

/** A set's labels given since the last commit, how many the camera had read right and how many came from play; the last commit's figures. */
interface Tally {
  crops: number;
  right: number;
  fromPlay: number;
  before: number | null;
  after: number | null;
  checked: number;
}

/** Teach-tab labels remembered against a second label of the same die (far more than a game's rolls hold). */
const LABELS_REMEMBERED = 256;

/** A die labelled on the Teach tab; `tallied`: its label counts in this run's tally (one given before the start does not). */
type Labelled = TeachLabel & { tallied: boolean };

/** A die of a frame: the frame's time and the die's box there. */
function labelKey(at: number, box: readonly number[]): string {
  return `${at}:${box.join(',')}`;
}

const NO_TALLY: Tally = { crops: 0, right: 0, fromPlay: 0, before: null, after: null, checked: 0 };

export class TableCalibration {
  /** Sets with a calibration file on disk, read at start (shown before the reader loads). */
  private onDisk = new Set<DiceSetId>();
  /** Labelled crops kept on disk from before the start, per set and face (shown before the reader loads). */
  private pendingOnDisk = new Map<DiceSetId, Record<string, number>>();
  /** Sets labelled since the start (their pending counts are shown). */
  private touched = new Set<DiceSetId>();
  /** Per set: its labels since the last commit (Tally). */
  private tally = new Map<DiceSetId, Tally>();
  /** The camera rolls the table used: their dice in play, and the checked ones as labels. */
  private readonly rolls: PlayedRolls;
  /**
   * Dice labelled on the Teach tab, by frame and box (labelKey): the face given, the reader's label
   * (to withdraw when the die is labelled again) and whether the camera had read it so; the newest
   * LABELS_REMEMBERED, kept over restarts with the final rolls (`memory`).
   */
  private labelled = new Map<string, Labelled>();
  private readonly memory: LabelMemory;
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
    played: {
      /** Whether dice checked during play label themselves (`vision.learnFromChecks`). */
      learnFromChecks?: boolean;
      /** Where the dice in play are counted over restarts. */
      file?: string;
      /** Where the roll used last is kept until it is final (played-rolls.ts). */
      heldDir?: string;
    } = {},
  ) {
    this.memory = new LabelMemory(dir, logger, () => this.remembered());
    this.rolls = new PlayedRolls({
      learnFromChecks: played.learnFromChecks ?? false,
      ...(played.file ? { file: played.file } : {}),
      ...(played.heldDir ? { heldDir: played.heldDir } : {}),
      reader,
      pipelineFor,
      logger,
      // A die the referee labelled on the Teach tab is not taught again when its roll is used.
      labelled: (at, box) => this.labelled.has(labelKey(at, box)),
      onLabel: (set, readRight) => {
        this.touched.add(set);
        const t = this.tally.get(set) ?? NO_TALLY;
        this.tally.set(set, { ...t, crops: t.crops + 1, right: t.right + (readRight ? 1 : 0), fromPlay: t.fromPlay + 1 });
      },
      onUnlabel: (set, readRight) => {
        const t = this.tally.get(set) ?? NO_TALLY;
        this.tally.set(set, { ...t, crops: Math.max(0, t.crops - 1), right: Math.max(0, t.right - (readRight ? 1 : 0)), fromPlay: Math.max(0, t.fromPlay - 1) });
      },
      onChange: onProgress,
      onKeptChange: () => this.memory.changed(),
      adding: (set) => this.memory.adding(set),
      withdrawing: (crops) => this.memory.withdrawing(crops),
    });
  }

  /**
   * The die's label remembered, on disk before it settles, with the label it replaces (`before`)
   * named as being withdrawn until the returned function is called (once its crop is removed);
   * when that fails it rejects and the die is remembered as it was, so the caller takes the new
   * label back.
   */
  private async rememberLabel(key: string, given: Labelled, before: Labelled | undefined): Promise<() => void> {
    this.labelled.delete(key); // newest last, so the oldest are forgotten first
    this.labelled.set(key, given);
    if (this.labelled.size > LABELS_REMEMBERED) this.labelled.delete(this.labelled.keys().next().value!);
    const withdrawn = before && before.label !== null ? this.memory.withdrawing([{ set: before.set, label: before.label, face: before.face }]) : () => {};
    try {
      await this.memory.changed();
    } catch (error) {
      withdrawn();
      if (this.labelled.get(key) === given) {
        if (before) this.labelled.set(key, before);
        else this.labelled.delete(key);
      }
      throw error;
    }
    return withdrawn;
  }

  /** Crops a crash left on disk with no label naming them (label-memory.ts): out of the reader's pending labels and off the disk, before any label is given. */
  private async sweep(strays: readonly CropName[]): Promise<void> {
    if (strays.length === 0) return;
    // The reader may hold them already (it reads the pending crops when it loads); loaded only after such a crash.
    const reader = await this.reader.get().catch(() => null);
    for (const crop of strays) {
      await reader?.calibration.withdraw(crop.set, crop.label).catch(() => undefined);
      await rm(cropFile(this.dir, crop), { force: true }).catch((error: unknown) => this.logger.warn(`calibration: ${cropFile(this.dir, crop)} could not be removed: ${(error as Error).message}`));
    }
    this.logger.info(`calibration: ${strays.length} labelled ${strays.length === 1 ? 'crop' : 'crops'} that a stop left unnamed (a label not acknowledged, or one taken back) removed`);
  }

  /** `add` with the memory saying a crop of `set` is being added until it settles (label-memory.ts `adding`). */
  private async whileAdding<T>(set: DiceSetId, add: () => Promise<T>): Promise<T> {
    const end = this.memory.adding(set);
    try {
      return await add();
    } finally {
      end();
    }
  }

  /** The latest frame time a remembered Teach label names (null: none): this run's frames are timed after it (main.ts). */
  latestLabelTime(): number | null {
    let latest: number | null = null;
    for (const l of this.labelled.values()) if (latest === null || l.at > latest) latest = l.at;
    return latest;
  }

  /** What is kept over a restart: the dice labelled, oldest first, and the final rolls. */
  private remembered(): Remembered {
    return { teach: [...this.labelled.values()].map(({ tallied: _, ...t }) => t), ...this.rolls.kept() };
  }

  /** `table`: the table as its log left it, so that a BACK the log has and a cut kept from here is taken back (PlayedRolls.reconcile). */
  async load(table?: TableState): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    this.onDisk = new Set(DICE_SET_IDS.filter((s) => names.includes(`${s}.json`)));
    // Remembered from before the start, older than any of this run's.
    const { remembered, pruned, strays } = await this.memory.load();
    await this.sweep(strays);
    for (const set of DICE_SET_IDS) {
      const counts = await countPendingOnDisk(this.dir, set);
      if (Object.values(counts).some((n) => n > 0)) this.pendingOnDisk.set(set, counts);
    }
    const before = remembered.teach.slice(-LABELS_REMEMBERED).map((t): [string, Labelled] => [labelKey(t.at, t.box), { ...t, tallied: false }]);
    this.labelled = new Map([...before, ...this.labelled]);
    this.rolls.restore(remembered);
    if (table) this.rolls.reconcile(table);
    if (pruned) this.memory.changed();
  }

  status(): CalibrationStatus[] {
    const r = this.reader.loaded();
    // Before the reader loads: the sets saved or labelled on disk, as their files say.
    const pending = (s: DiceSetId): Record<string, number> => (r ? r.calibration.pending(s).counts : (this.pendingOnDisk.get(s) ?? {}));
    const active = r ? new Set(r.calibration.list().map((c) => c.set)) : this.onDisk;
    const held = this.rolls.waiting();
    const labelled = (s: DiceSetId) => Object.values(pending(s)).some((n) => n > 0);
    const sets = DICE_SET_IDS.filter((s) => active.has(s) || this.touched.has(s) || this.fitting.has(s) || held.some((d) => d.set === s) || labelled(s) || this.rolls.inPlay(s));
    return sets.map((set) => {
      const t = this.tally.get(set);
      // The held dice are counted already: the game moving on only makes them labels.
      const samples = { ...pending(set) };
      const heldHere = held.filter((d) => d.set === set);
      for (const d of heldHere) samples[d.face] = (samples[d.face] ?? 0) + 1;
      const status: CalibrationStatus = { set, samples, active: active.has(set) };
      // Never more than are pending: the oldest labels of a face give way to newer ones (pendingPerFace).
      const fromPlay = Math.min((t?.fromPlay ?? 0) + heldHere.length, Object.values(samples).reduce((a, b) => a + b, 0));
      if (fromPlay > 0) status.fromPlay = fromPlay;
      const played = this.rolls.inPlay(set);
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
          const last = pipeline?.frameFor(roll);
          if (!die.box || !last) {
            if (die.added) return fail('calibration/no-crop', `die ${intent.index + 1} was added by hand: the camera has no picture of it`);
            // Kept over the restart, but its file is missing or damaged (said once in the log too).
            const lost = pipeline?.lostFrameFor(roll);
            return fail('calibration/no-crop', lost ? `the camera frame of this roll was kept over the restart but ${lost}; roll again` : 'the camera frame of this roll is no longer available; roll again');
          }
          // The same die of the same frame labelled the same again (a second phone, a resent tap)
          // would count one crop twice. Labelled another face, it is the referee's correction of a
          // mis-tap: the new label replaces the old one while that is still pending (once a save
          // took it, it is part of the calibration, which only an undo takes back).
          const key = labelKey(last.at, die.box);
          const before = this.labelled.get(key);
          if (before?.face === intent.face) return fail('calibration/already-labelled', `die ${intent.index + 1} of this roll is labelled ${intent.face} already`);
          // Framed as the roll was read: the same camera view, the die's up judged with the roll's other dice.
          const others = roll.dice.flatMap((d, k) => (k !== intent.index && d.box ? [d.box] : []));
          // The error names the server's paths (in the log already): phones get its code.
          const notRemembered = (error: unknown) =>
            fail('calibration/not-remembered', `the label could not be written to the table's disk (${(error as NodeJS.ErrnoException).code ?? 'see the server log'}), so it was not kept; label die ${intent.index + 1} again`);
          // Said on disk before the crop is written: a crash before the memory names it leaves a crop the next start removes.
          const given = await this.whileAdding(intent.set, async () => {
            try {
              await this.memory.changed();
            } catch (error) {
              return notRemembered(error);
            }
            const added = await reader.calibration.add(intent.set, intent.face, last.image, die.box!, pipeline!.view, others);
            // What the camera read, before any person corrected it.
            const right = (die.readAs ?? die.face) === intent.face;
            // Remembered on disk before the old label goes and the phone is told: acknowledged and
            // then forgotten by a crash, a second label of the die would be a second crop (a
            // relabel would keep the mis-tapped face too).
            try {
              return { ...added, right, withdrawn: await this.rememberLabel(key, { at: last.at, box: [...die.box!], face: intent.face, set: intent.set, label: added.label, right, tallied: true }, before) };
            } catch (error) {
              await reader.calibration.withdraw(intent.set, added.label).catch((e: unknown) => this.logger.warn(`calibration: a label that could not be remembered could not be taken back either: ${(e as Error).message}`));
              return notRemembered(error);
            }
          });
          if ('ok' in given) return given;
          const { right } = given;
          this.touched.add(intent.set);
          // A label no longer pending (a save took it) is named no more after a restart: nothing to withdraw.
          let replaced;
          try {
            replaced = before && before.label !== null ? await reader.calibration.withdraw(before.set, before.label) : undefined;
          } finally {
            given.withdrawn();
          }
          const t = this.tally.get(intent.set) ?? NO_TALLY;
          if (replaced?.withdrawn) {
            // Still one crop of the die; one labelled before the start was in no tally of this run, so now it is.
            this.tally.set(intent.set, before!.tallied ? { ...t, right: t.right + (right ? 1 : 0) - (before!.right ? 1 : 0) } : { ...t, crops: t.crops + 1, right: t.right + (right ? 1 : 0) });
            return ok({ set: replaced.set, counts: replaced.counts });
          }
          this.tally.set(intent.set, { ...t, crops: t.crops + 1, right: t.right + (right ? 1 : 0) });
          return ok({ set: given.set, counts: given.counts });
        }
        case 'calibration/commit': {
          // The last used roll's checked dice count: the referee saves what the tab shows.
          await this.rolls.flush();
          if (this.fitting.has(intent.set)) return fail('calibration/busy', `the ${intent.set} calibration is being fitted already; wait for it to finish`);
          // The labels this commit takes; those given while it fits stay pending, and counted.
          const taken = this.tally.get(intent.set) ?? NO_TALLY;
          const takenLabels = [...this.labelled].filter(([, l]) => l.set === intent.set && l.label !== null);
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
          // Its Teach labels are the calibration's now: an undo of it forgets them (the dice may be labelled again).
          let marked = 0;
          for (const [key, l] of takenLabels) {
            if (this.labelled.get(key) !== l) continue; // labelled again while it fitted
            this.labelled.set(key, { ...l, label: null, saved: cal.createdAt });
            marked++;
          }
          // Said in the log where it fails: the save stands, only its undo would leave the dice "labelled already" after a restart.
          if (marked > 0) await this.memory.changed().catch(() => undefined);
          // From now on the dice in play measure the new calibration.
          this.rolls.restart(intent.set, 'save');
          const t = this.tally.get(intent.set) ?? NO_TALLY;
          this.tally.set(intent.set, {
            crops: t.crops - taken.crops,
            right: t.right - taken.right,
            fromPlay: t.fromPlay - taken.fromPlay,
            before: taken.crops > 0 ? taken.right / taken.crops : null,
            after: cal.fitAccuracy,
            checked: taken.crops,
          });
          this.logger.info(`calibration: ${intent.set} calibrated from ${Object.values(cal.counts).reduce((a, b) => a + b, 0)} crops (fit ${Math.round(cal.fitAccuracy * 100)}%)`);
          return ok(cal.counts);
        }
        case 'calibration/undo': {
          const undone = reader.calibration.list().find((c) => c.set === intent.set)?.createdAt;
          const now = await reader.calibration.undo(intent.set);
          if (!now) this.onDisk.delete(intent.set);
          // The Teach labels the undone save took are no label now: their dice may be labelled again.
          const forgotten = undone === undefined ? [] : [...this.labelled].filter(([, l]) => l.set === intent.set && l.saved === undone);
          for (const [key] of forgotten) this.labelled.delete(key);
          if (forgotten.length > 0) await this.memory.changed().catch(() => undefined);
          // The labels pending are still pending (and still counted); the last commit's figures go.
          const t = this.tally.get(intent.set);
          if (t) this.tally.set(intent.set, { ...t, before: null, after: null, checked: 0 });
          await this.rolls.flush();
          this.rolls.restart(intent.set, 'undo');
          this.logger.info(`calibration: ${intent.set} undone (${now ? 'the previous calibration is back' : 'back to the shipped model'})`);
          return ok(null);
        }
      }
    } catch (error) {
      // The reader's messages are written for people ("needs at least one crop of every face; missing: 5, 6").
      return fail('calibration/refused', (error as Error).message);
    }
  }

  /** Settles when the dice in play counted so far, and the labels remembered, are on disk. */
  async saved(): Promise<void> {
    await this.rolls.saved();
    await this.memory.saved();
  }

  /** A clean shutdown: the held roll kept on disk, to be held again at the next start (PlayedRolls.close); what is remembered written. */
  async close(): Promise<void> {
    await this.rolls.close();
    await this.memory.saved();
  }

  /** A committed table change (main.ts): a used camera roll measures and may teach the reader (played-rolls.ts). */
  played(event: TableEvent, before: TableState, after: TableState): void {
    this.rolls.played(event, before, after);
  }
}
