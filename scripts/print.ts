/**
 * `npm run print -- sheet --chapter ID [--paper a4|letter] --out FILE.pdf`: a chapter's printable
 * Worm & Cozy sheet (board, hour labels, tracks, die tables, rubric, drawing legend, camera markers).
 * `npm run print -- stickers --set SET [--dice N] [--paper a4|letter] [--ink C] [--body C] --out FILE.pdf`:
 * stickers for 16 mm dice from the dice face art.
 * Bad arguments print one clear message on stderr and exit with code 2.
 */
import { writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { DICE_SET_IDS, DIE_COLORS, type DiceSetId, isDieColor } from '../shared/dice.js';
import { loadChapter } from '../shared/games/worm-and-cozy/chapters.js';
import { PAPERS, type Paper } from '../shared/games/worm-and-cozy/sheet-layout.js';
import { sheetPdf } from './print/sheet-pdf.js';
import { stickersPdf } from './print/stickers-pdf.js';

function paper(value: string): Paper {
  const v = value.toLowerCase();
  if (!(PAPERS as readonly string[]).includes(v)) throw new InvalidArgumentError(`paper must be one of ${PAPERS.join(', ')}`);
  return v as Paper;
}

function diceSet(value: string): DiceSetId {
  if (!(DICE_SET_IDS as string[]).includes(value)) throw new InvalidArgumentError(`unknown dice set; known: ${DICE_SET_IDS.join(', ')}`);
  return value as DiceSetId;
}

function colour(value: string): string {
  if (isDieColor(value) || /^#[0-9a-f]{6}$/i.test(value)) return value;
  throw new InvalidArgumentError(`a colour is a die colour name (${Object.keys(DIE_COLORS).join(', ')}) or #rrggbb`);
}

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 500) throw new InvalidArgumentError('the number of dice is a whole number 1..500');
  return n;
}

async function write(file: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeFile(file, bytes);
  } catch (error) {
    throw new Error(`cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.stdout.write(`${file} (${bytes.length} bytes)\n`);
}

const program = new Command().name('print').description('Print Worm & Cozy sheets and dice stickers as PDF').exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

program
  .command('sheet')
  .description("a chapter's sheet, with the markers the camera reads")
  .requiredOption('--chapter <id>', 'chapter id, e.g. clew-1')
  .option('--paper <size>', 'a4 or letter', paper, 'a4' as Paper)
  .requiredOption('--out <file>', 'the PDF to write')
  .action(async (o: { chapter: string; paper: Paper; out: string }) => {
    const r = loadChapter(o.chapter);
    if (!r.ok) throw new Error(r.errors.join('\n'));
    await write(o.out, await sheetPdf(r.chapter, o.paper));
  });

program
  .command('stickers')
  .description('a sticker sheet for 16 mm dice')
  .requiredOption('--set <set>', `dice set: ${DICE_SET_IDS.join(', ')}`, diceSet)
  .option('--dice <n>', 'how many dice (default: one full page)', count)
  .option('--paper <size>', 'a4 or letter', paper, 'a4' as Paper)
  .option('--ink <colour>', 'icon colour (die colour name or #rrggbb)', colour)
  .option('--body <colour>', 'sticker colour (die colour name or #rrggbb)', colour)
  .requiredOption('--out <file>', 'the PDF to write')
  .action(async (o: { set: DiceSetId; dice?: number; paper: Paper; ink?: string; body?: string; out: string }) => {
    const opts: Parameters<typeof stickersPdf>[1] = { paper: o.paper };
    if (o.dice !== undefined) opts.dice = o.dice;
    if (o.ink !== undefined) opts.ink = o.ink;
    if (o.body !== undefined) opts.body = o.body;
    await write(o.out, await stickersPdf(o.set, opts));
  });

try {
  await program.parseAsync();
} catch (error) {
  process.stderr.write(`print: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
