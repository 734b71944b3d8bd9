/**
 * Which way is up for a die in a frame (upAngle), and its crop turned that way (uprightCrop).
 */
import { describe, expect, it } from 'vitest';
import { squareCrop } from '../../vision/image/crop.js';
import { upAngle, uprightCrop } from '../../vision/image/upright.js';
import type { Box, RgbImage } from '../../vision/types.js';

/** A 200×200 frame, each quarter round (100, 100) its own colour: red above, green right, blue below, grey left. */
function compass(): RgbImage {
  const w = 200, h = 200, data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const dx = x + 0.5 - 100, dy = y + 0.5 - 100;
    const c = Math.abs(dy) >= Math.abs(dx) ? (dy < 0 ? [255, 0, 0] : [0, 0, 255]) : dx > 0 ? [0, 255, 0] : [128, 128, 128];
    data.set(c, (y * w + x) * 3);
  }
  return { width: w, height: h, data };
}
const at = (img: RgbImage, x: number, y: number) => [...img.data.subarray((y * img.width + x) * 3, (y * img.width + x) * 3 + 3)];
const box: Box = [60, 60, 140, 140];

describe('upAngle', () => {
  it('from the side, up is the picture\'s up wherever the die lies', () => {
    expect(upAngle([0, 0, 10, 10], 640, 480, 'side')).toBe(0);
    expect(upAngle([600, 400, 640, 480], 640, 480, 'side')).toBe(0);
  });

  it('from overhead, up points away from the frame\'s centre; a die at the centre keeps the picture\'s up', () => {
    expect(upAngle([500, 220, 540, 260], 640, 480, 'overhead')).toBeCloseTo(Math.PI / 2, 9); // right of centre
    expect(upAngle([300, 420, 340, 460], 640, 480, 'overhead')).toBeCloseTo(Math.PI, 9); // below
    expect(upAngle([300, 20, 340, 60], 640, 480, 'overhead')).toBeCloseTo(0, 9); // above
    expect(upAngle([100, 220, 140, 260], 640, 480, 'overhead')).toBeCloseTo(-Math.PI / 2, 9); // left
    expect(upAngle([305, 225, 335, 255], 640, 480, 'overhead')).toBe(0);
  });
});

describe('uprightCrop', () => {
  const frame = compass();

  it('at angle 0 is squareCrop itself', () => {
    expect(uprightCrop(frame, box, 0)).toEqual(squareCrop(frame, box));
  });

  it('turns the direction it is given to the crop\'s top, at the same scale', () => {
    const cases: [number, number[]][] = [[Math.PI / 2, [0, 255, 0]], [Math.PI, [0, 0, 255]], [-Math.PI / 2, [128, 128, 128]]];
    for (const [angle, top] of cases) {
      const crop = uprightCrop(frame, box, angle);
      expect([crop.width, crop.height]).toEqual([64, 64]);
      expect(at(crop, 32, 3), `angle ${angle}: top`).toEqual(top);
      // The quarter opposite the top is what squareCrop has at its bottom... turned with it.
      expect(at(crop, 32, 60), `angle ${angle}: bottom`).toEqual(at(uprightCrop(frame, box, angle + Math.PI), 32, 3));
    }
  });

  it('keeps squareCrop\'s scale and centre: a half turn is squareCrop read backwards', () => {
    // A smooth ramp (red along x, green along y), so resampling differences stay small.
    const w = 200, h = 200, data = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set([x, y, 0], (y * w + x) * 3);
    const ramp = { width: w, height: h, data };
    const plain = squareCrop(ramp, box);
    const half = uprightCrop(ramp, box, Math.PI);
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) {
      const a = at(half, x, y), b = at(plain, 63 - x, 63 - y);
      expect(Math.max(...a.map((v, k) => Math.abs(v - b[k]!))), `(${x}, ${y})`).toBeLessThanOrEqual(2);
    }
  });

  it('refuses an angle that is not a number', () => {
    expect(() => uprightCrop(frame, box, Number.NaN)).toThrow(/angle must be finite/);
  });
});
