/**
 * Framing an image that holds one die (a "crop" from elsewhere: a phone, a dataset, a folder
 * of calibration pictures) the way the classifier was trained: `squareCrop` around the die's
 * box. 'whole' takes the image itself as the die's box; 'locate' looks for the die inside
 * first and falls back to the whole image when nothing die-sized is found (offering its central
 * square too, for a picture cut tight round its die: `Framed.tight`).
 */
import { withoutFilledCorners } from '../image/filled-corners.js';
import { squareCrop } from '../image/crop.js';
import { shiftBox, withoutFlatBars } from '../image/padding.js';
import { showsMarks, type FoundInPicture } from '../image/several-dice.js';
import { locateDice, type LocateOptions } from '../locate/index.js';
import type { Box, RgbImage } from '../types.js';

export type FramingMode = 'whole' | 'locate';

export interface Framed {
  crop: RgbImage;
  box: Box;
  /** True when the locator found the die inside the image. */
  located: boolean;
  /**
   * Framed whole, with a smaller die found at the centre (a tenth to a fifth of the picture's
   * side, its face's marks seen inside): the die of a very loose picture, or a mark of a close
   * one (a big pip). The picture can only say which by being read: the reader reads both and
   * keeps the surer reading.
   */
  smaller?: { crop: RgbImage; box: Box };
  /**
   * Framed from the picture as it came, when the corners a rotation filled were painted over
   * (filled-corners.ts): a tight crop of a turned die on a blown-out white or black background
   * has four such wedges of its own. The reader reads both and keeps this one only when it is
   * clearly surer (`AS_IS_SURER_BY` in reader.ts).
   */
  unpainted?: { crop: RgbImage; box: Box };
  /**
   * Framed whole with no die found inside (nor a smaller one): the picture's central square
   * framed as a located die is, which suits a picture cut tight round its die (the die then fills
   * that square, and framed whole it comes out larger than the classifier was trained on). A
   * looser picture whose die was not found reads better whole, so the reader reads both and
   * keeps this reading only when it is clearly surer (`SQUARE_SURER_BY` in reader.ts;
   * docs/notes/vision-model.md, "Tight pictures of one die").
   */
  tight?: { crop: RgbImage; box: Box };
  /**
   * Framing 'locate': every die the locator found in the picture (a tenth of its longer side or
   * more), in the coordinates of the picture it looked in (inside flat bars) and with that
   * picture's size: what tells a picture of several dice (several-dice.ts) without locating again.
   */
  found?: FoundInPicture;
}

/**
 * Smallest size of a located die, as a share of the picture's longer side, for it to be taken as
 * "the" die: a fifth. The rule was 12 % of the picture's area; then a real die cut from a Catan
 * frame at 3× its box was never located, the whole picture was read, and 9 of 16 were wrong
 * (now 1: a die not found, read whole, marked "check"); at 4× 11 of 16 (now 2). An area share
 * low enough for those (4 %) let the single pip of a close-cut "1" (15 px in an 85×54 picture)
 * pass for the die (docs/notes/vision-model.md, "Loose pictures").
 */
const MIN_LOCATED_SIDE = 0.2;

/** A smaller die found at the centre, down to this share of the picture's longer side, is offered as `Framed.smaller`. */
const MIN_SMALLER_SIDE = 0.1;

/**
 * The look for small dice (counted by several-dice.ts): dice down to this share of the picture's
 * longer side and this many pixels (the locator's own least die), up to the first look's tenth,
 * and only where that is well under what the first look saw (a picture of some 190 px or more):
 * in a smaller one the second look would find what the first did, a close die's pips.
 */
const SMALL_DIE_SIDE = 0.025;
const SMALL_DIE_PIXELS = 14;
const SMALL_LOOK_BELOW = 0.75;

/**
 * The first look's finds of a tenth to a fifth of the picture are counted as dice (several-dice.ts)
 * from this many pixels: below it a close die's pips pass the marks check (their insides blur into
 * their outline), as in the Catan crops as cut (pips of 11–15 px in pictures of 80–130 px).
 */
const MIDDLING_LEAST = 24;

/** What the framing is for. */
export interface FramingPurpose {
  /**
   * False: only the crop is wanted (a picture taught, a labelled folder), so the dice it shows are
   * not counted: no look for small dice (a second locator run, tens of milliseconds in a large
   * picture) and no `found`.
   */
  count?: boolean;
}

/**
 * `located.scale`: the `squareCrop` scale for a die found inside the picture (the reader passes
 * the scale it frames a frame's located dice at); the picture itself, framed whole, keeps
 * `squareCrop`'s own.
 */
