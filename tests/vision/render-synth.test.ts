/**
 * The synthetic renderer: deterministic for a seed, crops framed like inference, scene boxes that
 * match the dice drawn, and every knob honoured.
 */
import { describe, expect, it } from 'vitest';
import { DICE_SETS } from '../../shared/dice.js';
import { createRng } from '../../shared/rng.js';
import { FACE_CLASSES, classOf, faceOf } from '../../vision/faces/classes.js';
import { squareCrop } from '../../vision/image/crop.js';
import { renderCrop, renderCropDetail } from '../../vision/synth/crop.js';
import { renderScene } from '../../vision/synth/scene.js';

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('renderCrop', () => {
  it('same seed, same pixels; another seed, other pixels', () => {
    const a = renderCrop(createRng('crop-a'), 'pips-5');
    const b = renderCrop(createRng('crop-a'), 'pips-5');
    const c = renderCrop(createRng('crop-b'), 'pips-5');
    expect(same(a.data, b.data)).toBe(true);
    expect(same(a.data, c.data)).toBe(false);
  });

  it('gives 64×64 RGB for every class', () => {
    const rng = createRng('every-class');
    for (const cls of FACE_CLASSES) {
      const img = renderCrop(rng, cls);
      expect([img.width, img.height, img.data.length], cls).toEqual([64, 64, 64 * 64 * 3]);
    }
  });

  it('frames the crop with squareCrop on the die box in the camera window', () => {
    const d = renderCropDetail(createRng('framing'), 'num-4', { knobs: { boxJitter: 0 } });
    expect(d.framed).toEqual(d.box);
    expect(same(d.image.data, squareCrop(d.window, d.box).data)).toBe(true);
  });

  it('draws the die from a set that has the class and reports its face label', () => {
    const rng = createRng('labels');
    for (let i = 0; i < 12; i++) {
      const d = renderCropDetail(rng, 'num-5', { sets: ['piecepack', 'wurmeln'] });
      expect(['piecepack', 'wurmeln']).toContain(d.set);
      expect(d.face).toBe('5');
      expect(classOf(d.set, d.face)).toBe('num-5');
    }
  });

  it('refuses a class the sets in play cannot show', () => {
    expect(() => renderCrop(createRng(1), 'worm', { sets: ['d6'] })).toThrow(/no dice set among \[d6\] has the face class "worm"/);
  });
});

describe('renderScene', () => {
  it('same seed, same scene', () => {
    const a = renderScene(createRng('scene'), { width: 160, height: 120, dice: 4 });
    const b = renderScene(createRng('scene'), { width: 160, height: 120, dice: 4 });
    expect(same(a.image.data, b.image.data)).toBe(true);
    expect(a.dice).toEqual(b.dice);
  });

  it('reports each die with a class of its set, a palette colour and a box inside the frame', () => {
    const s = renderScene(createRng('scene-2'), { width: 320, height: 240, dice: 8, sets: ['d6', 'cozy-organ'] });
    expect(s.dice.length).toBeGreaterThan(0);
    for (const d of s.dice) {
      expect(['d6', 'cozy-organ']).toContain(d.set);
      expect(faceOf(d.set, d.cls)).toBe(d.face);
      expect(DICE_SETS[d.set].faces).toContain(d.face);
      const [x0, y0, x1, y1] = d.box;
      expect(x0).toBeGreaterThanOrEqual(0);
      expect(y0).toBeGreaterThanOrEqual(0);
      expect(x1).toBeLessThanOrEqual(320);
      expect(y1).toBeLessThanOrEqual(240);
      expect(x1 - x0).toBeGreaterThan(4);
    }
  });

  it('rejects a dice count outside 1..25', () => {
    expect(() => renderScene(createRng(1), { dice: 26 })).toThrow(/1\.\.25/);
    expect(() => renderScene(createRng(1), { dice: 0 })).toThrow(/1\.\.25/);
  });
});
