/**
 * `locateDice`: every die in a frame, once, as a pixel box with a score.
 *
 * Classical segmentation, at half the working size: model the tray, mark what differs from it (in
 * units of the tray's own texture) or what a closed outline encloses, clean the mask, split
 * touching dice, keep the regions shaped like a die; then measure each die's box at full working
 * size. Optionally the learned detector (detector/) adds the dice it is sure of that the
 * segmentation missed. Why this split: docs/notes/vision-locate.md (measured on real frames and
 * rendered scenes: the detector alone, trained from renders, fails on real frames).
 */
import type { Box, RgbImage } from '../types.js';
import type { DieDetector } from './detector/index.js';
import { estimateBackground, type Background } from './background.js';
import { labelRegions, type Region } from './components.js';
import { peelBorderLines } from './border-lines.js';
import { edgeEvidence, FineEvidence, trayEvidence, type EvidenceOptions } from './evidence.js';
import { applyStretch, exposureStretch, trayStretch } from './exposure.js';
import { GREY_NOISE_FLOOR, isGreyImage } from './grey.js';
import { trimShadow, type ShadowTrimOptions } from './shadow.js';
import { toLabPlanes, type LabPlanes } from './lab.js';
import { withoutColourNoise } from './chroma-noise.js';
import { clothEdges, clothPalette, FinePaletteEvidence, paletteEvidence, withLineColours, type ClothPalette } from './palette.js';
import { enclosedBy, fillHoles, hysteresis, maskScratch, open3, union, type Mask } from './mask.js';
import { buildPyramid, type Pyramid } from './pyramid.js';
import { boxArea, intersection, overlap } from './boxes.js';
import { asOneDie, cutByCount, dieSizeFromHulls, dieSizeOf, hullPiece, interiorDetail, MIN_DETAIL, ONE_DIE_AREA, piecesOf, wholeRegion, type DieSize, type Limits, type Piece, type WholeRegion } from './pieces.js';
import { bodyEvidence, MIN_PIP_AREA, MIN_PIPS_BODY, pipGroupsToDice } from './pips.js';
import { outlineAround } from './outline.js';
import { refineBox, type FineContext } from './refine.js';
import { FrameScratch } from './scratch.js';
import { FineReferenceEvidence, matchTray, MAX_DIFFERING, MAX_MISALIGNED, referenceEdges, referenceEvidence, sameView, trayFit, type TrayFit, type TrayMatch, type TrayReference } from './tray-reference.js';
export type { TrayFit, TrayReference } from './tray-reference.js';

export interface LocatedDie {
  /** Pixel-edge box [x0, y0, x1, y1] in the input image's coordinates. */
  box: Box;
  /** 0..1: how die-like the region is (shape and contrast with the tray). */
  score: number;
  /**
   * Whether the face's marks were seen inside it (pips, a numeral, an icon): false for a piece
   * too small to have an inside, taken on trust (a die of 20 px or so, or a lone pip); absent
   * for the learned detector's boxes.
   */
  marked?: boolean;
  /** Inferred from a group of a face's pips whose die the mask lost: its outline was never seen. */
  fromPips?: boolean;
}

export interface LocateOptions {
  /** Frames whose longer side exceeds this are downscaled first (default 640). */
  maxSide?: number;
  /** Smallest die side to report, in input pixels (default 14). */
  minSize?: number;
  /** Largest die side to report, in input pixels (default: 0.6 × the frame's shorter side, at least 300). */
  maxSize?: number;
  /** Evidence (in tray-texture units) that starts a region / extends it (defaults 7 / 3.5). */
  seedContrast?: number;
  growContrast?: number;
  /** Edge strength (in units of the tray's own edges) that starts / extends an outline (defaults 8 / 3). */
  edgeSeed?: number;
  edgeGrow?: number;
  /** Share of a die's inside that must show edges (its face's marks); 0 turns the check off (default 0.01). */
  minDetail?: number;
  /** Also try splitting touching dice along the strong edges between them (default true). */
  edgeSplit?: boolean;
  /**
   * Also try cutting a clump as big as several of the frame's single dice into that many, and,
   * where no die gives the frame a size, a region no split explains into two or three (default true).
   */
  clumpSplit?: boolean;
  /**
   * How many dice the frame holds, where the game says (a Worm & Cozy roll: three). A frame
   * whose dice all touch has no single die to tell a clump's count by, or its clump passes for
   * one: its regions shared out among this many dice do, unless two single dice agree on a size.
   */
  expectedDice?: number;
  /** Also take a region no split explains as the die its convex hull outlines: the shaded sides round a top the colour of the tray (default true). */
  hullCompletion?: boolean;
  /** Compare with the cloth's palette where the frame shows a patterned cloth (default true). */
  patternedCloth?: boolean;
  /** Look round marks no die holds for the faint outline of their die (default true). */
  outlineLook?: boolean;
  /**
   * Look again at twice the working size where the frame is much larger than it, dice were
   * guessed from their pips and none was seen whole, as with dice shrunk too far (default true).
   */
  lookCloser?: boolean;
  /**
   * With `lookCloser`, also look again where nothing at all, or nothing die-like, was found and
   * no `tray` is given: for a still picture (a photo, an upload), never a tray camera's stream,
   * which looks at empty trays all the time (default false; `ReadOptions.picture` sets it).
   */
  lookCloserWhenNone?: boolean;
  /** Look for big dice (≥ 100 px) again at half the working size where a big region is left unexplained and few dice were found (default true). */
  bigDice?: boolean;
  /**
   * Also split the regions that touch the frame's edge, and keep the dice among them whose boxes
   * stay clear of it (default false). A picture of one die cut loosely often cuts a neighbour
   * that touches the die, and the two make one region at the picture's edge (`frameDieImage`
   * asks for this; in a tray frame it found more boxes on no die than dice).
   */
  edgeRegions?: boolean;
  /**
   * Split off the parts of a region at the frame's edge that only a thin line (a plank's groove,
   * a crack, a cable) joins to it, and treat them as regions of their own (border-lines.ts;
   * default true).
   */
  borderLines?: boolean;
  /**
   * Smooth the coarse frame's chroma where it shows colour noise, before it is compared with the
   * smooth tray model (chroma-noise.ts; default true).
   */
  chromaDenoise?: boolean;
  /** Stretch a dim or flat frame to the usual range before locating it (exposure.ts; default true). */
  stretchExposure?: boolean;
  /** Lower the lightness floor of the smooth tray model's evidence in a grey frame (grey.ts; default true). */
  greyFloor?: boolean;
  /** Take a die's soft shadow off its box (shadow.ts; default true). */
  shadowTrim?: boolean;
  /** Experiments only: the shadow trim's levels. */
  shadowOptions?: ShadowTrimOptions;
  /**
   * The learned detector (from `loadDieDetector()`), optional. With it, the classical dice are
   * kept and the detector adds the dice it is sure of that the segmentation missed (see
   * `rescueScore`); with `detectorOnly` the detector alone answers (for comparisons).
   */
  detector?: DieDetector;
  /** Detector heat a die needs to be added to the classical ones (default 0.5). */
  rescueScore?: number;
  detectorOnly?: boolean;
  /** Detector heat at or above which the detector reports a die (default: stored with the weights). */
  detectorThreshold?: number;
  /**
   * The empty tray as this camera saw it (`learnTray`, tray-reference.ts). A frame of the same
   * size is compared with it pixel by pixel instead of with a modelled tray, unless most of the
   * frame differs from it (the camera moved, the tray changed): then the tray is modelled as
   * without it.
   */
  tray?: TrayReference;
  /**
   * Told when the dice were found by a closer look against the empty tray's closer twin
   * (`TrayReference.closer`): the twin, whose `maxSide` is the working size they were found at.
   */
  onLookedCloser?: (tray: TrayReference) => void;
  /** Told, for each frame looked at with a `tray`, whether it fitted and what share of the frame differed from it. */
  onTray?: (fit: TrayFit) => void;
}

