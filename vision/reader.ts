/**
 * `loadDiceReader`: the one door from the rest of clew into dice reading. It composes the
 * locator (every die in a frame), the crop framing (`squareCrop`), the face classifier (masked
 * to the sets in play, tempered confidence), any calibrations of the sets in play, and the
 * die-colour namer, and says which readings a person should confirm.
 *
 * It also carries "teach clew your dice" for the server (`calibration`: add labelled crops,
 * commit, undo, list): it frames a taught die as it reads one, and calibrations.ts does the rest.
 */
import type { DiceSetId } from '../shared/dice.js';
import { DICE_SETS } from '../shared/dice.js';
import { FACE_CLASSES, classOf } from './faces/classes.js';
import { squareCrop } from './image/crop.js';
import { shiftBox, withoutFlatBars } from './image/padding.js';
import { overheadUp, upAngle, uprightCrop } from './image/upright.js';
import { boxArea, intersection, overlap } from './locate/boxes.js';
import { bodyColour, dieColor, GUESSED_BOX_SCORE, locateDice, nearestColor, type Lab, type LocateOptions, type TrayFit, type TrayReference } from './locate/index.js';
import { hasHue, isGreyImage } from './locate/grey.js';
import { differingShares } from './locate/tray-reference.js';
import { learnEmptyTray } from './empty-tray.js';
import { Calibrations, type CalibrationControl, type FrameTaught } from './calibrations.js';
import { loadDieDetector, type DieDetector } from './locate/detector/index.js';
import type { AdaptOptions } from './model/adapt.js';
import { mirrorSafeSet } from './model/augment.js';
import type { BackendName } from './model/backend.js';
import { calibratedLogits } from './model/calibration.js';
import { averageIn, loadClassifier, scoreAllWithSecondLook, SECOND_LOOK_CROPS, SECOND_LOOK_ZOOM, secondLookCrops, type Classifier, type SecondLookExtra, type CropScores, type TurnScorer } from './model/classifier.js';
import { turnSquare } from './model/views.js';
import { reorderChannels, TURNED_CHANNELS } from './image/channels.js';
import { readAsOneOfSeveral, wholeDiceIn } from './image/several-dice.js';
import { frameDieImage, type Framed, type FramingMode } from './model/framing.js';
import { CAMERA_HYPOTHESES, cameraEvidence, frameUprightWeights, isCameraEvidence, sharedUpCertainty, type FrameUpOptions } from './model/frame-up.js';
import { mixTurns, uprightWeights } from './model/orientation.js';
import { argmax, bestFace, classMask, maskedSoftmax } from './model/postprocess.js';
import { fitColours, fitToSlots, type SetReading } from './fit-roll.js';
import { CAMERA_VIEWS, type Box, type CameraView, type DiceReader, type DieReading, type ReadOptions, type RgbImage, type RollExpectation } from './types.js';

export interface LoadDiceReaderOptions {
  /** Model directory (default: the committed vision/model/weights). */
  modelDir?: string;
  /** tfjs backend to prefer (default: tensorflow when tfjs-node loads, else wasm, else cpu). */
  backend?: BackendName;
  /** Where calibrations are kept (one JSON per dice set); without it calibrations live in memory. */
  calibrationDir?: string;
  /** Readings below this calibrated confidence are marked uncertain (default 0.85). */
  uncertainBelow?: number;
  /** How `readCrops` frames a picture of one die (default 'locate': the die found inside it first, the whole picture when none is). */
  cropFraming?: FramingMode;
  /**
   * With framing 'locate': a picture in which no die was found is read framed on its central
   * square too, as a located die is framed, and that reading kept when clearly surer (default
   * true): a picture cut tight round its die (docs/notes/vision-model.md, "Tight pictures of one die").
   */
  cropSquare?: boolean;
  /** Test-time views (quarter turns) averaged per crop; default from the model's meta.json (an upright model reads one). */
  views?: 1 | 2 | 4;
  /**
   * Threads that share each batch of crops, this one included (default CLEW_READER_THREADS, else
   * 1; 'auto': two where the machine has two cores, as the companion reads; wasm backend only;
   * each further thread about 40–55 MB). The readings are the same bit for bit with any number.
   */
  threads?: number | 'auto';
  /**
   * Dice whose calibrated confidence after those views is below this are read once more, closer
   * (and another quarter turn round, unless the model reads upright: `scoreWithSecondLook`), all
   * views averaged (default 0.7; 0 turns it off). On the synthetic test split 0.7 is the lowest
   * threshold that gains what 0.85 gains, with a quarter of the dice read again instead of a
   * third (84.0 → 85.4 % with the closer view; the model before the upright one). Where the
   * colour look is taken and no set in play is taught, dice under `uncertainBelow` are read again
   * too (fewer "check" marks, at the cost a few dice can pay); 0 turns both off.
   */
  secondLookBelow?: number;
  /**
   * Whether a second look in view side reads two more views besides the closer one (default
   * true): a die whose every face in play is its own mirror image (pips: a d6) mirrored and
   * mirrored closer, any other die closer and moved 3 px either way along the picture's width
   * (docs/notes/vision-model.md, "More views in a second look"). In view 'any', pictures of one
   * die only, moved (a frame's 25 dice would pass its 60 ms target). Not from overhead (no gain
   * on rendered trays).
   */
  secondLookExtra?: boolean;
  /**
   * How dice are found in a frame: classical segmentation (default), or 'detector': the same plus
   * the learned detector's confident extras (opt-in; about 30 ms more a frame, and the detector
   * alone does not transfer to real frames: docs/notes/vision-locate.md).
   */
  locator?: 'detector' | 'classical';
  locate?: LocateOptions;
  /**
   * How much looser than its box a die found in a frame is framed (a factor on the box's size
   * before `squareCrop`'s own margin). Default: the middle of the framing the model was trained
   * on (meta.json's recipe, ×1–1.9 for the committed model: ×1.45), where the net reads best; 1
   * where the model's meta gives none. A die found inside a picture of one die (`readCrops`,
   * framing 'locate') is framed so too; a picture read whole keeps `squareCrop`'s own margin.
   */
  locatedFraming?: number;
  /**
   * View 'any' in a frame: each die's up judged with the other dice of the frame, which one camera
   * saw (frame-up.ts; default on, with its defaults). False judges every die alone, as crops are.
   */
  frameUp?: FrameUpOptions | false;
  /**
   * What a calibration adapts: 'net' (default) fine-tunes a copy of the whole net on the taught
   * crops (adapt.ts; seconds here, under a minute on a Pi), 'head' refits only the set's rows of
   * the last layer (well under a second; gains less on real dice: docs/notes/vision-model.md).
   */
  calibrate?: 'net' | 'head';
  /** Options of the whole-net adaptation (steps, learning rate…; defaults in ADAPT_DEFAULTS). */
  adapt?: Omit<AdaptOptions, 'onStep'>;
  /** Labels kept pending per face at most, the oldest pushed out first (default: no limit; calibrations.ts). */
  pendingPerFace?: number;
}

