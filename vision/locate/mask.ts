/**
 * Binary masks (one byte per pixel, 1 = set) and the few operations the locator needs on them:
 * hysteresis thresholding, filling enclosed holes, and a 3×3 opening.
 */

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

/**
 * Pixels at or above `low` that are 8-connected to a pixel at or above `high`: strong contrast
 * starts a region, weaker contrast (a die's shaded side, a pip's rim) extends it.
 */
export function hysteresis(values: Float32Array, width: number, height: number, low: number, high: number): Mask {
  const data = new Uint8Array(width * height);
  const stack = scratchStack(width * height);
  let top = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i]! >= high && !data[i]) {
      data[i] = 1;
      stack[top++] = i;
      while (top > 0) {
        const p = stack[--top]!;
        const x = p % width;
        const y = (p - x) / width;
        for (let dy = -1; dy <= 1; dy++) {
          const yy = y + dy;
          if (yy < 0 || yy >= height) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            if (xx < 0 || xx >= width) continue;
            const q = yy * width + xx;
            if (!data[q] && values[q]! >= low) {
              data[q] = 1;
              stack[top++] = q;
            }
          }
        }
      }
    }
  }
  return { width, height, data };
}

/**
 * Set every unset pixel that cannot reach the frame's border through unset pixels (4-connected),
 * when its hole is at most `maxHole` pixels: pips, glare spots and a white die's face inside
 * its detected rim become part of the die.
 */
export function fillHoles(mask: Mask, maxHole = Infinity): Mask {
  const { width, height } = mask;
  const src = mask.data;
  const n = width * height;
  // 1 = set, 2 = reached from the border; what stays 0 is a hole.
  const state = src.slice();
  const stack = scratchStack(n);
  let top = 0;
  const seed = (p: number) => {
    if (state[p] === 0) {
      state[p] = 2;
      stack[top++] = p;
    }
  };
  for (let x = 0; x < width; x++) seed(x), seed((height - 1) * width + x);
  for (let y = 0; y < height; y++) seed(y * width), seed(y * width + width - 1);
  while (top > 0) {
    const p = stack[--top]!;
    const x = p % width;
    if (x > 0 && state[p - 1] === 0) (state[p - 1] = 2), (stack[top++] = p - 1);
    if (x < width - 1 && state[p + 1] === 0) (state[p + 1] = 2), (stack[top++] = p + 1);
    if (p >= width && state[p - width] === 0) (state[p - width] = 2), (stack[top++] = p - width);
    if (p < n - width && state[p + width] === 0) (state[p + width] = 2), (stack[top++] = p + width);
  }
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = state[i] === 2 ? 0 : 1;
  if (maxHole === Infinity) return { width, height, data: out };
  // Reopen holes that are too big to be part of one die (a ring of dice around bare tray).
  for (let start = 0; start < n; start++) {
    if (state[start] !== 0) continue;
    const region: number[] = [];
    state[start] = 3;
    stack[top++] = start;
    while (top > 0) {
      const p = stack[--top]!;
      region.push(p);
      const x = p % width;
      if (x > 0 && state[p - 1] === 0) (state[p - 1] = 3), (stack[top++] = p - 1);
      if (x < width - 1 && state[p + 1] === 0) (state[p + 1] = 3), (stack[top++] = p + 1);
      if (p >= width && state[p - width] === 0) (state[p - width] = 3), (stack[top++] = p - width);
      if (p < n - width && state[p + width] === 0) (state[p + width] = 3), (stack[top++] = p + width);
    }
    if (region.length > maxHole) for (const p of region) out[p] = 0;
  }
  return { width, height, data: out };
}

/** 3×3 erosion (out-of-frame counts as unset) or dilation, separably, branch-free inside rows. */
function morph(mask: Mask, erode: boolean): Mask {
  const { width: w, height: h, data } = mask;
  const tmp = new Uint8Array(data.length);
  const out = new Uint8Array(data.length);
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
export function open3(mask: Mask): Mask {
  return morph(morph(mask, true), false);
}

export function erode3(mask: Mask): Mask {
  return morph(mask, true);
}

export function dilate3(mask: Mask): Mask {
  return morph(mask, false);
}

export function union(a: Mask, b: Mask): Mask {
  const data = new Uint8Array(a.data.length);
  for (let i = 0; i < data.length; i++) data[i] = a.data[i]! | b.data[i]!;
  return { width: a.width, height: a.height, data };
}
