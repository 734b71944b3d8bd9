/**
 * The calibrations in force ("teach clew your dice"), for one reader: the labelled crops waiting
 * per dice set, fitting a set's calibration from them (the whole net adapted, or the set's
 * last-layer rows refitted), saving it, applying it, undoing it, and the adapted nets the reader
 * reads a taught set's dice with. Framing a taught die is the reader's job (it frames as it
 * reads); this module starts from the framed, upright 64×64 crop.
 */
import { DICE_SET_IDS, DICE_SETS, type DiceSetId } from '../shared/dice.js';
import { createRng } from '../shared/rng.js';
import { classOf } from './faces/classes.js';
import { adaptNet, type AdaptOptions } from './model/adapt.js';
import { augmentCrop, MIRROR_SAFE } from './model/augment.js';
import { CALIBRATION_VERSION, countExamples, fitCalibration, headRows, type Calibration } from './model/calibration.js';
import { CalibrationStore } from './model/calibration-store.js';
import { PendingCropStore, pendingNumber } from './model/pending-store.js';
import { headOf, type Classifier } from './model/classifier.js';
import { decodeWeightsInto, encodeWeights } from './model/io.js';
import type { LayersModel } from './model/net.js';
import { bestFace, classMask, maskedSoftmax } from './model/postprocess.js';
import { cameraEvidence, likeliestSideUp } from './model/frame-up.js';
import { turnSquare } from './model/views.js';
import { CAMERA_VIEWS, type Box, type CameraView, type RgbImage } from './types.js';

export interface PendingCount {
  set: DiceSetId;
  counts: Record<string, number>;
}

/** The set's pending counts after `add`, and the label given (for `withdraw`). */
export interface AddedLabel extends PendingCount {
  /**
   * With a folder, the crop's number there (`pending/<set>/<n>-<face>.png`), which a reader
   * opened on the folder after a restart gives the same label again; without one, a number of
   * this reader's.
   */
  label: number;
}

export interface CalibrationControl {
  /**
   * Adds a labelled example: a frame and the die's box in it (seen from `view`, as `read` takes
   * it), or a picture of one die. `others`: the boxes of the frame's other dice, which in view
   * 'any' help find which way is up (one camera, one up), as they do when the frame is read. A
   * picture of one die without a view is taken to come from the camera of the set's other such
   * pictures: the commit teaches them in the up they share, if any (`pictureUp`).
   */
  add(set: DiceSetId, face: string, image: RgbImage, box?: Box, view?: CameraView, others?: Box[]): Promise<AddedLabel>;
  /**
   * Takes back a label `add` gave (`AddedLabel.label`; where a folder keeps the labels, one given
   * before a restart too), its crop on disk too: a referee's second label of the same die replaces
   * the first. `withdrawn` is false where the label is no longer pending (a commit took it, or
   * newer labels of its face pushed it out) or a commit is fitting it now: then nothing changes.
   */
  withdraw(set: DiceSetId, label: number): Promise<PendingCount & { withdrawn: boolean }>;
  pending(set: DiceSetId): PendingCount;
  /** Forgets the set's pending labels (and their crops on disk). */
  discard(set: DiceSetId): Promise<void>;
  /**
   * Fits the set's calibration from its pending examples, saves it (when a directory was given)
   * and applies it. Reads go on meanwhile, with what was in force before.
   */
  commit(set: DiceSetId, options?: { persist?: boolean; createdAt?: string; onStep?: (step: number, steps: number) => void }): Promise<Calibration>;
  /** Restores the set's previous calibration (or the shipped model); returns what is now in force. */
  undo(set: DiceSetId): Promise<Calibration | undefined>;
  /** Calibrations in force. */
  list(): Calibration[];
}

/** A taught die framed as the reader frames it when it reads: the 64×64 crop a calibration learns from. */
export interface TaughtCrop {
  /** Upright, or for a picture whose up was not given (`upWeights`), as the picture shows it. */
  crop: RgbImage;
  /**
   * A picture of one die taught without a view: how upright the orientation head finds each of
   * the crop's four quarter turns (`turnSquare` order). The commit turns it (`pictureUp`).
   */
  upWeights?: Float64Array;
}

