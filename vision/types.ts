/**
 * The vision port: what the rest of clew may know about reading dice. Only `vision/` imports
 * TensorFlow.js; everything else sees these types.
 */
import type { DiceSetId } from '../shared/dice.js';
import type { TrayFit, TrayReference } from './locate/tray-reference.js';

/** The dice a game asks for: its DiceRequest's slots, one die each (shared/game.ts). */
export interface RollExpectation {
  /** Each die's set, and its colour where the game tells that die by it (a name of the palette). */
  slots: readonly { readonly set: DiceSetId; readonly color?: string }[];
}

/** Interleaved 8-bit RGB pixels, row-major, `data.length === width * height * 3`. */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export type Box = [x0: number, y0: number, x1: number, y1: number];

/**
 * How a camera looks at the tray: from 'side' (a photo, a webcam on a stand: a die's side faces
 * show below its top face), from 'overhead' (straight down: side faces show towards the frame's
 * centre), or 'any': not known (a picture from elsewhere, perhaps turned), so each die is read in
 * its four quarter turns, weighted by how upright each looks (vision/model/orientation.ts).
 */
/** The locator's working sizes a user may set (`LocateOptions.maxSide`: the config's `vision.workingSize`, `npm run dice -- --working-size`). */
export const WORKING_SIZE_RANGE = { min: 160, max: 4096 } as const;

export const CAMERA_VIEWS = ['any', 'side', 'overhead'] as const;
export type CameraView = (typeof CAMERA_VIEWS)[number];

export interface DieReading {
  set: DiceSetId;
  /** The set's face label ("4", "worm", "null", "X", "L", "eye"). */
  face: string;
  /** Calibrated probability that `face` is right, 0..1. */
  confidence: number;
  box: Box;
  /** Nearest named colour of the palette in play, when a palette was given. */
  color?: string;
  /** Low confidence, unstable across frames, or its box guessed: a person should confirm it. */
  uncertain: boolean;
  /**
   * The locator guessed this die's box rather than saw its outline (from its pips, its shaded
   * sides' hull, a drawn-out region, or a region barely die-shaped); such a die is uncertain
   * however sure its face's reading.
   */
  guessed?: boolean;
  /**
   * A picture read as one die (`readCrops`, framing 'locate') that shows this many whole dice (two
   * or more): the reading is kept but marked uncertain, its confidence at most 1 / this
   * (vision/image/several-dice.ts). Absent otherwise.
   */
  diceInPicture?: number;
}

export interface ReadOptions {
  /** Dice sets that may appear; the classifier is masked to their faces. */
  sets: DiceSetId[];
  /** Named colours (keys of DIE_COLORS) the dice in play may have. */
  palette?: string[];
  /**
   * How the camera looks at the tray (default 'side', as photos are taken): from 'overhead' a
   * die's side faces show towards the frame's centre, and an upright model reads each die of a
   * frame turned so that its top points up (vision/image/upright.ts); 'any' (frames and crops)
   * reads each die in four quarter turns weighted by how upright each looks. A model that is not
   * upright reads every view alike.
   */
  view?: CameraView;
  /**
   * The empty tray as this camera sees it (`ClewDiceReader.learnTray`): a frame of its size is
   * compared with it pixel by pixel to find the dice (a patterned cloth, a plank's knots and a
   * lamp's hot spot are then the tray), unless most of the frame differs from it (the camera
   * moved). Frames only; pictures of one die ignore it.
   */
  tray?: TrayReference;
  /**
   * The image is a still picture (a photo, an upload), not a tray camera's frame: where it is
   * much larger than the locator's working size and nothing die-like was found, it is looked at
   * again closer (`LocateOptions.lookCloserWhenNone`). Not for a stream: it would look again at
   * every empty tray. Frames only.
   */
  picture?: boolean;
  /**
   * Whether a die still in doubt after its views (under the reader's check mark) is read again
   * with its colour channels turned round (RGB as GBR and BRG) and the three readings averaged:
   * what a die shows does not depend on its colours, and the net reads some colours worse than
   * others (docs/notes/vision-model.md, "The colour look"). Default: on for pictures and pictures
   * of one die (`picture`, `readCrops`); on a tray camera's frame as `colourLookUpTo` says, else
   * off, since a frame's 25 dice must be read in 60 ms.
   */
  colourLook?: boolean;
  /**
   * A frame, where `colourLook` is not given: its dice in doubt get the colour look when it holds
   * at most this many dice (the companion's `vision.colourLook` "auto": 8, the most dice any of
   * clew's games rolls; a frame of 8 hard rendered dice took 56.5 ms on two threads with it,
   * 44.7 ms without).
   */
  colourLookUpTo?: number;
  /** Told, for each frame read with a `tray`, whether it fitted (say when the camera moved). */
  onTray?: (fit: TrayFit) => void;
  /**
   * With a `tray` the frame fits, also read the frame with the tray modelled and keep the surer
   * of the two readings (default true; `trayReadingScore` in reader.ts says which). False reads
   * against the empty tray only, in about half the time. Never where the locator found dice in
   * the empty tray itself with the tray modelled (`TrayReference.modelledSees`: a busy printed
   * cloth), whose modelled reading is not to be trusted.
   */
  modelledToo?: boolean;
  /**
   * The dice the game asks for (its DiceRequest's slots): a frame's dice are fitted to them
   * (fit-roll.ts). Slots of sets alone: the likeliest roll they allow (Worm & Cozy's one shape
   * die and two organ dice). Slots that name colours: as many dice as slots are named so that
   * each such colour is one die's (Worm & Cozy's shape d6 is the one red die). Their count also
   * tells the locator how many dice to cut a frame's clumps into where no die alone gives a
   * die's size (`LocateOptions.expectedDice`). Frames only.
   */
  expect?: RollExpectation;
  /**
   * View 'any', a frame of two or more dice: told what its dice say about the camera (the summed
   * log-likelihood of each of CAMERA_HYPOTHESES, frame-up.ts), for learning a camera's view over
   * many frames (view-learner.ts).
   */
  onCameraEvidence?: (evidence: CameraEvidence) => void;
  /**
   * View 'any', a frame: what earlier frames of the same camera said about it (the summed
   * log-likelihoods `onCameraEvidence` gave, as the view learner holds them). The frame's dice
   * are judged with it as with more dice of the frame (frame-up.ts), so a camera whose view is
   * still being learnt reads nearer its view as the evidence grows. Not used for the evidence
   * the frame itself gives.
   */
  cameraPrior?: ArrayLike<number>;
}

/** What one frame's dice say about the camera (`ReadOptions.onCameraEvidence`). */
export interface CameraEvidence {
  /** Summed log-likelihood of each of CAMERA_HYPOTHESES (frame-up.ts), in that order. */
  logLikelihood: Float64Array;
  /** The dice it came from. */
  dice: number;
}

export interface DiceReader {
  /** Locate and read every die in a frame. */
  read(image: RgbImage, options: ReadOptions): Promise<DieReading[]>;
  /** Read images that each hold exactly one die (already cropped). */
  readCrops(crops: RgbImage[], options: ReadOptions): Promise<Omit<DieReading, 'box'>[]>;
  /** The tfjs backend in use ('wasm', 'tensorflow', 'cpu'). */
  readonly backend: string;
  dispose(): void;
}
