/**
 * Gradient kernels the tfjs wasm backend does not ship, registered on 'wasm' and built from ops
 * it does have (pad, strided slice, concat, matMul, multiply, sum). tfjs-core's gradient of
 * Conv2D (plain and fused) calls Conv2DBackpropFilter, and the depthwise gradients call the two
 * depthwise backprop kernels; without them training on wasm throws "kernel not found".
 *
 * Layout: NHWC only (what tfjs-layers uses); dilations must be 1, as tfjs-core's own conv
 * gradients require. Each kernel is checked against the cpu backend's numbers in
 * tests/vision/model-wasm-gradients.test.ts.
 */
import * as tf from '@tensorflow/tfjs';
import type { KernelBackend, KernelConfig, KernelFunc, TensorInfo } from '@tensorflow/tfjs';

type Conv4 = [number, number, number, number];
type Pad = 'valid' | 'same' | number | [[number, number], [number, number], [number, number], [number, number]];

/** The 2-D geometry of a convolution, as tfjs computes it. */
interface ConvGeometry {
  batch: number;
  inHeight: number;
  inWidth: number;
  outHeight: number;
  outWidth: number;
  filterHeight: number;
  filterWidth: number;
  strideHeight: number;
  strideWidth: number;
  top: number;
  left: number;
}

function geometry(
  kernel: string,
  inShape: Conv4,
  filterShape: Conv4,
  strides: number | [number, number],
  dilations: number | [number, number],
  pad: Pad,
  dimRoundingMode: 'floor' | 'round' | 'ceil' | undefined,
  depthwise: boolean,
): ConvGeometry {
  const d = typeof dilations === 'number' ? [dilations, dilations] : dilations;
  if (d[0] !== 1 || d[1] !== 1) throw new Error(`${kernel} (wasm): dilations ${JSON.stringify(dilations)} are not supported; use 1`);
  const info = tf.backend_util.computeConv2DInfo(inShape, filterShape, strides, 1, pad, dimRoundingMode, depthwise, 'channelsLast');
  return {
    batch: info.batchSize,
    inHeight: info.inHeight,
    inWidth: info.inWidth,
    outHeight: info.outHeight,
    outWidth: info.outWidth,
    filterHeight: info.filterHeight,
    filterWidth: info.filterWidth,
    strideHeight: info.strideHeight,
    strideWidth: info.strideWidth,
    top: info.padInfo.top,
    left: info.padInfo.left,
  };
}

/** A Tensor for a kernel input. Ops hand kernels real Tensors; a bare TensorInfo is copied. */
function asTensor(info: TensorInfo, backend: unknown): tf.Tensor {
  if (info instanceof tf.Tensor) return info;
  return tf.tensor((backend as KernelBackend).readSync(info.dataId) as Float32Array, info.shape, info.dtype);
}

/**
 * For every filter tap (kh, kw), the input pixels it meets: a [N, outH, outW, C] tensor per tap,
 * in row-major tap order. This is im2col split by tap, done with pad + strided slice.
 */
function tapPatches(x: tf.Tensor4D, g: ConvGeometry, padValue = 0): tf.Tensor4D[] {
  const [, , , channels] = x.shape;
  const needRows = (g.filterHeight - 1) + (g.outHeight - 1) * g.strideHeight + 1;
  const needCols = (g.filterWidth - 1) + (g.outWidth - 1) * g.strideWidth + 1;
  const bottom = Math.max(0, needRows - g.top - g.inHeight);
  const right = Math.max(0, needCols - g.left - g.inWidth);
  const padded = tf.pad(x, [[0, 0], [g.top, bottom], [g.left, right], [0, 0]], padValue);
  const taps: tf.Tensor4D[] = [];
  for (let kh = 0; kh < g.filterHeight; kh++) {
    for (let kw = 0; kw < g.filterWidth; kw++) {
      taps.push(
        tf.stridedSlice(
          padded,
          [0, kh, kw, 0],
          [g.batch, kh + (g.outHeight - 1) * g.strideHeight + 1, kw + (g.outWidth - 1) * g.strideWidth + 1, channels],
          [1, g.strideHeight, g.strideWidth, 1],
        ) as tf.Tensor4D,
      );
    }
  }
  return taps;
}

