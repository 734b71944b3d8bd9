/**
 * `npm run eval:dice`: how well clew reads dice, as markdown for the README.
 *
 *   1. real Catan crops (d6), no calibration: accuracy per face and the confusion matrix;
 *   2. the same after calibrating with 5 crops per face from that folder (seeded choice),
 *      scored on the remaining crops;
 *   3. the real Catan frames: dice found / missed / spurious against the labelled boxes;
 *   4. seeded rendered trays from the side (upright and turned) and from overhead, read in each view;
 *   5. a seeded synthetic test split (never used in training): accuracy per dice set.
 *
 * Reads ../shared/dice-real by default (or --real DIR). Validation only: nothing here feeds
 * training or thresholds. Not part of `npm test`.
 */
import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DICE_SETS, DICE_SET_IDS, DIE_COLORS, type DiceSetId } from '../shared/dice.js';
import { createRng } from '../shared/rng.js';
import { CROP_SCALE, squareAround, squareCrop } from '../vision/image/crop.js';
import { clampRound, createImage, cropRect, paste } from '../vision/image/image.js';
import { greyToRgb, toGrey } from '../vision/image/color.js';
import { resize } from '../vision/image/resize.js';
import { uprightCrop } from '../vision/image/upright.js';
import { classOf } from '../vision/faces/classes.js';
import { decodeImage } from '../vision/image/decode.js';
import { loadOrRenderDataset } from '../vision/model/dataset-store.js';
import type { SynthKnobs } from '../vision/synth/knobs.js';
import { renderScene } from '../vision/synth/scene.js';
import { evaluate } from '../vision/model/evaluate.js';
import { frameDieImage } from '../vision/model/framing.js';
import { learnEmptyTray } from '../vision/empty-tray.js';
import { loadDiceReader } from '../vision/reader.js';
import { expectationOf } from '../vision/fit-roll.js';
import { cozyDiceRequest } from '../shared/games/worm-and-cozy/dice.js';
import { DEFAULT_CHAPTER_ID, loadChapter } from '../shared/games/worm-and-cozy/chapters.js';
import { iou } from '../vision/stream.js';
import { CAMERA_VIEWS, type Box, type CameraView, type RgbImage } from '../vision/types.js';
import { RECOLOURED, recoloured } from './eval-colours.js';

const program = new Command()
  .name('eval:dice')
  .option('--real <dir>', 'folder of real photos (labels.csv, catan-crops/, frames.csv, catan-frames/)', '../shared/dice-real')
  .option('--model <dir>', 'model directory (default: the committed model)')
  .option('--framing <mode>', 'how crops are framed: locate (find the die in the crop, as clew frames a die it finds) or whole', 'locate')
  .option('--views <n>', 'test-time views (1, 2 or 4); default from the model')
  .option('--second-look <p>', 'read dice below this confidence once more, a quarter turn round and closer (0: never); default the reader\'s')
  .option('--view <how>', 'how the real pictures are read: any (up not known: four quarter turns weighted by the orientation head, as npm run dice reads a picture), side or overhead', 'any')
  .option('--no-synthetic', 'skip the synthetic test split')
  .option('--no-extra-looks', 'a second look in view side reads only the closer crop (the reader\'s secondLookExtra: false)')
  .option('--trays <n>', 'rendered trays per camera pose, read in every view (0: skip)', '100')
  .option('--poses <keys>', 'only these tray poses, comma-separated (side, side-90, side-180, overhead, broad, cozy-overhead, cozy-side, cloth)')
  .option('--empty-tray <n>', 'rendered scenes per locator case and seed located with and without the empty tray (0: skip)', '8')
  .option('--large <n>', 'rendered large pictures of small dice per size and pose, located as a picture and as a stream\'s frame (0: skip)', '20')
  .option('--cache-dir <dir>', 'rendered crops cache', 'tmp/train-cache')
  .parse();
const opts = program.opts<{ extraLooks: boolean; real: string; model?: string; framing: string; views?: string; secondLook?: string; view: string; synthetic: boolean; trays: string; poses?: string; emptyTray: string; large: string; cacheDir: string }>();
if (!CAMERA_VIEWS.includes(opts.view as CameraView)) {
  process.stderr.write(`eval:dice: --view must be ${CAMERA_VIEWS.join(', ')}, got "${opts.view}"\n`);
  process.exit(2);
}
const view = opts.view as CameraView;
/** The view compared with the one read in: side against any, any against side or overhead. */
const otherView: CameraView = view === 'any' ? 'side' : 'any';

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
const out: string[] = [];
const say = (line = '') => { out.push(line); process.stdout.write(line + '\n'); };
/** A one-row markdown table: a heading per column, one cell each. */
const sayRow = (headings: readonly string[], cells: readonly string[]) => {
  say(`| ${headings.join(' | ')} |`);
  say(`|${headings.map(() => '---').join('|')}|`);
  say(`| ${cells.join(' | ')} |`);
};

/** The chapter a new Worm & Cozy game plays (its roll is the same in every chapter: one shape die, two organ dice). */
function defaultChapter() {
  const loaded = loadChapter(DEFAULT_CHAPTER_ID);
  if (!loaded.ok) throw new Error(`the default chapter does not load: ${loaded.errors.join('; ')}`);
  return loaded.chapter;
}

function csv(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trim().split(/\r?\n/);
  const keys = head!.split(',');
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [keys[i]!, v])));
}

async function image(file: string): Promise<RgbImage> {
  return decodeImage(new Uint8Array(await readFile(file)));
}


if (!existsSync(opts.real)) {
  process.stderr.write(`eval:dice: ${opts.real} not found (pass --real DIR)\n`);
  process.exit(2);
}
const views = opts.views ? (Number(opts.views) as 1 | 2 | 4) : undefined;
const secondLook = opts.secondLook !== undefined ? Number(opts.secondLook) : undefined;
if (secondLook !== undefined && !(secondLook >= 0 && secondLook <= 1)) {
  process.stderr.write(`eval:dice: --second-look must be a confidence from 0 to 1, got "${opts.secondLook}"\n`);
  process.exit(2);
}
const readerOptions = { ...(opts.model ? { modelDir: opts.model } : {}), ...(views ? { views } : {}), ...(secondLook !== undefined ? { secondLookBelow: secondLook } : {}), secondLookExtra: opts.extraLooks };
const reader = await loadDiceReader({ ...readerOptions, cropFraming: opts.framing as 'whole' | 'locate' });
const faces = DICE_SETS.d6.faces;

say(`## Dice reading: evaluation`);
say();
say(`Model ${reader.modelId}, backend ${reader.backend}, crop framing "${opts.framing}", ${reader.views} view${reader.views === 1 ? '' : 's'}${reader.upright ? ', upright; a second look (closer)' : ', a third view (a second look)'} below ${reader.secondLookBelow}. Real pictures read in view "${view}"${view === 'any' && reader.upright ? ' (up not known, as `npm run dice` reads a picture: each die in its four quarter turns, weighted by how upright the orientation head finds each, a doubtful die again, closer, in the turns that carry weight; in a frame, its dice judged together)' : ''}.`);
say();

// ---------------------------------------------------------------- 1. crops, no calibration
const labels = csv(await readFile(path.join(opts.real, 'labels.csv'), 'utf8'));
const crops = await Promise.all(labels.map((l) => image(path.join(opts.real, l.file!))));
const truth = labels.map((l) => l.face!);

interface CropScore { correct: number; confusion: number[][]; perFace: Map<string, [number, number]>; silentMisreads: number; marked: number }

