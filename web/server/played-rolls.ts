/**
 * The camera rolls a table uses, as evidence about the reader. Each used roll is held until the
 * game moves on (a new roll, a new game, or a calibration saved), because BACK brings it back to
 * be corrected; a BACK that brings it back drops it (one that undoes a move made with it does
 * not). Then:
 * - its dice count in play per set: how many nobody corrected, how many the camera marked
 *   "check", how many a person corrected that it had not marked (the table's own measure of the
 *   reader on its dice, since the start or since the set's calibration last changed);
 * - with `vision.learnFromChecks`, the dice a person corrected and, when a phone used the roll,
 *   the dice marked "check" are what the table says they are: labels of their sets, as the Teach
 *   tab's (calibration.ts). The button box's OK may come without anybody looking, so it teaches
 *   only the corrected dice.
 * The counts are kept in a small JSON file in the data folder, so they go on over restarts; a file
 * that cannot be read or is not a count is reported, kept aside as `<file>.corrupt-<ms>`, and the
 * counting starts afresh, each set's generation too (below); one that cannot be put aside is left
 * as it is and no count is written this run (nor a generation changed, and its final rolls are
 * remembered with no count to take back: the file may read again next time). The held roll is kept
 * on disk too (`heldDir`: the roll, and the frame its checked dice are taught from), so a power cut
 * loses neither its count nor its labels: after the restart it is held again, as it was. The last
 * rolls made final are remembered over restarts too (label-memory.ts, by the owner: `kept`,
 * `restore`), so a BACK after a restart that brings one back takes back its count and its labels.
 *
 * A roll made final is written in this order: its count (the counts file names the held roll it
 * counted last), the final roll remembered (saying its sets' crops are about to be added), each
 * checked die's label and then the memory naming it (before the next die is taught), and only then
 * the held roll removed (its folder synced). A cut leaves the roll held again (nothing of it on
 * disk yet; or only its count: then it is held again as counted already, and made final it is
 * remembered but not counted again), or remembered as final with its held files still there:
 * `restore` then drops them (told by the id the held roll and its final roll share, not by its
 * dice: the same dice may be used again), so it is not counted or taught twice; the dice not yet
 * taught are not, and a crop written but not yet named is removed at the start (calibration.ts).
 *
 * A BACK takes back the use it undoes: the undo entry it pops holds the table's version when the
 * roll was used (table.ts), which the held roll and its final roll keep (`usedAt`). Undo entries
 * and files from before that was kept are matched by their dice, the newest first. A cut between
 * a BACK reaching the log and what it does here reaching the disk is made good at the start, from
 * the table (`reconcile`). A final roll taken back has its count taken back first, the counts file
 * naming it (`takenBack`) until the memory has forgotten it: a cut between, and the start forgets
 * it without taking its count back again.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { DICE_SET_IDS } from '../../shared/dice.js';
import type { DiceSetId } from '../../shared/dice.js';
import type { PendingRoll } from '../../shared/protocol.js';
import { decodeImage, encodePng } from '../../vision/image/decode.js';
import { CAMERA_VIEWS, type Box, type CameraView, type RgbImage } from '../../vision/types.js';
import type { CameraPipeline } from './camera.js';
import type { ReaderHolder } from './dice-reader.js';
import type { CropName, FinalRoll, Generations } from './label-memory.js';
import { writeFileAtomic } from './log.js';
import type { Logger } from './logger.js';
import { pendingRollSchema, type Actor, type TableEvent, type TableState } from './table.js';

/**
 * Dice of a set in used camera rolls: how many the camera read, how many of those nobody
 * corrected, how many it marked "check", how many it misread unmarked; and the dice it missed (a
 * person added them) and the boxes on no die (a person took them out).
 */
export interface InPlay {
  dice: number;
  right: number;
  marked: number;
  wrongUnmarked: number;
  missed: number;
  notDice: number;
}

/** Since when a set's dice in play are counted: the first count in this data folder, or the set's calibration saved or undone. */
export type InPlaySince = 'start' | 'save' | 'undo';

const count = z.number().int().min(0);
const SET_COUNT = z.strictObject({ dice: count, right: count, marked: count, wrongUnmarked: count, missed: count.default(0), notDice: count.default(0), since: z.enum(['start', 'save', 'undo']) });
/**
 * Each set's count, and the held roll counted last (absent in files from before): held again after
 * a cut, it is not counted again; the final rolls whose count a BACK took back while the label
 * memory may still remember them (`takenBack`): remembered after a cut, nothing is taken back twice.
 */
const FILE_SHAPE = z.strictObject({
  ...(Object.fromEntries(DICE_SET_IDS.map((set) => [set, SET_COUNT.optional()])) as Record<DiceSetId, z.ZodOptional<typeof SET_COUNT>>),
  lastCounted: z.string().min(1).optional(),
  takenBack: z.array(z.string().min(1)).optional(),
});

