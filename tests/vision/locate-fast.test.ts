/**
 * The locator's fast paths (four pixels to a word, runs instead of pixels, on-demand evidence,
 * counting sorts) against plain pixel-by-pixel references, on seeded random masks and images:
 * they must give exactly the same answers, not nearly.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { cropRect } from '../../vision/image/image.js';
import { estimateBackground } from '../../vision/locate/background.js';
import { labelRegions } from '../../vision/locate/components.js';
import { FineEvidence, trayEvidence } from '../../vision/locate/evidence.js';
import { toLabPlanes } from '../../vision/locate/lab.js';
import { dilate3, erode3, fillHoles, hysteresis, minus, open3, union, type Mask } from '../../vision/locate/mask.js';
import { halve } from '../../vision/locate/pyramid.js';
import { convexHull, regionShape, type Point } from '../../vision/locate/shape.js';
import { distanceTransform, splitByDistance } from '../../vision/locate/split.js';
import type { RgbImage } from '../../vision/types.js';

const rng = createRng('locate-fast');

/** Blobs (filled rectangles with a few holes) over sparse noise: masks like the locator's. */
function randomMask(width: number, height: number): Mask {
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = rng.next() < 0.08 ? 1 : 0;
  for (let k = 0; k < 6; k++) {
    const x0 = Math.floor(rng.next() * width), y0 = Math.floor(rng.next() * height);
    const x1 = Math.min(width, x0 + 2 + Math.floor(rng.next() * 16)), y1 = Math.min(height, y0 + 2 + Math.floor(rng.next() * 16));
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data[y * width + x] = rng.next() < 0.93 ? 1 : 0;
  }
  return { width, height, data };
}

/** Sizes whose rows are, and are not, whole 32-bit words. */
const SIZES: [number, number][] = [[1, 1], [4, 3], [7, 5], [12, 9], [33, 20], [40, 40], [61, 37]];

function at(m: Mask, x: number, y: number): number {
  return x >= 0 && y >= 0 && x < m.width && y < m.height ? m.data[y * m.width + x]! : 0;
}

function naiveMorph(m: Mask, erode: boolean): number[] {
  const out: number[] = [];
  for (let y = 0; y < m.height; y++) {
    for (let x = 0; x < m.width; x++) {
      let all = 1, any = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) (all &= at(m, x + dx, y + dy)), (any |= at(m, x + dx, y + dy));
      out.push(erode ? all : any);
    }
  }
  return out;
}

/** 4-connected unset components: holes (not touching the border) of at most maxHole pixels get set. */
function naiveFill(m: Mask, maxHole: number): number[] {
  const { width: w, height: h } = m;
  const out = Array.from(m.data, (v) => (v ? 1 : 0));
  const seen = new Uint8Array(w * h);
  for (let s = 0; s < w * h; s++) {
    if (m.data[s] || seen[s]) continue;
    const comp = [s];
    seen[s] = 1;
    let border = false;
    for (let k = 0; k < comp.length; k++) {
      const p = comp[k]!, x = p % w, y = (p - x) / w;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) border = true;
      for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]] as const) {
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const q = ny * w + nx;
        if (!m.data[q] && !seen[q]) (seen[q] = 1), comp.push(q);
      }
    }
    if (!border && comp.length <= maxHole) for (const p of comp) out[p] = 1;
  }
  return out;
}

/** 8-connected labels numbered in raster order of each region's first pixel. */
function naiveLabels(m: Mask): number[] {
  const { width: w, height: h } = m;
  const labels = new Array<number>(w * h).fill(0);
  let next = 0;
  for (let s = 0; s < w * h; s++) {
    if (!m.data[s] || labels[s]) continue;
    labels[s] = ++next;
    const stack = [s];
    while (stack.length) {
      const p = stack.pop()!, x = p % w, y = (p - x) / w;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const q = (y + dy) * w + x + dx;
          if (at(m, x + dx, y + dy) && !labels[q]) (labels[q] = next), stack.push(q);
        }
      }
    }
  }
  return labels;
}

