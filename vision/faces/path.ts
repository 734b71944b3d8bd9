/**
 * Building SVG path data from geometry: circles, rounded rectangles, polygons and stroked
 * centrelines turned into filled outlines (so a numeral is a filled shape, no font and no SVG
 * stroke needed). All output uses absolute M/L/C/Z commands only, which the rasteriser, the
 * dashboard's SVG and pdfkit all understand. Coordinates are in the 100 × 100 face box.
 */

export type Pt = readonly [number, number];

const fmt = (v: number): string => {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
};

/** Accumulates subpaths into one `d` string (filled with the nonzero rule). */
export class PathBuilder {
  private readonly parts: string[] = [];

  moveTo(x: number, y: number): this {
    this.parts.push(`M${fmt(x)} ${fmt(y)}`);
    return this;
  }

  lineTo(x: number, y: number): this {
    this.parts.push(`L${fmt(x)} ${fmt(y)}`);
    return this;
  }

  cubicTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): this {
    this.parts.push(`C${fmt(x1)} ${fmt(y1)} ${fmt(x2)} ${fmt(y2)} ${fmt(x)} ${fmt(y)}`);
    return this;
  }

  close(): this {
    this.parts.push('Z');
    return this;
  }

  /** A closed polygon. */
  polygon(points: readonly Pt[]): this {
    if (points.length < 3) return this;
    this.moveTo(points[0]![0], points[0]![1]);
    for (let i = 1; i < points.length; i++) this.lineTo(points[i]![0], points[i]![1]);
    return this.close();
  }

  /** An ellipse from four cubic Béziers, clockwise on screen (or counter-clockwise: a hole). */
  ellipse(cx: number, cy: number, rx: number, ry: number, hole = false): this {
    const k = 0.5522847498;
    const sy = hole ? -1 : 1;
    this.moveTo(cx + rx, cy);
    this.cubicTo(cx + rx, cy + sy * k * ry, cx + k * rx, cy + sy * ry, cx, cy + sy * ry);
    this.cubicTo(cx - k * rx, cy + sy * ry, cx - rx, cy + sy * k * ry, cx - rx, cy);
    this.cubicTo(cx - rx, cy - sy * k * ry, cx - k * rx, cy - sy * ry, cx, cy - sy * ry);
    this.cubicTo(cx + k * rx, cy - sy * ry, cx + rx, cy - sy * k * ry, cx + rx, cy);
    return this.close();
  }

  circle(cx: number, cy: number, r: number, hole = false): this {
    return this.ellipse(cx, cy, r, r, hole);
  }

  /** Rectangle with corner radius r (clamped to half the shorter side), clockwise on screen. */
  roundedRect(x: number, y: number, w: number, h: number, r: number): this {
    const rr = Math.max(0, Math.min(r, w / 2, h / 2));
    if (rr === 0) return this.polygon([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]);
    const k = 0.5522847498 * rr;
    this.moveTo(x + rr, y);
    this.lineTo(x + w - rr, y);
    this.cubicTo(x + w - rr + k, y, x + w, y + rr - k, x + w, y + rr);
    this.lineTo(x + w, y + h - rr);
    this.cubicTo(x + w, y + h - rr + k, x + w - rr + k, y + h, x + w - rr, y + h);
    this.lineTo(x + rr, y + h);
    this.cubicTo(x + rr - k, y + h, x, y + h - rr + k, x, y + h - rr);
    this.lineTo(x, y + rr);
    this.cubicTo(x, y + rr - k, x + rr - k, y, x + rr, y);
    return this.close();
  }

  isEmpty(): boolean {
    return this.parts.length === 0;
  }

  toString(): string {
    return this.parts.join('');
  }
}

/** Points along a cubic Bézier (excluding its start point). */
export function flattenCubic(p0: Pt, p1: Pt, p2: Pt, p3: Pt, steps: number): Pt[] {
  const out: Pt[] = [];
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    const u = 1 - t;
    const a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
    out.push([a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]]);
  }
  return out;
}

/**
 * A centreline described with the same commands as a path (M/L/C in any coordinates), turned into
 * polylines. Each `M` starts a new polyline.
 */
export class Centreline {
  readonly lines: Pt[][] = [];
  private current: Pt[] | null = null;

  constructor(private readonly map: (p: Pt) => Pt = (p) => p, private readonly curveSteps = 14) {}

  M(x: number, y: number): this {
    this.current = [this.map([x, y])];
    this.lines.push(this.current);
    return this;
  }

  L(x: number, y: number): this {
    this.need().push(this.map([x, y]));
    return this;
  }

  C(x1: number, y1: number, x2: number, y2: number, x: number, y: number): this {
    const line = this.need();
    const p0 = line[line.length - 1]!;
    line.push(...flattenCubic(p0, this.map([x1, y1]), this.map([x2, y2]), this.map([x, y]), this.curveSteps));
    return this;
  }

  /** An ellipse centreline as a closed polyline (first point repeated at the end). */
  ellipse(cx: number, cy: number, rx: number, ry: number, steps = 40): this {
    const pts: Pt[] = [];
    for (let i = 0; i <= steps; i++) {
      const a = (i / steps) * Math.PI * 2;
      pts.push(this.map([cx + rx * Math.cos(a), cy + ry * Math.sin(a)]));
    }
    this.lines.push(pts);
    this.current = null;
    return this;
  }

  private need(): Pt[] {
    if (!this.current) throw new Error('Centreline: draw command before M');
    return this.current;
  }
}