function checkImage(image: RgbImage): void {
  if (!image || typeof image !== 'object') throw new TypeError('locateDice: expected an RgbImage');
  const { width, height, data } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
    throw new RangeError(`locateDice: width and height must be non-negative integers, got ${width}×${height}`);
  }
  if (!(data instanceof Uint8Array)) throw new TypeError('locateDice: image data must be a Uint8Array');
  if (data.length !== width * height * 3) {
    throw new RangeError(`locateDice: image data has ${data.length} bytes, expected ${width}×${height}×3 = ${width * height * 3}`);
  }
}

/** The stages of the coarse die mask (exported for tests and for looking at). */
export interface DiceMasks {
  colour: Mask;
  edges: Mask;
  /** Edge strength per pixel, in units of the tray's own edges. */
  edgeStrength: Float32Array;
  /** Evidence per pixel that it is not tray, in units of the tray's own texture. */
  evidence: Float32Array;
  enclosed: Mask;
  /** The final mask: colour ∪ enclosed, holes filled, opened. */
  mask: Mask;
}

/**
 * What the frame is compared with: the smooth tray model (with its evidence floors, where not
 * the usual ones), a patterned cloth's palette, or the empty tray itself.
 */
export type TrayModel = { bg: Background; floors?: SmoothModelFloors } | { palette: ClothPalette } | { reference: TrayReference; match: TrayMatch };
/** The smooth tray model's evidence floors, where not evidence.ts's defaults. */
type SmoothModelFloors = Pick<EvidenceOptions, 'noiseFloor' | 'chromaFloor'>;

/** `scratch`: where the masks and planes are lent from (segmentDice's pass), else fresh. */
export function diceMask(lab: LabPlanes, tray: TrayModel, options: LocateOptions = {}, scratch?: FrameScratch): DiceMasks {
  const { width, height } = lab;
  const grow = options.growContrast ?? 3.5;
  const evidence = 'palette' in tray ? paletteEvidence(lab, tray.palette, {}, scratch) : 'reference' in tray ? referenceEvidence(lab, tray.reference, tray.match, scratch) : trayEvidence(lab, tray.bg, tray.floors, scratch);
  const colour = hysteresis(evidence, width, height, grow, options.seedContrast ?? 7, scratch);
  const edgeStrength = 'palette' in tray ? clothEdges(lab, tray.palette, evidence, grow, undefined, scratch) : 'reference' in tray ? referenceEdges(lab, tray.reference, evidence, undefined, scratch) : edgeEvidence(lab, tray.bg, undefined, scratch);
  const edges = hysteresis(edgeStrength, width, height, options.edgeGrow ?? 3, options.edgeSeed ?? 8, scratch);
  const enclosed = enclosedBy(edges, undefined, scratch);
  const [a, b] = maskScratch(width * height);
  const mask = open3(fillHoles(union(colour, enclosed, a), (width * height) / 8, b), scratch?.u8(width * height));
  return { colour, edges, edgeStrength, evidence, enclosed, mask };
}

export function locateDice(input: RgbImage, options: LocateOptions = {}): LocatedDie[] {
  checkImage(input);
  if (input.width < 16 || input.height < 16) return [];
  // The stretched frame and the coarse frames are lent for this call (scratch.ts): what it
  // returns holds none of them.
  const scratch = new FrameScratch();
  try {
    return locateWith(input, options, scratch);
  } finally {
    scratch.release();
  }
}

function locateWith(input: RgbImage, options: LocateOptions, scratch: FrameScratch): LocatedDie[] {
  // A dim or flat frame is located stretched to the usual range (exposure.ts); against the empty
  // tray, the tray stretched by the frame's stretch too, so the two still match.
  const { image, options: atExposure } = stretchedForLocating(input, options, scratch);
  options = atExposure;
  const pyr = buildPyramid(image, options.maxSide ?? 640, scratch);
  if (options.detector && options.detectorOnly) return detectWith(options.detector, pyr.fine, pyr.fineScale, image, options);
  const bigRegions: Box[] = [];
  // Whether the frame fitted its empty tray (a frame that does not is not looked at closer against it).
  let fitted = false;
  const segmentOptions = options.tray ? { ...options, onTray: (fit: TrayFit) => ((fitted = fit.used), options.onTray?.(fit)) } : options;
  const found = segmentDice(pyr, image, segmentOptions, options.bigDice === false ? undefined : bigRegions);
  // The second look at half size models the tray even where the empty tray was given (it has no
  // reference at that size): against the empty tray, big dice still come apart at their glare
  // and glyphs (rendered big dice with it: 40 of 64 found without the look, 47 with it).
  const { tray: _tray, onTray: _onTray, ...modelled } = options;
  const atSize = options.bigDice === false ? found : withBigDice(found, bigRegions, image, pyr, modelled, scratch);
  const classical = options.lookCloser === false ? atSize : lookCloserIfTooSmall(atSize, image, options, fitted);
  if (!options.detector) return classical;
  // Rescue: confident detector boxes that overlap no classical die (IoU < 0.3).
  const rescue = options.rescueScore ?? 0.5;
  const extra = detectWith(options.detector, pyr.fine, pyr.fineScale, image, options).filter(
    (d) => d.score >= rescue && classical.every((c) => overlap(c.box, d.box) < 0.3),
  );
  return [...classical, ...extra].sort((p, q) => q.score - p.score);
}

