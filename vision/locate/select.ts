/**
 * Order statistics without a full sort (medians and percentiles of masks and boxes, on every
 * frame): Hoare's selection with a median-of-three pivot.
 */

/** Rearranges v[0..n) so that v[k] is the k-th smallest, smaller ones before it. */
export function select(v: Float32Array | Float64Array, n: number, k: number): void {
  let lo = 0, hi = n - 1;
  while (hi > lo) {
    // Median of three as the pivot keeps sorted or constant runs linear.
    const mid = (lo + hi) >> 1;
    const a = v[lo]!, b = v[mid]!, c = v[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo, j = hi;
    while (i <= j) {
      while (v[i]! < pivot) i++;
      while (v[j]! > pivot) j--;
      if (i <= j) {
        const t = v[i]!;
        v[i] = v[j]!;
        v[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}
