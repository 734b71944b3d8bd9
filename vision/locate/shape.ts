/**
 * Shape measurements of a labelled region: its convex hull and the minimum-area rectangle around
 * it. A die seen from above is a near-square (rounded corners, perhaps a side face showing), so
 * the rectangle's aspect and how much of it the region fills tell a die from a shoe or a shadow.
 */

export type Point = [number, number];

export interface RegionShape {
  /** Convex hull area (pixel-edge geometry, so a single pixel has area 1). */
  hullArea: number;
  /** Minimum-area enclosing rectangle: sides (long ≥ short), area and the long side's angle. */
  long: number;
  short: number;
  rectArea: number;
  angle: number;
  hull: Point[];
}

function cross(o: Point, a: Point, b: Point): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** Andrew's monotone chain; returns the hull counter-clockwise without repeating the first point. */
export function convexHull(points: Point[]): Point[] {
  const pts = points.slice().sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  if (pts.length < 3) return pts;
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

export function polygonArea(poly: Point[]): number {
  let s = 0;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i]!, q = poly[(i + 1) % poly.length]!;
    s += p[0] * q[1] - q[0] * p[1];
  }
  return Math.abs(s) / 2;
}

/** Minimum-area rectangle: one of its sides lies along a hull edge (rotating calipers' fact). */
export function minAreaRect(hull: Point[]): { long: number; short: number; area: number; angle: number } {
  if (hull.length < 3) return { long: 0, short: 0, area: 0, angle: 0 };
  let best = { long: 0, short: 0, area: Infinity, angle: 0 };
  for (let i = 0; i < hull.length; i++) {
    const p = hull[i]!, q = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (len === 0) continue;
    const ux = (q[0] - p[0]) / len, uy = (q[1] - p[1]) / len;
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (const r of hull) {
      const u = r[0] * ux + r[1] * uy;
      const v = -r[0] * uy + r[1] * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const w = maxU - minU, h = maxV - minV;
    if (w * h < best.area) {
      best = { long: Math.max(w, h), short: Math.min(w, h), area: w * h, angle: Math.atan2(w >= h ? uy : ux, w >= h ? ux : -uy) };
    }
  }
  return best;
}

/** Hull of the pixels labelled `label` inside the box, from each row's outermost pixels. */
export function regionShape(labels: Int32Array, width: number, label: number, box: { x0: number; y0: number; x1: number; y1: number }): RegionShape {
  const pts: Point[] = [];
  for (let y = box.y0; y < box.y1; y++) {
    const r = y * width;
    let lo = -1, hi = -1;
    for (let x = box.x0; x < box.x1; x++) {
      if (labels[r + x] === label) {
        if (lo < 0) lo = x;
        hi = x;
      }
    }
    if (lo < 0) continue;
    pts.push([lo, y], [lo, y + 1], [hi + 1, y], [hi + 1, y + 1]);
  }
  const hull = convexHull(pts);
  const rect = minAreaRect(hull);
  return { hullArea: polygonArea(hull), long: rect.long, short: rect.short, rectArea: rect.area, angle: rect.angle, hull };
}