export type FrameTaught = (image: RgbImage, box: Box | undefined, view: CameraView | undefined, others: Box[] | undefined) => Promise<TaughtCrop>;

/**
 * Whether the taught pictures of one die whose up was not given share one up, as pictures from
 * one camera at one side of the dice do, and which. The orientation head's weights of their
 * quarter turns (`cameraEvidence`) name the likeliest shared up; it is taken only where reading
 * the pictures with it as their prior gives their labels a higher likelihood than reading them
 * without (`labelsRead`: the summed log-probability of the labels). On the Catan crops, 5 a face
 * over 16 splits, each crop turned a random quarter, the head named a shared up in 5 splits (where
 * one turn was common by chance), and the labels turned it down in all 5
 * (docs/notes/vision-model.md, "The taught pictures' up"). Returns the up (a `turnSquare` turn)
 * or null, and the evidence.
 */
export function pictureUp(weights: readonly Float64Array[], labelsRead: (prior?: Float64Array) => number): { up: number | null; camera: Float64Array } {
  const camera = cameraEvidence(weights, weights.map(() => null));
  const candidate = likeliestSideUp(camera);
  const up = candidate !== null && labelsRead(camera) > labelsRead() ? candidate : null;
  return { up, camera };
}

/**
 * The pending labels with their pictures of one die turned to the up they share (`pictureUp`;
 * as they are where they share none: turning each the way the head finds it upright read the
 * Catan crops, each turned a random quarter, a point worse after calibrating), and what those
 * said about their camera.
 */
function uprightTaught(set: DiceSetId, list: readonly PendingLabel[], readLabels: ReadLabels | undefined): { taught: { face: string; crop: RgbImage }[]; pictures?: Calibration['pictures'] } {
  const plain = list.map(({ face, crop }) => ({ face, crop }));
  const pictures = list.filter((p) => p.upWeights);
  if (pictures.length === 0 || !readLabels) return { taught: plain };
  const { up, camera } = pictureUp(pictures.map((p) => p.upWeights!), (prior) => readLabels(set, pictures, prior));
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  return {
    taught: plain.map((p, i) => (up !== null && list[i]!.upWeights ? { face: p.face, crop: turnSquare(p.crop, up) } : p)),
    pictures: { camera: Array.from(camera, round), count: pictures.length, up },
  };
}

export interface CalibrationsOptions {
  classifier: Classifier;
  /** The shipped model's id: a calibration made for another model is ignored. */
  modelId: string;
  /**
   * Where calibrations are kept (one JSON per dice set), and the labelled crops waiting for one
   * (`pending/`, so a restart loses none); without it both live in memory.
   */
  dir?: string;
  /** What a calibration adapts: the whole net (default) or the set's last-layer rows. */
  calibrate?: 'net' | 'head';
  adapt?: Omit<AdaptOptions, 'onStep'>;
  /**
   * Labels kept pending per face at most: a newer one pushes the oldest of its face out (memory
   * and disk). Default: no limit. A table adding the dice it checks in play every game needs one.
   */
  pendingPerFace?: number;
  frameTaught: FrameTaught;
  /**
   * The summed log-probability of the labels of these pictures of one die as the reader reads
   * them in view 'any', with `prior` as what is known of their camera (`ReadOptions.cameraPrior`);
   * `pictureUp` weighs a shared up by it. Without it, taught pictures are taught as they are.
   */
  readLabels?: ReadLabels;
}

/** A label waiting for a commit: its crop, where it is kept, and a picture's up weights (`TaughtCrop`). */
interface PendingLabel {
  /** Unique among the set's labels (`withdraw` names it): its crop's number where a folder keeps it, so the same over a restart. */
  id: number;
  face: string;
  crop: RgbImage;
  file?: string;
  upWeights?: Float64Array;
}

