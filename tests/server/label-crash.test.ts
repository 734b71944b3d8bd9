/**
 * What a crash, or a disk that fails, leaves of the labels clew gave and the dice it counted in
 * play (web/server/calibration.ts, label-memory.ts, played-rolls.ts). A crash is a write held in
 * flight (the process died there): the data folder is copied as it is at that moment and clew's
 * calibration part started afresh on the copy, with a new reader (as teach-restart.test.ts
 * restarts). The shipped model (the last-layer refit) and a camera roll of one real die picture
 * whose dice are boxes a pixel apart, from one frame the stand-in camera keeps.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PendingRoll } from '../../shared/protocol.js';
import { decodeImage } from '../../vision/image/decode.js';
import { DEFAULT_MODEL_DIR } from '../../vision/model/classifier.js';
import { loadDiceReader, type ClewDiceReader } from '../../vision/reader.js';
import type { Box, RgbImage } from '../../vision/types.js';
import { TableCalibration, type CalibrationIntent } from '../../web/server/calibration.js';
import type { CameraPipeline } from '../../web/server/camera.js';
import { lazyReader } from '../../web/server/dice-reader.js';
import { PlayedRolls } from '../../web/server/played-rolls.js';
import { collectingLogger, silentLogger } from '../../web/server/logger.js';
import type { TableEvent, TableState } from '../../web/server/table.js';
import { back, next, raceFolds, referee, trayRead, useRoll } from '../support/race-table.js';
import { scratchDir } from '../support/scratch.js';

/** Whole-file writes: those `hold` matches wait until `release` (or for ever: the process died); those `fail` matches fail as a full disk does. */
const writes = vi.hoisted(() => ({
  hold: null as null | ((file: string, data: string | Uint8Array) => boolean),
  fail: null as null | ((file: string) => boolean),
  held: [] as { file: string; release: () => void }[],
}));
vi.mock('../../web/server/log.js', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../web/server/log.js')>();
  return {
    ...mod,
    writeFileAtomic: async (file: string, data: string | Uint8Array) => {
      if (writes.fail?.(file)) throw Object.assign(new Error(`ENOSPC: no space left on device, open '${file}.tmp-1'`), { code: 'ENOSPC' });
      if (writes.hold?.(file, data)) await new Promise<void>((release) => writes.held.push({ file, release }));
      await mod.writeFileAtomic(file, data);
      fsx.events.push(`wrote ${file}${String(data).includes('"labels":[{') ? ' naming a final roll\'s labels' : ''}`);
    },
  };
});

/** Removals `holdRm` matches never finish; what is written whole, removed, and which folders are opened (a folder is synced through a handle), in order; reads that fail once. */
const fsx = vi.hoisted(() => ({
  holdRm: null as null | ((file: string) => boolean),
  events: [] as string[],
  failRead: null as string | null,
}));
vi.mock('node:fs/promises', async (importOriginal) => {
  const mod = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...mod,
    rm: (async (file: unknown, ...rest: unknown[]) => {
      if (typeof file === 'string') {
        fsx.events.push(`rm ${file}`);
        if (fsx.holdRm?.(file)) return new Promise<void>(() => {});
      }
      return (mod.rm as (...a: unknown[]) => Promise<void>)(file, ...rest);
    }) as typeof mod.rm,
    open: (async (file: unknown, ...rest: unknown[]) => {
      if (typeof file === 'string') fsx.events.push(`open ${file}`);
      return (mod.open as (...a: unknown[]) => Promise<unknown>)(file, ...rest);
    }) as typeof mod.open,
    readFile: (async (file: unknown, ...rest: unknown[]) => {
      if (typeof file === 'string' && file === fsx.failRead) {
        fsx.failRead = null;
        throw Object.assign(new Error(`EIO: i/o error, open '${file}'`), { code: 'EIO' });
      }
      return (mod.readFile as (...a: unknown[]) => Promise<unknown>)(file, ...rest);
    }) as typeof mod.readFile,
  };
});
/** Synchronous reads and renames of these files fail once (a failing card). */
const syncRead = vi.hoisted(() => ({ fail: null as string | null, failRename: null as string | null }));
vi.mock('node:fs', async (importOriginal) => {
  const mod = await importOriginal<typeof import('node:fs')>();
  return {
    ...mod,
    readFileSync: ((file: unknown, ...rest: unknown[]) => {
      if (typeof file === 'string' && file === syncRead.fail) {
        syncRead.fail = null;
        throw Object.assign(new Error(`EIO: i/o error, open '${file}'`), { code: 'EIO' });
      }
      return (mod.readFileSync as (...a: unknown[]) => unknown)(file, ...rest);
    }) as typeof mod.readFileSync,
    renameSync: ((from: unknown, ...rest: unknown[]) => {
      if (typeof from === 'string' && from === syncRead.failRename) {
        syncRead.failRename = null;
        throw Object.assign(new Error(`EIO: i/o error, rename '${from}'`), { code: 'EIO' });
      }
      return (mod.renameSync as (...a: unknown[]) => unknown)(from, ...rest);
    }) as typeof mod.renameSync,
  };
});

