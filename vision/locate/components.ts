/**
 * Connected regions of a mask (8-connected), with the measurements the locator filters on.
 */
import { scratchStack, type Mask } from './mask.js';

export interface Region {
  /** Label in `labels` (1-based). */
  label: number;
  area: number;
  /** Pixel-edge bounding box: pixels x0..x1-1, y0..y1-1. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  touchesBorder: boolean;
}

export interface Labelling {
  width: number;
  height: number;
  /** 0 = unset, otherwise the region's label. */
  labels: Int32Array;
  regions: Region[];
}

export function labelRegions(mask: Mask): Labelling {
  const { width, height, data } = mask;
  const labels = new Int32Array(width * height);
  const stack = scratchStack(width * height);
  const regions: Region[] = [];
  for (let start = 0; start < data.length; start++) {
    if (!data[start] || labels[start]) continue;
    const label = regions.length + 1;
    const r: Region = { label, area: 0, x0: width, y0: height, x1: 0, y1: 0, touchesBorder: false };
    let top = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % width;
      const y = (p - x) / width;
      r.area++;
      if (x < r.x0) r.x0 = x;
      if (x + 1 > r.x1) r.x1 = x + 1;
      if (y < r.y0) r.y0 = y;
      if (y + 1 > r.y1) r.y1 = y + 1;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const q = yy * width + xx;
          if (data[q] && !labels[q]) {
            labels[q] = label;
            stack[top++] = q;
          }
        }
      }
    }
    r.touchesBorder = r.x0 === 0 || r.y0 === 0 || r.x1 === width || r.y1 === height;
    regions.push(r);
  }
  return { width, height, labels, regions };
}
