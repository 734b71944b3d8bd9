/**
 * Binary masks (one byte per pixel, 1 = set) and the few operations the locator needs on them:
 * hysteresis thresholding, filling enclosed holes, and 3×3 morphology.
 *
 * Speed matters here (each runs on every frame, several times), so: the morphology works on four
 * pixels at a time where the row length allows it, hole filling works on runs of unset pixels
 * rather than on pixels, and scratch memory is kept between calls (the results are fresh arrays,
 * so the functions stay pure, unless the caller lends the output: `into`, `scratch`).
 */

import { u8, type FrameScratch } from './scratch.js';

/**
 * One flood-fill stack for every fill in this module and components.ts, grown on demand: the
 * locator runs these fills several times per frame and a fresh 0.4 MB array each time is garbage
 * the collector then has to chase. (Fills never nest, so sharing is safe.)
 */
let sharedStack = new Int32Array(0);
export function scratchStack(size: number): Int32Array {
  if (sharedStack.length < size) sharedStack = new Int32Array(size);
  return sharedStack;
}

export interface Mask {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The bytes as 32-bit words when they are aligned for it (null otherwise). */
function wordsOf(data: Uint8Array): Uint32Array | null {
  return data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, data.length >> 2) : null;
}

/** Four set pixels (bytes of 1) in one word, whatever the byte order. */
const ALL_SET = 0x01010101;

/** The first index in [i, stop) whose byte is set (or stop), four bytes at a time over unset words. */
function nextSet(src: Uint8Array, words: Uint32Array | null, i: number, stop: number): number {
  if (words) {
    while (i < stop && i & 3) {
      if (src[i]) return i;
      i++;
    }
    while (i + 4 <= stop && words[i >> 2] === 0) i += 4;
  }
  while (i < stop && !src[i]) i++;
  return i;
}

/** The first index in [i, stop) whose byte is unset (or stop), four bytes at a time over set words. */
function nextUnset(src: Uint8Array, words: Uint32Array | null, i: number, stop: number): number {
  if (words) {
    while (i < stop && i & 3) {
      if (!src[i]) return i;
      i++;
    }
    while (i + 4 <= stop && words[i >> 2] === ALL_SET) i += 4;
  }
  while (i < stop && src[i]) i++;
  return i;
}

/** `src` as 0/1 bytes into `out` (a copy when it already is 0/1, as the locator's masks are). */
function copyBinary(src: Uint8Array, out: Uint8Array): void {
  out.set(src);
  const words = wordsOf(out);
  const n = out.length;
  let i = 0;
  if (words) for (; i + 4 <= n; i += 4) if (words[i >> 2]! & 0xfefefefe) break;
  for (; i < n; i++) if (out[i]! > 1) out[i] = 1;
}

/** A fresh output, or the caller's scratch when given (cleared where the operation needs it). */
function output(n: number, into?: Uint8Array): Uint8Array {
  return into && into.length === n ? into : new Uint8Array(n);
}

/**
 * Pixels at or above `low` that are 8-connected to a pixel at or above `high`: strong contrast
 * starts a region, weaker contrast (a die's shaded side, a pip's rim) extends it.
 */