const HAS_MODEL = existsSync(path.join(DEFAULT_MODEL_DIR, 'meta.json'));
const fixture = path.resolve(import.meta.dirname, '../fixtures/dice-real/crops/WIN_20221210_14_48_22_Pro-die-0.jpg');
const FACES = ['1', '2', '3', '4', '5', '6'];
let image: RgbImage;
const readers: ClewDiceReader[] = [];
beforeAll(async () => {
  image = await decodeImage(readFileSync(fixture));
});
afterAll(() => {
  for (const r of readers) r.dispose();
});
afterEach(() => {
  // What a test held is let go (its folder is a scratch one): the next test starts with a sound disk.
  writes.hold = null;
  writes.fail = null;
  for (const w of writes.held.splice(0)) w.release();
  fsx.holdRm = null;
  fsx.failRead = null;
  syncRead.fail = null;
  syncRead.failRename = null;
});

/** A camera roll of `faces.length` dice, die i a box i pixels from the picture's left; `readAs`: what the camera read where a person corrected it. */
function rollOf(faces: string[], readAs: Record<number, string> = {}): PendingRoll {
  const box = (i: number): Box => [i, 0, image.width, image.height];
  return { source: 'camera', needsConfirmation: true, dice: faces.map((face, i) => ({ set: 'd6' as const, face, box: box(i), ...(readAs[i] !== undefined ? { corrected: true, readAs: readAs[i] } : {}) })) };
}
const only = (c: Record<string, number>) => ({ ...Object.fromEntries(FACES.map((f) => [f, 0])), ...c });
const until = (ok: () => boolean) => vi.waitFor(() => expect(ok()).toBe(true), { timeout: 20_000, interval: 5 });
/** Lets whatever is ready run (a write that was not held lands meanwhile). */
const aWhile = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

/** clew's calibration part on the data folder `dir`, loaded (with the table as its log has it, where given, as main.ts loads it), and a referee's moves with it. */
async function calibrationOn(dir: string, reader: Parameters<typeof lazyReader>[0], pipeline: CameraPipeline | null, learnFromChecks: boolean, table?: TableState) {
  const logger = collectingLogger();
  const calibration = new TableCalibration(path.join(dir, 'calibration'), lazyReader(reader, silentLogger), () => pipeline, logger, () => {}, {
    learnFromChecks,
    file: path.join(dir, 'dice-in-play.json'),
    heldDir: path.join(dir, 'held-roll'),
  });
  await calibration.load(table);
  const event = (e: Partial<TableEvent>) => ({ by: { kind: 'referee' }, ...e }) as TableEvent;
  return {
    calibration,
    logger,
    use: (roll: PendingRoll) => calibration.played(event({ type: 'confirm' }), { roll } as TableState, { roll: null } as TableState),
    moveOn: () => calibration.played(event({ type: 'roll' }), { roll: null } as TableState, { roll: null } as TableState),
    back: (roll: PendingRoll) => calibration.played(event({ type: 'undo' }), { roll: null } as TableState, { roll } as TableState),
  };
}

/** clew's calibration part on the data folder `dir`. */
async function open(dir: string, table?: TableState) {
  const calibrationDir = path.join(dir, 'calibration');
  const pipeline = { frameFor: () => ({ image, readings: [], at: 7 }), view: 'side' } as unknown as CameraPipeline;
  const reader = await loadDiceReader({ calibrationDir, calibrate: 'head' });
  readers.push(reader);
  const part = await calibrationOn(dir, async () => reader, pipeline, true, table);
  const { calibration } = part;
  return {
    ...part,
    label: (roll: PendingRoll, index: number, face: string) => calibration.handle({ type: 'calibration/label', set: 'd6', index, face } as CalibrationIntent, { roll } as TableState),
    d6: () => calibration.status().find((s) => s.set === 'd6'),
    samples: () => only(calibration.status().find((s) => s.set === 'd6')?.samples ?? {}),
    files: () => (existsSync(path.join(calibrationDir, 'pending', 'd6')) ? readdirSync(path.join(calibrationDir, 'pending', 'd6')).filter((n) => n.endsWith('.png')).sort() : []),
  };
}

