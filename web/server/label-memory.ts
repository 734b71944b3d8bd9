/**
 * What the server remembers about the labels it gave, kept over restarts: the dice labelled on
 * the Teach tab (by frame and box, so that a second label of a die replaces the first while that
 * is pending, and the die is not taught again when its roll is used; calibration.ts), and the last
 * rolls made final (what each added to the dice in play and the labels its checked dice became,
 * so that a BACK that brings one back takes them back; played-rolls.ts). A label is named by its
 * crop's number in the pending folder (`pending/<set>/<n>-<face>.png`), which the reader opened
 * on the folder after a restart gives it again (vision/calibrations.ts).
 *
 * Kept in `<calibration>/label-memory.json`, written whole, flushed and renamed into place after
 * each change (writeFileAtomic), so the file on disk is the one before a change or the one after.
 * At the start a label whose crop is no longer pending (a save took it, newer labels of its face
 * pushed it out) is named no more: the numbering goes on from the crops on disk, so a later label
 * may take its number. A file that cannot be read (a failing card), or is not such a memory (torn,
 * edited by hand), is reported by name, kept aside as `label-memory.json.corrupt-<ms>` before
 * anything is written over it, and the server remembers afresh from there; the labels pending are
 * the reader's and stay. One that cannot be put aside either is left as it is and nothing is
 * written this run (said once): this run's labels are not remembered over a restart.
 *
 * A change is acknowledged only once it is on disk: `changed` settles when a write holding it is
 * done and rejects when that write fails, so the Teach tab refuses a label it could not remember
 * rather than acknowledge one a crash would forget (a second label of the die would then be a
 * second crop, not the relabel).
 *
 * A crop is on disk a moment before the memory can name it, and one withdrawn (a relabel's
 * mis-tap, a final roll BACK took back) a moment after the memory stops naming it. So that a crash
 * in either moment leaves no crop a save would teach, the memory says so first: `adding` (written
 * before the crop: the set and the highest crop number on disk then; any crop above it that no
 * label names at the start is one a crash left unnamed) and `withdrawing` (written with the change
 * that stops naming the crops). `load` gives such crops still on disk as `strays`, for the owner to
 * take out (calibration.ts). Numbers are taken again only after a restart, and every crop added is
 * preceded by a write holding what is remembered then, so a mark never outlives its run into one
 * that reuses its numbers.
 */
import { readdir, mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DICE_SET_IDS, DICE_SETS, type DiceSetId } from '../../shared/dice.js';
import type { PendingRoll } from '../../shared/protocol.js';
import { listPendingOnDisk, pendingCropFile } from '../../vision/model/pending-store.js';
import type { Box } from '../../vision/types.js';
import { writeFileAtomic } from './log.js';
import type { Logger } from './logger.js';
import type { InPlay } from './played-rolls.js';
import { pendingRollSchema } from './table.js';

export const LABEL_MEMORY_FILE = 'label-memory.json';

/** A labelled crop on disk: `pending/<set>/<label>-<face>.png` (its number padded to six digits, as vision's store names it). */
export interface CropName {
  set: DiceSetId;
  label: number;
  face: string;
}

/** A crop of `set` about to be added; `above`: the set's highest crop number on disk (-1: none) when the first write holding the mark began. */
interface AddingMark {
  set: DiceSetId;
  above?: number;
}

/**
 * A die labelled on the Teach tab: its frame's time and box there, the face given, the label (null:
 * no longer pending), whether the camera had read it so; `saved`: the calibration a save made of it
 * (its `createdAt`), so that undoing that save forgets the label (the die may be labelled again).
 */
export interface TeachLabel {
  at: number;
  box: Box;
  set: DiceSetId;
  face: string;
  label: number | null;
  right: boolean;
  saved?: string;
}

/** A roll made final: what it added to each set's count (in that count's generation), and the labels its checked dice became. */
export interface FinalRoll {
  /** The held roll's it was (played-rolls.ts), so a roll used again with the same dice is not taken for it; absent in files from before. */
  id?: string;
  /** The table's version when it was used: a BACK that brings it back pops the undo entry of that version (table.ts); absent in files from before. */
  usedAt?: number;
  roll: PendingRoll;
  counted: { set: DiceSetId; add: InPlay; generation: number }[];
  labels: { set: DiceSetId; face: string; label: number; readRight: boolean }[];
}

/** Per set: how often its count in play started afresh (a final roll's count is taken back only from the count it went into). */
export type Generations = Partial<Record<DiceSetId, number>>;

export interface Remembered {
  /** Oldest first. */
  teach: TeachLabel[];
  /** Newest first. */
  finals: FinalRoll[];
  generations: Generations;
}

