/**
 * Patterned cloths (vision/locate/palette.ts): the cloth as a palette of flat colours, found only
 * where the frame shows one, and dice found on it that the smooth tray model cannot see.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { EVAL_CASES, matchDice } from '../../vision/locate/evaluate.js';
import { locateDice } from '../../vision/locate/index.js';
import type { LabPlanes } from '../../vision/locate/lab.js';
import { toLabPlanes } from '../../vision/locate/lab.js';
import { diceMask } from '../../vision/locate/locate.js';
import { clothPalette, paletteEvidence, withLineColours, type ClothPalette } from '../../vision/locate/palette.js';
import { buildPyramid } from '../../vision/locate/pyramid.js';
import { renderScene } from '../../vision/synth/index.js';
import { matchBoxes, paintScene, type DieSpec, type SceneSpec } from './locate-scenes.js';

const SIDES = { minSide: 7, maxSide: 150 };

/** Lab planes from a function of the pixel (with a little seeded noise, as a camera gives). */
function planes(width: number, height: number, colour: (x: number, y: number) => [number, number, number], seed = 'planes'): LabPlanes {
  const rng = createRng(seed);
  const L = new Float32Array(width * height), a = new Float32Array(width * height), b = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [l, u, v] = colour(x, y);
      const i = y * width + x;
      L[i] = l + 0.8 * rng.normal();
      a[i] = u + 0.5 * rng.normal();
      b[i] = v + 0.5 * rng.normal();
    }
  }
  return { width, height, L, a, b };
}

const ORANGE: [number, number, number] = [65, 20, 60];
const BLUE: [number, number, number] = [50, 0, -35];

/** Stripes 12 px wide with a soft edge of 2 px, alternating orange and blue. */
function stripe(x: number, y: number): [number, number, number] {
  const u = (x + 0.6 * y) % 24;
  const t = u < 11 ? 0 : u < 12 ? u - 11 : u < 23 ? 1 : 24 - u;
  return [0, 1, 2].map((k) => ORANGE[k]! * (1 - t) + BLUE[k]! * t) as [number, number, number];
}

describe('clothPalette', () => {
  it('finds the two colours of a striped cloth, as two separate colours', () => {
    const p = clothPalette(planes(240, 240, stripe), SIDES);
    expect(p).not.toBeNull();
    const colours = [...p!.colours].sort((u, v) => v.L - u.L);
    expect(colours).toHaveLength(2);
    expect(colours[0]!.L).toBeCloseTo(65, 0);
    expect(colours[1]!.b).toBeCloseTo(-35, 0);
    expect(new Set(colours.map((c) => c.group)).size).toBe(2);
  });

  it('finds no palette on a plain tray, a light gradient or continuous grain (one colour, however spread)', () => {
    expect(clothPalette(planes(200, 200, () => [70, 5, 10]), SIDES)).toBeNull();
    expect(clothPalette(planes(200, 200, (x) => [40 + x / 4, 10, 25]), SIDES)).toBeNull();
    // Grain: several streak frequencies together, so its lightness spreads in one hump.
    const grain = (x: number, y: number) => 5 * (Math.sin(x / 3 + Math.sin(y / 17)) + Math.sin(x / 1.7 + 0.4 * y / 9) + Math.sin(x / 5.3 + 1.1) + Math.sin((x + y) / 2.3));
    expect(clothPalette(planes(200, 200, (x, y) => [50 + grain(x, y), 12, 28]), SIDES)).toBeNull();
  });

  it('groups the modes a lamp makes of one cloth colour, and still sees the cloth', () => {
    // Stripes under light that falls off across the frame: each colour spreads into neighbouring
    // lightness modes, which must count as one colour, not as two colours of a pattern.
    const lit = (x: number, y: number): [number, number, number] => {
      const [l, u, v] = stripe(x, y);
      return [l * (x < 80 ? 1 : x < 160 ? 0.85 : 0.7), u, v];
    };
    const p = clothPalette(planes(240, 240, lit), SIDES);
    expect(p).not.toBeNull();
    expect(new Set(p!.colours.map((c) => c.group)).size).toBe(2);
  });

  it('does not take the shaded sides of white dice on a light card for a cloth with the card', () => {
    // 16 white dice pressed together on light grey card: their tops group with the card, and their
    // grey sides hold 4 % of the frame in nearly half of it. A cloth needs two main colours.
    const touching = EVAL_CASES.find((c) => c.name === 'touching')!;
    const scene = renderScene(createRng(`locate-eval:dev:${touching.name}:1`), { width: 640, height: 640, ...touching.options });
    expect(clothPalette(toLabPlanes(buildPyramid(scene.image, 640).coarse), SIDES)).toBeNull();
  });

  it('does not take many dice of one colour on a plain table for a cloth colour', () => {
    // 25 white dice on felt: white covers a tenth of the frame all over it, as a cloth's second
    // colour would; the dice test (die-sized, compact, marked regions) keeps it out.
    for (const [table, palette, size] of [['felt', 'white', [40, 60]], ['card', 'black', [60, 90]], ['wood', 'red', [40, 60]]] as const) {
      const scene = renderScene(createRng(`palstress:${table}:${palette}:${size[0]}`), { width: 640, height: 640, dice: 25, dieSize: [...size], palette: [palette], table, difficulty: 0.4 });
      expect(clothPalette(toLabPlanes(buildPyramid(scene.image, 640).coarse), SIDES), `${palette} dice on ${table}`).toBeNull();
    }
  });
});