export function frameDieImage(picture: RgbImage, mode: FramingMode = 'whole', locate: LocateOptions = {}, located: { scale?: number } = {}, purpose: FramingPurpose = {}): Framed {
  // Flat bars at the picture's edges (a crop cut past its photo, padding to a square) are no
  // part of the die's surroundings: the picture inside them is framed, and boxes are given back
  // in the picture's own coordinates.
  const { image: inside, offset } = withoutFlatBars(picture);
  // Corners a rotation filled are painted over from inside (filled-corners.ts); the picture as it
  // came is framed too, for the reader to fall back on.
  const { image, wedges } = withoutFilledCorners(inside);
  // A picture turned on a grown canvas is not cut tight round its die: the canvas grew round it.
  const count = purpose.count !== false;
  const painted = frameInside(image, mode, locate, located, wedges === 0, count);
  // Only the painted picture's finds are counted (`found`): the picture as it came is not looked at twice.
  const asCame = wedges > 0 ? frameInside(inside, mode, locate, located, false, false) : null;
  const framed: Framed = asCame ? { ...painted, unpainted: { crop: asCame.crop, box: asCame.box } } : painted;
  if (offset[0] === 0 && offset[1] === 0) return framed;
  const shifted = (part: { crop: RgbImage; box: Box }) => ({ ...part, box: shiftBox(part.box, offset) });
  return {
    ...framed,
    box: shiftBox(framed.box, offset),
    ...(framed.smaller ? { smaller: shifted(framed.smaller) } : {}),
    ...(framed.unpainted ? { unpainted: shifted(framed.unpainted) } : {}),
    ...(framed.tight ? { tight: shifted(framed.tight) } : {}),
  };
}

function frameInside(image: RgbImage, mode: FramingMode, locate: LocateOptions, located: { scale?: number }, offerTight: boolean, count: boolean): Framed {
  const whole: Box = [0, 0, image.width, image.height];
  const framedWhole = (): Framed => ({ crop: squareCrop(image, whole), box: whole, located: false });
  if (mode !== 'locate') return framedWhole();
  const longer = Math.max(image.width, image.height);
  // A picture of one die is cut round it, so the die meant covers the picture's centre: a
  // neighbour beside it is not read instead (if the die itself is not found, the whole picture is).
  const cx = image.width / 2, cy = image.height / 2;
  const side = (b: Box) => Math.max(b[2] - b[0], b[3] - b[1]);
  // A loose picture often cuts a neighbour touching the die: their region reaches the edge.
  // No closer look: a picture of one die is a close-up; a die it does not show whole is too big
  // or cut, not too small.
  const dice = locateDice(image, { ...locate, minSize: Math.max(8, MIN_SMALLER_SIDE * longer), edgeRegions: true, lookCloser: false });
  // A large picture in which the first look found no die at all may be a whole tray (its dice a few
  // hundredths of its side), which only a look for small dice counts. Not where it found one, of
  // any size: a picture whose die was found needs none, and what a second look finds beside a die
  // of a tenth to a fifth is mostly pieces of it, or a close die's pips (the Catan crops enlarged).
  const nothingFound = !dice.some((d) => !d.fromPips);
  const smallSide = Math.max(SMALL_DIE_PIXELS, SMALL_DIE_SIDE * longer);
  // Only what shows a face's marks is kept: a glare spot is found as a die-like blob.
  const small = count && nothingFound && smallSide <= SMALL_LOOK_BELOW * Math.max(8, MIN_SMALLER_SIDE * longer)
    ? locateDice(image, { ...locate, minSize: smallSide, maxSize: MIN_SMALLER_SIDE * longer, edgeRegions: true, lookCloser: false }).filter((d) => showsMarks(image, d.box))
    : undefined;
  const middling = count && !dice.some((d) => !d.fromPips && side(d.box) >= MIN_LOCATED_SIDE * longer)
    ? dice.filter((d) => !d.fromPips && side(d.box) < MIN_LOCATED_SIDE * longer && side(d.box) >= MIDDLING_LEAST && showsMarks(image, d.box))
    : [];
  const found: { found?: FoundInPicture } = count ? { found: { dice, width: image.width, height: image.height, ...(small ? { small } : {}), ...(middling.length > 0 ? { middling } : {}) } } : {};
  const central = dice
    .filter((d) => d.box[0] <= cx && cx <= d.box[2] && d.box[1] <= cy && cy <= d.box[3])
    .sort((a, b) => b.score - a.score);
  // A die inferred from its pips is no framing: in a close-cut picture the die's body touches
  // the picture's edges and is not found, and its pips' box would cut it tighter still (3 of the
  // 151 Catan crops read worse framed so).
  const seen = central.filter((d) => !d.fromPips);
  const best = seen.find((d) => side(d.box) >= MIN_LOCATED_SIDE * longer);
  // A die found inside fits its box as a frame's located die does: framed as loosely (`located`).
  const frame = (box: Box) => squareCrop(image, box, located.scale !== undefined ? { scale: located.scale } : {});
  if (best) return { crop: frame(best.box), box: best.box, located: true, ...found };
  const smaller = seen.find((d) => d.marked === true);
  if (smaller) return { ...framedWhole(), smaller: { crop: frame(smaller.box), box: smaller.box }, ...found };
  if (!offerTight) return { ...framedWhole(), ...found };
  const short = Math.min(image.width, image.height);
  const square: Box = [(image.width - short) / 2, (image.height - short) / 2, (image.width + short) / 2, (image.height + short) / 2];
  return { ...framedWhole(), tight: { crop: frame(square), box: square }, ...found };
}
