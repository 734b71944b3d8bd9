/**
 * The largest difference between two arrays of numbers, relative to the largest magnitude in
 * `b` (at least 1e-3, so arrays near zero are compared absolutely): how the wasm backend's
 * numbers are checked against the cpu backend's.
 */
export function worstRelative(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let scale = 1e-3;
  for (let i = 0; i < b.length; i++) scale = Math.max(scale, Math.abs(b[i]!));
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst / scale;
}
