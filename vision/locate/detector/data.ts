/**
 * Training scenes for the die detector, rendered by the synthetic renderer and cached on disk.
 *
 * A scene is rendered at 320×320 with dice 10–150 px across and halved, which is exactly what the
 * detector sees of a 640×640 frame with dice 20–300 px across (the locator quarters frames before
 * the detector runs). Scene i of a seed is always the same scene, so the cache can be deleted and
 * rebuilt, and a run can be resumed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRng } from '../../../shared/rng.js';
import { renderScene } from '../../synth/index.js';
import type { Box, RgbImage } from '../../types.js';
import { halve } from '../pyramid.js';

export interface DetectorSample {
  image: RgbImage;
  /** Die boxes in the sample's pixels. */
  boxes: Box[];
}

export const RENDER_SIZE = 320;
export const SAMPLE_SIZE = RENDER_SIZE / 2;

export function renderSample(seed: string, index: number): DetectorSample {
  const rng = createRng(`locator:${seed}:${index}`);
  const dice = rng.next() < 0.5 ? rng.int(1, 8) : rng.int(8, 25);
  const scene = renderScene(rng.fork(), {
    width: RENDER_SIZE,
    height: RENDER_SIZE,
    dice,
    dieSize: [10, 150],
    difficulty: rng.range(0.15, 1),
    // The lens the committed detector was trained with (renderScene's distance alone).
    maxHalfView: 90,
  });
  return {
    image: halve(scene.image),
    boxes: scene.dice.map((d) => d.box.map((v) => v / 2) as Box),
  };
}

/** Scene `index` from the cache folder, rendering (and caching) it when missing. */
export function loadOrRenderSample(cacheDir: string, seed: string, index: number): DetectorSample {
  const base = path.join(cacheDir, `${seed}-${index}`);
  if (existsSync(base + '.json') && existsSync(base + '.rgb')) {
    const meta = JSON.parse(readFileSync(base + '.json', 'utf8')) as { width: number; height: number; boxes: Box[] };
    const data = new Uint8Array(readFileSync(base + '.rgb'));
    if (data.length === meta.width * meta.height * 3) return { image: { width: meta.width, height: meta.height, data }, boxes: meta.boxes };
  }
  const sample = renderSample(seed, index);
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(base + '.rgb', sample.image.data);
  writeFileSync(base + '.json', JSON.stringify({ width: sample.image.width, height: sample.image.height, boxes: sample.boxes }));
  return sample;
}
