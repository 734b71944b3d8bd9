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

const tmp = new Float32Array(64);
const coef = new Float32Array(64);

/** Quantise one 8×8 block in place (values centred on 0). */
function quantiseBlock(block: Float32Array, table: Float32Array): void {
  // Forward: rows then columns.
  for (let y = 0; y < 8; y++) {
    for (let k = 0; k < 8; k++) {
      let s = 0;
      for (let n = 0; n < 8; n++) s += COS[k * 8 + n]! * block[y * 8 + n]!;
      tmp[y * 8 + k] = s;
    }
  }
  for (let x = 0; x < 8; x++) {
    for (let k = 0; k < 8; k++) {
      let s = 0;
      for (let n = 0; n < 8; n++) s += COS[k * 8 + n]! * tmp[n * 8 + x]!;
      const q = table[k * 8 + x]!;
      coef[k * 8 + x] = Math.round(s / q) * q;
    }
  }
  // Inverse.
  for (let x = 0; x < 8; x++) {
    for (let n = 0; n < 8; n++) {
      let s = 0;
      for (let k = 0; k < 8; k++) s += COS[k * 8 + n]! * coef[k * 8 + x]!;
      tmp[n * 8 + x] = s;
    }
  }
  for (let y = 0; y < 8; y++) {
    for (let n = 0; n < 8; n++) {
      let s = 0;
      for (let k = 0; k < 8; k++) s += COS[k * 8 + n]! * tmp[y * 8 + k]!;
      block[y * 8 + n] = s;
    }
  }
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
