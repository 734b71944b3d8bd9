/** Image helpers for the vision module: decode/encode, crop framing, resampling, colour spaces. */
export { decodeImage, encodeJpeg, encodePng } from './decode.js';
export { squareCrop, squareAround, CROP_SIZE, CROP_SCALE, type SquareCropOptions } from './crop.js';
export { resize, resampleRect, fitWithin } from './resize.js';
export { createImage, assertImage, assertBox, cloneImage, pixelAt, cropRect, paste } from './image.js';
export { luma, toGrey, greyToRgb, rgbToHsv, hsvToRgb, toHsv, rgbToLab, SRGB_TO_LINEAR, linearToSrgb } from './color.js';
