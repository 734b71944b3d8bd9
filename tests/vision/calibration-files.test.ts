/**
 * A table's calibration files survive what a table does to them: a torn or hand-edited file is
 * reported and left out, not fatal to the reader; an undo whose file cannot come back changes
 * nothing; a save that cannot be written leaves the calibration in force; bookkeeping calls on a
 * set that is not a dice set, or a discard while a set is fitted, are refused before they touch
 * the folder.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiceSetId } from '../../shared/dice.js';
import { decodeImage } from '../../vision/image/decode.js';
import { DEFAULT_MODEL_DIR } from '../../vision/model/classifier.js';
import { readFaceFolders } from '../../vision/model/labelled-folder.js';
import { countPendingOnDisk, PendingCropStore } from '../../vision/model/pending-store.js';
import { loadDiceReader, type ClewDiceReader } from '../../vision/reader.js';
import type { RgbImage } from '../../vision/types.js';
import { heicPhoto } from '../support/heic.js';
import { scratchDir } from '../support/scratch.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/dice-real');
const HAS_MODEL = existsSync(path.join(DEFAULT_MODEL_DIR, 'meta.json'));
const scratch = () => scratchDir('clew-cal-files-');
let crops: { face: string; image: RgbImage; file: string }[] = [];
const readers: ClewDiceReader[] = [];

/** A reader on `dir` (the last-layer refit, or two adaptation steps of the whole net), and the warnings it gave while loading. */
async function readerOn(dir: string, calibrate: 'head' | 'net' = 'head'): Promise<{ reader: ClewDiceReader; warnings: string[] }> {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    const reader = await loadDiceReader({ calibrationDir: dir, calibrate, adapt: { steps: 2 } });
    readers.push(reader);
    await new Promise((r) => setImmediate(r));
    return { reader, warnings };
  } finally {
    process.off('warning', onWarning);
  }
}

/** Every fixture crop taught, then committed as `createdAt`. */
async function calibrate(reader: ClewDiceReader, createdAt: string): Promise<void> {
  for (const c of crops) await reader.calibration.add('d6', c.face, c.image);
  await reader.calibration.commit('d6', { createdAt });
}

const inForce = (reader: ClewDiceReader) => reader.calibration.list().map((c) => `${c.set}@${c.createdAt}`);
const stamp = (dir: string, name: string) => (JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as { createdAt: string }).createdAt;

