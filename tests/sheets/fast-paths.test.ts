/**
 * The reader's fast paths compute what the plain versions compute: the network's inference runner
 * against the reference forward pass, the word-at-a-time grey conversion against the per-pixel
 * formula, the ink map's paper closing against a brute-force closing, and the marker finder's
 * connected components against a flood fill.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { CELL_EXTRAS, CELL_IMAGE } from '../../vision/sheet/cells.js';
import { loadCellModel } from '../../vision/sheet/classify.js';
import { classify, cnnRunner, createCnn } from '../../vision/sheet/cnn.js';
import { inkMap } from '../../vision/sheet/ink.js';
import { components } from '../../vision/sheet/markers.js';
import { greyOf } from '../../vision/sheet/photo.js';

describe('the network runner', () => {
  it('gives the reference probabilities for networks of several shapes, windows included', () => {
    const rng = createRng('cnn-runner');
    // Odd sides (floor pooling), kernels 5, 3 and 2, channel counts that are not multiples of four.
    const shapes = [
      { size: 12, channels: [3, 5], kernels: [3, 3] },
      { size: 15, channels: [4, 6, 7], kernels: [5, 3, 2] },
      { size: 28, channels: [8, 16, 24], kernels: [5, 3, 3] },
    ];
    for (const s of shapes) {
      const m = createCnn(rng, s.size, 4, 6, s.channels, s.kernels, 9);
      for (const L of m.convs) for (let i = 0; i < L.b.length; i++) L.b[i] = rng.range(-0.2, 0.2);
      const run = cnnRunner(m);
      for (let t = 0; t < 10; t++) {
        const n = s.size + 3;
        const big = Float32Array.from({ length: n * n }, () => (rng.next() < 0.4 ? rng.range(0, 1.5) : 0));
        const extras = Float32Array.from({ length: 4 }, () => rng.next());
        const x = rng.int(0, 3);
        const y = rng.int(0, 3);
        const view = new Float32Array(s.size * s.size);
        for (let j = 0; j < s.size; j++) for (let i = 0; i < s.size; i++) view[j * s.size + i] = big[(j + y) * n + i + x]!;
        const want = classify(m, view, extras);
        const got = run.classify(big, extras, { stride: n, x, y });
        const whole = run.classify(view, extras);
        for (let k = 0; k < want.length; k++) {
          expect(Math.abs(got[k]! - want[k]!)).toBeLessThan(1e-5);
          expect(whole[k]).toBe(got[k]);
        }
      }
    }
  });

  it('reads like the reference with the committed cell model', () => {
    const { net, runner } = loadCellModel();
    const rng = createRng('cnn-runner-model');
    for (let t = 0; t < 20; t++) {
      const image = Float32Array.from({ length: CELL_IMAGE * CELL_IMAGE }, () => (rng.next() < 0.3 ? rng.range(0, 1.5) : rng.range(0, 0.05)));
      const extras = Float32Array.from({ length: CELL_EXTRAS }, () => rng.range(0, 2));
      const want = classify(net, image, extras);
      const got = runner.classify(image, extras);
      for (let k = 0; k < want.length; k++) expect(Math.abs(got[k]! - want[k]!)).toBeLessThan(1e-5);
    }
  });
});

describe('grey conversion', () => {
  it('equals (77 R + 150 G + 29 B) >> 8 per pixel, for 3 and 4 channels, any length and alignment', () => {
    const rng = createRng('grey');
    for (const [width, height, channels, offset] of [
      [7, 5, 3, 0],
      [64, 3, 3, 0],
      [9, 9, 3, 1],
      [5, 3, 4, 0],
      [6, 1, 1, 0],
    ] as const) {
      const bytes = Uint8Array.from({ length: offset + width * height * channels }, () => rng.int(0, 255));
      const data = bytes.subarray(offset);
      const g = greyOf({ data, width, height, channels });
      for (let i = 0; i < width * height; i++) {
        const j = i * channels;
        const want = channels < 3 ? data[j]! : (data[j]! * 77 + data[j + 1]! * 150 + data[j + 2]! * 29) >> 8;
        expect(g.data[i], `pixel ${i} of ${width}x${height}x${channels}`).toBe(want);
      }
    }
  });
});

describe('the ink map', () => {
  it('estimates the paper by the same closing as a brute-force max-then-min filter', () => {
    const rng = createRng('ink');
    const W = 37;
    const H = 23;
    const data = Uint8Array.from({ length: W * H }, () => (rng.next() < 0.15 ? rng.int(20, 120) : rng.int(170, 255)));
    const windowPx = 8;
    const r = windowPx / 2;
    const window = (src: Float32Array, horizontal: boolean, max: boolean): Float32Array => {
      const out = new Float32Array(W * H);
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++) {
          let v = max ? -Infinity : Infinity;
          for (let d = -r; d <= r; d++) {
            const xx = horizontal ? x + d : x;
            const yy = horizontal ? y : y + d;
            if (xx < 0 || yy < 0 || xx >= W || yy >= H) continue;
            const s = src[yy * W + xx]!;
            v = max ? Math.max(v, s) : Math.min(v, s);
          }
          out[y * W + x] = v;
        }
      return out;
    };
    const src = Float32Array.from(data);
    const closed = window(window(window(window(src, true, true), false, true), true, false), false, false);
    // The paper is the closing box-blurred over (2 * round(r / 3) + 1)², clipped at the edges.
    const b = Math.max(1, Math.round(r / 3));
    const ink = inkMap({ width: W, height: H, data }, windowPx);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        let s = 0;
        let n = 0;
        for (let yy = Math.max(0, y - b); yy <= Math.min(H - 1, y + b); yy++)
          for (let xx = Math.max(0, x - b); xx <= Math.min(W - 1, x + b); xx++) {
            s += closed[yy * W + xx]!;
            n++;
          }
        expect(Math.abs(ink.paper[y * W + x]! - s / n)).toBeLessThan(1e-3);
      }
  });
});

describe('connected components', () => {
  it('finds the blobs a flood fill finds (8-connected), in the order their first pixel is met', () => {
    const rng = createRng('components');
    const W = 61;
    const H = 43;
    const bin = Uint8Array.from({ length: W * H }, () => (rng.next() < 0.45 ? 1 : 0));
    const { labels, blobs } = components(bin, W, H);
    const seen = new Int32Array(W * H).fill(-1);
    const want: { area: number; x0: number; y0: number; x1: number; y1: number; first: number }[] = [];
    for (let start = 0; start < W * H; start++) {
      if (!bin[start] || seen[start]! >= 0) continue;
      const blob = { area: 0, x0: W, y0: H, x1: -1, y1: -1, first: start };
      const stack = [start];
      seen[start] = want.length;
      while (stack.length) {
        const k = stack.pop()!;
        const x = k % W;
        const y = (k - x) / W;
        blob.area++;
        blob.x0 = Math.min(blob.x0, x);
        blob.x1 = Math.max(blob.x1, x);
        blob.y0 = Math.min(blob.y0, y);
        blob.y1 = Math.max(blob.y1, y);
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            const yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= W || yy >= H) continue;
            const kk = yy * W + xx;
            if (!bin[kk] || seen[kk]! >= 0) continue;
            seen[kk] = want.length;
            stack.push(kk);
          }
      }
      want.push(blob);
    }
    expect(blobs.map((b) => ({ area: b.area, x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 }))).toEqual(want.map(({ first: _, ...b }) => b));
    // Every pixel carries its blob's label.
    blobs.forEach((b, i) => expect(labels[want[i]!.first]).toBe(b.label));
    for (let k = 0; k < W * H; k++) if (bin[k]) expect(labels[k]).toBe(blobs[seen[k]!]!.label);
  });
});