/**
 * The frame as it is located, and the options to locate it with: a dim or flat frame stretched to
 * the usual range (exposure.ts), and where an empty tray is given, that tray stretched by the same
 * stretch (`TrayReference.stretched`). The tray camera's empty tray was learnt as the camera gave
 * it; compared with it as it came, a dim frame's dice differ from the tray by less than the
 * comparison's fixed floors: black dice on a dark table lost over a third of their dice that way
 * (docs/notes/vision-locate.md, "Dim frames against the empty tray"). A reference that cannot be
 * stretched leaves the frame as it came, as before; one taken at another size is not used, and
 * the frame is stretched as without it.
 * The closer twin a frame may be located against is the stretched tray's; `onLookedCloser` is
 * told the unstretched one, which the caller compares the unstretched frame with.
 */
function stretchedForLocating(input: RgbImage, options: LocateOptions, scratch: FrameScratch): { image: RgbImage; options: LocateOptions } {
  if (options.stretchExposure === false) return { image: input, options };
  // A tray taken at another size is not used (compareWithTray): the frame is located as without one.
  const tray = options.tray && sameView(options.tray, input, options.maxSide ?? 640) ? options.tray : undefined;
  if (tray && !tray.stretched) return { image: input, options };
  const stretch = tray ? trayStretch(input) : exposureStretch(input);
  if (!stretch) return { image: input, options };
  const image = applyStretch(input, stretch, scratch);
  if (!tray?.stretched) return { image, options };
  const told = options.onLookedCloser, closer = tray.closer;
  return {
    image,
    options: { ...options, tray: tray.stretched(stretch), ...(told && closer ? { onLookedCloser: () => told(closer()) } : {}) },
  };
}

/** The largest working size a closer look goes to (16 times the pixels of 640). */
export const CLOSER_MAX_SIDE = 2560;
/** A die found at least this die-like counts as seen whole (below it, a shadow or a clump, mostly). */
const CLOSER_SEEN_SCORE = 0.4;
/**
 * A still picture whose dice are smaller than this at the working size (the median of the found
 * boxes' shorter sides, working-frame pixels) is looked at closer, where it is large enough; so
 * is a tray camera's frame, against its empty tray's closer twin (`TrayReference.closer`).
 * eval:dice's rendered 1920×1080 pictures of 8 d6 of 24–50 px: 152 → 227 of 320 dice found.
 * Chosen on other seeds (before CLOSER_SAME_DICE): under 20 / 24 / 28 px, 220 / 240 / 247 of 320
 * found against 143, with 40 / 48 / 50 boxes on no die against 36, and 28 lost 1280×960
 * pictures' dice of 24–48 px from one side that 24 finds; dice of 48–96 px there, and the real
 * frames at every size, lose nothing (docs/notes/vision-locate.md, "Small dice in large pictures").
 */
const CLOSER_SMALL_SIDE = 24;
/**
 * A closer look at dice already seen whole is kept only where the dice it sees whole are at least
 * this share of their size there (median shorter sides, in the frame's pixels): much smaller ones
 * are pieces of dice, a clump on a camouflage cloth cut into its pips at the larger size. On eval:dice's 1280×960
 * pictures it took 26 boxes on no die out of one picture and lost no die; on its 1920×1080 ones it
 * lost 3 of 230 dice found and 3 boxes on no die; on other seeds 1 of 960 dice and 2 boxes.
 */
const CLOSER_SAME_DICE = 0.7;

/**
 * A frame much larger than the working size where dice were guessed from their pips and none was
 * seen whole (the rest barely die-like: dice shrunk to a few pixels show little but their pips),
 * or a still picture whose dice are small there (CLOSER_SMALL_SIDE), is located again at twice
 * the working size, and again while most of what it finds is still so (or still small), up to
 * CLOSER_MAX_SIDE or the frame's own size. A closer look is taken where it saw more
 * dice whole. A 1920×1080 picture whose dice are 40 px across had them at 13 px at 640 and found
 * none of 8 (only boxes guessed round their pips); at 1280 all 8 (docs/notes/vision-locate.md,
 * "Frames of other sizes"). Where nothing die-like was found at all, only a still picture with
 * no empty tray is looked at again (`lookCloserWhenNone`): a tray camera's stream would look again
 * at every empty tray, at a size whose texture the locator's levels were not set for. The tray's
 * empty picture is left out of those closer looks: it was learnt at the working size. A tray
 * camera's frame whose dice are small is looked at once more against the empty tray learnt at
 * twice the size (`TrayReference.closer`), and that look kept where the frame fits it and it sees
 * at least as many dice whole: on the Pi's 1280×960 frames with dice of 24–48 px, 257 → 276 of 319
 * found (eval:dice).
 */
function lookCloserIfTooSmall(found: LocatedDie[], image: RgbImage, options: LocateOptions, fitted: boolean): LocatedDie[] {
  const seenWhole = (dice: readonly LocatedDie[]) => dice.filter((d) => !d.fromPips && d.score >= CLOSER_SEEN_SCORE);
  const seen = (dice: readonly LocatedDie[]) => seenWhole(dice).length;
  const picture = options.lookCloserWhenNone === true && !options.tray;
  const long = Math.max(image.width, image.height);
  /** Whether the dice are small at working size `size` (none found: not small). */
  const smallAt = (dice: readonly LocatedDie[], size: number) => medianSide(dice) * (Math.min(size, long) / long) < CLOSER_SMALL_SIDE;
  const small = (dice: readonly LocatedDie[], size: number) => picture && smallAt(dice, size);
  const start = options.maxSide ?? 640;
  const closerTray = options.tray?.closer;
  if (closerTray && fitted && smallAt(found, start)) {
    // A tray camera's frame whose dice are small: once more at twice the size, against the empty
    // tray learnt at that size, kept where the frame fits that tray and it sees at least as many
    // dice whole (it sees small dice better, and the empty tray keeps the table's texture out).
    const tray = closerTray();
    let fits = false;
    const { detector: _detector, onTray: _onTray, onLookedCloser: _onLookedCloser, ...rest } = options;
    const closer = locateDice(image, { ...rest, tray, maxSide: tray.maxSide, lookCloser: false, onTray: (fit) => (fits = fit.used) });
    if (fits && seen(closer) >= seen(found)) {
      options.onLookedCloser?.(tray);
      return closer;
    }
  }
  if (!small(found, start) && (seen(found) > 0 || !(picture || found.some((d) => d.fromPips)))) return found;
  // The learned detector's rescue, if any, is added once, by the caller, at the working size.
  const { detector: _detector, tray: _tray, onTray: _onTray, ...classical } = options;
  let best = found;
  let size = start;
  while ((seen(best) <= best.length / 2 || small(best, size)) && long >= 1.5 * size && size < CLOSER_MAX_SIDE) {
    size = Math.min(2 * size, long, CLOSER_MAX_SIDE);
    const closer = locateDice(image, { ...classical, maxSide: size, lookCloser: false });
    if (seen(closer) > seen(best) && (seen(best) === 0 || medianSide(seenWhole(closer)) >= CLOSER_SAME_DICE * medianSide(seenWhole(best)))) best = closer;
  }
  return best;
}

