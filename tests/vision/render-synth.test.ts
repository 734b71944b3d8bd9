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
import { jpegArtefacts } from '../../vision/synth/jpeg.js';
import { decodeImage, encodeJpeg } from '../../vision/image/decode.js';
import { rgbToHsv } from '../../vision/image/color.js';
import { createImage, cropRect } from '../../vision/image/image.js';
import { knobsFor } from '../../vision/synth/knobs.js';
import { project, roundedBoxHit } from '../../vision/synth/geometry.js';
import { cameraRoll, randomCamera } from '../../vision/synth/world.js';
import { inkMask, sampleMask } from '../../vision/synth/artCache.js';
import { luma } from '../../vision/image/color.js';
import type { FaceClass } from '../../vision/faces/classes.js';

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe('renderCrop', () => {
  it('same seed, same pixels; another seed, other pixels', () => {
    const a = renderCrop(createRng('crop-a'), 'pips-5');
    const b = renderCrop(createRng('crop-a'), 'pips-5');
    const c = renderCrop(createRng('crop-b'), 'pips-5');
    expect(same(a.data, b.data)).toBe(true);
    expect(same(a.data, c.data)).toBe(false);
  });

  it('does not depend on what was rendered before (caches hold no state that shows)', () => {
    const first = renderCrop(createRng('order'), 'organ-brain', { difficulty: 0.9 });
    const rng = createRng('other work');
    for (const cls of ['num-7', 'shape-W', 'pips-2'] as const) renderCrop(rng, cls);
    renderScene(rng, { width: 96, height: 96, dice: 3 });
    expect(same(renderCrop(createRng('order'), 'organ-brain', { difficulty: 0.9 }).data, first.data)).toBe(true);
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

  it('a picture cut: a rectangle from 5 % inside the die to 35 % beyond each side, framed whole as the reader frames a picture of one die', () => {
    const rng = createRng('picture-cut');
    let notSquare = 0;
    for (let i = 0; i < 12; i++) {
      const d = renderCropDetail(rng, 'pips-4', { difficulty: 0.6, knobs: { pictureCut: 1 } });
      const [x0, y0, x1, y1] = d.framed;
      const bw = d.box[2] - d.box[0], bh = d.box[3] - d.box[1];
      expect(x0).toBeGreaterThanOrEqual(Math.max(0, Math.round(d.box[0] - 0.35 * bw)));
      expect(x0).toBeLessThanOrEqual(Math.round(d.box[0] + 0.05 * bw));
      expect(y1).toBeGreaterThanOrEqual(Math.round(d.box[3] - 0.05 * bh));
      expect(y1).toBeLessThanOrEqual(Math.min(d.window.height, Math.round(d.box[3] + 0.35 * bh)));
      const picture = cropRect(d.window, x0, y0, x1, y1);
      expect(same(d.image.data, squareCrop(picture, [0, 0, picture.width, picture.height]).data)).toBe(true);
      if (picture.width !== picture.height) notSquare++;
    }
    expect(notSquare).toBeGreaterThan(6);
  });

  it('refuses a picture-cut chance outside 0..1', () => {
    expect(() => knobsFor(0.5, { pictureCut: 1.5 })).toThrow(/pictureCut must be a chance in 0..1/);
    expect(() => knobsFor(0.5, { pictureCut: -0.1 })).toThrow(/pictureCut must be a chance in 0..1/);
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

  it('keeps to the palette, and refuses a colour it does not know', () => {
    const rng = createRng('palette');
    for (let i = 0; i < 6; i++) expect(['red', 'yellow']).toContain(renderCropDetail(rng, 'pips-2', { palette: ['red', 'yellow'] }).color);
    expect(() => renderCrop(createRng(1), 'pips-2', { palette: ['mauve'] })).toThrow(/die colour "mauve" is not a DIE_COLORS name/);
  });

  it('refuses a class the sets in play cannot show', () => {
    expect(() => renderCrop(createRng(1), 'worm', { sets: ['d6'] })).toThrow(/no dice set among \[d6\] has the face class "worm"/);
  });
});

describe('the top face shows its art the right way round', () => {
  /**
   * Looking straight down on an upright white die, the crop's dark pixels must match the art
   * turned by some angle, and match it better than the art's mirror image under any angle.
   */
  function bestMatch(cls: FaceClass, seed: string): { plain: number; mirrored: number } {
    const calm = { maxOblique: 0, tiltChance: 0, neighbours: 0, glareChance: 0, hardLooks: 0, blur: 0, noise: 0, jpegMin: 95, cropDieSize: [60, 70] as [number, number] };
    const d = renderCropDetail(createRng(seed), cls, { difficulty: 0, knobs: calm, palette: ['white'] });
    const dark = new Float32Array(64 * 64);
    for (let i = 0; i < dark.length; i++) dark[i] = 255 - luma(d.image.data[i * 3]!, d.image.data[i * 3 + 1]!, d.image.data[i * 3 + 2]!);
    const style = 0; // any pool style has the same chirality; compare shapes, not strokes
    const mask = inkMask(cls, style);
    const corr = (mirror: boolean, theta: number) => {
      const c = Math.cos(theta), s = Math.sin(theta);
      const face = 64 / 1.15 / (Math.abs(c) + Math.abs(s)); // the face square inside its rotated bounding box
      let sxy = 0, sx = 0, sy = 0, sxx = 0, syy = 0, n = 0;
      for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) {
        const px = x + 0.5 - 32, py = y + 0.5 - 32;
        let u = 0.5 + (c * px + s * py) / face;
        const v = 0.5 + (-s * px + c * py) / face;
        // Only the face itself: the table around the die would swamp the comparison.
        if (u < 0.08 || u > 0.92 || v < 0.08 || v > 0.92) continue;
        if (mirror) u = 1 - u;
        const m = sampleMask(mask, u, v), o = dark[y * 64 + x]!;
        sxy += m * o; sx += m; sy += o; sxx += m * m; syy += o * o; n++;
      }
      return (sxy - (sx * sy) / n) / Math.sqrt((sxx - (sx * sx) / n) * (syy - (sy * sy) / n) + 1e-9);
    };
    let plain = -1, mirrored = -1;
    for (let a = 0; a < 360; a += 3) {
      const t = (a * Math.PI) / 180;
      plain = Math.max(plain, corr(false, t));
      mirrored = Math.max(mirrored, corr(true, t));
    }
    return { plain, mirrored };
  }

  it.each([['shape-L', 'chiral-1'], ['num-7', 'chiral-2'], ['shape-Z', 'chiral-3']] as const)('%s', (cls, seed) => {
    const { plain, mirrored } = bestMatch(cls, seed);
    expect(plain).toBeGreaterThan(0.6);
    expect(plain).toBeGreaterThan(mirrored + 0.1);
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

  it('boxes are the tight bounds of each die as drawn: green dice on a white tray, clean camera', () => {
    const clean = { blur: 0, noise: 0, jpegMin: 95, glareChance: 0, hardLooks: 0, shadow: [0, 0] as [number, number] };
    for (const seed of ['boxes-1', 'boxes-2', 'boxes-3']) {
      const W = 320, H = 240;
      const s = renderScene(createRng(seed), { width: W, height: H, dice: 6, sets: ['d6'], palette: ['green'], table: 'tray', dieSize: [28, 60], knobs: clean });
      expect(s.dice.length).toBeGreaterThan(0);
      // Die body is green; the tray is near-white; the ink is white or black. `clearly` for the
      // body itself, `faintly` for anti-aliased edge pixels that are partly die.
      const greenness = (x: number, y: number) => {
        const i = (y * W + x) * 3;
        const [h, sat, v] = rgbToHsv(s.image.data[i]!, s.image.data[i + 1]!, s.image.data[i + 2]!);
        return h > 85 && h < 170 && v > 0.08 ? sat : 0;
      };
      const clearly = (x: number, y: number) => greenness(x, y) > 0.25;
      const faintly = (x: number, y: number) => greenness(x, y) > 0.1;
      const inAnyBox = (x: number, y: number, grow: number) =>
        s.dice.some(({ box: [x0, y0, x1, y1] }) => x >= x0 - grow && x < x1 + grow && y >= y0 - grow && y < y1 + grow);
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
        if (clearly(x, y)) expect(inAnyBox(x, y, 1), `${seed}: green pixel ${x},${y} outside every box`).toBe(true);
      }
      for (const d of s.dice) {
        const [x0, y0, x1, y1] = d.box;
        // Each side of the box has die pixels on (or right next to) it.
        const sideHas = (xs: number[], ys: number[]) => xs.some((x) => ys.some((y) => x >= 0 && y >= 0 && x < W && y < H && faintly(x, y)));
        const span = (a: number, b: number) => Array.from({ length: b - a }, (_, k) => a + k);
        expect(sideHas([x0, x0 + 1], span(y0, y1)), `${seed} left of ${d.box}`).toBe(true);
        expect(sideHas([x1 - 1, x1 - 2], span(y0, y1)), `${seed} right of ${d.box}`).toBe(true);
        expect(sideHas(span(x0, x1), [y0, y0 + 1]), `${seed} top of ${d.box}`).toBe(true);
        expect(sideHas(span(x0, x1), [y1 - 1, y1 - 2]), `${seed} bottom of ${d.box}`).toBe(true);
        expect(d.color).toBe('green');
      }
    }
  });

  it('puts up to 25 dice of 20–300 px in a 640×640 frame', () => {
    const many = renderScene(createRng('many'), { dice: 25, dieSize: [20, 40], difficulty: 0.3 });
    expect(many.dice.length).toBeGreaterThanOrEqual(20);
    const big = renderScene(createRng('big'), { dice: 1, dieSize: [250, 300], difficulty: 0.3 });
    const [x0, y0, x1, y1] = big.dice[0]!.box;
    expect(Math.max(x1 - x0, y1 - y0)).toBeGreaterThan(230);
  });

  it("a broad light darkens the table at each die's foot on the side away from the light (broadLight), and nothing else", () => {
    const opts = { dice: 4, dieSize: [50, 60] as [number, number], table: 'card' as const, difficulty: 0.3 };
    const plain = renderScene(createRng('broad'), opts);
    const broad = renderScene(createRng('broad'), { ...opts, knobs: { broadLight: 1 } });
    // The same dice in the same places: only the light on the table differs.
    expect(broad.dice).toEqual(plain.dice);
    const { width, height } = plain.image;
    const mean = (img: typeof plain.image, x0: number, y0: number, x1: number, y1: number) => {
      let sum = 0, n = 0;
      for (let y = Math.max(0, y0); y < Math.min(height, y1); y++) {
        for (let x = Math.max(0, x0); x < Math.min(width, x1); x++) {
          const o = (y * width + x) * 3;
          sum += luma(img.data[o]!, img.data[o + 1]!, img.data[o + 2]!);
          n++;
        }
      }
      return sum / n;
    };
    for (const d of plain.dice) {
      const [a, b, c, e] = d.box.map(Math.round) as [number, number, number, number];
      // The table in an 8 px band along each side of the die, with the broad light over without.
      const sides = [[a - 8, b, a, e], [a, b - 8, c, b], [c, b, c + 8, e], [a, e, c, e + 8]] as const;
      const ratios = sides.map(([x0, y0, x1, y1]) => mean(broad.image, x0, y0, x1, y1) / mean(plain.image, x0, y0, x1, y1));
      expect(Math.min(...ratios)).toBeLessThan(0.93);
      expect(Math.max(...ratios)).toBeGreaterThan(0.97);
    }
    // Far from the dice the table is lit as before.
    expect(mean(broad.image, 0, 0, 40, 40) / mean(plain.image, 0, 0, 40, 40)).toBeCloseTo(1, 1);
  });

  it('rejects a dice count outside 1..25', () => {
    expect(() => renderScene(createRng(1), { dice: 26 })).toThrow(/1\.\.25/);
    expect(() => renderScene(createRng(1), { dice: 0 })).toThrow(/1\.\.25/);
  });

  it('sees through a lens no wider than a real wide-angle camera: 50° from the centre to the longer edge, unless told otherwise', () => {
    // Small dice in a large frame (here a small frame of tinier dice, the same ratio, cheaper to
    // render): the camera distance drawn alone gave lenses 60–70° wide and more.
    const wide = { width: 320, height: 180, dice: 2, dieSize: [4, 7] as [number, number] };
    const views = (opts: Parameters<typeof renderScene>[1]) => Array.from({ length: 8 }, (_, k) => renderScene(createRng(`lens-${k}`), opts).halfView);
    for (const v of views(wide)) expect(v).toBeLessThanOrEqual(50 + 1e-9);
    for (const v of views({ ...wide, maxHalfView: 35 })) expect(v).toBeLessThanOrEqual(35 + 1e-9);
    expect(Math.max(...views({ ...wide, maxHalfView: 90 }))).toBeGreaterThan(60);
    expect(() => renderScene(createRng(1), { maxHalfView: 0 })).toThrow(/maxHalfView/);
    expect(() => renderScene(createRng(1), { maxHalfView: 91 })).toThrow(/maxHalfView/);
  });

  it('leaves a scene the lens limit does not bind as it was: the same pixels with and without it', () => {
    // Dice of 40–90 px in 640 px (eval:dice's trays) are seen through at most 45°.
    for (let k = 0; k < 4; k++) {
      const opts = { dice: 8, dieSize: [40, 90] as [number, number], empty: true };
      const limited = renderScene(createRng(`lens-same-${k}`), opts), free = renderScene(createRng(`lens-same-${k}`), { ...opts, maxHalfView: 90 });
      expect(limited.halfView).toBeLessThan(50);
      expect(same(limited.image.data, free.image.data) && same(limited.empty!.data, free.empty!.data)).toBe(true);
    }
  });
});

describe('renderer parts', () => {
  it('simulated JPEG matches libjpeg (through sharp) to about one level, where JPEG itself moves pixels by ten', async () => {
    const rng = createRng('jpeg');
    const img = createImage(96, 80);
    for (let y = 0; y < 80; y++) for (let x = 0; x < 96; x++) {
      const v = 128 + 80 * Math.sin(x / 5) * Math.cos(y / 7);
      img.data.set([v, 255 - v, (x * 3) & 255].map((c) => Math.max(0, Math.min(255, Math.round(c + rng.range(-20, 20))))), (y * 96 + x) * 3);
    }
    for (const q of [30, 75]) {
      const ours = jpegArtefacts(img, q);
      const real = await decodeImage(await encodeJpeg(img, q));
      let toReal = 0, jpegError = 0;
      for (let i = 0; i < img.data.length; i++) {
        toReal += Math.abs(ours.data[i]! - real.data[i]!);
        jpegError += Math.abs(real.data[i]! - img.data[i]!);
      }
      expect(toReal / img.data.length).toBeLessThan(2);
      expect(jpegError / img.data.length).toBeGreaterThan(5);
    }
  });

  it('ray hits a rounded cube where geometry says: face, edge, corner, miss', () => {
    // Unit-half cube (inner 0.4 + radius 0.1); a ray straight down hits the top at z = 0.5.
    expect(roundedBoxHit(0, 0, 5, 0, 0, -1, 0.4, 0.1)).toBeCloseTo(4.5, 9);
    // Over the rounded edge at x = 0.45 the surface is lower: z = sqrt(0.1² − 0.05²).
    expect(roundedBoxHit(0.45, 0, 5, 0, 0, -1, 0.4, 0.1)).toBeCloseTo(5 - (0.4 + Math.sqrt(0.01 - 0.0025)), 9);
    // Just inside the corner sphere's reach on a diagonal.
    const c = 0.4 + 0.1 / Math.SQRT2 - 1e-3;
    expect(roundedBoxHit(c, c, 5, 0, 0, -1, 0.4, 0.1)).toBeGreaterThan(4.5);
    // Past the rounded corner: a square cube would be hit, the rounded one is not.
    expect(roundedBoxHit(0.49, 0.49, 5, 0, 0, -1, 0.4, 0.1)).toBe(-1);
    expect(roundedBoxHit(2, 0, 5, 0, 0, -1, 0.4, 0.1)).toBe(-1);
  });

  it('difficulty interpolates knobs; overrides win; impossible tilts are refused', () => {
    expect(knobsFor(0).tiltChance).toBe(0);
    expect(knobsFor(1).maxOblique).toBe(60);
    expect(knobsFor(0.5, { neighbours: 0 }).neighbours).toBe(0);
    expect(() => knobsFor(1.5)).toThrow(/difficulty must be in 0..1/);
    expect(() => knobsFor(0.5, { maxTilt: 50 })).toThrow(/maxTilt/);
    expect(knobsFor(0.5).roll).toBe(180);
    expect(() => knobsFor(0.5, { roll: 200 })).toThrow(/roll/);
  });

  it('an upright camera (roll 0) shows a die\'s top above its foot, as a photo does; the roll knob bounds the turn', () => {
    const rng = createRng('upright');
    for (let k = 0; k < 40; k++) {
      const maxRoll = k < 20 ? 0 : 30;
      const roll = cameraRoll(rng.range(0, 2 * Math.PI), maxRoll);
      expect(Math.abs(roll)).toBeLessThanOrEqual((maxRoll * Math.PI) / 180 + 1e-12);
      // From nearly straight down (1°) to steep: upright however the camera looks down.
      const cam = randomCamera(rng, [0, 0, 0.5], 10, rng.range(1, 60), 100, 0, 0, roll, true);
      const [fx, fy] = project(cam, [0, 0, 0])!;
      const [tx, ty] = project(cam, [0, 0, 1])!;
      // The picture's "up" from the die's foot to its top, against the picture's own up (−y).
      const angle = Math.atan2(tx - fx, -(ty - fy));
      expect(Math.abs(angle)).toBeLessThanOrEqual((maxRoll * Math.PI) / 180 + 1e-6);
    }
    // Any roll: the draw itself, so renders at the default keep their bytes.
    expect(cameraRoll(4.2, 180)).toBe(4.2);
  });
});
