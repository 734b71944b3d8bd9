/**
 * `npm run eval:sheets [-- --count 200 --from 0 --json]`: reads synthetic photos of filled-in sheets
 * (seeds eval-<from> .. eval-<from+count-1>, never used to train or tune the reader) and prints cell
 * state accuracy (target at least 99.5%), organ accuracy, and the share of photos whose fully
 * automatic score equals the true score (target at least 95%).
 */
import { Command, InvalidArgumentError } from 'commander';
import { evaluate } from '../vision/sheet/evaluate.js';

const int = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a whole number');
  return n;
};
const program = new Command()
  .name('eval:sheets')
  .option('--count <n>', 'photos', int, 200)
  .option('--from <n>', 'first seed number', int, 0)
  .option('--prefix <p>', 'seed prefix', 'eval')
  .option('--json', 'print the summary as JSON')
  .option('--verbose', 'one line per photo on stderr')
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
  .parse();
const o = program.opts<{ count: number; from: number; prefix: string; json?: boolean; verbose?: boolean }>();
const seeds = Array.from({ length: o.count }, (_, i) => `${o.prefix}-${o.from + i}`);
const s = await evaluate(seeds, {}, (r) => {
  if (!o.verbose) return;
  const flag = r.error ? `ERROR ${r.error}` : `${r.readTotal === r.trueTotal ? 'ok   ' : 'WRONG'} score ${r.readTotal} (true ${r.trueTotal}), cells ${r.cellsRight}/${r.cells}, organs ${r.organsRight}/${r.organs}, uncertain ${r.uncertain} (${r.uncertainAffectingScore} matter)`;
  process.stderr.write(`${r.seed} ${r.chapter} ${flag} ${[...r.wrongCells, ...r.wrongOrgans].join(', ')}\n`);
});
const pct = (v: number) => `${(100 * v).toFixed(2)}%`;
if (o.json) {
  const { results, ...summary } = s;
  process.stdout.write(JSON.stringify({ ...summary, wrong: results.filter((r) => r.readTotal !== r.trueTotal).map((r) => r.seed) }) + '\n');
} else {
  process.stdout.write(
    [
      `photos                 ${s.photos} (${o.prefix}-${o.from} .. ${o.prefix}-${o.from + o.count - 1})`,
      `cell state accuracy    ${pct(s.cellAccuracy)}   (target >= 99.5%)`,
      `organ accuracy         ${pct(s.organAccuracy)}`,
      `score equal to truth   ${pct(s.scoreEqual)}   (target >= 95%)`,
      `wrong and not flagged  ${s.silentlyWrong} photos`,
      `unreadable             ${s.failed} photos`,
      `mean read time         ${s.meanMs.toFixed(0)} ms per photo (this machine, as loaded)`,
    ].join('\n') + '\n',
  );
}