async function scoreCrops(indices: number[], as: CameraView = view): Promise<CropScore> {
  const readings = await reader.readCrops(indices.map((i) => crops[i]!), { sets: ['d6'], view: as });
  const confusion = faces.map(() => faces.map(() => 0));
  const perFace = new Map<string, [number, number]>(faces.map((f) => [f, [0, 0]]));
  let correct = 0, silentMisreads = 0, marked = 0;
  readings.forEach((r, k) => {
    const t = truth[indices[k]!]!;
    confusion[faces.indexOf(t)]![faces.indexOf(r.face)]!++;
    const pf = perFace.get(t)!;
    pf[1]++;
    if (r.face === t) { correct++; pf[0]++; }
    if (r.uncertain) marked++;
    else if (r.face !== t) silentMisreads++;
  });
  return { correct, confusion, perFace, silentMisreads, marked };
}

function table(result: CropScore, n: number): void {
  say(`| face | crops | correct | accuracy |`);
  say(`|---|---|---|---|`);
  for (const f of faces) {
    const [c, t] = result.perFace.get(f)!;
    say(`| ${f} | ${t} | ${c} | ${t ? pct(c / t) : '–'} |`);
  }
  say(`| **all** | ${n} | ${result.correct} | **${pct(result.correct / n)}** |`);
  say();
  say(`Confusion (rows: true face, columns: read as):`);
  say();
  say(`| true \\ read | ${faces.join(' | ')} |`);
  say(`|---|${faces.map(() => '---').join('|')}|`);
  faces.forEach((f, i) => say(`| ${f} | ${result.confusion[i]!.join(' | ')} |`));
  say();
  say(`Marked "check" (confidence under ${reader.uncertainBelow}): ${result.marked} of ${n}; misread without the mark: ${result.silentMisreads}.`);
  say();
}

const all = labels.map((_, i) => i);
const uncal = await scoreCrops(all);
say(`### Real Catan crops (${all.length}), no calibration (target ≥ 95%)`);
say();
table(uncal, all.length);
{
  const alt = await scoreCrops(all, otherView);
  say(`Read in view "${otherView}" instead: ${alt.correct} of ${all.length} right (${pct(alt.correct / all.length)}); misread without the mark: ${alt.silentMisreads}.`);
  say();
}
{
  // The same crops framed the other way: the crop's own (loose, often not square) box as the die's.
  const other = opts.framing === 'locate' ? 'whole' : 'locate';
  const alt = await loadDiceReader({ ...readerOptions, cropFraming: other });
  const readings = await alt.readCrops(crops, { sets: ['d6'], view });
  const right = readings.filter((r, i) => r.face === truth[i]).length;
  say(`Framed "${other}" instead: ${right} of ${all.length} right (${pct(right / all.length)}).`);
  if (opts.framing === 'locate') {
    // These crops are cut close to the die (it often fills their height), and the locator keeps
    // no region that touches the picture's edge: say how many were framed on a found die.
    const located = crops.filter((c) => frameDieImage(c, 'locate').located).length;
    say();
    say(`The locator found the die inside ${located} of ${all.length} crops; the others were framed whole.`);
  }
  say();
  alt.dispose();
}

{
  // How the reading depends on how loosely somebody else cut the picture: each crop framed on
  // its own box (as "whole" does) but cut tighter or looser round its centre. Loose crops from
  // other detectors are common; the reader should not care much.
  const factors = [0.85, 1, 1.15, 1.3, 1.45];
  const cells: string[] = [];
  for (const f of factors) {
    const framed = crops.map((c) => squareCrop(c, [0, 0, c.width, c.height], { size: 64, scale: CROP_SCALE * f }));
    const readings = reader.classifyFramed(framed, framed.map((): Box => [0, 0, 64, 64]), { sets: ['d6'], view });
    const right = readings.filter((r, i) => r.face === truth[i]).length;
    cells.push(`${right} (${pct(right / all.length)})`);
  }
  say(`The same crops cut tighter or looser than they came (the picture's own box × the factor, framed as "whole" frames it):`);
  say();
  say(`| cut | ${factors.map((f) => `× ${f}`).join(' | ')} |`);
  say(`|---|${factors.map(() => '---').join('|')}|`);
  say(`| read right of ${all.length} | ${cells.join(' | ')} |`);
  say();
}

{
  // The same crops cut to their central square, as a detector cuts a die tight: these crops are
  // about 1.4 times as wide as high, with the die filling their height, so the square (and a
  // tenth less) is a close cut of a real die. Read as `npm run dice -- --crop` reads a picture,
  // and with the central square's second framing off (reader option cropSquare, since the
  // twenty-ninth session), to show what it does.
  const shares = [1, 0.9];
  const before = await loadDiceReader({ ...readerOptions, cropFraming: opts.framing as 'whole' | 'locate', cropSquare: false });
  const cells = await Promise.all([reader, before].map(async (who) => {
    const out: string[] = [];
    for (const k of shares) {
      const squares = crops.map((c) => {
        const side = Math.round(k * Math.min(c.width, c.height));
        const x = Math.round((c.width - side) / 2), y = Math.round((c.height - side) / 2);
        return cropRect(c, x, y, x + side, y + side);
      });
      const readings = await who.readCrops(squares, { sets: ['d6'], view });
      const right = readings.filter((r, i) => r.face === truth[i]).length;
      out.push(`${right} (${pct(right / all.length)})`);
    }
    return out;
  }));
  before.dispose();
  say(`The same crops cut to their central square, as a detector cuts a die tight (the square of their shorter side, and a tenth smaller), read as \`npm run dice -- --crop\` reads them:`);
  say();
  say(`| cut | ${shares.map((k) => (k === 1 ? 'the square' : `the square × ${k}`)).join(' | ')} |`);
  say(`|---|${shares.map(() => '---').join('|')}|`);
  say(`| read right of ${all.length} | ${cells[0]!.join(' | ')} |`);
  say(`| without the central square's second framing | ${cells[1]!.join(' | ')} |`);
  say();
}

{
  // Other dice's colours (RECOLOURED): the crops as `npm run dice -- --crop` reads them.
  const cells: string[] = [];
  for (const [, how] of RECOLOURED) {
    const readings = await reader.readCrops(crops.map((c) => recoloured(c, how)), { sets: ['d6'], view });
    const right = readings.filter((r, i) => r.face === truth[i]).length;
    const silent = readings.filter((r, i) => r.face !== truth[i] && !r.uncertain).length;
    cells.push(`${right} (${pct(right / all.length)}), ${readings.filter((r) => r.uncertain).length}, ${silent}`);
  }
  say(`The same crops in other colours, as other dice would show them (channels swapped, or the negative: dark dice with light pips), read as \`npm run dice -- --crop\` reads them: read right, marked "check", read wrong without the mark (as they came: ${uncal.correct}, ${uncal.marked}, ${uncal.silentMisreads}):`);
  say();
  sayRow(RECOLOURED.map(([name]) => name), cells);
  say();
}

{
  // The same pictures turned: an upright model takes a photo's up as the dice's up (side faces
  // below the top), so it reads a picture turned on its side worse; a model trained on every
  // turn reads them alike.
  const turns = [0, 1, 2, 3];
  const cells = (as: CameraView) => turns.map((k) => {
    const framed = crops.map((c) => uprightCrop(c, [0, 0, c.width, c.height], (k * Math.PI) / 2));
    const right = reader.classifyFramed(framed, framed.map((): Box => [0, 0, 64, 64]), { sets: ['d6'], view: as }).filter((r, i) => r.face === truth[i]).length;
    return `${right} (${pct(right / all.length)})`;
  });
  say(`The same pictures turned (framed whole; ${reader.upright ? 'view side takes the picture\'s up as the dice\'s, view any finds it' : 'this model reads any turn alike'}):`);
  say();
  say(`| turned | ${turns.map((k) => `${90 * k}°`).join(' | ')} |`);
  say(`|---|${turns.map(() => '---').join('|')}|`);
  for (const as of ['side', 'any'] as const) say(`| view ${as}: read right of ${all.length} | ${cells(as).join(' | ')} |`);
  say();
}

