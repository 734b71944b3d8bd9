/**
 * Finds the sheet's four corner markers in a grey photo: dark blobs from an adaptive threshold, a
 * quadrilateral fitted to each blob's convex hull, the 6 x 6 modules sampled through the quad, the
 * ring and quiet zone checked, the inner bits decoded (orientation and CRC, see sheet-layout.ts).
 * Anything that is not a valid marker is dropped, so dice, pencil and print never pass as one.
 */
import { decodeMarkerBits, MARKER_MODULES, type Corner } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import { apply, fitHomography, type Pt } from './homography.js';

export interface GreyImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface FoundMarker {
  corner: Corner;
  /** The 6-bit slice of the chapter code it carries. */
  slice: number;
  /** Image points of the printed marker's corners: top-left, top-right, bottom-right, bottom-left. */
  points: Pt[];
  /** Quiet-zone brightness minus ring darkness, 0..255. */
  contrast: number;
}

/** Dark pixels: darker than `ratio` of the local mean over a (2r+1)² window. */
export function adaptiveThreshold(img: GreyImage, r: number, ratio: number): Uint8Array {
  const { width: W, height: H, data } = img;
  const I = new Uint32Array((W + 1) * (H + 1));
  for (let y = 0; y < H; y++) {
    let row = 0;
    for (let x = 0; x < W; x++) {
      row += data[y * W + x]!;
      I[(y + 1) * (W + 1) + x + 1] = I[y * (W + 1) + x + 1]! + row;
    }
  }
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    const y0 = y - r < 0 ? 0 : y - r;
    const y1 = y + r + 1 > H ? H : y + r + 1;
    const top = y0 * (W + 1);
    const bottom = y1 * (W + 1);
    const rows = y1 - y0;
    const at = y * W;
    for (let x = 0; x < W; x++) {
      const x0 = x - r < 0 ? 0 : x - r;
      const x1 = x + r + 1 > W ? W : x + r + 1;
      const sum = I[bottom + x1]! - I[top + x1]! - I[bottom + x0]! + I[top + x0]!;
      if (data[at + x]! * (x1 - x0) * rows < sum * ratio) out[at + x] = 1;
    }
  }
  return out;
}

interface Blob {
  label: number;
  area: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** 8-connected components of a binary image: labels and per-label area and bounding box. */
export function components(bin: Uint8Array, W: number, H: number): { labels: Int32Array; blobs: Blob[] } {
  const labels = new Int32Array(W * H);
  const parent: number[] = [0];
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!;
      a = parent[a]!;
    }
    return a;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      if (!bin[i]) continue;
      // The labelled neighbours (0: none) without an array per pixel.
      const n0 = x > 0 ? labels[i - 1]! : 0;
      const n1 = y > 0 ? labels[i - W]! : 0;
      const n2 = y > 0 && x > 0 ? labels[i - W - 1]! : 0;
      const n3 = y > 0 && x < W - 1 ? labels[i - W + 1]! : 0;
      let m = 0;
      if (n0 && (!m || n0 < m)) m = n0;
      if (n1 && (!m || n1 < m)) m = n1;
      if (n2 && (!m || n2 < m)) m = n2;
      if (n3 && (!m || n3 < m)) m = n3;
      if (!m) {
        parent.push(parent.length);
        labels[i] = parent.length - 1;
      } else {
        labels[i] = m;
        if (n0 && n0 !== m) union(n0, m);
        if (n1 && n1 !== m) union(n1, m);
        if (n2 && n2 !== m) union(n2, m);
        if (n3 && n3 !== m) union(n3, m);
      }
    }
  // Blobs in the order their first pixel is met; indexed by root label (a Map lookup per pixel was slow).
  const blobs: Blob[] = [];
  const blobOf = new Int32Array(parent.length).fill(-1);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      if (!labels[i]) continue;
      const r = find(labels[i]!);
      labels[i] = r;
      let k = blobOf[r]!;
      if (k < 0) {
        k = blobs.length;
        blobOf[r] = k;
        blobs.push({ label: r, area: 0, x0: x, y0: y, x1: x, y1: y });
      }
      const b = blobs[k]!;
      b.area++;
      if (x < b.x0) b.x0 = x;
      if (x > b.x1) b.x1 = x;
      if (y > b.y1) b.y1 = y;
    }
  return { labels, blobs };
}