function dedupe(points: readonly Pt[]): Pt[] {
  const out: Pt[] = [];
  for (const p of points) {
    const q = out[out.length - 1];
    if (!q || Math.hypot(p[0] - q[0], p[1] - q[1]) > 1e-6) out.push(p);
  }
  return out;
}

/** Split a polyline at corners sharper than `maxTurn` radians (joined again by round caps). */
function splitAtCorners(points: readonly Pt[], maxTurn: number): Pt[][] {
  const pieces: Pt[][] = [];
  let piece: Pt[] = [points[0]!];
  for (let i = 1; i < points.length; i++) {
    piece.push(points[i]!);
    if (i < points.length - 1) {
      const a = points[i - 1]!, b = points[i]!, c = points[i + 1]!;
      const t1 = Math.atan2(b[1] - a[1], b[0] - a[0]);
      const t2 = Math.atan2(c[1] - b[1], c[0] - b[0]);
      let turn = Math.abs(t2 - t1);
      if (turn > Math.PI) turn = 2 * Math.PI - turn;
      if (turn > maxTurn) {
        pieces.push(piece);
        piece = [points[i]!];
      }
    }
  }
  pieces.push(piece);
  return pieces;
}

function arcPoints(c: Pt, r: number, from: number, to: number, steps: number): Pt[] {
  const out: Pt[] = [];
  for (let i = 1; i < steps; i++) {
    const a = from + ((to - from) * i) / steps;
    out.push([c[0] + r * Math.cos(a), c[1] + r * Math.sin(a)]);
  }
  return out;
}

/** Offset of a polyline by signed distance `d(i)` along its left normal, mitred (capped). */
function offsetSide(points: readonly Pt[], half: (i: number) => number, side: 1 | -1): Pt[] {
  const n = points.length;
  const out: Pt[] = [];
  for (let i = 0; i < n; i++) {
    const prev = points[Math.max(0, i - 1)]!;
    const next = points[Math.min(n - 1, i + 1)]!;
    const cur = points[i]!;
    // Normals of the segments either side, averaged (a mitre), with the mitre length capped.
    const n1 = segNormal(i > 0 ? prev : cur, i > 0 ? cur : next);
    const n2 = segNormal(i < n - 1 ? cur : prev, i < n - 1 ? next : cur);
    let mx = n1[0] + n2[0], my = n1[1] + n2[1];
    const ml = Math.hypot(mx, my) || 1;
    mx /= ml;
    my /= ml;
    const cos = Math.max(0.5, mx * n1[0] + my * n1[1]);
    const d = (side * half(i)) / cos;
    out.push([cur[0] + mx * d, cur[1] + my * d]);
  }
  return out;
}

function segNormal(a: Pt, b: Pt): Pt {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l = Math.hypot(dx, dy) || 1;
  return [dy / l, -dx / l];
}

/**
 * Add the filled outline of a stroked polyline: `width` is constant or a function of the position
 * 0..1 along the line (a taper). Open lines get round caps; a closed line (last point equal to the
 * first) becomes a ring: outer contour one way, inner the other, so it has a hole under the
 * nonzero rule while overlapping strokes still merge.
 */
export function strokeOutline(path: PathBuilder, line: readonly Pt[], width: number | ((t: number) => number)): void {
  const pts = dedupe(line);
  if (pts.length < 2) {
    const p = pts[0];
    const w = typeof width === 'number' ? width : width(0);
    if (p) path.circle(p[0], p[1], w / 2);
    return;
  }
  const first = pts[0]!, last = pts[pts.length - 1]!;
  const closed = pts.length > 3 && Math.hypot(first[0] - last[0], first[1] - last[1]) < 1e-6;
  if (closed) {
    const ring = pts.slice(0, -1);
    const loop = [ring[ring.length - 1]!, ...ring, ring[0]!];
    const w = typeof width === 'number' ? width : width(0);
    const left = offsetSide(loop, () => w / 2, 1).slice(1, -1);
    const right = offsetSide(loop, () => w / 2, -1).slice(1, -1);
    path.polygon(left);
    path.polygon(right.reverse());
    return;
  }
  for (const piece of splitAtCorners(pts, (50 * Math.PI) / 180)) {
    // Arc-length parameter for tapering.
    const cum = [0];
    for (let i = 1; i < piece.length; i++) {
      cum.push(cum[i - 1]! + Math.hypot(piece[i]![0] - piece[i - 1]![0], piece[i]![1] - piece[i - 1]![1]));
    }
    const total = cum[cum.length - 1]! || 1;
    const halfAt = (i: number) => (typeof width === 'number' ? width : width(cum[i]! / total)) / 2;
    const left = offsetSide(piece, halfAt, 1);
    const right = offsetSide(piece, halfAt, -1);
    const a = piece[0]!, b = piece[piece.length - 1]!;
    const endDir = Math.atan2(b[1] - piece[piece.length - 2]![1], b[0] - piece[piece.length - 2]![0]);
    const startDir = Math.atan2(piece[1]![1] - a[1], piece[1]![0] - a[0]);
    const outline: Pt[] = [...left];
    // End cap: from the left offset (direction − 90°) round through the tip to the right.
    const he = halfAt(piece.length - 1);
    if (he > 0.01) outline.push(...arcPoints(b, he, endDir - Math.PI / 2, endDir + Math.PI / 2, 10));
    outline.push(...right.reverse());
    const hs = halfAt(0);
    if (hs > 0.01) outline.push(...arcPoints(a, hs, startDir + Math.PI / 2, startDir + (3 * Math.PI) / 2, 10));
    path.polygon(outline);
  }
}
