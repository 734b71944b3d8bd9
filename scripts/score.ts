/**
 * `npm run --silent score -- FILE.json`: scores a Worm & Cozy sheet file and prints
 * `{"rewards":[{"name","count","points"}],"penalty":{"count","points"},"total","rubric"}`.
 * A bad file prints one message per problem on stderr and exits with code 2.
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

const program = new Command()
  .name('score')
  .description('Score a finished Worm & Cozy sheet file (see docs/notes/worm-and-cozy.md)')
  .argument('<file>', 'the sheet JSON file')
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
  .parse();

const result = await scoreFile(program.args[0]!);
if (result.ok) {
  process.stdout.write(result.json + '\n');
  if (result.warnings.length) process.stderr.write(result.warnings.join('\n') + '\n');
} else {
  process.stderr.write(result.errors.join('\n') + '\n');
  process.exitCode = 2;
}