/** clew's calibration part on `dir` with no reader and nothing taught: the dice in play alone. */
async function openCounts(dir: string, table?: TableState) {
  const part = await calibrationOn(dir, async () => { throw new Error('no reader'); }, null, false, table);
  return { ...part, inPlay: () => part.calibration.status().find((s) => s.set === 'd6')?.inPlay };
}
/** A camera roll of a 3 and a 5, `x` pixels from the picture's left (no picture is read). */
const twoDiceAt = (x: number): PendingRoll => ({ source: 'camera', needsConfirmation: false, dice: [{ set: 'd6', face: '3', box: [x, 0, 10, 10] }, { set: 'd6', face: '5', box: [x + 20, 0, 10, 10] }] });

/** The data folder as a power cut would leave it now (the writes still in flight never land), to start on afresh. */
function crashCopy(dir: string): string {
  const copy = scratchDir('clew-label-crash-copy-');
  cpSync(dir, copy, { recursive: true });
  return copy;
}

const memoryNames = (dir: string, text: string) => existsSync(path.join(dir, 'calibration', 'label-memory.json')) && readFileSync(path.join(dir, 'calibration', 'label-memory.json'), 'utf8').includes(text);
/** How many labels of final rolls a memory write names. */
const finalLabels = (data: string | Uint8Array) => String(data).match(/"readRight"/g)?.length ?? 0;

describe.skipIf(!HAS_MODEL)('a Teach label is acknowledged only once it is remembered', () => {
  it('the phone is not told OK while the memory naming the label is written; told OK, a crash keeps it: a Change replaces it and the same face again is "labelled already"', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['5']);
    writes.hold = (file, data) => file.endsWith('label-memory.json') && String(data).includes('"teach":[{');
    let told = false;
    const ack = t.label(roll, 0, '4').then((r) => ((told = true), r));
    await until(() => writes.held.length === 1);
    await aWhile();
    expect(told).toBe(false);
    writes.hold = null;
    writes.held.splice(0)[0]!.release();
    expect(await ack).toMatchObject({ ok: true });
    // A crash right after the OK: the die is remembered.
    const after = await open(crashCopy(dir));
    expect(await after.label(roll, 0, '4')).toMatchObject({ ok: false, code: 'calibration/already-labelled' });
    expect(await after.label(roll, 0, '5')).toMatchObject({ ok: true });
    expect(after.files()).toEqual(['000001-5.png']);
    expect(after.samples()).toEqual(only({ '5': 1 }));
  });

  it('a label that cannot be remembered (the disk full) is refused, saying so without the server\'s paths, and taken back; once the disk writes again the die is labelled', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['5']);
    writes.fail = (file) => file.endsWith('label-memory.json');
    const refused = await t.label(roll, 0, '5');
    expect(refused).toMatchObject({ ok: false, code: 'calibration/not-remembered' });
    expect((refused as { message: string }).message).toContain('ENOSPC');
    expect((refused as { message: string }).message).not.toContain(dir);
    expect(t.files()).toEqual([]);
    expect(t.samples()).toEqual(only({}));
    expect(t.logger.lines).toContainEqual({ level: 'warn', message: expect.stringContaining('label-memory.json') });
    writes.fail = null;
    expect(await t.label(roll, 0, '5')).toMatchObject({ ok: true });
    expect(t.files()).toHaveLength(1);
  });

  it('a relabel that cannot be remembered keeps the label before it', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['5']);
    expect(await t.label(roll, 0, '4')).toMatchObject({ ok: true });
    writes.fail = (file) => file.endsWith('label-memory.json');
    expect(await t.label(roll, 0, '5')).toMatchObject({ ok: false, code: 'calibration/not-remembered' });
    expect(t.files()).toEqual(['000000-4.png']);
    writes.fail = null;
    expect(await t.label(roll, 0, '4')).toMatchObject({ ok: false, code: 'calibration/already-labelled' });
    expect(await t.label(roll, 0, '5')).toMatchObject({ ok: true });
    // The refused relabel wrote no crop: the memory could not say one was coming.
    expect(t.files()).toEqual(['000001-5.png']);
  });
});

describe.skipIf(!HAS_MODEL)('a save undone, cut short by a crash', () => {
  it('the undo is acknowledged once the memory forgets the save\'s labels: after a crash then, the die labelled the same face again is a new label', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(FACES);
    for (const [i, face] of FACES.entries()) expect(await t.label(roll, i, face)).toMatchObject({ ok: true });
    const handle = (type: 'calibration/commit' | 'calibration/undo') => t.calibration.handle({ type, set: 'd6' } as CalibrationIntent, {} as TableState);
    expect(await handle('calibration/commit')).toMatchObject({ ok: true });
    await t.calibration.saved();
    // The counts' write (after which the memory is written for the counts' own sake) never lands.
    writes.hold = (file) => file.endsWith('dice-in-play.json');
    expect(await handle('calibration/undo')).toMatchObject({ ok: true });
    const copy = crashCopy(dir);
    writes.hold = null;
    const after = await open(copy);
    expect(await after.label(roll, 0, '1')).toMatchObject({ ok: true });
  });
});

