/**
 * Small hand-placed test scenes for the locator's tests: dice drawn as rounded squares with pips on
 * a plain, grainy or mottled tray, anti-aliased, with optional soft shadows and light tint. Each die's
 * true box is known exactly, so a test can say "these two dice touch" and check both are found.
 * (The render engineer's `renderScene` is the realistic generator; this one is for pinned cases.)
 */
import type { Rng } from '../../shared/rng.js';
import type { Box, RgbImage } from '../../vision/types.js';

export type Rgb = [number, number, number];

export interface DieSpec {
  cx: number;
  cy: number;
  side: number;
  /** Radians. */
  angle?: number;
  body: Rgb;
  pip?: Rgb;
  pips?: 1 | 2 | 3 | 4 | 5 | 6;
  /** Soft shadow offset in pixels (0 = none). */
  shadow?: number;
}

export interface SceneSpec {
  width: number;
  height: number;
  tray: Rgb;
  /** 'plain', 'grain' (wood-like streaks) or 'mottled' (felt-like blotches). */
  texture?: 'plain' | 'grain' | 'mottled';
  /** A striped cloth: stripes of this colour across the tray colour, `width` px each, at `angle` radians (soft-edged). */
  stripes?: { color: Rgb; width: number; angle: number };
  /** Per-pixel Gaussian noise, sRGB units (default 2). */
  noise?: number;
  /** Light tint multiplied into every pixel (default white). */
  light?: Rgb;
  dice: DieSpec[];
  /** Plain flat discs (counters, a polka-dot cloth's dots): not dice. */
  discs?: { cx: number; cy: number; r: number; color: Rgb }[];
}

const PIP_LAYOUT: Record<number, [number, number][]> = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