beforeAll(async () => {
  const labels = readFileSync(path.join(fixtures, 'labels.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  crops = await Promise.all(labels.map(async ([file, face]) => ({ face: face!, file: path.join(fixtures, file!), image: await decodeImage(readFileSync(path.join(fixtures, file!))) })));
});

afterAll(() => {
  for (const r of readers) r.dispose();
});

describe.skipIf(!HAS_MODEL)('calibration files a table has damaged', () => {
  it('a torn file of one set is reported by name; the reader loads, with the other sets in force', async () => {
    const dir = scratch();
    await calibrate((await readerOn(dir)).reader, 'kept');
    writeFileSync(path.join(dir, 'worm.json'), '{"version":2,"set":"worm","modelId":"x","crea');
    const { reader, warnings } = await readerOn(dir);
    expect(inForce(reader)).toEqual(['d6@kept']);
    expect(warnings.join('\n')).toMatch(/calibration of worm: cannot read calibration .*worm\.json: .*JSON.*; ignored/);
    expect((await reader.read(crops[0]!.image, { sets: ['worm'] })).length).toBeGreaterThanOrEqual(0);
  });

  it('a hand-edited file whose rows do not fit the model is left out at load, and the set reads with the shipped model', async () => {
    const dir = scratch();
    await calibrate((await readerOn(dir)).reader, 'edited');
    const file = path.join(dir, 'd6.json');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { weights: number[][] };
    json.weights = json.weights.map((row) => row.slice(1));
    writeFileSync(file, JSON.stringify(json));
    const { reader, warnings } = await readerOn(dir);
    expect(inForce(reader)).toEqual([]);
    expect(warnings.join('\n')).toMatch(/calibration of d6 .*: 95 weights per class for the model's embedding of 96; ignored/);
    const read = await reader.readCrops([crops[0]!.image], { sets: ['d6'] });
    expect(read).toHaveLength(1);
  });

  it('a file that names another set is not put in force for this one', async () => {
    const dir = scratch();
    await calibrate((await readerOn(dir)).reader, 'mine');
    const json = JSON.parse(readFileSync(path.join(dir, 'd6.json'), 'utf8')) as { set: string };
    writeFileSync(path.join(dir, 'worm.json'), JSON.stringify(json));
    const { reader, warnings } = await readerOn(dir);
    expect(inForce(reader)).toEqual(['d6@mine']);
    expect(warnings.join('\n')).toMatch(/worm\.json: a calibration of d6, not of worm/);
  });

  it('an undo whose previous file is torn is refused, and the files and the calibration in force stay as they were', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir);
    await calibrate(reader, 'first');
    await calibrate(reader, 'second');
    const prev = path.join(dir, 'd6.previous.json');
    writeFileSync(prev, readFileSync(prev, 'utf8').slice(0, 100));
    const before = readdirSync(dir).sort();
    await expect(reader.calibration.undo('d6')).rejects.toThrow(/the one before cannot be restored .*d6\.previous\.json.*nothing was undone/);
    expect(inForce(reader)).toEqual(['d6@second']);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(stamp(dir, 'd6.json')).toBe('second');
    expect(inForce((await readerOn(dir)).reader)).toEqual(['d6@second']);
  });

  it('two undos at once (a double tap, two referees): the second is refused, and the disk holds what is in force', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir);
    await calibrate(reader, 'first');
    await calibrate(reader, 'second');
    const [one, two] = await Promise.allSettled([reader.calibration.undo('d6'), reader.calibration.undo('d6')]);
    expect(one.status).toBe('fulfilled');
    expect(two).toMatchObject({ status: 'rejected', reason: { message: 'calibration of d6 is being undone already' } });
    expect(inForce(reader)).toEqual(['d6@first']);
    expect(stamp(dir, 'd6.json')).toBe('first');
    expect(stamp(dir, 'd6.previous.json')).toBe('second');
    expect(inForce((await readerOn(dir)).reader)).toEqual(['d6@first']);
    // And an undo while the set is fitted is refused too (it would restore under the save).
    for (const c of crops) await reader.calibration.add('d6', c.face, c.image);
    const fitting = reader.calibration.commit('d6', { createdAt: 'third' });
    await expect(reader.calibration.undo('d6')).rejects.toThrow('calibration of d6 is being fitted; undo it once it is saved');
    await fitting;
    expect(inForce(reader)).toEqual(['d6@third']);
  });

  it('an undo whose previous file does not fit the model is refused the same way', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir);
    await calibrate(reader, 'first');
    await calibrate(reader, 'second');
    const prev = path.join(dir, 'd6.previous.json');
    const json = JSON.parse(readFileSync(prev, 'utf8')) as { weights: number[][] };
    writeFileSync(prev, JSON.stringify({ ...json, weights: json.weights.map((row) => [...row, 0]) }));
    await expect(reader.calibration.undo('d6')).rejects.toThrow(/does not fit the model .*97 weights per class.*nothing was undone/);
    expect(inForce(reader)).toEqual(['d6@second']);
    expect(stamp(dir, 'd6.json')).toBe('second');
  });

  it('a save that cannot be written (a full disk, a failing card) leaves the calibration in force, on disk and after a restart', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir);
    await calibrate(reader, 'first');
    await calibrate(reader, 'second');
    // The new file's temporary name taken by a folder: its write fails as a full disk's would.
    mkdirSync(path.join(dir, `d6.json.tmp-${process.pid}`));
    await expect(calibrate(reader, 'third')).rejects.toThrow(/EISDIR/);
    expect(inForce(reader)).toEqual(['d6@second']);
    expect([stamp(dir, 'd6.json'), stamp(dir, 'd6.previous.json')]).toEqual(['second', 'first']);
    // The labels it would have used are still pending.
    expect(Object.values(reader.calibration.pending('d6').counts).reduce((a, b) => a + b, 0)).toBe(crops.length);
    const { reader: again, warnings } = await readerOn(dir);
    expect(inForce(again)).toEqual(['d6@second']);
    expect(warnings).toEqual([]);
    // Undo still brings the one before back.
    expect((await again.calibration.undo('d6'))?.createdAt).toBe('first');
  });
});

