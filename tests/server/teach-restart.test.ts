/**
 * What clew remembers about the labels it gave outlives a restart (web/server/label-memory.ts):
 * each case runs once without a restart and once with clew restarted in the middle (a new
 * calibration part and a new reader on the same data folder), and must end the same. The
 * server's calibration part with the shipped model (the last-layer refit), fed a camera roll of
 * one real die picture whose dice are boxes a pixel apart, from one frame the stand-in camera
 * keeps over the restart (today's camera keeps its frames in memory only).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingRoll } from '../../shared/protocol.js';
import { decodeImage } from '../../vision/image/decode.js';
import { DEFAULT_MODEL_DIR } from '../../vision/model/classifier.js';
import { loadDiceReader, type ClewDiceReader } from '../../vision/reader.js';
import type { Box, RgbImage } from '../../vision/types.js';
import { TableCalibration, type CalibrationIntent } from '../../web/server/calibration.js';
import type { CameraPipeline } from '../../web/server/camera.js';
import { lazyReader } from '../../web/server/dice-reader.js';
import { collectingLogger, silentLogger } from '../../web/server/logger.js';
import type { TableEvent, TableState } from '../../web/server/table.js';
import { scratchDir } from '../support/scratch.js';

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

/** A camera roll of `faces.length` dice, die i a box i pixels from the picture's left; `readAs`: what the camera read where a person corrected it. */
function rollOf(faces: string[], readAs: Record<number, string> = {}): PendingRoll {
  const box = (i: number): Box => [i, 0, image.width, image.height];
  return {
    source: 'camera',
    needsConfirmation: true,
    dice: faces.map((face, i) => ({ set: 'd6' as const, face, box: box(i), ...(readAs[i] !== undefined ? { corrected: true, readAs: readAs[i] } : {}) })),
  };
}

/** clew's calibration part on a data folder, its reader, and `restart`: the same folder taken up by new ones. */
async function table() {
  const dir = scratchDir('clew-teach-restart-');
  const calibrationDir = path.join(dir, 'calibration');
  const logger = collectingLogger();
  // One frame, kept by the stand-in camera over the restart.
  const pipeline = { frameFor: () => ({ image, readings: [], at: 7 }), view: 'side' } as unknown as CameraPipeline;
  const start = async () => {
    const reader = await loadDiceReader({ calibrationDir, calibrate: 'head' });
    readers.push(reader);
    const calibration = new TableCalibration(calibrationDir, lazyReader(async () => reader, silentLogger), () => pipeline, logger, () => {}, {
      learnFromChecks: true,
      file: path.join(dir, 'dice-in-play.json'),
      heldDir: path.join(dir, 'held-roll'),
    });
    await calibration.load();
    return calibration;
  };
  let calibration = await start();
  const event = (e: Partial<TableEvent>) => ({ by: { kind: 'referee' }, ...e }) as TableEvent;
  const t = {
    dir,
    logger,
    /** clew stopped cleanly and started again on the same folder, when `restart`. */
    async restart(restart = true) {
      if (!restart) return;
      await calibration.close();
      calibration = await start();
    },
    /** The Teach tab: die `index` of `roll` is `face`. */
    label: (roll: PendingRoll, index: number, face: string) => calibration.handle({ type: 'calibration/label', set: 'd6', index, face } as CalibrationIntent, { roll } as TableState),
    handle: (type: 'calibration/commit' | 'calibration/undo') => calibration.handle({ type, set: 'd6' } as CalibrationIntent, {} as TableState),
    /** The roll used by the referee's phone. */
    use: (roll: PendingRoll) => calibration.played(event({ type: 'confirm' }), { roll } as TableState, { roll: null } as TableState),
    /** The game moves on (a new roll): the roll used last is final. */
    moveOn: () => calibration.played(event({ type: 'roll' }), { roll: null } as TableState, { roll: null } as TableState),
    /** BACK brought `roll` back. */
    back: (roll: PendingRoll) => calibration.played(event({ type: 'undo' }), { roll: null } as TableState, { roll } as TableState),
    /** Waits for what the used rolls teach or take back. */
    settle: () => calibration.close(),
    d6: () => calibration.status().find((s) => s.set === 'd6'),
    /** The labels pending per face (a set with none may not be shown at all). */
    samples: () => only(t.d6()?.samples ?? {}),
    files: () => (existsSync(path.join(calibrationDir, 'pending', 'd6')) ? readdirSync(path.join(calibrationDir, 'pending', 'd6')).sort() : []),
  };
  return t;
}

function only(counts: Record<string, number>): Record<string, number> {
  return { ...Object.fromEntries(FACES.map((f) => [f, 0])), ...counts };
}
const modes = [
  ['without a restart', false],
  ['over a restart', true],
] as const;

