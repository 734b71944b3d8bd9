/**
 * Training the die detector (CenterNet-style targets, see targets.ts) on rendered scenes, with
 * the tfjs backend already started by the caller. Seeded: the same samples, options and seed give
 * the same weights on the same backend. `scripts/train-locator.ts` is the command line around it.
 */
import * as tf from '@tensorflow/tfjs';
import { createRng, type Rng } from '../../../shared/rng.js';
import type { Box } from '../../types.js';
import type { DetectorSample } from './data.js';
import { buildDetector } from './model.js';
import { decodeOutput, makeTargets, OUTPUT_CHANNELS } from './targets.js';

export interface TrainOptions {
  steps: number;
  batch: number;
  /** Side of the random square crops trained on (a multiple of 16). */
  crop: number;
  /** Peak learning rate (Adam; 100 warm-up steps, cosine decay to 5 %). */
  lr: number;
  seed: string;
  log?: (message: string) => void;
}

export interface TrainResult {
  model: tf.LayersModel;
  /** The held-out threshold with the best F1, and its recall and precision (IoU ≥ 0.5). */
  threshold: number;
  recall: number;
  precision: number;
}

/** The initial-weights seed a training seed maps to (so a test can rebuild the starting network). */
export function detectorSeedNumber(seed: string): number {
  return [...seed].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % 100000;
}