/** A die's reading with the full probability of every face of the sets in play. */
export interface DetailedReading extends DieReading {
  /** Probability per face label of `set`. */
  probabilities: Record<string, number>;
  /** Quarter-turn views the die was read in (the model's, one more after a second look). */
  views?: number;
  /** With more than one set in play and a roll expected: the die read as each set (its likeliest face of each). */
  bySet?: SetReading[];
}

export interface ClewDiceReader extends DiceReader {
  readDetailed(image: RgbImage, options: ReadOptions): Promise<DetailedReading[]>;
  readCropsDetailed(crops: RgbImage[], options: ReadOptions): Promise<Omit<DetailedReading, 'box'>[]>;
  /** Classifies already framed 64×64 crops (squareCrop output), with their boxes for the record. */
  classifyFramed(framed: RgbImage[], boxes: Box[], options: ReadOptions): DetailedReading[];
  /**
   * The quarter turn (0–3, as `turnSquare` turns a crop) that shows each die of a frame upright:
   * found by the orientation head in view 'any', the frame's dice judged together; 0 otherwise
   * (the frame's own up, or turned by geometry from overhead).
   */
  uprightTurns(image: RgbImage, boxes: Box[], view?: CameraView): number[];
  /**
   * The empty tray from a frame of it, as this reader's locator will compare later frames with it
   * (`ReadOptions.tray`). Throws on a picture that is not an RGB image or is too small.
   */
  learnTray(picture: RgbImage): TrayReference;
  readonly calibration: CalibrationControl;
  readonly modelId: string;
  /** Quarter-turn views each die is read in (the cost of a read grows with them). */
  readonly views: number;
  /** Whether the model reads dice upright, as photos show them (frames are then read in their ReadOptions.view). */
  readonly upright: boolean;
  readonly uncertainBelow: number;
  /** Dice read below this confidence are read once more, closer (and a quarter turn round, unless the model reads upright). */
  readonly secondLookBelow: number;
  /** Threads that share each batch of crops now, this one included (1 until the others are ready). */
  readonly threads: number;
  /** Settles when the reading threads hold the shipped net (or were left out). Reads never need to wait for it. */
  readonly threadsReady: Promise<void>;
}

/** In view 'any', a doubtful die's second look reads the turns the orientation head gives at least this weight (and always the most upright one). */
const SECOND_LOOK_MIN_WEIGHT = 0.2;

function checkOptions(options: ReadOptions): void {
  if (!options || !Array.isArray(options.sets) || options.sets.length === 0) throw new Error('read dice: options.sets must name at least one dice set');
  for (const s of options.sets) if (!DICE_SETS[s]) throw new Error(`read dice: unknown dice set "${String(s)}"`);
  if (options.view !== undefined && !CAMERA_VIEWS.includes(options.view)) throw new Error(`read dice: view must be ${CAMERA_VIEWS.join(', ')}, got "${String(options.view)}"`);
  if (options.cameraPrior !== undefined && !isCameraEvidence(options.cameraPrior)) {
    throw new Error(`read dice: cameraPrior must be ${CAMERA_HYPOTHESES.length} finite log-likelihoods (${CAMERA_HYPOTHESES.join(', ')})`);
  }
}

/**
 * The middle of the framing the model was trained on (`knobs.framing` of meta.json's recipe: the
 * framed box was the die's box times a factor drawn from that range), or 1 where it gives none.
 */
export function trainingFraming(meta: Classifier['meta']): number {
  const recipe = meta.training['recipe'];
  const knobs = recipe && typeof recipe === 'object' ? (recipe as Record<string, unknown>)['knobs'] : undefined;
  const framing = knobs && typeof knobs === 'object' ? (knobs as Record<string, unknown>)['framing'] : undefined;
  if (!Array.isArray(framing) || framing.length !== 2 || !framing.every((v) => typeof v === 'number' && v > 0)) return 1;
  return ((framing[0] as number) + (framing[1] as number)) / 2;
}

