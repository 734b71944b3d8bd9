/**
 * Splitting a region that holds several touching dice.
 *
 * Each die is a "hill" of the region's distance transform (its centre is the point farthest from
 * the region's edge); two dice that touch meet in a saddle. A watershed by flooding from the
 * highest point down keeps two hills apart only when both rise clearly above the saddle between
 * them (their dynamics), so a die's ragged outline or a small shadow does not split it.
 * Dice pressed flat side to side leave no saddle (a 2:1 bar): `splitAlongAxis` cuts those.
 */

/** Squared Euclidean distance transform in 1-D (Felzenszwalb & Huttenlocher). */
function edt1d(f: Float32Array, n: number, d: Float32Array, v: Int32Array, z: Float32Array): void {
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q++) {
    let s = (f[q]! + q * q - (f[v[k]!]! + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
    while (s <= z[k]!) {
      k--;
      s = (f[q]! + q * q - (f[v[k]!]! + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1]! < q) k++;
    const dq = q - v[k]!;
    d[q] = dq * dq + f[v[k]!]!;
  }
}

let dtGrid = new Float32Array(0), dtF = new Float32Array(0), dtD = new Float32Array(0), dtZ = new Float32Array(0);
let dtV = new Int32Array(0), dtUp = new Int32Array(0);

/**
 * The squared distances on the padded (w+2)×(h+2) grid (0 on the padding), in scratch memory
 * (overwritten by the next call). Down the columns the nearest unset pixel is found by two
 * running counts (exactly what the parabola envelope gives for a 0/∞ column, for far less work),
 * then along the rows by the envelope.
 */
function squaredDistances(inside: Uint8Array, w: number, h: number): Float32Array {
  const W = w + 2, H = h + 2;
  if (dtGrid.length < W * H) dtGrid = new Float32Array(Math.max(W * H, 2 * dtGrid.length));
  if (dtUp.length < W) dtUp = new Int32Array(Math.max(W, 2 * dtUp.length));
  const g = dtGrid, run = dtUp;
  g.fill(0, 0, W * H);
  // Rows above: distance to the nearest unset pixel above (the padding row is unset).
  run.fill(0, 0, W);
  for (let y = 0; y < h; y++) {
    const r = (y + 1) * W + 1, s = y * w;
    for (let x = 0; x < w; x++) g[r + x] = run[x] = inside[s + x] ? run[x]! + 1 : 0;
  }
  // Rows below, and the nearer of the two, squared.
  run.fill(0, 0, W);
  for (let y = h - 1; y >= 0; y--) {
    const r = (y + 1) * W + 1, s = y * w;
    for (let x = 0; x < w; x++) {
      const down = (run[x] = inside[s + x] ? run[x]! + 1 : 0);
      const d = Math.min(down, g[r + x]!);
      g[r + x] = d * d;
    }
  }
  if (dtF.length < W + 1) {
    dtF = new Float32Array(W + 1);
    dtD = new Float32Array(W + 1);
    dtZ = new Float32Array(W + 1);
    dtV = new Int32Array(W + 1);
  }
  const f = dtF, d = dtD, z = dtZ, v = dtV;
  // Padding rows are all 0 and stay 0. Along a row only the stretch from the pixel before its
  // first set one to the pixel after its last changes: outside it every pixel is its own nearest
  // unset pixel, and the envelope over the stretch (bounded by two zeros) gives the same minima.
  for (let y = 1; y < H - 1; y++) {
    const r = y * W;
    let lo = 1, hi = W - 2;
    while (lo <= hi && g[r + lo] === 0) lo++;
    if (lo > hi) continue;
    while (g[r + hi] === 0) hi--;
    const from = r + lo - 1, n = hi - lo + 3;
    for (let x = 0; x < n; x++) f[x] = g[from + x]!;
    edt1d(f, n, d, v, z);
    for (let x = 0; x < n; x++) g[from + x] = d[x]!;
  }
  return g;
}

/**
 * Euclidean distance from each set pixel to the nearest unset one (pixels outside the grid count
 * as unset). `inside[i]` is 1 for set pixels of a w×h grid.
 */
export function distanceTransform(inside: Uint8Array, w: number, h: number): Float32Array {
  const g = squaredDistances(inside, w, h);
  const W = w + 2;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = Math.sqrt(g[(y + 1) * W + x + 1]!);
  return out;
}

export interface SplitOptions {
  /** A hill lower than this (in pixels of distance) is never a die of its own. */
  minPeak: number;
  /** A hill stays separate when it rises above the saddle by at least this fraction of its height. */
  relativeDynamics?: number;
}

/** Union-find over a window's padded pixels, and the flooding order (scratch, kept between calls). */
let ufParent = new Int32Array(0);
let ufPeak = new Float32Array(0);
let ufOrder = new Int32Array(0);
let ufId = new Int32Array(0);
let ufBucket = new Int32Array(0);

function findRoot(p: number): number {
  const parent = ufParent;
  let r = p;
  while (parent[r] !== r) r = parent[r]!;
  while (parent[p] !== r) {
    const next = parent[p]!;
    parent[p] = r;
    p = next;
  }
  return r;
}

/**
 * Partition the set pixels of a w×h grid into hills of the distance transform. Returns a label per
 * pixel (0 = unset, 1..count) and the number of parts.
 *
 * Pixels are flooded highest first, ties in pixel order; each joins the highest hill among its
 * already flooded 8-neighbours, and the other hills there merge into it unless they are clearly
 * dice of their own. Works on the padded grid (the padding is never flooded), so neighbours need
 * no bounds checks.
 */
export function splitByDistance(inside: Uint8Array, w: number, h: number, options: SplitOptions): { parts: Int32Array; count: number } {
  const W = w + 2, H = h + 2, N = W * H;
  const rel = options.relativeDynamics ?? 0.3;
  const minPeak = options.minPeak;
  if (ufParent.length < N) {
    const size = Math.max(N, 2 * ufParent.length);
    ufParent = new Int32Array(size);
    ufPeak = new Float32Array(size);
    ufOrder = new Int32Array(size);
    ufId = new Int32Array(size);
  }
  const g = squaredDistances(inside, w, h);
  const parent = ufParent, peak = ufPeak, order = ufOrder;
  parent.fill(-1, 0, N);
  // Squared distances are small integers: order by them with a counting sort (highest first,
  // ties in pixel order, as a stable sort by distance gives).
  let maxD2 = 0, m = 0;
  for (let P = W + 1; P < N - W - 1; P++) {
    const d2 = g[P]!;
    if (d2 > maxD2) maxD2 = d2;
  }
  if (ufBucket.length < maxD2 + 2) ufBucket = new Int32Array(Math.max(maxD2 + 2, 2 * ufBucket.length));
  const bucket = ufBucket;
  bucket.fill(0, 0, maxD2 + 2);
  for (let y = 0; y < h; y++) {
    for (let x = 0, P = (y + 1) * W + 1, i = y * w; x < w; x++, P++, i++) {
      if (!inside[i]) continue;
      bucket[maxD2 - g[P]! + 1]!++;
      m++;
    }
  }
  for (let k = 1; k <= maxD2 + 1; k++) bucket[k]! += bucket[k - 1]!;
  for (let y = 0; y < h; y++) {
    for (let x = 0, P = (y + 1) * W + 1, i = y * w; x < w; x++, P++, i++) {
      if (!inside[i]) continue;
      order[bucket[maxD2 - g[P]!]!++] = P;
    }
  }
  const roots = [0, 0, 0, 0, 0, 0, 0, 0];
  const offsets = [-W - 1, -W, -W + 1, -1, 1, W - 1, W, W + 1];
  for (let k = 0; k < m; k++) {
    const p = order[k]!;
    const level = Math.fround(Math.sqrt(g[p]!));
    let nr = 0, last = -1;
    for (let j = 0; j < 8; j++) {
      const q = p + offsets[j]!;
      const pq = parent[q]!;
      if (pq < 0) continue;
      const r = pq === q || parent[pq] === pq ? pq : findRoot(q);
      if (r === last) continue; // the usual case: the same hill as the neighbour before
      last = r;
      let seen = false;
      for (let t = 0; t < nr; t++) if (roots[t] === r) seen = true;
      if (!seen) roots[nr++] = r;
    }
    if (nr === 0) {
      parent[p] = p;
      peak[p] = level;
      continue;
    }
    // Join the highest neighbouring hill; merge any other hill that is not clearly its own die.
    // (Insertion sort, highest peak first, ties in the order met, as a stable sort.)
    for (let i = 1; i < nr; i++) {
      const r = roots[i]!;
      let j = i - 1;
      while (j >= 0 && peak[roots[j]!]! < peak[r]!) {
        roots[j + 1] = roots[j]!;
        j--;
      }
      roots[j + 1] = r;
    }
    const main = roots[0]!;
    parent[p] = main;
    for (let i = 1; i < nr; i++) {
      const r = roots[i]!;
      const separate = peak[r]! >= minPeak && peak[r]! - level >= rel * peak[r]!;
      if (!separate) parent[r] = main;
    }
  }
  // Parts numbered in the order their first pixel was flooded.
  const parts = new Int32Array(w * h);
  const rootId = ufId;
  rootId.fill(0, 0, N);
  let count = 0;
  for (let k = 0; k < m; k++) {
    const P = order[k]!;
    const r = findRoot(P);
    let id = rootId[r]!;
    if (id === 0) id = rootId[r] = ++count;
    const y = ((P / W) | 0) - 1, x = P - (y + 1) * W - 1;
    parts[y * w + x] = id;
  }
  return { parts, count };
}

/** Pixel centres, distances and owners of `splitByCount` (scratch, kept between calls). */
let countXs = new Float64Array(0), countYs = new Float64Array(0), countNearest = new Float64Array(0);
let countOwner = new Int32Array(0);

/**
 * A cluster of `k` dice cut into `k` parts by k-means on its pixels' positions. For dice of one
 * size pressed together in a clump the other splits cannot cut: no saddle and no seam between
 * them (same colour, same shade). `k` comes from the frame's own dice (`dieSizeOf`), so it is
 * only tried on a region as big as several dice. Deterministic: the first centre is the pixel
 * farthest from the region's centroid, each next one the pixel farthest from the centres so far.
 */
export function splitByCount(inside: Uint8Array, w: number, h: number, k: number): { parts: Int32Array; count: number } {
  let n = 0;
  for (let i = 0; i < w * h; i++) n += inside[i] ? 1 : 0;
  const parts = new Int32Array(w * h);
  if (k < 2 || n < k * 4) return { parts, count: 0 };
  // Pixel centres in typed arrays (the same doubles an array of numbers held: the cut is unchanged).
  if (countXs.length < n) {
    const size = Math.max(n, 2 * countXs.length);
    countXs = new Float64Array(size);
    countYs = new Float64Array(size);
    countNearest = new Float64Array(size);
    countOwner = new Int32Array(size);
  }
  const xs = countXs, ys = countYs;
  for (let y = 0, j = 0; y < h; y++) for (let x = 0; x < w; x++) if (inside[y * w + x]) (xs[j] = x + 0.5), (ys[j] = y + 0.5), j++;
  let mx = 0, my = 0;
  for (let i = 0; i < n; i++) (mx += xs[i]!), (my += ys[i]!);
  mx /= n;
  my /= n;
  const cx = new Float64Array(k), cy = new Float64Array(k);
  const nearest = countNearest.fill(Infinity, 0, n);
  let pick = 0, far = -1;
  for (let i = 0; i < n; i++) {
    const ex = xs[i]! - mx, ey = ys[i]! - my;
    const d = ex * ex + ey * ey;
    if (d > far) (far = d), (pick = i);
  }
  for (let c = 0; c < k; c++) {
    const px = (cx[c] = xs[pick]!), py = (cy[c] = ys[pick]!);
    if (c === k - 1) break; // the last centre's distances would pick a next one nobody takes
    far = -1;
    for (let i = 0; i < n; i++) {
      const ex = xs[i]! - px, ey = ys[i]! - py;
      const d = ex * ex + ey * ey;
      if (d < nearest[i]!) nearest[i] = d;
      if (nearest[i]! > far) (far = nearest[i]!), (pick = i);
    }
  }
  const owner = countOwner;
  const sx = new Float64Array(k), sy = new Float64Array(k), sn = new Float64Array(k);
  // Each pixel's nearest centre (the first of equals), scanned only where it may change: along
  // a row, another centre's squared distance minus the nearest one's is linear in x, so from a
  // scan the nearest stays nearest, by more than MARGIN, up to where the first of those lines
  // falls to MARGIN. The doubles compared differ from the exact values by under 1e-9 (squared
  // distances under 10^6 in a window), far inside MARGIN: the pixels not scanned get the centre
  // the scan would have given them.
  const MARGIN = 1e-3;
  const eyy = new Float64Array(k);
  for (let round = 0; round < 12; round++) {
    sx.fill(0);
    sy.fill(0);
    sn.fill(0);
    // Sums of pixel centres (halves, under 2^40): exact in any order, so kept per stretch of one centre.
    let moved = false, rowY = NaN, best = 0, safeUntil = -Infinity, runX = 0, runY = 0, runN = 0;
    for (let i = 0; i < n; i++) {
      const x = xs[i]!, y = ys[i]!;
      if (y !== rowY) {
        rowY = y;
        safeUntil = -Infinity;
        for (let c = 0; c < k; c++) {
          const ey = y - cy[c]!;
          eyy[c] = ey * ey;
        }
      }
      if (!(x < safeUntil)) {
        sx[best] = sx[best]! + runX;
        sy[best] = sy[best]! + runY;
        sn[best] = sn[best]! + runN;
        runX = runY = runN = 0;
        let bd = Infinity;
        best = 0;
        for (let c = 0; c < k; c++) {
          const ex = x - cx[c]!;
          const d = ex * ex + eyy[c]!;
          if (d < bd) (bd = d), (best = c);
        }
        const bx = cx[best]!, be = eyy[best]!;
        safeUntil = Infinity;
        for (let c = 0; c < k; c++) {
          if (c === best) continue;
          const ox = cx[c]!;
          // centre c's squared distance less the nearest one's, at x: a·x + b
          const a = 2 * (bx - ox), b = ox * ox - bx * bx + eyy[c]! - be;
          const until = a < 0 ? (MARGIN - b) / a : a * x + b > MARGIN ? Infinity : x;
          if (until < safeUntil) safeUntil = until;
        }
      }
      if (owner[i] !== best || round === 0) (moved = true), (owner[i] = best);
      runX += x;
      runY += y;
      runN++;
    }
    sx[best] = sx[best]! + runX;
    sy[best] = sy[best]! + runY;
    sn[best] = sn[best]! + runN;
    for (let c = 0; c < k; c++) if (sn[c]! > 0) (cx[c] = sx[c]! / sn[c]!), (cy[c] = sy[c]! / sn[c]!);
    if (!moved) break;
  }
  for (let i = 0; i < n; i++) parts[Math.floor(ys[i]!) * w + Math.floor(xs[i]!)] = owner[i]! + 1;
  return { parts, count: k };
}