export function trainDetector(train: DetectorSample[], valid: DetectorSample[], options: TrainOptions): TrainResult {
  const { steps, batch, crop, seed } = options;
  const peakLr = options.lr;
  const log = options.log ?? (() => {});
  if (crop % 16 !== 0) throw new Error(`trainDetector: crop must be a multiple of 16, got ${crop}`);
  if (train.length === 0 || valid.length === 0) throw new Error('trainDetector: need training and held-out scenes');
  // Augmentation: a random square crop, the 8 flips/rotations of the square, a colour cast and an
  // exposure change. A die keeps its (clipped) box when at least 60 % of it is inside the crop.
  function augment(rng: Rng, s: DetectorSample): { pixels: Float32Array; boxes: Box[]; size: number } {
    const n = Math.min(crop, s.image.width, s.image.height);
    const ox = rng.int(0, s.image.width - n), oy = rng.int(0, s.image.height - n);
    const flipX = rng.next() < 0.5, flipY = rng.next() < 0.5, swap = rng.next() < 0.5;
    const exposure = rng.range(0.75, 1.25);
    const gain = [0, 1, 2].map(() => rng.range(0.85, 1.15) * exposure);
    const pixels = new Float32Array(n * n * 3);
    const src = s.image.data, W = s.image.width;
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        let sx = flipX ? n - 1 - x : x, sy = flipY ? n - 1 - y : y;
        if (swap) [sx, sy] = [sy, sx];
        const p = ((sy + oy) * W + sx + ox) * 3, d = (y * n + x) * 3;
        for (let c = 0; c < 3; c++) pixels[d + c] = Math.min(255, src[p + c]! * gain[c]!) / 127.5 - 1;
      }
    }
    const boxes: Box[] = [];
    for (const [bx0, by0, bx1, by1] of s.boxes) {
      const x0 = Math.max(bx0 - ox, 0), y0 = Math.max(by0 - oy, 0), x1 = Math.min(bx1 - ox, n), y1 = Math.min(by1 - oy, n);
      if (x1 <= x0 || y1 <= y0 || (x1 - x0) * (y1 - y0) < 0.6 * (bx1 - bx0) * (by1 - by0)) continue;
      // Forward map of the pixel mapping above: swap first, then flips.
      let [a0, b0, a1, b1] = swap ? [y0, x0, y1, x1] : [x0, y0, x1, y1];
      if (flipX) [a0, a1] = [n - a1, n - a0];
      if (flipY) [b0, b1] = [n - b1, n - b0];
      boxes.push([a0, b0, a1, b1]);
    }
    return { pixels, boxes, size: n };
  }

  function makeBatch(rng: Rng, items: DetectorSample[]) {
    const views = items.map((s) => augment(rng, s));
    const n = views[0]!.size;
    const x = new Float32Array(items.length * n * n * 3);
    const targets = views.map((v) => makeTargets(v.boxes, n, n));
    const { gw, gh } = targets[0]!;
    const heat = new Float32Array(items.length * gw * gh);
    const regress = new Float32Array(items.length * gw * gh * 4);
    const centres = new Float32Array(items.length * gw * gh);
    views.forEach((v, i) => {
      x.set(v.pixels, i * n * n * 3);
      heat.set(targets[i]!.heat, i * gw * gh);
      regress.set(targets[i]!.regress, i * gw * gh * 4);
      centres.set(targets[i]!.centres, i * gw * gh);
    });
    const B = items.length;
    return {
      x: tf.tensor4d(x, [B, n, n, 3]),
      heat: tf.tensor4d(heat, [B, gh, gw, 1]),
      regress: tf.tensor4d(regress, [B, gh, gw, 4]),
      centres: tf.tensor4d(centres, [B, gh, gw, 1]),
    };
  }

  /** CenterNet's penalty-reduced focal loss on the heat, plus L1 on offset and log size at centres. */
  function loss(out: tf.Tensor4D, heat: tf.Tensor4D, regress: tf.Tensor4D, centres: tf.Tensor4D): tf.Scalar {
    return tf.tidy(() => {
      const [logit, reg] = tf.split(out, [1, OUTPUT_CHANNELS - 1], 3) as [tf.Tensor4D, tf.Tensor4D];
      const p = tf.sigmoid(logit).clipByValue(1e-4, 1 - 1e-4);
      const one = tf.scalar(1);
      const pos = tf.mul(tf.mul(tf.neg(tf.log(p)), tf.square(tf.sub(one, p))), centres);
      const negWeight = tf.mul(tf.pow(tf.sub(one, heat), 4), tf.sub(one, centres));
      const neg = tf.mul(tf.mul(tf.neg(tf.log(tf.sub(one, p))), tf.square(p)), negWeight);
      const count = tf.maximum(tf.sum(centres), one);
      const focal = tf.div(tf.add(tf.sum(pos), tf.sum(neg)), count);
      const l1 = tf.div(tf.sum(tf.mul(tf.abs(tf.sub(reg, regress)), centres)), count);
      return tf.add(focal, l1) as tf.Scalar;
    });
  }

  // Training.
  const seedNumber = detectorSeedNumber(seed);
  const model = buildDetector(seedNumber);
  log(`detector: ${model.countParams()} weights`);
  const rng = createRng(`train-locator:${seed}`);
  const optimizer = tf.train.adam(peakLr);
  let running = 0;
  const t0 = performance.now();
  for (let step = 1; step <= steps; step++) {
    // Warm up for 100 steps, then cosine decay to 5 % of the peak.
    const warm = Math.min(1, step / 100);
    const cosine = 0.05 + 0.95 * 0.5 * (1 + Math.cos((Math.PI * step) / steps));
    (optimizer as unknown as { learningRate: number }).learningRate = peakLr * warm * cosine;
    const items = Array.from({ length: batch }, () => rng.pick(train));
    const b = makeBatch(rng, items);
    const value = optimizer.minimize(() => loss(model.apply(b.x) as tf.Tensor4D, b.heat, b.regress, b.centres), true)!;
    const v = value.dataSync()[0]!;
    value.dispose();
    Object.values(b).forEach((t) => t.dispose());
    running = step === 1 ? v : 0.98 * running + 0.02 * v;
    if (step % 50 === 0 || step === steps) {
      const cpu = process.cpuUsage();
      log(`step ${step}/${steps} loss ${running.toFixed(3)} (${((performance.now() - t0) / 1000 / step).toFixed(2)} s/step wall, ${((cpu.user + cpu.system) / 1e6 / (performance.now() / 1000)).toFixed(2)} cores busy, tensors ${tf.memory().numTensors})`);
    }
  }

  // Held-out scenes: recall and precision at a few thresholds; keep the best F1's threshold.
  function iou(a: Box, b: Box): number {
    const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
    const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
    const inter = ix * iy;
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter);
  }
  const outputs = valid.map((s) => {
    const y = tf.tidy(() => {
      const x = tf.tensor4d(Float32Array.from(s.image.data, (v) => v / 127.5 - 1), [1, s.image.height, s.image.width, 3]);
      return model.predict(x) as tf.Tensor4D;
    });
    const out = { out: y.dataSync() as Float32Array, gw: y.shape[2], gh: y.shape[1] };
    y.dispose();
    return out;
  });
  let best = { threshold: 0.3, f1: -1, recall: 0, precision: 0 };
  for (const threshold of [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5]) {
    let hits = 0, truth = 0, found = 0;
    valid.forEach((s, i) => {
      const o = outputs[i]!;
      const dets = decodeOutput(o.out, o.gw, o.gh, threshold);
      truth += s.boxes.length;
      found += dets.length;
      const used = new Set<number>();
      for (const t of s.boxes) {
        const k = dets.findIndex((d, j) => !used.has(j) && iou(d.box, t) >= 0.5);
        if (k >= 0) (used.add(k), hits++);
      }
    });
    const recall = hits / truth, precision = found ? hits / found : 1;
    const f1 = (2 * recall * precision) / Math.max(1e-9, recall + precision);
    log(`held out, threshold ${threshold}: recall ${recall.toFixed(3)} precision ${precision.toFixed(3)}`);
    if (f1 > best.f1) best = { threshold, f1, recall, precision };
  }
  return { model, threshold: best.threshold, recall: best.recall, precision: best.precision };
}
