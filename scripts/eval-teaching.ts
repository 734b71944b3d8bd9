/**
 * `npm run eval:teaching`: what teaching clew from the dice a table checks in play does, on the
 * real Catan crops (docs/notes/vision-model.md, "Dice checked during play").
 *
 * Each seeded split plays half the crops: the shipped reader reads them, and those it marks
 * "check" or misreads are the dice a table would check. The other half is read after teaching:
 *   - nothing (the shipped reader);
 *   - the checked dice with their true faces (a table that corrects what it checks);
 *   - the checked dice with the faces as read (nobody corrected them: what a careless "use" teaches);
 *   - as many played crops drawn at random, with their true faces.
 * A face never checked gets one played crop of it (a save needs every face).
 *
 * Then teaching on other dice: the crops recoloured as eval:dice recolours them (a green die with
 * pale cyan pips, BRG; the negative), each calibrated with 5 crops per face over seeded splits as
 * eval:dice calibrates, the rest read. Validation only: reads ../shared/dice-real by default (or
 * --real DIR) and trains nothing that is kept.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { DICE_SETS } from '../shared/dice.js';
import { createRng } from '../shared/rng.js';
import { decodeImage } from '../vision/image/decode.js';
import { loadDiceReader } from '../vision/reader.js';
import { RECOLOURED, recoloured } from './eval-colours.js';

const program = new Command()
  .name('eval:teaching')
  .description('teaching clew from the dice checked in play, against teaching from random crops, on the real Catan crops')
  .option('--real <dir>', 'folder of real photos (labels.csv, catan-crops/)', '../shared/dice-real')
  .option('--splits <n>', 'seeded splits of the crops into played and read', '16')
  .option('--colour-splits <n>', 'seeded calibrations of each recoloured set of crops (0: skip)', '8')
  .parse();
const opts = program.opts<{ real: string; splits: string; colourSplits: string }>();
const wholeFrom = (text: string, min: number, name: string): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) {
    process.stderr.write(`eval:teaching: ${name} must be a whole number from ${min}, got "${text}"\n`);
    process.exit(2);
  }
  return n;
};
const splits = wholeFrom(opts.splits, 1, '--splits');
const colourSplits = wholeFrom(opts.colourSplits, 0, '--colour-splits');
// The real photos are not in the repository: say so, as eval:dice does, rather than a stack trace.
if (!existsSync(opts.real)) {
  process.stderr.write(`eval:teaching: ${opts.real} not found (pass --real DIR)\n`);
  process.exit(2);
}
if (!existsSync(path.join(opts.real, 'labels.csv'))) {
  process.stderr.write(`eval:teaching: ${opts.real} has no labels.csv (pass --real DIR: a folder with labels.csv and catan-crops/)\n`);
  process.exit(2);
}

const lines = (await readFile(path.join(opts.real, 'labels.csv'), 'utf8')).trim().split('\n');
const header = lines[0]!.split(',');
const rows = lines.slice(1).map((l) => l.split(','));
const [fileAt, faceAt] = [header.indexOf('file'), header.indexOf('face')];
const crops = await Promise.all(rows.map(async (r) => decodeImage(new Uint8Array(await readFile(path.join(opts.real, r[fileAt]!))))));
const truth = rows.map((r) => r[faceAt]!);
const faces = DICE_SETS.d6.faces;

const reader = await loadDiceReader({ cropFraming: 'locate' });
const read = (which: number[]) => reader.readCrops(which.map((i) => crops[i]!), { sets: ['d6'], view: 'any' });
const shipped = await read(crops.map((_, i) => i));

type Row = { right: number; read: number; marked: number; wrongUnmarked: number };
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(2)} %`;
const kinds = ['nothing', 'checked', 'careless', 'random'] as const;
const total = Object.fromEntries(kinds.map((k) => [k, { right: 0, read: 0, marked: 0, wrongUnmarked: 0 }])) as Record<(typeof kinds)[number], Row>;
const add = (row: Row, readings: { face: string; uncertain?: boolean }[], rest: number[]) => {
  readings.forEach((r, j) => {
    const right = r.face === truth[rest[j]!];
    row.read++;
    if (right) row.right++;
    if (r.uncertain) row.marked++;
    if (!right && !r.uncertain) row.wrongUnmarked++;
  });
};
let taughtSizes: number[] = [];
let toppedUp = 0;
for (let k = 0; k < splits; k++) {
  const rng = createRng(`play-split:${k}`);
  const order = rng.shuffle(crops.map((_, i) => i));
  const played = order.slice(0, Math.floor(order.length / 2));
  const rest = order.slice(played.length);
  const checked = played.filter((i) => shipped[i]!.uncertain || shipped[i]!.face !== truth[i]);
  const topUp = faces.filter((f) => !checked.some((i) => truth[i] === f)).flatMap((f) => played.filter((i) => truth[i] === f).slice(0, 1));
  toppedUp += topUp.length;
  const taught = [...checked, ...topUp];
  taughtSizes.push(taught.length);
  const random = rng.shuffle([...played]).slice(0, taught.length);
  for (const f of faces) if (!random.some((i) => truth[i] === f)) random.push(played.find((i) => truth[i] === f)!);
  add(total.nothing, rest.map((i) => shipped[i]!), rest);
  const teachings: [(typeof kinds)[number], number[], (i: number) => string][] = [
    ['checked', taught, (i) => truth[i]!],
    ['careless', taught, (i) => (shipped[i]!.uncertain ? shipped[i]!.face : truth[i]!)],
    ['random', random, (i) => truth[i]!],
  ];
  for (const [kind, list, label] of teachings) {
    for (const i of list) await reader.calibration.add('d6', label(i), crops[i]!);
    await reader.calibration.commit('d6', { persist: false, createdAt: 'eval' });
    add(total[kind], await read(rest), rest);
    await reader.calibration.undo('d6');
  }
  process.stderr.write(`split ${k + 1} of ${splits}: ${taught.length} dice checked\n`);
}

// Other dice: the crops recoloured, calibrated with 5 per face (eval:dice's seeds), the rest read.
// Eval:dice's recolourings, as taken first; BRG named for the die it makes.
const COLOURS = new Map<string, string>([
  ['RGB → BRG', 'RGB → BRG (a green die, pale cyan pips)'],
  ['negative', 'negative'],
]);
const TAUGHT_COLOURS: readonly [string, (r: number, g: number, b: number) => [number, number, number]][] = [
  ['as taken', (r, g, b) => [r, g, b]],
  ...RECOLOURED.filter(([name]) => COLOURS.has(name)).map(([name, how]): [string, typeof how] => [COLOURS.get(name)!, how]),
];
const colourRows: string[] = [];
for (const [name, how] of colourSplits > 0 ? TAUGHT_COLOURS : []) {
  const these = crops.map((c) => recoloured(c, how));
  const before = await reader.readCrops(these, { sets: ['d6'], view: 'any' });
  const untaught: Row = { right: 0, read: 0, marked: 0, wrongUnmarked: 0 };
  const taught: Row = { right: 0, read: 0, marked: 0, wrongUnmarked: 0 };
  for (let k = 0; k < colourSplits; k++) {
    const rng = createRng(k === 0 ? 'eval-dice-calibration' : `cal-split:${k}`);
    const chosen = faces.flatMap((f) => rng.shuffle(these.map((_, i) => i).filter((i) => truth[i] === f)).slice(0, 5));
    const rest = these.map((_, i) => i).filter((i) => !chosen.includes(i));
    for (const i of chosen) await reader.calibration.add('d6', truth[i]!, these[i]!);
    await reader.calibration.commit('d6', { persist: false, createdAt: 'eval' });
    add(taught, await reader.readCrops(rest.map((i) => these[i]!), { sets: ['d6'], view: 'any' }), rest);
    await reader.calibration.undo('d6');
    add(untaught, rest.map((i) => before[i]!), rest);
  }
  process.stderr.write(`${name}: done\n`);
  const cell = (r: Row) => `${pct(r.right, r.read)}; ${Math.round((100 * r.marked) / r.read)} %; ${r.wrongUnmarked}`;
  colourRows.push(`| ${name} | ${cell(untaught)} | ${cell(taught)} |`);
}
reader.dispose();

const label: Record<(typeof kinds)[number], string> = {
  nothing: 'nothing (the shipped reader)',
  checked: 'the dice checked in play, their true faces',
  careless: 'the dice checked in play, misread ones left as read',
  random: 'as many played crops drawn at random',
};
taughtSizes = taughtSizes.sort((a, b) => a - b);
console.log(`### Teaching from the dice checked in play (${splits} seeded splits of the ${crops.length} Catan crops: ${crops.length - Math.ceil(crops.length / 2)} played, ${Math.ceil(crops.length / 2)} read after)`);
console.log('');
console.log(`Dice checked a split: ${taughtSizes[0]}–${taughtSizes.at(-1)}; faces never checked, topped up with one played crop: ${toppedUp} in all.`);
console.log('');
console.log('| taught | read right | marked "check" | misread without the mark |');
console.log('|---|---|---|---|');
for (const k of kinds) {
  const r = total[k];
  console.log(`| ${label[k]} | ${pct(r.right, r.read)} | ${r.marked} (${Math.round((100 * r.marked) / r.read)} %) | ${r.wrongUnmarked} |`);
}
if (colourRows.length > 0) {
  console.log('');
  console.log(`### Teaching other dice: the crops recoloured, calibrated with 5 crops per face (${colourSplits} seeded splits, eval:dice's first), the other ${crops.length - 30} read each time`);
  console.log('');
  console.log('| the crops | untaught: read right; marked; misread without the mark | taught: the same |');
  console.log('|---|---|---|');
  for (const row of colourRows) console.log(row);
}