export type ReadLabels = (set: DiceSetId, pictures: readonly { face: string; crop: RgbImage }[], prior?: Float64Array) => number;

/** Throws unless `set` is one of clew's dice sets (the store names files after it). */
function knownSet(set: DiceSetId): void {
  if (!Object.hasOwn(DICE_SETS, set)) throw new Error(`calibration: unknown dice set "${String(set)}"`);
}

/** Views per example of a last-layer refit: four quarter turns × two photometric variants. */
const CALIBRATION_VIEWS = 8;

export class Calibrations {
  readonly control: CalibrationControl;
  private readonly store: CalibrationStore | undefined;
  private readonly pendingStore: PendingCropStore | undefined;
  private readonly active = new Map<DiceSetId, Calibration>();
  /** The adapted nets of the calibrations in force that carry one. */
  private readonly nets = new Map<DiceSetId, LayersModel>();
  private readonly pending = new Map<DiceSetId, PendingLabel[]>();
  private readonly committing = new Set<DiceSetId>();
  /** Sets whose calibration is being undone now. */
  private readonly undoing = new Set<DiceSetId>();
  /** The labels a commit is fitting now (not to be withdrawn under it). */
  private readonly taking = new Set<PendingLabel>();
  /** The next label's id where no folder keeps the labels. */
  private nextLabel = 1;

  private constructor(private readonly options: CalibrationsOptions) {
    this.store = options.dir ? new CalibrationStore(options.dir) : undefined;
    this.pendingStore = options.dir ? new PendingCropStore(options.dir) : undefined;
    this.control = {
      add: (set, face, image, box, view, others) => this.add(set, face, image, box, view, others),
      withdraw: (set, label) => this.withdraw(set, label),
      pending: (set) => this.counts(set),
      discard: (set) => this.discard(set),
      commit: (set, commitOptions) => this.commit(set, commitOptions),
      undo: (set) => this.undo(set),
      list: () => [...this.active.values()],
    };
  }

  /**
   * The calibrations kept in `dir` put in force, and its labelled crops pending again; a
   * calibration made for another model, a broken one or a crop that cannot be read is ignored
   * with a warning that says which file.
   */
  static async open(options: CalibrationsOptions): Promise<Calibrations> {
    const calibrations = new Calibrations(options);
    const { store, pendingStore } = calibrations;
    if (!store || !pendingStore) return calibrations;
    for (const set of DICE_SET_IDS) {
      const { crops, problems } = await pendingStore.load(set, options.classifier.meta.crop.size);
      for (const problem of problems) process.emitWarning(`labelled crop ${problem}; ignored`);
      if (crops.length > 0) calibrations.pending.set(set, crops.map(({ seq, ...c }) => ({ ...c, id: seq })));
    }
    for (const kept of await store.list()) {
      if ('problem' in kept) {
        process.emitWarning(`calibration of ${kept.set}: ${kept.problem}; ignored — recalibrate, or undo to the one before`);
        continue;
      }
      const cal = kept.calibration;
      if (cal.modelId !== options.modelId) {
        process.emitWarning(`calibration of ${cal.set} in ${store.dir} was made for another model (${cal.modelId}); ignored — recalibrate`);
        continue;
      }
      try {
        await calibrations.activate(cal.set, cal);
      } catch (error) {
        process.emitWarning(`calibration of ${cal.set} in ${store.dir}: ${(error as Error).message}; ignored — recalibrate`);
      }
    }
    return calibrations;
  }

  /** The calibration in force for `set`, if any. */
  inForce(set: DiceSetId): Calibration | undefined {
    return this.active.get(set);
  }

  /** The adapted net that reads `set`'s dice, when its calibration carries one. */
  adaptedNet(set: DiceSetId): LayersModel | undefined {
    return this.nets.get(set);
  }

  dispose(): void {
    for (const net of this.nets.values()) this.release(net);
    this.nets.clear();
  }