describe('mask fast paths equal the pixel-by-pixel definitions', () => {
  it.each(SIZES)('%i×%i: erosion, dilation, opening, union, difference', (w, h) => {
    for (let t = 0; t < 5; t++) {
      const m = randomMask(w, h), n = randomMask(w, h);
      expect(Array.from(dilate3(m).data)).toEqual(naiveMorph(m, false));
      expect(Array.from(erode3(m).data)).toEqual(naiveMorph(m, true));
      const eroded: Mask = { width: w, height: h, data: Uint8Array.from(naiveMorph(m, true)) };
      expect(Array.from(open3(m).data)).toEqual(naiveMorph(eroded, false));
      expect(Array.from(union(m, n).data)).toEqual(Array.from(m.data, (v, i) => v | n.data[i]!));
      expect(Array.from(minus(m, n).data)).toEqual(Array.from(m.data, (v, i) => v & (n.data[i]! ^ 1)));
      // Into the caller's scratch: the same answer, in that array.
      const into = new Uint8Array(w * h).fill(7);
      expect(dilate3(m, into).data).toBe(into);
      expect(Array.from(into)).toEqual(naiveMorph(m, false));
    }
  });

  it.each(SIZES)('%i×%i: hole filling, with and without a size limit', (w, h) => {
    for (let t = 0; t < 5; t++) {
      const m = randomMask(w, h);
      expect(Array.from(fillHoles(m).data)).toEqual(naiveFill(m, Infinity));
      expect(Array.from(fillHoles(m, 3).data)).toEqual(naiveFill(m, 3));
      expect(Array.from(fillHoles(m, 3, new Uint8Array(w * h).fill(9)).data)).toEqual(naiveFill(m, 3));
    }
  });

  it.each(SIZES)('%i×%i: regions and hysteresis', (w, h) => {
    for (let t = 0; t < 5; t++) {
      const m = randomMask(w, h);
      const { labels, regions } = labelRegions(m);
      const ref = naiveLabels(m);
      expect(Array.from(labels)).toEqual(ref);
      expect(regions.map((r) => r.area)).toEqual(regions.map((r) => ref.filter((l) => l === r.label).length));
      // Hysteresis: the regions of the weak mask that hold a strong pixel.
      const values = Float32Array.from(m.data, (v) => (v ? 4 + 6 * rng.next() : 3 * rng.next()));
      const strong = new Set(ref.filter((l, i) => l && values[i]! >= 8));
      expect(Array.from(hysteresis(values, w, h, 4, 8).data)).toEqual(ref.map((l) => (l && strong.has(l) ? 1 : 0)));
    }
  });
});

describe('splitting and shape fast paths', () => {
  it('the distance transform is the brute-force distance to the nearest unset pixel', () => {
    for (const [w, h] of SIZES) {
      const m = randomMask(w, h);
      const dt = distanceTransform(m.data, w, h);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          let best = Infinity;
          // Outside the grid counts as unset.
          for (let v = -1; v <= h; v++) {
            for (let u = -1; u <= w; u++) if (!at(m, u, v)) best = Math.min(best, (u - x) ** 2 + (v - y) ** 2);
          }
          expect(dt[y * w + x]).toBe(m.data[y * w + x] ? Math.fround(Math.sqrt(best)) : 0);
        }
      }
    }
  });

  it('hills are numbered in flooding order and cover exactly the set pixels', () => {
    for (const [w, h] of SIZES) {
      const m = randomMask(w, h);
      const { parts, count } = splitByDistance(m.data, w, h, { minPeak: 1.5 });
      expect(Array.from(parts, (p) => (p ? 1 : 0))).toEqual(Array.from(m.data));
      expect(new Set(Array.from(parts).filter((p) => p)).size).toBe(count);
    }
  });

  it("regionShape's hull is convexHull of the region's row ends", () => {
    for (const [w, h] of SIZES) {
      const { labels, regions } = labelRegions(randomMask(w, h));
      for (const r of regions) {
        const pts: Point[] = [];
        for (let y = r.y0; y < r.y1; y++) {
          const xs = [];
          for (let x = r.x0; x < r.x1; x++) if (labels[y * w + x] === r.label) xs.push(x);
          if (xs.length) pts.push([xs[0]!, y], [xs[0]!, y + 1], [xs.at(-1)! + 1, y], [xs.at(-1)! + 1, y + 1]);
        }
        expect(regionShape(labels, w, r.label, r).hull).toEqual(convexHull(pts));
      }
    }
  });
});

describe('evidence on demand', () => {
  it('FineEvidence gives exactly trayEvidence of the window, at any origin and scale', () => {
    const w = 96, h = 80;
    const data = new Uint8Array(w * h * 3);
    for (let i = 0; i < data.length; i++) data[i] = 90 + Math.floor(40 * rng.next());
    for (let y = 30; y < 50; y++) for (let x = 20; x < 44; x++) data.set([200, 40, 30], (y * w + x) * 3);
    const fine: RgbImage = { width: w, height: h, data };
    for (const scale of [1, 2]) {
      const coarse = scale === 1 ? fine : halve(fine);
      const bg = estimateBackground(toLabPlanes(coarse), { cell: 8 });
      const ev = new FineEvidence(fine, bg, scale);
      for (const [x0, y0, x1, y1] of [[0, 0, w, h], [13, 7, 61, 59], [50, 40, 96, 80]] as const) {
        const window = trayEvidence(toLabPlanes(cropRect(fine, x0, y0, x1, y1)), bg, { originX: x0, originY: y0, scale });
        const row = new Float32Array(x1 - x0);
        for (let y = y0; y < y1; y++) {
          ev.span(y, x0, x1, row, 0);
          expect(row).toEqual(window.subarray((y - y0) * (x1 - x0), (y - y0 + 1) * (x1 - x0)));
        }
      }
    }
  });
});