/**
 * The adjoint of `tapPatches`: adds each tap's [N, outH, outW, C] values back onto the input
 * pixels that tap read, by zero insertion (stride), a shift (tap offset) and a crop (padding).
 */
function scatterTaps(taps: tf.Tensor4D[], g: ConvGeometry, inHeight: number, inWidth: number): tf.Tensor4D {
  const sh = g.strideHeight;
  const sw = g.strideWidth;
  const kh = g.filterHeight;
  const kw = g.filterWidth;
  const gridH = (kh - 1) + g.outHeight * sh;
  const gridW = (kw - 1) + g.outWidth * sw;
  let total: tf.Tensor4D | undefined;
  taps.forEach((tap, index) => {
    const r = Math.floor(index / kw);
    const c = index % kw;
    const channels = tap.shape[3];
    const spread = tf
      .pad(tap.reshape([g.batch, g.outHeight, 1, g.outWidth, 1, channels]), [[0, 0], [0, 0], [0, sh - 1], [0, 0], [0, sw - 1], [0, 0]])
      .reshape([g.batch, g.outHeight * sh, g.outWidth * sw, channels]);
    const placed = tf.pad(spread, [[0, 0], [r, kh - 1 - r], [c, kw - 1 - c], [0, 0]]) as tf.Tensor4D;
    total = total ? (tf.add(total, placed) as tf.Tensor4D) : placed;
  });
  if (!total) throw new Error('scatterTaps: no taps');
  const channels = total.shape[3];
  const extraH = Math.max(0, g.top + inHeight - gridH);
  const extraW = Math.max(0, g.left + inWidth - gridW);
  const grid = extraH || extraW ? tf.pad(total, [[0, 0], [0, extraH], [0, extraW], [0, 0]]) : total;
  return tf.slice(grid, [0, g.top, g.left, 0], [g.batch, inHeight, inWidth, channels]);
}

interface Conv2DBackpropFilterAttrs {
  strides: number | [number, number];
  pad: Pad;
  dataFormat: 'NHWC' | 'NCHW';
  dimRoundingMode?: 'floor' | 'round' | 'ceil';
  filterShape: Conv4;
}

/**
 * dW[kh,kw,ci,co] = Σ x[n, i·s+kh−top, j·s+kw−left, ci] · dy[n,i,j,co], computed as ONE forward
 * convolution (which wasm runs through XNNPACK): the input channels become the batch, the batch
 * becomes the channels, dy is the filter, and the stride becomes the filter's dilation. About 20×
 * faster here than im2col with strided slices (measured in docs/notes/vision-model.md).
 */
const conv2DBackpropFilter: KernelFunc = ({ inputs, backend, attrs }) => {
  const a = attrs as unknown as Conv2DBackpropFilterAttrs;
  if (a.dataFormat === 'NCHW') throw new Error('Conv2DBackpropFilter (wasm): only NHWC is supported');
  const x = asTensor(inputs.x!, backend) as tf.Tensor4D;
  const dy = asTensor(inputs.dy!, backend) as tf.Tensor4D;
  const g = geometry('Conv2DBackpropFilter', x.shape, a.filterShape, a.strides, 1, a.pad, a.dimRoundingMode, false);
  return tf.tidy(() => {
    const [, , ci] = a.filterShape;
    const needH = (g.filterHeight - 1) + (g.outHeight - 1) * g.strideHeight + 1;
    const needW = (g.filterWidth - 1) + (g.outWidth - 1) * g.strideWidth + 1;
    const xt = tf.transpose(x, [3, 1, 2, 0]); // [ci, H, W, N]
    const padded = tf.pad(xt, [[0, 0], [g.top, Math.max(0, needH - g.top - g.inHeight)], [g.left, Math.max(0, needW - g.left - g.inWidth)], [0, 0]]);
    const window = tf.slice(padded, [0, 0, 0, 0], [ci, needH, needW, g.batch]) as tf.Tensor4D;
    const filter = tf.transpose(dy, [1, 2, 0, 3]) as tf.Tensor4D; // [outH, outW, N, co]
    const out = tf.conv2d(window, filter, 1, 'valid', 'NHWC', [g.strideHeight, g.strideWidth]); // [ci, kh, kw, co]
    return tf.transpose(out, [1, 2, 0, 3]);
  });
};