export function hysteresis(values: Float32Array, width: number, height: number, low: number, high: number, scratch?: FrameScratch): Mask {
  const n = width * height;
  const data = u8(n, scratch);
  // Each stacked pixel with its column, so that the fill needs no division.
  const stack = scratchStack(2 * n);
  for (let i = 0; i < n; i++) {
    if (!(values[i]! >= high) || data[i]) continue;
    data[i] = 1;
    let top = 0;
    stack[top++] = i;
    stack[top++] = i % width;
    while (top > 0) {
      const x = stack[--top]!;
      const p = stack[--top]!;
      const hasUp = p >= width, hasDown = p < n - width;
      if (x > 0) {
        let q = p - 1;
        if (!data[q] && values[q]! >= low) (data[q] = 1), (stack[top++] = q), (stack[top++] = x - 1);
        q = p - width - 1;
        if (hasUp && !data[q] && values[q]! >= low) (data[q] = 1), (stack[top++] = q), (stack[top++] = x - 1);
        q = p + width - 1;
        if (hasDown && !data[q] && values[q]! >= low) (data[q] = 1), (stack[top++] = q), (stack[top++] = x - 1);
      }
      if (x < width - 1) {
        let q = p + 1;
        if (!data[q] && values[q]! >= low) (data[q] = 1), (stack[top++] = q), (stack[top++] = x + 1);
        q = p - width + 1;
        if (hasUp && !data[q] && values[q]! >= low) (data[q] = 1), (stack[top++] = q), (stack[top++] = x + 1);
        q = p + width + 1;
        if (hasDown && !data[q] && values[q]! >= low) (data[q] = 1), (stack[top++] = q), (stack[top++] = x + 1);
      }
      let q = p - width;
      if (hasUp && !data[q] && values[q]! >= low) (data[q] = 1), (stack[top++] = q), (stack[top++] = x);
      q = p + width;
      if (hasDown && !data[q] && values[q]! >= low) (data[q] = 1), (stack[top++] = q), (stack[top++] = x);
    }
  }
  return { width, height, data };
}

/** Run-length bookkeeping for fillHoles, kept between calls. */
let runX0 = new Int32Array(0), runX1 = new Int32Array(0), runY = new Int32Array(0), runParent = new Int32Array(0);
let runArea = new Float64Array(0);
let runOpen = new Uint8Array(0);

function growRuns(n: number): void {
  if (runX0.length >= n) return;
  const size = Math.max(n, 2 * runX0.length, 1024);
  // Grown mid-scan: keep what is there.
  const i32 = (a: Int32Array) => {
    const b = new Int32Array(size);
    b.set(a);
    return b;
  };
  runX0 = i32(runX0);
  runX1 = i32(runX1);
  runY = i32(runY);
  runParent = i32(runParent);
  const area = new Float64Array(size);
  area.set(runArea);
  runArea = area;
  const open = new Uint8Array(size);
  open.set(runOpen);
  runOpen = open;
}

function rootOf(i: number): number {
  let r = i;
  while (runParent[r] !== r) r = runParent[r]!;
  while (runParent[i] !== r) {
    const next = runParent[i]!;
    runParent[i] = r;
    i = next;
  }
  return r;
}

function joinRuns(a: number, b: number): void {
  const ra = rootOf(a), rb = rootOf(b);
  if (ra === rb) return;
  // The older run stays the root (keeps the trees shallow enough for these sizes).
  if (ra < rb) runParent[rb] = ra;
  else runParent[ra] = rb;
}

/**
 * Set every unset pixel that cannot reach the frame's border through unset pixels (4-connected),
 * when its hole is at most `maxHole` pixels: pips, glare spots and a white die's face inside
 * its detected rim become part of the die.
 *
 * Works on runs of unset pixels: a run joins the runs it overlaps in the row above; a hole is a
 * group of runs that touches no border, filled when its area is at most `maxHole`.
 */