describe.skipIf(!HAS_MODEL)('a roll made final, cut short by a crash', () => {
  it('its checked dice are remembered one by one: cut while the second is remembered, the second\'s crop is gone at the restart and a BACK takes back the first', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['3', '4', '6'], { 0: '2', 1: '5' });
    t.use(roll);
    await t.calibration.saved();
    writes.hold = (file, data) => file.endsWith('label-memory.json') && finalLabels(data) === 2;
    t.moveOn();
    await until(() => writes.held.length > 0);
    expect(t.files()).toEqual(['000000-3.png', '000001-4.png']);
    const copy = crashCopy(dir);
    writes.hold = null;
    const after = await open(copy);
    // Made final and remembered before the cut: not held again, counted once; the crop no memory named is swept.
    expect(after.d6()).toMatchObject({ inPlay: { dice: 3 } });
    expect(after.files()).toEqual(['000000-3.png']);
    expect(after.samples()).toEqual(only({ '3': 1 }));
    after.back(roll);
    await after.calibration.close();
    expect(after.d6()?.inPlay).toBeUndefined();
    expect(after.files()).toEqual([]);
  });

  it('cut before its count is written: the roll is still held on disk, so after the restart it is held again, counted and taught once', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['3', '4'], { 0: '2' });
    t.use(roll);
    await t.calibration.saved();
    writes.hold = (file) => file.endsWith('dice-in-play.json');
    t.moveOn();
    await until(() => writes.held.length > 0);
    await aWhile();
    expect(existsSync(path.join(dir, 'held-roll', 'roll.json'))).toBe(true);
    const copy = crashCopy(dir);
    writes.hold = null;
    const after = await open(copy);
    expect(after.d6()?.inPlay).toMatchObject({ dice: 2 });
    expect(after.samples()).toEqual(only({ '3': 1 }));
    after.moveOn();
    await after.calibration.close();
    expect(after.d6()?.inPlay).toMatchObject({ dice: 2 });
    expect(after.samples()).toEqual(only({ '3': 1 }));
    expect(after.files()).toEqual(['000000-3.png']);
  });

  it('cut once its count, the final roll and its labels are on disk but not yet its held files\' removal: not held again, so not counted nor taught twice', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['3', '4'], { 0: '2' });
    t.use(roll);
    await t.calibration.saved();
    fsx.holdRm = (file) => file.endsWith(path.join('held-roll', 'roll.json'));
    t.moveOn();
    await until(() => fsx.events.some((e) => e.endsWith(path.join('held-roll', 'roll.json'))) && t.files().length === 1 && memoryNames(dir, '"labels":[{'));
    const copy = crashCopy(dir);
    fsx.holdRm = null;
    expect(existsSync(path.join(copy, 'held-roll', 'roll.json'))).toBe(true);
    const after = await open(copy);
    expect(after.logger.lines).toContainEqual({ level: 'info', message: expect.stringContaining('made final already') });
    after.moveOn();
    await after.calibration.close();
    expect(existsSync(path.join(copy, 'held-roll', 'roll.json'))).toBe(false);
    expect(after.d6()?.inPlay).toMatchObject({ dice: 2 });
    expect(after.files()).toEqual(['000000-3.png']);
    // And a BACK after the restart still takes back its count and its label.
    after.back(roll);
    await after.calibration.close();
    expect(after.d6()?.inPlay).toBeUndefined();
    expect(after.files()).toEqual([]);
  });

  it('the held roll\'s files are removed only after its count and the memory of its labels are written, and their folder synced after the removal', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['3', '4'], { 0: '2' });
    t.use(roll);
    await t.calibration.saved();
    fsx.events = [];
    t.moveOn();
    await t.calibration.close();
    const heldDir = path.join(dir, 'held-roll');
    const removed = fsx.events.lastIndexOf(`rm ${path.join(heldDir, 'roll.json')}`);
    expect(removed).toBeGreaterThan(-1);
    expect(fsx.events.slice(0, removed)).toContain(`wrote ${path.join(dir, 'dice-in-play.json')}`);
    expect(fsx.events.slice(0, removed)).toContain(`wrote ${path.join(dir, 'calibration', 'label-memory.json')} naming a final roll's labels`);
    expect(fsx.events.slice(removed)).toContain(`open ${heldDir}`);
    expect(existsSync(path.join(heldDir, 'roll.json'))).toBe(false);
  });
});

