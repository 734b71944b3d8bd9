/**
 * The locator's building blocks as pure functions on small pixel grids.
 */
import { describe, expect, it } from 'vitest';
import { rgbToLab } from '../../vision/image/color.js';
import { peelBorderLines } from '../../vision/locate/border-lines.js';
import { labelRegions } from '../../vision/locate/components.js';
import { decodeOutput, makeTargets, OUTPUT_CHANNELS, OUTPUT_STRIDE } from '../../vision/locate/detector/targets.js';
import { toLabPlanes } from '../../vision/locate/lab.js';
import { fillHoles, hysteresis, open3, type Mask } from '../../vision/locate/mask.js';
import { halve } from '../../vision/locate/pyramid.js';
import { dieSizeFromHulls, hullPiece, wholeRegion } from '../../vision/locate/pieces.js';
import { trimShadow, type ShadeProbe } from '../../vision/locate/shadow.js';
import { convexHull, minAreaRect, polygonArea, regionShape } from '../../vision/locate/shape.js';
import { distanceTransform, splitByCount, splitByDistance } from '../../vision/locate/split.js';
import type { Box } from '../../vision/types.js';

/** A mask from rows of '#' (set) and '.' (unset). */
function mask(rows: string): Mask {
  const lines = rows.trim().split('\n').map((l) => l.trim());
  const width = lines[0]!.length, height = lines.length;
  const data = new Uint8Array(width * height);
  lines.forEach((l, y) => [...l].forEach((c, x) => (data[y * width + x] = c === '#' ? 1 : 0)));
  return { width, height, data };
}
const show = (m: Mask) =>
  Array.from({ length: m.height }, (_, y) => Array.from(m.data.subarray(y * m.width, (y + 1) * m.width), (v) => (v ? '#' : '.')).join('')).join('\n');

describe('masks', () => {
  it('hysteresis keeps weak pixels only when connected to a strong one', () => {
    const v = Float32Array.from([5, 2, 2, 0, 2, 2]);
    expect(Array.from(hysteresis(v, 6, 1, 2, 4).data)).toEqual([1, 1, 1, 0, 0, 0]);
  });

  it('fillHoles fills a pip inside a die but not a bay open to the border', () => {
    const m = mask(`
      .......
      .#####.
      .#...#.
      .#####.
      .......
      ###.###`);
    expect(show(fillHoles(m))).toBe(['.......', '.#####.', '.#####.', '.#####.', '.......', '###.###'].join('\n'));
  });

  it('fillHoles leaves holes bigger than maxHole open', () => {
    const m = mask(`
      #####
      #...#
      #####`);
    expect(show(fillHoles(m, 2))).toBe(['#####', '#...#', '#####'].join('\n'));
    expect(show(fillHoles(m, 3))).toBe(['#####', '#####', '#####'].join('\n'));
  });

  it('a 3×3 opening removes a two-pixel line and keeps a solid square', () => {
    const m = mask(`
      ..........
      .####.....
      .####.....
      .####.....
      .####.....
      ..........
      ##########
      ##########
      ..........`);
    expect(show(open3(m))).toBe(
      ['..........', '.####.....', '.####.....', '.####.....', '.####.....', '..........', '..........', '..........', '..........'].join('\n'),
    );
  });

  it('labelRegions separates blobs and marks those touching the border', () => {
    const m = mask(`
      #.....
      ..##..
      ..##..
      ......`);
    const { regions } = labelRegions(m);
    expect(regions.map((r) => [r.area, r.x0, r.y0, r.x1, r.y1, r.touchesBorder])).toEqual([
      [1, 0, 0, 1, 1, true],
      [4, 2, 1, 4, 3, false],
    ]);
  });
});