interface Conv2DBackpropInputAttrs {
  strides: number | [number, number];
  pad: Pad;
  dataFormat: 'NHWC' | 'NCHW';
  dimRoundingMode?: 'floor' | 'round' | 'ceil';
  inputShape: Conv4;
}

/**
 * One output phase (row or column residue p modulo the stride s) of a strided convolution's
 * input gradient, along one axis: which filter taps reach it (in correlation order), how many
 * input rows it has, and where its dy window starts.
 */
interface Phase {
  taps: number[];
  rows: number;
  /** dy row read by output row 0's first tap (may be negative: pad). */
  offset: number;
}

export function phaseOf(p: number, stride: number, kernel: number, before: number, inSize: number): Phase {
  const q = (p + before) % stride;
  const e = Math.floor((p + before) / stride);
  const count = Math.max(0, Math.ceil((kernel - q) / stride));
  const taps = Array.from({ length: count }, (_, u) => stride * (count - 1 - u) + q);
  return { taps, rows: Math.max(0, Math.ceil((inSize - p) / stride)), offset: e - (count - 1) };
}

/**
 * The taps `hTaps` × `wTaps` of an [kh, kw, ci, co] filter, in that order, with the channel axes
 * swapped: [hTaps, wTaps, co, ci]. What gather(gather(filter, hTaps, 0), wTaps, 1) transposed
 * [0, 1, 3, 2] gives, value for value (a copy, no arithmetic).
 */
export function phaseFilter(weights: Float32Array, shape: Conv4, hTaps: readonly number[], wTaps: readonly number[]): Float32Array {
  const [, kw, ci, co] = shape;
  const out = new Float32Array(hTaps.length * wTaps.length * co * ci);
  let o = 0;
  for (const r of hTaps) {
    for (const c of wTaps) {
      const base = (r * kw + c) * ci * co;
      for (let j = 0; j < co; j++) {
        for (let i = 0; i < ci; i++) out[o++] = weights[base + i * co + j]!;
      }
    }
  }
  return out;
}

/**
 * dx of a convolution, as forward convolutions that wasm runs through XNNPACK. Stride 1: the
 * "full" correlation of dy with the filter turned 180° and its channels swapped. Stride s > 1:
 * split by output phase (sub-pixel): each of the s×s phases of dx is a stride-1 correlation of
 * dy with the filter taps that reach it, and the phases are interleaved. That avoids
 * convolving the s²-times larger zero-inserted dy. Replaces the wasm build's native
 * Conv2DBackpropInput, which is correct but several times slower on our layers.
 */
