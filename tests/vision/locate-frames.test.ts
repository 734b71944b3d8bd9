/**
 * The locator on real frames: eight webcam frames of two Catan dice on a wooden floor, with shoes,
 * a sock and a black box at the edges (tests/fixtures/frames, MIT, see PROVENANCE.md there).
 * Every die must be found (IoU ≥ 0.5 with the author's box) and nothing else; the colours named.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../vision/image/decode.js';
import { dieColor, locateDice } from '../../vision/locate/index.js';
import type { Box } from '../../vision/types.js';
import { matchBoxes } from './locate-scenes.js';

const dir = path.resolve(import.meta.dirname, '../fixtures/frames');
const rows = readFileSync(path.join(dir, 'frames.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [file, , x0, y0, x1, y1, color] = line.split(',');
    return { file: file!, box: [x0, y0, x1, y1].map(Number) as Box, color: color! };
  });
const files = [...new Set(rows.map((r) => r.file))];

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

  it('names each die red or yellow', async () => {
    const named = [];
    for (const file of files) {
      const image = await decodeImage(readFileSync(path.join(dir, file)));
      for (const r of rows.filter((row) => row.file === file)) named.push(dieColor(image, r.box, ['red', 'yellow']));
    }
    expect(named).toEqual(files.flatMap((file) => rows.filter((r) => r.file === file).map((r) => r.color)));
  });
});
