/**
 * A frame's dice colours are measured once a die (vision/reader.ts `FrameColours`): on one thread
 * only for the dice named, after the reading, so a frame read against the empty tray and as the
 * modelled tray measures no colours for the reading it drops.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const measured = { boxes: 0 };
vi.mock('../../vision/locate/index.js', async (original) => {
  const m = await original<typeof import('../../vision/locate/index.js')>();
  return { ...m, bodyColour: (...a: Parameters<typeof m.bodyColour>) => (measured.boxes++, m.bodyColour(...a)) };
});

import { createRng } from '../../shared/rng.js';
import { learnEmptyTray } from '../../vision/empty-tray.js';
import { loadDiceReader, type ClewDiceReader } from '../../vision/reader.js';
import { renderScene } from '../../vision/synth/scene.js';

let reader: ClewDiceReader;
beforeAll(async () => {
  reader = await loadDiceReader({ threads: 1 });
});
afterAll(() => reader?.dispose());

const palette = ['white', 'red', 'blue', 'green', 'yellow', 'black'];

describe('the colours of a frame read on one thread', () => {
  for (const key of ['view-broad-76', 'review-tray-1', 'review-tray-2']) {
    it(`are measured for the dice named only, against the empty tray and modelled too (${key})`, async () => {
      const scene = renderScene(createRng(key), { dice: 8, sets: ['d6'], difficulty: 0.4, dieSize: [40, 90], empty: true, knobs: { maxOblique: 45, roll: 10 } });
      const tray = learnEmptyTray(scene.empty!);
      for (const opts of [{}, { tray }]) {
        measured.boxes = 0;
        const dice = await reader.readDetailed(scene.image, { sets: ['d6'], view: 'any', palette, ...opts });
        expect(dice.length).toBeGreaterThan(0);
        expect(dice.every((d) => d.color)).toBe(true);
        expect(measured.boxes).toBeLessThanOrEqual(dice.length);
      }
    });
  }
});
