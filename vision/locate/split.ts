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

/**
 * Euclidean distance from each set pixel to the nearest unset one (pixels outside the grid count
 * as unset). `inside[i]` is 1 for set pixels of a w×h grid.
 */
export function distanceTransform(inside: Uint8Array, w: number, h: number): Float32Array {
  const BIG = 1e12;
  // Pad by one pixel so that the frame outside counts as unset.
  const W = w + 2, H = h + 2;
  const g = new Float32Array(W * H);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) g[(y + 1) * W + x + 1] = inside[y * w + x] ? BIG : 0;
  const n = Math.max(W, H);
  const f = new Float32Array(n), d = new Float32Array(n), z = new Float32Array(n + 1);
  const v = new Int32Array(n);
  for (let x = 0; x < W; x++) {
    for (let y = 0; y < H; y++) f[y] = g[y * W + x]!;
    edt1d(f, H, d, v, z);
    for (let y = 0; y < H; y++) g[y * W + x] = d[y]!;
  }
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) f[x] = g[y * W + x]!;
    edt1d(f, W, d, v, z);
    for (let x = 0; x < W; x++) g[y * W + x] = d[x]!;
  }
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

/**
 * Partition the set pixels of a w×h grid into hills of the distance transform. Returns a label per
 * pixel (0 = unset, 1..count) and the number of parts.
 */
export function splitByDistance(inside: Uint8Array, w: number, h: number, options: SplitOptions): { parts: Int32Array; count: number } {
  const dt = distanceTransform(inside, w, h);
  const rel = options.relativeDynamics ?? 0.3;
  const order: number[] = [];
  for (let i = 0; i < w * h; i++) if (inside[i]) order.push(i);
  order.sort((p, q) => dt[q]! - dt[p]!);
  const parent = new Int32Array(w * h).fill(-1);
  const peak = new Float32Array(w * h);
  const find = (p: number): number => {
    let r = p;
    while (parent[r] !== r) r = parent[r]!;
    while (parent[p] !== r) {
      const next = parent[p]!;
      parent[p] = r;
      p = next;
    }
    return r;
  };
  const roots: number[] = [];
  for (const p of order) {
    const x = p % w, y = (p - x) / w;
    const level = dt[p]!;
    roots.length = 0;
    for (let dy = -1; dy <= 1; dy++) {
      const yy = y + dy;
      if (yy < 0 || yy >= h) continue;
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx;
        if (xx < 0 || xx >= w || (dx === 0 && dy === 0)) continue;
        const q = yy * w + xx;
        if (parent[q]! < 0) continue;
        const r = find(q);
        if (!roots.includes(r)) roots.push(r);
      }
    }
    if (roots.length === 0) {
      parent[p] = p;
      peak[p] = level;
      continue;
    }
    // Join the highest neighbouring hill; merge any other hill that is not clearly its own die.
    roots.sort((a, b) => peak[b]! - peak[a]!);
    const main = roots[0]!;
    parent[p] = main;
    for (let k = 1; k < roots.length; k++) {
      const r = roots[k]!;
      const separate = peak[r]! >= options.minPeak && peak[r]! - level >= rel * peak[r]!;
      if (!separate) parent[r] = main;
    }
  }
  const parts = new Int32Array(w * h);
  const ids = new Map<number, number>();
  for (const p of order) {
    const r = find(p);
    let id = ids.get(r);
    if (id === undefined) {
      id = ids.size + 1;
      ids.set(r, id);
    }
    parts[p] = id;
  }
  return { parts, count: ids.size };
}
