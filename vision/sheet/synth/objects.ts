/**
 * Things lying on the sheet when it is photographed: a pen or a marker (a long dark rounded bar with
 * a highlight along it and a soft shadow beside it), or a cover (a loose sheet of paper, a book)
 * over part of the board. Painted into the page texture before the camera, so they bend, tilt and
 * are lit with the page. Positions in frame millimetres (the layout's), so a test places them over
 * the cells it means; nothing random, so a photo's other content stays the same with or without them.
 */
import { createRng } from '../../../shared/rng.js';
import type { Texture } from './camera.js';

export type Pt = [number, number];

/** Pens as they come: a body colour each (a white or cream one is hardly darker than the paper). */
export const PEN_COLOURS = {
  black: [24, 24, 28],
  grey: [150, 152, 158],
  blue: [35, 65, 170],
  red: [190, 35, 40],
  green: [35, 130, 65],
  yellow: [235, 200, 40],
  white: [246, 246, 244],
  cream: [236, 228, 206],
} as const satisfies Record<string, readonly [number, number, number]>;
export type PenColour = keyof typeof PEN_COLOURS;

/** A pen or a marker: a capsule `length` × `width` mm centred at `at`, along `angle` (degrees from the frame's x axis). */
export interface PenOnSheet {
  kind: 'pen';
  at: Pt;
  angle: number;
  length: number;
  width: number;
  /** The body's colour (default a black pen's); `colour` names one of PEN_COLOURS instead. */
  rgb?: [number, number, number];
  colour?: PenColour;
  /**
   * A cap over the last `cap` mm of the `+angle` end (a little wider than the body, a shade darker)
   * with a metal clip along it; default none (the plain capsule of the thirty-ninth session).
   */
  cap?: number;
}

/**
 * A pen at a seeded random place across a board (`board`: its top-left corner, cell size, columns and
 * rows, frame mm): 100 to 140 mm long, 8 to 12 mm wide, at any angle, its middle within the board's
 * middle half, with a cap and clip two times in three. The same pen for the same seed on every machine.
 */
export function randomPen(seed: string, board: { x: number; y: number; cell: number; columns: number; rows: number }, colour: PenColour): PenOnSheet {
  const rng = createRng(`sheet-pen:${seed}`);
  const w = board.columns * board.cell;
  const h = board.rows * board.cell;
  const pen: PenOnSheet = {
    kind: 'pen',
    at: [board.x + w * rng.range(0.25, 0.75), board.y + h * rng.range(0.25, 0.75)],
    angle: rng.range(-90, 90),
    length: rng.range(100, 140),
    width: rng.range(8, 12),
    colour,
  };
  if (rng.next() < 2 / 3) pen.cap = rng.range(30, 50);
  return pen;
}

/** A flat cover (paper, a book) over a polygon of the frame, casting a soft shadow of `shadowMm` towards +x, +y. */
export interface CoverOnSheet {
  kind: 'cover';
  polygon: Pt[];
  rgb: [number, number, number];
  shadowMm?: number;
}

export type OnSheet = PenOnSheet | CoverOnSheet;

const smooth = (t: number) => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

function insidePolygon(poly: readonly Pt[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Distance from (x, y) to the polygon's outline. */
function outlineDistance(poly: readonly Pt[], x: number, y: number): number {
  let best = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [ax, ay] = poly[j]!;
    const [bx, by] = poly[i]!;
    const dx = bx - ax;
    const dy = by - ay;
    const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy || 1)));
    best = Math.min(best, Math.hypot(x - ax - t * dx, y - ay - t * dy));
  }
  return best;
}

/** Paints `objects` into `tex`; `off` is where the frame's origin sits on the page (mm), as `renderPage` placed it. */
export function paintOnSheet(tex: Texture, objects: readonly OnSheet[], off: { x: number; y: number }): void {
  for (const o of objects) {
    if (o.kind === 'pen') paintPen(tex, o, off);
    else paintCover(tex, o, off);
  }
}

/** Visits the texels of a frame-mm rectangle with their frame-mm centres. */
function eachTexel(tex: Texture, off: { x: number; y: number }, x0: number, y0: number, x1: number, y1: number, f: (i: number, x: number, y: number) => void): void {
  const p = tex.ppm;
  const i0 = Math.max(0, Math.floor((x0 + off.x) * p));
  const i1 = Math.min(tex.width - 1, Math.ceil((x1 + off.x) * p));
  const j0 = Math.max(0, Math.floor((y0 + off.y) * p));
  const j1 = Math.min(tex.height - 1, Math.ceil((y1 + off.y) * p));
  for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) f((j * tex.width + i) * 3, (i + 0.5) / p - off.x, (j + 0.5) / p - off.y);
}