describe.skipIf(!HAS_MODEL)('a file that cannot be read (a failing card) is not written over', () => {
  it('the label memory: said by name, kept aside before anything is written, the labels pending stay', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['5', '3']);
    expect(await t.label(roll, 0, '4')).toMatchObject({ ok: true });
    await t.calibration.close();
    const file = path.join(dir, 'calibration', 'label-memory.json');
    const before = readFileSync(file, 'utf8');
    fsx.failRead = file;
    const after = await open(dir);
    expect(after.logger.lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/label-memory\.json could not be read \(EIO: .+\); the dice labelled before are not remembered \(kept as label-memory\.json\.corrupt-\d+\)$/) });
    expect(await after.label(roll, 1, '3')).toMatchObject({ ok: true });
    const aside = readdirSync(path.join(dir, 'calibration')).filter((n) => n.startsWith('label-memory.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(dir, 'calibration', aside[0]!), 'utf8')).toBe(before);
    expect(after.samples()).toEqual(only({ '3': 1, '4': 1 }));
  });

  it('the dice in play: said by name, kept aside, counted afresh; a BACK to a roll counted before takes nothing from the fresh count', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const a = rollOf(['1', '2']);
    t.use(a);
    t.moveOn();
    await t.calibration.close();
    const file = path.join(dir, 'dice-in-play.json');
    const before = readFileSync(file, 'utf8');
    syncRead.fail = file;
    const after = await open(dir);
    expect(after.logger.lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/dice-in-play\.json could not be read \(EIO: .+\); counting afresh \(kept as dice-in-play\.json\.corrupt-\d+\)$/) });
    const aside = readdirSync(dir).filter((n) => n.startsWith('dice-in-play.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(dir, aside[0]!), 'utf8')).toBe(before);
    const b = { ...rollOf(['3', '4']), dice: rollOf(['3', '4']).dice.map((d, i) => ({ ...d, box: [10 + i, 0, image.width, image.height] as Box })) };
    after.use(b);
    after.moveOn();
    after.back(a);
    await after.calibration.close();
    expect(after.d6()?.inPlay).toMatchObject({ dice: 2 });
    expect(JSON.parse(readFileSync(file, 'utf8')).d6).toMatchObject({ dice: 2 });
  });
});

describe('the held roll on a failing card', () => {
  it('a held roll file that cannot be read is said by name and kept aside, not written over', async () => {
    const dir = scratchDir('clew-label-crash-');
    const heldDir = path.join(dir, 'held-roll');
    mkdirSync(heldDir, { recursive: true });
    writeFileSync(path.join(heldDir, 'roll.json'), '{"roll": {}}');
    syncRead.fail = path.join(heldDir, 'roll.json');
    const logger = collectingLogger();
    const rolls = new PlayedRolls({ learnFromChecks: false, reader: lazyReader(async () => { throw new Error('none'); }, silentLogger), pipelineFor: () => null, logger, heldDir, onLabel: () => {}, onChange: () => {} });
    await rolls.saved();
    expect(logger.lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/roll\.json could not be read \(EIO: .+\); the roll used last is not counted \(kept as roll\.json\.corrupt-\d+\)$/) });
    expect(readdirSync(heldDir).filter((n) => n.startsWith('roll.json.corrupt-'))).toHaveLength(1);
  });
});

describe('a roll used again with the same dice, cut short by a crash', () => {
  it('used twice (the tray read again unchanged), cut while the second is held: the second is held again after the restart, both counted', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await openCounts(dir);
    const roll = twoDiceAt(0);
    t.use(roll);
    t.moveOn();
    await t.calibration.saved();
    t.use({ ...roll, dice: roll.dice.map((d) => ({ ...d })) });
    await t.calibration.saved();
    expect(t.inPlay()).toMatchObject({ dice: 4 });
    const after = await openCounts(crashCopy(dir));
    expect(after.logger.lines).not.toContainEqual({ level: 'info', message: expect.stringContaining('made final already') });
    expect(after.inPlay()).toMatchObject({ dice: 4 });
  });

  it('cut before its held files were removed, it is still not held again; so too with files from before held rolls had an id (told by its dice)', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await openCounts(dir);
    const rollFile = path.join(dir, 'held-roll', 'roll.json');
    t.use(twoDiceAt(0));
    await t.calibration.saved();
    fsx.holdRm = (file) => file === rollFile;
    t.moveOn();
    await until(() => fsx.events.includes(`rm ${rollFile}`));
    const copy = crashCopy(dir);
    const older = crashCopy(dir);
    fsx.holdRm = null;
    // The older files: the held roll and the memory of the final one with no id.
    const heldKept = JSON.parse(readFileSync(path.join(older, 'held-roll', 'roll.json'), 'utf8')) as { id?: string };
    const memoryFile = path.join(older, 'calibration', 'label-memory.json');
    const memory = JSON.parse(readFileSync(memoryFile, 'utf8')) as { finals: { id?: string }[] };
    expect(heldKept.id).toEqual(expect.any(String));
    expect(memory.finals[0]?.id).toBe(heldKept.id);
    delete heldKept.id;
    delete memory.finals[0]!.id;
    writeFileSync(path.join(older, 'held-roll', 'roll.json'), JSON.stringify(heldKept));
    writeFileSync(memoryFile, JSON.stringify(memory));
    for (const folder of [copy, older]) {
      const after = await openCounts(folder);
      expect(after.logger.lines).toContainEqual({ level: 'info', message: expect.stringContaining('made final already') });
      expect(after.inPlay()).toMatchObject({ dice: 2 });
      await after.calibration.close();
    }
  });
});

