/**
 * The empty tray learned from a frame as the reader will locate dice in later frames: inside the
 * frame's flat bars (a letterboxing camera), at the locator's working size, with how many dice the
 * locator finds in it with the tray modelled. The server learns it without loading the model; the
 * reader's `learnTray` is the same.
 */
import { withoutFlatBars } from './image/padding.js';
import { CLOSER_MAX_SIDE, locateDice } from './locate/locate.js';
import { learnTray, learnTrayAsIs, MIN_TRAY_SIDE, withStretched, type TrayReference } from './locate/tray-reference.js';
import type { RgbImage } from './types.js';

/** The picture is kept, not copied (for the closer twin and `stretched`): a caller must not change its pixels afterwards. */
export function learnEmptyTray(picture: RgbImage, maxSide?: number, modelledSees?: number): TrayReference {
  const { image } = withoutFlatBars(picture);
  // Flat bars can leave less than the picture: say both sizes, or "63×1" of a 65×1 picture puzzles.
  if (image.width < MIN_TRAY_SIDE || image.height < MIN_TRAY_SIDE) {
    const inside = image.width !== picture.width || image.height !== picture.height ? ` inside its flat bars: ${image.width}×${image.height}` : '';
    throw new RangeError(`learnTray: the picture is too small (${picture.width}×${picture.height}${inside}; an empty tray needs at least ${MIN_TRAY_SIDE}×${MIN_TRAY_SIDE})`);
  }
  // What the modelled tray makes of the empty tray: a reader does not trust its reading of later
  // frames where it finds dice in the empty tray itself (reader.ts, `modelledToo`). A caller that
  // has just counted them (the server, after `looksEmpty`) passes the count.
  const sees = modelledSees ?? modelledDice(image, maxSide);
  // A dim frame is compared with the tray stretched as it is (tray-reference.ts, `stretched`).
  return withStretched(learnAt(image, maxSide, sees), image, (stretched) => learnAt(stretched, maxSide, sees));
}

function learnAt(image: RgbImage, maxSide: number | undefined, modelledSees: number): TrayReference {
  const tray = { ...learnTrayAsIs(image, maxSide), modelledSees };
  // The tray at twice the working size, for frames whose dice are small (about 20 MB for the
  // Pi's 1280×960, so only learnt once a frame asks for it).
  const closerSide = 2 * tray.maxSide;
  if (Math.max(image.width, image.height) < closerSide || closerSide > CLOSER_MAX_SIDE) return tray;
  let closer: TrayReference | undefined;
  return { ...tray, closer: () => (closer ??= learnTray(image, closerSide)) };
}

/**
 * Whether a frame shows no die to the locator with the tray modelled (as the reader locates when
 * no empty tray is in use): the check before a still frame is taken as the empty tray unasked.
 */
export function looksEmpty(picture: RgbImage, maxSide?: number): boolean {
  return modelledDice(withoutFlatBars(picture).image, maxSide) === 0;
}

/** Dice the locator finds in a picture (inside its flat bars) with the tray modelled. */
function modelledDice(image: RgbImage, maxSide: number | undefined): number {
  return locateDice(image, maxSide === undefined ? {} : { maxSide }).length;
}
