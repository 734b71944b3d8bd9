/**
 * A frame read against the empty tray is also read with the tray modelled (only where the empty
 * tray saw something), and the surer reading kept (`ReadOptions.modelledToo`, `trayReadingScore`).
 * Two of eval:dice's rendered trays: one under a broad light, whose soft shadows join dice into
 * clumps against the empty tray; one on a table whose dice the modelled tray hardly sees. (A
 * printed cloth, whose blots the modelled tray takes for dice: tests/vision/cli-dice.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DICE_SET_IDS } from '../../shared/dice.js';
import { createRng } from '../../shared/rng.js';
import { EVAL_CASES, matchDice } from '../../vision/locate/evaluate.js';
import { learnEmptyTray } from '../../vision/empty-tray.js';
import { loadDiceReader, trayReadingScore, type ClewDiceReader } from '../../vision/reader.js';
import { iou } from '../../vision/stream.js';
import { renderScene } from '../../vision/synth/scene.js';
import type { Box, DieReading } from '../../vision/types.js';

let reader: ClewDiceReader;
beforeAll(async () => {
  reader = await loadDiceReader({});
}, 120_000);
afterAll(() => reader?.dispose());

/** eval:dice's tray `key` (8 d6, 40–90 px, difficulty 0.4), with the same tray rendered empty. */
function tray(key: string, broad: boolean, overhead: boolean) {
  const scene = renderScene(createRng(key), {
    dice: 8, sets: ['d6'], difficulty: 0.4, dieSize: [40, 90], empty: true,
    knobs: { ...(overhead ? { maxOblique: 0 } : { maxOblique: 45, roll: 10 }), ...(broad ? { broadLight: 1, tables: ['wood', 'felt', 'card', 'tray', 'dark'] as const } : {}) },
  });
  const truths = scene.dice.map((d) => ({ face: d.face, box: d.box as Box }));
  const right = (read: DieReading[]) => truths.filter((d) => read.find((r) => iou(r.box, d.box) > 0.5)?.face === d.face).length;
  return { image: scene.image, empty: learnEmptyTray(scene.empty!), right };
}

describe('trayReadingScore', () => {
  it('counts each die by its confidence over ½, a die marked "check" 0.3 less', () => {
    expect(trayReadingScore([])).toBe(0);
    expect(trayReadingScore([{ confidence: 0.9 }, { confidence: 0.95 }])).toBeCloseTo(0.85);
    expect(trayReadingScore([{ confidence: 0.6, uncertain: true }])).toBeCloseTo(-0.2);
    // Two sure dice beat the same two with a doubtful box beside them, and one clump read unsurely.
    const two = [{ confidence: 0.97 }, { confidence: 0.93 }];
    expect(trayReadingScore(two)).toBeGreaterThan(trayReadingScore([...two, { confidence: 0.55, uncertain: true }]));
    expect(trayReadingScore(two)).toBeGreaterThan(trayReadingScore([{ confidence: 0.7, uncertain: true }]));
  });
});

describe('a frame read against the empty tray and with the tray modelled', () => {
  it('under a broad light, the modelled reading is kept where the empty tray clumps the dice', async () => {
    const t = tray('view-broad-76', true, false);
    const sets = ['d6' as const];
    const alone = t.right(await reader.read(t.image, { sets, view: 'any', tray: t.empty, modelledToo: false }));
    const modelled = t.right(await reader.read(t.image, { sets, view: 'any' }));
    const both = t.right(await reader.read(t.image, { sets, view: 'any', tray: t.empty }));
    expect(alone).toBeLessThanOrEqual(3);
    expect(modelled).toBeGreaterThanOrEqual(6);
    // The modelled reading, less its dice where the empty tray saw nothing (one here).
    expect(both).toBeGreaterThanOrEqual(6);
  }, 60_000);

  it('where the modelled tray hardly sees the dice, the reading against the empty tray is kept', async () => {
    const t = tray('view-overhead-75', false, true);
    const sets = ['d6' as const];
    const modelled = t.right(await reader.read(t.image, { sets, view: 'overhead' }));
    const alone = t.right(await reader.read(t.image, { sets, view: 'overhead', tray: t.empty, modelledToo: false }));
    const both = t.right(await reader.read(t.image, { sets, view: 'overhead', tray: t.empty }));
    expect(modelled).toBeLessThanOrEqual(1);
    expect(alone).toBeGreaterThanOrEqual(7);
    expect(both).toBe(alone);
  }, 60_000);

  it("on a printed cloth, the modelled tray's blots read as dice are not taken: a die must differ from the empty tray", async () => {
    // The development scene "pattern" 6 (seven dice), every dice set in play: read with the tray
    // modelled, the cloth's blots read as dice at 0.9 outscore the seven dice.
    const pattern = EVAL_CASES.find((c) => c.name === 'pattern')!;
    const scene = renderScene(createRng('locate-eval:dev:pattern:6'), { width: 640, height: 640, ...pattern.options, empty: true });
    const truths = scene.dice.map((d) => d.box as Box);
    const read = await reader.read(scene.image, { sets: [...DICE_SET_IDS], view: 'any', tray: learnEmptyTray(scene.empty!) });
    const m = matchDice(truths, read.map((r) => r.box));
    expect(m.hit.filter(Boolean).length).toBeGreaterThanOrEqual(6);
    expect(m.spurious).toEqual([]);
  }, 60_000);

  it('on a printed cloth the modelled tray sees dice in even when empty, the reading against the empty tray is kept', async () => {
    // A development tray (5 d6 from one side on a printed cloth): the modelled locator finds dice
    // in its empty tray, and read modelled it misses two of the five.
    const scene = renderScene(createRng('dev-cloth-38'), {
      dice: 5, sets: ['d6'], difficulty: 0.4, dieSize: [40, 90], empty: true, knobs: { maxOblique: 45, roll: 10, tables: ['pattern'] },
    });
    const empty = learnEmptyTray(scene.empty!);
    expect(empty.modelledSees).toBeGreaterThan(0);
    const right = (read: DieReading[]) => scene.dice.filter((d) => read.find((r) => iou(r.box, d.box) > 0.5)?.face === d.face).length;
    const sets = ['d6' as const];
    const modelled = await reader.read(scene.image, { sets, view: 'any' });
    const alone = await reader.read(scene.image, { sets, view: 'any', tray: empty, modelledToo: false });
    const both = await reader.read(scene.image, { sets, view: 'any', tray: empty });
    expect(right(modelled)).toBeLessThanOrEqual(3);
    expect(right(alone)).toBe(5);
    expect(both).toEqual(alone);
    // A plain table's empty tray shows the modelled locator no dice.
    expect(tray('view-overhead-75', false, true).empty.modelledSees).toBe(0);
  }, 60_000);

  it('tells whether the frame fitted the empty tray once, and reads a frame of another size modelled', async () => {
    const t = tray('view-overhead-75', false, true);
    const fits: boolean[] = [];
    await reader.read(t.image, { sets: ['d6'], view: 'overhead', tray: t.empty, onTray: (fit) => fits.push(fit.used) });
    expect(fits).toEqual([true]);
    const small = tray('view-overhead-75', false, true);
    const other = learnEmptyTray({ width: 320, height: 320, data: new Uint8Array(320 * 320 * 3).fill(128) });
    const reasons: (string | undefined)[] = [];
    const read = await reader.read(small.image, { sets: ['d6'], view: 'overhead', tray: other, onTray: (fit) => reasons.push(fit.reason) });
    expect(reasons).toEqual(['size']);
    expect(small.right(read)).toBeLessThanOrEqual(1);
  }, 60_000);
});