describe.skipIf(!HAS_MODEL)('calibration bookkeeping refuses what would lose labels', () => {
  it('a set that is not a dice set is refused by every call, and the folder is left alone', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir);
    await calibrate(reader, 'kept');
    const before = readdirSync(dir).sort();
    const bad = '..' as DiceSetId;
    expect(() => reader.calibration.pending(bad)).toThrow(/unknown dice set "\.\."/);
    await expect(reader.calibration.discard(bad)).rejects.toThrow(/unknown dice set/);
    await expect(reader.calibration.commit(bad)).rejects.toThrow(/unknown dice set/);
    await expect(reader.calibration.undo(bad)).rejects.toThrow(/unknown dice set/);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('a discard while the set is fitted is refused; labels given meanwhile stay pending, on disk too', async () => {
    const dir = scratch();
    const { reader } = await readerOn(dir, 'net');
    for (const c of crops) await reader.calibration.add('d6', c.face, c.image);
    const fitting = reader.calibration.commit('d6', { createdAt: 'fitted' });
    await expect(reader.calibration.discard('d6')).rejects.toThrow(/being fitted/);
    await reader.calibration.add('d6', '4', crops[6]!.image);
    await fitting;
    expect(reader.calibration.pending('d6').counts).toEqual({ '1': 0, '2': 0, '3': 0, '4': 1, '5': 0, '6': 0 });
    expect(readdirSync(path.join(dir, 'pending', 'd6'))).toEqual(['000012-4.png']);
    await reader.calibration.discard('d6');
    expect(reader.calibration.pending('d6').counts['4']).toBe(0);
  });
});

describe('labelled crops on disk', () => {
  it('numbering goes on after a discard, so a new crop never takes a name a commit still holds', async () => {
    const dir = scratch();
    const store = new PendingCropStore(dir);
    const crop: RgbImage = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 3).fill(128) };
    const first = await store.add('d6', '1', crop);
    await store.clear('d6');
    const second = await store.add('d6', '1', crop);
    expect([path.basename(first), path.basename(second)]).toEqual(['000000-1.png', '000001-1.png']);
  });

  it('a file named after no face is not counted (not even one named like an object\'s own keys)', async () => {
    const dir = scratch();
    mkdirSync(path.join(dir, 'pending', 'd6'), { recursive: true });
    for (const name of ['000000-2.png', '000001-constructor.png', '000002-toString.png']) writeFileSync(path.join(dir, 'pending', 'd6', name), '');
    expect(await countPendingOnDisk(dir, 'd6')).toEqual({ '1': 0, '2': 1, '3': 0, '4': 0, '5': 0, '6': 0 });
  });
});

