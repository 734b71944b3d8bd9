/**
 * device/: how much headroom the pure byte and button logic leaves on a Pi. Measured on the
 * shipped replay frames (640x480 JPEG) cut into 4 KiB pipe-sized chunks, as rpicam-vid's stdout
 * arrives. For scale: rpicam-vid at 1280x960, 10 fps, quality 85 writes about 1–2 MB/s.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { initialButtonState, stepButton, type ButtonInput } from '../../device/buttons/button-logic.js';
import { MjpegSplitter } from '../../device/camera/mjpeg-splitter.js';
import { DEFAULT_REPLAY_FOLDER } from '../../device/config.js';
import { feedLines, initialLineState } from '../../device/serial/line-parser.js';
import type { BenchModule, Figure } from './types.js';

function timeIt(run: () => void, minMs: number): { ms: number; runs: number } {
  run(); // warm up
  let runs = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    run();
    runs++;
    elapsed = performance.now() - t0;
  }
  return { ms: elapsed / runs, runs };
}

const bench: BenchModule = {
  title: 'device',
  async figures({ quick }) {
    const minMs = quick ? 100 : 1000;
    const names = (await readdir(DEFAULT_REPLAY_FOLDER)).filter((n) => n.endsWith('.jpg')).sort();
    const frames = await Promise.all(names.map((n) => readFile(path.join(DEFAULT_REPLAY_FOLDER, n))));
    const stream = Buffer.concat(Array.from({ length: 10 }, () => frames).flat());
    const frameCount = frames.length * 10;
    const chunks: Buffer[] = [];
    for (let at = 0; at < stream.length; at += 4096) chunks.push(stream.subarray(at, at + 4096));

    let got = 0;
    const split = timeIt(() => {
      const splitter = new MjpegSplitter();
      got = 0;
      for (const chunk of chunks) got += splitter.push(chunk).length;
    }, minMs);
    if (got !== frameCount) throw new Error(`splitter found ${got} frames, expected ${frameCount}`);

    const session = Buffer.from('PRESS NEXT\r\nRELEASE NEXT\r\nHELLO clew-box 1.0\r\nnoise line here\r\n'.repeat(250));
    const lineChunks: Buffer[] = [];
    for (let at = 0; at < session.length; at += 64) lineChunks.push(session.subarray(at, at + 64));
    const parse = timeIt(() => {
      let state = initialLineState();
      for (const chunk of lineChunks) state = feedLines(state, chunk).state;
    }, minMs);

    const inputs: ButtonInput[] = [];
    for (let i = 0; i < 1000; i++) inputs.push({ kind: 'edge', at: i * 50, pressed: i % 2 === 0 }, { kind: 'tick', at: i * 50 + 30 });
    const steps = timeIt(() => {
      let state = initialButtonState(false, 0);
      for (const input of inputs) state = stepButton(state, input, { debounceMs: 30, holdMs: 800 }).state;
    }, minMs);

    const figures: Figure[] = [
      { id: 'device.mjpeg.mbPerS', label: 'MJPEG splitter throughput (4 KiB chunks)', value: stream.length / 1e6 / (split.ms / 1000), unit: 'MB/s' },
      { id: 'device.mjpeg.usPerFrame', label: 'MJPEG splitter per 640x480 frame', value: (split.ms * 1000) / frameCount, unit: 'µs' },
      { id: 'device.serial.linesPerS', label: 'serial line parser', value: 1000 / (parse.ms / 1000), unit: 'lines/s' },
      { id: 'device.buttons.stepsPerS', label: 'button logic steps', value: inputs.length / (steps.ms / 1000), unit: 'steps/s' },
    ];
    return figures;
  },
};

export default bench;