/** The median of the dice's shorter box sides, in the frame's pixels (Infinity for none). */
function medianSide(dice: readonly LocatedDie[]): number {
  if (dice.length === 0) return Infinity;
  const sides = dice.map((d) => Math.min(d.box[2] - d.box[0], d.box[3] - d.box[1])).sort((a, b) => a - b);
  return sides[sides.length >> 1]!;
}

/**
 * Lines up to twice this wide (coarse pixels) that join a region to the frame's edge are cut off
 * it (border-lines.ts): a plank's groove in the mask is 1–3 coarse pixels wide. Chosen on
 * rendered scenes, against the same without the cut: on the locator's held-out cases (three
 * seeds, the tray modelled), radius 1 found nothing more, 2 found 6 dice more and no more boxes
 * on no die, 3 found 7 more and 5 more boxes; on 80 pairs of big dice on wood, 1 lost a die and
 * made 4 boxes more, 2 found 8 dice more and 2 boxes, 3 found 7 more and 5 boxes.
 */
const BORDER_LINE_RADIUS = 2;

/** The largest die a frame reports by default: this share of its shorter side, and at least 300 px. */
const LARGEST_DIE_SHARE = 0.6;

/** `LocateOptions.maxSize`, or the default: `share` of the frame's shorter side, at least 300 px. */
function largestDie(image: RgbImage, options: LocateOptions, share = LARGEST_DIE_SHARE): number {
  return options.maxSize ?? Math.max(300, share * Math.min(image.width, image.height));
}

/** A hull gives the frame's die size only if it is at least this many smallest dice across. */
const HULL_SIZE_MIN_SIDES = 2;

/** Big dice are looked for again in frames where the first look found at most this many dice. */
const BIG_LOOK_MAX_FOUND = 8;
/** A die this big (working-frame pixels, shorter side) is big. */
const BIG_DIE_SIDE = 100;

/** A big region is explained when the dice found cover at least this share of its box. */
const BIG_REGION_EXPLAINED = 0.5;
/** A big die fills an unexplained region when their boxes overlap this much (IoU). */
const BIG_FILLS_REGION = 0.5;
/**
 * ... or when the region lies inside the big die (this share of the region's box): a white die on
 * a dark table whose mask kept only its shaded bottom side, a bar along the die's foot.
 */
const BIG_HOLDS_REGION = 0.9;
/**
 * The half-size look takes dice up to this share of the frame's shorter side (or 300 px): a
 * close-up photo of one die. Rendered 640×480 pictures of 1–3 dice of 120–260 px, 30 each on
 * wood, felt, card, a light tray and a dark table: 273 → 278 of 300 found with this and
 * BIG_HOLDS_REGION, 21 → 17 boxes on no die; four lone dice of 330–370 px, found before not at
 * all, now are. The locator's held-out cases: the same boxes.
 */
const BIG_MAX_SHARE = 0.95;
/** Boxes inside a big die under this share of its side are its marks, not dice. */
const BIG_MARK_SHARE = 0.6;

/**
 * The dice found, and big dice found at half the working size that overlap none of them (or
 * only their marks: see below). A die of 100–300 px is a large region with a plain face: glare,
 * a plank's groove or a neighbour joins it into one region no split explains, or its glyphs come
 * back as dice of their own, and at half size the same die is the size the segmentation sees best. A frame is looked at again only where a big region of its mask is
 * left unexplained (`bigRegions`: boxes in input pixels), and only with few dice: big dice
 * leave room for few, and a crowded frame pays nothing.
 */
function withBigDice(found: LocatedDie[], bigRegions: readonly Box[], image: RgbImage, pyr: Pyramid, options: LocateOptions, scratch: FrameScratch): LocatedDie[] {
  if (found.length > BIG_LOOK_MAX_FOUND) return found;
  const working = Math.max(pyr.fine.width, pyr.fine.height);
  if (working < 4 * BIG_DIE_SIDE) return found;
  const unexplained = bigRegions.filter((r) => found.reduce((a, d) => a + intersection(r, d.box), 0) < BIG_REGION_EXPLAINED * boxArea(r));
  if (!unexplained.length) return found;
  const half = buildPyramid(image, working / 2, scratch);
  const minSide = BIG_DIE_SIDE * pyr.fineScale;
  const inside = (a: Box, b: Box) => a[0] >= b[0] && a[1] >= b[1] && a[2] <= b[2] && a[3] <= b[3];
  const side = (b: Box) => Math.min(b[2] - b[0], b[3] - b[1]);
  const longSide = (b: Box) => Math.max(b[2] - b[0], b[3] - b[1]);
  let out = found;
  // A close-up's die may fill most of the frame's height (the first look allows 0.6 of it).
  const bigMaxSize = largestDie(image, options, BIG_MAX_SHARE);
  for (const d of segmentDice(half, image, { ...options, maxSize: bigMaxSize })) {
    if (side(d.box) < minSide) continue;
    const touched = out.filter((f) => overlap(f.box, d.box) >= 0.1 || inside(f.box, d.box));
    if (!touched.length) {
      out = [...out, d];
      continue;
    }
    // Small boxes inside a big die that fills an unexplained region are its glyphs or pips,
    // found as dice where the body was lost. (Not any small boxes inside it: at half size a
    // clump of small dice can pass for one big die, but their region was explained.)
    const fills = unexplained.some((u) => overlap(u, d.box) >= BIG_FILLS_REGION || intersection(u, d.box) >= BIG_HOLDS_REGION * boxArea(u));
    if (fills && touched.every((f) => inside(f.box, d.box) && longSide(f.box) < BIG_MARK_SHARE * side(d.box))) {
      out = [...out.filter((f) => !touched.includes(f)), d];
    }
  }
  return out;
}