describe('paletteEvidence', () => {
  const palette: ClothPalette = {
    colours: [
      { L: ORANGE[0], a: ORANGE[1], b: ORANGE[2], spreadL: 1, spreadC: 1, share: 0.5, group: 0 },
      { L: BLUE[0], a: BLUE[1], b: BLUE[2], spreadL: 1, spreadC: 1, share: 0.5, group: 1 },
    ],
  };
  it('counts the soft edge between two cloth colours as cloth, but not a flat patch of the blend', () => {
    const mid: [number, number, number] = [57.5, 10, 12.5];
    // Left half: a soft edge from orange to blue over 8 px; right half: a flat patch of the midpoint.
    const lab = planes(40, 20, (x) => (x < 16 ? ORANGE : x < 24 ? (x < 20 ? [61, 15, 36] : mid) : mid), 'edge');
    const soft = planes(40, 20, (x) => (x < 18 ? ORANGE : x < 22 ? [ORANGE[0] + ((BLUE[0] - ORANGE[0]) * (x - 17)) / 5, ORANGE[1] + ((BLUE[1] - ORANGE[1]) * (x - 17)) / 5, ORANGE[2] + ((BLUE[2] - ORANGE[2]) * (x - 17)) / 5] : BLUE), 'soft');
    const ev = paletteEvidence(soft, palette);
    for (let x = 18; x < 22; x++) expect(ev[10 * 40 + x], `soft edge at x=${x}`).toBeLessThan(3.5);
    const flat = paletteEvidence(lab, palette);
    expect(flat[10 * 40 + 32]).toBeGreaterThan(7);
    expect(flat[10 * 40 + 5]).toBeLessThan(3.5);
  });
});

