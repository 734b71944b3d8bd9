import { describe, expect, it } from 'vitest';
import { reorderChannels, TURNED_CHANNELS } from '../../vision/image/channels.js';
import type { RgbImage } from '../../vision/types.js';

const picture: RgbImage = { width: 2, height: 1, data: Uint8Array.from([200, 40, 10, 0, 128, 255]) };

describe('colour channels in another order (the colour look)', () => {
  it('takes each new channel from the one the order names, pixel by pixel, and leaves the picture as it was', () => {
    expect(Array.from(reorderChannels(picture, [1, 2, 0]).data)).toEqual([40, 10, 200, 128, 255, 0]);
    expect(Array.from(reorderChannels(picture, [2, 0, 1]).data)).toEqual([10, 200, 40, 255, 0, 128]);
    expect(Array.from(reorderChannels(picture, [0, 1, 2]).data)).toEqual(Array.from(picture.data));
    expect(Array.from(picture.data)).toEqual([200, 40, 10, 0, 128, 255]);
    expect(reorderChannels(picture, [2, 1, 0])).toMatchObject({ width: 2, height: 1 });
  });

  it('turns the channels round once each way: twice round one way is the other, three times is the picture', () => {
    const [gbr, brg] = TURNED_CHANNELS;
    expect(reorderChannels(reorderChannels(picture, gbr!), gbr!).data).toEqual(reorderChannels(picture, brg!).data);
    expect(reorderChannels(reorderChannels(picture, gbr!), brg!).data).toEqual(picture.data);
  });

  it('refuses an order that does not name each channel once', () => {
    expect(() => reorderChannels(picture, [0, 0, 1])).toThrow(/each of 0, 1, 2 once/);
    expect(() => reorderChannels(picture, [0, 1, 3])).toThrow(/each of 0, 1, 2 once/);
  });
});