const conv2DBackpropInput: KernelFunc = ({ inputs, backend, attrs }) => {
  const a = attrs as unknown as Conv2DBackpropInputAttrs;
  if (a.dataFormat === 'NCHW') throw new Error('Conv2DBackpropInput (wasm): only NHWC is supported');
  const dy = asTensor(inputs.dy!, backend) as tf.Tensor4D;
  const filter = asTensor(inputs.filter!, backend) as tf.Tensor4D;
  const g = geometry('Conv2DBackpropInput', a.inputShape, filter.shape, a.strides, 1, a.pad, a.dimRoundingMode, false);
  // The filter is small (at most a few hundred KB); its taps are picked here rather than by
  // wasm's GatherV2 and Transpose, which took 2–4 ms each on a 3×3×64×128 filter.
  const weights = filter.dataSync() as Float32Array;
  return tf.tidy(() => {
    const [kh, kw, ci, co] = filter.shape;
    const [, inH, inW] = a.inputShape;
    const sh = g.strideHeight;
    const sw = g.strideWidth;
    const hPhases = Array.from({ length: sh }, (_, p) => phaseOf(p, sh, kh, g.top, inH));
    const wPhases = Array.from({ length: sw }, (_, p) => phaseOf(p, sw, kw, g.left, inW));
    const maxRows = Math.ceil(inH / sh);
    const maxCols = Math.ceil(inW / sw);
    const rowsOfPhases: tf.Tensor4D[] = [];
    for (const hp of hPhases) {
      const cells: tf.Tensor4D[] = [];
      for (const wp of wPhases) {
        let cell: tf.Tensor4D;
        if (hp.taps.length === 0 || wp.taps.length === 0 || hp.rows === 0 || wp.rows === 0) {
          cell = tf.zeros([g.batch, hp.rows, wp.rows, ci]);
        } else {
          const turned = tf.tensor4d(phaseFilter(weights, filter.shape, hp.taps, wp.taps), [hp.taps.length, wp.taps.length, co, ci]);
          const needH = hp.rows + hp.taps.length - 1;
          const needW = wp.rows + wp.taps.length - 1;
          const top = Math.max(0, -hp.offset);
          const left = Math.max(0, -wp.offset);
          const padded = tf.pad(dy, [[0, 0], [top, Math.max(0, hp.offset + needH - g.outHeight)], [left, Math.max(0, wp.offset + needW - g.outWidth)], [0, 0]]);
          const window = tf.slice(padded, [0, hp.offset + top, wp.offset + left, 0], [g.batch, needH, needW, co]) as tf.Tensor4D;
          cell = tf.conv2d(window, turned, 1, 'valid');
        }
        cells.push(tf.pad(cell, [[0, 0], [0, maxRows - hp.rows], [0, maxCols - wp.rows], [0, 0]]));
      }
      // Interleave columns: [N, R, C, sw, ci] → [N, R, C·sw, ci].
      rowsOfPhases.push(tf.stack(cells, 3).reshape([g.batch, maxRows, maxCols * sw, ci]));
    }
    // Interleave rows: [N, R, sh, W', ci] → [N, R·sh, W', ci], then crop to the input. (One 5-D
    // transpose of all the phases instead of the two stacks measured slower on wasm.)
    const all = tf.stack(rowsOfPhases, 2).reshape([g.batch, maxRows * sh, maxCols * sw, ci]);
    return tf.slice(all, [0, 0, 0, 0], [g.batch, inH, inW, ci]);
  });
};

interface DepthwiseBackpropAttrs {
  strides: number | [number, number];
  dilations: number | [number, number];
  pad: Pad;
  dimRoundingMode?: 'floor' | 'round' | 'ceil';
}

/** dW[kh,kw,ci,m] = Σ x[n, i·s+kh−top, j·s+kw−left, ci] · dy[n,i,j,ci·M+m]. */
const depthwiseBackpropFilter: KernelFunc = ({ inputs, backend, attrs }) => {
  const a = attrs as unknown as DepthwiseBackpropAttrs & { filterShape: Conv4 };
  const x = asTensor(inputs.x!, backend) as tf.Tensor4D;
  const dy = asTensor(inputs.dy!, backend) as tf.Tensor4D;
  const g = geometry('DepthwiseConv2dNativeBackpropFilter', x.shape, a.filterShape, a.strides, a.dilations, a.pad, a.dimRoundingMode, true);
  return tf.tidy(() => {
    const [kh, kw, ci, mult] = a.filterShape;
    const rows = g.batch * g.outHeight * g.outWidth;
    const grad = dy.reshape([rows, ci, mult]);
    const perTap = tapPatches(x, g).map((p) => tf.sum(tf.mul(p.reshape([rows, ci, 1]), grad), 0));
    return tf.stack(perTap).reshape([kh, kw, ci, mult]);
  });
};

/**
 * dx[n,r,c,ci] = Σ over taps and multipliers of dy[n,i,j,ci·M+m] · w[kh,kw,ci,m] where
 * r = i·s+kh−top: each tap's contribution is spread onto a stride-spaced grid (zero insertion),
 * shifted by the tap offset, summed, and cropped back to the input.
 */
