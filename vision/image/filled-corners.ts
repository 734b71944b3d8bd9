/**
 * Corners a rotation filled: a picture turned on a grown canvas (a dataset's rotation
 * augmentation, an editor's "straighten") comes back with a triangle of flat black or white in
 * each corner. Read as it is, the die sits among four flat wedges, which training never showed:
 * the real Catan crops turned 15° on black read 114 of 151 right, against 146 as taken. Painted
 * over from the picture beside them, as `squareCrop` repeats a frame's edge outwards, they read
 * 140 (138 with the reader's fallback below; vision-model.md, "Corners a rotation filled").
 *
 * A wedge is a right triangle on its corner with a straight long side, flat pure black or white
 * to within JPEG's error, and at least three corners carry one of the same colour. A
 * photographed background is neither that flat nor that pure, except where it is blown out: a
 * tight crop of a turned die on a blown-out card has white wedges of its own, so the reader
 * reads the picture as it came too (`Framed.unpainted`).
 */
import type { RgbImage } from '../types.js';

/** A pixel belongs to a wedge when no channel is further than this from the corner's colour. */
const TOLERANCE = 12;
/**
 * Inside a wedge (away from its long side, where JPEG rings), at least this share of the pixels
 * is within FLAT_WITHIN of the corner's colour in every channel.
 */
const FLAT_WITHIN = 4;
const FLAT_SHARE = 0.9;
/**
 * Pixels left out along a wedge's long side for the flatness test, and painted over with the
 * wedge: JPEG rings there. Chosen on rendered pictures turned 15° and 30° on black (240, dev
 * seed): 2 / 3 / 4 / 5 / 6 px read 214 / 215 / 220 / 220 / 219 right, unfilled 203.
 */
const RINGING = 4;
/** A wedge's legs along the two edges: at least this long, at most this share of their side. */
const MIN_LEG = 3;
const MAX_LEG_SHARE = 0.98;
/** The long side's run ends may stray from a straight line by this (RMS across the line, pixels). */
const STRAIGHT_RMS = 1.5;
/** At least this many corners carry a wedge of one colour. */
const MIN_CORNERS = 3;
/** Interior pixels a wedge needs for its flatness to count. */
const MIN_INTERIOR = 6;

type Colour = [number, number, number];

/**
 * The colours rotations fill with: black (the default of PIL, OpenCV, torchvision and dataset
 * exports) and white (editors). A photographed background is never one flat pure black or
 * white, but a render's noiseless card can be as flat as a fill, and a tight crop of a turned
 * die on it has four wedges of its own: filled, 8 of 78 such renders read worse.
 */
const FILLS: readonly Colour[] = [[0, 0, 0], [255, 255, 255]];

export interface Wedge {
  /** The corner (x, y) and the directions into the picture from it. */
  x: number;
  y: number;
  sx: 1 | -1;
  sy: 1 | -1;
  colour: Colour;
  /** Run of wedge pixels from the edge, per row counted from the corner. */
  runs: number[];
}

function colourAt(image: RgbImage, x: number, y: number): Colour {
  const i = (y * image.width + x) * 3;
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
}

/** Whether no channel of `a` is further than `tolerance` from `b`'s. */
function within(a: Colour, b: Colour, tolerance = TOLERANCE): boolean {
  return Math.abs(a[0] - b[0]) <= tolerance && Math.abs(a[1] - b[1]) <= tolerance && Math.abs(a[2] - b[2]) <= tolerance;
}

/** `within` for the pixel at (x, y), read from the bytes (no Colour made per pixel). */
function near(image: RgbImage, x: number, y: number, c: Colour, tolerance = TOLERANCE): boolean {
  const i = (y * image.width + x) * 3, d = image.data;
  return Math.abs(d[i]! - c[0]) <= tolerance && Math.abs(d[i + 1]! - c[1]) <= tolerance && Math.abs(d[i + 2]! - c[2]) <= tolerance;
}

