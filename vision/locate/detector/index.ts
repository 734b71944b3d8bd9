/**
 * The learned die detector at run time: `loadDieDetector()` once (async: starts the tfjs backend
 * and reads the committed weights), then `detect(frame)` synchronously per frame.
 */
import { initBackend, type BackendName } from '../../model/backend.js';
import type { Box, RgbImage } from '../../types.js';
import { halve } from '../pyramid.js';
import { runDetector } from './model.js';
import { decodeOutput, type Detection } from './targets.js';
import { DEFAULT_WEIGHTS_DIR, loadDetectorWeights, type DetectorManifest } from './weights.js';

export interface DieDetector {
  /** Dice in a working-size frame (≤ 640 px), boxes in that frame's pixels. */
  detect(frame: RgbImage, threshold?: number): Detection[];
  readonly manifest: DetectorManifest;
  readonly backend: string;
  dispose(): void;
}

export interface LoadDetectorOptions {
  weightsDir?: string;
  /** tfjs backend to start when none is running yet (default: the usual order, wasm in practice). */
  backend?: BackendName;
}

export async function loadDieDetector(options: LoadDetectorOptions = {}): Promise<DieDetector> {
  const info = await initBackend(options.backend);
  const { model, manifest } = loadDetectorWeights(options.weightsDir ?? DEFAULT_WEIGHTS_DIR);
  if (manifest.inputScale !== 0.25) throw new Error(`die detector: inputScale ${manifest.inputScale} is not supported (expected 0.25)`);
  let disposed = false;
  return {
    manifest,
    backend: info.name,
    detect(frame, threshold = manifest.threshold) {
      if (disposed) throw new Error('die detector: used after dispose()');
      if (frame.width < 8 || frame.height < 8) return [];
      const quarter = halve(halve(frame));
      const sx = frame.width / quarter.width, sy = frame.height / quarter.height;
      const { out, gw, gh } = runDetector(model, quarter);
      return decodeOutput(out, gw, gh, threshold)
        .map((d) => ({
          score: d.score,
          box: [
            Math.max(0, d.box[0] * sx),
            Math.max(0, d.box[1] * sy),
            Math.min(frame.width, d.box[2] * sx),
            Math.min(frame.height, d.box[3] * sy),
          ] as Box,
        }))
        .filter((d) => d.box[2] - d.box[0] >= 2 && d.box[3] - d.box[1] >= 2);
    },
    dispose() {
      if (!disposed) model.dispose();
      disposed = true;
    },
  };
}