describe('dice in play while the counts file can be neither read nor put aside', () => {
  it('its rolls are remembered with no count to take back: after the file reads again, a BACK to one takes nothing from it, and a BACK to a roll the file counted still takes it back', async () => {
    const dir = scratchDir('clew-label-crash-');
    const file = path.join(dir, 'dice-in-play.json');
    const a = twoDiceAt(0), b = twoDiceAt(100), c = twoDiceAt(200);
    const one = await openCounts(dir);
    one.use(a);
    one.moveOn();
    await one.calibration.close();
    syncRead.fail = file;
    syncRead.failRename = file;
    const two = await openCounts(dir);
    expect(two.logger.lines).toContainEqual({ level: 'warn', message: expect.stringContaining('could not be put aside') });
    two.use(b);
    two.moveOn();
    two.use(c);
    two.moveOn();
    // Within the run, a BACK still takes a roll back from the run's own count.
    two.back(c);
    await two.calibration.close();
    expect(two.inPlay()).toMatchObject({ dice: 2 });
    const three = await openCounts(dir);
    expect(three.inPlay()).toMatchObject({ dice: 2 });
    three.back(b);
    await three.calibration.saved();
    expect(three.inPlay()).toMatchObject({ dice: 2 });
    three.back(a);
    await three.calibration.close();
    expect(three.inPlay()).toBeUndefined();
  });

  it('so too where no final roll was remembered before (the run counts in the generation the file has)', async () => {
    const dir = scratchDir('clew-label-crash-');
    const file = path.join(dir, 'dice-in-play.json');
    const a = twoDiceAt(0), b = twoDiceAt(100);
    const one = await openCounts(dir);
    one.use(a);
    one.moveOn();
    await one.calibration.close();
    rmSync(path.join(dir, 'calibration', 'label-memory.json'));
    syncRead.fail = file;
    syncRead.failRename = file;
    const two = await openCounts(dir);
    two.use(b);
    two.moveOn();
    await two.calibration.close();
    const three = await openCounts(dir);
    three.back(b);
    await three.calibration.close();
    expect(three.inPlay()).toMatchObject({ dice: 2 });
  });
});

describe.skipIf(!HAS_MODEL)('a crop on disk that no memory names, left by a crash', () => {
  it('a Teach label cut while the memory naming its crop is written (the phone not told OK): after the restart that crop is gone, not pending for a save; the die labelled again is its one crop', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['5']);
    writes.hold = (file, data) => file.endsWith('label-memory.json') && String(data).includes('"teach":[{');
    let told = false;
    void t.label(roll, 0, '4').then(() => (told = true));
    await until(() => writes.held.length === 1);
    expect(t.files()).toEqual(['000000-4.png']);
    const copy = crashCopy(dir);
    writes.hold = null;
    expect(told).toBe(false);
    const after = await open(copy);
    expect(after.files()).toEqual([]);
    expect(after.samples()).toEqual(only({}));
    expect(await after.label(roll, 0, '5')).toMatchObject({ ok: true });
    expect(after.samples()).toEqual(only({ '5': 1 }));
    expect(after.files()).toHaveLength(1);
  });

  it('a relabel cut before the mis-tapped crop was removed: after the restart that crop is gone, and only the new face is pending', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['5']);
    expect(await t.label(roll, 0, '4')).toMatchObject({ ok: true });
    const misTapped = path.join(dir, 'calibration', 'pending', 'd6', '000000-4.png');
    fsx.holdRm = (file) => file === misTapped;
    void t.label(roll, 0, '5');
    await until(() => fsx.events.includes(`rm ${misTapped}`));
    const copy = crashCopy(dir);
    fsx.holdRm = null;
    const after = await open(copy);
    expect(after.files()).toEqual(['000001-5.png']);
    expect(after.samples()).toEqual(only({ '5': 1 }));
    expect(await after.label(roll, 0, '5')).toMatchObject({ ok: false, code: 'calibration/already-labelled' });
  });

  it('a BACK to a final roll cut before its taught crop was removed: after the restart that crop is gone and the roll is not counted', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await open(dir);
    const roll = rollOf(['3', '4'], { 0: '2' });
    t.use(roll);
    t.moveOn();
    await t.calibration.close();
    expect(t.files()).toEqual(['000000-3.png']);
    const taught = path.join(dir, 'calibration', 'pending', 'd6', '000000-3.png');
    fsx.holdRm = (file) => file === taught;
    t.back(roll);
    await until(() => fsx.events.includes(`rm ${taught}`) && !memoryNames(dir, '"labels":[{'));
    const copy = crashCopy(dir);
    fsx.holdRm = null;
    const after = await open(copy);
    expect(after.files()).toEqual([]);
    expect(after.d6()?.inPlay).toBeUndefined();
  });
});

