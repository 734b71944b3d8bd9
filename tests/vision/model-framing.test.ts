/**
 * Framing a picture of one die (vision/model/framing.ts): a die inferred from its pips is never
 * the picture's framing.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { locateDice } from '../../vision/locate/index.js';
import { squareCrop } from '../../vision/image/crop.js';
import { decodeImage } from '../../vision/image/decode.js';
import { resize } from '../../vision/image/resize.js';
import { frameDieImage } from '../../vision/model/framing.js';
import { renderScene } from '../../vision/synth/index.js';
import type { Box, RgbImage } from '../../vision/types.js';

function cut(image: RgbImage, box: Box): RgbImage {
  const [x0, y0, x1, y1] = box.map(Math.round) as [number, number, number, number];
  const w = x1 - x0, h = y1 - y0, data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) data.set(image.data.subarray(((y0 + y) * image.width + x0) * 3, ((y0 + y) * image.width + x1) * 3), y * w * 3);
  return { width: w, height: h, data };
}

describe('frameDieImage', () => {
  it('frames a close-cut die whole, not by the box its pips suggest', () => {
    // Dice of a rendered tray cut 6 % inside their boxes, as a close crop is: the die's body
    // touches every edge of the picture, so only its pips are found, and they group into a die
    // box at the centre. Framed by that box (as the Catan crops of one session were, 3 of them
    // then misread), the die is cut tighter than the net was trained on.
    const scene = renderScene(createRng('view-overhead-2'), { dice: 8, sets: ['d6'], difficulty: 0.4, dieSize: [40, 90], knobs: { maxOblique: 0 } });
    for (const k of [2, 4]) {
      const [x0, y0, x1, y1] = scene.dice[k]!.box;
      const m = 0.06 * (x1 - x0);
      const picture = cut(scene.image, [x0 + m, y0 + m, x1 - m, y1 - m]);
      const longer = Math.max(picture.width, picture.height);
      const pips = locateDice(picture, { minSize: 8 }).filter((d) => d.fromPips && d.box[2] - d.box[0] >= 0.2 * longer);
      expect(pips.length, `die ${k}: the premise, a die found from its pips`).toBeGreaterThan(0);
      const framed = frameDieImage(picture, 'locate');
      expect(framed.located).toBe(false);
      expect(framed.box).toEqual([0, 0, picture.width, picture.height]);
      expect(framed.smaller).toBeUndefined();
    }
  });

  it('offers a picture in which no die was found framed on its central square too, as a located die is framed', () => {
    // A close cut is framed whole at squareCrop's own margin, where its die comes out larger than
    // the net was trained on; its central square framed as a located die is the other reading.
    const scene = renderScene(createRng('view-overhead-2'), { dice: 8, sets: ['d6'], difficulty: 0.4, dieSize: [40, 90], knobs: { maxOblique: 0 } });
    const [x0, y0, x1, y1] = scene.dice[2]!.box;
    const m = 0.06 * (x1 - x0);
    const picture = cut(scene.image, [x0 + m, y0 + m, x1 - m, y1 + 0.3 * (y1 - y0)]);
    const framed = frameDieImage(picture, 'locate', {}, { scale: 1.15 * 1.45 });
    expect(framed.located, 'the premise: no die found inside').toBe(false);
    const short = Math.min(picture.width, picture.height);
    const square: Box = [(picture.width - short) / 2, (picture.height - short) / 2, (picture.width + short) / 2, (picture.height + short) / 2];
    expect(framed.tight?.box).toEqual(square);
    expect(framed.tight?.crop.data).toEqual(squareCrop(picture, square, { scale: 1.15 * 1.45 }).data);
    // Not in mode 'whole'.
    expect(frameDieImage(picture, 'whole').tight).toBeUndefined();
  });

  it('offers no central square for a picture turned on a grown canvas (its filled corners say the canvas grew round it)', () => {
    const scene = renderScene(createRng('view-overhead-2'), { dice: 8, sets: ['d6'], difficulty: 0.4, dieSize: [40, 90], knobs: { maxOblique: 0 } });
    const [x0, y0, x1, y1] = scene.dice[2]!.box;
    const m = 0.06 * (x1 - x0);
    const picture = cut(scene.image, [x0 + m, y0 + m, x1 - m, y1 - m]);
    // Turned 20° on a canvas grown to hold it, the corners left black.
    const a = (20 * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
    const W = Math.ceil(picture.width * c + picture.height * s), H = Math.ceil(picture.width * s + picture.height * c);
    const data = new Uint8Array(W * H * 3);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const dx = x + 0.5 - W / 2, dy = y + 0.5 - H / 2;
      const sx = Math.floor(c * dx + s * dy + picture.width / 2), sy = Math.floor(-s * dx + c * dy + picture.height / 2);
      if (sx < 0 || sy < 0 || sx >= picture.width || sy >= picture.height) continue;
      data.set(picture.data.subarray((sy * picture.width + sx) * 3, (sy * picture.width + sx) * 3 + 3), (y * W + x) * 3);
    }
    const framed = frameDieImage({ width: W, height: H, data }, 'locate', {}, { scale: 1.15 * 1.45 });
    expect(framed.unpainted, 'the premise: its corners were painted over').toBeDefined();
    expect(framed.tight).toBeUndefined();
  });

  it('frames a die found inside a loose picture at the scale asked for; a picture framed whole keeps its own margin', () => {
    const scene = renderScene(createRng('view-side-3'), { dice: 8, sets: ['d6'], difficulty: 0.4, dieSize: [40, 90], knobs: { maxOblique: 45, roll: 10 } });
    const [x0, y0, x1, y1] = scene.dice[0]!.box;
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, half = 1.5 * Math.max(x1 - x0, y1 - y0);
    const picture = cut(scene.image, [Math.max(0, cx - half), Math.max(0, cy - half), Math.min(scene.image.width, cx + half), Math.min(scene.image.height, cy + half)]);
    const atBox = frameDieImage(picture, 'locate');
    const looser = frameDieImage(picture, 'locate', {}, { scale: 1.15 * 1.45 });
    expect(atBox.located, 'the premise: the die is found inside').toBe(true);
    expect(atBox.tight, 'a die found is framed on its box alone').toBeUndefined();
    expect(looser.box).toEqual(atBox.box);
    expect(looser.crop.data).toEqual(squareCrop(picture, atBox.box, { scale: 1.15 * 1.45 }).data);
    expect(atBox.crop.data).toEqual(squareCrop(picture, atBox.box).data);
    const whole = frameDieImage(picture, 'whole', {}, { scale: 1.15 * 1.45 });
    expect(whole.crop.data).toEqual(squareCrop(picture, [0, 0, picture.width, picture.height]).data);
  });

  const fixtures = path.resolve(import.meta.dirname, '../fixtures/dice-real');

  it('a picture framed only for its crop (taught, or from a labelled folder) is not looked at for small dice, and says nothing of the dice it shows', async () => {
    // The real tray frame, 960 × 540: read as one die, its dice are counted by a second look.
    const frame = await decodeImage(readFileSync(path.join(fixtures, 'frame.jpg')));
    const read = frameDieImage(frame, 'locate');
    expect(read.found?.small?.length).toBeGreaterThan(0);
    const taught = frameDieImage(frame, 'locate', {}, {}, { count: false });
    expect(taught.found).toBeUndefined();
    expect(taught.box).toEqual(read.box);
    expect(taught.crop.data).toEqual(read.crop.data);
  });

  it('takes no look for small dice where the first look found a die of any size (a close die\'s pips of a tenth, enlarged to a photo\'s size)', async () => {
    const crop = await decodeImage(readFileSync(path.join(fixtures, 'crops', 'WIN_20221210_14_47_18_Pro-die-1.jpg')));
    const framed = frameDieImage(resize(crop, crop.width * 6, crop.height * 6), 'locate');
    expect(framed.found!.dice.filter((d) => !d.fromPips).length).toBeGreaterThan(0);
    expect(framed.found!.small).toBeUndefined();
  });
});