describe.skipIf(!HAS_MODEL)('what clew remembers about the labels it gave', () => {
  it.each(modes)('a die labelled 4 and then 5 (%s) is one label, 5, and one crop of the save', async (_, restart) => {
    const t = await table();
    const roll = rollOf(['5', '1', '2', '3', '4', '6']);
    expect(await t.label(roll, 0, '4')).toMatchObject({ ok: true });
    await t.restart(restart);
    expect(await t.label(roll, 0, '5')).toMatchObject({ ok: true, state: { counts: only({ '5': 1 }) } });
    expect(t.samples()).toEqual(only({ '5': 1 }));
    expect(t.files()).toEqual(['000001-5.png']);
    expect(await t.label(roll, 0, '5')).toMatchObject({ ok: false, code: 'calibration/already-labelled' });
    // The save takes six crops, and says it checked six.
    for (const i of [1, 2, 3, 4, 5]) expect(await t.label(roll, i, roll.dice[i]!.face)).toMatchObject({ ok: true });
    expect(await t.handle('calibration/commit')).toMatchObject({ ok: true, state: only({ '1': 1, '2': 1, '3': 1, '4': 1, '5': 1, '6': 1 }) });
    expect(t.d6()?.accuracy?.crops).toBe(6);
  });

  it.each(modes)('a die labelled on the Teach tab (%s) is not taught again when its roll is used; the other die checked is', async (_, restart) => {
    const t = await table();
    const roll = rollOf(['5', '2'], { 0: '6', 1: '3' });
    expect(await t.label(roll, 0, '5')).toMatchObject({ ok: true });
    await t.restart(restart);
    t.use(roll);
    t.moveOn();
    await t.settle();
    expect(t.samples()).toEqual(only({ '2': 1, '5': 1 }));
    expect(t.files()).toEqual(['000000-5.png', '000001-2.png']);
  });

  it.each(modes)('a roll made final (%s) and brought back by BACK: its count and its labels are taken back', async (_, restart) => {
    const t = await table();
    const roll = rollOf(['3', '4'], { 0: '2' }); // a mis-tap "corrected" the 2 to a 3
    t.use(roll);
    t.moveOn();
    await t.settle();
    expect(t.d6()).toMatchObject({ samples: only({ '3': 1 }), inPlay: { dice: 2, right: 1, wrongUnmarked: 1 } });
    await t.restart(restart);
    t.back(roll);
    await t.settle();
    expect(t.d6()?.inPlay).toBeUndefined();
    expect(t.samples()).toEqual(only({}));
    expect(t.files()).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(t.dir, 'dice-in-play.json'), 'utf8')).d6).toMatchObject({ dice: 0, right: 0, wrongUnmarked: 0 });
  });

  it.each(modes)('a roll made final before its set was saved (%s) and brought back: its count is not taken from the count since the save', async (_, restart) => {
    const t = await table();
    const first = rollOf(['1', '2', '3', '4', '5', '6'], { 0: '2', 1: '3', 2: '4', 3: '5', 4: '6', 5: '1' });
    t.use(first);
    t.moveOn();
    await t.settle();
    expect(await t.handle('calibration/commit')).toMatchObject({ ok: true });
    const second = rollOf(['4']);
    t.use(second);
    t.moveOn();
    await t.settle();
    expect(t.d6()?.inPlay).toMatchObject({ dice: 1, since: 'save' });
    await t.restart(restart);
    t.back(first);
    await t.settle();
    expect(t.d6()?.inPlay).toMatchObject({ dice: 1, right: 1, since: 'save' });
  });

  it.each(modes)('a label a save took (%s): the same die labelled again is a new label, the save keeps the first, only its undo takes it back', async (_, restart) => {
    const t = await table();
    const roll = rollOf(['5', '1', '2', '3', '4', '6', '1']);
    for (const [i, face] of ['4', '1', '2', '3', '5', '6'].entries()) expect(await t.label(roll, i, face)).toMatchObject({ ok: true });
    expect(await t.handle('calibration/commit')).toMatchObject({ ok: true });
    expect(t.files()).toEqual([]);
    await t.restart(restart);
    // A new die first: after a restart its crop takes the number the first die's label had.
    expect(await t.label(roll, 6, '1')).toMatchObject({ ok: true });
    expect(await t.label(roll, 0, '5')).toMatchObject({ ok: true });
    expect(t.samples()).toEqual(only({ '1': 1, '5': 1 }));
    expect(t.files()).toHaveLength(2);
    expect(await t.label(roll, 0, '5')).toMatchObject({ ok: false, code: 'calibration/already-labelled' });
    expect(t.d6()?.active).toBe(true);
    expect(await t.handle('calibration/undo')).toMatchObject({ ok: true });
    expect(t.d6()).toMatchObject({ active: false, samples: only({ '1': 1, '5': 1 }) });
  });

  it.each(modes)('a save undone (%s) takes its Teach labels with it: the same die labelled the same face again is a new label, not "labelled already"', async (_, restart) => {
    const t = await table();
    const roll = rollOf(FACES);
    for (const [i, face] of FACES.entries()) expect(await t.label(roll, i, face)).toMatchObject({ ok: true });
    expect(await t.handle('calibration/commit')).toMatchObject({ ok: true });
    await t.restart(restart);
    // Still the save's while it is in force.
    expect(await t.label(roll, 0, '1')).toMatchObject({ ok: false, code: 'calibration/already-labelled' });
    expect(await t.handle('calibration/undo')).toMatchObject({ ok: true });
    // Nothing holds the six labels now: not pending, not in a calibration in force.
    expect(t.d6()?.active ?? false).toBe(false);
    expect(t.files()).toEqual([]);
    await t.restart(restart);
    expect(await t.label(roll, 0, '1')).toMatchObject({ ok: true });
    expect(t.samples()).toEqual(only({ '1': 1 }));
  });

  it('a torn count of the dice in play is kept aside and counting starts afresh, each set\'s generation too: a BACK to a roll counted before takes nothing from the fresh count', async () => {
    const t = await table();
    const a = rollOf(['1', '2']);
    const b = { ...rollOf(['3', '4']), dice: rollOf(['3', '4']).dice.map((d, i) => ({ ...d, box: [10 + i, 0, image.width, image.height] as Box })) };
    t.use(a);
    t.moveOn();
    await t.restart(true);
    const torn = '{"d6": {"dice": 2, "ri';
    const file = path.join(t.dir, 'dice-in-play.json');
    writeFileSync(file, torn);
    await t.restart(true);
    expect(t.logger.lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/dice-in-play\.json is not a count of dice in play \(.+\); counting afresh \(kept as dice-in-play\.json\.corrupt-\d+\)$/) });
    const aside = readdirSync(t.dir).filter((n) => n.startsWith('dice-in-play.json.corrupt-'));
    expect(aside.map((n) => readFileSync(path.join(t.dir, n), 'utf8'))).toEqual([torn]);
    t.use(b);
    t.moveOn();
    await t.settle();
    expect(t.d6()?.inPlay).toMatchObject({ dice: 2 });
    t.back(a);
    await t.settle();
    expect(t.d6()?.inPlay).toMatchObject({ dice: 2 });
    // Over a restart too (the fresh generation is remembered).
    await t.restart(true);
    t.back(a);
    await t.settle();
    expect(JSON.parse(readFileSync(file, 'utf8')).d6).toMatchObject({ dice: 2 });
  });

  it('a torn or hand-edited memory is reported by name, kept aside and not used; clew starts with its labels pending; a torn write\'s temporary is removed', async () => {
    const t = await table();
    const roll = rollOf(['5']);
    expect(await t.label(roll, 0, '4')).toMatchObject({ ok: true });
    const file = path.join(t.dir, 'calibration', 'label-memory.json');
    for (const broken of ['{"teach": [{"at": 7, "box": [0, 0', JSON.stringify({ teach: [{ at: 7, box: [0, 0, 1, 1], set: 'd6', face: '9', label: 0, right: false }], finals: [], generations: {} })]) {
      await t.settle();
      writeFileSync(file, broken);
      await t.restart();
      expect(t.logger.lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/^calibration: .*calibration\/label-memory\.json is not a memory of the dice labelled \(.+\); they are not remembered \(kept as label-memory\.json\.corrupt-\d+\)$/) });
      expect(t.samples()).toEqual(only({ '4': 1 }));
      expect(t.files()).toEqual(['000000-4.png']);
    }
    expect(t.logger.lines.filter((l) => l.level === 'warn')).toHaveLength(2);
    expect(t.logger.lines.find((l) => l.message.includes('face: not a face of its set'))).toBeDefined();
    expect(readdirSync(path.join(t.dir, 'calibration')).filter((n) => n.startsWith('label-memory.json.corrupt-'))).toHaveLength(2);
    // A write a cut short leaves a temporary: removed at the start, quietly.
    writeFileSync(`${file}.tmp-123-4`, '{"teach": [');
    await t.restart();
    expect(existsSync(`${file}.tmp-123-4`)).toBe(false);
    // Forgotten, the die labelled again is a second label; remembered from now on.
    expect(await t.label(roll, 0, '5')).toMatchObject({ ok: true });
    expect(t.samples()).toEqual(only({ '4': 1, '5': 1 }));
    await t.restart();
    expect(await t.label(roll, 0, '6')).toMatchObject({ ok: true });
    expect(t.samples()).toEqual(only({ '4': 1, '6': 1 }));
    expect(t.logger.lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });
});