  /** An adapted net out of use: the reading threads' copies dropped, then its own weights. */
  private release(net: LayersModel): void {
    this.options.classifier.unshareNet(net);
    net.dispose();
  }

  /** Puts `cal` in force for its set (undefined: the shipped model), building its net if it has one. */
  private async activate(set: DiceSetId, cal: Calibration | undefined, net?: LayersModel): Promise<void> {
    this.install(set, cal, cal && !net ? await this.build(set, cal) : net);
  }

  /**
   * Checks that `cal` fits the shipped model and builds its adapted net, if it has one, without
   * putting it in force: a calibration that does not fit throws here and changes nothing.
   */
  private async build(set: DiceSetId, cal: Calibration): Promise<LayersModel | undefined> {
    const { classifier } = this.options;
    const own = DICE_SETS[set].faces.map((f) => classOf(set, f));
    const foreign = cal.classes.find((c) => !own.includes(c as (typeof own)[number]));
    if (foreign !== undefined) throw new Error(`class "${foreign}" is not a face of ${set}`);
    const short = cal.weights.find((row) => row.length !== classifier.head.dim);
    if (short) throw new Error(`${short.length} weights per class for the model's embedding of ${classifier.head.dim}`);
    if (!cal.net) return undefined;
    const built = await classifier.copyNet();
    try {
      decodeWeightsInto(built, cal.net.weights);
    } catch (error) {
      built.dispose();
      throw error;
    }
    return built;
  }

  /** Puts `cal` and its built net in force for `set` (undefined: the shipped model). */
  private install(set: DiceSetId, cal: Calibration | undefined, built: LayersModel | undefined): void {
    const { classifier } = this.options;
    const old = this.nets.get(set);
    if (old) this.release(old);
    this.nets.delete(set);
    this.active.delete(set);
    if (!cal) return;
    this.active.set(set, cal);
    if (built) {
      // Its weights are final now, so the reading threads may take a copy (in the background:
      // until they hold it, this thread reads it alone, with the same results).
      void classifier.shareNet(built);
      this.nets.set(set, built);
    }
  }

  private async discard(set: DiceSetId): Promise<void> {
    knownSet(set);
    // The commit removes the labels it took when it is done: discarding under it would lose the labels given after.
    if (this.committing.has(set)) throw new Error(`calibration of ${set} is being fitted; discard its labels when it is done`);
    this.pending.delete(set);
    await this.pendingStore?.clear(set);
  }

  private counts(set: DiceSetId): PendingCount {
    knownSet(set);
    const c: Record<string, number> = Object.fromEntries(DICE_SETS[set].faces.map((f) => [f, 0]));
    for (const p of this.pending.get(set) ?? []) c[p.face]!++;
    return { set, counts: c };
  }

  private async add(set: DiceSetId, face: string, image: RgbImage, box?: Box, view?: CameraView, others?: Box[]): Promise<AddedLabel> {
    knownSet(set);
    if (!DICE_SETS[set].faces.includes(face)) throw new Error(`calibration: "${face}" is not a face of ${set} (faces: ${DICE_SETS[set].faces.join(', ')})`);
    if (view !== undefined && !CAMERA_VIEWS.includes(view)) throw new Error(`calibration: view must be ${CAMERA_VIEWS.join(', ')}, got "${String(view)}"`);
    const { crop, upWeights } = await this.options.frameTaught(image, box, view, others);
    // On disk before it counts, so a label acknowledged is a label kept. (A picture's up weights
    // are not: after a restart it is taught as the picture shows it.)
    const file = await this.pendingStore?.add(set, face, crop);
    const list = this.pending.get(set) ?? [];
    const id = (file ? pendingNumber(file) : undefined) ?? this.nextLabel++;
    list.push({ id, face, crop, ...(file ? { file } : {}), ...(upWeights ? { upWeights } : {}) });
    this.pending.set(set, list);
    // Not while a commit fits: the labels it took are the first of the list until it is done.
    const limit = this.options.pendingPerFace;
    if (limit !== undefined && !this.committing.has(set)) {
      const ofFace = list.filter((p) => p.face === face);
      const dropped = ofFace.slice(0, Math.max(0, ofFace.length - limit));
      if (dropped.length > 0) {
        this.pending.set(set, list.filter((p) => !dropped.includes(p)));
        await this.pendingStore?.remove(dropped.flatMap((p) => (p.file ? [p.file] : [])));
      }
    }
    return { ...this.counts(set), label: id };
  }

