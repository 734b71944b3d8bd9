/**
 * Labelled crops waiting for a calibration are kept on disk (`<dir>/pending/<set>/`), so a restart
 * loses none: a fresh reader on the same folder has them pending again, in order; a file that is
 * not a crop is reported and left alone; a commit removes the crops it used; a discard all.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../vision/image/decode.js';
import { DEFAULT_MODEL_DIR } from '../../vision/model/classifier.js';
import { PendingCropStore } from '../../vision/model/pending-store.js';
import { loadDiceReader, type ClewDiceReader } from '../../vision/reader.js';
import type { RgbImage } from '../../vision/types.js';
import { scratchDir } from '../support/scratch.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/dice-real');
const HAS_MODEL = existsSync(path.join(DEFAULT_MODEL_DIR, 'meta.json'));
const scratch = () => scratchDir('clew-pending-');
let crops: { face: string; image: RgbImage }[] = [];
const readers: ClewDiceReader[] = [];
/** A reader on `dir` (two adaptation steps: this is the bookkeeping), and the warnings it gave while loading. */
async function readerOn(dir: string): Promise<{ reader: ClewDiceReader; warnings: string[] }> {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    const reader = await loadDiceReader({ calibrationDir: dir, adapt: { steps: 2 } });
    readers.push(reader);
    await new Promise((r) => setImmediate(r));
    return { reader, warnings };
  } finally {
    process.off('warning', onWarning);
  }
}
const pendingFiles = (dir: string, set = 'd6') => (existsSync(path.join(dir, 'pending', set)) ? readdirSync(path.join(dir, 'pending', set)).sort() : []);