// ---------------------------------------------------------------- 2. calibrated
const rng = createRng('eval-dice-calibration');
const chosen = new Set<number>();
for (const f of faces) for (const i of rng.shuffle(all.filter((i) => truth[i] === f)).slice(0, 5)) chosen.add(i);
for (const i of chosen) await reader.calibration.add('d6', truth[i]!, crops[i]!);
const started = performance.now();
await reader.calibration.commit('d6', { persist: false, createdAt: 'eval' });
const calSeconds = (performance.now() - started) / 1000;
const rest = all.filter((i) => !chosen.has(i));
const cal = await scoreCrops(rest);
say(`### After calibrating with 5 crops per face (seeded), on the other ${rest.length} (target ≥ 99.5%)`);
say();
say(`Calibration (the whole net adapted to the 30 crops, ${reader.calibration.list()[0]?.net?.steps ?? 0} steps) took ${calSeconds.toFixed(1)} s here.`);
say();
table(cal, rest.length);
{
  const alt = await scoreCrops(rest, otherView);
  say(`Read in view "${otherView}" instead: ${alt.correct} of ${rest.length} right (${pct(alt.correct / rest.length)}).`);
  say();
}
await reader.calibration.undo('d6');
{
  // The cheaper calibration for comparison: the last layer refitted on the same crops.
  const head = await loadDiceReader({ ...readerOptions, cropFraming: opts.framing as 'whole' | 'locate', calibrate: 'head' });
  for (const i of chosen) await head.calibration.add('d6', truth[i]!, crops[i]!);
  const t0 = performance.now();
  await head.calibration.commit('d6', { persist: false, createdAt: 'eval' });
  const headSeconds = (performance.now() - t0) / 1000;
  const readings = await head.readCrops(rest.map((i) => crops[i]!), { sets: ['d6'], view });
  const right = readings.filter((r, k) => r.face === truth[rest[k]!]).length;
  say(`With only the last layer refitted instead (\`calibrate: 'head'\`, ${headSeconds.toFixed(1)} s): ${right} of ${rest.length} right (${pct(right / rest.length)}).`);
  say();
  head.dispose();
}

// ---------------------------------------------------------------- 3. frames
const frameRows = csv(await readFile(path.join(opts.real, 'frames.csv'), 'utf8'));
const byFrame = new Map<string, { box: Box; face: string | undefined }[]>();
for (const r of frameRows) {
  const list = byFrame.get(r.file!) ?? [];
  list.push({ box: [Number(r.xmin), Number(r.ymin), Number(r.xmax), Number(r.ymax)], face: undefined });
  byFrame.set(r.file!, list);
}

/** Mean colour of an image, or of a box of it. */
function meanColour(im: RgbImage, box: Box = [0, 0, im.width, im.height]): [number, number, number] {
  const sum: [number, number, number] = [0, 0, 0];
  let n = 0;
  for (let y = Math.max(0, Math.floor(box[1])); y < Math.min(im.height, Math.ceil(box[3])); y++) {
    for (let x = Math.max(0, Math.floor(box[0])); x < Math.min(im.width, Math.ceil(box[2])); x++, n++) {
      const at = (y * im.width + x) * 3;
      sum[0] += im.data[at]!;
      sum[1] += im.data[at + 1]!;
      sum[2] += im.data[at + 2]!;
    }
  }
  return sum.map((v) => v / Math.max(1, n)) as [number, number, number];
}

/**
 * The crops `<frame>-die-<n>.jpg` are the frames' dice, labelled. Their numbers do not always
 * follow the box order of frames.csv (in one frame the two are swapped), so each crop goes to
 * the box whose pixels are closest in colour (the two dice of a frame are a red and a cream one).
 */
function labelFrameDice(frame: RgbImage, file: string, dice: { box: Box; face: string | undefined }[]): void {
  const stem = path.basename(file, path.extname(file));
  const mine = labels.map((l, i) => ({ i, name: path.basename(l.file!) })).filter((c) => c.name.startsWith(`${stem}-die-`));
  const boxColours = dice.map((d) => meanColour(frame, d.box));
  const pairs = mine.flatMap((c) => {
    const a = meanColour(crops[c.i]!);
    return boxColours.map((b, k) => ({ c: c.i, k, dist: Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) }));
  }).sort((p, q) => p.dist - q.dist);
  const takenCrop = new Set<number>(), takenBox = new Set<number>();
  for (const p of pairs) {
    if (takenCrop.has(p.c) || takenBox.has(p.k)) continue;
    takenCrop.add(p.c); takenBox.add(p.k);
    dice[p.k]!.face = truth[p.c];
  }
}
say(`### Real Catan frames: dice found (target: all found, none spurious), and read`);
say();
say(`| frame | dice | found | missed | spurious | read as (true face) |`);
say(`|---|---|---|---|---|---|`);
/**
 * Each true box's reading: the unused reading whose box overlaps it most (IoU ≥ 0.3), greedily
 * in the true boxes' order; undefined where none does. Readings left over are boxes on no die.
 */
function matchReadings<D extends { box: Box }>(truthBoxes: readonly Box[], dice: readonly D[]): (D | undefined)[] {
  const used = new Set<number>();
  return truthBoxes.map((b) => {
    let best = -1, bestIou = 0.3;
    dice.forEach((d, k) => { const o = iou(b, d.box); if (!used.has(k) && o >= bestIou) { best = k; bestIou = o; } });
    if (best < 0) return undefined;
    used.add(best);
    return dice[best];
  });
}

let found = 0, missed = 0, spurious = 0, total = 0, labelled = 0, readRight = 0;
/** The frames as decoded, for reading them again below. */
const decodedFrames = new Map<string, RgbImage>();
for (const [file, truths] of byFrame) {
  const frame = await image(path.join(opts.real, file));
  decodedFrames.set(file, frame);
  labelFrameDice(frame, file, truths);
  const dice = await reader.read(frame, { sets: ['d6'], view, picture: true });
  const matched = matchReadings(truths.map((t) => t.box), dice);
  const cells: string[] = [];
  truths.forEach((t, k) => {
    const d = matched[k];
    if (t.face !== undefined) labelled++;
    if (d && d.face === t.face) readRight++;
    cells.push(d ? `${d.face}${d.uncertain ? '?' : ''} (${t.face ?? '?'})` : `missed (${t.face ?? '?'})`);
  });
  const f = matched.filter((d) => d !== undefined).length;
  const s = dice.length - f;
  found += f; missed += truths.length - f; spurious += s; total += truths.length;
  say(`| ${path.basename(file)} | ${truths.length} | ${f} | ${truths.length - f} | ${s} | ${cells.join(', ')} |`);
}
say(`| **all** | ${total} | **${found}** | **${missed}** | **${spurious}** | **${readRight} of ${labelled}** read right |`);
say();
say(`Read as the reader reads a tray: the locator's box, framed by \`squareCrop\`; "?" marks a die the reader asks to check. The true faces come from the crops of the same dice in labels.csv, each matched to its box by colour.`);
say();
if (view === 'any') {
  // The same frames with each die's up judged alone, as a picture of one die is (frame-up.ts).
  const alone = await loadDiceReader({ ...readerOptions, frameUp: false });
  let right = 0;
  for (const [file, truths] of byFrame) {
    const dice = await alone.read(decodedFrames.get(file)!, { sets: ['d6'], view });
    right += truths.filter((t) => t.face !== undefined && dice.find((d) => iou(t.box, d.box) >= 0.3)?.face === t.face).length;
  }
  say(`With each die's up judged alone instead of with the other die of its frame: ${right} of ${labelled} read right.`);
  say();
  alone.dispose();
}