  private async withdraw(set: DiceSetId, label: number): Promise<PendingCount & { withdrawn: boolean }> {
    knownSet(set);
    const list = this.pending.get(set) ?? [];
    const found = list.find((p) => p.id === label);
    if (!found || this.taking.has(found)) return { ...this.counts(set), withdrawn: false };
    // Out of the list before the disk is touched: a failed removal leaves a stray crop that a restart would bring back, not a label counted twice now.
    this.pending.set(set, list.filter((p) => p !== found));
    if (found.file) await this.pendingStore?.remove([found.file]);
    return { ...this.counts(set), withdrawn: true };
  }

  private async commit(set: DiceSetId, commitOptions: { persist?: boolean; createdAt?: string; onStep?: (step: number, steps: number) => void } = {}): Promise<Calibration> {
    knownSet(set);
    const list = [...(this.pending.get(set) ?? [])];
    if (list.length === 0) throw new Error(`calibration of ${set}: no labelled crops added`);
    const counted = countExamples(set, list.map((p) => p.face));
    if (this.committing.has(set)) throw new Error(`calibration of ${set} is already being fitted; wait for it to finish`);
    if (this.undoing.has(set)) throw new Error(`calibration of ${set} is being undone; save again when that is done`);
    this.committing.add(set);
    for (const p of list) this.taking.add(p);
    try {
      const createdAt = commitOptions.createdAt ?? new Date().toISOString();
      const rng = createRng(`calibrate:${set}:${list.length}`);
      const { taught, pictures } = uprightTaught(set, list, this.options.readLabels);
      const fitted = (this.options.calibrate ?? 'net') === 'net'
        ? await this.adaptWholeNet(set, taught, counted, createdAt, rng, commitOptions.onStep)
        : { cal: this.refitHead(set, taught, counted, createdAt, rng), net: undefined };
      const net = fitted.net;
      const cal: Calibration = pictures ? { ...fitted.cal, pictures } : fitted.cal;
      try {
        if (this.store && commitOptions.persist !== false) await this.store.save(cal);
      } catch (error) {
        net?.dispose();
        throw error;
      }
      await this.activate(set, cal, net);
      // Labels given while it was fitting stay pending.
      this.pending.set(set, (this.pending.get(set) ?? []).filter((p) => !this.taking.has(p)));
      try {
        await this.pendingStore?.remove(list.flatMap((p) => (p.file ? [p.file] : [])));
      } catch (error) {
        // The calibration is saved and in force; the crops it used would only come back as pending.
        process.emitWarning(`calibration of ${set}: the labelled crops it used could not be removed from ${this.options.dir}: ${(error as Error).message}`);
      }
      return cal;
    } finally {
      this.committing.delete(set);
      for (const p of list) this.taking.delete(p);
    }
  }

  private async undo(set: DiceSetId): Promise<Calibration | undefined> {
    knownSet(set);
    // One change of a set's calibration at a time: two undos at once (a double tap, two referees)
    // both swapped the files, and one calibration was lost from the disk while another was in force.
    if (this.committing.has(set)) throw new Error(`calibration of ${set} is being fitted; undo it once it is saved`);
    if (this.undoing.has(set)) throw new Error(`calibration of ${set} is being undone already`);
    this.undoing.add(set);
    try {
      return await this.undoNow(set);
    } finally {
      this.undoing.delete(set);
    }
  }

