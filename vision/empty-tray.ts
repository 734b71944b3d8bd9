/**
 * The empty tray learned from a frame as the reader will locate dice in later frames: inside the
 * frame's flat bars (a letterboxing camera), at the locator's working size. The server learns it
 * without loading the model; the reader's `learnTray` is the same.
 */
import { withoutFlatBars } from './image/padding.js';
import { learnTray, type TrayReference } from './locate/tray-reference.js';
import type { RgbImage } from './types.js';

export function learnEmptyTray(picture: RgbImage, maxSide?: number): TrayReference {
  return learnTray(withoutFlatBars(picture).image, maxSide);
}
