/** Plane-to-plane homographies: the normalised DLT from point pairs, applying and inverting. */

export type Pt = [number, number];
/** Row-major 3 x 3. */
export type Homography = number[];

/** Solves A x = b in place (Gaussian elimination with partial pivoting); null when singular. */
export function solveLinear(A: number[][], b: number[]): number[] | null {
  const n = b.length;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[p]![c]!)) p = r;
    if (Math.abs(A[p]![c]!) < 1e-12) return null;
    [A[c], A[p]] = [A[p]!, A[c]!];
    [b[c], b[p]] = [b[p]!, b[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = A[r]![c]! / A[c]![c]!;
      if (f === 0) continue;
      for (let k = c; k < n; k++) A[r]![k]! -= f * A[c]![k]!;
      b[r]! -= f * b[c]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let k = r + 1; k < n; k++) s -= A[r]![k]! * x[k]!;
    x[r] = s / A[r]![r]!;
  }
  return x;
}

function normaliser(pts: readonly Pt[]): { T: Homography; apply: (p: Pt) => Pt } {
  let mx = 0;
  let my = 0;
  for (const [x, y] of pts) {
    mx += x;
    my += y;
  }
  mx /= pts.length;
  my /= pts.length;
  let d = 0;
  for (const [x, y] of pts) d += Math.hypot(x - mx, y - my);
  const s = Math.SQRT2 / Math.max(1e-9, d / pts.length);
  return { T: [s, 0, -s * mx, 0, s, -s * my, 0, 0, 1], apply: ([x, y]) => [(x - mx) * s, (y - my) * s] };
}

export function multiply(a: Homography, b: Homography): Homography {
  const o = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) o[r * 3 + c]! += a[r * 3 + k]! * b[k * 3 + c]!;
  return o;
}

export function invert(h: Homography): Homography {
  const [a, b, c, d, e, f, g, hh, i] = h as [number, number, number, number, number, number, number, number, number];
  const A = e * i - f * hh;
  const B = -(d * i - f * g);
  const C = d * hh - e * g;
  const det = a * A + b * B + c * C;
  const inv = [A, -(b * i - c * hh), b * f - c * e, B, a * i - c * g, -(a * f - c * d), C, -(a * hh - b * g), a * e - b * d];
  return inv.map((v) => v / det);
}

export function apply(h: Homography, x: number, y: number): Pt {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
}

/** The homography taking each `src` point to its `dst` point (least squares for more than 4 pairs). */
export function fitHomography(src: readonly Pt[], dst: readonly Pt[]): Homography | null {
  if (src.length !== dst.length || src.length < 4) return null;
  const ns = normaliser(src);
  const nd = normaliser(dst);
  // Normal equations of the 2n x 8 DLT system with h33 = 1.
  const AtA = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const Atb = new Array<number>(8).fill(0);
  for (let k = 0; k < src.length; k++) {
    const [x, y] = ns.apply(src[k]!);
    const [u, v] = nd.apply(dst[k]!);
    const rows: [number[], number][] = [
      [[x, y, 1, 0, 0, 0, -u * x, -u * y], u],
      [[0, 0, 0, x, y, 1, -v * x, -v * y], v],
    ];
    for (const [r, rhs] of rows) {
      for (let i = 0; i < 8; i++) {
        Atb[i]! += r[i]! * rhs;
        for (let j = 0; j < 8; j++) AtA[i]![j]! += r[i]! * r[j]!;
      }
    }
  }
  const h = solveLinear(AtA, Atb);
  if (!h || h.some((v) => !Number.isFinite(v))) return null;
  const Hn: Homography = [...h, 1];
  // Undo the normalisations: H = Td^-1 * Hn * Ts.
  return multiply(invert(nd.T), multiply(Hn, ns.T));
}