/**
 * The coarse frame's masks against the empty tray where one is given and the frame fits it; else
 * against the cloth's palette, where the frame shows a patterned cloth
 * that the palette explains, else against the smooth tray model; and the matching evidence for
 * measuring boxes on the fine frame. The smooth model is only made where it is used (2–3 ms).
 */
function compareWithTray(lab: LabPlanes, fine: RgbImage, step: number, limits: Limits, options: LocateOptions, scratch: FrameScratch, input?: RgbImage, floors: SmoothModelFloors = {}): { masks: DiceMasks; evidence: FineContext['evidence'] } {
  const tray = input && options.tray;
  const n = lab.width * lab.height;
  if (tray) {
    if (!sameView(tray, input, options.maxSide ?? 640)) options.onTray?.({ used: false, differing: 0, misaligned: 0, reason: 'size' });
    else {
      const match = matchTray(tray, lab);
      const masks = diceMask(lab, { reference: tray, match }, options, scratch);
      const fit = trayFit(lab, masks.evidence, tray, options.growContrast ?? 3.5, scratch);
      const used = fit.differing <= MAX_DIFFERING && fit.misaligned <= MAX_MISALIGNED;
      options.onTray?.(used ? { used, ...fit } : { used, ...fit, reason: 'misfit' });
      if (used) return { masks, evidence: new FineReferenceEvidence(fine, tray, match) };
    }
  }
  const palette = options.patternedCloth === false ? null : clothPalette(lab, limits);
  if (palette) {
    const masks = diceMask(lab, { palette }, options, scratch);
    // A palette that leaves the cloth in pieces does not explain it (the dice share its colours,
    // or it has more colours than were found): the smooth model's answer is the safer one then.
    if (labelRegions(masks.colour, scratch.i32(n)).regions.length <= MAX_UNEXPLAINED) return { masks, evidence: new FinePaletteEvidence(fine, palette) };
    // Unless the pieces are the cloth's thin lines, whose colour no flat sample shows.
    const lined = withLineColours(lab, palette, masks.colour);
    if (lined) {
      const again = diceMask(lab, { palette: lined }, options, scratch);
      // With the lines explained, the dice must stand out by their colour: a mask made mostly of
      // closed outlines means the dice share the cloth's colours, and the smooth model's answer
      // (usually nothing) is the safer one.
      if (labelRegions(again.colour, scratch.i32(n)).regions.length <= MAX_UNEXPLAINED && countOn(again.colour) >= LINED_COLOUR_SHARE * countOn(again.mask)) {
        return { masks: again, evidence: new FinePaletteEvidence(fine, lined) };
      }
    }
  }
  // The smooth model sees the chroma smoothed where the frame shows colour noise (the palette
  // above the frame as it is: smoothing made more boxes on a rendered camouflage cloth's blots).
  const plain = (options.chromaDenoise === false ? undefined : withoutColourNoise(lab, scratch)) ?? lab;
  const bg = estimateBackground(plain);
  return { masks: diceMask(plain, { bg, floors }, options, scratch), evidence: new FineEvidence(fine, bg, step, floors) };
}

/** Share of the mask a lined palette's colour mask must make up (`compareWithTray`). */
const LINED_COLOUR_SHARE = 0.5;

function countOn(mask: Mask): number {
  let n = 0;
  for (const v of mask.data) n += v;
  return n;
}

/**
 * The classical path: segment the coarse frame, split, filter by shape, measure at fine size.
 * Its planes, evidence, masks and labels are lent for the pass (scratch.ts): the dice it returns
 * are boxes and numbers only.
 */
function segmentDice(pyr: Pyramid, image: RgbImage, options: LocateOptions, bigRegions?: Box[]): LocatedDie[] {
  const scratch = new FrameScratch();
  try {
    return segmentWith(pyr, image, options, scratch, bigRegions);
  } finally {
    scratch.release();
  }
}