export function fillHoles(mask: Mask, maxHole = Infinity, into?: Uint8Array): Mask {
  const { width, height } = mask;
  const src = mask.data;
  const n = width * height;
  const out = output(n, into);
  copyBinary(src, out);
  if (width === 0 || height === 0) return { width, height, data: out };
  const words = wordsOf(src);
  let count = 0;
  let prevStart = 0, prevEnd = 0; // runs of the row above: [prevStart, prevEnd)
  for (let y = 0; y < height; y++) {
    const r = y * width;
    const rowStart = count;
    let x = 0;
    let k = prevStart;
    while (x < width) {
      x = nextUnset(src, words, r + x, r + width) - r;
      if (x >= width) break;
      const x0 = x;
      x = nextSet(src, words, r + x, r + width) - r;
      if (count >= runX0.length) growRuns(count + 1);
      const id = count++;
      runX0[id] = x0;
      runX1[id] = x;
      runY[id] = y;
      runParent[id] = id;
      runArea[id] = x - x0;
      runOpen[id] = y === 0 || y === height - 1 || x0 === 0 || x === width ? 1 : 0;
      // 4-connected: runs of the row above that share a column with this one.
      while (k < prevEnd && runX1[k]! <= x0) k++;
      for (let j = k; j < prevEnd && runX0[j]! < x; j++) joinRuns(j, id);
    }
    prevStart = rowStart;
    prevEnd = count;
  }
  // Gather area and openness at the roots.
  for (let i = 0; i < count; i++) {
    const root = rootOf(i);
    if (root === i) continue;
    runArea[root]! += runArea[i]!;
    if (runOpen[i]) runOpen[root] = 1;
  }
  for (let i = 0; i < count; i++) {
    const root = runParent[i]!; // compressed by the pass above
    if (runOpen[root] || runArea[root]! > maxHole) continue;
    out.fill(1, runY[i]! * width + runX0[i]!, runY[i]! * width + runX1[i]!);
  }
  return { width, height, data: out };
}

/** Whether this machine stores typed arrays little-endian (the four-pixel morphology assumes so). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

let sharedTmp = new Uint8Array(0);

/**
 * 3×3 erosion (out-of-frame counts as unset) or dilation, separably. Rows whose length is a
 * multiple of four are processed four pixels to a 32-bit word: a byte's left neighbour is the
 * word shifted up a byte (with the top byte of the word before), its right one likewise.
 */
function morph(mask: Mask, erode: boolean, into?: Uint8Array): Mask {
  const { width: w, height: h, data } = mask;
  const n = data.length;
  const out = output(n, into);
  if (sharedTmp.length < n) sharedTmp = new Uint8Array(Math.max(n, 2 * sharedTmp.length));
  const tmp = sharedTmp;
  if (LITTLE_ENDIAN && w % 4 === 0 && w > 0 && data.byteOffset % 4 === 0 && out.byteOffset % 4 === 0 && n === w * h) {
    const words = w >> 2;
    const d = new Uint32Array(data.buffer, data.byteOffset, n >> 2);
    const t = new Uint32Array(tmp.buffer, 0, n >> 2);
    const o = new Uint32Array(out.buffer, out.byteOffset, n >> 2);
    for (let y = 0; y < h; y++) {
      const r = y * words, end = r + words - 1;
      let prev = 0, cur = d[r]!;
      for (let k = r; k <= end; k++) {
        const next = k < end ? d[k + 1]! : 0;
        const left = (cur << 8) | (prev >>> 24);
        const right = (cur >>> 8) | (next << 24);
        t[k] = erode ? cur & left & right : cur | left | right;
        prev = cur;
        cur = next;
      }
    }
    const m = n >> 2;
    if (erode) {
      for (let k = 0; k < m; k++) {
        const u = k >= words ? t[k - words]! : 0;
        const dn = k + words < m ? t[k + words]! : 0;
        o[k] = u & t[k]! & dn;
      }
    } else {
      for (let k = 0; k < m; k++) {
        const u = k >= words ? t[k - words]! : 0;
        const dn = k + words < m ? t[k + words]! : 0;
        o[k] = u | t[k]! | dn;
      }
    }
    return { width: w, height: h, data: out };
  }
  for (let y = 0; y < h; y++) {
    const r = y * w;
    if (w === 1) {
      tmp[r] = erode ? 0 : data[r]!;
      continue;
    }
    if (erode) {
      tmp[r] = 0;
      for (let i = r + 1, end = r + w - 1; i < end; i++) tmp[i] = data[i - 1]! & data[i]! & data[i + 1]!;
      tmp[r + w - 1] = 0;
    } else {
      tmp[r] = data[r]! | data[r + 1]!;
      for (let i = r + 1, end = r + w - 1; i < end; i++) tmp[i] = data[i - 1]! | data[i]! | data[i + 1]!;
      tmp[r + w - 1] = data[r + w - 2]! | data[r + w - 1]!;
    }
  }
  for (let y = 0; y < h; y++) {
    const r = y * w;
    const up = y > 0 ? r - w : -1, down = y < h - 1 ? r + w : -1;
    for (let x = 0; x < w; x++) {
      const c = tmp[r + x]!;
      const u = up >= 0 ? tmp[up + x]! : 0;
      const d = down >= 0 ? tmp[down + x]! : 0;
      out[r + x] = erode ? u & c & d : u | c | d;
    }
  }
  return { width: w, height: h, data: out };
}

