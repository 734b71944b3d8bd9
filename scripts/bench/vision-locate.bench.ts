/**
 * vision/locate: how long finding the dice of one 640×640 frame with 25 dice takes, out of the
 * 60 ms the whole read (locate + classify) may take: the classical segmentation (the default),
 * the same with the learned detector's rescue, and the detector alone; and naming the colours of
 * the dice found (as the reader does when a palette is given); and the classical segmentation of
 * the same frames with colour noise, whose chroma is smoothed first (chroma-noise.ts); and the same
 * frames compared with their empty tray (tray-reference.ts), and learning that. Median wall-clock time over the
 * runs and CPU time of this process (the machine is shared; wall time swings with load).
 */
import { createRng } from '../../shared/rng.js';
import { loadDieDetector } from '../../vision/locate/detector/index.js';
import { dieColor, learnTray, locateDice } from '../../vision/locate/index.js';
import { chromaNoiseLevel, COLOUR_NOISE_LEVEL } from '../../vision/locate/chroma-noise.js';
import { toLabPlanes } from '../../vision/locate/lab.js';
import { buildPyramid } from '../../vision/locate/pyramid.js';
import { renderScene } from '../../vision/synth/index.js';
import type { RgbImage } from '../../vision/types.js';
import { withColourNoise } from './colour-noise.js';
import type { BenchModule, Figure } from './types.js';
import { cpuMs } from './cpu-time.js';


function measure(frames: RgbImage[], run: (f: RgbImage) => unknown, runs: number): { median: number; cpu: number } {
  for (const f of frames) run(f); // warm up the JIT and the backend
  const times: number[] = [];
  const c0 = cpuMs();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run(frames[i % frames.length]!);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1]!, cpu: (cpuMs() - c0) / runs };
}

const bench: BenchModule = {
  title: 'vision locate',
  async figures({ quick }) {
    const rng = createRng('bench-locate');
    // `empty` renders each tray once more without its dice; the frames themselves are the same.
    const scenes = Array.from({ length: quick ? 1 : 3 }, () => renderScene(rng.fork(), { dice: 25, dieSize: [24, 90], empty: true }));
    const frames = scenes.map((s) => s.image);
    const runs = quick ? 3 : 30;
    const detector = await loadDieDetector();
    try {
      const classical = measure(frames, (f) => locateDice(f), runs);
      const noisyFrames = frames.map((f, i) => withColourNoise(f, `bench-locate-noise:${i}`));
      const smoothed = noisyFrames.filter((f) => chromaNoiseLevel(toLabPlanes(buildPyramid(f, 640).coarse)) > COLOUR_NOISE_LEVEL).length;
      const noisy = measure(noisyFrames, (f) => locateDice(f), runs);
      const trays = new Map(scenes.map((s) => [s.image, learnTray(s.empty!)]));
      const learning = measure(scenes.map((s) => s.empty!), (f) => learnTray(f), runs);
      const againstTray = measure(frames, (f) => locateDice(f, { tray: trays.get(f)! }), runs);
      const rescued = measure(frames, (f) => locateDice(f, { detector }), runs);
      const learned = measure(frames, (f) => locateDice(f, { detector, detectorOnly: true }), runs);
      // Colours of the dice found, each run on a new frame object: the white balance is worked out
      // once per frame (and cached per frame object), as it is for a live camera's frames.
      const found = new Map(frames.map((f) => [f, locateDice(f).map((d) => d.box)]));
      const palette = ['white', 'red', 'blue', 'green', 'yellow', 'black'];
      const colours = measure(frames, (f) => {
        const fresh = { ...f };
        for (const box of found.get(f)!) dieColor(fresh, box, palette);
      }, runs);
      const perFrame = [...found.values()].reduce((s, b) => s + b.length, 0) / frames.length;
      const note = `640×640, 25 dice, ${runs} runs`;
      const figures: Figure[] = [
        { id: 'locate.classical.ms', label: 'locate 25 dice, classical (wall, median)', value: classical.median, unit: 'ms', note },
        { id: 'locate.classical.cpu.ms', label: 'locate 25 dice, classical (CPU time)', value: classical.cpu, unit: 'ms' },
        { id: 'locate.noisy.ms', label: 'locate 25 dice, colour noise σ 6 (wall, median)', value: noisy.median, unit: 'ms', note: `the same frames, each channel its own noise: ${smoothed} of ${frames.length} over the colour-noise level, so their chroma is smoothed first` },
        { id: 'locate.noisy.cpu.ms', label: 'locate 25 dice, colour noise σ 6 (CPU time)', value: noisy.cpu, unit: 'ms' },
        { id: 'locate.tray.ms', label: 'locate 25 dice against the empty tray (wall, median)', value: againstTray.median, unit: 'ms', note: 'the same frames, each compared with its tray rendered without dice (other noise, exposure, camera nudged)' },
        { id: 'locate.tray.cpu.ms', label: 'locate 25 dice against the empty tray (CPU time)', value: againstTray.cpu, unit: 'ms' },
        { id: 'locate.tray.learn.ms', label: 'learn the empty tray from one frame (wall, median)', value: learning.median, unit: 'ms', note: 'once, when the referee shows clew the tray empty' },
        { id: 'locate.rescued.ms', label: 'locate 25 dice, classical + detector rescue (wall, median)', value: rescued.median, unit: 'ms', note: `${note}, ${detector.backend}` },
        { id: 'locate.rescued.cpu.ms', label: 'locate 25 dice, classical + detector rescue (CPU time)', value: rescued.cpu, unit: 'ms' },
        { id: 'locate.detector.ms', label: 'locate 25 dice, detector alone (wall, median)', value: learned.median, unit: 'ms', note: detector.backend },
        { id: 'locate.detector.cpu.ms', label: 'locate 25 dice, detector alone (CPU time)', value: learned.cpu, unit: 'ms' },
        { id: 'locate.color.ms', label: 'name the colours of the dice found, new frame (wall, median)', value: colours.median, unit: 'ms', note: `${perFrame.toFixed(0)} dice a frame, white balance included` },
        { id: 'locate.color.cpu.ms', label: 'name the colours of the dice found, new frame (CPU time)', value: colours.cpu, unit: 'ms' },
      ];
      return figures;
    } finally {
      detector.dispose();
    }
  },
};

export default bench;