beforeAll(async () => {
  const labels = readFileSync(path.join(fixtures, 'labels.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  crops = await Promise.all(labels.map(async ([file, face]) => ({ face: face!, image: await decodeImage(readFileSync(path.join(fixtures, file!))) })));
});

afterAll(() => {
  for (const r of readers) r.dispose();
});

describe.skipIf(!HAS_MODEL)('labelled crops kept on disk until a calibration uses them', () => {
  it('a restart finds them pending again, in the order given, the same pixels', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir);
    for (const c of crops.slice(0, 5)) await reader.calibration.add('d6', c.face, c.image);
    expect(pendingFiles(dir)).toEqual(['000000-1.png', '000001-1.png', '000002-2.png', '000003-2.png', '000004-3.png']);
    const { reader: again, warnings } = await readerOn(dir);
    expect(warnings).toEqual([]);
    expect(again.calibration.pending('d6').counts).toEqual({ '1': 2, '2': 2, '3': 1, '4': 0, '5': 0, '6': 0 });
    const { crops: kept } = await new PendingCropStore(dir).load('d6', 64);
    expect(kept.map((k) => k.face)).toEqual(['1', '1', '2', '2', '3']);
    expect(kept.every((k) => k.crop.width === 64 && k.crop.height === 64)).toBe(true);
    // Numbering goes on after the kept crops.
    for (const c of crops.slice(5)) await again.calibration.add('d6', c.face, c.image);
    expect(pendingFiles(dir).at(-1)).toBe('000011-6.png');
    // The crops come back as the reader framed them: the restarted reader adapts exactly as one
    // that was given every label without a restart.
    const restarted = await again.calibration.commit('d6', { persist: false, createdAt: 'x' });
    const { reader: unbroken } = await readerOn(scratch());
    for (const c of crops) await unbroken.calibration.add('d6', c.face, c.image);
    const straight = await unbroken.calibration.commit('d6', { persist: false, createdAt: 'x' });
    expect(restarted.net!.weights).toBe(straight.net!.weights);
  });

  it('a commit removes the crops it used; a discard removes the rest', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir);
    for (const c of crops) await reader.calibration.add('d6', c.face, c.image);
    expect(pendingFiles(dir)).toHaveLength(crops.length);
    await reader.calibration.commit('d6', { createdAt: '2026-12-06T00:00:00Z' });
    expect(pendingFiles(dir)).toEqual([]);
    expect(reader.calibration.pending('d6').counts['1']).toBe(0);
    // The calibration itself is on disk, as before; the pending crops are gone for good.
    expect(existsSync(path.join(dir, 'd6.json'))).toBe(true);
    const { reader: again } = await readerOn(dir);
    expect(again.calibration.pending('d6').counts['1']).toBe(0);
    expect(again.calibration.list().map((c) => c.createdAt)).toEqual(['2026-12-06T00:00:00Z']);

    await again.calibration.add('d6', crops[0]!.face, crops[0]!.image);
    expect(pendingFiles(dir)).toHaveLength(1);
    await again.calibration.discard('d6');
    expect(pendingFiles(dir)).toEqual([]);
    expect(again.calibration.pending('d6').counts['1']).toBe(0);
  });

  it('a torn or foreign file is reported by name and left where it is; the good crops stay pending', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir);
    for (const c of crops.slice(0, 3)) await reader.calibration.add('d6', c.face, c.image);
    const folder = path.join(dir, 'pending', 'd6');
    writeFileSync(path.join(folder, '000003-4.png'), readFileSync(path.join(folder, '000000-1.png')).subarray(0, 40)); // torn
    writeFileSync(path.join(folder, '000004-7.png'), readFileSync(path.join(folder, '000000-1.png'))); // no face 7 on a d6
    writeFileSync(path.join(folder, 'notes.txt'), 'mine');
    writeFileSync(path.join(folder, '000005-5.png.tmp-123'), 'cut short'); // a write the plug cut: expected, not reported
    const { reader: again, warnings } = await readerOn(dir);
    expect(again.calibration.pending('d6').counts).toEqual({ '1': 2, '2': 1, '3': 0, '4': 0, '5': 0, '6': 0 });
    expect(warnings).toHaveLength(3);
    expect(warnings.find((w) => w.includes('000003-4.png'))).toMatch(/labelled crop .*000003-4\.png: .*; ignored/);
    expect(warnings.find((w) => w.includes('000004-7.png'))).toMatch(/"7" is not a face of d6/);
    expect(warnings.find((w) => w.includes('notes.txt'))).toMatch(/not a labelled crop/);
    expect(pendingFiles(dir)).toEqual(['000000-1.png', '000001-1.png', '000002-2.png', '000003-4.png', '000004-7.png', '000005-5.png.tmp-123', 'notes.txt']);
    // A new label is numbered after every file there, readable or not.
    await again.calibration.add('d6', crops[3]!.face, crops[3]!.image);
    expect(pendingFiles(dir)).toContain('000005-2.png');
  });

  it('with a limit per face, the newest labels of a face are kept and the oldest go, from memory and disk', async () => {
    const dir = scratch();
    const reader = await loadDiceReader({ calibrationDir: dir, adapt: { steps: 2 }, pendingPerFace: 3 });
    readers.push(reader);
    const ones = crops.filter((c) => c.face === '1');
    for (let k = 0; k < 5; k++) await reader.calibration.add('d6', '1', ones[k % ones.length]!.image);
    await reader.calibration.add('d6', '2', crops.find((c) => c.face === '2')!.image);
    expect(reader.calibration.pending('d6').counts).toMatchObject({ '1': 3, '2': 1 });
    // The two oldest 1s are gone from the folder too, and the rest keep their order.
    expect(pendingFiles(dir)).toEqual(['000002-1.png', '000003-1.png', '000004-1.png', '000005-2.png']);
    const sizes = pendingFiles(dir).map((f) => readFileSync(path.join(dir, 'pending', 'd6', f)).length);
    expect(Math.max(...sizes)).toBeLessThan(16 * 1024);
  });

  it('a label is named by its crop\'s number, so a reader opened after a restart withdraws a label given before it', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir);
    const first = await reader.calibration.add('d6', '4', crops[0]!.image);
    await reader.calibration.add('d6', '1', crops[0]!.image);
    await reader.calibration.withdraw('d6', first.label);
    const third = await reader.calibration.add('d6', '3', crops[0]!.image); // a mis-tap, seen after the restart
    expect([first.label, third.label]).toEqual([0, 2]);
    expect(pendingFiles(dir)).toEqual(['000001-1.png', '000002-3.png']);
    const { reader: again } = await readerOn(dir);
    expect(await again.calibration.withdraw('d6', third.label)).toMatchObject({ withdrawn: true, counts: { '1': 1, '3': 0 } });
    expect(pendingFiles(dir)).toEqual(['000001-1.png']);
    // A number no crop has any more names nothing.
    expect(await again.calibration.withdraw('d6', first.label)).toMatchObject({ withdrawn: false, counts: { '1': 1 } });
  });

  it('without a folder the labels live in memory, as before', async () => {
    const reader = await loadDiceReader({ adapt: { steps: 2 } });
    readers.push(reader);
    await reader.calibration.add('d6', crops[0]!.face, crops[0]!.image);
    expect(reader.calibration.pending('d6').counts['1']).toBe(1);
  });

  it('a label withdrawn while pending is gone from memory and disk; one a commit is fitting, or has taken, is not withdrawn', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir);
    const wrong = await reader.calibration.add('d6', '4', crops[0]!.image); // a 1, labelled 4 by a mis-tap
    const right = await reader.calibration.add('d6', '1', crops[0]!.image);
    expect(pendingFiles(dir)).toEqual(['000000-4.png', '000001-1.png']);
    expect(await reader.calibration.withdraw('d6', wrong.label)).toMatchObject({ withdrawn: true, counts: { '1': 1, '4': 0 } });
    expect(pendingFiles(dir)).toEqual(['000001-1.png']);
    expect(await reader.calibration.withdraw('d6', wrong.label)).toMatchObject({ withdrawn: false });
    const { reader: again } = await readerOn(dir);
    expect(again.calibration.pending('d6').counts).toMatchObject({ '1': 1, '4': 0 });
    // One label of every face, then a commit: a label it fits cannot be withdrawn under it, one given meanwhile can.
    for (const c of crops.slice(0, 12)) await reader.calibration.add('d6', c.face, c.image);
    const fitting = reader.calibration.commit('d6');
    expect(await reader.calibration.withdraw('d6', right.label)).toMatchObject({ withdrawn: false });
    const meanwhile = await reader.calibration.add('d6', '6', crops[11]!.image);
    const later = await reader.calibration.add('d6', '5', crops[9]!.image);
    expect(await reader.calibration.withdraw('d6', meanwhile.label)).toMatchObject({ withdrawn: true });
    await fitting;
    // The commit took its own labels only: the one given meanwhile and kept is still pending.
    expect(reader.calibration.pending('d6').counts).toEqual({ '1': 0, '2': 0, '3': 0, '4': 0, '5': 1, '6': 0 });
    expect(await reader.calibration.withdraw('d6', right.label)).toMatchObject({ withdrawn: false });
    expect(await reader.calibration.withdraw('d6', later.label)).toMatchObject({ withdrawn: true, counts: { '5': 0 } });
    expect(pendingFiles(dir)).toEqual([]);
  });
});
