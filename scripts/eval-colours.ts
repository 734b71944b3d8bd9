/**
 * eval:dice's and eval:teaching's other dice, made from one set's real photos.
 */
import type { RgbImage } from '../vision/types.js';

/**
 * Other dice, as far as one set's photos can show them: each picture with its colour channels
 * swapped, or as its negative (dark dice with light pips). The dice's shapes, the camera's blur,
 * noise and light stay real; only the colours move, so a reader that leans on the Catan set's
 * ivory, red and yellow reads these worse.
 */
export const RECOLOURED: readonly [string, (r: number, g: number, b: number) => [number, number, number]][] = [
  ['R↔B', (r, g, b) => [b, g, r]],
  ['RGB → GBR', (r, g, b) => [g, b, r]],
  ['RGB → BRG', (r, g, b) => [b, r, g]],
  ['R↔G', (r, g, b) => [g, r, b]],
  ['negative', (r, g, b) => [255 - r, 255 - g, 255 - b]],
];

export function recoloured(image: RgbImage, how: (r: number, g: number, b: number) => [number, number, number]): RgbImage {
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i += 3) {
    const [r, g, b] = how(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!);
    data[i] = r;
    data[i + 1] = g;
    data[i + 2] = b;
  }
  return { ...image, data };
}