describe('regions held to the frame\'s edge by a thin line', () => {
  /** A 20×16 frame: a 10×8 "die" at (5..15, 6..14) and whatever `extra` paints. */
  const frame = (paint: (set: (x: number, y: number) => void) => void) => {
    const width = 20, height = 16, data = new Uint8Array(width * height);
    const set = (x: number, y: number) => (data[y * width + x] = 1);
    for (let y = 6; y < 14; y++) for (let x = 5; x < 15; x++) set(x, y);
    paint(set);
    return { width, height, data };
  };
  const all = () => true;
  const boxes = (m: Mask) => peelBorderLines(labelRegions(m), 1, all).regions.map((r) => [r.x0, r.y0, r.x1, r.y1, r.touchesBorder]);

  it('a die joined to the top edge by a line two pixels wide becomes a region of its own; the line stays with the edge', () => {
    const m = frame((set) => {
      for (let y = 0; y < 6; y++) (set(9, y), set(10, y));
    });
    const { regions, labels } = peelBorderLines(labelRegions(m), 1, all);
    expect(regions.map((r) => [r.x0, r.y0, r.x1, r.y1, r.touchesBorder])).toEqual([
      [5, 0, 15, 14, true],
      [5, 6, 15, 14, false],
    ]);
    // The die's 80 pixels, grown back exactly; the line's 12 stay with the edge.
    expect(regions[1]!.area).toBe(80);
    expect(regions[0]!.area).toBe(12);
    expect(labels[2 * 20 + 9]).toBe(1);
    expect(labels[10 * 20 + 10]).toBe(2);
  });

  it('leaves a die that the edge cuts, a line too wide to be cut off, and a part smaller than what the edge keeps', () => {
    // The die reaches the edge itself.
    expect(boxes(frame((set) => {
      for (let y = 0; y < 6; y++) for (let x = 5; x < 15; x++) set(x, y);
    }))).toEqual([[5, 0, 15, 14, true]]);
    // A neck four pixels wide survives an opening of radius 1.
    expect(boxes(frame((set) => {
      for (let y = 0; y < 6; y++) for (let x = 8; x < 12; x++) set(x, y);
    }))).toEqual([[5, 0, 15, 14, true]]);
    // A band along the edge bigger than the die (a rim, a cloth's blot): the die is its bump.
    expect(boxes(frame((set) => {
      for (let y = 0; y < 4; y++) for (let x = 0; x < 20; x++) set(x, y);
      for (let y = 4; y < 6; y++) (set(9, y), set(10, y));
    }))).toEqual([[0, 0, 20, 14, true]]);
  });

  it('keeps only parts that pass the caller\'s test', () => {
    const m = frame((set) => {
      for (let y = 0; y < 6; y++) (set(9, y), set(10, y));
    });
    expect(peelBorderLines(labelRegions(m), 1, (r) => r.touchesBorder || r.area > 100).regions).toHaveLength(1);
  });
});

describe('shape', () => {
  it('the hull and minimum rectangle of a rotated square', () => {
    const s = 10, a = 0.4;
    const pts: [number, number][] = [[-s, -s], [s, -s], [s, s], [-s, s], [0, 0], [3, -2]].map(([x, y]) => [
      x! * Math.cos(a) - y! * Math.sin(a),
      x! * Math.sin(a) + y! * Math.cos(a),
    ]);
    const hull = convexHull(pts);
    expect(hull).toHaveLength(4);
    expect(polygonArea(hull)).toBeCloseTo(400, 6);
    const r = minAreaRect(hull);
    expect(r.long).toBeCloseTo(20, 6);
    expect(r.short).toBeCloseTo(20, 6);
  });

  it('regionShape of a 2:1 bar measures its aspect', () => {
    const m = mask(`
      ..........
      .########.
      .########.
      .########.
      .########.
      ..........`);
    const { labels, regions } = labelRegions(m);
    const shape = regionShape(labels, m.width, 1, regions[0]!);
    expect(shape.long).toBeCloseTo(8);
    expect(shape.short).toBeCloseTo(4);
    expect(shape.hullArea).toBeCloseTo(32);
  });
});