// The same frames at other sizes, as other cameras give them: shrunk (a smaller webcam, or the
// tray farther away) and tiled 2 × 2 (a 1920×1080 picture whose dice keep their 40 px).
{
  const scales = [0.35, 0.45, 0.5, 0.6, 0.8];
  /** Found, boxes on no die and read right over the frames, each changed by `change` (its true boxes moved by `move`). */
  const count = async (change: (f: RgbImage) => RgbImage, move: (b: Box, f: RgbImage) => Box[]) => {
    let found = 0, spurious = 0, right = 0, all = 0;
    for (const [file, truths] of byFrame) {
      const frame = decodedFrames.get(file)!;
      const dice = await reader.read(change(frame), { sets: ['d6'], view, picture: true });
      const wanted = truths.flatMap((t) => move(t.box, frame).map((box) => ({ box, face: t.face })));
      const matched = matchReadings(wanted.map((t) => t.box), dice);
      all += wanted.length;
      wanted.forEach((t, k) => { if (matched[k]) { found++; if (matched[k]!.face === t.face) right++; } });
      spurious += dice.length - matched.filter((d) => d !== undefined).length;
    }
    return `${found} of ${all}, ${spurious}, ${right}`;
  };
  const cells: string[] = [];
  for (const s of scales) {
    cells.push(await count((f) => resize(f, Math.round(f.width * s), Math.round(f.height * s)), (b) => [b.map((v) => v * s) as Box]));
  }
  const corners = (f: RgbImage) => [[0, 0], [f.width, 0], [0, f.height], [f.width, f.height]] as const;
  const tile = (f: RgbImage): RgbImage => {
    const out = createImage(f.width * 2, f.height * 2);
    for (const [x, y] of corners(f)) paste(out, f, x, y);
    return out;
  };
  cells.push(await count(tile, (b, f) => corners(f).map(([x, y]): Box => [b[0] + x, b[1] + y, b[2] + x, b[3] + y])));
  const { width: w, height: h } = decodedFrames.values().next().value!;
  say(`The same frames at other sizes, as other cameras give them (shrunk: their dice 13–31 px across; tiled 2 × 2 into ${2 * w}×${2 * h}, dice still about 40 px), read as pictures (\`npm run dice\`): dice found, boxes on no die, read right:`);
  say();
  say(`| ${scales.map((s) => `${Math.round(w * s)} px wide`).join(' | ')} | ${2 * w} px, tiled |`);
  say(`|${scales.map(() => '---').join('|')}|---|`);
  say(`| ${cells.join(' | ')} |`);
  say();
  // In grey, as a monochrome camera (or a webcam's black-and-white mode) gives them.
  const grey = await count((f) => greyToRgb(toGrey(f), f.width, f.height), (b) => [b]);
  say(`The same frames in grey (R = G = B, as a monochrome camera gives them; a grey frame's evidence takes a lower lightness floor, vision-locate.md "Grey frames"), read as pictures: dice found, boxes on no die, read right: ${grey}.`);
  // Other dice's colours (RECOLOURED), as for the crops above.
  const recolouredCells: string[] = [];
  for (const [, how] of RECOLOURED) recolouredCells.push(await count((f) => recoloured(f, how), (b) => [b]));
  say();
  say('The same frames in other colours (channels swapped, or the negative), read as pictures: dice found, boxes on no die, read right:');
  say();
  sayRow(RECOLOURED.map(([name]) => name), recolouredCells);
  // Dim and flat (since 28 November, twenty-fourth session: such frames are stretched before
  // they are located, vision-locate.md "Dim and flat frames"): each value scaled, or moved
  // towards the frame's mean, then rounded.
  const valuesOf = (f: RgbImage, to: (v: number) => number): RgbImage => ({ ...f, data: Uint8Array.from(f.data, (v) => clampRound(to(v))) });
  const meanOf = (f: RgbImage) => f.data.reduce((a, v) => a + v, 0) / f.data.length;
  const dimmed: [string, (f: RgbImage) => RgbImage][] = [
    ['half the light', (f) => valuesOf(f, (v) => v * 0.5)],
    ['a third of the light', (f) => valuesOf(f, (v) => v * 0.35)],
    ['0.6 of their contrast', (f) => { const m = meanOf(f); return valuesOf(f, (v) => m + 0.6 * (v - m)); }],
    ['0.4 of their contrast', (f) => { const m = meanOf(f); return valuesOf(f, (v) => m + 0.4 * (v - m)); }],
  ];
  const dimCells: string[] = [];
  for (const [, change] of dimmed) dimCells.push(await count(change, (b) => [b]));
  say();
  say('The same frames dim or flat, as a dark room or a washed-out webcam gives them (stretched to the usual range before they are located), read as pictures: dice found, boxes on no die, read right:');
  say();
  sayRow(dimmed.map(([name]) => name), dimCells);
  say();
}

