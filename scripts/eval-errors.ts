/**
 * `npm run eval:errors`: how many of the reader's errors on the synthetic test split could a
 * person read? The split's accuracy target counts every die, and the renderer draws some dice
 * nobody can read (marbling over the marks, glare, blur, a neighbour in the middle of a loose
 * crop). This puts a number on that:
 *
 *   npm run eval:errors                       # a seeded sample of the errors: contact sheets + CSV
 *   (open the sheets, write y or n in the CSV's last column for each numbered die)
 *   npm run eval:errors -- --judged FILE.csv  # the share judged readable and what it implies
 *
 * The errors are those eval:dice counts (the reader's path in view side). A judged file made for
 * another model or split is refused where its rows no longer match the errors.
 */
import { Command } from 'commander';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { DICE_SET_IDS } from '../shared/dice.js';
import { createRng } from '../shared/rng.js';
import { FACE_CLASSES } from '../vision/faces/classes.js';
import { loadClassifier } from '../vision/model/classifier.js';
import { loadOrRenderDataset } from '../vision/model/dataset-store.js';
import { auditCsv, parseAudit, summariseAudit, type AuditRow } from '../vision/model/error-audit.js';
import { readSplit, splitCrops } from '../vision/model/split-reading.js';
import { SECOND_LOOK_BELOW } from '../vision/reader.js';

const program = new Command()
  .name('eval:errors')
  .option('--model <dir>', 'model directory (default: the committed model)')
  .option('--sample <n>', 'errors to sample', '128')
  .option('--seed <seed>', 'the sample\'s seed', 'audit')
  .option('--out <dir>', 'where the contact sheets and the CSV go', 'tmp/error-audit')
  .option('--judged <file>', 'summarise a judged CSV instead of writing a sample')
  .option('--cache-dir <dir>', 'rendered crops cache', 'tmp/train-cache')
  .parse();
const opts = program.opts<{ model?: string; sample: string; seed: string; out: string; judged?: string; cacheDir: string }>();

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;
const sampleSize = Number(opts.sample);
if (!Number.isInteger(sampleSize) || sampleSize <= 0) throw new Error(`--sample must be a positive whole number, got "${opts.sample}"`);

const modelDir = opts.model ?? 'vision/model/weights';
const meta = JSON.parse(await readFile(path.join(modelDir, 'meta.json'), 'utf8')) as { training: { seed: string; difficulty: [number, number]; recipe: { testCount: number; knobs?: Record<string, unknown> } }; temperature: number };
const test = await loadOrRenderDataset({ seed: meta.training.seed, split: 'test', count: meta.training.recipe.testCount, difficulty: meta.training.difficulty, ...(meta.training.recipe.knobs ? { knobs: meta.training.recipe.knobs } : {}) }, { cacheDir: opts.cacheDir });
const classifier = await loadClassifier({ modelDir });
const reading = readSplit(classifier, test, { temperature: meta.temperature, secondLookBelow: SECOND_LOOK_BELOW, extraLooks: true });
classifier.dispose();
const errors: AuditRow[] = [];
reading.right.forEach((ok, index) => {
  if (ok) return;
  errors.push({ n: 0, index, set: DICE_SET_IDS[test.sets[index]!]!, truth: FACE_CLASSES[test.classes[index]!]!, read: FACE_CLASSES[reading.read[index]!]!, confidence: reading.confidence[index]! });
});
process.stdout.write(`Synthetic test split: ${test.count} crops, ${errors.length} read wrong (${pct(1 - errors.length / test.count)} right).\n`);

if (opts.judged) {
  const rows = parseAudit(await readFile(opts.judged, 'utf8'), opts.judged);
  const byIndex = new Map(errors.map((e) => [e.index, e]));
  const stale = rows.filter((r) => byIndex.get(r.index)?.truth !== r.truth);
  if (stale.length > 0) throw new Error(`${opts.judged}: ${stale.length} judged rows are not errors of this model on this split (first: n ${stale[0]!.n}, crop ${stale[0]!.index})`);
  const s = summariseAudit(rows, errors.length, test.count);
  process.stdout.write(`Judged readable: ${s.readable} of ${s.judged} sampled errors, ${pct(s.share)} (95 % interval ${pct(s.shareInterval[0])}–${pct(s.shareInterval[1])}).\n`);
  process.stdout.write(`A reader that read right every die judged readable, and no other, would reach ${pct(s.ceiling)} (${pct(s.ceilingInterval[0])}–${pct(s.ceilingInterval[1])}) on this split. Not the split's ceiling: nets read many dice a person cannot (docs/notes/vision-model.md).\n`);
  const bySet = DICE_SET_IDS.map((set) => {
    const r = rows.filter((x) => x.set === set);
    return `${set} ${r.filter((x) => x.readable).length}/${r.length}`;
  });
  process.stdout.write(`Readable by set: ${bySet.join(', ')}.\n`);
} else {
  const sample = createRng(opts.seed).shuffle(errors).slice(0, sampleSize).map((e, n) => ({ ...e, n }));
  await mkdir(opts.out, { recursive: true });
  await writeFile(path.join(opts.out, 'errors.csv'), auditCsv(sample));
  const crops = splitCrops(test);
  const S = 192, cols = 8, perPage = 32;
  for (let page = 0; page * perPage < sample.length; page++) {
    const part = sample.slice(page * perPage, (page + 1) * perPage);
    const tiles = await Promise.all(part.map(async (e) => {
      const crop = crops[e.index]!;
      const big = await sharp(Buffer.from(crop.data), { raw: { width: 64, height: 64, channels: 3 } }).resize(S, S, { kernel: 'lanczos3' }).png().toBuffer();
      const label = Buffer.from(`<svg width="${S}" height="${S}"><text x="6" y="24" font-family="sans-serif" font-size="20" font-weight="bold" fill="#fff" stroke="#000" stroke-width="1">${e.n}</text></svg>`);
      return sharp(big).composite([{ input: label }]).png().toBuffer();
    }));
    const rows = Math.ceil(part.length / cols);
    const file = path.join(opts.out, `sheet-${page + 1}.png`);
    await sharp({ create: { width: cols * S, height: rows * S, channels: 3, background: '#000' } }).composite(tiles.map((t, k) => ({ input: t, left: (k % cols) * S, top: Math.floor(k / cols) * S }))).png().toFile(file);
    process.stdout.write(`${file}: errors ${part[0]!.n}–${part.at(-1)!.n}\n`);
  }
  process.stdout.write(`${path.join(opts.out, 'errors.csv')}: write y (a careful player could read the top face) or n in the last column, then run with --judged.\n`);
}