/** Erode then dilate: removes specks and lines thinner than 3 px (wood grain, scratches). */
export function open3(mask: Mask, into?: Uint8Array): Mask {
  // The eroded mask is only a step: kept in scratch memory.
  if (sharedStep.length < mask.data.length) sharedStep = new Uint8Array(Math.max(mask.data.length, 2 * sharedStep.length));
  return morph(morph(mask, true, sharedStep.subarray(0, mask.data.length)), false, into);
}

let sharedStep = new Uint8Array(0);

export function erode3(mask: Mask, into?: Uint8Array): Mask {
  return morph(mask, true, into);
}

export function dilate3(mask: Mask, into?: Uint8Array): Mask {
  return morph(mask, false, into);
}

export function union(a: Mask, b: Mask, into?: Uint8Array): Mask {
  const n = a.data.length;
  const data = output(n, into);
  const wa = wordsOf(a.data), wb = wordsOf(b.data), wo = wordsOf(data);
  let i = 0;
  if (wa && wb && wo) for (; i + 4 <= n; i += 4) wo[i >> 2] = wa[i >> 2]! | wb[i >> 2]!;
  for (; i < n; i++) data[i] = a.data[i]! | b.data[i]!;
  return { width: a.width, height: a.height, data };
}

/** Pixels set in `a` and not in `b` (0/1 masks of the same size). */
export function minus(a: Mask, b: Mask, into?: Uint8Array): Mask {
  const n = a.data.length;
  const data = output(n, into);
  const wa = wordsOf(a.data), wb = wordsOf(b.data), wo = wordsOf(data);
  let i = 0;
  if (wa && wb && wo) for (; i + 4 <= n; i += 4) wo[i >> 2] = wa[i >> 2]! & ~wb[i >> 2]! & ALL_SET;
  for (; i < n; i++) data[i] = a.data[i]! & (b.data[i]! ^ 1);
  return { width: a.width, height: a.height, data };
}

/**
 * What closed outlines enclose, outline included: a die whose body matches the tray (white on a
 * light tray) still has an outline. Open lines (wood grain, scratches) enclose nothing and add
 * nothing, so edges never glue a die to the texture around it. Gaps of a pixel are bridged.
 * Holes over `maxHole` pixels (by default an eighth of the frame) are left open.
 */
export function enclosedBy(edges: Mask, maxHole = edges.data.length / 8, scratch?: FrameScratch): Mask {
  const n = edges.data.length;
  const [a, b, c] = maskScratch(n);
  const closed = dilate3(edges, a);
  const filled = fillHoles(closed, maxHole, b);
  const inner = minus(filled, closed, c);
  return dilate3(dilate3(inner, a), scratch?.u8(n));
}

/**
 * Three scratch masks for the steps of `diceMask` and `enclosedBy` that nobody keeps (one frame at a time): fresh
 * 100 KB arrays per step were a good part of the collector's work.
 */
let scratchMasks: Uint8Array[] = [];
export function maskScratch(n: number): [Uint8Array, Uint8Array, Uint8Array] {
  if (!scratchMasks[0] || scratchMasks[0].length < n) scratchMasks = [new Uint8Array(n), new Uint8Array(n), new Uint8Array(n)];
  return [scratchMasks[0]!.subarray(0, n), scratchMasks[1]!.subarray(0, n), scratchMasks[2]!.subarray(0, n)];
}
