/**
 * Trains the sheet cell classifier and writes vision/sheet/cell-model.json:
 *
 *   npx tsx vision/sheet/train-cells.ts [--dense 120] [--games 80] [--cache tmp/sheets/cache] [--epochs 30]
 *
 * Training photos are synthetic (vision/sheet/synth): `dense-<i>` (boards packed with organ letters,
 * for the letters) and `tune-<i>` (random legal games, for everything else). Each is registered and
 * rectified exactly as the reader does, and the rectified board is cached (PNG + truth JSON) so a
 * re-run only measures and trains. The `eval-<i>` photos of `npm run eval:sheets` and the `test-<i>`
 * photos of the tests are never used here. The last tenth of the game photos is held out and its
 * accuracy recorded in the model file. Training takes a few tens of minutes on two loaded cores.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { Command } from 'commander';
import { getChapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { sheetLayout } from '../../shared/games/worm-and-cozy/sheet-layout.js';
import type { Worm } from '../../shared/games/worm-and-cozy/state.js';
import { createRng } from '../../shared/rng.js';
import { CELL_CLASSES, type CellClass } from './assemble.js';
import { cellExtras, cellImage, CELL_EXTRAS, CELL_IMAGE, CELL_IMAGE_MM, photoPencil } from './cells.js';
import { MODEL_FILE, type CellModel } from './classify.js';
import { boardRect, BOARD_PPM, measureRectified } from './measure.js';
import { classify, cnnToJson, createCnn, trainCnn, type CnnSample } from './cnn.js';
import { registerPhoto } from './photo.js';
import { rectify } from './register.js';
import { synthSheetPhoto } from './synth/index.js';

interface Cached {
  seed: string;
  chapter: string;
  worms: Worm[];
  foods: number[];
  cells: string[];
  error?: string;
}

/** The class of every cell of a truth (rocks: null, not trained on). */
export function trueClasses(t: Pick<Cached, 'worms' | 'cells'>): (CellClass | null)[] {
  const out: (CellClass | null)[] = t.cells.map((c) => (c === 'rock' ? null : c === 'worm' ? 'band' : (c as CellClass)));
  for (const w of t.worms) for (const o of w.organs) out[o.cell] = o.type === 'brain' && o.filled ? 'usedBrain' : o.type;
  return out;
}

async function cached(dir: string, seed: string, content: 'game' | 'dense'): Promise<Cached | null> {
  const json = path.join(dir, `${seed}.json`);
  if (!existsSync(json)) {
    const p = await synthSheetPhoto(seed, { content });
    const ch = getChapter(p.truth.chapterId);
    let record: Cached = { seed, chapter: ch.id, worms: p.truth.worms, foods: p.truth.foods, cells: p.truth.cells };
    try {
      const r = await registerPhoto(p.jpeg, ch);
      const img = rectify(r.grey, r.registration, boardRect(r.layout), BOARD_PPM);
      await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } }).png().toFile(path.join(dir, `${seed}.png`));
    } catch (error) {
      record = { ...record, error: error instanceof Error ? error.message : String(error) };
    }
    writeFileSync(json, JSON.stringify(record));
  }
  const t = JSON.parse(readFileSync(json, 'utf8')) as Cached;
  return t.error ? null : t;
}

/** Cell images one pixel ring wider than the network's (for shifting), with extras and labels. */
const PAD = 2;

async function samples(dir: string, t: Cached, keep: (cls: CellClass) => boolean): Promise<CnnSample[]> {
  const { data, info } = await sharp(path.join(dir, `${t.seed}.png`)).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const ch = getChapter(t.chapter);
  const m = measureRectified({ width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) }, sheetLayout(ch));
  const pencil = photoPencil(m.cells);
  const cls = trueClasses(t);
  const out: CnnSample[] = [];
  m.cells.forEach((c, i) => {
    const k = cls[i];
    if (!k || !keep(k)) return;
    const col = i % m.raster.columns;
    const row = Math.floor(i / m.raster.columns);
    out.push({ image: cellImage(m.raster, col, row, pencil, CELL_IMAGE + 2 * PAD), extras: cellExtras(c, pencil), label: CELL_CLASSES.indexOf(k) });
  });
  return out;
}

/** The centre crop of a padded sample, or a shifted one; ink scaled a little either way. */
function crop(s: CnnSample, dx: number, dy: number, gain: number): CnnSample {
  const n = CELL_IMAGE + 2 * PAD;
  const image = new Float32Array(CELL_IMAGE * CELL_IMAGE);
  for (let j = 0; j < CELL_IMAGE; j++) for (let i = 0; i < CELL_IMAGE; i++) image[j * CELL_IMAGE + i] = Math.min(1.5, s.image[(j + PAD + dy) * n + i + PAD + dx]! * gain);
  return { image, extras: s.extras.map((v) => Math.min(3, v * gain)), label: s.label };
}