describe('splitting touching dice', () => {
  it('the distance transform is the distance to the nearest unset pixel', () => {
    const m = mask(`
      .....
      .###.
      .###.
      .###.
      .....`);
    const dt = distanceTransform(m.data, 5, 5);
    expect(dt[12]).toBeCloseTo(2); // the centre
    expect(dt[6]).toBeCloseTo(1);
    expect(dt[0]).toBe(0);
  });

  it('two squares touching at a corner are two dice; one square with a bump is one', () => {
    const pair = mask(`
      ######......
      ######......
      ######......
      ######......
      ######......
      ######......
      .....######.
      .....######.
      .....######.
      .....######.
      .....######.
      .....######.`);
    const split = splitByDistance(pair.data, pair.width, pair.height, { minPeak: 2 });
    expect(split.count).toBe(2);
    expect(split.parts[0]).not.toBe(split.parts[11 * 12 + 10]);

    const bump = mask(`
      ........
      .######.
      .######.
      .#######
      .######.
      .######.
      .######.
      ........`);
    expect(splitByDistance(bump.data, bump.width, bump.height, { minPeak: 2 }).count).toBe(1);
  });

  it('a clump of four squares pressed into one square, cut by count, gives back the four squares', () => {
    const block = mask(Array.from({ length: 8 }, () => '########').join('\n'));
    const { parts, count } = splitByCount(block.data, 8, 8, 4);
    expect(count).toBe(4);
    const quarters = Array.from({ length: 8 }, (_, y) => Array.from({ length: 8 }, (_, x) => parts[y * 8 + x]).join('')).join('\n');
    // Each quarter is one part, and the four parts differ.
    const ids = [parts[0], parts[7], parts[56], parts[63]];
    expect(new Set(ids).size).toBe(4);
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) expect(parts[y * 8 + x], quarters).toBe(ids[(y < 4 ? 0 : 2) + (x < 4 ? 0 : 1)]);
    // Too few pixels for the count, or a count under two: no cut.
    expect(splitByCount(block.data, 8, 8, 1).count).toBe(0);
    expect(splitByCount(mask('##\n##').data, 2, 2, 2).count).toBe(0);
  });
});

describe('the frame\'s die size from hulls', () => {
  it('a V of two shaded sides round an empty top is completed to its hull', () => {
    // The mask of a white die on a light tray seen from one side: its left and bottom faces.
    const m = mask(`
      ..........
      .##.......
      .##.......
      .##.......
      .##.......
      .##.......
      .########.
      .########.
      ..........
    `);
    const { labels, regions } = labelRegions(m);
    const r = regions[0]!;
    const limits = { minSide: 4, maxSide: 40 };
    const hull = hullPiece(wholeRegion(labels, m.width, r), r, limits)!;
    expect(hull).not.toBeNull();
    expect(hull.area).toBeGreaterThan(r.area * 1.4); // the top filled in
    // A solid square is no L or V: it is a die as it is, not a hull to complete.
    const solid = mask(`
      ......
      .####.
      .####.
      .####.
      .####.
      ......
    `);
    const s = labelRegions(solid);
    expect(hullPiece(wholeRegion(s.labels, solid.width, s.regions[0]!), s.regions[0]!, limits)).toBeNull();
  });

  it('hulls that agree give their lower median and how many agree; hulls that disagree give none', () => {
    const piece = (area: number) => ({ ox: 0, oy: 0, w: 1, h: 1, parts: new Int32Array(1), id: 1, shapeScore: 0.3, x0: 0, y0: 0, x1: 1, y1: 1, area });
    expect(dieSizeFromHulls([1455, 765, 1663, 1549, 1705].map(piece))).toEqual({ area: 1549, support: 4 });
    expect(dieSizeFromHulls([400, 420].map(piece))).toEqual({ area: 400, support: 2 });
    expect(dieSizeFromHulls([400].map(piece))).toBeNull(); // one hull is no agreement
    expect(dieSizeFromHulls([100, 400].map(piece))).toBeNull(); // four times apart: not one size
    expect(dieSizeFromHulls([100, 400, 420].map(piece))).toEqual({ area: 400, support: 2 });
  });
});