// ---------------------------------------------------------------- 4. rendered trays
const trayCount = Number(opts.trays);
if (trayCount > 0) {
  // Whole trays, seeded (d6, 8 dice of 40–90 px, difficulty 0.4): from one side (camera up to 45°
  // off vertical, rolled ±10°), the same pictures turned, from straight overhead, and from one
  // side under a broad light; and Worm & Cozy's roll of three from overhead and from one side. Each read
  // in every view, and in view any with each die judged alone. A die counts as read right when a
  // box of the reader overlaps its true box (IoU > 0.5) and names its face.
  const alone = await loadDiceReader({ ...readerOptions, frameUp: false });
  // A die is read right when a box overlaps it (IoU > 0.5) and names its set and face; a roll is
  // read whole when each of its dice is, and no other box was read.
  type Truth = { set: DiceSetId; face: string; box: Box };
  const sameFace = (r: { set: DiceSetId; face: string }, d: Truth) => r.set === d.set && r.face === d.face;
  const readRight = (read: readonly { set: DiceSetId; face: string; box: Box }[], d: Truth) => {
    const r = read.find((r) => iou(r.box, d.box) > 0.5);
    return !!r && sameFace(r, d);
  };
  const wholeRoll = (read: readonly { set: DiceSetId; face: string; box: Box }[], truths: readonly Truth[]) => read.length === truths.length && truths.every((d) => readRight(read, d));
  /** Each true die's box of the reading (IoU > 0.5, one box each, in order; -1 for none), and the boxes used. */
  const matchBoxes = (read: readonly { box: Box }[], truths: readonly Truth[]) => {
    const used = new Set<number>();
    const at = truths.map((d) => {
      const m = read.findIndex((r, i) => !used.has(i) && iou(r.box, d.box) > 0.5);
      if (m >= 0) used.add(m);
      return m;
    });
    return { at, used };
  };
  const turnFrame = (im: RgbImage): RgbImage => {
    const { width: w, height: h } = im;
    const data = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set(im.data.subarray((y * w + x) * 3, (y * w + x) * 3 + 3), (x * h + h - 1 - y) * 3);
    return { width: h, height: w, data };
  };
  const allPoses = [
    { key: 'side', name: 'from one side', overhead: false, turns: 0 },
    { key: 'side-90', name: 'the same turned 90°', overhead: false, turns: 1 },
    { key: 'side-180', name: 'the same turned 180°', overhead: false, turns: 2 },
    { key: 'overhead', name: 'from overhead', overhead: true, turns: 0 },
    // Since 26 November (fifth session): a room's broad light, whose soft shadow beside each die
    // the real Catan frames show (plain tables; the renderer's `broadLight`).
    { key: 'broad', name: 'from one side, under a broad light', overhead: false, turns: 0, broad: true },
    // Since 26 November (sixth session): Worm & Cozy's roll, read as its two sets. Since 27
    // November (thirteenth session) each tray is such a roll, one shape die and two organ dice
    // (before, each of the three dice was drawn from the two sets), and it is read as a table
    // reads it, given the game's request for that roll (ReadOptions.expect, vision/fit-roll.ts).
    { key: 'cozy-overhead', name: 'Worm & Cozy rolls from overhead', overhead: true, turns: 0, cozy: true },
    { key: 'cozy-side', name: 'Worm & Cozy rolls from one side', overhead: false, turns: 0, cozy: true },
    // Since 27 November (fourteenth session): a printed cloth, where the empty tray matters most
    // and the modelled tray sees dice in the empty tray itself on some cloths (3–8 d6 a tray).
    { key: 'cloth', name: 'from one side on a printed cloth (3–8 d6)', overhead: false, turns: 0, cloth: true },
  ];
  const only = opts.poses?.split(',').map((k) => k.trim());
  const unknown = only?.filter((k) => !allPoses.some((p) => p.key === k)) ?? [];
  if (unknown.length > 0) throw new Error(`--poses: no pose ${unknown.join(', ')} (${allPoses.map((p) => p.key).join(', ')})`);
  const poses = only ? allPoses.filter((p) => only.includes(p.key)) : allPoses;
  // Since 26 November (twelfth session): also read against the tray without its dice (the same
  // scene rendered empty), as a camera fixed over the tray reads once it has taken the empty tray
  // by itself (web/server/tray.ts), which is what a table camera gets without anyone asking.
  // Since 28 November (twenty-fifth session): side and overhead against the empty tray too, the
  // comparison that made the tray camera learn its view by default (vision.view "auto").
  const columns = ['side', 'overhead', 'any', 'any, each die alone', 'any, against the empty tray', 'side, against the empty tray', 'overhead, against the empty tray'] as const;
  const againstTray = (c: (typeof columns)[number]) => c.endsWith(', against the empty tray');
  say(`### Rendered trays (${trayCount} per pose, 8 d6 each, a Worm & Cozy roll of 3, or 3–8 d6 on a printed cloth, seeded), read in each view`);
  say();
  say(`| camera | dice | ${columns.join(' | ')} |`);
  say(`|---|---|${columns.map(() => '---').join('|')}|`);
  /** Per pose, read `any`: dice found (one box each), read wrong without the "check" mark, boxes on no die, and those without the mark. */
  const marks: string[] = [];
  /** Per Worm & Cozy pose, read `any` against the empty tray: rolls read whole, and whole with no die marked "check"; without the game's request, then with it. */
  const rolls: string[] = [];
  const cozyRequest = expectationOf(cozyDiceRequest(defaultChapter(), 'cozy', 'an hour'))!;
  const cozyRoll = cozyRequest.slots.map((s) => s.set);
  for (const pose of poses) {
    const right = new Map<string, number>();
    let dice = 0;
    const any = { found: 0, silentWrong: 0, extra: 0, silentExtra: 0 };
    const anyEmpty = { ...any };
    const whole = { plain: 0, plainClean: 0, fitted: 0, fittedClean: 0 };
    for (let k = 0; k < trayCount; k++) {
      const broad = 'broad' in pose;
      const cozy = 'cozy' in pose;
      const cloth = 'cloth' in pose;
      const sets: DiceSetId[] = cozy ? ['cozy-shape', 'cozy-organ'] : ['d6'];
      const scene = renderScene(createRng(`view-${cozy ? 'cozy-' : ''}${broad ? 'broad' : cloth ? 'cloth' : pose.overhead ? 'overhead' : 'side'}-${k}`), {
        ...(cozy ? { diceSets: cozyRoll } : { dice: cloth ? 3 + (k % 6) : 8 }), sets, difficulty: 0.4, dieSize: [40, 90], empty: true,
        knobs: { ...(pose.overhead ? { maxOblique: 0 } : { maxOblique: 45, roll: 10 }), ...(broad ? { broadLight: 1, tables: ['wood', 'felt', 'card', 'tray', 'dark'] as const } : {}), ...(cloth ? { tables: ['pattern'] as const } : {}) },
      });
      const expect = cozy ? { expect: cozyRequest } : {};
      let frame = scene.image;
      let empty = scene.empty!;
      let truths = scene.dice.map((d) => ({ set: d.set, face: d.face, box: d.box as Box }));
      for (let t = 0; t < pose.turns; t++) {
        const h = frame.height;
        frame = turnFrame(frame);
        empty = turnFrame(empty);
        truths = truths.map((d) => ({ ...d, box: [h - d.box[3], d.box[0], h - d.box[1], d.box[2]] as Box }));
      }
      dice += truths.length;
      const tray = learnEmptyTray(empty);
      for (const column of columns) {
        const as: CameraView = column === 'any, each die alone' ? 'any' : againstTray(column) ? (column.split(',')[0] as CameraView) : (column as CameraView);
        const who = column === 'any, each die alone' ? alone : reader;
        const read = await who.read(frame, { sets, view: as, ...expect, ...(againstTray(column) ? { tray } : {}) });
        right.set(column, (right.get(column) ?? 0) + truths.filter((d) => readRight(read, d)).length);
        if (cozy && column === 'any, against the empty tray') {
          const plain = await reader.read(frame, { sets, view: 'any', tray });
          if (wholeRoll(plain, truths)) (whole.plain++, (whole.plainClean += plain.some((r) => r.uncertain) ? 0 : 1));
          if (wholeRoll(read, truths)) (whole.fitted++, (whole.fittedClean += read.some((r) => r.uncertain) ? 0 : 1));
        }
        if (column !== 'any' && column !== 'any, against the empty tray') continue;
        const tally = column === 'any' ? any : anyEmpty;
        const { at, used } = matchBoxes(read, truths);
        at.forEach((m, j) => {
          if (m < 0) return;
          tally.found++;
          if (!sameFace(read[m]!, truths[j]!) && !read[m]!.uncertain) tally.silentWrong++;
        });
        read.forEach((r, i) => {
          if (used.has(i)) return;
          tally.extra++;
          if (!r.uncertain) tally.silentExtra++;
        });
      }
    }
    say(`| ${pose.name} | ${dice} | ${columns.map((c) => pct(right.get(c)! / dice)).join(' | ')} |`);
    const cells = (t: typeof any) => `${t.found} of ${dice} | ${t.silentWrong} | ${t.extra} | ${t.silentExtra}`;
    marks.push(`| ${pose.name} | ${cells(any)} | ${cells(anyEmpty)} |`);
    if ('cozy' in pose) rolls.push(`| ${pose.name} | ${trayCount} | ${whole.plain} / **${whole.fitted}** | ${whole.plainClean} / **${whole.fittedClean}** |`);
  }
  say();
  say('The same trays read `any`, with the tray modelled and against the empty tray: dice found (one box each, IoU > 0.5), dice read wrong without the "check" mark, and boxes on no die (a loose box on a die the locator did not find otherwise, mostly), and those without the mark:');
  say();
  say('| camera | found | read wrong, not marked | boxes on no die | of which not marked | empty tray: found | read wrong, not marked | boxes on no die | of which not marked |');
  say('|---|---|---|---|---|---|---|---|---|');
  for (const row of marks) say(row);
  say();
  say('Worm & Cozy rolls read `any` against the empty tray as a table reads them, without / with the game\'s request for the roll (one shape die and two organ dice: a reading is fitted to it, vision/fit-roll.ts): rolls read whole (the three dice right, no other box), and of those, rolls with no die marked "check" (nobody has to look):');
  say();
  say('| camera | rolls | read whole | and nothing to check |');
  say('|---|---|---|---|');
  for (const row of rolls) say(row);
  say();
  // Since 27 November (thirteenth session): Worm & Cozy's default dice, three d6 of which the
  // chapter's shape-die colour (red) is the shape die. Trays of three d6 from a table's usual
  // colours with exactly one red die, from overhead and from one side in turn, read `any` against
  // the empty tray with every colour name in play, as the server reads that roll.
  const standard = cozyDiceRequest(defaultChapter(), 'standard', 'an hour');
  const shapeColour = standard.slots!.find((s) => s.color)!.color!;
  const colours = { rolls: 0, found: 0, plain: 0, fitted: 0, fittedMarked: 0 };
  for (let k = 0; colours.rolls < trayCount && k < 40 * trayCount; k++) {
    const overhead = k % 2 === 0;
    const scene = renderScene(createRng(`red-shape-${k}`), {
      dice: 3, sets: ['d6'], difficulty: 0.4, dieSize: [40, 90], empty: true, palette: [shapeColour, 'white', 'black', 'blue', 'green', 'yellow', 'ivory'],
      knobs: overhead ? { maxOblique: 0 } : { maxOblique: 45, roll: 10 },
    });
    if (scene.dice.length !== 3 || scene.dice.filter((d) => d.color === shapeColour).length !== 1) continue;
    colours.rolls++;
    const tray = learnEmptyTray(scene.empty!);
    const options = { sets: standard.sets, view: 'any' as const, tray, palette: Object.keys(DIE_COLORS) };
    const shapeDie = scene.dice.find((d) => d.color === shapeColour)!;
    /** The roll's three dice found, and the one die named the shape colour is the shape die. */
    const told = (read: readonly { box: Box; color?: string }[]) => {
      const named = read.filter((r) => r.color === shapeColour);
      return named.length === 1 && iou(named[0]!.box, shapeDie.box) > 0.5;
    };
    const allFound = (read: readonly { box: Box }[]) => read.length === 3 && scene.dice.every((d) => read.some((r) => iou(r.box, d.box) > 0.5));
    const plain = await reader.read(scene.image, options);
    const fitted = await reader.read(scene.image, { ...options, expect: expectationOf(standard)! });
    if (!allFound(plain) || !allFound(fitted)) continue;
    colours.found++;
    if (told(plain)) colours.plain++;
    if (told(fitted)) (colours.fitted++, (colours.fittedMarked += fitted.some((r) => r.uncertain) ? 1 : 0));
  }
  say(`Worm & Cozy's default dice, three d6 whose ${shapeColour} one is the shape die (${colours.rolls} trays of a table's usual colours with one ${shapeColour} die, overhead and one side in turn, read \`any\` against the empty tray with every colour name in play): of the ${colours.found} rolls whose three dice were all found, the shape die told right (the one die named ${shapeColour}) with each die's colour named alone / fitted to the game's request (vision/fit-roll.ts): ${colours.plain} (${pct(colours.plain / colours.found)}) / **${colours.fitted} (${pct(colours.fitted / colours.found)})**, ${colours.fittedMarked} of those with a die marked "check".`);
  say();
  say(`View any needs no configuration: it finds each die's up, judged with the other dice of the frame. A tray camera reads so until it has learnt its view from its rolls (\`vision.view: "auto"\`, the default), then reads in that view.`);
  say();
  alone.dispose();

  // Since 6 December (thirtieth session): dim frames against the empty tray. A frame that spans
  // much less than a camera's usual range is stretched before it is located, and its empty tray
  // with it (TrayReference.stretched); before, the tray was compared as the camera gave it, and a
  // dim frame's dice fell under the comparison's floors. Seeds not used in developing it.
  const dimTrays = Math.max(1, Math.round(trayCount * 0.4));
  const dimRows: string[] = [];
  const cells = (t: { found: number; right: number; extra: number }, dice: number) => `${t.right} (${pct(t.right / dice)}), ${t.found}, ${t.extra}`;
  for (const kind of ['black', 'half'] as const) {
    for (const overhead of [true, false]) {
      const view: CameraView = overhead ? 'overhead' : 'side';
      const now = { found: 0, right: 0, extra: 0 }, before = { ...now };
      let dice = 0;
      for (let k = 0; k < dimTrays; k++) {
        const scene = renderScene(createRng(`dim-${kind}-${view}-${k}`), {
          sets: ['d6'], difficulty: 0.4, empty: true,
          ...(kind === 'black' ? { dice: 6, dieSize: [32, 64] as [number, number], width: 640, height: 480, palette: ['black'] } : { dice: 8, dieSize: [40, 90] as [number, number] }),
          knobs: { ...(overhead ? { maxOblique: 0 } : { maxOblique: 45, roll: 10 }), ...(kind === 'black' ? { tables: ['dark'] as const } : {}) },
        });
        const dim = (im: RgbImage): RgbImage => (kind === 'half' ? { ...im, data: im.data.map((v) => Math.round(v / 2)) } : im);
        const frame = dim(scene.image);
        const tray = learnEmptyTray(dim(scene.empty!));
        const { stretched: _stretched, ...asTaken } = tray;
        const truths = scene.dice.map((d) => ({ set: d.set, face: d.face, box: d.box as Box }));
        dice += truths.length;
        for (const [tally, t] of [[now, tray], [before, asTaken]] as const) {
          const read = await reader.read(frame, { sets: ['d6'], view, tray: t });
          const { at, used } = matchBoxes(read, truths);
          tally.found += used.size;
          tally.right += at.filter((m, j) => m >= 0 && sameFace(read[m]!, truths[j]!)).length;
          tally.extra += read.length - used.size;
        }
      }
      const what = kind === 'black' ? 'black d6 on a dark table (6 of 32–64 px, 640×480)' : 'trays like those above at half the light (8 d6 of 40–90 px)';
      dimRows.push(`| ${what}, ${overhead ? 'from overhead' : 'from one side'} | ${dice} | ${cells(now, dice)} | ${cells(before, dice)} |`);
    }
  }
  say(`Dim frames read against the empty tray in their view (${dimTrays} trays a row): the frame and its empty tray stretched alike (since 6 December), and the tray as the camera gave it (before): dice read right, found, boxes on no die:`);
  say();
  say('| trays | dice | stretched alike | tray as the camera gave it |');
  say('|---|---|---|---|');
  for (const row of dimRows) say(row);
  say();
}

