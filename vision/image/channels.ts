/**
 * A picture with its colour channels in another order: the colour look reads a doubtful die so
 * (reader.ts), since what a die shows does not depend on which colours show it.
 */
import type { RgbImage } from '../types.js';

/** Which of the picture's channels (0 R, 1 G, 2 B) each new channel takes, in R, G, B order. */
export type ChannelOrder = readonly [number, number, number];

/** The picture's R, G and B turned round once each way: as GBR and as BRG. */
export const TURNED_CHANNELS: readonly ChannelOrder[] = [
  [1, 2, 0],
  [2, 0, 1],
];

export function reorderChannels(image: RgbImage, order: ChannelOrder): RgbImage {
  const [r, g, b] = order;
  if (![r, g, b].every((c) => c === 0 || c === 1 || c === 2) || new Set(order).size !== 3) throw new RangeError(`reorderChannels: the order must name each of 0, 1, 2 once, got ${order.join(', ')}`);
  const from = image.data;
  const data = new Uint8Array(from.length);
  for (let i = 0; i < from.length; i += 3) {
    data[i] = from[i + r]!;
    data[i + 1] = from[i + g]!;
    data[i + 2] = from[i + b]!;
  }
  return { width: image.width, height: image.height, data };
}