function modelIdOf(classifier: Classifier): string {
  // FNV-1a over the head weights: changes whenever the model does, cheap and stable.
  let h = 0x811c9dc5;
  const bytes = new Uint8Array(classifier.head.weights.buffer, classifier.head.weights.byteOffset, classifier.head.weights.byteLength);
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The confidence below which a die is read a second time, unless `secondLookBelow` says otherwise. */
export const SECOND_LOOK_BELOW = 0.7;

/**
 * A picture whose filled corners were painted over keeps the reading of the picture as it came
 * only when that one is surer by this much. Chosen on renders: tight crops of turned dice on a
 * blown-out card (100 with wedges found: 65 right as they came, 56 painted) and pictures turned
 * on black (240: 203 as they came, 220 painted); kept by margin 0 / 0.05 / 0.1 / 0.15 / 0.2:
 * 67+218, 67+219, 66+221, 65+221, 63+221 right.
 */
const AS_IS_SURER_BY = 0.1;

/**
 * A picture of one die in which no die was found keeps the reading of its central square (framed
 * as a located die is, framing.ts `tight`) over the whole picture's only when that one is surer
 * by this much: the picture as it came is the user's framing. Chosen on renders (two seeds of
 * 400 pictures cut at 1–3 times their die's box): kept by margin 0 / 0.1 / 0.15 / 0.2, the
 * tight cuts gain 43 / 35 / 31 / 29 dice and the looser ones lose 22 / 15 / 9 / 4
 * (docs/notes/vision-model.md, "Tight pictures of one die").
 */
const SQUARE_SURER_BY = 0.15;

export async function loadDiceReader(options: LoadDiceReaderOptions = {}): Promise<ClewDiceReader> {
  const { locatedFraming } = options;
  if (locatedFraming !== undefined && !(locatedFraming > 0 && Number.isFinite(locatedFraming))) {
    throw new RangeError(`loadDiceReader: locatedFraming must be a positive number, got ${String(locatedFraming)}`);
  }
  const classifier = await loadClassifier({ modelDir: options.modelDir, backend: options.backend, views: options.views, threads: options.threads });
  // The detector loads on the first frame that needs it: reading crops never does.
  let detector: DieDetector | undefined;
  let detectorLoading: Promise<DieDetector> | undefined;
  const locateOptions = async (): Promise<LocateOptions> => {
    if ((options.locator ?? 'classical') !== 'detector') return { ...options.locate };
    detectorLoading ??= loadDieDetector().then((d) => (detector = d));
    return { ...options.locate, detector: await detectorLoading };
  };
  const modelId = modelIdOf(classifier);
  const uncertainBelow = options.uncertainBelow ?? 0.85;
  const secondLookBelow = options.secondLookBelow ?? SECOND_LOOK_BELOW;
  /**
   * What a second look reads besides the closer crop, for dice of these sets read in this view
   * (`picture`: a picture of one die, not a frame's die): read `side`, a d6 mirrored, any other
   * die moved; read `any`, only a picture of one die, and
   * moved (never mirrored: the real crops turned read worse so; a frame's 25 dice would pass
   * their 60 ms target); from overhead nothing (no gain on rendered trays).
   */
  const extraFor = (sets: readonly DiceSetId[], view: CameraView | undefined, picture: boolean): SecondLookExtra => {
    if (options.secondLookExtra === false) return 'none';
    if (view === 'any') return picture ? 'shift' : 'none';
    if ((view ?? 'side') !== 'side') return 'none';
    return sets.every(mirrorSafeSet) ? 'mirror' : 'shift';
  };
  const framing = options.cropFraming ?? 'locate';
  const located = options.locatedFraming ?? trainingFraming(classifier.meta);
  /** `squareCrop`'s scale for a die found in a frame. */
  const locatedScale = classifier.meta.crop.scale * located;
  const frameUp = options.frameUp ?? {};
  /**
   * `frame`: the size of the frame the dice were cut from, when they share one (one camera, one
   * up; view 'any' only). A die still in doubt is then read again in turned colours (the colour
   * look, `ReadOptions.colourLook`), in the turns its first reading found upright.
   */
  const classifyFramed = (framed: RgbImage[], boxes: Box[], opts: ReadOptions, frame?: { width: number; height: number }, lookByDefault = false): DetailedReading[] => {
    checkOptions(opts);
    if (framed.length === 0) return [];
    // Where the colour look is taken (pictures, frames of few dice) and the shipped net reads, every
    // die under the "check" mark's threshold gets the second look too, not only those under
    // `secondLookBelow`: the real crops 64 → 55 of 151 marked at the same accuracy. Not in large
    // frames, where it would cost a 25-dice frame its 60 ms, nor for a taught set, whose adapted
    // net reads the closer views worse (16 calibrations: 98.81 → 98.24 % read right; vision-model.md,
    // "Every look for a die in doubt").
    const looking = opts.colourLook ?? lookByDefault;
    const taught = opts.sets.some((s) => calibrations.inForce(s));
    const lookBelow = looking && !taught && secondLookBelow > 0 ? Math.max(secondLookBelow, uncertainBelow) : secondLookBelow;
    const first = readFramed(framed, boxes, opts, frame, undefined, lookBelow);
    const { probs, views } = first;
    const doubtful = looking ? framed.map((_, i) => i).filter((i) => bestFace(probs[i]!, opts.sets).confidence < uncertainBelow) : [];
    if (doubtful.length > 0) {
      // Not told about the camera again: the turned crops are the same dice.
      const { onCameraEvidence: _told, ...quiet } = opts;
      const upright = first.weights && doubtful.map((i) => first.weights![i]!);
      const sums = doubtful.map((i) => Float64Array.from(probs[i]!));
      // Both turnings read as one batch: a die's reading does not depend on the others read with
      // it, and one batch is half the passes (the doubtful dice's second looks included).
      const again = readFramed(
        TURNED_CHANNELS.flatMap((order) => doubtful.map((i) => reorderChannels(framed[i]!, order))),
        TURNED_CHANNELS.flatMap(() => doubtful.map((i) => boxes[i]!)),
        quiet,
        frame,
        upright && TURNED_CHANNELS.flatMap(() => upright),
        lookBelow,
      );
      TURNED_CHANNELS.forEach((_, o) =>
        doubtful.forEach((i, k) => {
          const p = again.probs[o * doubtful.length + k]!;
          for (let c = 0; c < p.length; c++) sums[k]![c]! += p[c]!;
          views[i]! += again.views[o * doubtful.length + k]!;
        }),
      );
      // The three weigh alike: they are the die's colours turned round all the ways there are, so
      // it reads the same whichever it came in. (The first weighing as the two turned ones
      // together read eval:dice's crops and frames a little worse, pictures turned on a grown
      // canvas a little better: docs/notes/vision-model.md, "The colour look".)
      doubtful.forEach((i, k) => (probs[i] = sums[k]!.map((v) => v / (1 + TURNED_CHANNELS.length))));
    }
    return framed.map((_, i) => describe(probs[i]!, boxes[i]!, opts, views[i]!));
  };

  /**
   * The dice's probabilities over all classes (masked to the sets in play) and the views each was
   * read in; in view 'any', also the weights of each die's quarter turns (`upright`: given, not
   * judged again). A die under `lookBelow` after its first read is read again closer.
   */
  const readFramed = (framed: RgbImage[], boxes: Box[], opts: ReadOptions, frame?: { width: number; height: number }, upright?: Float64Array[], lookBelow = secondLookBelow): { probs: Float64Array[]; views: number[]; weights?: Float64Array[] } => {
    const mask = classMask(opts.sets);
    // Who reads: the shipped net (unless every set in play has an adapted one), and the adapted
    // net of each set in play that has one, for that set's faces.
    const adapted = opts.sets.filter((s) => calibrations.adaptedNet(s));
    const shipped = adapted.length < opts.sets.length;
    const scorers: TurnScorer[] = [
      ...(shipped ? [classifier] : []),
      ...adapted.map((s): TurnScorer => ({
        turns: classifier.turns,
        secondTurns: classifier.secondTurns,
        score: (crops, turns) => classifier.scoreWith(calibrations.adaptedNet(s)!, crops, turns),
        scoreEachTurn: (crops, turns) => classifier.scoreEachTurnWith(calibrations.adaptedNet(s)!, crops, turns),
      })),
    ];
    const rows = opts.sets.flatMap((s) => {
      const calibration = calibrations.inForce(s);
      return calibration && !calibrations.adaptedNet(s) ? [{ calibration }] : [];
    });
    const probabilitiesOf = (read: { logits: Float32Array; embedding: Float32Array }[]): Float64Array => {
      const own = adapted.map((s, j) => ({ calibration: calibrations.inForce(s)!, logits: read[j + (shipped ? 1 : 0)]!.logits }));
      const logits = calibratedLogits(shipped ? read[0]!.logits : null, shipped ? read[0]!.embedding : null, [...rows, ...own]);
      return maskedSoftmax(logits, mask, classifier.meta.temperature);
    };
    if (opts.view === 'any' && classifier.upright) return readAnyWay(framed, boxes, opts, mask, scorers, probabilitiesOf, frame, upright, lookBelow);
    // The first read's probabilities, kept: only the dice read again need them anew.
    const firstRead: Float64Array[] = [];
    const unsure = (read: { logits: Float32Array; embedding: Float32Array }[], i: number): boolean => {
      firstRead[i] = probabilitiesOf(read);
      return bestFace(firstRead[i], opts.sets).confidence < lookBelow;
    };
    // (A model that does not read upright reads 'any' here, without the turns' extra views.)
    const extra = extraFor(opts.sets, opts.view, false);
    const { scores, lookedAgain } = scoreAllWithSecondLook(scorers, framed, unsure, SECOND_LOOK_ZOOM, extra);
    const again = new Set(lookedAgain);
    const secondLook = classifier.secondTurns.length * SECOND_LOOK_CROPS[extra];
    return {
      probs: framed.map((_, i) => (again.has(i) || !firstRead[i] ? probabilitiesOf(scores.map((s) => ({ logits: s.logits[i]!, embedding: s.embeddings[i]! }))) : firstRead[i])),
      views: framed.map((_, i) => classifier.views + (again.has(i) ? secondLook : 0)),
    };
  };

  const orientationOf = () => {
    if (!classifier.orientation) throw new Error('read dice: view "any" needs a model with an orientation head (meta.json upright.orientation); this one has none: read with view "side" or "overhead", or refit it with npm run train -- --from-weights');
    return classifier.orientation;
  };

  /** Each die's up were the camera overhead (null near the frame's centre). */
  const upsIn = (boxes: Box[], frame: { width: number; height: number }) => boxes.map((b) => overheadUp(b, frame.width, frame.height));

  /** Dice of one frame share one camera: each die's upright weights revised by the other dice's (frame-up.ts). */
  const judgedTogether = (weights: Float64Array[], boxes: Box[], frame: { width: number; height: number }, earlier?: ArrayLike<number>): Float64Array[] =>
    frameUp === false ? weights : frameUprightWeights(weights, upsIn(boxes, frame), frameUp, earlier);

  /**
   * View 'any' for an upright model: every die read in its four quarter turns, by every scorer,
   * and the four readings mixed with the weight the orientation head gives each turn (how upright
   * the shipped net's embedding of that turn looks), then sharpened by the head's temperature
   * (orientation.ts). A die still in doubt is read once more, closer (as a second look frames
   * it), in the turns that carry weight; a picture of one die (no frame) also moved sideways
   * both ways in each of those turns, since it has the time a 25-dice frame has not.
   */
  const readAnyWay = (
    framed: RgbImage[],
    boxes: Box[],
    opts: ReadOptions,
    mask: boolean[],
    scorers: TurnScorer[],
    probabilitiesOf: (read: { logits: Float32Array; embedding: Float32Array }[]) => Float64Array,
    frame: { width: number; height: number } | undefined,
    upright: Float64Array[] | undefined,
    lookBelow: number,
  ): { probs: Float64Array[]; views: number[]; weights: Float64Array[] } => {
    const head = orientationOf();
    const turns = [0, 1, 2, 3];
    // [scorer][turn]; the head reads the shipped net's embeddings, the first scorer's when it is the shipped net.
    const byScorer: CropScores[][] = scorers.map((scorer) => scorer.scoreEachTurn(framed, turns));
    // Weights from the first read only: the second look below averages the scores in place.
    const judged = (): Float64Array[] => {
      const shipped = scorers[0] === classifier ? byScorer[0]! : classifier.scoreEachTurn(framed, turns);
      const ownWeights = framed.map((_, i) => uprightWeights(head, shipped.map((s) => s.embeddings[i]!)));
      if (frame && opts.onCameraEvidence && framed.length >= 2) {
        opts.onCameraEvidence({ logLikelihood: cameraEvidence(ownWeights, upsIn(boxes, frame)), dice: framed.length });
      }
      if (frame) return judgedTogether(ownWeights, boxes, frame, opts.cameraPrior);
      // Pictures of one die are not one camera's unless told (the taught pictures' camera): each judged alone against it.
      const prior = opts.cameraPrior;
      return prior && frameUp !== false ? ownWeights.map((w) => frameUprightWeights([w], [null], frameUp, prior)[0]!) : ownWeights;
    };
    const firstWeights = upright ?? judged();
    const upKnown = !frame && opts.cameraPrior && frameUp !== false ? sharedUpCertainty(opts.cameraPrior, frameUp) : 0;
    const weightsOf = (i: number) => firstWeights[i]!;
    /** The turns a second look reads die i in. */
    const lookTurns = (i: number) => {
      const w = weightsOf(i);
      const top = argmax(w);
      return turns.filter((t) => t === top || w[t]! >= SECOND_LOOK_MIN_WEIGHT);
    };
    const readDie = (i: number): Float64Array => {
      const byTurn = turns.map((t) => probabilitiesOf(byScorer.map((reads) => ({ logits: reads[t]!.logits[i]!, embedding: reads[t]!.embeddings[i]! }))));
      // The head's temperature sharpens what mixing its turns flattened. A picture read against
      // the taught pictures' camera is sharpened only in the measure that its up is still not
      // known: one sure of a shared up reads as view side reads, at the net's own temperature
      // (sharpened fully, eval:dice's calibrated crops read 1 misread of 121 unmarked, 6 marked).
      const temperature = Math.pow(head.temperature ?? 1, 1 - upKnown);
      return mixTurns(byTurn, weightsOf(i), mask, temperature);
    };
    const probs = framed.map((_, i) => readDie(i));
    const again = framed.map((_, i) => i).filter((i) => bestFace(probs[i]!, opts.sets).confidence < lookBelow);
    // The second look reads a doubtful die closer in the turns that carry weight (the upright
    // one, and others only while the head is unsure), each turn's scores averaged with the first
    // read's; the weights stay the first read's. A picture of one die is also read moved.
    const extra = extraFor(opts.sets, 'any', frame === undefined);
    const per = SECOND_LOOK_CROPS[extra];
    for (const t of turns) {
      const dice = again.filter((i) => lookTurns(i).includes(t));
      if (dice.length === 0) continue;
      // Moved along the picture's width once the crop is turned by t.
      const looks = dice.flatMap((i) => secondLookCrops(framed[i]!, SECOND_LOOK_ZOOM, extra, t % 2 === 0 ? 'x' : 'y'));
      scorers.forEach((scorer, j) => {
        const [look] = scorer.scoreEachTurn(looks, [t]);
        const reads = byScorer[j]![t]!;
        // The first read and the second look's views, each weighing the same.
        dice.forEach((i, k) => {
          reads.logits[i] = averageIn(reads.logits[i]!, look!.logits, k * per, per, 1 / (1 + per));
          reads.embeddings[i] = averageIn(reads.embeddings[i]!, look!.embeddings, k * per, per, 1 / (1 + per));
        });
      });
    }
    for (const i of again) probs[i] = readDie(i);
    const looked = new Map(again.map((i) => [i, lookTurns(i).length * per]));
    return { probs, views: framed.map((_, i) => 4 + (looked.get(i) ?? 0)), weights: firstWeights };
  };

  /** A die's reading from its probabilities over all classes (masked to the sets in play). */
  const describe = (probs: Float64Array, box: Box, opts: ReadOptions, views: number): DetailedReading => {
    const best = bestFace(probs, opts.sets);
    // With several sets in play and a game's roll to fit (fit-roll.ts), the die as each of them.
    const bySet = opts.expect && opts.sets.length > 1 ? opts.sets.map((set) => readAsSet(probs, set)) : undefined;
    const probabilities = bySet?.find((r) => r.set === best.set)!.probabilities ?? probabilitiesIn(probs, best.set);
    return { set: best.set, face: best.face, confidence: best.confidence, box, uncertain: best.confidence < uncertainBelow, probabilities, views, ...(bySet ? { bySet } : {}) };
  };

  /**
   * A frame's dice fitted to the sets of the roll the game asks for (fit-roll.ts). Not where its
   * slots tell dice apart by colour: which box of a surplus to leave out depends on colours this
   * fit does not weigh, so a person sees every box.
   */
  const fitRoll = (readings: DetailedReading[], expect: ReadOptions['expect']): DetailedReading[] =>
    expect && !expect.slots.some((s) => s.color) ? fitToSlots(readings, expect.slots, uncertainBelow).dice : readings;

  /**
   * The quarter turn of each framed die that the orientation head finds most upright (0 unless
   * the view is 'any'), the dice of one frame judged together when its size and boxes are given.
   */
  const uprightTurns = (crops: RgbImage[], view: CameraView | undefined, frame?: { width: number; height: number; boxes: Box[] }): number[] => {
    if (view !== 'any' || !classifier.upright || crops.length === 0) return crops.map(() => 0);
    const own = headWeights(crops);
    const weights = frame ? judgedTogether(own, frame.boxes, frame) : own;
    return weights.map(argmax);
  };

  /** How upright the orientation head finds each crop's four quarter turns, alone (the shipped net's embeddings). */
  const headWeights = (crops: RgbImage[]): Float64Array[] => {
    const head = orientationOf();
    const byTurn = classifier.scoreEachTurn(crops, [0, 1, 2, 3]);
    return crops.map((_, i) => uprightWeights(head, byTurn.map((s) => s.embeddings[i]!)));
  };

  /**
   * A die of a frame framed for the classifier: an upright model reads it with its top up. It is
   * framed as loosely as the model was trained (`locatedFraming`): the located box fits the die,
   * and framed at the tight end of its training framing the net read eval:dice's rendered side
   * trays at 79.8 % (view any) against 86.1 % (docs/notes/vision-model.md, "Framing located dice").
   */
  const frameDie = (image: RgbImage, box: Box, view: CameraView = 'side'): RgbImage =>
    classifier.upright
      ? uprightCrop(image, box, upAngle(box, image.width, image.height, view), { scale: locatedScale })
      : squareCrop(image, box, { scale: locatedScale });

  /**
   * The dice `locateDice` finds with these options, each read. `second`: the frame read a second
   * way, after `first` against the empty tray `tray`. Then a die must be where the frame differs
   * from the empty tray: inside a box of the first reading, or a box most of which differs from
   * it (a printed cloth's blot, which the modelled tray takes for a die and reads at 0.9 with all
   * six sets in play, does not differ from the cloth at all). And a die whose box is nearly one
   * of the first reading's (IoU ≥ SAME_BOX: the same crop, give or take a pixel) takes that
   * reading instead of being read again, so the second way pays only for the dice it sees otherwise.
   */
  const readLocated = (image: RgbImage, locate: LocateOptions, opts: ReadOptions, colours: FrameColours | undefined, second?: { first: readonly DetailedReading[]; tray: TrayReference }): DetailedReading[] => {
    let located = locateDice(image, locate);
    const first = second?.first ?? [];
    if (second) {
      const outside = located.filter((d) => !first.some((k) => intersection(d.box, k.box) >= WITHIN_SHARE * boxArea(d.box)));
      const shares = differingShares(image, second.tray, outside.map((d) => d.box), locate.maxSide ?? 640);
      const nothingThere = new Set(outside.filter((_, i) => !(shares && shares[i]! >= DIFFERING_SHARE)));
      located = located.filter((d) => !nothingThere.has(d));
    }
    const boxes = located.map((d) => d.box);
    const same = boxes.map((b) => first.find((k) => overlap(k.box, b) >= SAME_BOX));
    const todo = boxes.flatMap((_, i) => (same[i] ? [] : [i]));
    // The colour look: a picture's dice, or a frame's while it holds few enough dice (ReadOptions).
    const look = opts.picture === true || (opts.colourLookUpTo !== undefined && boxes.length <= opts.colourLookUpTo);
    // The dice's colours while the other reading threads read them (forward-pool.ts `meanwhile`):
    // the dice read here (a die that takes the first reading's may yet be named from a box of its
    // own: `nameColours` measures what is missing). On one thread nothing is gained ahead, and
    // colours measured for a reading the modelled tray's may replace would be lost: named after.
    const coloured = colours && classifier.threads > 1 ? classifier.meanwhile(() => colours.measure(todo.map((i) => boxes[i]!))) : undefined;
    let fresh: DetailedReading[];
    try {
      fresh = classifyFramed(todo.map((i) => frameDie(image, boxes[i]!, opts.view)), todo.map((i) => boxes[i]!), opts, image, look);
    } catch (error) {
      coloured?.cancel();
      throw error;
    }
    coloured?.finish();
    let next = 0;
    const readings = boxes.map((box, i): DetailedReading => {
      const k = same[i];
      if (!k) return fresh[next++]!;
      const { guessed: _guessed, ...reading } = k;
      return { ...reading, box, uncertain: reading.confidence < uncertainBelow };
    });
    // A guessed box (locate/pips.ts, pieces.ts): on eval:dice's rendered trays such dice made 13 of the 20 boxes
    // on no die read without a "check", against 40 of 1,020 dice read right; the real frames'
    // dice score 0.56–0.78 (docs/notes/vision-model.md).
    readings.forEach((r, i) => {
      if (located[i]!.score > GUESSED_BOX_SCORE) return;
      r.guessed = true;
      r.uncertain = true;
    });
    return readings;
  };

  const readDetailed = async (picture: RgbImage, opts: ReadOptions): Promise<DetailedReading[]> => {
    checkOptions(opts);
    // A frame letterboxed or pillarboxed (a camera, a video pipeline or a canvas that pads to its
    // own shape) is read inside its bars: the bars' edges are no dice, and the tray's own middle
    // is the middle an overhead camera's dice turn round. Boxes are given in the frame's pixels.
    const { image, offset } = withoutFlatBars(picture);
    const locate = { ...(await locateOptions()), ...(opts.expect ? { expectedDice: opts.expect.slots.length } : {}), ...(opts.picture ? { lookCloserWhenNone: true } : {}) };
    const colours = opts.palette && opts.palette.length > 0 ? new FrameColours(image, opts.palette) : undefined;
    let readings: DetailedReading[];
    if (!opts.tray) readings = fitRoll(readLocated(image, locate, opts, colours), opts.expect);
    else {
      let fitted = false;
      const onTray = (fit: TrayFit) => {
        fitted = fit.used;
        opts.onTray?.(fit);
      };
      // Small dice may be found closer, against the empty tray at twice the size (locate.ts).
      let closer: TrayReference | undefined;
      readings = fitRoll(readLocated(image, { ...locate, tray: opts.tray, onTray, onLookedCloser: (tray) => (closer = tray) }, opts, colours), opts.expect);
      // Not on a tray the modelled locator sees dice in when it is empty (a busy printed cloth): on
      // eval:dice-like trays on printed cloths it chose the modelled reading wrongly there
      // (docs/notes/vision-locate.md, "A busy cloth's modelled reading").
      if (fitted && opts.modelledToo !== false && !opts.tray.modelledSees) {
        // The tray modelled at the size the dice were found at, so both readings see them alike.
        const at = closer ? { locate: { ...locate, maxSide: closer.maxSide, lookCloser: false }, tray: closer } : { locate, tray: opts.tray };
        const modelled = fitRoll(readLocated(image, at.locate, opts, colours, { first: readings, tray: at.tray }), opts.expect);
        if (trayReadingScore(modelled) > trayReadingScore(readings)) readings = modelled;
      }
    }
    if (colours) nameColours(colours, readings, opts.expect);
    if (offset[0] !== 0 || offset[1] !== 0) for (const r of readings) r.box = shiftBox(r.box, offset);
    return readings;
  };

  /**
   * Pictures of one die. Where the set's taught pictures share an up (`pictureCamera`) and the
   * caller gave no camera of its own, each is read against that camera, and read once more as if
   * nothing were known of it: a die is left unmarked only where both readings name its face
   * surely. (Against the camera alone, eval:teaching's 3,152 reads after calibrating left 23 dice
   * misread unmarked, against 2 before and with this: docs/notes/vision-model.md, "The taught
   * pictures' up".)
   */
  const readCropsDetailed = async (crops: RgbImage[], given: ReadOptions): Promise<Omit<DetailedReading, 'box'>[]> => {
    checkOptions(given);
    const taughtCamera = given.cameraPrior ? undefined : pictureCamera(given.sets);
    // Framed once (a picture's die is located in it), read once or twice.
    const locate = framing === 'locate' ? await locateOptions() : {};
    const framed = crops.map((c) => frameDieImage(c, framing, locate, { scale: locatedScale }));
    // A picture that shows several whole dice is read, but not as sure (several-dice.ts): what
    // the framing's locator found is counted, not looked for again.
    const several = (readings: Omit<DetailedReading, 'box'>[]) => readings.map((r, i) => {
      const found = framed[i]!.found;
      return found ? readAsOneOfSeveral(r, wholeDiceIn(found)) : r;
    });
    if (!taughtCamera) return several(readPictures(crops, framed, given));
    const against = readPictures(crops, framed, { ...given, cameraPrior: taughtCamera });
    const unknown = readPictures(crops, framed, given);
    return several(against.map((r, i) => (r.uncertain || (!unknown[i]!.uncertain && unknown[i]!.face === r.face) ? r : { ...r, uncertain: true })));
  };

  /** Pictures of one die framed (`frameDieImage`), read in each of their framings, the surer kept. */
  const readPictures = (crops: RgbImage[], framed: Framed[], opts: ReadOptions): Omit<DetailedReading, 'box'>[] => {
    const readings = classifyFramed(framed.map((f) => f.crop), framed.map((f) => f.box), opts, undefined, true);
    // Another framing of some pictures, read too; its reading replaces the first where it is surer
    // by `margin`. Applied in this order, each against the reading in force.
    const readAlso = (other: (f: Framed) => { crop: RgbImage; box: Box } | undefined, margin: number) => {
      const which = framed.flatMap((f, i) => (other(f) ? [i] : []));
      if (which.length === 0) return;
      const parts = which.map((i) => other(framed[i]!)!);
      const again = classifyFramed(parts.map((p) => p.crop), parts.map((p) => p.box), opts, undefined, true);
      which.forEach((i, k) => {
        if (again[k]!.confidence > readings[i]!.confidence + margin) readings[i] = again[k]!;
      });
    };
    // A picture framed whole with a smaller die at its centre is read that way too, and the surer
    // reading kept: a very loose picture's die, or a close one's big pip (framing.ts).
    readAlso((f) => f.smaller, 0);
    // A picture in which no die was found is read framed on its central square too, and that
    // reading kept when clearly surer: a picture cut tight round its die (framing.ts).
    if (options.cropSquare !== false) readAlso((f) => f.tight, SQUARE_SURER_BY);
    // A picture whose filled corners were painted over is read as it came too; that reading is
    // kept only when clearly surer (a tight crop of a turned die on a blown-out background).
    readAlso((f) => f.unpainted, AS_IS_SURER_BY);
    return readings.map((r, i) => {
      const { box, ...rest } = r;
      if (opts.palette && opts.palette.length > 0 && !hueUnseen(crops[i]!, opts.palette)) rest.color = dieColor(crops[i]!, box, opts.palette);
      return rest;
    });
  };

  /**
   * What the taught pictures of one die of the sets in play said about their camera, where they
   * share an up (`Calibration.pictures`; summed over the sets' calibrations in force); undefined
   * where none was found, and pictures are read as if nothing were taught about their camera.
   */
  const pictureCamera = (sets: readonly DiceSetId[]): Float64Array | undefined => {
    const told = sets.flatMap((s) => {
      const pictures = calibrations.inForce(s)?.pictures;
      return pictures && pictures.up !== null ? [pictures] : [];
    });
    if (told.length === 0) return undefined;
    const sum = new Float64Array(CAMERA_HYPOTHESES.length);
    for (const { camera } of told) camera.forEach((v, h) => (sum[h]! += v));
    return sum;
  };

  /** A taught die framed as `read` frames it (calibrations.ts learns from it). */
  const frameTaught: FrameTaught = async (picture, pictureBox, view, pictureOthers) => {
    // A frame is taught inside its flat bars, as it is read (a picture of one die: frameDieImage).
    const { image, offset } = pictureBox ? withoutFlatBars(picture) : { image: picture, offset: [0, 0] as [number, number] };
    const box = pictureBox && shiftBox(pictureBox, offset, -1);
    const others = pictureOthers?.map((b) => shiftBox(b, offset, -1));
    const framedCrop = box ? frameDie(image, box, view) : frameDieImage(image, framing, framing === 'locate' ? await locateOptions() : {}, { scale: locatedScale }, { count: false }).crop;
    // Taught crops are upright (an upright model adapts on them unturned): a die read in view
    // 'any' is taught in the turn the orientation head finds upright. A picture of one die given
    // without a view is taught in the up the set's pictures taught so share, where they share one:
    // the commit judges them together (calibrations.ts, `pictureUp`), from these weights.
    if (!box && view === undefined && classifier.upright && classifier.orientation) return { crop: framedCrop, upWeights: headWeights([framedCrop])[0]! };
    // The frame's other dice, without the die's own box if it was passed among them.
    const rest = view === 'any' && box && others ? others.filter((b) => b.some((v, k) => v !== box[k])) : [];
    const crops = [framedCrop, ...rest.map((b) => frameDie(image, b, view))];
    const [turn] = uprightTurns(crops, view, box ? { width: image.width, height: image.height, boxes: [box, ...rest] } : undefined);
    return { crop: turnSquare(framedCrop, turn!) };
  };
  const calibrations = await Calibrations.open({
    classifier,
    modelId,
    ...(options.calibrationDir ? { dir: options.calibrationDir } : {}),
    ...(options.calibrate ? { calibrate: options.calibrate } : {}),
    ...(options.adapt ? { adapt: options.adapt } : {}),
    ...(options.pendingPerFace !== undefined ? { pendingPerFace: options.pendingPerFace } : {}),
    frameTaught,
    readLabels: (set, pictures, prior) => {
      const read = classifyFramed(pictures.map((p) => p.crop), pictures.map((): Box => [0, 0, 64, 64]), { sets: [set], view: 'any', ...(prior ? { cameraPrior: prior } : {}) }, undefined, true);
      return read.reduce((sum, r, i) => sum + Math.log(Math.max(1e-9, r.probabilities[pictures[i]!.face] ?? 0)), 0);
    },
  });

  return {
    backend: classifier.backend.name,
    modelId,
    views: classifier.views,
    upright: classifier.upright,
    uncertainBelow,
    secondLookBelow,
    calibration: calibrations.control,
    classifyFramed: (framed, boxes, opts) => classifyFramed(framed, boxes, opts),
    uprightTurns: (image, boxes, view) => uprightTurns(boxes.map((b) => frameDie(image, b, view)), view, { width: image.width, height: image.height, boxes }),
    readDetailed,
    readCropsDetailed,
    learnTray: (picture) => learnEmptyTray(picture, options.locate?.maxSide),
    get threads() {
      return classifier.threads;
    },
    threadsReady: classifier.threadsReady,
    read: async (image, opts) => (await readDetailed(image, opts)).map(stripProbabilities),
    readCrops: async (crops, opts) => (await readCropsDetailed(crops, opts)).map(stripProbabilities),
    dispose: () => {
      calibrations.dispose();
      classifier.dispose();
      detector?.dispose();
    },
  };
}

/**
 * How sure a frame's reading is as a whole, to choose between the frame read against the empty
 * tray and read with the tray modelled (`ReadOptions.modelledToo`): each die counts its
 * confidence over TRAY_READING_BAR, and a die marked "check" (unsure, or its box guessed) counts
 * TRAY_READING_CHECK less. So a reading gains by dice read surely and loses by doubtful boxes,
 * which are mostly boxes on no die or clumps of two dice.
 *
 * Why both. Against the empty tray the locator finds more dice on most tables (eval:dice's
 * overhead trays 90.0 % read right against 81.6 %, patterned cloths far more), but under a broad
 * light it takes each die's soft shadow in and joins touching dice into clumps (67.1 % against
 * 69.9 %), where the modelled tray, blind to such soft shading, splits them. Neither is better on
 * every frame; read both ways, the surer reading was the right one often enough to beat both
 * (docs/notes/vision-locate.md, "The empty tray, and the tray modelled too").
 */
export function trayReadingScore(readings: readonly { confidence: number; uncertain?: boolean }[]): number {
  let score = 0;
  for (const r of readings) score += r.confidence - TRAY_READING_BAR - (r.uncertain ? TRAY_READING_CHECK : 0);
  return score;
}
/**
 * A box read the second way lies at least this share inside a box of the first reading, or this
 * share of it differs from the empty tray. On rendered trays (side and broad light, 40 each, and
 * 8 printed cloths), the modelled boxes outside the first reading's that were dice differed over
 * 0.65–0.93 of their box but for two (0.15, 0.40); those on no die from 0 up.
 */
const WITHIN_SHARE = 0.5;
const DIFFERING_SHARE = 0.5;
/** Boxes this alike (IoU) frame the same die alike: its reading is not made twice. */
const SAME_BOX = 0.9;
const TRAY_READING_BAR = 0.5;
const TRAY_READING_CHECK = 0.3;
/**
 * Naming distance within which a rival die is as near a slot's colour as the die the colour fit
 * chose: both are marked. On 127 rendered Worm & Cozy rolls of three d6 the fit changed 36; the
 * one it got wrong had a rival at 0, the right ones 2.2, 4.6, then 17 and more.
 */
const COLOUR_MARGIN = 8;

function stripProbabilities<T extends { probabilities: Record<string, number>; bySet?: SetReading[] }>(r: T): Omit<T, 'probabilities' | 'bySet'> {
  const { probabilities: _, bySet: _bySet, ...rest } = r;
  return rest;
}

/**
 * A frame's dice colours, measured once a box: while its dice are read where there are reading
 * threads (a 25-dice frame's colours took about 7 ms after the net, while the other thread
 * waited), and named after. The same numbers as measured after the reading.
 */
class FrameColours {
  private grey: boolean | undefined;
  private readonly bodies = new Map<string, Lab>();
  constructor(readonly image: RgbImage, readonly palette: string[]) {}
  /** Whether the frame is grey while the palette has hues (`hueUnseen`). */
  hueUnseen(): boolean {
    return (this.grey ??= hueUnseen(this.image, this.palette));
  }
  /** The die body's white-balanced colour in `box` (`bodyColour`). */
  body(box: Box): Lab {
    const key = box.join(',');
    let lab = this.bodies.get(key);
    if (!lab) this.bodies.set(key, (lab = bodyColour(this.image, box)));
    return lab;
  }
  /** Measures the boxes' colours ahead of naming them; nothing where none will be named. */
  measure(boxes: readonly Box[]): void {
    if (this.palette.length === 1 || this.hueUnseen()) return;
    for (const box of boxes) this.body(box);
  }
}

/**
 * Each die's colour from the palette: one by one, or, where the game's slots name colours and as
 * many dice were read as it asks for, fitted to them (`fitColours`); a die whose colour that fit
 * settled against a near rival is marked "check". None in a grey picture whose palette has hues
 * (`hueUnseen`).
 */
function nameColours(colours: FrameColours, readings: DieReading[], expect: RollExpectation | undefined): void {
  const { palette } = colours;
  if (colours.hueUnseen()) return;
  if (palette.length === 1 || !expect) {
    for (const r of readings) r.color = palette.length === 1 ? dieColor(colours.image, r.box, palette) : nearestColor(colours.body(r.box), palette);
    return;
  }
  const bodies = readings.map((r) => colours.body(r.box));
  const fit = fitColours(bodies, expect.slots, palette, COLOUR_MARGIN);
  readings.forEach((r, i) => {
    r.color = fit ? fit.colors[i]! : nearestColor(bodies[i]!, palette);
    if (fit?.doubtful[i]) r.uncertain = true;
  });
}

/** Every GREY_SAMPLE_STEP-th pixel is looked at to tell a grey picture (a 12 MP photo: 1.7 million). */
const GREY_SAMPLE_STEP = 7;

/**
 * Whether the picture is grey (a monochrome camera, a webcam's black-and-white mode) while the
 * palette holds colours with a hue: a die's colour is then left out, since a guess by lightness
 * would name a red die black or an ivory one white. The face is still read, and marked only for
 * its own doubt; a game that needs the colour says so ("some die colours are unknown: confirm
 * them", "die 1 has no colour; the colour says whose bid it is").
 */
function hueUnseen(image: RgbImage, palette: readonly string[]): boolean {
  return palette.length > 1 && palette.some(hasHue) && isGreyImage(image, GREY_SAMPLE_STEP);
}

/** Every face's probability of one set, from the probabilities over all classes. */
function probabilitiesIn(probs: Float64Array, set: DiceSetId): Record<string, number> {
  const out: Record<string, number> = {};
  for (const face of DICE_SETS[set].faces) out[face] = probs[FACE_CLASSES.indexOf(classOf(set, face))]!;
  return out;
}

/** A die read as one set: that set's likeliest face. */
function readAsSet(probs: Float64Array, set: DiceSetId): SetReading {
  const probabilities = probabilitiesIn(probs, set);
  let face = DICE_SETS[set].faces[0]!;
  for (const f of DICE_SETS[set].faces) if (probabilities[f]! > probabilities[face]!) face = f;
  return { set, face, confidence: probabilities[face]!, probabilities };
}