export interface PlayedRollsOptions {
  /** Whether checked dice become labels (`vision.learnFromChecks`). */
  learnFromChecks: boolean;
  reader: ReaderHolder;
  /** The pipeline whose last roll a used roll from `source` came from. */
  pipelineFor(source: 'camera' | 'phone-camera'): CameraPipeline | null;
  logger: Logger;
  /** Where the counts are kept over restarts (none: in memory only). */
  file?: string;
  /** Where the held roll is kept until it is final (`roll.json`, `frame.png`; none: in memory only). */
  heldDir?: string;
  /** Whether the die with this box in the frame taken at `at` was labelled already (on the Teach tab): not taught again. */
  labelled?(at: number, box: Box): boolean;
  /** A checked die became a label of its set; `readRight`: the camera had read its face. */
  onLabel(set: DiceSetId, readRight: boolean): void;
  /** Such a label was taken back (BACK brought its roll back): the opposite of `onLabel`. */
  onUnlabel?(set: DiceSetId, readRight: boolean): void;
  /** Labels were added (the phones are told). */
  onChange(): void;
  /** The final rolls remembered or their counts' generations changed (`kept` says what they are now); settles once that is on disk, rejects where it could not be. */
  onKeptChange?(): Promise<void> | void;
  /** Crops of `set` are about to be added: said in every write of what is kept until `end` is called (label-memory.ts). */
  adding?(set: DiceSetId): () => void;
  /** These crops are being withdrawn: named so in every write of what is kept until `end` is called, after their removal. */
  withdrawing?(crops: readonly CropName[]): () => void;
}

/**
 * A used camera roll, not yet final: its dice count in play, and its checked dice (`taught`: their
 * indices) will teach, read from `frame`.
 */
interface HeldRoll {
  /** Which use of a roll this is (a roll used again unchanged has the same dice): named by its final roll too. */
  id: string;
  /** The table's version when it was used (a BACK's undo entry names it); absent from tables and files from before. */
  usedAt?: number;
  /** Its count is on disk already (a cut came before its final roll was remembered): made final, it is not counted again. */
  counted?: true;
  roll: PendingRoll;
  taught: number[];
  /** The frame, where `taught` has dice: at hand, or read back from disk after a restart. */
  frame: () => Promise<{ image: RgbImage; view: CameraView } | null>;
}

/** The held roll on disk (`roll.json`); its frame is `frame.png` beside it, where `view` is given. */
const HELD_SHAPE = z
  .strictObject({
    /** Absent in files from before held rolls had one. */
    id: z.string().min(1).optional(),
    usedAt: z.number().int().min(0).optional(),
    roll: pendingRollSchema,
    taught: z.array(z.number().int().min(0)),
    view: z.enum(CAMERA_VIEWS).optional(),
  })
  .superRefine((kept, ctx) => {
    const outside = kept.taught.find((i) => i >= kept.roll.dice.length || !kept.roll.dice[i]!.box);
    if (outside !== undefined) ctx.addIssue({ code: 'custom', path: ['taught'], message: `die ${outside} is not a die of the roll with a box` });
  });
const HELD_ROLL = 'roll.json';
const HELD_FRAME = 'frame.png';

const NONE: InPlay = { dice: 0, right: 0, marked: 0, wrongUnmarked: 0, missed: 0, notDice: 0 };

/** Final rolls remembered, so that a BACK that brings one back can take back what it counted and taught. */
const FINAL_KEPT = 8;

/**
 * A final roll as this run holds it: one remembered from before the start counted in none of its
 * tallies (`onLabel`); `countedHere`: its count went into no count on disk (the counts were off),
 * so it is remembered over a restart with no count to take back; `takenBack`: a BACK took it back
 * (its dice still being taught are not).
 */
type HeldFinal = FinalRoll & { fromBefore?: true; countedHere?: true; takenBack?: true };

function minus(a: InPlay, b: InPlay): InPlay {
  return fieldwise(a, b, (x, y) => Math.max(0, x - y));
}

/** Each count of `a` with `b`'s, by `f`. */
function fieldwise(a: InPlay, b: InPlay, f: (x: number, y: number) => number): InPlay {
  return Object.fromEntries((Object.keys(NONE) as (keyof InPlay)[]).map((k) => [k, f(a[k], b[k])])) as unknown as InPlay;
}

function plus(a: InPlay, b: InPlay): InPlay {
  return fieldwise(a, b, (x, y) => x + y);
}

/**
 * A small JSON file of the data folder, read and checked against `shape`: its data, or that there
 * is none, or why it could not be read (`unreadable`) or is not what it should be (`invalid`).
 */
function readKept<S extends z.ZodType>(file: string, shape: S): { data: z.infer<S> } | { missing: true } | { unreadable: string } | { invalid: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { missing: true } : { unreadable: (error as Error).message };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { invalid: (error as Error).message };
  }
  const parsed = shape.safeParse(json);
  if (!parsed.success) return { invalid: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  return { data: parsed.data };
}