describe('a roll cut short between its count and its memory entry', () => {
  it('counted once: after the restart the roll is held again but not counted again, and made final it is remembered (a BACK takes it back)', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await openCounts(dir);
    const roll = twoDiceAt(0);
    t.use(roll);
    await t.calibration.saved();
    writes.hold = (file, data) => file.endsWith('label-memory.json') && String(data).includes('"finals":[{');
    t.moveOn();
    await until(() => writes.held.length === 1);
    expect(JSON.parse(readFileSync(path.join(dir, 'dice-in-play.json'), 'utf8')).d6).toMatchObject({ dice: 2 });
    const copy = crashCopy(dir);
    writes.hold = null;
    const after = await openCounts(copy);
    expect(after.inPlay()).toMatchObject({ dice: 2 });
    after.moveOn();
    await after.calibration.saved();
    expect(after.inPlay()).toMatchObject({ dice: 2 });
    const again = await openCounts(copy);
    expect(again.inPlay()).toMatchObject({ dice: 2 });
    again.back(roll);
    await again.calibration.close();
    expect(again.inPlay()).toBeUndefined();
  });

  it('counted once and brought back by BACK before it was final: its count is taken back', async () => {
    const dir = scratchDir('clew-label-crash-');
    const t = await openCounts(dir);
    const roll = twoDiceAt(0);
    t.use(roll);
    await t.calibration.saved();
    writes.hold = (file, data) => file.endsWith('label-memory.json') && String(data).includes('"finals":[{');
    t.moveOn();
    await until(() => writes.held.length === 1);
    const copy = crashCopy(dir);
    writes.hold = null;
    const after = await openCounts(copy);
    after.back(roll);
    await after.calibration.close();
    expect(after.inPlay()).toBeUndefined();
    expect(JSON.parse(readFileSync(path.join(copy, 'dice-in-play.json'), 'utf8')).d6).toMatchObject({ dice: 0 });
  });
});

/**
 * A table of the race game with clew's calibration part on `dir` (started by `start`), told of
 * each event as main.ts tells it. The table's log is durable, so a cut keeps every event: `crash`
 * is the folder as a cut leaves it now, the part started on it with the table as its log has it.
 */
async function raceTableOn<P extends { calibration: TableCalibration }>(dir: string, start: (dir: string, table?: TableState) => Promise<P>) {
  let part = await start(dir);
  let folder = dir;
  const folds = raceFolds((event, before, after) => part.calibration.played(event, before, after));
  return {
    get part() {
      return part;
    },
    get dir() {
      return folder;
    },
    play: folds.play,
    async crash() {
      folder = crashCopy(folder);
      writes.hold = null;
      part = await start(folder, folds.table);
    },
  };
}