describe("a die's soft shadow off its box", () => {
  /**
   * A 100×100 frame as the shadow test sees it: per pixel, darkness below the tray (positive
   * darker) and tint, in tray-texture units. A red die fills [30, 30, 60, 60]; `below(y)` is the
   * table's darkness under it (rows 60 on, columns 30–59), 0 elsewhere.
   */
  const frame = (below: (y: number) => number): ShadeProbe => ({
    shade(y, x0, x1, dark, tint) {
      for (let x = x0; x < x1; x++) {
        const die = x >= 30 && x < 60 && y >= 30 && y < 60;
        dark[x - x0] = die ? -8 : x >= 30 && x < 60 && y >= 60 ? -below(y) : 0;
        tint[x - x0] = die ? 10 : 0;
      }
    },
  });
  // A locator's box reaches down to where the table differs from the tray by the grow level.
  const boxFor = (below: (y: number) => number): Box => {
    let y = 60;
    while (below(y) >= 3.5) y++;
    return [30, 30, 60, y];
  };

  it('a shadow fading from the foot is taken off; the box fits the die', () => {
    const soft = (y: number) => 8 * Math.exp(-(y - 60) / 10);
    expect(boxFor(soft)).toEqual([30, 30, 60, 69]);
    expect(trimShadow(frame(soft), boxFor(soft), 100, 100)).toEqual([30, 30, 60, 60]);
  });

  it("a black die's shadow is taken off at the die's edge, not walked through its dark body to its pips", () => {
    // A black die: its body the tray darkened by 15 units with no tint, light pips at rows 50–54.
    const black: ShadeProbe = {
      shade(y, x0, x1, dark, tint) {
        for (let x = x0; x < x1; x++) {
          const die = x >= 30 && x < 60 && y >= 30 && y < 60;
          const pip = die && y >= 50 && y < 55 && (x < 38 || x >= 52);
          dark[x - x0] = pip ? 5 : die ? -15 : x >= 30 && x < 60 && y >= 60 ? -8 * Math.exp(-(y - 60) / 10) : 0;
          tint[x - x0] = 0;
        }
      },
    };
    expect(trimShadow(black, [30, 30, 60, 69], 100, 100)).toEqual([30, 30, 60, 60]);
    // Without the step test the walk crosses the dark body to the pips' row.
    expect(trimShadow(black, [30, 30, 60, 69], 100, 100, { jump: Infinity })).toEqual([30, 30, 60, 55]);
  });

  it("a die's own dark side, a step at the box's edge, is left in", () => {
    const side = (y: number) => (y < 68 ? 6 : 0);
    expect(trimShadow(frame(side), boxFor(side), 100, 100)).toEqual(boxFor(side));
  });

  it('a dark stretch that ends at the box\'s edge is no shadow (the tray outside is the tray)', () => {
    const cut = (y: number) => (y < 69 ? 8 * Math.exp(-(y - 60) / 10) : 0);
    expect(trimShadow(frame(cut), [30, 30, 60, 69], 100, 100)).toEqual([30, 30, 60, 69]);
  });

  it('the tray a little darker all round (its model off there) is no shadow either', () => {
    const flat = (y: number) => (y < 69 ? 3.6 : 3.4);
    expect(trimShadow(frame(flat), [30, 30, 60, 69], 100, 100)).toEqual([30, 30, 60, 69]);
  });

  it("against the empty tray itself, a lamp's hard shadow by a coloured die is taken off, though it does not fade", () => {
    const hard = (y: number) => (y < 68 ? 6 : 0);
    const exact: ShadeProbe = { ...frame(hard), exact: true };
    expect(trimShadow(exact, [30, 30, 60, 68], 100, 100)).toEqual([30, 30, 60, 60]);
    // Against a modelled tray the same stretch may be the die's own dark side: left in (above).
    expect(trimShadow(frame(hard), [30, 30, 60, 68], 100, 100)).toEqual([30, 30, 60, 68]);
  });

  it("against the empty tray, a white die's shaded side on a tray of its colour is left in (nothing tinted ends it)", () => {
    // A white die: its top lighter than the tray, untinted; below it a side 6 units darker.
    const white: ShadeProbe = {
      exact: true,
      shade(y, x0, x1, dark, tint) {
        for (let x = x0; x < x1; x++) {
          const top = x >= 30 && x < 60 && y >= 30 && y < 60;
          dark[x - x0] = top ? 8 : x >= 30 && x < 60 && y >= 60 && y < 68 ? -6 : 0;
          tint[x - x0] = 0;
        }
      },
    };
    expect(trimShadow(white, [30, 30, 60, 68], 100, 100)).toEqual([30, 30, 60, 68]);
  });
});