/** A directory's entries made durable (a removal is, only once its directory is); best effort where a platform cannot open a directory. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r').catch(() => null);
  try {
    await handle?.sync();
  } catch {
    /* best effort */
  } finally {
    await handle?.close();
  }
}

/** The same dice, whatever the order of their fields (a roll read back from disk has the schema's). */
function sameDice(a: PendingRoll['dice'], b: PendingRoll['dice']): boolean {
  const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v));
  return isDeepStrictEqual(plain(a), plain(b));
}

/**
 * The held roll is the final one `restore` was given, made final before a cut that left its held
 * files: the same use of a roll where both name theirs; by its dice only where either comes from
 * files that named none (another use of the same dice would be taken for it).
 */
function sameUse(held: HeldRoll, final: FinalRoll, heldNamed: boolean): boolean {
  return heldNamed && final.id !== undefined ? held.id === final.id : sameDice(held.roll.dice, final.roll.dice);
}

/**
 * The roll `back` (a BACK brought it back, popping the undo entry of `version`) is this use of it:
 * the same version where both know it (and the same dice: a table started afresh counts its
 * versions afresh), by the dice alone where either is from before versions were kept.
 */
function broughtBack(use: { usedAt?: number; roll: PendingRoll }, back: PendingRoll, version: number | undefined): boolean {
  if (version !== undefined && use.usedAt !== undefined && use.usedAt !== version) return false;
  return sameDice(back.dice, use.roll.dice);
}

/** A used camera roll's dice of one set as the camera saw them, and what a person added or took out. */
export function countInPlay(roll: PendingRoll, set: DiceSetId): InPlay {
  const seen = roll.dice.filter((d) => d.set === set && !d.added);
  const right = (d: (typeof seen)[number]) => (d.readAs ?? d.face) === d.face;
  const marked = (d: (typeof seen)[number]) => Boolean(d.uncertain || d.readUncertain);
  return {
    dice: seen.length,
    right: seen.filter(right).length,
    marked: seen.filter(marked).length,
    wrongUnmarked: seen.filter((d) => !right(d) && !marked(d)).length,
    missed: roll.dice.filter((d) => d.set === set && d.added).length,
    notDice: (roll.removed ?? []).filter((d) => d.set === set).length,
  };
}