const depthwiseBackpropInput: KernelFunc = ({ inputs, backend, attrs }) => {
  const a = attrs as unknown as DepthwiseBackpropAttrs & { inputShape: Conv4 };
  const dy = asTensor(inputs.dy!, backend) as tf.Tensor4D;
  const filter = asTensor(inputs.filter!, backend) as tf.Tensor4D;
  const g = geometry('DepthwiseConv2dNativeBackpropInput', a.inputShape, filter.shape, a.strides, a.dilations, a.pad, a.dimRoundingMode, true);
  return tf.tidy(() => {
    const [kh, kw, ci, mult] = filter.shape;
    const grad = dy.reshape([g.batch, g.outHeight, g.outWidth, ci, mult]);
    const taps: tf.Tensor4D[] = [];
    for (let r = 0; r < kh; r++) {
      for (let c = 0; c < kw; c++) {
        const w = tf.slice(filter, [r, c, 0, 0], [1, 1, ci, mult]).reshape([ci, mult]);
        taps.push(tf.sum(tf.mul(grad, w), 4) as tf.Tensor4D);
      }
    }
    return scatterTaps(taps, g, a.inputShape[1], a.inputShape[2]);
  });
};

interface MaxPoolGradAttrs {
  filterSize: number | [number, number];
  strides: number | [number, number];
  pad: Pad;
  dimRoundingMode?: 'floor' | 'round' | 'ceil';
}

/**
 * Each window's gradient goes to the first pixel (row-major) holding the window's maximum, as on
 * the cpu backend. Replaces the wasm build's own MaxPoolGrad, which loses gradients when there is
 * more than one channel (measured on tfjs-backend-wasm 4.22: see the test).
 */
const maxPoolGrad: KernelFunc = ({ inputs, backend, attrs }) => {
  const a = attrs as unknown as MaxPoolGradAttrs;
  const dy = asTensor(inputs.dy!, backend) as tf.Tensor4D;
  const x = asTensor(inputs.input!, backend) as tf.Tensor4D;
  const y = asTensor(inputs.output!, backend) as tf.Tensor4D;
  const info = tf.backend_util.computePool2DInfo(x.shape, a.filterSize, a.strides, 1, a.pad, a.dimRoundingMode);
  const g: ConvGeometry = {
    batch: info.batchSize, inHeight: info.inHeight, inWidth: info.inWidth, outHeight: info.outHeight, outWidth: info.outWidth,
    filterHeight: info.filterHeight, filterWidth: info.filterWidth, strideHeight: info.strideHeight, strideWidth: info.strideWidth,
    top: info.padInfo.top, left: info.padInfo.left,
  };
  return tf.tidy(() => {
    let unclaimed: tf.Tensor = tf.onesLike(y);
    const taps = tapPatches(x, g, -3.4e38).map((patch) => {
      const isMax = tf.mul(tf.cast(tf.equal(patch, y), 'float32'), unclaimed);
      unclaimed = tf.sub(unclaimed, isMax);
      return tf.mul(isMax, dy) as tf.Tensor4D;
    });
    return scatterTaps(taps, g, x.shape[1], x.shape[2]);
  });
};

/** Kernels the wasm build lacks. */
export const WASM_GRADIENT_KERNELS: readonly KernelConfig[] = [
  { kernelName: 'Conv2DBackpropFilter', backendName: 'wasm', kernelFunc: conv2DBackpropFilter },
  { kernelName: 'DepthwiseConv2dNativeBackpropFilter', backendName: 'wasm', kernelFunc: depthwiseBackpropFilter },
  { kernelName: 'DepthwiseConv2dNativeBackpropInput', backendName: 'wasm', kernelFunc: depthwiseBackpropInput },
];

/** Kernels the wasm build has but gets wrong or runs slowly; ours replace them. */
export const WASM_REPLACED_KERNELS: readonly KernelConfig[] = [
  { kernelName: 'Conv2DBackpropInput', backendName: 'wasm', kernelFunc: conv2DBackpropInput },
  { kernelName: 'MaxPoolGrad', backendName: 'wasm', kernelFunc: maxPoolGrad },
];