  private async undoNow(set: DiceSetId): Promise<Calibration | undefined> {
    if (!this.store) {
      if (!this.active.has(set)) throw new Error(`no calibration of ${set} to undo`);
      this.install(set, undefined, undefined);
      return undefined;
    }
    // The one to come back read and built first: one that cannot be read or does not fit the
    // model is refused, and the files and the calibration in force stay as they were.
    let back: Calibration | undefined;
    try {
      back = await this.store.readPrevious(set);
    } catch (error) {
      throw new Error(`calibration of ${set}: the one before cannot be restored (${(error as Error).message}); nothing was undone`);
    }
    const fits = back && back.modelId === this.options.modelId ? back : undefined;
    let built: LayersModel | undefined;
    try {
      built = fits ? await this.build(set, fits) : undefined;
    } catch (error) {
      throw new Error(`calibration of ${set}: the one before does not fit the model (${(error as Error).message}); nothing was undone`);
    }
    try {
      await this.store.undo(set);
    } catch (error) {
      if (built) built.dispose();
      throw error;
    }
    this.install(set, fits, built);
    return this.active.get(set);
  }

  /** The last-layer refit: each example in several views, embeddings of the shipped net, rows fitted. */
  private refitHead(set: DiceSetId, list: { face: string; crop: RgbImage }[], counted: Record<string, number>, createdAt: string, rng: ReturnType<typeof createRng>): Calibration {
    const { classifier, modelId } = this.options;
    // Each example in several views (quarter turns unless the model reads upright, mirror where honest, mild light changes),
    // so a handful of crops spans the ways the same die can look.
    const views: RgbImage[] = [];
    const faces: string[] = [];
    for (const p of list) {
      const mirror = MIRROR_SAFE.has(classOf(set, p.face));
      for (let v = 0; v < CALIBRATION_VIEWS; v++) {
        const pixels = v === 0 ? p.crop.data : Uint8Array.from(augmentCrop(p.crop.data, rng, { strength: 0.4, mirror, edgeChance: 0, turns: !classifier.upright }), (x) => Math.round(x));
        views.push({ width: 64, height: 64, data: pixels });
        faces.push(p.face);
      }
    }
    const { embeddings } = classifier.score(views);
    const fitted = fitCalibration(set, embeddings.map((e, i) => ({ face: faces[i]!, embedding: e })), classifier.head, { modelId, createdAt });
    return { ...fitted, counts: counted }; // crops, not views
  }

  /** The whole net adapted (adapt.ts); its last-layer rows and its fit on the taught crops are kept for the record. */
  private async adaptWholeNet(set: DiceSetId, list: { face: string; crop: RgbImage }[], counted: Record<string, number>, createdAt: string, rng: ReturnType<typeof createRng>, onStep?: (step: number, steps: number) => void): Promise<{ cal: Calibration; net: LayersModel }> {
    const { classifier, modelId } = this.options;
    const net = await classifier.copyNet();
    try {
      const steps = await adaptNet(net, set, list, classifier.meta, rng, { ...this.options.adapt, onStep });
      const faces = DICE_SETS[set].faces;
      const classes = faces.map((f) => classOf(set, f));
      const rows = headRows(headOf(net), classes);
      const round = (v: number) => Math.round(v * 1e6) / 1e6;
      const mask = classMask([set]);
      const read = classifier.scoreWith(net, list.map((p) => p.crop));
      const right = read.logits.filter((l, i) => bestFace(maskedSoftmax(l, mask, classifier.meta.temperature), [set]).face === list[i]!.face).length;
      const cal: Calibration = {
        version: CALIBRATION_VERSION,
        set,
        modelId,
        createdAt,
        counts: counted,
        classes,
        weights: rows.weights.map((r) => Array.from(r, round)),
        bias: rows.bias.map(round),
        fitAccuracy: right / list.length,
        net: { weights: encodeWeights(net), steps },
      };
      return { cal, net };
    } catch (error) {
      net.dispose();
      throw error;
    }
  }
}
