/**
 * Connected regions of a mask (8-connected), with the measurements the locator filters on.
 *
 * Labelled by runs: each row's runs of set pixels join the runs of the row above that they touch
 * (diagonals included); labels are numbered in raster order of each region's first pixel, as a
 * pixel-by-pixel flood fill in raster order would number them.
 */
import type { Mask } from './mask.js';

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

/** Run bookkeeping, kept between calls (never returned). */
let rx0 = new Int32Array(0), rx1 = new Int32Array(0), ry = new Int32Array(0), parent = new Int32Array(0);

function grow(n: number): void {
  if (rx0.length >= n) return;
  const size = Math.max(n, 2 * rx0.length, 1024);
  const keep = (a: Int32Array) => {
    const b = new Int32Array(size);
    b.set(a);
    return b;
  };
  rx0 = keep(rx0);
  rx1 = keep(rx1);
  ry = keep(ry);
  parent = keep(parent);
}

function rootOf(i: number): number {
  let r = i;
  while (parent[r] !== r) r = parent[r]!;
  while (parent[i] !== r) {
    const next = parent[i]!;
    parent[i] = r;
    i = next;
  }
  return r;
}

/** `into`: a zeroed array of width × height for the labels (scratch), else a fresh one. */
export function labelRegions(mask: Mask, into?: Int32Array): Labelling {
  const { width, height, data } = mask;
  const labels = into && into.length === width * height ? into : new Int32Array(width * height);
  let count = 0;
  let prevStart = 0, prevEnd = 0;
  for (let y = 0; y < height; y++) {
    const r = y * width;
    const rowStart = count;
    let k = prevStart;
    let x = 0;
    while (x < width) {
      while (x < width && !data[r + x]) x++;
      if (x >= width) break;
      const x0 = x;
      while (x < width && data[r + x]) x++;
      if (count >= rx0.length) grow(count + 1);
      const id = count++;
      rx0[id] = x0;
      rx1[id] = x;
      ry[id] = y;
      parent[id] = id;
      // Runs above touching this one, diagonals included: columns x0-1 .. x.
      while (k < prevEnd && rx1[k]! < x0) k++;
      for (let j = k; j < prevEnd && rx0[j]! <= x; j++) {
        const a = rootOf(j), b = rootOf(id);
        if (a === b) continue;
        // The root is always the region's earliest run, so roots come in raster order.
        if (a < b) parent[b] = a;
        else parent[a] = b;
      }
    }
    prevStart = rowStart;
    prevEnd = count;
  }
  const regions: Region[] = [];
  // Runs are in raster order: a root is met before any other run of its region.
  const labelOfRun = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const root = rootOf(i);
    let label: number;
    if (root === i) {
      label = regions.length + 1;
      regions.push({ label, area: 0, x0: width, y0: height, x1: 0, y1: 0, touchesBorder: false });
    } else label = labelOfRun[root]!;
    labelOfRun[i] = label;
    const reg = regions[label - 1]!;
    const x0 = rx0[i]!, x1 = rx1[i]!, y = ry[i]!;
    reg.area += x1 - x0;
    if (x0 < reg.x0) reg.x0 = x0;
    if (x1 > reg.x1) reg.x1 = x1;
    if (y < reg.y0) reg.y0 = y;
    if (y + 1 > reg.y1) reg.y1 = y + 1;
    labels.fill(label, y * width + x0, y * width + x1);
  }
  for (const reg of regions) reg.touchesBorder = reg.x0 === 0 || reg.y0 === 0 || reg.x1 === width || reg.y1 === height;
  return { width, height, labels, regions };
}
