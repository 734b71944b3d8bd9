/**
 * The eight real Catan frames committed as fixtures (tests/fixtures/frames, MIT, see PROVENANCE.md
 * there) and their labelled dice, for the tests that locate or read them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Box } from '../../vision/types.js';

export const FRAMES_DIR = path.resolve(import.meta.dirname, '../fixtures/frames');

/** One labelled die: its frame's file name, its box and its colour's name. */
export const FRAME_DICE: readonly { file: string; box: Box; color: string }[] = readFileSync(path.join(FRAMES_DIR, 'frames.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [file, , x0, y0, x1, y1, color] = line.split(',');
    return { file: file!, box: [x0, y0, x1, y1].map(Number) as Box, color: color! };
  });

/** The frames' file names, each once. */
export const FRAME_FILES: readonly string[] = [...new Set(FRAME_DICE.map((d) => d.file))];
