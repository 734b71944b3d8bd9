/**
 * The `dice` command line, run as a user runs it: one JSON line per image in --json mode, real
 * frames and crops read, a missing, empty or corrupt file answered with an error line while the
 * other files are still read, exit code 1 when any file failed, 2 for bad arguments.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DICE_SETS, DICE_SET_IDS } from '../../shared/dice.js';
import { createRng } from '../../shared/rng.js';
import { EVAL_CASES, matchDice } from '../../vision/locate/evaluate.js';
import { renderScene } from '../../vision/synth/index.js';
import type { Box } from '../../vision/types.js';
import { heicPhoto } from '../support/heic.js';

const root = path.resolve(import.meta.dirname, '../..');
const fixtures = path.join(root, 'tests/fixtures/dice-real');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'clew-cli-'));
const corrupt = path.join(tmp, 'corrupt.jpg');
const empty = path.join(tmp, 'empty.jpg');
const missing = path.join(tmp, 'missing.jpg');
writeFileSync(corrupt, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('not really a jpeg at all')]));
writeFileSync(empty, '');
const labels = readFileSync(path.join(fixtures, 'labels.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
const crop = (i: number) => path.join(fixtures, labels[i]![0]!);

function dice(...args: string[]): { status: number | null; lines: Record<string, unknown>[]; stderr: string; stdout: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/dice.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  const lines = args.includes('--json') && r.stdout.trim() ? r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) : [];
  return { status: r.status, lines, stderr: r.stderr, stdout: r.stdout };
}

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('dice CLI', () => {
  it('reads a real frame, and answers a corrupt, an empty and a missing file with error lines (exit 1)', () => {
    const frame = path.join(fixtures, 'frame.jpg');
    const r = dice('--set', 'd6', '--json', frame, corrupt, empty, missing);
    expect(r.status).toBe(1);
    expect(r.lines.map((l) => l.file)).toEqual([frame, corrupt, empty, missing]);
    const [ok, bad, none, gone] = r.lines as [{ dice: { face: string; confidence: number; box: number[]; color: string }[] }, { error: string }, { error: string }, { error: string }];
    expect(ok.dice.length).toBeGreaterThanOrEqual(2);
    for (const d of ok.dice) {
      expect(DICE_SETS.d6.faces).toContain(d.face);
      expect(d.confidence).toBeGreaterThanOrEqual(0);
      expect(d.confidence).toBeLessThanOrEqual(1);
      expect(d.box).toHaveLength(4);
      expect(d.box.every(Number.isInteger)).toBe(true);
      expect(typeof d.color).toBe('string');
    }
    expect(bad.error).toMatch(/corrupt|truncated|not an image clew can read/i);
    expect(none.error).toMatch(/empty/i);
    expect(gone.error).toMatch(/no such file/);
  });

  it('--crop reads each image as one die; several sets add the set; a calibration folder applies', () => {
    const calDir = path.join(tmp, 'calibration');
    labels.forEach(([file, face]) => {
      mkdirSync(path.join(calDir, face!), { recursive: true });
      copyFileSync(path.join(fixtures, file!), path.join(calDir, face!, path.basename(file!)));
    });
    const r = dice('--set', 'd6,worm', '--json', '--crop', '--calibration', calDir, crop(0), crop(6));
    expect(r.stderr).toMatch(/applies to the first set, d6/);
    expect(r.status).toBe(0);
    for (const l of r.lines) {
      expect(Object.keys(l).sort()).toEqual(['color', 'confidence', 'face', 'file', 'set', 'uncertain']);
      expect(['d6', 'worm']).toContain(l.set);
    }
  });

  it('reads a picture whatever way up it was taken (--view any, the default); --view side takes the picture\'s up as the dice\'s', async () => {
    const turned = await Promise.all([0, 1, 2, 3].map(async (i) => {
      const file = path.join(tmp, `upside-down-${i}.png`);
      await sharp(crop(i)).rotate(180).png().toFile(file);
      return file;
    }));
    const upright = dice('--set', 'd6', '--json', '--crop', crop(0), crop(1), crop(2), crop(3));
    const upsideDown = dice('--set', 'd6', '--json', '--crop', ...turned);
    expect(upsideDown.status).toBe(0);
    expect(upsideDown.lines.map((l) => l.face)).toEqual(upright.lines.map((l) => l.face));
    const side = dice('--set', 'd6', '--json', '--crop', '--view', 'side', ...turned);
    expect(side.status).toBe(0);
    expect(side.lines.map((l) => l.confidence)).not.toEqual(upsideDown.lines.map((l) => l.confidence));
  });

  it('plain output is one readable line per file', () => {
    const r = dice('--set', 'd6', '--crop', crop(2), missing);
    expect(r.status).toBe(1);
    const out = r.stdout.trim().split('\n');
    expect(out[0]).toMatch(new RegExp(`^${crop(2).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: [1-6] \\(\\d+\\.\\d%`));
    expect(out[1]).toBe(`${missing}: error: no such file`);
    // A picture of one die read as a frame: its die touches the edge, and the line says what to do.
    const frame = dice('--set', 'd6', crop(2));
    expect(frame.stdout.trim()).toBe(`${crop(2)}: no dice found (a die the picture cuts is not read; for a picture of one die, use --crop)`);
  });

  it('--crop: a picture that shows several dice is read but marked, and says how many ("diceInPicture", not "dice": that key, an array, marks a frame\'s line), exit 0; one die\'s picture has no such field', async () => {
    // The real frame cut round its two labelled dice, half as wide again as they lie.
    const [a, b] = readFileSync(path.join(fixtures, 'frame.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').slice(1).map(Number));
    const u = [Math.min(a![0]!, b![0]!), Math.min(a![1]!, b![1]!), Math.max(a![2]!, b![2]!), Math.max(a![3]!, b![3]!)];
    const cx = (u[0]! + u[2]!) / 2, cy = (u[1]! + u[3]!) / 2, half = (1.5 * Math.max(u[2]! - u[0]!, u[3]! - u[1]!)) / 2;
    const two = path.join(tmp, 'two-dice.png');
    await sharp(path.join(fixtures, 'frame.jpg')).extract({ left: Math.round(cx - half), top: Math.round(cy - half), width: Math.round(2 * half), height: Math.round(2 * half) }).png().toFile(two);
    // And the whole frame, its dice 4 % of its side.
    const frame = path.join(fixtures, 'frame.jpg');
    const r = dice('--set', 'd6', '--json', '--crop', two, frame, crop(0));
    expect(r.status).toBe(0);
    const [many, tray, one] = r.lines;
    expect(many).toMatchObject({ file: two, diceInPicture: 2, uncertain: true });
    expect(many).not.toHaveProperty('dice');
    expect(many!.confidence as number).toBeLessThanOrEqual(0.5);
    expect(tray).toMatchObject({ file: frame, diceInPicture: 2, uncertain: true });
    expect(one).not.toHaveProperty('diceInPicture');
    expect(one).not.toHaveProperty('dice');
    const plain = dice('--set', 'd6', '--crop', two);
    expect(plain.stdout.trim()).toMatch(/, please confirm; the picture shows 2 dice: read it without --crop to read each\)$/);
  });

  it('--tray compares frames of its size with the empty tray, and says so on each line', async () => {
    // A rendered printed cloth (development scene "pattern" 6, seven dice) and its empty tray, as
    // JPEG files; and a real frame of another size.
    const pattern = EVAL_CASES.find((c) => c.name === 'pattern')!;
    const scene = renderScene(createRng('locate-eval:dev:pattern:6'), { width: 640, height: 640, ...pattern.options, empty: true });
    const write = (file: string, data: Uint8Array) => sharp(Buffer.from(data), { raw: { width: 640, height: 640, channels: 3 } }).jpeg({ quality: 95 }).toFile(file);
    const frame = path.join(tmp, 'cloth.jpg'), emptyTray = path.join(tmp, 'cloth-empty.jpg');
    await write(frame, scene.image.data);
    await write(emptyTray, scene.empty!.data);
    const real = path.join(fixtures, 'frame.jpg');
    const r = dice('--set', DICE_SET_IDS.join(','), '--json', '--tray', emptyTray, frame, real);
    expect(r.status).toBe(0);
    const [cloth, other] = r.lines as [{ tray: string; dice: { box: Box }[] }, { tray: string; dice: unknown[] }];
    expect(cloth.tray).toBe('used');
    const m = matchDice(scene.dice.map((d) => d.box), cloth.dice.map((d) => d.box));
    expect(m.hit.filter(Boolean).length).toBeGreaterThanOrEqual(6);
    expect(m.spurious).toEqual([]);
    expect(other.tray).toBe('other-size');
    expect(other.dice.length).toBeGreaterThanOrEqual(2);
    // Without the empty tray, the cloth's print hides these dice.
    const plain = dice('--set', DICE_SET_IDS.join(','), '--json', frame);
    const before = matchDice(scene.dice.map((d) => d.box), (plain.lines[0] as { dice: { box: Box }[] }).dice.map((d) => d.box));
    expect(before.hit.filter(Boolean).length).toBeLessThanOrEqual(2);
    // A missing picture of the tray, or one with --crop, is refused before any frame is read.
    const gone = dice('--set', 'd6', '--json', '--tray', missing, real);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toMatch(/--tray: no such file/);
    expect(gone.lines).toEqual([]);
    const crops = dice('--set', 'd6', '--crop', '--tray', emptyTray, crop(0));
    expect(crops.status).toBe(2);
    expect(crops.stderr).toMatch(/--tray is for frames/);
  });

  it('refuses an unknown dice set, colour, camera view, way to calibrate or working size before loading anything (exit 2)', () => {
    const r = dice('--set', 'd6,d20', '--json', crop(0));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/"d20" is not a dice set/);
    expect(r.lines).toEqual([]);
    const c = dice('--set', 'd6', '--palette', 'red,teal', crop(0));
    expect(c.status).toBe(2);
    expect(c.stderr).toMatch(/"teal" is not a die colour/);
    const h = dice('--set', 'd6', '--calibration', tmp, '--calibrate', 'tail', crop(0));
    expect(h.status).toBe(2);
    expect(h.stderr).toMatch(/--calibrate must be net or head, got "tail"/);
    const v = dice('--set', 'd6', '--json', '--view', 'sideways', crop(0));
    expect(v.status).toBe(2);
    expect(v.stderr).toMatch(/--view must be any, side or overhead, got "sideways"/);
    const w = dice('--set', 'd6', '--json', '--working-size', '12', crop(0));
    expect(w.status).toBe(2);
    expect(w.stderr).toMatch(/--working-size must be a whole number of pixels from 160 to 4096, got "12"/);
    const p = dice('--set', 'd6', '--json', '--palette', '', crop(0));
    expect(p.status).toBe(2);
    expect(p.stderr).toMatch(/--palette names at least one die colour/);
  });

  it('usage errors exit 2, not 1 (which says a file could not be read): a missing or repeated --set, an unknown flag, no files, a model folder that is not one', () => {
    const cases: [string[], RegExp][] = [
      [['--json', crop(0)], /required option '--set <ids>' not specified/],
      [['--set', 'd6', '--set', 'worm', '--json', crop(0)], /--set is given twice \("d6", then "worm"\)/],
      [['--set', 'd6', '--jsn', crop(0)], /unknown option '--jsn'/],
      [['--set', 'd6', '--json'], /missing required argument 'files'/],
      [['--set', 'd6', '--json', '--model', path.join(tmp, 'no-model'), crop(0)], /dice: --model: cannot read .*no-model.*meta\.json/],
    ];
    for (const [args, message] of cases) {
      const r = dice(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });

  it('a set named twice is read once (no "set" field); "-" says standard input is not read; a reader that stops reading ends the run quietly', () => {
    const frame = path.join(fixtures, 'frame.jpg');
    const r = dice('--set', 'd6, d6', '--json', '--crop', crop(0), '-');
    expect(r.status).toBe(1);
    expect(r.lines[0]).not.toHaveProperty('set');
    expect(r.lines[1]).toEqual({ file: '-', error: 'no such file (standard input is not read: name the image files)' });
    // `| head -c 1`: the pipe closes after the first byte.
    const piped = spawnSync('sh', ['-c', `"${process.execPath}" node_modules/tsx/dist/cli.mjs scripts/dice.ts --set d6 --json ${Array(8).fill(`"${frame}"`).join(' ')} | head -c 1; exit "\${PIPESTATUS:-0}"`], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(piped.stdout).toBe('{');
    expect(piped.stderr).not.toMatch(/EPIPE|Unhandled/);
  });

  it('a picture over 24 MP (read shrunk) gives its boxes in its own upright pixels: the same frame 8× as large, stored on its side, has the boxes 8× as large', async () => {
    const frame = path.join(fixtures, 'frame.jpg');
    // 7,680×4,320 upright (33 MP), stored turned a quarter anticlockwise with EXIF orientation 6.
    const big = path.join(tmp, 'phone-33mp.jpg');
    const upright = await sharp(frame).resize(7680, 4320).raw().toBuffer({ resolveWithObject: true });
    await sharp(upright.data, { raw: upright.info }).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 80 }).toFile(big);
    const r = dice('--set', 'd6', '--json', frame, big);
    expect(r.status).toBe(0);
    const [small, large] = r.lines as [{ dice: { box: Box }[] }, { dice: { box: Box }[] }];
    expect(large.dice.length).toBe(small.dice.length);
    for (const d of small.dice) {
      const expected = d.box.map((v) => 8 * v);
      const nearest = large.dice.map((l) => l.box).sort((a, b) => Math.abs(a[0] - expected[0]!) - Math.abs(b[0] - expected[0]!))[0]!;
      // Read shrunk to 24 MP, boxes left unscaled were 0.85× as large: 600 px off here.
      nearest.forEach((v, i) => expect(Math.abs(v - expected[i]!), `${JSON.stringify(nearest)} against ${JSON.stringify(expected)}`).toBeLessThanOrEqual(48));
    }
  });

  it('files of a phone\'s camera folder that are no pictures (a video, a file too big for a picture, an SVG) are refused from their first bytes and size, each on its line; the pictures are read (exit 1)', () => {
    const frame = path.join(fixtures, 'frame.jpg');
    // Sparse: large, but nothing on disk.
    const video = path.join(tmp, 'IMG_0002.MOV');
    writeFileSync(video, Buffer.from('\0\0\0\x14ftypqt  \0\0\0\0qt  ', 'latin1'));
    truncateSync(video, 200_000_000);
    const huge = path.join(tmp, 'huge.jpg');
    writeFileSync(huge, Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
    truncateSync(huge, 400_000_000);
    const svg = path.join(tmp, 'drawing.svg');
    writeFileSync(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"/>');
    const r = dice('--set', 'd6', '--json', video, huge, svg, frame);
    expect(r.status).toBe(1);
    expect(r.lines.slice(0, 3)).toEqual([
      { file: video, error: 'not an image clew can read (JPEG, PNG, WebP, GIF, TIFF, AVIF; this is a video (MP4 or MOV); 200000000 bytes)' },
      { file: huge, error: 'too big to be a picture clew reads (400 MB; at most 300 MB)' },
      { file: svg, error: expect.stringMatching(/^not an image clew can read \(JPEG, PNG, WebP, GIF, TIFF, AVIF; this is an SVG drawing; \d+ bytes\)$/) },
    ]);
    expect((r.lines[3] as { dice: unknown[] }).dice.length).toBeGreaterThanOrEqual(2);
  });

  it('--tray given a folder says so, as a file given as one does (exit 2)', () => {
    const folder = path.join(tmp, 'tray-folder.jpg');
    mkdirSync(folder, { recursive: true });
    const r = dice('--set', 'd6', '--json', '--tray', folder, path.join(fixtures, 'frame.jpg'));
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`dice: --tray: ${folder}: is a folder, not an image\n`);
  });

  it('--calibration: a face folder of iPhone HEIC crops is said, with what to do, before the calibration is refused for want of that face', async () => {
    const calDir = path.join(tmp, 'calibration-heic');
    labels.filter(([, face]) => face !== '4').forEach(([file, face]) => {
      mkdirSync(path.join(calDir, face!), { recursive: true });
      copyFileSync(path.join(fixtures, file!), path.join(calDir, face!, path.basename(file!)));
    });
    mkdirSync(path.join(calDir, '4'), { recursive: true });
    writeFileSync(path.join(calDir, '4', 'IMG_0001.HEIC'), await heicPhoto());
    const r = dice('--set', 'd6', '--json', '--crop', '--calibrate', 'head', '--calibration', calDir, crop(0));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^dice: --calibration: .*calibration-heic\/4: no picture read: "IMG_0001.HEIC" is an HEIC photo .*export it as JPEG.*skipped\n/);
    expect(r.stderr).toMatch(/needs at least one crop of every face; missing: 4/);
  });
});
