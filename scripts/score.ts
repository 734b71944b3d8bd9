/**
 * `npm run --silent score -- FILE.json`: scores a Worm & Cozy sheet file and prints
 * `{"rewards":[{"name","count","points"}],"penalty":{"count","points"},"total","rubric"}`.
 * A bad file prints one message per problem on stderr and exits with code 2.
 *
 * `npm run --silent score -- --photo FILE.jpg --chapter ID`: reads a photographed sheet (see
 * docs/notes/sheets.md) and prints `{"chapter","sheet","score","uncertain","quality"}`, where
 * `score` has the keys above and `uncertain` lists the readings to confirm. A photo that cannot be
 * read prints one message on stderr and exits with code 2.
 */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { scoreSheet } from '../shared/games/worm-and-cozy/sheet.js';

async function scoreFile(file: string): Promise<{ ok: true; json: string; warnings: string[] } | { ok: false; errors: string[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, errors: [`${file}: cannot read it (${error instanceof Error ? error.message : String(error)})`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})`] };
  }
  const r = scoreSheet(json);
  if (!r.ok) return { ok: false, errors: r.errors.map((e) => `${file}: ${e}`) };
  const s = r.score;
  // Exactly these keys, in this order.
  const out = {
    rewards: s.rewards.map((x) => ({ name: x.name, count: x.count, points: x.points })),
    penalty: { count: s.penalty.count, points: s.penalty.points },
    total: s.total,
    rubric: s.rubric,
  };
  return { ok: true, json: JSON.stringify(out), warnings: r.warnings.map((w) => `${file}: warning: ${w}`) };
}

async function scorePhoto(file: string, chapter: string): Promise<{ ok: true; json: string; warnings: string[] } | { ok: false; errors: string[] }> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(file));
  } catch (error) {
    return { ok: false, errors: [`${file}: cannot read it (${error instanceof Error ? error.message : String(error)})`] };
  }
  // Loaded only here: the JSON mode stays free of image libraries.
  const { readSheetPhoto } = await import('../vision/sheet/read.js');
  const { SheetReadError } = await import('../vision/sheet/errors.js');
  try {
    const r = await readSheetPhoto(bytes, chapter);
    const s = r.score;
    const score = s && { rewards: s.rewards.map((x) => ({ name: x.name, count: x.count, points: x.points })), penalty: { count: s.penalty.count, points: s.penalty.points }, total: s.total, rubric: s.rubric };
    return { ok: true, json: JSON.stringify({ chapter: r.chapter, sheet: r.sheet, score, uncertain: r.uncertain, quality: r.quality }), warnings: [] };
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? `${String((error as { code: unknown }).code)}: ` : '';
    // The reader's message is worded for any caller; here the way to read the right sheet is this flag.
    const seen = error instanceof SheetReadError && error.code === 'sheet/wrong-chapter' ? error.chaptersSeen : [];
    const hint = seen.length ? ` (${seen.map((id) => `--chapter ${id}`).join(' or ')})` : '';
    return { ok: false, errors: [`${file}: ${code}${error instanceof Error ? error.message : String(error)}${hint}`] };
  }
}

const program = new Command()
  .name('score')
  .description('Score a finished Worm & Cozy sheet file (see docs/notes/worm-and-cozy.md), or read one from a photo (docs/notes/sheets.md)')
  .argument('[file]', 'the sheet JSON file')
  .option('--photo <file>', 'a photo of a printed sheet (JPEG, PNG, ...)')
  .option('--chapter <id>', 'the chapter of the photographed sheet')
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
  .parse();
const opts = program.opts<{ photo?: string; chapter?: string }>();

let result: Awaited<ReturnType<typeof scoreFile>>;
// One sheet a run: a file and a photo together, or a chapter for a file (which names its own), are refused, not ignored.
if (opts.photo !== undefined && program.args[0] !== undefined) {
  result = { ok: false, errors: [`give either the sheet file (${program.args[0]}) or --photo, not both`] };
} else if (opts.photo === undefined && opts.chapter !== undefined) {
  result = { ok: false, errors: ['--chapter goes with --photo: a sheet file names its chapter itself'] };
} else if (opts.photo !== undefined) {
  result = opts.chapter ? await scorePhoto(opts.photo, opts.chapter) : { ok: false, errors: ['--photo needs --chapter ID (the chapter printed on the sheet, e.g. clew-1)'] };
} else if (program.args[0] !== undefined) {
  result = await scoreFile(program.args[0]);
} else {
  result = { ok: false, errors: ["missing the sheet file: score FILE.json, or score --photo FILE.jpg --chapter ID"] };
}
if (result.ok) {
  process.stdout.write(result.json + '\n');
  if (result.warnings.length) process.stderr.write(result.warnings.join('\n') + '\n');
} else {
  process.stderr.write(result.errors.join('\n') + '\n');
  process.exitCode = 2;
}