/** Signed distance from (x, y) to a square of half-side h with corner radius r. */
function roundedSquare(x: number, y: number, h: number, r: number): number {
  const qx = Math.abs(x) - (h - r), qy = Math.abs(y) - (h - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** The die's exact pixel-edge box (its rounded square's extent). */
export function dieBox(d: DieSpec): Box {
  const h = d.side / 2, r = d.side * 0.12, ang = d.angle ?? 0;
  const ext = (h - r) * (Math.abs(Math.cos(ang)) + Math.abs(Math.sin(ang))) + r;
  return [d.cx - ext, d.cy - ext, d.cx + ext, d.cy + ext];
}

export function paintScene(rng: Rng, spec: SceneSpec): { image: RgbImage; boxes: Box[] } {
  const { width, height } = spec;
  const img = new Float32Array(width * height * 3);
  // Tray texture.
  const texture = spec.texture ?? 'plain';
  const streaks = Array.from({ length: 40 }, () => ({ y: rng.range(0, height), a: rng.range(-12, 12), f: rng.range(0.01, 0.05), p: rng.range(0, 6) }));
  const blobs = Array.from({ length: 60 }, () => ({ x: rng.range(0, width), y: rng.range(0, height), r: rng.range(8, 40), a: rng.range(-8, 8) }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let shade = 0;
      if (texture === 'grain') {
        for (const s of streaks) shade += s.a * Math.exp(-(((y - s.y + 6 * Math.sin(x * s.f + s.p)) / 2.5) ** 2));
      } else if (texture === 'mottled') {
        for (const b of blobs) {
          const d2 = ((x - b.x) ** 2 + (y - b.y) ** 2) / (b.r * b.r);
          if (d2 < 4) shade += b.a * Math.exp(-d2);
        }
      }
      const i = (y * width + x) * 3;
      let other = 0;
      if (spec.stripes) {
        // Coverage of the second colour, with a soft edge a pixel and a half wide (printed cloth).
        const u = (x + 0.5) * Math.cos(spec.stripes.angle) + (y + 0.5) * Math.sin(spec.stripes.angle);
        const phase = (((u / spec.stripes.width) % 2) + 2) % 2; // 0..2: first stripe, then second
        const edge = Math.min(Math.abs(phase - 1), Math.min(phase, 2 - phase)) * spec.stripes.width;
        other = phase >= 1 ? Math.min(1, 0.5 + edge / 1.5) : Math.max(0, 0.5 - edge / 1.5);
      }
      for (let k = 0; k < 3; k++) img[i + k] = spec.tray[k]! * (1 - other) + (spec.stripes?.color[k] ?? 0) * other + shade;
    }
  }
  for (const disc of spec.discs ?? []) {
    for (let y = Math.max(0, Math.floor(disc.cy - disc.r - 1)); y < Math.min(height, Math.ceil(disc.cy + disc.r + 1)); y++) {
      for (let x = Math.max(0, Math.floor(disc.cx - disc.r - 1)); x < Math.min(width, Math.ceil(disc.cx + disc.r + 1)); x++) {
        // Anti-aliased edge: coverage from the distance to the rim.
        const cover = Math.min(1, Math.max(0, disc.r + 0.5 - Math.hypot(x + 0.5 - disc.cx, y + 0.5 - disc.cy)));
        const i = (y * width + x) * 3;
        for (let q = 0; q < 3; q++) img[i + q] = img[i + q]! * (1 - cover) + disc.color[q]! * cover;
      }
    }
  }
  const boxes: Box[] = [];
  for (const d of spec.dice) {
    const box = dieBox(d);
    boxes.push(box);
    const h = d.side / 2, r = d.side * 0.12, ang = d.angle ?? 0;
    const c = Math.cos(ang), s = Math.sin(ang);
    const pip = d.pip ?? [20, 20, 20];
    const layout = PIP_LAYOUT[d.pips ?? 5]!;
    const pipR = d.side * 0.09;
    const sh = d.shadow ?? 0;
    const x0 = Math.max(0, Math.floor(box[0] - 2)), x1 = Math.min(width, Math.ceil(box[2] + sh + 6));
    const y0 = Math.max(0, Math.floor(box[1] - 2)), y1 = Math.min(height, Math.ceil(box[3] + sh + 6));
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = (y * width + x) * 3;
        if (sh > 0) {
          // Soft shadow: a blurred square offset down-right, darkening the tray by up to 35 %.
          const lx = (x + 0.5 - d.cx - sh) * c + (y + 0.5 - d.cy - sh) * s;
          const ly = -(x + 0.5 - d.cx - sh) * s + (y + 0.5 - d.cy - sh) * c;
          const dist = roundedSquare(lx, ly, h, r);
          const k = 1 - 0.35 / (1 + Math.exp(dist / (0.08 * d.side)));
          for (let q = 0; q < 3; q++) img[i + q]! *= k;
        }
        // 3×3 supersampling of the body and its pips.
        let cover = 0, pipCover = 0;
        for (let sy = 0; sy < 3; sy++) {
          for (let sx = 0; sx < 3; sx++) {
            const px = x + (sx + 0.5) / 3 - d.cx, py = y + (sy + 0.5) / 3 - d.cy;
            const lx = px * c + py * s, ly = -px * s + py * c;
            if (roundedSquare(lx, ly, h, r) > 0) continue;
            cover++;
            if (layout.some(([u, v]) => (lx - u * h * 0.5) ** 2 + (ly - v * h * 0.5) ** 2 <= pipR * pipR)) pipCover++;
          }
        }
        if (cover === 0) continue;
        const bodyW = (cover - pipCover) / 9, pipW = pipCover / 9, keep = 1 - cover / 9;
        for (let q = 0; q < 3; q++) img[i + q] = img[i + q]! * keep + d.body[q]! * bodyW + pip[q]! * pipW;
      }
    }
  }
  const light = spec.light ?? [255, 255, 255];
  const noise = spec.noise ?? 2;
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < img.length; i++) {
    const v = (img[i]! * light[i % 3]!) / 255 + noise * rng.normal();
    data[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
  }
  return { image: { width, height, data }, boxes };
}

export function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}

/** Greedy one-to-one matching at IoU ≥ `at`: found / missed / spurious. */
export function matchBoxes(truth: Box[], found: Box[], at = 0.5): { hits: number; missed: Box[]; spurious: Box[] } {
  const used = new Set<number>();
  const missed: Box[] = [];
  for (const t of truth) {
    let best = -1, bestIou = at;
    found.forEach((f, k) => {
      const v = iou(t, f);
      if (!used.has(k) && v >= bestIou) (best = k), (bestIou = v);
    });
    if (best >= 0) used.add(best);
    else missed.push(t);
  }
  return { hits: truth.length - missed.length, missed, spurious: found.filter((_, k) => !used.has(k)) };
}
