/**
 * vision/synth: how fast the renderer makes training data and test scenes. Training wants
 * 50k–200k crops on this machine's 2 cores, so the crop figure is the one that matters (target
 * well under 5 ms). Reported as wall-clock and as CPU time of this process, since the machine is
 * shared and wall time swings with other load. Face art is rasterised once before timing (the
 * warm-up figure says what that costs).
 */
import { createRng } from '../../shared/rng.js';
import { FACE_CLASSES } from '../../vision/faces/classes.js';
import { warmArtCache } from '../../vision/synth/artCache.js';
import { renderCrop } from '../../vision/synth/crop.js';
import { renderScene } from '../../vision/synth/scene.js';
import type { BenchModule, Figure } from './types.js';
import { cpuMs } from './cpu-time.js';


function measure(run: (i: number) => void, minMs: number, minRuns: number): { wall: number; cpu: number; runs: number } {
  run(0); // warm up the JIT
  let runs = 0;
  const c0 = cpuMs();
  const t0 = performance.now();
  while (runs < minRuns || performance.now() - t0 < minMs) run(++runs);
  return { wall: (performance.now() - t0) / runs, cpu: (cpuMs() - c0) / runs, runs };
}

const bench: BenchModule = {
  title: 'vision render',
  async figures({ quick }) {
    const t0 = performance.now();
    warmArtCache();
    const warm = performance.now() - t0;
    const rng = createRng('bench-render');
    const crops = measure((i) => renderCrop(rng, FACE_CLASSES[i % FACE_CLASSES.length]!), quick ? 300 : 4000, quick ? 20 : 300);
    const scenes = measure(() => renderScene(rng, { dice: 25 }), quick ? 300 : 4000, quick ? 1 : 5);
    const figures: Figure[] = [
      { id: 'render.crop.ms', label: 'rendered 64×64 training crop (wall)', value: crops.wall, unit: 'ms', target: { op: '<=', value: 5 }, note: `${crops.runs} crops, difficulty 0.7` },
      { id: 'render.crop.cpu.ms', label: 'rendered training crop (CPU time)', value: crops.cpu, unit: 'ms' },
      { id: 'render.scene25.ms', label: '640×640 scene with 25 dice (wall)', value: scenes.wall, unit: 'ms', note: `${scenes.runs} scenes` },
      { id: 'render.scene25.cpu.ms', label: '640×640 scene with 25 dice (CPU time)', value: scenes.cpu, unit: 'ms' },
      { id: 'render.artcache.ms', label: 'rasterise all face art (once per process)', value: warm, unit: 'ms', note: '28 classes × 40 styles' },
    ];
    return figures;
  },
};

export default bench;