const program = new Command()
  .name('train-cells')
  .option('--dense <n>', 'dense training photos', '120')
  .option('--games <n>', 'game training photos', '80')
  .option('--cache <dir>', 'where rectified boards are cached', 'tmp/sheets/cache')
  .option('--epochs <n>', 'training epochs', '14')
  .option('--hidden <n>', 'hidden units', '48')
  .option('--out <file>', 'model file', MODEL_FILE)
  .parse();
const o = program.opts<{ dense: string; games: string; cache: string; epochs: string; hidden: string; out: string }>();
mkdirSync(o.cache, { recursive: true });

const train_: CnnSample[] = [];
const held: CnnSample[] = [];
const games = Number(o.games);
const heldFrom = Math.floor(games * 0.9);
const sub = createRng('sheet-cells-subsample');
// Dense photos are for the letters: keep every organ, a few of their plain cells.
const lettersOnly = (k: CellClass) => !(k === 'blank' || k === 'band' || k === 'food') || sub.next() < 0.25;
const most = (k: CellClass) => k !== 'blank' || sub.next() < 0.5;
for (let i = 0; i < Number(o.dense); i++) {
  const t = await cached(o.cache, `dense-${i}`, 'dense');
  if (t) train_.push(...(await samples(o.cache, t, lettersOnly)));
  process.stderr.write('d');
}
for (let i = 0; i < games; i++) {
  const t = await cached(o.cache, `tune-${i}`, 'game');
  if (t) {
    if (i >= heldFrom) held.push(...(await samples(o.cache, t, () => true)).map((s) => crop(s, 0, 0, 1)));
    else train_.push(...(await samples(o.cache, t, most)));
  }
  process.stderr.write('g');
}
process.stderr.write(`\n${train_.length} training cells, ${held.length} held out\n`);

const rng = createRng('sheet-cells');
const net = createCnn(rng, CELL_IMAGE, CELL_EXTRAS, CELL_CLASSES.length, [8, 16, 24], [5, 3, 3], Number(o.hidden));
const counts = CELL_CLASSES.map((_, k) => train_.filter((s) => s.label === k).length);
const top = Math.max(...counts);
// Rare classes weigh more (a used brain is rarer than a blank cell), but not overwhelmingly.
const classWeights = counts.map((c) => Math.min(3, 0.5 + Math.sqrt(top / Math.max(1, c)) / 2));
function heldOut(): { right: number; confusion: number[][] } {
  let right = 0;
  const confusion = CELL_CLASSES.map(() => CELL_CLASSES.map(() => 0));
  for (const s of held) {
    const p = classify(net, s.image, s.extras);
    let b = 0;
    for (let k = 1; k < p.length; k++) if (p[k]! > p[b]!) b = k;
    if (b === s.label) right++;
    confusion[s.label]![b]!++;
  }
  return { right, confusion };
}

/** Writes the model file; called after every epoch, so a long run can be stopped with a usable model. */
function save(epochs: number): number {
  const { right, confusion } = heldOut();
  const model: CellModel = {
    version: 2,
    classes: [...CELL_CLASSES],
    image: CELL_IMAGE,
    imageMm: CELL_IMAGE_MM,
    extras: CELL_EXTRAS,
    cnn: cnnToJson(net),
    trainedOn: {
      photos: { dense: Number(o.dense), games: heldFrom, heldOut: games - heldFrom },
      cells: train_.length,
      classCounts: Object.fromEntries(CELL_CLASSES.map((c, k) => [c, counts[k]])),
      epochs,
      heldOutAccuracy: held.length ? Math.round((right / held.length) * 1e5) / 1e5 : null,
      heldOutConfusion: confusion,
      command: `npx tsx vision/sheet/train-cells.ts --dense ${o.dense} --games ${o.games} --epochs ${o.epochs} --hidden ${o.hidden}`,
    },
  };
  writeFileSync(o.out, JSON.stringify(model) + '\n');
  return held.length ? right / held.length : 0;
}

trainCnn(net, train_, rng, {
  epochs: Number(o.epochs),
  batch: 32,
  lr: 0.002,
  classWeights,
  augment: (s, r) => crop(s, r.int(-PAD, PAD), r.int(-PAD, PAD), r.range(0.8, 1.25)),
  log: (e, l) => process.stderr.write(`epoch ${e + 1}: loss ${l.toFixed(4)}, held-out accuracy ${(100 * save(e + 1)).toFixed(2)}%\n`),
});
const right = heldOut().right;
process.stdout.write(`${o.out}: held-out accuracy ${held.length ? ((100 * right) / held.length).toFixed(2) : '-'}% on ${held.length} cells\n`);
