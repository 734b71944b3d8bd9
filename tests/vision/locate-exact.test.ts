/**
 * The locator's fast paths give exactly what the plain code gives (vision-locate.md, "Speed,
 * again"): `splitByCount` scans a pixel's centres only where its nearest one may change, and
 * must cut every region as the plain k-means that scans every centre at every pixel does, ties
 * (a square cut in four, symmetric blobs) included. The stretch of a dim frame, four bytes at a
 * time, gives the byte-by-byte look-up; the arrays a pass borrows (scratch.ts) come zeroed and are
 * never lent to two passes at once, so a frame is located the same whatever came before it.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { splitByCount } from '../../vision/locate/split.js';
import { applyStretch } from '../../vision/locate/exposure.js';
import { FrameScratch } from '../../vision/locate/scratch.js';
import { learnTray, locateDice } from '../../vision/locate/index.js';
import { renderScene } from '../../vision/synth/index.js';
import type { RgbImage } from '../../vision/types.js';

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

/** The stretch byte by byte (the code before the four-byte path). */
function plainStretch(data: Uint8Array, gain: number, offset: number): Uint8Array {
  return Uint8Array.from(data, (v) => Math.max(0, Math.min(255, Math.round(v * gain + offset))));
}

describe('applyStretch', () => {
  it('gives the byte-by-byte look-up, four bytes at a time, on aligned and unaligned pictures of any length', () => {
    const rng = createRng('locate-exact:stretch');
    const bytes = Uint8Array.from({ length: 3 * 37 * 5 + 8 }, () => Math.floor(rng.next() * 256));
    for (const [gain, offset] of [[1.8, -40], [2.5, 3.2], [0.9, 0]] as const) {
      for (const start of [0, 1, 2, 3, 4]) {
        for (const pixels of [1, 2, 5, 37 * 5]) {
          const data = bytes.subarray(start, start + 3 * pixels);
          const out = applyStretch({ width: pixels, height: 1, data }, { gain, offset });
          expect(Array.from(out.data)).toEqual(Array.from(plainStretch(data, gain, offset)));
        }
      }
    }
  });
});

describe('FrameScratch', () => {
  it('lends zeroed arrays, and zeroed again once handed back and lent to the next pass', () => {
    const first = new FrameScratch();
    const a = first.f32(1000), b = first.i32(1000), c = first.u8(1000);
    a.fill(3.5);
    b.fill(-7);
    c.fill(9);
    first.release();
    const next = new FrameScratch();
    const [a2, b2, c2] = [next.f32(1000), next.i32(1000), next.u8(1000)];
    expect([a2, b2, c2].every((x) => x.every((v) => v === 0))).toBe(true);
    // The same arrays again: the pool lends them rather than making new ones.
    expect([a2 === a, b2 === b, c2 === c]).toEqual([true, true, true]);
    next.release();
  });

  it('never lends one array to two passes alive at once (a closer look inside a look), nor twice in one pass', () => {
    const outer = new FrameScratch();
    const mine = [outer.f32(500), outer.f32(500)];
    outer.release();
    const look = new FrameScratch();
    const held = [look.f32(500), look.f32(500), look.f32(500)];
    const closer = new FrameScratch();
    const inner = [closer.f32(500), closer.f32(500)];
    expect(new Set([...held, ...inner]).size).toBe(5);
    expect(held.filter((x) => mine.includes(x))).toHaveLength(2);
    closer.release();
    look.release();
  });
});

describe('locateDice with lent arrays', () => {
  it('finds the same dice in a frame however often, and whatever frames came between (the tray and a dim frame too)', () => {
    const s = renderScene(createRng('locate-exact:scratch'), { dice: 6, width: 320, height: 240, empty: true });
    const dim: RgbImage = { ...s.image, data: Uint8Array.from(s.image.data, (v) => Math.round(v * 0.35)) };
    const tray = learnTray(s.empty!);
    const other = renderScene(createRng('locate-exact:scratch-other'), { dice: 4, width: 200, height: 300 }).image;
    const looks = [() => locateDice(s.image), () => locateDice(dim), () => locateDice(s.image, { tray }), () => locateDice(dim, { tray }), () => locateDice(other)];
    const first = looks.map((look) => look());
    expect(first[0]!.length).toBeGreaterThan(0);
    for (const order of [[4, 3, 2, 1, 0], [0, 0, 2, 2, 1, 3, 4]]) for (const k of order) expect(looks[k]!()).toEqual(first[k]);
  });
});