const setId = z.enum(DICE_SET_IDS as [DiceSetId, ...DiceSetId[]]);
const count = z.number().int().min(0);
const label = z.number().int().min(0);
const faceOfSet = (d: { set: DiceSetId; face: string }) => DICE_SETS[d.set].faces.includes(d.face);
const SHAPE = z.strictObject({
  teach: z.array(
    z
      .strictObject({ at: z.number(), box: z.tuple([z.number(), z.number(), z.number(), z.number()]), set: setId, face: z.string(), label: label.nullable(), right: z.boolean(), saved: z.string().optional() })
      .refine(faceOfSet, { message: 'not a face of its set', path: ['face'] }),
  ),
  finals: z.array(
    z.strictObject({
      id: z.string().min(1).optional(),
      usedAt: count.optional(),
      roll: pendingRollSchema,
      counted: z.array(
        z.strictObject({
          set: setId,
          add: z.strictObject({ dice: count, right: count, marked: count, wrongUnmarked: count, missed: count, notDice: count }),
          generation: count,
        }),
      ),
      labels: z.array(z.strictObject({ set: setId, face: z.string(), label, readRight: z.boolean() }).refine(faceOfSet, { message: 'not a face of its set', path: ['face'] })),
    }),
  ),
  generations: z.partialRecord(setId, count),
  // Absent in files from before, and where nothing was being added or withdrawn.
  adding: z.array(z.strictObject({ set: setId, above: z.number().int().min(-1) })).optional(),
  withdrawing: z.array(z.strictObject({ set: setId, label, face: z.string() })).optional(),
});

/** A crop's file in the calibration folder `dir`. */
export function cropFile(dir: string, crop: CropName): string {
  return pendingCropFile(dir, crop.set, crop.label, crop.face);
}

const nothing = (): Remembered => ({ teach: [], finals: [], generations: {} });

export class LabelMemory {
  readonly file: string;
  /** The writes, one after another (never rejecting); the one waiting to start, if any (it writes what is remembered then). */
  private writing: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  /** The file could be neither read nor put aside: nothing is written over it this run. */
  private off = false;
  /** Crops about to be added, and crops being withdrawn: named in every write until their owners end them. */
  private readonly marks = new Set<AddingMark>();
  private readonly withdrawals = new Set<CropName[]>();

  constructor(
    /** The calibration folder: the pending crops' too. */
    private readonly dir: string,
    private readonly logger: Logger,
    /** What is remembered now, to be written. */
    private readonly now: () => Remembered,
  ) {
    this.file = path.join(dir, LABEL_MEMORY_FILE);
  }