describe('pixels', () => {
  it('toLabPlanes agrees with rgbToLab', () => {
    const colours = [[0, 0, 0], [255, 255, 255], [190, 30, 35], [40, 140, 60], [35, 80, 170], [240, 200, 40], [128, 128, 128]];
    const data = Uint8Array.from(colours.flat());
    const lab = toLabPlanes({ width: colours.length, height: 1, data });
    colours.forEach(([r, g, b], i) => {
      const [L, a, bb] = rgbToLab(r!, g!, b!);
      expect(Math.abs(lab.L[i]! - L)).toBeLessThan(0.3);
      expect(Math.abs(lab.a[i]! - a)).toBeLessThan(0.3);
      expect(Math.abs(lab.b[i]! - bb)).toBeLessThan(0.3);
    });
  });

  it('halve averages 2×2 blocks', () => {
    const data = Uint8Array.from([0, 0, 0, 100, 100, 100, 9, 9, 9, 100, 100, 100, 200, 200, 200, 9, 9, 9]);
    const h = halve({ width: 3, height: 2, data });
    expect(h.width).toBe(1);
    expect(h.height).toBe(1);
    expect(Array.from(h.data)).toEqual([100, 100, 100]);
  });
});

describe('detector targets', () => {
  it('a die makes a heat peak of 1 at its centre cell, with offset and log size there', () => {
    const t = makeTargets([[10, 20, 30, 36]], 64, 64);
    const cx = 20 / OUTPUT_STRIDE, cy = 28 / OUTPUT_STRIDE;
    const c = Math.floor(cy) * t.gw + Math.floor(cx);
    expect(t.heat[c]).toBe(1);
    expect(t.centres.reduce((s, v) => s + v, 0)).toBe(1);
    expect(Array.from(t.regress.subarray(c * 4, c * 4 + 4))).toEqual([cx - Math.floor(cx), cy - Math.floor(cy), Math.log(20), Math.log(16)].map((v) => Math.fround(v)));
    expect(t.heat[c + 1]!).toBeLessThan(1);
    expect(t.heat[c + 1]!).toBeGreaterThan(0);
  });

  it('decoding a perfect output gives the boxes back, once each', () => {
    const boxes: Box[] = [[10, 20, 30, 36], [33, 20, 51, 38], [4, 44, 60, 62]];
    const t = makeTargets(boxes, 64, 64);
    const out = new Float32Array(t.gw * t.gh * OUTPUT_CHANNELS);
    for (let i = 0; i < t.gw * t.gh; i++) {
      const p = Math.min(1 - 1e-6, Math.max(1e-6, t.heat[i]!));
      out[i * OUTPUT_CHANNELS] = Math.log(p / (1 - p));
      for (let k = 0; k < 4; k++) out[i * OUTPUT_CHANNELS + 1 + k] = t.regress[i * 4 + k]!;
    }
    const found = decodeOutput(out, t.gw, t.gh, 0.5).map((d) => d.box.map((v) => Math.round(v * 1000) / 1000));
    expect(found.sort((a, b) => a[0]! - b[0]!)).toEqual(boxes.slice().sort((a, b) => a[0] - b[0]));
  });
});
