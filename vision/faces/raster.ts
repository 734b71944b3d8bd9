/**
 * Rasterising face art in pure TypeScript: path data → polygons → anti-aliased coverage, painted
 * in order (ink adds, body cuts back). The result is an "ink mask" (0..1 per pixel) that the
 * synthetic renderer warps onto die faces; the same `d` strings are what SVG and PDF draw.
 */
import type { FaceArt } from './art.js';
import { flattenCubic, type Pt } from './path.js';

/** Parse absolute M/L/H/V/C/Q/Z path data into closed polygons. */
export function pathToPolygons(d: string, curveSteps = 12): Pt[][] {
  const tokens = d.match(/[MLHVCQZmlhvcqz]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? [];
  const polys: Pt[][] = [];
  let cur: Pt[] | null = null;
  let cmd = '';
  let i = 0;
  let start: Pt = [0, 0];
  let at: Pt = [0, 0];
  const num = (): number => {
    const t = tokens[i++];
    const v = Number(t);
    if (t === undefined || !Number.isFinite(v)) throw new Error(`pathToPolygons: expected a number at token ${i - 1} of "${d.slice(0, 60)}…"`);
    return v;
  };
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (/^[A-Za-z]$/.test(t)) {
      cmd = t;
      i++;
      if (cmd === 'Z' || cmd === 'z') {
        cur = null;
        at = start;
        continue;
      }
    } else if (!cmd) {
      throw new Error(`pathToPolygons: path must start with M, got "${t}"`);
    }
    if (cmd !== cmd.toUpperCase()) throw new Error(`pathToPolygons: relative command "${cmd}" is not supported (absolute only)`);
    switch (cmd) {
      case 'M':
        at = [num(), num()];
        start = at;
        cur = [at];
        polys.push(cur);
        cmd = 'L'; // further pairs are implicit line-tos
        break;
      case 'L':
      case 'H':
      case 'V': {
        const p: Pt = cmd === 'L' ? [num(), num()] : cmd === 'H' ? [num(), at[1]] : [at[0], num()];
        if (!cur) polys.push((cur = [at]));
        cur.push(p);
        at = p;
        break;
      }
      case 'C': {
        const p1: Pt = [num(), num()], p2: Pt = [num(), num()], p3: Pt = [num(), num()];
        if (!cur) polys.push((cur = [at]));
        cur.push(...flattenCubic(at, p1, p2, p3, curveSteps));
        at = p3;
        break;
      }
      case 'Q': {
        const q: Pt = [num(), num()], p3: Pt = [num(), num()];
        const p1: Pt = [at[0] + (2 / 3) * (q[0] - at[0]), at[1] + (2 / 3) * (q[1] - at[1])];
        const p2: Pt = [p3[0] + (2 / 3) * (q[0] - p3[0]), p3[1] + (2 / 3) * (q[1] - p3[1])];
        if (!cur) polys.push((cur = [at]));
        cur.push(...flattenCubic(at, p1, p2, p3, curveSteps));
        at = p3;
        break;
      }
      default:
        throw new Error(`pathToPolygons: unsupported command "${cmd}"`);
    }
  }
  return polys.filter((p) => p.length >= 3);
}

interface Edge {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  dir: 1 | -1;
}

const SUB_ROWS = 5;

/**
 * Coverage (0..1) of polygons under the nonzero rule on a size × size grid whose pixels span
 * `scale` path units each (pixel x covers path x in [x·scale, (x+1)·scale)). Anti-aliased with
 * SUB_ROWS sub-scanlines and exact horizontal coverage per span.
 */
export function coverage(polys: readonly Pt[][], width: number, height: number, scale: number, offsetX = 0, offsetY = 0): Float32Array {
  const out = new Float32Array(width * height);
  const edges: Edge[] = [];
  for (const poly of polys) {
    for (let k = 0; k < poly.length; k++) {
      const a = poly[k]!, b = poly[(k + 1) % poly.length]!;
      const ax = (a[0] - offsetX) / scale, ay = (a[1] - offsetY) / scale;
      const bx = (b[0] - offsetX) / scale, by = (b[1] - offsetY) / scale;
      if (ay === by) continue;
      edges.push(ay < by ? { x0: ax, y0: ay, x1: bx, y1: by, dir: 1 } : { x0: bx, y0: by, x1: ax, y1: ay, dir: -1 });
    }
  }
  if (edges.length === 0) return out;
  const row = new Float32Array(width + 2);
  const hits: { x: number; dir: number }[] = [];
  for (let y = 0; y < height; y++) {
    row.fill(0);
    let any = false;
    for (let s = 0; s < SUB_ROWS; s++) {
      const sy = y + (s + 0.5) / SUB_ROWS;
      hits.length = 0;
      for (const e of edges) {
        if (sy < e.y0 || sy >= e.y1) continue;
        hits.push({ x: e.x0 + ((sy - e.y0) / (e.y1 - e.y0)) * (e.x1 - e.x0), dir: e.dir });
      }
      if (hits.length < 2) continue;
      hits.sort((p, q) => p.x - q.x);
      let wind = 0;
      for (let h = 0; h < hits.length - 1; h++) {
        wind += hits[h]!.dir;
        if (wind === 0) continue;
        const xa = Math.max(0, hits[h]!.x), xb = Math.min(width, hits[h + 1]!.x);
        if (xb <= xa) continue;
        any = true;
        addSpan(row, xa, xb);
      }
    }
    if (!any) continue;
    const base = y * width;
    for (let x = 0; x < width; x++) out[base + x] = Math.min(1, row[x]! / SUB_ROWS);
  }
  return out;
}

/** Add the exact coverage of [xa, xb) to the pixels it spans. */
function addSpan(row: Float32Array, xa: number, xb: number): void {
  const ia = Math.floor(xa), ib = Math.floor(xb);
  if (ia === ib) {
    row[ia] = row[ia]! + (xb - xa);
    return;
  }
  row[ia] = row[ia]! + (ia + 1 - xa);
  for (let x = ia + 1; x < ib; x++) row[x] = row[x]! + 1;
  if (ib < row.length) row[ib] = row[ib]! + (xb - ib);
}

/**
 * The ink mask of face art on a size × size grid spanning the whole face (0..100): 1 where the
 * die shows ink, 0 where it shows its body colour, fractional on edges.
 */
export function rasterizeArt(art: FaceArt, size: number): Float32Array {
  if (!Number.isInteger(size) || size <= 0) throw new RangeError(`rasterizeArt: size must be a positive integer, got ${size}`);
  const mask = new Float32Array(size * size);
  const scale = 100 / size;
  for (const path of art.paths) {
    const cov = coverage(pathToPolygons(path.d), size, size, scale);
    const ink = path.fill === 'ink' ? 1 : 0;
    for (let i = 0; i < mask.length; i++) {
      const c = cov[i]!;
      if (c > 0) mask[i] = mask[i]! * (1 - c) + ink * c;
    }
  }
  return mask;
}
