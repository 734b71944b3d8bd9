/** Areas and overlaps of pixel boxes. */
import type { Box } from '../types.js';

/** A box's area in square pixels. */
export function boxArea(b: Box): number {
  return (b[2] - b[0]) * (b[3] - b[1]);
}

/** The area two boxes share. */
export function intersection(a: Box, b: Box): number {
  return Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
}

/** Intersection over union, 0..1. */
export function overlap(a: Box, b: Box): number {
  const inter = intersection(a, b);
  const union = boxArea(a) + boxArea(b) - inter;
  return union > 0 ? inter / union : 0;
}
