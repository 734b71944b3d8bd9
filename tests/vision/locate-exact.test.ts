/**
 * The locator's fast paths give exactly what the plain code gives (vision-locate.md, "Speed,
 * again"): `splitByCount` scans a pixel's centres only where its nearest one may change, and
 * must cut every region as the plain k-means that scans every centre at every pixel does, ties
 * (a square cut in four, symmetric blobs) included.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { splitByCount } from '../../vision/locate/split.js';

/** The plain k-means cut (the code before the fast path): every centre at every pixel. */
function plainSplitByCount(inside: Uint8Array, w: number, h: number, k: number): { parts: Int32Array; count: number } {
  let n = 0;
  for (let i = 0; i < w * h; i++) n += inside[i] ? 1 : 0;
  const parts = new Int32Array(w * h);
  if (k < 2 || n < k * 4) return { parts, count: 0 };
  const xs: number[] = [], ys: number[] = [];
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (inside[y * w + x]) xs.push(x + 0.5), ys.push(y + 0.5);
  let mx = 0, my = 0;
  for (let i = 0; i < n; i++) (mx += xs[i]!), (my += ys[i]!);
  mx /= n;
  my /= n;
  const cx: number[] = [], cy: number[] = [];
  const nearest = new Array<number>(n).fill(Infinity);
  let pick = 0, far = -1;
  for (let i = 0; i < n; i++) {
    const ex = xs[i]! - mx, ey = ys[i]! - my;
    const d = ex * ex + ey * ey;
    if (d > far) (far = d), (pick = i);
  }
  for (let c = 0; c < k; c++) {
    cx[c] = xs[pick]!;
    cy[c] = ys[pick]!;
    far = -1;
    for (let i = 0; i < n; i++) {
      const ex = xs[i]! - cx[c]!, ey = ys[i]! - cy[c]!;
      nearest[i] = Math.min(nearest[i]!, ex * ex + ey * ey);
      if (nearest[i]! > far) (far = nearest[i]!), (pick = i);
    }
  }
  const owner = new Array<number>(n).fill(0);
  for (let round = 0; round < 12; round++) {
    const sx = new Array<number>(k).fill(0), sy = new Array<number>(k).fill(0), sn = new Array<number>(k).fill(0);
    let moved = false;
    for (let i = 0; i < n; i++) {
      let best = 0, bd = Infinity;
      for (let c = 0; c < k; c++) {
        const ex = xs[i]! - cx[c]!, ey = ys[i]! - cy[c]!;
        const d = ex * ex + ey * ey;
        if (d < bd) (bd = d), (best = c);
      }
      if (owner[i] !== best || round === 0) (moved = true), (owner[i] = best);
      sx[best] = sx[best]! + xs[i]!;
      sy[best] = sy[best]! + ys[i]!;
      sn[best] = sn[best]! + 1;
    }
    for (let c = 0; c < k; c++) if (sn[c]! > 0) (cx[c] = sx[c]! / sn[c]!), (cy[c] = sy[c]! / sn[c]!);
    if (!moved) break;
  }
  for (let i = 0; i < n; i++) parts[Math.floor(ys[i]!) * w + Math.floor(xs[i]!)] = owner[i]! + 1;
  return { parts, count: k };
}

/** A seeded region: a few squares and discs, mirrored both ways in some (exact ties), whole windows in others. */
function region(rng: ReturnType<typeof createRng>): { inside: Uint8Array; w: number; h: number } {
  const w = 8 + Math.floor(rng.next() * 90), h = 8 + Math.floor(rng.next() * 90);
  const inside = new Uint8Array(w * h);
  if (rng.next() < 0.15) return { inside: inside.fill(1), w, h };
  const mirrored = rng.next() < 0.4;
  for (let s = 1 + Math.floor(rng.next() * 6); s > 0; s--) {
    const cx = rng.next() * w, cy = rng.next() * h, r = 3 + rng.next() * 25, square = rng.next() < 0.5;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const dx = x + 0.5 - cx, dy = y + 0.5 - cy;
        if (square ? Math.abs(dx) >= r || Math.abs(dy) >= r : dx * dx + dy * dy >= r * r) continue;
        inside[y * w + x] = 1;
        if (mirrored) inside[y * w + w - 1 - x] = inside[(h - 1 - y) * w + x] = inside[(h - 1 - y) * w + w - 1 - x] = 1;
      }
    }
  }
  return { inside, w, h };
}

describe('splitByCount', () => {
  it('cuts every region as the plain k-means does, pixel for pixel (400 seeded regions, 2–8 dice)', () => {
    const rng = createRng('locate-exact:split-by-count');
    let cut = 0;
    for (let t = 0; t < 400; t++) {
      const { inside, w, h } = region(rng);
      const k = 2 + Math.floor(rng.next() * 7);
      const fast = splitByCount(inside, w, h, k), plain = plainSplitByCount(inside, w, h, k);
      expect(fast.count).toBe(plain.count);
      expect(Array.from(fast.parts)).toEqual(Array.from(plain.parts));
      if (plain.count > 0) cut++;
    }
    expect(cut).toBeGreaterThan(300);
  });

  it('cuts a full square window into four as the plain k-means does (every pixel a near tie)', () => {
    for (const side of [8, 9, 16, 33, 64]) {
      const inside = new Uint8Array(side * side).fill(1);
      expect(Array.from(splitByCount(inside, side, side, 4).parts)).toEqual(Array.from(plainSplitByCount(inside, side, side, 4).parts));
    }
  });
});