export class PlayedRolls {
  /** The last used camera roll, not yet final. */
  private held: HeldRoll | null = null;
  /** Per set: its dice in final rolls since the start, or since its calibration last changed. */
  private counted = new Map<DiceSetId, InPlay & { since: InPlaySince }>();
  /** Checked dice being made labels now, in order, and the chain of such work (one roll after another). */
  private learning: { set: DiceSetId; face: string }[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** The last FINAL_KEPT rolls made final, newest first. */
  private finals: HeldFinal[] = [];
  /** Per set: how often its count started afresh (a final roll's count is taken back only from the count it went into). */
  private generations = new Map<DiceSetId, number>();
  /** The counts' writes, one after another. */
  private saving: Promise<void> = Promise.resolve();
  /** The held roll's writes and removals, one after another. */
  private keeping: Promise<void> = Promise.resolve();
  /** The owner told the final rolls changed, each time after the counts written before. */
  private remembering: Promise<void> = Promise.resolve();
  /** Each change asked of the held roll's files (`keepHeld`): a final roll's removal waiting for its labels is dropped where a newer change came meanwhile. */
  private heldChanges = 0;
  /** The last roll made final: its count and the memory of it written (a roll held next is written after). */
  private finalised: Promise<unknown> = Promise.resolve();
  /** The last final roll's held files being removed once its labels are (a newer held roll is written over them instead). */
  private removing: Promise<void> = Promise.resolve();
  /** The counts file held no counts at the start (missing, unreadable, not a count): counted afresh. */
  private countedAfresh = false;
  /** The counts file could be neither read nor put aside: nothing is written over it this run. */
  private countsOff = false;
  /** Final rolls whose count a BACK took back, by id, until the memory on disk no longer remembers them (kept in the counts file). */
  private takenBack = new Set<string>();
  /** The held roll's id was read from its file (not one given at the start to a roll from older files). */
  private heldNamed = false;
  /** The generations the label memory held at the start: kept as they were while the counts are off, as the counts file is. */
  private generationsBefore: Generations = {};
  /** The held roll counted last, until its final roll is remembered (written with the counts): one held again after a cut is not counted again. */
  private lastCounted: string | undefined;

  constructor(private readonly opts: PlayedRollsOptions) {
    this.load();
    this.restoreHeld();
  }

  /**
   * A clean shutdown. A held roll kept on disk stays held: the next start holds it again, as after
   * a power cut, so a BACK then can still take back a wrong correction (made final here, the wrong
   * face was taught, counted twice once corrected again, and the right one never taught). Without
   * a folder to keep it in, it is made final, or it would be lost.
   */
  async close(): Promise<void> {
    if (!this.opts.heldDir) await this.flush();
    await this.flushing;
    await this.saved();
  }

  /** The final rolls remembered and the counts' generations, to be kept over a restart. */
  kept(): { finals: FinalRoll[]; generations: Generations } {
    // With the counts off, the counts file keeps the generations it had; so does the memory of them.
    const finals = this.finals.map(({ fromBefore: _, countedHere, ...f }) => (countedHere ? { ...f, counted: [] } : f));
    return { finals, generations: this.countsOff ? this.generationsBefore : Object.fromEntries(this.generations) };
  }

  /** The final rolls and generations kept before the start (`kept`), remembered again after any of this run. */
  restore(kept: { finals: readonly FinalRoll[]; generations: Generations }): void {
    this.generationsBefore = { ...kept.generations };
    this.finals = [...this.finals, ...kept.finals.map((f): HeldFinal => ({ ...f, fromBefore: true }))].slice(0, FINAL_KEPT);
    // Counted afresh, the remembered final rolls are in no count of this run: each set's count is a
    // new generation, so a BACK that brings one back takes nothing from it.
    const afresh = this.countedAfresh && kept.finals.length > 0;
    for (const set of DICE_SET_IDS) {
      const g = kept.generations[set];
      if (afresh) this.generations.set(set, Math.max(g ?? 0, this.generations.get(set) ?? 0) + 1);
      else if (g !== undefined && !this.generations.has(set)) this.generations.set(set, g);
    }
    // Made final and remembered, but cut off before its held files were removed: not held again
    // (it would count twice and teach again); only the newest final can be it.
    const newest = kept.finals[0];
    if (this.held && newest && sameUse(this.held, newest, this.heldNamed)) {
      this.held = null;
      this.keepHeld(null);
      this.opts.logger.info('dice in play: the roll used before the restart was made final already (its files were not yet removed): not held again');
    }
    // Taken back by a BACK, its count too, but a cut came before the memory forgot it: forgotten
    // now (its crops withdrawn), nothing taken from the count again. Names the memory no longer has are dropped.
    const remembered = new Set(kept.finals.map((f) => f.id));
    const stale = [...this.takenBack].filter((id) => !remembered.has(id));
    for (const id of stale) this.takenBack.delete(id);
    if (stale.length > 0) this.save();
    for (const final of this.finals.filter((f) => f.id !== undefined && this.takenBack.has(f.id))) {
      this.opts.logger.info('dice in play: a roll a BACK took back before the restart, its count too, is forgotten now');
      this.takeBack(final);
    }
    if (afresh) void this.keptChanged();
  }

  /**
   * The table as its log has it at the start (after `restore`). A BACK is acknowledged once it is
   * in the log; what it does here reaches the disk a moment later, so a cut in between brings back
   * the uses it took back: held again, or remembered as final and counted. Those the table shows
   * were taken back are taken back now, or, used again, they would count twice and the final
   * roll's wrong faces would still be taught.
   *
   * A use the table shows taken back: its undo entry is gone and nothing was pushed since (every
   * entry left is older than `usedAt`, and the table has gone past it), and the pending roll is
   * one such use's (the last BACK brought it back). That one and every such use after it are
   * taken back: their entries lay above its own, so the same BACKs popped them. The pending dice
   * are asked for because a new game or a table started afresh (its versions counted again) also
   * leaves older uses above every entry. Uses from files without `usedAt` are left as they are, as
   * is a run of BACKs that went on past the use to a move (its roll is not pending).
   */
  reconcile(table: TableState): void {
    const pending = table.roll;
    if (!pending) return;
    const top = table.undo.at(-1)?.version ?? -1;
    const popped = (use: { usedAt?: number }): use is { usedAt: number } => use.usedAt !== undefined && top < use.usedAt && use.usedAt < table.version;
    const held = this.held;
    const uses: (HeldRoll | HeldFinal)[] = [...(held ? [held] : []), ...this.finals];
    const brought = uses.filter((u) => popped(u) && sameDice(pending.dice, u.roll.dice)).map((u) => u.usedAt!);
    if (brought.length === 0) return;
    const since = Math.min(...brought);
    const undone = (use: { usedAt?: number }) => popped(use) && use.usedAt >= since;
    let back = 0;
    if (held && undone(held)) {
      this.held = null;
      // Its count (where a cut left it counted) taken back on disk before its files go.
      if (held.counted) this.uncount(held.roll);
      this.keepHeld(null, this.saving);
      back++;
    }
    for (const final of this.finals.filter(undone)) {
      this.takeBack(final);
      back++;
    }
    this.opts.logger.info(`dice in play: ${back} used ${back === 1 ? 'roll' : 'rolls'} a BACK took back just before the restart (in the table's log, not yet here) taken back now`);
  }

  /** Waits for the counts' and the held roll's writes so far (a test, or a clean shutdown). */
  async saved(): Promise<void> {
    await this.saving;
    await this.removing;
    await this.keeping;
    await this.remembering;
    // The counts written again once a final roll was remembered (its id no longer named).
    await this.saving;
  }

  /**
   * The final rolls or the generations changed: the owner is told once the counts written so far
   * are on disk, so a cut between the two files leaves a final roll's count not taken back (as
   * before they were kept), never one taken back from a count that lacks it.
   */
  private keptChanged(): Promise<void> {
    const counts = this.saving;
    const told = this.remembering.then(() => counts).then(() => this.opts.onKeptChange?.());
    this.remembering = told.catch((error: unknown) => this.opts.logger.warn(`dice in play: the final rolls could not be remembered: ${(error as Error).message}`));
    // Settles once remembered on disk (a final roll's labels wait for it); rejects where it could not be.
    return told;
  }

  private load(): void {
    const file = this.opts.file;
    if (!file) return;
    const read = readKept(file, FILE_SHAPE);
    if (!('data' in read)) this.countedAfresh = true;
    const why = 'unreadable' in read ? `could not be read (${read.unreadable})` : 'invalid' in read ? `is not a count of dice in play (${read.invalid})` : null;
    if (why) {
      // Kept aside before anything is written over it (a failing card's file may read again).
      const aside = `${file}.corrupt-${Date.now()}`;
      try {
        renameSync(file, aside);
        this.opts.logger.warn(`dice in play: ${file} ${why}; counting afresh (kept as ${path.basename(aside)})`);
      } catch (error) {
        this.countsOff = true;
        this.opts.logger.warn(`dice in play: ${file} ${why} and could not be put aside (${(error as Error).message}); counting afresh, and the counts are not kept until the next start (the file is left as it is)`);
      }
    }
    if (!('data' in read)) return;
    for (const set of DICE_SET_IDS) {
      const c = read.data[set];
      if (c) this.counted.set(set, c);
    }
    this.lastCounted = read.data.lastCounted;
    this.takenBack = new Set(read.data.takenBack ?? []);
  }

  private save(): void {
    const file = this.opts.file;
    if (!file || this.countsOff) return;
    const data = JSON.stringify({ ...Object.fromEntries(this.counted), ...(this.lastCounted !== undefined ? { lastCounted: this.lastCounted } : {}), ...(this.takenBack.size > 0 ? { takenBack: [...this.takenBack] } : {}) }) + '\n';
    this.saving = this.saving
      .then(() => writeFileAtomic(file, data))
      .catch((error: unknown) => this.opts.logger.warn(`dice in play: could not write ${file}: ${(error as Error).message}`));
  }

  /** A committed table change, with the tables before it (a used roll is in `before`) and after it. */
  played(event: TableEvent, before: TableState, after: TableState): void {
    if (event.type === 'undo') {
      const back = after.roll;
      if (!back) return;
      // The undo entry it popped: the table's version when its move was made (a use's, where it was one).
      const version = before.undo?.at(-1)?.version;
      // Only when the undo brought the held roll back to be corrected (not when it undid a move after it).
      const held = this.held;
      if (held && broughtBack(held, back, version)) {
        this.held = null;
        // Counted before a cut stopped its final roll being remembered: its count is taken back
        // here, on disk before its files go (gone first, a cut would leave it counted, held by none).
        if (held.counted) this.uncount(held.roll);
        this.keepHeld(null, this.saving);
        return;
      }
      // A roll already final (another roll came before the BACKs): its count and its labels are
      // taken back, or a correction made again after it counted the die twice and taught both faces.
      const final = this.finals.find((f) => broughtBack(f, back, version));
      if (final) this.takeBack(final);
      return;
    }
    if (event.type === 'confirm' || event.type === 'roll' || event.type === 'setup') void this.flush();
    if (event.type === 'confirm' && before.roll && before.roll.source !== 'manual') {
      this.held = this.hold(before.roll, event.by, before.version);
      // After the roll made final now is counted and remembered (written over its held files, which
      // are its until then), and after the memory of a final roll a BACK took back: held on disk
      // while the memory still names it as final, a cut would drop it at the start (`restore`).
      this.keepHeld(this.held, Promise.all([this.finalised, this.remembering]));
    }
  }

  /**
   * The held roll becomes final: its dice count in play, and its checked dice become labels, after
   * any roll's before them. Resolves when they are labels (a save waits for this).
   */
  flush(): Promise<void> {
    const held = this.held;
    this.held = null;
    if (!held) return this.flushing;
    // With the counts off it goes into no count kept on disk: a BACK takes it back from this run's count only.
    const final: HeldFinal = { id: held.id, ...(held.usedAt !== undefined ? { usedAt: held.usedAt } : {}), roll: held.roll, counted: [], labels: [], ...(this.countsOff ? { countedHere: true as const } : {}) };
    for (const set of new Set(held.roll.dice.map((d) => d.set))) {
      const add = countInPlay(held.roll, set);
      const now = this.counted.get(set) ?? { ...NONE, since: 'start' as const };
      if (add.dice + add.missed + add.notDice > 0) {
        // Counted already where a cut came between its count and its final roll (restoreHeld).
        if (!held.counted) this.counted.set(set, { ...plus(now, add), since: now.since });
        final.counted.push({ set, add, generation: this.generations.get(set) ?? 0 });
      }
    }
    this.finals = [final, ...this.finals].slice(0, FINAL_KEPT);
    this.lastCounted = held.id;
    this.save();
    // Its sets' crops are about to be added: said with the final roll, before the first is.
    const adding = held.taught.length > 0 ? [...new Set(held.taught.map((i) => held.roll.dice[i]!.set))].map((set) => this.opts.adding?.(set)) : [];
    // Its count first, then the final roll remembered (keptChanged waits for the count), then its labels.
    const remembered = this.keptChanged().then(
      () => true,
      () => false,
    );
    // Remembered, it is told by its id from there (`restore`): the counts file need not name it any more (and is as before when idle).
    void remembered.then((ok) => {
      if (ok && this.lastCounted === held.id) {
        this.lastCounted = undefined;
        this.save();
      }
    });
    this.finalised = remembered;
    if (held.taught.length > 0) {
      // Its frame read now (from disk, after a restart): a roll used meanwhile is written over the
      // held files before this one's dice are taught.
      const frame = held.frame();
      const teaching: HeldRoll = { ...held, frame: () => frame };
      this.flushing = this.flushing
        .then(() => remembered)
        .then(async (ok) => {
          // Not remembered, its crops could be neither named nor said to be coming: none is added.
          if (ok) await this.learn(teaching, final);
          else this.opts.logger.warn(`calibration: a used roll could not be remembered; its ${held.taught.length} checked ${held.taught.length === 1 ? 'die is' : 'dice are'} not taught`);
        })
        .catch((error: unknown) => this.opts.logger.error(`calibration: the dice checked during play could not be learnt: ${(error as Error).message}`))
        .finally(() => {
          for (const end of adding) end?.();
        });
    }
    // Off the disk only once all that is (removed first, a cut lost the roll's count and labels);
    // a roll used meanwhile is written over it instead, once this one's count is remembered.
    const changes = this.heldChanges;
    this.removing = Promise.all([remembered, this.flushing]).then(() => {
      if (changes === this.heldChanges) this.keepHeld(null);
      return this.keeping;
    });
    return this.flushing;
  }

  /** Counts the set's dice in play afresh, from its calibration's save or undo. */
  restart(set: DiceSetId, since: Exclude<InPlaySince, 'start'>): void {
    this.generations.set(set, (this.generations.get(set) ?? 0) + 1);
    this.counted.set(set, { ...NONE, since });
    this.save();
    this.keptChanged();
  }

  /** A set's dice in play, the held roll's included; undefined while there are none. */
  inPlay(set: DiceSetId): (InPlay & { since: InPlaySince }) | undefined {
    const base = this.counted.get(set) ?? { ...NONE, since: 'start' as const };
    const all = this.held && !this.held.counted ? { ...plus(base, countInPlay(this.held.roll, set)), since: base.since } : base;
    return all.dice + all.missed + all.notDice > 0 ? all : undefined;
  }

  /** Checked dice not yet labels (held, or being made labels now): the Teach tab counts them already. */
  waiting(): { set: DiceSetId; face: string }[] {
    const held = this.held;
    return [...(held ? held.taught.map((i) => held.roll.dice[i]!) : []), ...this.learning];
  }

  /** A used camera roll, with the dice the table has checked in it and the frame they were read from. */
  private hold(roll: PendingRoll, by: Actor, usedAt: number | undefined): HeldRoll {
    // A phone's "use" follows the "check the dice" prompt; the button box's OK may not.
    const looked = by.kind === 'referee' || by.kind === 'player';
    const checked = roll.dice.flatMap((d, index) => (d.box && !d.added && (d.corrected || (looked && d.uncertain)) ? [index] : []));
    const pipeline = this.opts.learnFromChecks && checked.length > 0 ? this.opts.pipelineFor(roll.source as 'camera' | 'phone-camera') : null;
    const last = pipeline?.frameFor(roll);
    const frame = pipeline && last ? { image: last.image, view: pipeline.view } : null;
    const fresh = last ? checked.filter((i) => !this.opts.labelled?.(last.at, roll.dice[i]!.box!)) : [];
    return { id: randomUUID(), ...(usedAt !== undefined ? { usedAt } : {}), roll, taught: frame ? fresh : [], frame: async () => frame };
  }

  /**
   * The held roll on disk, or none (`held` null): the frame first, then the roll that names it, so
   * a roll on disk always has its frame unless that was lost; writes and removals in order.
   */
  private keepHeld(held: HeldRoll | null, after: Promise<unknown> = Promise.resolve()): void {
    const dir = this.opts.heldDir;
    if (!dir) return;
    this.heldChanges++;
    const rollFile = path.join(dir, HELD_ROLL), frameFile = path.join(dir, HELD_FRAME);
    this.keeping = this.keeping
      .then(() => after)
      .then(async () => {
        if (!held) {
          await rm(rollFile, { force: true });
          await rm(frameFile, { force: true });
          // Gone for good only once the folder is synced: else a power cut may bring it back.
          await syncDir(dir);
          return;
        }
        await mkdir(dir, { recursive: true });
        const frame = held.taught.length > 0 ? await held.frame() : null;
        const teaches = frame !== null;
        if (teaches) await writeFileAtomic(frameFile, await encodePng(frame.image));
        else await rm(frameFile, { force: true });
        await writeFileAtomic(rollFile, JSON.stringify({ id: held.id, usedAt: held.usedAt, roll: held.roll, taught: teaches ? held.taught : [], ...(teaches ? { view: frame.view } : {}) }) + '\n');
      })
      .catch((error: unknown) => this.opts.logger.warn(`dice in play: the used roll could not be kept in ${dir}: ${(error as Error).message}`));
  }

  /**
   * A roll held when the server stopped without a clean shutdown (a power cut): held again, as it
   * was, its frame read back only when it teaches. A roll that cannot be read is reported, left
   * out (its dice are neither counted nor taught) and kept aside as `roll.json.corrupt-<ms>`, so the
   * next start does not report it again; a frame without its roll is removed.
   */
  private restoreHeld(): void {
    const dir = this.opts.heldDir;
    if (!dir) return;
    const rollFile = path.join(dir, HELD_ROLL), frameFile = path.join(dir, HELD_FRAME);
    const read = readKept(rollFile, HELD_SHAPE);
    if ('missing' in read) {
      rmSync(frameFile, { force: true });
      return;
    }
    if (!('data' in read)) {
      const aside = `${rollFile}.corrupt-${Date.now()}`;
      const why = 'unreadable' in read ? `could not be read (${read.unreadable})` : `is not a used roll (${read.invalid})`;
      this.opts.logger.warn(`dice in play: ${rollFile} ${why}; the roll used last is not counted (kept as ${path.basename(aside)})`);
      this.keeping = rename(rollFile, aside)
        .then(() => rm(frameFile, { force: true }))
        .catch((e: unknown) => this.opts.logger.warn(`dice in play: ${rollFile} could not be put aside: ${(e as Error).message}`));
      return;
    }
    const { id, usedAt, roll, taught, view } = read.data;
    const frame = async () => {
      if (taught.length === 0 || !view) return null;
      try {
        return { image: await decodeImage(await readFile(frameFile)), view };
      } catch (error) {
        this.opts.logger.warn(`calibration: the frame of the roll used before the restart (${frameFile}) could not be read (${(error as Error).message}); its ${taught.length} checked ${taught.length === 1 ? 'die is' : 'dice are'} not taught`);
        return null;
      }
    };
    // Taught only if the table still learns from its checks (the config may have changed meanwhile).
    // One from older files gets an id now: its final roll is then told from a later use of the same dice.
    this.heldNamed = id !== undefined;
    // The counts file names it as counted last: a cut came after its count was written (not counted again).
    const counted = id !== undefined && id === this.lastCounted;
    this.held = { id: id ?? randomUUID(), ...(usedAt !== undefined ? { usedAt } : {}), ...(counted ? { counted: true as const } : {}), roll: roll as PendingRoll, taught: view && this.opts.learnFromChecks ? taught : [], frame };
    this.opts.logger.info(`dice in play: the roll used before the restart is held again (${roll.dice.length} ${roll.dice.length === 1 ? 'die' : 'dice'}, ${taught.length} checked${counted ? '; counted already' : ''})`);
  }

  /**
   * A final roll BACK brought back: its dice no longer count (where the count has not started
   * afresh since), and its labels still pending are withdrawn (one a save took stays taught: an
   * undo of the save takes it back). After any teaching of it still under way. One made final
   * before the restart is taken back alike, from the count and labels kept over it.
   */
  private takeBack(final: HeldFinal): void {
    final.takenBack = true;
    this.finals = this.finals.filter((f) => f !== final);
    const { id } = final;
    // Named in the counts file (`takenBack`) with its count taken back, until the memory forgets it.
    const already = id !== undefined && this.takenBack.has(id);
    if (!already) {
      for (const { set, add, generation } of final.counted) {
        const now = this.counted.get(set);
        if (now && (this.generations.get(set) ?? 0) === generation) this.counted.set(set, { ...minus(now, add), since: now.since });
      }
    }
    if (id !== undefined) this.takenBack.add(id);
    this.save();
    // Its crops named as withdrawn in the write that forgets it, until they are removed: a cut between leaves none to teach.
    const withdrawn = final.labels.length > 0 ? this.opts.withdrawing?.(final.labels) : undefined;
    const forgotten = this.keptChanged();
    // Forgotten on disk: the counts file need not name it any more (and is as before when idle).
    if (id !== undefined)
      void forgotten.then(
        () => {
          if (this.takenBack.delete(id)) this.save();
        },
        () => {},
      );
    this.flushing = this.flushing
      .then(async () => {
        if (final.labels.length === 0) return;
        const reader = await this.opts.reader.get();
        let back = 0;
        for (const { set, label, readRight } of final.labels) {
          if (!(await reader.calibration.withdraw(set, label)).withdrawn) continue;
          // A label given before the start is in no tally of this run.
          if (!final.fromBefore) this.opts.onUnlabel?.(set, readRight);
          back++;
        }
        final.labels = [];
        if (back > 0) this.opts.logger.info(`calibration: ${back} ${back === 1 ? 'die' : 'dice'} checked in a roll BACK brought back taken back from the taught crops`);
      })
      .catch((error: unknown) => this.opts.logger.warn(`calibration: the dice of a roll BACK brought back could not be taken back: ${(error as Error).message}`))
      .finally(() => {
        withdrawn?.();
        this.opts.onChange();
      });
  }

  /**
   * A held roll counted already (before a cut) that BACK brought back: its dice no longer count,
   * nor is it named as counted (a cut before its files are removed holds it again, to be counted once).
   */
  private uncount(roll: PendingRoll): void {
    for (const set of new Set(roll.dice.map((d) => d.set))) {
      const now = this.counted.get(set);
      if (now) this.counted.set(set, { ...minus(now, countInPlay(roll, set)), since: now.since });
    }
    this.lastCounted = undefined;
    this.save();
  }

  /** A final roll's checked dice become their sets' labelled crops, as the Teach tab's labels do. */
  private async learn(held: HeldRoll, final?: HeldFinal): Promise<void> {
    this.learning = held.taught.map((i) => held.roll.dice[i]!);
    const frame = await held.frame();
    if (!frame) {
      this.learning = [];
      this.opts.onChange();
      return;
    }
    let reader;
    try {
      reader = await this.opts.reader.get();
    } catch {
      this.learning = [];
      return; // no reader, nothing to teach
    }
    let learnt = 0;
    for (const [nth, index] of held.taught.entries()) {
      const die = held.roll.dice[index]!;
      // Framed as the roll was read: the same camera view, the die's up judged with the roll's other dice.
      const others: Box[] = held.roll.dice.flatMap((d, k) => (k !== index && d.box ? [d.box] : []));
      // Taken back meanwhile: its crops named so are being withdrawn, and no more are added.
      if (final?.takenBack) {
        this.learning = [];
        break;
      }
      try {
        const added = await reader.calibration.add(die.set, die.face, frame.image, die.box, frame.view, others);
        if (final?.takenBack) {
          // Added while it was taken back, after its crops were named as withdrawn: withdrawn here, while the memory still says crops are being added.
          await reader.calibration.withdraw(die.set, added.label).catch(() => undefined);
          this.learning = [];
          break;
        }
        const given = { set: die.set, face: die.face, label: added.label, readRight: (die.readAs ?? die.face) === die.face };
        final?.labels.push(given);
        // Remembered before the next die is taught: a cut then leaves at most this one crop that
        // a BACK after the restart cannot take back (all of them, when the memory came last).
        if (final && this.finals.includes(final)) {
          try {
            await this.keptChanged();
          } catch (error) {
            final.labels = final.labels.filter((l) => l !== given);
            await reader.calibration.withdraw(die.set, added.label).catch(() => undefined);
            const left = held.taught.length - nth;
            this.opts.logger.warn(`calibration: a die checked during play could not be remembered (${(error as Error).message}); ${left === 1 ? 'it is' : `it and the ${left - 1} after it are`} not taught`);
            this.learning = [];
            break;
          }
        }
      } catch (error) {
        this.opts.logger.warn(`calibration: die ${index + 1} of a used roll could not be learnt: ${(error as Error).message}`);
        continue;
      } finally {
        this.learning.shift();
      }
      this.opts.onLabel(die.set, (die.readAs ?? die.face) === die.face);
      learnt++;
    }
    if (learnt > 0) this.opts.logger.info(`calibration: ${learnt} ${learnt === 1 ? 'die' : 'dice'} checked during play added to the taught crops`);
    this.opts.onChange();
  }
}