function segmentWith(pyr: Pyramid, image: RgbImage, options: LocateOptions, scratch: FrameScratch, bigRegions?: Box[]): LocatedDie[] {
  const seed = options.seedContrast ?? 7;
  const grow = options.growContrast ?? 3.5;
  const { coarse, fine, step } = pyr;
  const lab = toLabPlanes(coarse, scratch);
  const toCoarse = 1 / (pyr.fineScale * step);
  const limits: Limits = {
    minSide: (options.minSize ?? 14) * toCoarse,
    maxSide: largestDie(image, options) * toCoarse,
  };
  // A grey frame's dice stand out by lightness alone: a lower lightness floor (grey.ts).
  const floors = options.greyFloor !== false && isGreyImage(coarse) ? { noiseFloor: GREY_NOISE_FLOOR } : {};
  const { masks, evidence: fineEvidence } = compareWithTray(lab, fine, step, limits, options, scratch, image, floors);
  const { mask, edgeStrength } = masks;
  const bigEnough = (r: Region) => Math.max(r.x1 - r.x0, r.y1 - r.y0) >= limits.minSide * 0.8 && r.area >= 0.4 * limits.minSide * limits.minSide;
  // Not on a patterned cloth, whose printed lines run to the edge between blots that are not dice.
  const onCloth = fineEvidence instanceof FinePaletteEvidence;
  const labelling = labelRegions(mask, scratch.i32(mask.data.length));
  const { labels, regions } = options.borderLines === false || onCloth ? labelling : peelBorderLines(labelling, BORDER_LINE_RADIUS, bigEnough);
  const found: LocatedDie[] = [];
  const fineCtx: FineContext = { evidence: fineEvidence, step, grow };
  const edges = options.edgeSplit === false ? null : edgeStrength;
  const minDetail = options.minDetail ?? MIN_DETAIL;
  // Each piece's face marks, measured once (the die-size reference and the filter both ask).
  const details = new Map<Piece, number | null>();
  const detailOf = (piece: Piece) => {
    if (!details.has(piece)) details.set(piece, interiorDetail(piece, edgeStrength, coarse.width));
    return details.get(piece)!;
  };
  // A piece too small to have an inside is given the benefit of the doubt here (a die of 20 px
  // or so); `pipGroupsToDice` below takes those that come in groups for a face's pips.
  const kept = (piece: Piece) => (detailOf(piece) ?? minDetail) >= minDetail;
  // A die cut by the frame's edge cannot be read.
  const candidates = regions.filter((r) => !r.touchesBorder && bigEnough(r));
  // Regions too small to be a die may still be a face's pips (see `marks` below).
  // Not on a patterned cloth: there the pieces no die holds are mostly the cloth's own marks.
  // A die's soft shadow is the tray darkened, which only the smooth tray model and the empty tray tell apart.
  const trimShadows = options.shadowTrim !== false && (fineEvidence instanceof FineEvidence || fineEvidence instanceof FineReferenceEvidence);
  const isCandidate = new Set(candidates);
  const tiny = onCloth ? [] : regions.filter((r) => !r.touchesBorder && !isCandidate.has(r) && r.area >= MIN_PIP_AREA && Math.max(r.x1 - r.x0, r.y1 - r.y0) <= 2.5 * Math.min(r.x1 - r.x0, r.y1 - r.y0));
  if (bigRegions) {
    // Regions a big die could make (`withBigDice` asks whether the dice found explain them),
    // those at the frame's edge too: a groove or a shadow reaching the edge may join a die.
    const bigCoarse = BIG_DIE_SIDE / step;
    const toInput = pyr.fineScale * step;
    for (const r of regions) {
      if (Math.max(r.x1 - r.x0, r.y1 - r.y0) >= bigCoarse) bigRegions.push([r.x0 * toInput, r.y0 * toInput, Math.min(image.width, r.x1 * toInput), Math.min(image.height, r.y1 * toInput)]);
    }
  }
  /** A piece's die: its box measured on the fine frame (soft shadow off), in input pixels, and scored. */
  const measureDie = (piece: Piece): LocatedDie => {
    const { box: measured, contrast } = refineBox(piece, labels, coarse.width, coarse.height, fineCtx);
    const box = trimShadows ? trimShadow(fineEvidence as FineEvidence | FineReferenceEvidence, measured, fine.width, fine.height, options.shadowOptions) : measured;
    const s = pyr.fineScale;
    return {
      box: [box[0] * s, box[1] * s, Math.min(image.width, box[2] * s), Math.min(image.height, box[3] * s)],
      score: 0.7 * piece.shapeScore + 0.3 * Math.min(1, contrast / (2 * seed)),
      marked: detailOf(piece) !== null,
    };
  };
  const first = candidates.map((r) => piecesOf(labels, coarse.width, r, limits, edges));
  // A region no split explains is taken whole, and its hull filled, at most once each (the die
  // size from hulls and the region loop both ask).
  const wholes: (WholeRegion | undefined)[] = [];
  const wholeOf = (k: number) => (wholes[k] ??= wholeRegion(labels, coarse.width, candidates[k]!));
  const hullPieces: (Piece | null | undefined)[] = [];
  const hullOf = (k: number) => (hullPieces[k] === undefined ? (hullPieces[k] = hullPiece(wholeOf(k), candidates[k]!, limits)) : hullPieces[k]);
  // A region cut by count at a die area, kept for the last area asked: the hull loop asks with the
  // single dice's size, and the region loop asks again with it where that is the frame's size.
  const cuts: ({ area: number; cut: ReturnType<typeof cutByCount> } | undefined)[] = [];
  const cutAt = (k: number, area: number) => {
    const kept = cuts[k];
    if (kept?.area === area) return kept.cut;
    const cut = cutByCount(labels, coarse.width, candidates[k]!, limits, first[k]!, area);
    cuts[k] = { area, cut };
    return cut;
  };
  // A clump of dice is cut by count where the frame's single dice tell how big one die is.
  // (A reference die must show marks inside: a pip or glyph alone, too small to have an inside,
  // is not a die's size.)
  const marked = (piece: Piece) => (detailOf(piece) ?? 0) >= minDetail;
  const singles = options.clumpSplit === false ? null : dieSizeOf(candidates, first, marked, onCloth ? 2 : 1);
  let size: DieSize | null = singles;
  // White dice on a light tray show as the shaded sides round a top the tray's colour, an L or a
  // V each, and a pip or two may pass for a single die: where more such hulls agree on a size
  // than single dice do, the hulls give the frame's die size. (Not on a patterned cloth, where
  // the cloth's own shapes make hulls.)
  if (options.clumpSplit !== false && options.hullCompletion !== false && !onCloth) {
    const hulls: Piece[] = [];
    candidates.forEach((r, k) => {
      if (first[k]!.kind === 'full') return;
      // Under twice the smallest die, an L is a few merged pips, not a die's sides.
      if (wholeOf(k).shape.short < HULL_SIZE_MIN_SIDES * limits.minSide) return;
      const hull = hullOf(k);
      if (!hull || !kept(hull) || !marked(hull)) return;
      // A hull that the single dice's size cuts clearly into as many die-shaped pieces as it
      // holds is a clump of dice, not the sides of one: coloured dice thrown into a few clumps,
      // with one die alone, made two clumps' hulls outvote the lone die, and every clump came back
      // as one die. (Not where the singles are pips by that hull's size, `MARKS_UNDER_HULLS`; nor
      // a cut that is not clear: an icon die's glyph pieces cut its region, poorly.)
      if (singles && hull.area <= MARKS_UNDER_HULLS * singles.area && r.area >= CLUMP_AREA * singles.area) {
        const cut = cutAt(k, singles.area);
        if (cut.kind === 'full' && cut.goodness >= CLUMP_HULL_GOODNESS && cut.pieces.length === Math.round(r.area / singles.area)) return;
      }
      hulls.push(hull);
    });
    const fromHulls = dieSizeFromHulls(hulls);
    // Single "dice" far smaller than the hulls are a white die's pips, each a compact region
    // with marks inside (its own outline), not dice: the hulls give the size then however many
    // pips agree.
    if (fromHulls && (!singles || fromHulls.support > singles.support || singles.area * MARKS_UNDER_HULLS < fromHulls.area)) size = fromHulls;
  }
  // The game's roll says how many dice there are (a Worm & Cozy roll: three, often thrown into
  // one clump). Where the frame has fewer regions, and no die alone sized them, or only one did
  // and they hold fewer dice by its size (a clump passed for a single die), the regions are
  // shared out among the roll's dice. Two dice that agree on a size are trusted: a count too
  // high (a die off the tray) would cut them in halves.
  const expected = options.clumpSplit !== false && Number.isInteger(options.expectedDice) && options.expectedDice! > 0 ? options.expectedDice : undefined;
  if (expected && candidates.length > 0 && candidates.length < expected && (!size || (size.support < 2 && countedDice(candidates, size.area) < expected))) {
    size = { area: candidates.reduce((sum, r) => sum + r.area, 0) / expected, support: 0 };
  }
  const dieArea = size?.area ?? null;
  // Blank pieces and pieces under a quarter of a die are not dice, but in a group they may be a
  // face's pips whose die the mask lost (`pipGroupsToDice`).
  const marks: LocatedDie[] = [];
  const asMark = (piece: Piece) => {
    if (onCloth) return;
    const { box } = refineBox(piece, labels, coarse.width, coarse.height, fineCtx);
    const s = pyr.fineScale;
    marks.push({ box: [box[0] * s, box[1] * s, Math.min(image.width, box[2] * s), Math.min(image.height, box[3] * s)], score: 0, marked: false });
  };
  const toImage = pyr.fineScale * step;
  for (const r of tiny) marks.push({ box: [r.x0 * toImage, r.y0 * toImage, Math.min(image.width, r.x1 * toImage), Math.min(image.height, r.y1 * toImage)], score: 0, marked: false });
  for (const [k, r] of candidates.entries()) {
    let cut = dieArea !== null && r.area >= CLUMP_AREA * dieArea ? cutAt(k, dieArea) : first[k]!;
    // Dice farther from the camera are smaller than the frame's typical die: a clump the count
    // does not explain may hold one die more (two small dice make 1.2–1.5 typical ones).
    if (dieArea !== null && cut.kind !== 'full' && r.area >= ONE_MORE_AREA * dieArea) {
      const more = cutByCount(labels, coarse.width, r, limits, cut, dieArea, 1);
      if (more.kind === 'full' && more.goodness >= ONE_MORE_GOODNESS) cut = more;
    } else if (dieArea !== null && cut.kind === 'full' && r.area >= CLUMP_AREA * dieArea) {
      // A clump explained whole or by its count may be explained far better by one die more
      // (dice farther off are smaller than the frame's typical die: five pressed together came
      // out as one square clump, or as four poor pieces), or, from three dice' area up, by one
      // die fewer (nearer dice are bigger). Either cut must win clearly: a single die near the
      // camera cut in pieces would be lost, and its pieces taken for dice.
      for (const extra of r.area >= ONE_FEWER_AREA * dieArea ? [1, -1] : [1]) {
        const other = cutByCount(labels, coarse.width, r, limits, cut, dieArea, extra);
        if (other.kind === 'full' && other.goodness >= cut.goodness + RECOUNT_MARGIN) cut = other;
      }
    }
    // No die of the frame gives a size (two or three big dice thrown together fill a frame): a
    // region no split explains is cut into two or three, where such a cut explains it in
    // die-shaped pieces. Left alone, its pieces are a face's pips or glyphs, each taken for a die.
    if (dieArea === null && cut.kind !== 'full' && options.clumpSplit !== false) {
      let best: typeof cut | null = null;
      for (const k of UNSIZED_COUNTS) {
        const other = cutByCount(labels, coarse.width, r, limits, cut, r.area / k);
        if (other.kind === 'full' && other.goodness >= UNSIZED_CUT_GOODNESS && (!best || other.goodness > best.goodness)) best = other;
      }
      if (best) cut = best;
    }
    let { pieces } = cut;
    if (dieArea !== null && cut.kind !== 'full') {
      const whole = wholeOf(k);
      // A region no bigger than one of the frame's dice that no split explains fully is one die,
      // drawn out by its shadow or a side face, not two halves of a bar.
      if (r.area <= ONE_DIE_AREA * dieArea) {
        const one = asOneDie(whole, r, limits);
        if (one) pieces = [one];
      }
      // A region no split explains whose hull is one die: the shaded sides of a die whose top
      // matches the tray, round that top.
      if (options.hullCompletion !== false && whole.shape.hullArea <= ONE_DIE_AREA * dieArea) {
        const hull = hullOf(k);
        if (hull && kept(hull)) pieces = [hull];
      }
    }
    for (const piece of pieces) {
      if (!kept(piece)) {
        asMark(piece);
        continue;
      }
      // Under a quarter of a die: a mark (a numeral, an icon) of a die whose body the mask lost.
      if (dieArea !== null && piece.area < MIN_DIE_SHARE * dieArea) {
        asMark(piece);
        continue;
      }
      found.push(measureDie(piece));
    }
  }
  if (options.edgeRegions) {
    // The same cut for the regions at the frame's edge; a die whose box reaches the edge is cut
    // by it, and only dice that show marks inside are taken (a lone pip there is nothing).
    for (const r of regions) {
      if (!r.touchesBorder || !bigEnough(r)) continue;
      const whole = piecesOf(labels, coarse.width, r, limits, edges);
      const cut = dieArea !== null && r.area >= CLUMP_AREA * dieArea ? cutByCount(labels, coarse.width, r, limits, whole, dieArea) : whole;
      for (const piece of cut.pieces) {
        if (!marked(piece) || (dieArea !== null && piece.area < MIN_DIE_SHARE * dieArea)) continue;
        const die = measureDie(piece);
        const [x0, y0, x1, y1] = die.box, margin = pyr.fineScale;
        if (x0 > margin && y0 > margin && x1 < image.width - margin && y1 < image.height - margin) found.push(die);
      }
    }
  }
  // Marks no die holds, and dice found too small to be more than a mark, may lie inside a die
  // whose body the mask lost but whose outline shows, fainter than the frame's levels close.
  let unheld = marks, held = found;
  const smallSide = OUTLINE_SEED_SIDES * limits.minSide * toImage;
  const isSmall = (d: LocatedDie) => Math.max(d.box[2] - d.box[0], d.box[3] - d.box[1]) < smallSide;
  if (options.outlineLook !== false && !onCloth && minDetail > 0) {
    const outlined = diceFromOutlines([...marks, ...found.filter(isSmall)], found.filter((d) => !isSmall(d)), edgeStrength, coarse.width, coarse.height, toImage, dieArea, limits, (piece) => {
      const { box } = refineBox(piece, labels, coarse.width, coarse.height, fineCtx);
      const s = pyr.fineScale;
      return [box[0] * s, box[1] * s, Math.min(image.width, box[2] * s), Math.min(image.height, box[3] * s)];
    });
    if (outlined.length) {
      const inOne = (d: LocatedDie) => outlined.some((o) => centreIn(d.box, o.box));
      unheld = marks.filter((m) => !inOne(m));
      held = [...found.filter((d) => !isSmall(d) || !inOne(d)), ...outlined];
    }
  }
  // A die inferred from pips must show a body round them, however faint: random dark specks on
  // a plain table (crumbs, a speckled laminate) group by chance as a face's pips do.
  const body = (box: Box) => bodyEvidence(box, masks.evidence, mask.data, coarse.width, coarse.height, toImage);
  const dice = minDetail > 0 ? pipGroupsToDice(held, image.width, image.height, unheld).filter((d) => !d.fromPips || body(d.box) >= MIN_PIPS_BODY) : found;
  return withoutNested(dice).sort((p, q) => q.score - p.score);
}

