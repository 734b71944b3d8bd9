/**
 * dieColor: a die's body colour named from the palette in play, whatever the pips, the tray and
 * the colour of the light.
 */
import { describe, expect, it } from 'vitest';
import { DIE_COLORS } from '../../shared/dice.js';
import { createRng } from '../../shared/rng.js';
import { rgbToLab } from '../../vision/image/color.js';
import { dieColor, estimateLight, nearestColor } from '../../vision/locate/index.js';
import { paintScene, type Rgb } from './locate-scenes.js';

const NAMES = Object.keys(DIE_COLORS);
const LIGHT_BODIES = new Set(['white', 'ivory', 'yellow', 'pink', 'orange']);

/** Every palette colour as a die (dark pips on light bodies, white pips on dark ones). */
function allColours(seed: string, tray: Rgb, light: Rgb) {
  const dice = NAMES.map((name, i) => ({
    cx: 50 + (i % 4) * 90,
    cy: 50 + Math.floor(i / 4) * 90,
    side: 50,
    angle: i * 0.2,
    body: [...DIE_COLORS[name]!] as Rgb,
    pip: (LIGHT_BODIES.has(name) ? [20, 20, 20] : [245, 245, 245]) as Rgb,
    pips: ((i % 6) + 1) as 1 | 2 | 3 | 4 | 5 | 6,
  }));
  return paintScene(createRng(seed), { width: 380, height: 290, tray, light, dice });
}

describe('dieColor', () => {
  it('names each palette colour as itself', () => {
    for (const name of NAMES) {
      const [r, g, b] = DIE_COLORS[name]!;
      expect(nearestColor(rgbToLab(r, g, b), NAMES)).toBe(name);
    }
  });

  it.each([
    ['grey card', [128, 128, 125]],
    ['green felt', [40, 110, 60]],
    ['wood', [150, 110, 70]],
  ] as const)('every colour of die on %s under white light', (_, tray) => {
    const { image, boxes } = allColours(`white-${tray.join()}`, [...tray], [255, 255, 255]);
    expect(boxes.map((box) => dieColor(image, box, NAMES))).toEqual(NAMES);
  });

  it.each([
    ['warm', [255, 222, 180]],
    ['cold', [205, 222, 255]],
  ] as const)('every colour of die under %s light (white balance from the frame)', (_, light) => {
    for (const tray of [[128, 128, 125], [40, 110, 60], [150, 110, 70]] as Rgb[]) {
      const { image, boxes } = allColours(`${light.join()}-${tray.join()}`, tray, [...light]);
      expect(boxes.map((box) => dieColor(image, box, NAMES))).toEqual(NAMES);
    }
  });

  it("takes a coloured body's lit top and shaded sides together against a big black glyph", () => {
    // A red die close up whose glyph is a third of what shows: lit red, shaded red and black in
    // about equal parts. Either red alone is smaller than the black; together they are the body.
    const rng = createRng('glyph-die');
    const width = 120, height = 120, data = new Uint8Array(width * height * 3);
    for (let p = 0; p < width * height; p++) data.set([128, 128, 125], 3 * p);
    const box: [number, number, number, number] = [20, 20, 100, 100];
    for (let y = box[1]; y < box[3]; y++) {
      for (let x = box[0]; x < box[2]; x++) {
        const u = rng.next();
        data.set(u < 0.38 ? [22, 20, 20] : u < 0.69 ? [200, 35, 40] : [110, 18, 22], 3 * (y * width + x));
      }
    }
    expect(dieColor({ width, height, data }, box, NAMES)).toBe('red');
  });

  it('sees warm light as warm and cold light as cold', () => {
    const warm = estimateLight(allColours('w', [128, 128, 125], [255, 222, 180]).image);
    const cold = estimateLight(allColours('c', [128, 128, 125], [205, 222, 255]).image);
    expect(warm.logRG - warm.logBG).toBeGreaterThan(0.2);
    expect(cold.logRG - cold.logBG).toBeLessThan(-0.2);
  });

  it('a one-colour palette names every die that colour', () => {
    const { image, boxes } = allColours('one', [128, 128, 125], [255, 255, 255]);
    expect(dieColor(image, boxes[0]!, ['red'])).toBe('red');
  });

  it('says what is wrong with the palette or the box', () => {
    const { image, boxes } = allColours('bad', [128, 128, 125], [255, 255, 255]);
    expect(() => dieColor(image, boxes[0]!, [])).toThrow(/palette is empty/);
    expect(() => dieColor(image, boxes[0]!, ['red', 'mauve'])).toThrow(/unknown colour name\(s\) "mauve"/);
    expect(() => dieColor(image, [10, 10, 5, 20], ['red', 'blue'])).toThrow(/x0 < x1/);
  });
});
