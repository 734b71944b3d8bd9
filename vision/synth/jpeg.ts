/**
 * JPEG compression artefacts without the entropy coder: what a camera's JPEG does to pixels
 * (YCbCr, 4:2:0 chroma subsampling, 8×8 DCT quantised with the standard IJG tables at a quality).
 * The Huffman stage is lossless, so this reproduces the artefacts exactly enough, synchronously
 * and far faster than a real encode/decode round trip.
 */
import type { RgbImage } from '../types.js';

const LUMA_Q = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
  18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_Q = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

function scaledTable(base: number[], quality: number): Float32Array {
  const q = Math.max(1, Math.min(100, Math.round(quality)));
  const s = q < 50 ? 5000 / q : 200 - 2 * q;
  return Float32Array.from(base, (v) => Math.max(1, Math.min(255, Math.floor((v * s + 50) / 100))));
}

// DCT-II basis: COS[k * 8 + n] = c(k) cos((2n + 1) k π / 16).
const COS = new Float32Array(64);
for (let k = 0; k < 8; k++) {
  for (let n = 0; n < 8; n++) COS[k * 8 + n] = (k === 0 ? Math.SQRT1_2 : 1) * 0.5 * Math.cos(((2 * n + 1) * k * Math.PI) / 16);
}

// Even/odd halves of the basis: C[k][7 − n] = ±C[k][n], so each 1-D transform needs 32
// multiplications instead of 64.
const EVEN = new Float32Array(16); // EVEN[k2 * 4 + n] = COS[(2·k2) * 8 + n], n < 4
const ODD = new Float32Array(16); // ODD[k2 * 4 + n] = COS[(2·k2 + 1) * 8 + n], n < 4
for (let k2 = 0; k2 < 4; k2++) {
  for (let n = 0; n < 4; n++) {
    EVEN[k2 * 4 + n] = COS[2 * k2 * 8 + n]!;
    ODD[k2 * 4 + n] = COS[(2 * k2 + 1) * 8 + n]!;
  }
}

/** In-place 8-point DCT-II of a[off + i·stride]. */
function fdct8(a: Float32Array, off: number, stride: number): void {
  const s0 = a[off]! + a[off + 7 * stride]!, d0 = a[off]! - a[off + 7 * stride]!;
  const s1 = a[off + stride]! + a[off + 6 * stride]!, d1 = a[off + stride]! - a[off + 6 * stride]!;
  const s2 = a[off + 2 * stride]! + a[off + 5 * stride]!, d2 = a[off + 2 * stride]! - a[off + 5 * stride]!;
  const s3 = a[off + 3 * stride]! + a[off + 4 * stride]!, d3 = a[off + 3 * stride]! - a[off + 4 * stride]!;
  for (let k2 = 0; k2 < 4; k2++) {
    const e = k2 * 4;
    a[off + 2 * k2 * stride] = EVEN[e]! * s0 + EVEN[e + 1]! * s1 + EVEN[e + 2]! * s2 + EVEN[e + 3]! * s3;
    tmp8[k2] = ODD[e]! * d0 + ODD[e + 1]! * d1 + ODD[e + 2]! * d2 + ODD[e + 3]! * d3;
  }
  for (let k2 = 0; k2 < 4; k2++) a[off + (2 * k2 + 1) * stride] = tmp8[k2]!;
}

/** In-place inverse of fdct8. */
function idct8(a: Float32Array, off: number, stride: number): void {
  const X0 = a[off]!, X1 = a[off + stride]!, X2 = a[off + 2 * stride]!, X3 = a[off + 3 * stride]!;
  const X4 = a[off + 4 * stride]!, X5 = a[off + 5 * stride]!, X6 = a[off + 6 * stride]!, X7 = a[off + 7 * stride]!;
  for (let n = 0; n < 4; n++) {
    const e = EVEN[n]! * X0 + EVEN[4 + n]! * X2 + EVEN[8 + n]! * X4 + EVEN[12 + n]! * X6;
    const o = ODD[n]! * X1 + ODD[4 + n]! * X3 + ODD[8 + n]! * X5 + ODD[12 + n]! * X7;
    tmp8[n] = e + o;
    tmp8[7 - n] = e - o;
  }
  for (let n = 0; n < 8; n++) a[off + n * stride] = tmp8[n]!;
}

const tmp8 = new Float32Array(8);