// ---------------------------------------------------------------- 4b. the empty tray given
const emptyScenes = Number(opts.emptyTray);
if (emptyScenes > 0) {
  // The locator's own rendered cases (vision/locate/evaluate.ts), each scene rendered a second
  // time without its dice as a fixed camera saw it a while before (other noise, the exposure
  // drifted by up to 4 %, the camera moved by up to 0.75 px): located as the tray is modelled, and
  // compared with that empty tray (ReadOptions.tray). Seeds the reference was not tuned on.
  const { evaluateLocators, EVAL_CASES } = await import('../vision/locate/evaluate.js');
  const { locateDice, learnTray } = await import('../vision/locate/index.js');
  const seeds = ['held-out', 'eval-2'];
  const runs = seeds.map((seed) =>
    evaluateLocators(
      {
        modelled: (im) => locateDice(im).map((d) => d.box),
        empty: (im, empty) => locateDice(im, { tray: learnTray(empty!) }).map((d) => d.box),
        // The same scenes as a monochrome camera gives them (vision-locate.md, "Grey frames").
        grey: (im) => locateDice(greyToRgb(toGrey(im), im.width, im.height)).map((d) => d.box),
      },
      { seed, scenesPerCase: emptyScenes, withEmpty: true },
    ),
  );
  const cell = (name: 'modelled' | 'empty' | 'grey', c?: string) => {
    let dice = 0, found = 0, extra = 0;
    for (const r of runs) {
      const t = c ? r[name]!.cases[c]! : r[name]!.all;
      dice += t.dice, found += t.found, extra += t.spurious;
    }
    return { dice, text: `${found} (${pct(found / dice)}), ${extra}` };
  };
  say(`### Dice found with the empty tray given (rendered scenes, ${emptyScenes} per case and seed, seeds ${seeds.join(', ')})`);
  say();
  say('| case | dice | tray modelled: found, boxes on no die | empty tray given: found, boxes on no die |');
  say('|---|---|---|---|');
  for (const c of EVAL_CASES) say(`| ${c.about} | ${cell('modelled', c.name).dice} | ${cell('modelled', c.name).text} | ${cell('empty', c.name).text} |`);
  say(`| **all** | ${cell('modelled').dice} | ${cell('modelled').text} | **${cell('empty').text}** |`);
  say();
  say(`The same scenes in grey (R = G = B, as a monochrome camera gives them), the tray modelled: found of ${cell('grey').dice}, boxes on no die: ${cell('grey').text}.`);
  say();
  say('A camera fixed over the tray can be shown the tray empty once (`npm run dice -- --tray FILE`, the dashboard\'s Teach screen); the dice are then what differs from it.');
  say();
}