/** How many dice regions of this frame hold, each at least one, counted by the frame's die area. */
function countedDice(regions: readonly Region[], dieArea: number): number {
  let n = 0;
  for (const r of regions) n += Math.max(1, Math.round(r.area / dieArea));
  return n;
}

/**
 * Single dice this many times smaller than the hulls that agree on a size are pips (a face's
 * marks cover a ninth to a twenty-fifth of it; dice of one frame differ by 2–3× at most with
 * perspective). Found on one held-out rendered scene (white dice on a light tray under a broad
 * light, against its empty tray: four pips of one die, 61–83 coarse px, outvoted two hulls of
 * 1,490: 2 of 11 dice found with 26 boxes on no die; with the rule 8 with 2). It never fires on
 * the development seeds nor on three fresh ones (the same dice found, cell for cell).
 */
const MARKS_UNDER_HULLS = 8;

/** A box with at least this share of its area inside a die's box four times its size is a mark of that die. */
const NESTED_SHARE = 0.7;

/**
 * Drops the boxes that lie mostly inside a die's box at least four times their size, centred in
 * its middle 70 %: marks of one die that the mask cut out of it (ochre pips on a red die on an
 * ochre-striped cloth are holes of cloth colour). A small die beside a big one turned 45° sits in
 * an empty corner of the big one's box, not in its middle, and is kept.
 */