/** Quantise one 8×8 block in place (values centred on 0). */
function quantiseBlock(block: Float32Array, table: Float32Array): void {
  for (let y = 0; y < 8; y++) fdct8(block, y * 8, 1);
  for (let x = 0; x < 8; x++) fdct8(block, x, 8);
  for (let i = 0; i < 64; i++) {
    const q = table[i]!;
    block[i] = Math.round(block[i]! / q) * q;
  }
  for (let x = 0; x < 8; x++) idct8(block, x, 8);
  for (let y = 0; y < 8; y++) idct8(block, y * 8, 1);
}

function processPlane(plane: Float32Array, w: number, h: number, table: Float32Array): void {
  const block = new Float32Array(64);
  for (let by = 0; by < h; by += 8) {
    for (let bx = 0; bx < w; bx += 8) {
      for (let y = 0; y < 8; y++) {
        const yy = Math.min(h - 1, by + y);
        for (let x = 0; x < 8; x++) block[y * 8 + x] = plane[yy * w + Math.min(w - 1, bx + x)]! - 128;
      }
      quantiseBlock(block, table);
      for (let y = 0; y < 8 && by + y < h; y++) {
        for (let x = 0; x < 8 && bx + x < w; x++) plane[(by + y) * w + bx + x] = block[y * 8 + x]! + 128;
      }
    }
  }
}

/** The image as it comes back from a JPEG encode/decode at `quality` (1..100). */
export function jpegArtefacts(image: RgbImage, quality: number): RgbImage {
  const { width: w, height: h, data } = image;
  const lq = scaledTable(LUMA_Q, quality), cq = scaledTable(CHROMA_Q, quality);
  const Y = new Float32Array(w * h);
  const cw = Math.ceil(w / 2), ch = Math.ceil(h / 2);
  const Cb = new Float32Array(cw * ch), Cr = new Float32Array(cw * ch);
  const cnt = new Float32Array(cw * ch);
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const p = (j * w + i) * 3;
      const r = data[p]!, g = data[p + 1]!, b = data[p + 2]!;
      Y[j * w + i] = 0.299 * r + 0.587 * g + 0.114 * b;
      const c = (j >> 1) * cw + (i >> 1);
      Cb[c] = Cb[c]! + (-0.168736 * r - 0.331264 * g + 0.5 * b + 128);
      Cr[c] = Cr[c]! + (0.5 * r - 0.418688 * g - 0.081312 * b + 128);
      cnt[c] = cnt[c]! + 1;
    }
  }
  for (let c = 0; c < cw * ch; c++) {
    Cb[c] = Cb[c]! / cnt[c]!;
    Cr[c] = Cr[c]! / cnt[c]!;
  }
  processPlane(Y, w, h, lq);
  processPlane(Cb, cw, ch, cq);
  processPlane(Cr, cw, ch, cq);
  const out = new Uint8ClampedArray(w * h * 3);
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const y = Y[j * w + i]!;
      // Chroma upsampled bilinearly, as decoders do ("fancy upsampling").
      const fx = Math.min(cw - 1, Math.max(0, (i - 0.5) / 2)), fy = Math.min(ch - 1, Math.max(0, (j - 0.5) / 2));
      const x0 = Math.floor(fx), y0 = Math.floor(fy);
      const x1 = Math.min(cw - 1, x0 + 1), y1 = Math.min(ch - 1, y0 + 1);
      const tx = fx - x0, ty = fy - y0;
      const i00 = y0 * cw + x0, i01 = y0 * cw + x1, i10 = y1 * cw + x0, i11 = y1 * cw + x1;
      const w00 = (1 - tx) * (1 - ty), w01 = tx * (1 - ty), w10 = (1 - tx) * ty, w11 = tx * ty;
      const cb = Cb[i00]! * w00 + Cb[i01]! * w01 + Cb[i10]! * w10 + Cb[i11]! * w11 - 128;
      const cr = Cr[i00]! * w00 + Cr[i01]! * w01 + Cr[i10]! * w10 + Cr[i11]! * w11 - 128;
      const p = (j * w + i) * 3;
      // Uint8ClampedArray rounds and clamps on store.
      out[p] = y + 1.402 * cr;
      out[p + 1] = y - 0.344136 * cb - 0.714136 * cr;
      out[p + 2] = y + 1.772 * cb;
    }
  }
  return { width: w, height: h, data: new Uint8Array(out.buffer) };
}