// ---------------------------------------------------------------- 4c. small dice in large pictures
const largeScenes = Number(opts.large);
if (largeScenes > 0) {
  // Since 28 November (twenty-sixth session): a webcam's 1080p photo of a whole table, or the
  // Pi camera's 1280×960, whose dice are small at the locator's 640 px working size. A still
  // picture whose dice come out under 24 px there is located again closer (locate.ts,
  // CLOSER_SMALL_SIDE); a tray camera's frame is, against its empty tray learnt at twice the size.
  const { locateDice } = await import('../vision/locate/index.js');
  const sizes = [[1920, 1080, [24, 50]], [1280, 960, [24, 48]]] as const;
  const largeScene = (seed: string, width: number, height: number, dieSize: readonly [number, number], overhead: boolean, empty = false) =>
    renderScene(createRng(seed), { dice: 8, sets: ['d6'], difficulty: 0.4, dieSize: [...dieSize], width, height, empty, knobs: overhead ? { maxOblique: 0 } : { maxOblique: 45, roll: 10 } });
  /** Dice found (each true box matched once) and boxes on no die. */
  const tallyOf = (truths: readonly Box[], found: readonly { box: Box }[]) => {
    const hits = matchReadings(truths, found).filter((m) => m !== undefined).length;
    return { found: hits, extra: found.length - hits };
  };
  say(`### Small dice in large pictures (rendered, ${largeScenes} per size and pose, 8 d6 each, from overhead and from one side)`);
  say();
  say('| picture | dice | located at 640 px only (a stream\'s frame): found, boxes on no die | located as a picture (`npm run dice`): found, boxes on no die |');
  say('|---|---|---|---|');
  for (const [width, height, dieSize] of sizes) {
    let dice = 0;
    const tally = { stream: { found: 0, extra: 0 }, picture: { found: 0, extra: 0 } };
    for (const overhead of [true, false]) {
      for (let k = 0; k < largeScenes; k++) {
        const scene = largeScene(`large-${width}-${overhead ? 'overhead' : 'side'}-${k}`, width, height, dieSize, overhead);
        const truths = scene.dice.map((d) => d.box as Box);
        dice += truths.length;
        for (const [name, picture] of [['stream', false], ['picture', true]] as const) {
          const t = tallyOf(truths, locateDice(scene.image, { lookCloserWhenNone: picture }));
          tally[name].found += t.found;
          tally[name].extra += t.extra;
        }
      }
    }
    const cell = (t: { found: number; extra: number }) => `${t.found} (${pct(t.found / dice)}), ${t.extra}`;
    say(`| ${width}×${height}, dice of ${dieSize[0]}–${dieSize[1]} px | ${dice} | ${cell(tally.stream)} | **${cell(tally.picture)}** |`);
  }
  say();
  // The tray camera: the Pi's 1280×960 frames read against the empty tray, which since the
  // twenty-sixth session keeps a twin learnt at twice the working size for frames whose dice are
  // small (TrayReference.closer).
  const tally = { atSize: { found: 0, right: 0, extra: 0 }, closer: { found: 0, right: 0, extra: 0 } };
  let dice = 0;
  for (const overhead of [true, false]) {
    for (let k = 0; k < largeScenes; k++) {
      const scene = largeScene(`large-tray-${overhead ? 'overhead' : 'side'}-${k}`, 1280, 960, [24, 48], overhead, true);
      const truths = scene.dice.map((d) => ({ box: d.box as Box, face: d.face }));
      dice += truths.length;
      const tray = learnEmptyTray(scene.empty!);
      const { closer: _closer, ...atSize } = tray;
      for (const [name, t] of [['atSize', atSize], ['closer', tray]] as const) {
        const read = await reader.read(scene.image, { sets: ['d6'], view: overhead ? 'overhead' : 'side', tray: t });
        const n = tallyOf(truths.map((d) => d.box), read);
        tally[name].found += n.found;
        tally[name].extra += n.extra;
        tally[name].right += matchReadings(truths.map((d) => d.box), read).filter((m, i) => m?.face === truths[i]!.face).length;
      }
    }
  }
  const cell = (t: { found: number; right: number; extra: number }) => `${t.found} found, ${t.right} (${pct(t.right / dice)}) read right, ${t.extra} boxes on no die`;
  say(`A tray camera's 1280×960 frames (${2 * largeScenes} trays, 8 d6 of 24–48 px, from overhead and one side, read in their view against the empty tray), of ${dice} dice: at 640 px only ${cell(tally.atSize)}; looked at closer against the empty tray learnt at 1280 px, where the dice are small (the default) **${cell(tally.closer)}**.`);
  say();
}