describe('a power cut right after a BACK (in the table log, what it does to the dice in play not yet on disk)', () => {
  const counts = async () => {
    const t = await raceTableOn(scratchDir('clew-label-crash-'), openCounts);
    return Object.assign(t, { inPlay: () => t.part.inPlay()?.dice, settled: () => t.part.calibration.saved() });
  };

  it('BACK of the held roll, cut before its files are removed: used again, the roll counts once', async () => {
    const t = await counts();
    t.play(trayRead(), useRoll('ann'));
    await t.settled();
    expect(t.inPlay()).toBe(1);
    t.play(back);
    await t.crash();
    expect(t.inPlay()).toBeUndefined();
    t.play(useRoll('ann'));
    await t.settled();
    expect(t.inPlay()).toBe(1);
    expect(t.part.logger.lines).toContainEqual({ level: 'info', message: expect.stringContaining('1 used roll a BACK took back just before the restart') });
  });

  it('BACK of a final roll, cut before its count is taken back on disk: used again, the roll counts once', async () => {
    const t = await counts();
    t.play(trayRead(), useRoll('ann'), next, trayRead());
    await t.settled();
    expect(t.inPlay()).toBe(1);
    t.play(back, back); // Ann's NEXT, then Ann's use
    await t.crash();
    expect(t.inPlay()).toBeUndefined();
    t.play(useRoll('ann'));
    await t.settled();
    expect(t.inPlay()).toBe(1);
  });

  it('several BACKs before the cut (Bob\'s held roll, then Ann\'s final one): both taken back, Ann\'s used again counts once', async () => {
    const t = await counts();
    t.play(trayRead(), useRoll('ann'), next, trayRead(50, '4'), useRoll('bob', 4));
    await t.settled();
    expect(t.inPlay()).toBe(2);
    t.play(back, back, back); // Bob's use, Ann's NEXT, Ann's use: Ann's roll pending again
    await t.crash();
    expect(t.inPlay()).toBeUndefined();
    t.play(useRoll('ann'), next, trayRead(50, '4'));
    await t.settled();
    expect(t.inPlay()).toBe(1);
  });

  it('BACK of a final roll, cut once its count is taken back on disk but before the memory forgets it: nothing is taken from the count twice', async () => {
    const t = await counts();
    t.play(trayRead(), useRoll('ann'), next, trayRead(50, '4'), useRoll('bob', 4), next, trayRead());
    await t.settled();
    expect(t.inPlay()).toBe(2);
    writes.hold = (f) => f.endsWith('label-memory.json');
    t.play(back, back); // Bob's NEXT, then Bob's use
    const countsFile = path.join(t.dir, 'dice-in-play.json');
    await until(() => JSON.parse(readFileSync(countsFile, 'utf8')).d6.dice === 1);
    await t.crash();
    expect(t.inPlay()).toBe(1);
    t.play(useRoll('bob', 4), next, trayRead());
    await t.settled();
    expect(t.inPlay()).toBe(2);
  });

  it('a restart with the tray read again pending after a NEXT takes nothing back (the use is still on the undo stack)', async () => {
    const t = await counts();
    t.play(trayRead(), useRoll('ann'), next, trayRead());
    await t.settled();
    await t.crash();
    expect(t.inPlay()).toBe(1);
    t.play(back, back); // Ann's NEXT, then her use: her roll taken back, as ever
    await t.settled();
    expect(t.inPlay()).toBeUndefined();
  });

  it('BACK of a held roll counted before a cut: the count taken back before its files go, so a second cut does not leave it counted', async () => {
    const t = await counts();
    t.play(trayRead(), useRoll('ann'));
    await t.settled();
    // Made final by the next read: its count (naming it lastCounted) lands, the memory of it is held: cut.
    writes.hold = (f) => f.endsWith('label-memory.json');
    t.play(next, trayRead());
    const countsFile = () => path.join(t.dir, 'dice-in-play.json');
    await until(() => existsSync(countsFile()) && readFileSync(countsFile(), 'utf8').includes('lastCounted'));
    await t.crash();
    expect(t.inPlay()).toBe(1); // held again, counted already
    // BACK twice (Ann's NEXT, then her use): the held roll goes; its count taken back is held this time.
    writes.hold = (f) => f.endsWith('dice-in-play.json');
    t.play(back, back);
    await until(() => writes.held.length === 1);
    await aWhile();
    // Its files not even being removed while the count is not taken back on disk: a cut now holds it again, counted, for the table to take back.
    const rollFile = path.join(t.dir, 'held-roll', 'roll.json');
    expect(fsx.events).not.toContain(`rm ${rollFile}`);
    expect(existsSync(rollFile)).toBe(true);
    await t.crash();
    t.play(useRoll('ann'));
    await t.settled();
    expect(t.inPlay()).toBe(1);
  });
});

describe.skipIf(!HAS_MODEL)('a power cut right after a BACK of a final roll whose die was corrected', () => {
  it('after the restart its crop is withdrawn (not taught at the next save); corrected again and used, only the new face is pending and the roll counts once', async () => {
    const t = await raceTableOn(scratchDir('clew-label-crash-'), open);
    const read: TableEvent = { type: 'roll', dice: [{ set: 'd6', face: '3', box: [0, 0, image.width, image.height] }], source: 'camera', by: { kind: 'camera', source: 'camera' } };
    t.play(read, { type: 'correct', index: 0, face: '2', by: referee }, useRoll('ann', 2), next, trayRead(50));
    await t.part.calibration.saved();
    expect(t.part.files()).toEqual(['000000-2.png']);
    // Ann's NEXT, then her use: what the BACK does here is held behind the counts' write, then cut.
    writes.hold = (f) => f.endsWith('dice-in-play.json');
    t.play(back, back);
    await t.crash();
    await t.part.calibration.close();
    expect(t.part.files()).toEqual([]);
    expect(t.part.samples()).toEqual(only({}));
    expect(t.part.d6()?.inPlay).toBeUndefined();
    t.play({ type: 'correct', index: 0, face: '4', by: referee }, useRoll('ann', 4), next, trayRead(50));
    await t.part.calibration.close();
    expect(t.part.samples()).toEqual(only({ '4': 1 }));
    expect(t.part.d6()?.inPlay).toMatchObject({ dice: 1 });
  });
});