describe('locateDice on patterned cloths', () => {
  const WHITE: DieSpec['body'] = [235, 235, 230];
  it('finds dice of every colour on a fine striped cloth, which the smooth tray model misses', () => {
    const spec: SceneSpec = {
      width: 480,
      height: 360,
      tray: [150, 40, 45],
      stripes: { color: [95, 40, 110], width: 9, angle: 0.45 },
      dice: [
        { cx: 90, cy: 90, side: 40, angle: 0.3, body: WHITE },
        { cx: 330, cy: 80, side: 44, angle: 1.1, body: [225, 190, 60], pips: 3 },
        { cx: 220, cy: 230, side: 36, body: [30, 30, 32], pip: [240, 240, 240], pips: 6 },
        { cx: 100, cy: 260, side: 50, angle: 0.7, body: [40, 140, 70], pip: [250, 250, 250], shadow: 4, pips: 4 },
        { cx: 390, cy: 270, side: 42, angle: 0.2, body: WHITE, pips: 2 },
      ],
    };
    const { image, boxes } = paintScene(createRng('stripes'), spec);
    const found = matchBoxes(boxes, locateDice(image).map((f) => f.box), 0.6);
    expect({ missed: found.missed.length, spurious: found.spurious.length }).toEqual({ missed: 0, spurious: 0 });
    expect(matchBoxes(boxes, locateDice(image, { patternedCloth: false }).map((f) => f.box), 0.6).hits).toBe(0);
  });

  it('finds dice on rendered striped and printed cloths', () => {
    // Development scenes (seed "dev", never the held-out "eval-1"): a blue and ochre stripe with
    // four large dice, and a printed board with two. The smooth model found none of them.
    const pattern = EVAL_CASES.find((c) => c.name === 'pattern')!;
    for (const [i, least] of [[4, 3], [7, 2]] as const) {
      const scene = renderScene(createRng(`locate-eval:dev:${pattern.name}:${i}`), { width: 640, height: 640, ...pattern.options });
      const truth = scene.dice.map((d) => d.box);
      const m = matchDice(truth, locateDice(scene.image).map((d) => d.box));
      expect(m.hit.filter(Boolean).length, `scene ${i}`).toBeGreaterThanOrEqual(least);
      expect(m.spurious.length, `scene ${i}`).toBeLessThanOrEqual(1);
      expect(matchDice(truth, locateDice(scene.image, { patternedCloth: false }).map((d) => d.box)).hit.filter(Boolean).length).toBe(0);
    }
  });

  it('falls back to the smooth model where the palette leaves the cloth in pieces', () => {
    // White dice on a white, pink and lilac printed board: the dice share the cloth's white, so
    // against the palette they fall apart and the board's black outlines are left over (14 boxes,
    // none a die, before the fallback). The smooth model reports nothing there.
    const pattern = EVAL_CASES.find((c) => c.name === 'pattern')!;
    const scene = renderScene(createRng(`locate-eval:dev:${pattern.name}:0`), { width: 640, height: 640, ...pattern.options });
    expect(clothPalette(toLabPlanes(buildPyramid(scene.image, 640).coarse), SIDES)).not.toBeNull();
    const m = matchDice(scene.dice.map((d) => d.box), locateDice(scene.image).map((d) => d.box));
    expect(m.spurious.length).toBeLessThanOrEqual(1);
  });

  it("takes a printed cloth's thin outlines for one of its colours", () => {
    // eval:dice's rendered tray "view-side-36": eight red dice on a blue and ochre camouflage
    // print with thin black outlines. The outlines leave no flat samples, so the palette lacked
    // their colour, every outline came back as a region (83), the frame fell back to the smooth
    // model, and not one die was found.
    const scene = renderScene(createRng('view-side-36'), { dice: 8, sets: ['d6'], difficulty: 0.4, dieSize: [40, 90], knobs: { maxOblique: 45, roll: 10 } });
    const lab = toLabPlanes(buildPyramid(scene.image, 640).coarse);
    const palette = clothPalette(lab, SIDES)!;
    expect(palette).not.toBeNull();
    const lined = withLineColours(lab, palette, diceMask(lab, { palette }).colour)!;
    expect(lined.colours.length).toBe(palette.colours.length + 1);
    const line = lined.colours.at(-1)!;
    expect(line.L).toBeLessThan(30); // the outlines are black, darker than every cloth colour
    expect(Math.min(...palette.colours.map((c) => c.L))).toBeGreaterThan(50);
    const m = matchDice(scene.dice.map((d) => d.box), locateDice(scene.image).map((d) => d.box));
    expect(m.hit.filter(Boolean).length).toBeGreaterThanOrEqual(7);
    expect(m.spurious.length).toBeLessThanOrEqual(1);
  });

  it('adds no line colour where the cloth has no thin lines', () => {
    // The same renderer's plain stripes (development scene "pattern" 4): what an opening removes
    // there is the dice's rims and pips, not an outline all over the frame.
    const pattern = EVAL_CASES.find((c) => c.name === 'pattern')!;
    const scene = renderScene(createRng(`locate-eval:dev:${pattern.name}:4`), { width: 640, height: 640, ...pattern.options });
    const lab = toLabPlanes(buildPyramid(scene.image, 640).coarse);
    const palette = clothPalette(lab, SIDES)!;
    expect(palette).not.toBeNull();
    expect(withLineColours(lab, palette, diceMask(lab, { palette }).colour)).toBeNull();
  });
});