function cross(o: Pt, a: Pt, b: Pt): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** Convex hull (monotone chain), counter-clockwise in image coordinates. */
export function convexHull(points: Pt[]): Pt[] {
  const pts = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const lower: Pt[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Pt[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper);
}

function polygonArea(p: readonly Pt[]): number {
  let a = 0;
  for (let i = 0; i < p.length; i++) {
    const [x0, y0] = p[i]!;
    const [x1, y1] = p[(i + 1) % p.length]!;
    a += x0 * y1 - x1 * y0;
  }
  return a / 2;
}

/**
 * The quadrilateral of a hull: the point farthest from the centroid, the point farthest from that,
 * and the farthest on each side of the line between them; returned clockwise (image y down).
 */
export function hullQuad(hull: readonly Pt[]): Pt[] | null {
  if (hull.length < 4) return null;
  let cx = 0;
  let cy = 0;
  for (const [x, y] of hull) {
    cx += x;
    cy += y;
  }
  cx /= hull.length;
  cy /= hull.length;
  const far = (from: Pt) => hull.reduce((best, p) => (Math.hypot(p[0] - from[0], p[1] - from[1]) > Math.hypot(best[0] - from[0], best[1] - from[1]) ? p : best), hull[0]!);
  const A = far([cx, cy]);
  const C = far(A);
  let B: Pt | null = null;
  let D: Pt | null = null;
  let bd = 0;
  let dd = 0;
  for (const p of hull) {
    const s = cross(A, C, p);
    if (s > bd) {
      bd = s;
      B = p;
    }
    if (-s > dd) {
      dd = -s;
      D = p;
    }
  }
  if (!B || !D) return null;
  const quad: Pt[] = [A, B, C, D];
  // Clockwise on screen (y down) means a positive shoelace area.
  return polygonArea(quad) > 0 ? quad : [A, D, C, B];
}

function sampleMean(img: GreyImage, H: number[], mx: number, my: number, spread: number): number {
  let s = 0;
  let n = 0;
  for (let dy = -1; dy <= 1; dy++)
    for (let dx = -1; dx <= 1; dx++) {
      const [x, y] = apply(H, mx + dx * spread, my + dy * spread);
      // Continuous coordinates: pixel i covers [i, i + 1).
      const xi = Math.floor(x);
      const yi = Math.floor(y);
      if (xi < 0 || yi < 0 || xi >= img.width || yi >= img.height) continue;
      s += img.data[yi * img.width + xi]!;
      n++;
    }
  return n ? s / n : NaN;
}

/** Reads a candidate quad as a marker; null when it is not one. */
export function readQuad(img: GreyImage, quad: readonly Pt[]): FoundMarker | null {
  const M = MARKER_MODULES;
  const H = fitHomography(
    [
      [0, 0],
      [M, 0],
      [M, M],
      [0, M],
    ],
    quad as Pt[],
  );
  if (!H) return null;
  const mod = new Array<number>(M * M);
  for (let r = 0; r < M; r++) for (let c = 0; c < M; c++) mod[r * M + c] = sampleMean(img, H, c + 0.5, r + 0.5, 0.2);
  const ring: number[] = [];
  for (let r = 0; r < M; r++) for (let c = 0; c < M; c++) if (r === 0 || c === 0 || r === M - 1 || c === M - 1) ring.push(mod[r * M + c]!);
  const quiet: number[] = [];
  for (let k = 0; k < M; k++) {
    quiet.push(sampleMean(img, H, k + 0.5, -0.6, 0.15), sampleMean(img, H, k + 0.5, M + 0.6, 0.15));
    quiet.push(sampleMean(img, H, -0.6, k + 0.5, 0.15), sampleMean(img, H, M + 0.6, k + 0.5, 0.15));
  }
  if ([...ring, ...quiet, ...mod].some((v) => Number.isNaN(v))) return null;
  const dark = ring.reduce((a, b) => a + b, 0) / ring.length;
  const sortedQuiet = quiet.slice().sort((a, b) => a - b);
  // The quiet zone's brighter three quarters (a pencil touch or a shadow edge may cross it).
  const light = sortedQuiet.slice(Math.floor(sortedQuiet.length / 4)).reduce((a, b) => a + b, 0) / (sortedQuiet.length - Math.floor(sortedQuiet.length / 4));
  const contrast = light - dark;
  if (contrast < Math.max(25, 0.3 * light)) return null;
  const t = (dark + light) / 2;
  if (ring.some((v) => v > t)) return null;
  const inner: number[] = [];
  for (let r = 1; r < M - 1; r++) for (let c = 1; c < M - 1; c++) inner.push(mod[r * M + c]! < t ? 1 : 0);
  const d = decodeMarkerBits(inner);
  if (!d) return null;
  // Printed corner k sits at the sampled square's corner (k + turns) mod 4.
  const points = [0, 1, 2, 3].map((k) => quad[(k + d.turns) % 4]!);
  return { corner: d.corner, slice: d.slice, points, contrast };
}

/**
 * Every valid marker in the image, by corner, the clearest first: two sheets in one photo give two
 * markers for a corner (chapters share the code slices of some corners), and the reader picks those
 * of the chapter it was asked for that make one sheet (photo.ts).
 */
export function findAllMarkers(img: GreyImage): FoundMarker[] {
  const { width: W, height: H } = img;
  const r = Math.max(8, Math.round(Math.max(W, H) / 45));
  const bin = adaptiveThreshold(img, r, 0.72);
  const { labels, blobs } = components(bin, W, H);
  const minSide = Math.max(10, Math.min(W, H) / 90);
  const maxSide = Math.min(W, H) / 3;
  const all: FoundMarker[] = [];
  for (const b of blobs) {
    const bw = b.x1 - b.x0 + 1;
    const bh = b.y1 - b.y0 + 1;
    if (bw < minSide || bh < minSide || bw > maxSide || bh > maxSide) continue;
    if (bw > 3 * bh || bh > 3 * bw) continue;
    const fill = b.area / (bw * bh);
    if (fill < 0.25) continue;
    const edge: Pt[] = [];
    for (let y = b.y0; y <= b.y1; y++) {
      let lo = -1;
      let hi = -1;
      for (let x = b.x0; x <= b.x1; x++)
        if (labels[y * W + x] === b.label) {
          if (lo < 0) lo = x;
          hi = x;
        }
      if (lo >= 0) edge.push([lo, y], [hi + 1, y], [lo, y + 1], [hi + 1, y + 1]);
    }
    const quad = hullQuad(convexHull(edge));
    if (!quad) continue;
    const qa = polygonArea(quad);
    if (qa < minSide * minSide || b.area / qa < 0.45 || b.area / qa > 1.02) continue;
    const m = readQuad(img, quad);
    if (!m) continue;
    all.push(m);
  }
  return all.sort((a, b) => a.corner - b.corner || b.contrast - a.contrast);
}

/** The clearest marker of each corner among `markers` (sorted by corner). */
export function clearestPerCorner(markers: readonly FoundMarker[]): FoundMarker[] {
  const best = new Map<Corner, FoundMarker>();
  for (const m of markers) {
    const prev = best.get(m.corner);
    if (!prev || m.contrast > prev.contrast) best.set(m.corner, m);
  }
  return [...best.values()].sort((a, b) => a.corner - b.corner);
}

/** Every valid marker in the image (at most one per corner: the clearest). */
export function findMarkers(img: GreyImage): FoundMarker[] {
  return clearestPerCorner(findAllMarkers(img));
}