/** The wedge on one corner, or null: right-angled on the corner, straight long side, flat inside. */
function wedgeAt(image: RgbImage, x: number, y: number): Wedge | null {
  const { width: w, height: h } = image;
  const sx = x === 0 ? 1 : -1, sy = y === 0 ? 1 : -1;
  const colour = colourAt(image, x, y);
  if (!FILLS.some((f) => within(f, colour))) return null;
  const runs: number[] = [];
  const maxX = Math.floor(MAX_LEG_SHARE * w), maxY = Math.floor(MAX_LEG_SHARE * h);
  for (let k = 0; ; k++) {
    if (k > maxY) return null;
    const row = y + sy * k;
    let r = 0;
    while (r <= maxX && near(image, x + sx * r, row, colour)) r++;
    if (r > maxX) return null;
    if (r === 0) break;
    runs.push(r);
  }
  const lx = runs[0] ?? 0, ly = runs.length;
  if (lx < MIN_LEG || ly < MIN_LEG) return null;
  // Straight long side: each row's run ends on the line from (lx, 0) to (0, ly), to within
  // STRAIGHT_RMS measured across the line (a run's end strays along the row by the line's slope
  // times as much).
  let dev = 0;
  runs.forEach((r, k) => (dev += (r - lx * (1 - (k + 0.5) / ly)) ** 2));
  const across = (Math.sqrt(dev / ly) * ly) / Math.hypot(lx, ly);
  if (across > STRAIGHT_RMS) return null;
  // Flat inside, away from the long side: nearly every pixel the corner's colour to within
  // JPEG's error.
  let n = 0, flat = 0;
  runs.forEach((r, k) => {
    if (k >= ly - RINGING) return;
    for (let j = 0; j < r - RINGING; j++) {
      n++;
      if (near(image, x + sx * j, y + sy * k, colour, FLAT_WITHIN)) flat++;
    }
  });
  if (n < MIN_INTERIOR || flat < FLAT_SHARE * n) return null;
  return { x, y, sx, sy, colour, runs };
}

/** The wedges a rotation left in the picture's corners (none unless at least three agree). */
export function filledCorners(image: RgbImage): Wedge[] {
  const { width: w, height: h } = image;
  if (w < 2 * MIN_LEG || h < 2 * MIN_LEG) return [];
  const found: Wedge[] = [];
  for (const [x, y] of [[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1]] as const) {
    const wedge = wedgeAt(image, x, y);
    if (wedge) found.push(wedge);
  }
  // One fill colour: keep the largest group of wedges that agree with each other.
  const agreeing = found.map((a) => found.filter((b) => within(a.colour, b.colour)));
  const best = agreeing.reduce<Wedge[]>((p, q) => (q.length > p.length ? q : p), []);
  return best.length >= MIN_CORNERS ? best : [];
}

/**
 * The picture with the corners a rotation filled painted over from inside: each wedge pixel takes
 * the colour of the first picture pixel towards the picture's centre, past JPEG's ringing. The
 * picture itself when there are none (the same object).
 */
export function withoutFilledCorners(picture: RgbImage): { image: RgbImage; wedges: number } {
  const wedges = filledCorners(picture);
  if (!wedges.length) return { image: picture, wedges: 0 };
  const { width: w, height: h } = picture;
  const filled = new Uint8Array(w * h);
  for (const { x, y, sx, sy, runs } of wedges) {
    runs.forEach((r, k) => {
      const row = y + sy * k;
      // The ringing beside the long side goes with the wedge.
      for (let j = 0; j < Math.min(w, r + RINGING); j++) filled[row * w + x + sx * j] = 1;
    });
    for (let k = runs.length; k < Math.min(h, runs.length + RINGING); k++) filled[(y + sy * k) * w + x] = 1;
  }
  const data = new Uint8Array(picture.data);
  const cx = (w - 1) / 2, cy = (h - 1) / 2;
  for (let py = 0; py < h; py++) {
    for (let px = 0; px < w; px++) {
      if (!filled[py * w + px]) continue;
      // The first picture pixel on the way to the centre: a wedge is a triangle on the edge, so
      // along that way its pixels come first. Doubling then halving finds where they end in a
      // few looks instead of a walk across the wedge (a phone photo's are hundreds of pixels deep).
      const dx = cx - px, dy = cy - py;
      const steps = Math.max(1, Math.ceil(Math.sqrt(dx * dx + dy * dy)));
      const ux = dx / steps, uy = dy / steps;
      let inside = 0, out = 1;
      while (out < steps && filled[((py + uy * out + 0.5) | 0) * w + ((px + ux * out + 0.5) | 0)]) {
        inside = out;
        out = Math.min(steps, 2 * out);
      }
      while (out - inside > 1) {
        const mid = (inside + out) >> 1;
        if (filled[((py + uy * mid + 0.5) | 0) * w + ((px + ux * mid + 0.5) | 0)]) inside = mid;
        else out = mid;
      }
      const from = ((py + uy * out + 0.5) | 0) * w + ((px + ux * out + 0.5) | 0);
      if (filled[from]) continue;
      data[(py * w + px) * 3] = picture.data[from * 3]!;
      data[(py * w + px) * 3 + 1] = picture.data[from * 3 + 1]!;
      data[(py * w + px) * 3 + 2] = picture.data[from * 3 + 2]!;
    }
  }
  return { image: { width: w, height: h, data }, wedges: wedges.length };
}