// ---------------------------------------------------------------- 5. synthetic
if (opts.synthetic) {
  const metaFile = path.join(opts.model ?? 'vision/model/weights', 'meta.json');
  const meta = JSON.parse(await readFile(metaFile, 'utf8')) as { training: { seed: string; difficulty?: [number, number]; renderer?: string; recipe: { testCount: number; difficulty: [number, number]; knobs?: Partial<SynthKnobs> } }; temperature: number };
  const difficulty = meta.training.difficulty ?? meta.training.recipe.difficulty;
  const knobs = meta.training.recipe.knobs;
  const { FACE_CLASSES } = await import('../vision/faces/classes.js');
  const { loadClassifier } = await import('../vision/model/classifier.js');
  const { readSplit } = await import('../vision/model/split-reading.js');
  const { difficultyOf } = await import('../vision/model/dataset.js');
  const classifier = await loadClassifier({ ...(opts.model ? { modelDir: opts.model } : {}), ...(views ? { views } : {}) });
  /** A split of the training seed rendered with these knobs, scored through the reader's own path (views, temperature, second look). */
  const scoreSplit = async (splitKnobs: Partial<SynthKnobs> | undefined) => {
    const test = await loadOrRenderDataset({ seed: meta.training.seed, split: 'test', count: meta.training.recipe.testCount, difficulty, ...(splitKnobs ? { knobs: splitKnobs } : {}) }, { cacheDir: opts.cacheDir });
    // The reader's own reading of a die of a known set in view side: masked, tempered, a doubtful
    // die read again with the second look's extra views (mirrored d6, others moved sideways).
    const reading = readSplit(classifier, test, { temperature: meta.temperature, secondLookBelow: reader.secondLookBelow, extraLooks: readerOptions.secondLookExtra });
    const logits = new Float32Array(test.count * FACE_CLASSES.length);
    reading.logits.forEach((l, i) => logits.set(l, i * FACE_CLASSES.length));
    const { right, confidence, lookedAgain } = reading;
    return { ev: evaluate(logits, test, meta.temperature), count: test.count, lookedAgain, right, confidence };
  };
  // The test split exactly as training rendered it (same knobs); a changed renderer renders anew.
  const { ev, count, lookedAgain, right, confidence } = await scoreSplit(knobs);
  const framing = knobs?.framing ? `, framed ×${knobs.framing.join('–')}` : '';
  say(`### Synthetic test split (seed "${meta.training.seed}", ${count} crops, difficulty ${difficulty.join('–')}${framing}, never trained on) (target ≥ 99.5%)`);
  say();
  say(`| dice set | crops | accuracy |`);
  say(`|---|---|---|`);
  for (const set of DICE_SET_IDS) say(`| ${set} | ${ev.perSet[set]!.n} | ${pct(ev.perSet[set]!.accuracy)} |`);
  say(`| **all** | ${ev.overall.n} | **${pct(ev.overall.accuracy)}** |`);
  say();
  say(`Expected calibration error of the tempered confidence: ${ev.ece.toFixed(4)} (temperature ${meta.temperature.toFixed(3)}); ${lookedAgain} of ${count} crops were read a second time.`);
  say();
  {
    // What a table sees: a die below the reader's threshold is marked "check" and confirmed on a
    // phone, so the reads it commits to are the ones that must be right.
    const levels = [0.5, 0.7, reader.uncertainBelow, 0.95];
    const rows = levels.map((t) => {
      const kept = confidence.map((c, i) => (c >= t ? i : -1)).filter((i) => i >= 0);
      return { t, kept: kept.length, right: kept.filter((i) => right[i]).length };
    });
    say(`Not marked "check" (the reader marks a die below ${reader.uncertainBelow}), by the confidence a die must reach to go unmarked:`);
    say();
    say(`| unmarked at | ${rows.map((r) => `≥ ${r.t}${r.t === reader.uncertainBelow ? ' (the reader\'s)' : ''}`).join(' | ')} |`);
    say(`|---|${rows.map(() => '---').join('|')}|`);
    say(`| dice not marked | ${rows.map((r) => `${pct(r.kept / count)} (${r.kept})`).join(' | ')} |`);
    say(`| of them read right | ${rows.map((r) => pct(r.right / Math.max(1, r.kept))).join(' | ')} |`);
    say();
  }
  {
    // By the difficulty each crop was rendered at: how far the target is from the easy end.
    const bands = 7, [lo, hi] = difficulty, width = (hi - lo) / bands;
    const tally = Array.from({ length: bands }, () => ({ n: 0, right: 0 }));
    right.forEach((ok, i) => {
      const t = tally[Math.min(bands - 1, Math.floor((difficultyOf({ seed: meta.training.seed, split: 'test', difficulty }, i) - lo) / width))]!;
      t.n++;
      if (ok) t.right++;
    });
    const edge = (k: number) => (lo + k * width).toFixed(1);
    say(`By the renderer's difficulty (0 = upright die, plain light, clean camera; 1 = strong tilt, oblique camera, glare, marbling, blur, noise):`);
    say();
    say(`| difficulty | ${tally.map((_, k) => `${edge(k)}–${edge(k + 1)}`).join(' | ')} |`);
    say(`|---|${tally.map(() => '---').join('|')}|`);
    say(`| read right | ${tally.map((t) => `${pct(t.right / Math.max(1, t.n))} (${t.n})`).join(' | ')} |`);
    say();
  }
  // The same dice as pictures of one die cut by somebody else's detector, read as \`--crop\` reads them.
  const pictures = await scoreSplit({ ...knobs, pictureCut: 1 });
  {
    // The reader's views on rendered crops: upright ones (as trained), and the split rendered with
    // any camera roll (a picture whose up is not the world's up), each through classifyFramed.
    /** The split rendered with these knobs, read in each view: the share read right per view. */
    const readSplit = async (splitKnobs: Partial<SynthKnobs> | undefined, views: readonly CameraView[], colourLook = false): Promise<string[]> => {
      const test = await loadOrRenderDataset({ seed: meta.training.seed, split: 'test', count: meta.training.recipe.testCount, difficulty, ...(splitKnobs ? { knobs: splitKnobs } : {}) }, { cacheDir: opts.cacheDir });
      return views.map((as) => {
        let right = 0;
        for (const [s, set] of DICE_SET_IDS.entries()) {
          const idx = Array.from({ length: test.count }, (_, i) => i).filter((i) => test.sets[i] === s);
          const framed = idx.map((i): RgbImage => ({ width: 64, height: 64, data: test.pixels.subarray(i * 12288, (i + 1) * 12288) }));
          const readings = reader.classifyFramed(framed, framed.map((): Box => [0, 0, 64, 64]), { sets: [set], view: as, colourLook });
          readings.forEach((r, k) => { if (FACE_CLASSES.indexOf(classOf(set, r.face)) === test.classes[idx[k]!]) right++; });
        }
        return pct(right / test.count);
      });
    };
    if (reader.upright) {
      const { roll: _roll, ...anyRoll } = knobs ?? {};
      const [upSide, upAny] = await readSplit(knobs, ['side', 'any']);
      const [rollSide, rollAny] = await readSplit(anyRoll, ['side', 'any']);
      say(`Read by the reader in view side / any: **${upSide} / ${upAny}**; the same split rendered with any camera roll (the picture's up not the dice's): ${rollSide} / ${rollAny}.`);
      say();
      // As pictures are read: a die in doubt again in turned colours (ReadOptions.colourLook).
      const [lookSide, lookAny] = await readSplit(knobs, ['side', 'any'], true);
      say(`With the colour look, as pictures are read (a die in doubt read again with its colours turned round, vision-model.md "The colour look"), view side / any: ${lookSide} / ${lookAny}.`);
      say();
    }
  }
  say(`The same split rendered as pictures of one die (each cut round its die by a rectangle from 5 % inside to 35 % beyond each side, framed whole as \`npm run dice -- --crop --framing whole --view side\` frames and reads a picture): **${pct(pictures.ev.overall.accuracy)}** (${DICE_SET_IDS.map((set) => `${set} ${pct(pictures.ev.perSet[set]!.accuracy)}`).join(', ')}).`);
  say();
  classifier.dispose();

  // Since 26 November (sixth session): pictures of one die cut loosely, as a phone or somebody
  // else's detector cuts them. The die found inside is framed as a frame's located die is.
  const looseCount = 400;
  const looseFactors = [1, 1.5, 2, 3, 5];
  const { renderCropDetail } = await import('../vision/synth/crop.js');
  const { faceOf } = await import('../vision/faces/classes.js');
  const loose = Array.from({ length: looseCount }, (_, i) => {
    const rng = createRng(`eval-loose-${i}`);
    const cls = FACE_CLASSES[i % FACE_CLASSES.length]!;
    const d = renderCropDetail(rng, cls, { difficulty: difficulty[0] + (difficulty[1] - difficulty[0]) * rng.next(), knobs: { roll: knobs?.roll ?? 180, framing: [5, 5] } });
    return { ...d, face: faceOf(d.set, cls)! };
  });
  const cutAround = (im: RgbImage, box: Box, f: number): RgbImage => {
    const [x0, y0, x1, y1] = squareAround(box, f).map(Math.round) as Box;
    return cropRect(im, x0, y0, x1, y1);
  };
  const tight = await loadDiceReader({ ...readerOptions, cropFraming: 'locate', locatedFraming: 1 });
  const whole = await loadDiceReader({ ...readerOptions, cropFraming: 'whole' });
  const looseRows: [string, typeof reader][] = [['found inside, framed as a frame\'s located die (now)', reader], ['found inside, framed at its box (before)', tight], ['framed whole', whole]];
  say(`Pictures of one die cut loosely (${looseCount} rendered, every dice set, seeded \`eval-loose\`, upright, difficulty ${difficulty.join('–')}; each cut round its die's box × the factor, read in view side as \`npm run dice -- --crop --view side\` reads it):`);
  say();
  say(`| framing | ${looseFactors.map((f) => `× ${f}`).join(' | ')} |`);
  say(`|---|${looseFactors.map(() => '---').join('|')}|`);
  for (const [name, who] of looseRows) {
    const cells: string[] = [];
    for (const f of looseFactors) {
      let right = 0;
      for (const d of loose) {
        const [r] = await who.readCrops([cutAround(d.window, d.box, f)], { sets: [d.set], view: 'side' });
        if (r!.face === d.face) right++;
      }
      cells.push(pct(right / looseCount));
    }
    say(`| ${name} | ${cells.join(' | ')} |`);
  }
  say();
  tight.dispose();
  whole.dispose();
}
reader.dispose();