/**
 * wasm's Identity copies the tensor's bytes, and tfjs clones through it every tensor a kernel
 * saves for the backward pass: megabytes a training step. Its Cast copies them too when the type
 * does not change, which tfjs's gradients of Square and Relu ask for on every batch norm and
 * activation. These share the data and count the reference instead, as wasm's own Reshape does
 * and as the cpu backend's Identity does (no kernel writes into its inputs): the same values,
 * nothing copied; a training step of the recipe's net about 4 % faster. Strings and real casts
 * keep the original's path.
 */
function sharingWhenUnchanged(original: KernelConfig): KernelConfig {
  const kernelFunc: KernelFunc = (args) => {
    const x = args.inputs.x!;
    const to = (args.attrs as { dtype?: string } | undefined)?.dtype ?? x.dtype;
    if (x.dtype === 'string' || to !== x.dtype) return original.kernelFunc(args);
    (args.backend as unknown as { incRef(dataId: object): void }).incRef(x.dataId);
    return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
  };
  return { ...original, kernelFunc };
}

/** `t` with its last two axes swapped. */
function swapLast(t: tf.Tensor): tf.Tensor {
  const perm = [...t.shape.keys()];
  [perm[t.rank - 2], perm[t.rank - 1]] = [perm[t.rank - 1]!, perm[t.rank - 2]!];
  return tf.transpose(t, perm);
}

/**
 * tfjs's wasm `BatchMatMul` runs a slow scalar loop when an operand is transposed, which is what
 * the dense layers' gradients ask for (dW = xᵀ·dy, dx = dy·Wᵀ): 16 ms for the embedding's weight
 * gradient in a training step of 32, against 1 ms when the operand is transposed first. This
 * wrapper transposes first and hands XNNPACK's plain product the result. Same maths; the order
 * of the sums may differ, so weights trained with and without it may differ in the last bits
 * (on the embedding's shape they came out the same). The original kernel's setup is kept, since
 * the backend runs it at start.
 */
function transposedFirst(original: KernelConfig): KernelConfig {
  const plain = original.kernelFunc;
  const kernelFunc: KernelFunc = ({ inputs, backend, attrs }) => {
    const { transposeA, transposeB } = attrs as unknown as { transposeA: boolean; transposeB: boolean };
    if (!transposeA && !transposeB) return plain({ inputs, backend, attrs });
    const a = asTensor(inputs.a!, backend);
    const b = asTensor(inputs.b!, backend);
    const at = transposeA ? swapLast(a) : a;
    const bt = transposeB ? swapLast(b) : b;
    try {
      return plain({ inputs: { a: at, b: bt }, backend, attrs: { ...attrs, transposeA: false, transposeB: false } });
    } finally {
      if (at !== a) at.dispose();
      if (bt !== b) bt.dispose();
    }
  };
  return { ...original, kernelFunc };
}

let registered = false;

/** Registers the missing and replacement kernels on 'wasm' (once). Returns their names. */
export function registerWasmGradientKernels(): string[] {
  const names = [...[...WASM_GRADIENT_KERNELS, ...WASM_REPLACED_KERNELS].map((k) => k.kernelName), 'BatchMatMul', 'Identity', 'Cast'];
  if (registered) return names;
  for (const config of WASM_GRADIENT_KERNELS) {
    if (!tf.getKernel(config.kernelName, 'wasm')) tf.registerKernel(config);
  }
  for (const config of WASM_REPLACED_KERNELS) {
    if (tf.getKernel(config.kernelName, 'wasm')) tf.unregisterKernel(config.kernelName, 'wasm');
    tf.registerKernel(config);
  }
  const matMul = tf.getKernel('BatchMatMul', 'wasm');
  if (matMul) {
    tf.unregisterKernel('BatchMatMul', 'wasm');
    tf.registerKernel(transposedFirst(matMul));
  }
  for (const name of ['Identity', 'Cast']) {
    const copying = tf.getKernel(name, 'wasm');
    if (!copying) continue;
    tf.unregisterKernel(name, 'wasm');
    tf.registerKernel(sharingWhenUnchanged(copying));
  }
  registered = true;
  return names;
}
