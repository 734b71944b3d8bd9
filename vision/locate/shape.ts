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

let ptX = new Int32Array(0), ptY = new Int32Array(0), sortX = new Int32Array(0), sortY = new Int32Array(0);
let chainX = new Int32Array(0), chainY = new Int32Array(0);
let xCount = new Int32Array(0);

/**
 * Hull of the pixels labelled `label` inside the box, from each row's outermost pixels. Same
 * points, same order and the same monotone chain as `convexHull`: the points come row by row, so
 * for each x their y already ascend, and a stable counting sort by x orders them as sorting the
 * pairs would (this runs for every candidate piece of every frame).
 */
export function regionShape(labels: Int32Array, width: number, label: number, box: { x0: number; y0: number; x1: number; y1: number }): RegionShape {
  const rows = box.y1 - box.y0;
  if (ptX.length < 4 * rows) {
    const size = Math.max(4 * rows, 2 * ptX.length);
    ptX = new Int32Array(size);
    ptY = new Int32Array(size);
    sortX = new Int32Array(size);
    sortY = new Int32Array(size);
  }
  const span = box.x1 - box.x0 + 2;
  if (xCount.length < span) xCount = new Int32Array(Math.max(span, 2 * xCount.length));
  let m = 0;
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
    ptX[m] = lo;
    ptY[m++] = y;
    ptX[m] = lo;
    ptY[m++] = y + 1;
    ptX[m] = hi + 1;
    ptY[m++] = y;
    ptX[m] = hi + 1;
    ptY[m++] = y + 1;
  }
  // Counting sort by x (offset from box.x0), stable.
  const count = xCount;
  count.fill(0, 0, span + 1);
  for (let i = 0; i < m; i++) count[ptX[i]! - box.x0 + 1]!++;
  for (let k = 1; k <= span; k++) count[k]! += count[k - 1]!;
  for (let i = 0; i < m; i++) {
    const at = count[ptX[i]! - box.x0]!++;
    sortX[at] = ptX[i]!;
    sortY[at] = ptY[i]!;
  }
  let hull: Point[];
  if (m < 3) {
    hull = [];
    for (let i = 0; i < m; i++) hull.push([sortX[i]!, sortY[i]!]);
  } else {
    if (chainX.length < 2 * m) (chainX = new Int32Array(2 * m)), (chainY = new Int32Array(2 * m));
    const hx = chainX, hy = chainY;
    // Lower chain, then upper chain, each without its last point (as convexHull).
    let top = 0;
    for (let k = 0; k < m; k++) {
      const px = sortX[k]!, py = sortY[k]!;
      while (top >= 2 && (hx[top - 1]! - hx[top - 2]!) * (py - hy[top - 2]!) - (hy[top - 1]! - hy[top - 2]!) * (px - hx[top - 2]!) <= 0) top--;
      hx[top] = px;
      hy[top++] = py;
    }
    const lowerEnd = top - 1;
    const upperStart = top;
    for (let k = m - 1; k >= 0; k--) {
      const px = sortX[k]!, py = sortY[k]!;
      while (top - upperStart >= 2 && (hx[top - 1]! - hx[top - 2]!) * (py - hy[top - 2]!) - (hy[top - 1]! - hy[top - 2]!) * (px - hx[top - 2]!) <= 0) top--;
      hx[top] = px;
      hy[top++] = py;
    }
    hull = [];
    for (let i = 0; i < lowerEnd; i++) hull.push([hx[i]!, hy[i]!]);
    for (let i = upperStart; i < top - 1; i++) hull.push([hx[i]!, hy[i]!]);
  }
  const rect = minAreaRect(hull);
  return { hullArea: polygonArea(hull), long: rect.long, short: rect.short, rectArea: rect.area, angle: rect.angle, hull };
}