function withoutNested(dice: LocatedDie[]): LocatedDie[] {
  return dice.filter(({ box, fromPips }) => {
    const own = boxArea(box);
    const cx = (box[0] + box[2]) / 2, cy = (box[1] + box[3]) / 2;
    // A die inferred from pips never hides a die whose outline was seen.
    return !dice.some(({ box: k, fromPips: inferred }) => {
      if ((inferred && !fromPips) || boxArea(k) < 4 * own) return false;
      const mx = 0.15 * (k[2] - k[0]), my = 0.15 * (k[3] - k[1]);
      if (cx < k[0] + mx || cx > k[2] - mx || cy < k[1] + my || cy > k[3] - my) return false;
      return intersection(box, k) >= NESTED_SHARE * own;
    });
  });
}

/** More regions than this left by a cloth's palette, and the palette is not trusted (25 dice at most are read). */
const MAX_UNEXPLAINED = 60;
/** A region this many times one die's area is cut by count as well (`splitByCount`). */
const CLUMP_AREA = 1.6;
/** Least size (in the frame's dice) of a clump cut into one die more than its count, and how well that cut must explain it. */
const ONE_MORE_AREA = 1.2;
const ONE_MORE_GOODNESS = 0.6;
/**
 * How well the single dice's size must cut a hull's region, into as many pieces as it holds, for
 * the hull to be a clump (the hull loop in `segmentDice`): two clumps of coloured dice cut at
 * 0.74 and 0.83; an icon die's region cut by its glyph pieces at 0.55–0.59, a broad light's
 * shadowed die at 0.55.
 */
const CLUMP_HULL_GOODNESS = 0.7;
/** How much better than the clump's explanation so far a cut into one die more, or one fewer, must explain it. */
const RECOUNT_MARGIN = 0.15;
/** Least size (in the frame's dice) of a clump also cut into one die fewer than its count (rounded, at least three). */
const ONE_FEWER_AREA = 2.5;
/** A piece under this share of one die's area is not a die (`segmentDice`). */
const MIN_DIE_SHARE = 0.25;
/** How many dice a region no split explains is tried as, where no die of the frame gives a size. */
const UNSIZED_COUNTS = [2, 3] as const;
/** How well such a cut must explain the region (0.5 and 0.7 do the same on the development scenes). */
const UNSIZED_CUT_GOODNESS = 0.6;
/** The learned path: the detector's boxes, scaled to the input, filtered by size. */
function detectWith(detector: DieDetector, fine: RgbImage, fineScale: number, image: RgbImage, options: LocateOptions): LocatedDie[] {
  const minSize = options.minSize ?? 14;
  const maxSize = largestDie(image, options);
  return detector
    .detect(fine, options.detectorThreshold)
    .map((d) => ({
      box: [d.box[0] * fineScale, d.box[1] * fineScale, Math.min(image.width, d.box[2] * fineScale), Math.min(image.height, d.box[3] * fineScale)] as Box,
      score: d.score,
    }))
    .filter((d) => {
      const side = Math.max(d.box[2] - d.box[0], d.box[3] - d.box[1]);
      return side >= minSize * 0.7 && side <= maxSize * 1.5;
    });
}

function centreIn(a: Box, b: Box): boolean {
  const cx = (a[0] + a[2]) / 2, cy = (a[1] + a[3]) / 2;
  return cx >= b[0] && cx <= b[2] && cy >= b[1] && cy <= b[3];
}

/** A mark or a die found under this many smallest dice across is looked round for an outline. */
const OUTLINE_SEED_SIDES = 2;
/** A die found from its outline is scored as guessed: its body was never seen. */
const OUTLINE_SCORE = 0.45;
/** Without the frame's die size, the outline is looked for this many mark sides round the mark. */
const OUTLINE_REACH_MARKS = 4;

/**
 * Dice found from the outlines round marks no die holds (`outlineAround`), once each: a mark
 * inside a die found before, or inside one found here, is not looked round again.
 */
function diceFromOutlines(seeds: readonly LocatedDie[], dice: readonly LocatedDie[], edgeStrength: Float32Array, width: number, height: number, toImage: number, dieArea: number | null, limits: Limits, measure: (piece: Piece) => Box): LocatedDie[] {
  const out: LocatedDie[] = [];
  for (const seed of seeds) {
    if (dice.some((d) => centreIn(seed.box, d.box)) || out.some((d) => centreIn(seed.box, d.box))) continue;
    const mark: [number, number, number, number] = [Math.floor(seed.box[0] / toImage), Math.floor(seed.box[1] / toImage), Math.ceil(seed.box[2] / toImage), Math.ceil(seed.box[3] / toImage)];
    const side = Math.max(mark[2] - mark[0], mark[3] - mark[1]);
    const reach = Math.min(Math.ceil(limits.maxSide), Math.ceil(Math.max(dieArea !== null ? Math.sqrt(dieArea) : 0, OUTLINE_REACH_MARKS * side)));
    const piece = outlineAround(edgeStrength, width, height, mark, reach, limits);
    if (piece) out.push({ box: measure(piece), score: OUTLINE_SCORE, marked: true });
  }
  return out;
}