describe('a folder of labelled pictures (--calibration DIR)', () => {
  it('takes every picture format clew reads, and says which files it skipped', async () => {
    const dir = scratch();
    const sharp = (await import('sharp')).default;
    const formats = ['jpg', 'png', 'webp', 'gif', 'tif', 'avif'];
    for (const [i, ext] of formats.entries()) {
      const face = String(i + 1);
      mkdirSync(path.join(dir, face));
      await sharp(crops.find((c) => c.face === face)!.file).toFormat(ext === 'tif' ? 'tiff' : ext === 'jpg' ? 'jpeg' : (ext as 'png')).toFile(path.join(dir, face, `a.${ext}`));
    }
    writeFileSync(path.join(dir, '6', 'notes.txt'), 'the green die');
    writeFileSync(path.join(dir, '6', '.DS_Store'), '');
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const read = await readFaceFolders('d6', dir);
      await new Promise((r) => setImmediate(r));
      expect(read.map((r) => `${r.face}:${path.extname(r.file)}`)).toEqual(formats.map((ext, i) => `${i + 1}:.${ext}`));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([`${path.join(dir, '6')}: "notes.txt" is not a picture clew reads (JPEG, PNG, WebP, GIF, TIFF, AVIF); skipped`]);
  });

  it('passes over hidden and system folders (a Mac zip\'s __MACOSX, a NAS\'s @eaDir) rather than refusing them as faces', async () => {
    const dir = scratch();
    for (const face of ['3', '.thumbnails', '__MACOSX', '@eaDir']) mkdirSync(path.join(dir, face));
    copyFileSync(crops.find((c) => c.face === '3')!.file, path.join(dir, '3', 'a.jpg'));
    copyFileSync(crops.find((c) => c.face === '3')!.file, path.join(dir, '__MACOSX', '._a.jpg'));
    expect((await readFaceFolders('d6', dir)).map((r) => path.relative(dir, r.file))).toEqual([path.join('3', 'a.jpg')]);
  });

  it('a folder of iPhone HEIC crops only: the refusal names them and says what to do, as the warnings are said before', async () => {
    const dir = scratch();
    mkdirSync(path.join(dir, '3'));
    mkdirSync(path.join(dir, '4'));
    writeFileSync(path.join(dir, '3', 'IMG_0001.HEIC'), await heicPhoto());
    writeFileSync(path.join(dir, '3', 'IMG_0002.HEIC'), await heicPhoto());
    writeFileSync(path.join(dir, '4', 'notes.txt'), 'the red die');
    const warned: string[] = [];
    await expect(readFaceFolders('d6', dir, 'whole', { warn: (m) => warned.push(m) })).rejects.toThrow(
      `${dir}: no labelled pictures (expected ${dir}/<face>/*.jpg with faces 1, 2, 3, 4, 5, 6). ` +
        `${path.join(dir, '3')}: no picture read: "IMG_0001.HEIC", "IMG_0002.HEIC" are HEIC photos (an iPhone camera's default format), which this build cannot decode: export them as JPEG, or set the iPhone's Settings → Camera → Formats to "Most Compatible"; skipped. ` +
        `${path.join(dir, '4')}: no picture read: "notes.txt" is not a picture clew reads (JPEG, PNG, WebP, GIF, TIFF, AVIF); skipped`,
    );
    // With pictures of another face, the folder that gave none is said through `warn`, at once.
    mkdirSync(path.join(dir, '5'));
    copyFileSync(crops.find((c) => c.face === '5')!.file, path.join(dir, '5', 'a.jpg'));
    expect((await readFaceFolders('d6', dir, 'whole', { warn: (m) => warned.push(m) })).map((r) => r.face)).toEqual(['5']);
    expect(warned).toEqual([
      `${path.join(dir, '3')}: no picture read: "IMG_0001.HEIC", "IMG_0002.HEIC" are HEIC photos (an iPhone camera's default format), which this build cannot decode: export them as JPEG, or set the iPhone's Settings → Camera → Formats to "Most Compatible"; skipped`,
      `${path.join(dir, '4')}: no picture read: "notes.txt" is not a picture clew reads (JPEG, PNG, WebP, GIF, TIFF, AVIF); skipped`,
    ]);
  });

  it('a broken link, beside the face folders or in one, is named as one; a corrupt crop is named without the decoder\'s prefix', async () => {
    const dir = scratch();
    mkdirSync(path.join(dir, '3'));
    copyFileSync(crops.find((c) => c.face === '3')!.file, path.join(dir, '3', 'a.jpg'));
    symlinkSync('/nowhere/faces', path.join(dir, 'dangling'));
    await expect(readFaceFolders('d6', dir)).rejects.toThrow(`${path.join(dir, 'dangling')}: a broken link: what it points to (/nowhere/faces) does not exist`);
    const inside = scratch();
    mkdirSync(path.join(inside, '3'));
    symlinkSync('/nowhere/b.jpg', path.join(inside, '3', 'b.jpg'));
    await expect(readFaceFolders('d6', inside)).rejects.toThrow(`${path.join(inside, '3', 'b.jpg')}: a broken link: what it points to (/nowhere/b.jpg) does not exist`);
    const torn = scratch();
    mkdirSync(path.join(torn, '3'));
    const jpeg = readFileSync(crops[0]!.file);
    writeFileSync(path.join(torn, '3', 'bad.jpg'), jpeg.subarray(0, jpeg.length >> 1));
    await expect(readFaceFolders('d6', torn)).rejects.toThrow(new RegExp(`^${path.join(torn, '3', 'bad.jpg').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: a corrupt or truncated image`));
  });
});
