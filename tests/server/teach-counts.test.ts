/**
 * The Teach tab's counts: `fromPlay` says how many of a set's pending labels are dice checked in
 * play, so it never exceeds them, outlives an undo (the labels are still pending) and counts the
 * dice learnt while a commit fits (they stay pending). The server's calibration part with the
 * shipped model (the last-layer refit, about a second), fed used camera rolls of the real fixture
 * crops as a camera pipeline would give them.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingRoll } from '../../shared/protocol.js';
import { decodeImage } from '../../vision/image/decode.js';
import { DEFAULT_MODEL_DIR } from '../../vision/model/classifier.js';
import { loadDiceReader, type ClewDiceReader } from '../../vision/reader.js';
import type { RgbImage } from '../../vision/types.js';
import { TableCalibration } from '../../web/server/calibration.js';
import type { CameraPipeline } from '../../web/server/camera.js';
import { lazyReader } from '../../web/server/dice-reader.js';
import type { Logger } from '../../web/server/logger.js';
import type { TableEvent, TableState } from '../../web/server/table.js';
import { scratchDir } from '../support/scratch.js';

const HAS_MODEL = existsSync(path.join(DEFAULT_MODEL_DIR, 'meta.json'));
const fixture = path.resolve(import.meta.dirname, '../fixtures/dice-real/crops/WIN_20221210_14_48_22_Pro-die-0.jpg');
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
let image: RgbImage;
const readers: ClewDiceReader[] = [];

beforeAll(async () => {
  image = await decodeImage(readFileSync(fixture));
});
afterAll(() => {
  for (const r of readers) r.dispose();
});

/** The server's calibration part on a fresh data folder, and a referee using camera rolls whose dice a person corrected to `faces`. */
async function table(pendingPerFace?: number) {
  const dir = scratchDir('clew-teach-counts-');
  const reader = await loadDiceReader({ calibrationDir: dir, calibrate: 'head', ...(pendingPerFace ? { pendingPerFace } : {}) });
  readers.push(reader);
  const pipeline = { frameFor: () => ({ image, readings: [], at: 0 }), view: 'side' } as unknown as CameraPipeline;
  const calibration = new TableCalibration(dir, lazyReader(async () => reader, quiet), () => pipeline, quiet, () => {}, { learnFromChecks: true });
  await calibration.load();
  const box: [number, number, number, number] = [0, 0, image.width, image.height];
  const use = (faces: string[]) => {
    const roll = { source: 'camera', dice: faces.map((face) => ({ set: 'd6', face, box, corrected: true, readAs: face === '6' ? '5' : '6' })) } as unknown as PendingRoll;
    calibration.played({ type: 'confirm', by: { kind: 'referee' } } as unknown as TableEvent, { roll } as unknown as TableState, {} as TableState);
  };
  /** A used roll, made final (as the game moving on makes it). */
  const play = async (faces: string[]) => {
    use(faces);
    await calibration.close();
  };
  const d6 = () => {
    const s = calibration.status().find((x) => x.set === 'd6')!;
    return { pending: Object.values(s.samples).reduce((a, b) => a + b, 0), fromPlay: s.fromPlay ?? 0 };
  };
  const handle = (type: 'calibration/commit' | 'calibration/undo') => calibration.handle({ type, set: 'd6' } as Parameters<TableCalibration['handle']>[0], {} as TableState);
  return { calibration, use, play, d6, handle };
}

describe.skipIf(!HAS_MODEL)('the Teach tab counts the labels that came from play', () => {
  it('never more than are pending, when the oldest of a face give way', async () => {
    const t = await table(2);
    await t.play(['1', '1', '1', '1', '1']);
    expect(t.d6()).toEqual({ pending: 2, fromPlay: 2 });
  });

  it('after an undo the labels still pending still count; a commit counts from zero', async () => {
    const t = await table();
    await t.play(['1', '2', '3', '4', '5', '6']);
    expect(await t.handle('calibration/commit')).toMatchObject({ ok: true });
    expect(t.d6()).toEqual({ pending: 0, fromPlay: 0 });
    await t.play(['3']);
    expect(t.d6()).toEqual({ pending: 1, fromPlay: 1 });
    expect(await t.handle('calibration/undo')).toMatchObject({ ok: true });
    expect(t.d6()).toEqual({ pending: 1, fromPlay: 1 });
  });

  it('a die learnt while a commit fits stays pending and counted', async () => {
    const t = await table();
    t.use(['1', '2', '3', '4', '5', '6']);
    // The commit makes the held roll final first, then fits; the next used roll is learnt meanwhile.
    const committing = t.handle('calibration/commit');
    await new Promise((r) => setImmediate(r));
    t.use(['4']);
    const closing = t.calibration.close();
    expect(await committing).toMatchObject({ ok: true });
    await closing;
    expect(t.d6()).toEqual({ pending: 1, fromPlay: 1 });
  });
});