function paintPen(tex: Texture, pen: PenOnSheet, off: { x: number; y: number }): void {
  const a = (pen.angle * Math.PI) / 180;
  const ux = Math.cos(a);
  const uy = Math.sin(a);
  const half = pen.width / 2;
  const core = Math.max(0, pen.length / 2 - half);
  const rgb = pen.rgb ?? (pen.colour ? PEN_COLOURS[pen.colour] : PEN_COLOURS.black);
  const cap = Math.min(pen.cap ?? 0, pen.length * 0.6);
  const reach = pen.length / 2 + pen.width + 4;
  const [cx, cy] = pen.at;
  // Distance to the pen's axis (a segment: the ends are rounded) from a point, and the signed offset across it.
  const axis = (x: number, y: number, sx: number, sy: number): [number, number] => {
    const dx = x - cx - sx;
    const dy = y - cy - sy;
    const t = Math.max(-core, Math.min(core, dx * ux + dy * uy));
    const across = -dx * uy + dy * ux;
    return [Math.hypot(dx - t * ux, dy - t * uy), across];
  };
  // The shadow first, on the paper: the pen is lit from the upper left, its shadow falls 2 mm down and right, soft.
  const shadowShift = 2;
  const px = 1 / tex.ppm;
  eachTexel(tex, off, cx - reach, cy - reach, cx + reach, cy + reach, (i, x, y) => {
    const [d] = axis(x, y, shadowShift, shadowShift);
    const s = 0.45 * (1 - smooth((d - half + 1.5) / 3.5));
    if (s <= 0) return;
    for (let c = 0; c < 3; c++) tex.data[i + c] = tex.data[i + c]! * (1 - s);
  });
  // The body: a cylinder, darker at its sides, with a narrow highlight a third of the way from its lit edge.
  eachTexel(tex, off, cx - reach, cy - reach, cx + reach, cy + reach, (i, x, y) => {
    const [d0, across] = axis(x, y, 0, 0);
    // On the cap the body is a little wider and a shade darker (its own moulding).
    const onCap = cap > 0 && (x - cx) * ux + (y - cy) * uy > pen.length / 2 - cap;
    const r = onCap ? half + 0.4 : half;
    const d = onCap ? Math.abs(across) : d0;
    const cover = Math.max(0, Math.min(1, (r - d) / px + 0.5));
    if (cover <= 0) return;
    const n = Math.min(1, d / r) * Math.sign(across || 1);
    const shade = (0.55 + 0.45 * Math.sqrt(Math.max(0, 1 - n * n))) * (onCap ? 0.9 : 1);
    const highlight = 150 * Math.exp(-(((n + 0.4) / 0.1) ** 2));
    for (let c = 0; c < 3; c++) {
      const v = Math.min(255, rgb[c]! * shade + highlight);
      tex.data[i + c] = tex.data[i + c]! * (1 - cover) + v * cover;
    }
  });
  if (cap > 0) paintClip(tex, pen, off, cap);
}

/** The cap's clip: a narrow bright metal strip along the top of the cap, from near its end, with its own thin shadow on the cap. */
function paintClip(tex: Texture, pen: PenOnSheet, off: { x: number; y: number }, cap: number): void {
  const a = (pen.angle * Math.PI) / 180;
  const ux = Math.cos(a);
  const uy = Math.sin(a);
  const [cx, cy] = pen.at;
  const half = 0.8;
  // Along the axis from the cap's end back (t in pen coordinates), slightly towards the lit side.
  const t0 = pen.length / 2 - cap * 0.9;
  const t1 = pen.length / 2 - 2;
  const s0 = -pen.width * 0.12;
  const reach = pen.length / 2 + 2;
  const px = 1 / tex.ppm;
  eachTexel(tex, off, cx - reach, cy - reach, cx + reach, cy + reach, (i, x, y) => {
    const dx = x - cx;
    const dy = y - cy;
    const t = dx * ux + dy * uy;
    const s = -dx * uy + dy * ux;
    if (t < t0 - 1 || t > t1 + 1) return;
    const inT = Math.max(0, Math.min(1, Math.min(t - t0, t1 - t) / px + 0.5));
    // Its shadow on the cap, 0.5 mm to the unlit side.
    const sh = 0.35 * inT * (1 - smooth((Math.abs(s - s0 - 0.5) - half) / 0.6));
    const cover = inT * Math.max(0, Math.min(1, (half - Math.abs(s - s0)) / px + 0.5));
    const n = (s - s0) / half;
    const v = Math.min(255, 170 + 70 * Math.exp(-(((n + 0.3) / 0.35) ** 2)));
    for (let c = 0; c < 3; c++) {
      const under = tex.data[i + c]! * (1 - sh);
      tex.data[i + c] = under * (1 - cover) + v * cover;
    }
  });
}

function paintCover(tex: Texture, cover: CoverOnSheet, off: { x: number; y: number }): void {
  const xs = cover.polygon.map((p) => p[0]);
  const ys = cover.polygon.map((p) => p[1]);
  const sh = cover.shadowMm ?? 2;
  const shifted = cover.polygon.map(([x, y]) => [x + sh, y + sh] as Pt);
  // Its shadow on the page, then the cover itself (a faint grain, so it is not a perfectly flat colour).
  eachTexel(tex, off, Math.min(...xs) - 2, Math.min(...ys) - 2, Math.max(...xs) + sh + 6, Math.max(...ys) + sh + 6, (i, x, y) => {
    if (insidePolygon(cover.polygon, x, y)) {
      const grain = 1 + 0.01 * Math.sin(x * 7.3 + y * 3.1) * Math.sin(y * 5.7 - x * 1.3);
      for (let c = 0; c < 3; c++) tex.data[i + c] = Math.min(255, cover.rgb[c]! * grain);
      return;
    }
    const inShadow = insidePolygon(shifted, x, y) ? 1 : 1 - smooth(outlineDistance(shifted, x, y) / 3);
    const s = 0.35 * inShadow;
    if (s > 0) for (let c = 0; c < 3; c++) tex.data[i + c] = tex.data[i + c]! * (1 - s);
  });
}
