/**
 * The locator on real frames: eight webcam frames of two Catan dice on a wooden floor, with shoes,
 * a sock and a black box at the edges (tests/fixtures/frames, MIT, see PROVENANCE.md there).
 * Every die must be found (IoU ≥ 0.5 with the author's box) and nothing else; the colours named.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../vision/image/decode.js';
import { dieColor, locateDice } from '../../vision/locate/index.js';
import { iou } from '../../vision/locate/evaluate.js';
import type { Box } from '../../vision/types.js';
import { matchBoxes } from './locate-scenes.js';
import { FRAME_DICE, FRAME_FILES, FRAMES_DIR } from './real-frames.js';

const dir = FRAMES_DIR, rows = FRAME_DICE, files = FRAME_FILES;

describe('locateDice on real Catan frames', () => {
  it('has the eight frames and sixteen boxes', () => {
    expect(files).toHaveLength(8);
    expect(rows).toHaveLength(16);
  });

  it.each(files)('%s: both dice found, nothing else', async (file) => {
    const image = await decodeImage(readFileSync(path.join(dir, file)));
    const truth = rows.filter((r) => r.file === file).map((r) => r.box);
    const found = locateDice(image);
    const m = matchBoxes(truth, found.map((f) => f.box), 0.5);
    expect({ missed: m.missed, spurious: m.spurious }).toEqual({ missed: [], spurious: [] });
    for (const f of found) expect(f.score).toBeGreaterThan(0);
  });

  it('finds the same dice in the frames enlarged five times (4800 px wide, dice of 170–230 px), and nothing else', async () => {
    // The frames are worked at 640 px, so a big photo of the same table finds what the small one
    // does. (Enlarged ×1.5–3 instead, one "2" is lost: docs/notes/vision-locate.md, "Weaknesses".)
    for (const file of files) {
      const { width } = await sharp(path.join(dir, file)).metadata();
      const { data, info } = await sharp(path.join(dir, file)).resize({ width: 5 * width! }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const scale = info.width / width!;
      const truth = rows.filter((r) => r.file === file).map((r) => r.box.map((v) => v * scale) as Box);
      const found = locateDice({ width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) });
      const m = matchBoxes(truth, found.map((f) => f.box), 0.5);
      expect({ file, missed: m.missed, spurious: m.spurious }).toEqual({ file, missed: [], spurious: [] });
    }
  });

  it("fits the boxes to the dice, not to the lamp's soft shadow below them", async () => {
    // The shadow trim (shadow.ts): without it the boxes take in the shadow (mean IoU 0.83, the
    // worst 0.65); with it 0.89, the worst 0.76.
    const fit = async (shadowTrim: boolean) => {
      const ious: number[] = [];
      for (const file of files) {
        const image = await decodeImage(readFileSync(path.join(dir, file)));
        const found = locateDice(image, { shadowTrim }).map((f) => f.box);
        for (const r of rows.filter((row) => row.file === file)) ious.push(Math.max(...found.map((b) => iou(b, r.box))));
      }
      return { mean: ious.reduce((a, b) => a + b, 0) / ious.length, worst: Math.min(...ious) };
    };
    const trimmed = await fit(true), untrimmed = await fit(false);
    expect(untrimmed.mean).toBeLessThan(0.85);
    expect(trimmed.mean).toBeGreaterThan(0.87);
    expect(trimmed.worst).toBeGreaterThan(0.72);
  });

  it('names each die red or yellow', async () => {
    const named = [];
    for (const file of files) {
      const image = await decodeImage(readFileSync(path.join(dir, file)));
      for (const r of rows.filter((row) => row.file === file)) named.push(dieColor(image, r.box, ['red', 'yellow']));
    }
    expect(named).toEqual(files.flatMap((file) => rows.filter((r) => r.file === file).map((r) => r.color)));
  });
});
