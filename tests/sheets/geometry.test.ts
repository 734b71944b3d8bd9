/** Homographies, the marker finder and the registration on a rendered sheet (no pencil, no camera noise). */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { getChapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { sheetLayout } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { createRng } from '../../shared/rng.js';
import { apply, fitHomography, invert, multiply, type Pt } from '../../vision/sheet/homography.js';
import { findMarkers, type GreyImage } from '../../vision/sheet/markers.js';
import { register } from '../../vision/sheet/register.js';
import { sheetPrimitives } from '../../vision/sheet/sheet-art.js';
import { primitivesToSvg } from '../../vision/sheet/svg.js';

describe('homography', () => {
  it('recovers a known perspective map from its point pairs, and inverts', () => {
    const rng = createRng('homography');
    for (let k = 0; k < 20; k++) {
      const H = [rng.range(0.5, 2), rng.range(-0.3, 0.3), rng.range(-50, 50), rng.range(-0.3, 0.3), rng.range(0.5, 2), rng.range(-50, 50), rng.range(-1e-3, 1e-3), rng.range(-1e-3, 1e-3), 1];
      const src: Pt[] = Array.from({ length: 8 }, () => [rng.range(0, 200), rng.range(0, 260)]);
      const dst = src.map(([x, y]) => apply(H, x, y));
      const fit = fitHomography(src, dst)!;
      for (const [x, y] of [[10, 10], [190, 250], [100, 30]] as Pt[]) {
        const [a, b] = apply(fit, x, y);
        const [c, d] = apply(H, x, y);
        expect(Math.hypot(a - c, b - d)).toBeLessThan(1e-6);
      }
      const I = multiply(fit, invert(fit));
      expect(apply(I, 37, 91)[0]).toBeCloseTo(37, 6);
    }
  });

  it('needs four pairs', () => {
    expect(fitHomography([[0, 0], [1, 0], [0, 1]], [[0, 0], [1, 0], [0, 1]])).toBeNull();
  });
});

/** The printed sheet rendered at `ppm`, turned by `turns` quarter turns, as grey. */
async function renderedSheet(id: string, ppm: number, turns: number): Promise<GreyImage> {
  const ch = getChapter(id);
  const l = sheetLayout(ch);
  const view = { x: -8, y: -8, w: l.frame.width + 16, h: l.frame.height + 16 };
  const svg = primitivesToSvg(sheetPrimitives(l, ch), view, Math.round(view.w * ppm), Math.round(view.h * ppm));
  const { data, info } = await sharp(Buffer.from(svg)).rotate(turns * 90).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

describe('markers and registration on a clean print', () => {
  for (const turns of [0, 1, 2, 3]) {
    it(`finds all four markers turned ${turns * 90}°, each where the layout says`, async () => {
      const ppm = 4;
      const img = await renderedSheet('clew-1', ppm, turns);
      const found = findMarkers(img);
      expect(found.map((m) => m.corner)).toEqual([0, 1, 2, 3]);
      const l = sheetLayout(getChapter('clew-1'));
      // Where a frame point lands in the turned render.
      const W0 = (l.frame.width + 16) * ppm;
      const H0 = (l.frame.height + 16) * ppm;
      const at = (x: number, y: number): Pt => {
        const u = (x + 8) * ppm;
        const v = (y + 8) * ppm;
        return turns === 0 ? [u, v] : turns === 1 ? [H0 - v, u] : turns === 2 ? [W0 - u, H0 - v] : [v, W0 - u];
      };
      for (const m of found) {
        m.points.forEach((p, k) => {
          const [ex, ey] = at(...(l.markers[m.corner]!.corners[k]!));
          expect(Math.hypot(p[0] - ex, p[1] - ey), `marker ${m.corner} corner ${k}`).toBeLessThan(1.5);
        });
      }
      const reg = register(l, img, found, 1)!;
      expect(reg.ticksFound).toBe(reg.ticksTotal);
      const b = l.board;
      const [x, y] = reg.toImage(b.x + 3.5 * b.cell, b.y + 7.5 * b.cell);
      const [ex, ey] = at(b.x + 3.5 * b.cell, b.y + 7.5 * b.cell);
      expect(Math.hypot(x - ex, y - ey)).toBeLessThan(0.3 * ppm);
      // Warping along rows gives exactly toImage's numbers.
      const xs = Float64Array.from({ length: 9 }, (_, i) => b.x - 20 + i * ((b.columns * b.cell + 40) / 8));
      const map = reg.rowMapper(xs);
      const row = new Float64Array(2 * xs.length);
      for (const yy of [b.y - 20, b.y + 0.4 * b.cell, b.y + b.rows * b.cell * 0.6, b.y + b.rows * b.cell + 20]) {
        map(yy, row);
        xs.forEach((xx, i) => expect([row[2 * i], row[2 * i + 1]]).toEqual(reg.toImage(xx, yy)));
      }
    });
  }

  it('finds nothing in a photo without a sheet', () => {
    const rng = createRng('noise');
    const img: GreyImage = { width: 400, height: 300, data: Uint8Array.from({ length: 400 * 300 }, () => rng.int(0, 255)) };
    expect(findMarkers(img)).toEqual([]);
  });
});