  /**
   * What was remembered before the start, its labels no longer pending named no more (`pruned`:
   * some were, or crops being added or withdrawn were named, and the owner says so at once with
   * `changed`, so that a number a later label takes is never named on disk for an older one);
   * nothing where there is no file or it is not a memory. `strays`: crops on disk that a crash left
   * with no label naming them (added but not yet named, or withdrawn but not yet removed).
   */
  async load(): Promise<{ remembered: Remembered; pruned: boolean; strays: CropName[] }> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    // A write a cut short leaves its temporary behind: nothing in it is missed (the last whole file is in place).
    for (const name of names) if (name.startsWith(`${LABEL_MEMORY_FILE}.tmp-`)) await rm(path.join(this.dir, name), { force: true }).catch(() => undefined);
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { remembered: nothing(), pruned: false, strays: [] };
      // Not known to be gone (a failing card, a permission): kept aside before anything is written over it.
      const aside = `${this.file}.corrupt-${Date.now()}`;
      try {
        await rename(this.file, aside);
        this.logger.warn(`calibration: ${this.file} could not be read (${(error as Error).message}); the dice labelled before are not remembered (kept as ${path.basename(aside)})`);
      } catch (e) {
        this.off = true;
        this.logger.warn(`calibration: ${this.file} could not be read (${(error as Error).message}) nor put aside (${(e as Error).message}); the dice labelled before are not remembered, and those labelled until the next start will not be (the file is left as it is)`);
      }
      return { remembered: nothing(), pruned: false, strays: [] };
    }
    let parsed: z.infer<typeof SHAPE>;
    try {
      const result = SHAPE.safeParse(JSON.parse(text));
      if (!result.success) throw new Error(result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
      parsed = result.data;
    } catch (error) {
      const aside = `${this.file}.corrupt-${Date.now()}`;
      this.logger.warn(`calibration: ${this.file} is not a memory of the dice labelled (${(error as Error).message}); they are not remembered (kept as ${path.basename(aside)})`);
      await rename(this.file, aside).catch((e: unknown) => this.logger.warn(`calibration: ${this.file} could not be put aside: ${(e as Error).message}`));
      return { remembered: nothing(), pruned: false, strays: [] };
    }
    // The labels still pending, by set: `<n>-<face>`.
    const onDisk = new Map<DiceSetId, { seq: number; face: string }[]>();
    for (const set of DICE_SET_IDS) onDisk.set(set, await listPendingOnDisk(this.dir, set));
    const pending = new Map([...onDisk].map(([set, crops]) => [set, new Set(crops.map((c) => `${c.seq}-${c.face}`))]));
    const stillPending = (set: DiceSetId, face: string, n: number) => pending.get(set)!.has(`${n}-${face}`);
    let gone = 0;
    const teach = parsed.teach.map((t) => {
      if (t.label === null || stillPending(t.set, t.face, t.label)) return t as TeachLabel;
      gone++;
      return { ...t, label: null } as TeachLabel;
    });
    const finals = parsed.finals.map((f) => {
      const labels = f.labels.filter((l) => stillPending(l.set, l.face, l.label));
      gone += f.labels.length - labels.length;
      return { ...f, roll: f.roll as PendingRoll, labels };
    });
    // The crops a label names; any other above a mark, or being withdrawn, a crash left.
    const named = new Set([...teach.flatMap((t) => (t.label === null ? [] : [`${t.set}/${t.label}-${t.face}`])), ...finals.flatMap((f) => f.labels.map((l) => `${l.set}/${l.label}-${l.face}`))]);
    const strays = new Map<string, CropName>();
    const stray = (crop: CropName) => {
      const key = `${crop.set}/${crop.label}-${crop.face}`;
      if (!named.has(key) && stillPending(crop.set, crop.face, crop.label)) strays.set(key, crop);
    };
    for (const { set, above } of parsed.adding ?? []) for (const { seq, face } of onDisk.get(set)!) if (seq > above) stray({ set, label: seq, face });
    for (const crop of parsed.withdrawing ?? []) stray(crop);
    const marked = (parsed.adding?.length ?? 0) + (parsed.withdrawing?.length ?? 0) > 0;
    return { remembered: { teach, finals, generations: parsed.generations }, pruned: gone > 0 || marked, strays: [...strays.values()] };
  }

  /**
   * A crop of `set` is about to be added: until `end` is called every write says so, with the
   * set's highest crop number on disk when the first of them began. The caller adds the crop only
   * once a write holding the mark is on disk (`changed`); a crop above it that no label names at
   * the next start is then a stray (`load`).
   */
  adding(set: DiceSetId): () => void {
    const mark: AddingMark = { set };
    this.marks.add(mark);
    return () => this.marks.delete(mark);
  }

  /**
   * These crops are no label any more and are being removed: every write names them until `end`
   * is called (after the removal), so the change that stops naming them names them as withdrawn,
   * and the next start removes any a crash left (`load`). Called before that change's `changed`.
   */
  withdrawing(crops: readonly CropName[]): () => void {
    const held = crops.map((c) => ({ set: c.set, label: c.label, face: c.face }));
    this.withdrawals.add(held);
    return () => this.withdrawals.delete(held);
  }

  /**
   * What is remembered changed: written whole, after any write before (one waiting writes the
   * latest). Settles once a write holding the change is on disk; rejects when it fails (said in
   * the log too, so a caller that does not wait loses nothing by not catching).
   */
  changed(): Promise<void> {
    if (this.off) return Promise.resolve();
    if (this.queued) return this.queued;
    const write = this.writing.then(async () => {
      this.queued = null;
      // What is remembered, and what is being added and withdrawn, as they stand together now.
      const remembered = this.now();
      const marks = [...this.marks];
      const withdrawing = [...this.withdrawals].flat();
      // A mark's number is the disk's before its crop is added (the caller waits for this write); fixed once taken.
      for (const mark of marks) mark.above ??= (await listPendingOnDisk(this.dir, mark.set)).at(-1)?.seq ?? -1;
      const adding = marks.map(({ set, above }) => ({ set, above: above! }));
      const text = JSON.stringify({ ...remembered, ...(adding.length > 0 ? { adding } : {}), ...(withdrawing.length > 0 ? { withdrawing } : {}) }) + '\n';
      await mkdir(this.dir, { recursive: true });
      await writeFileAtomic(this.file, text);
    });
    this.queued = write;
    this.writing = write.catch((error: unknown) => this.logger.warn(`calibration: could not write ${this.file}: ${(error as Error).message}`));
    return write;
  }

  /** Settles when what was remembered so far is on disk. */
  saved(): Promise<void> {
    return this.writing;
  }
}
