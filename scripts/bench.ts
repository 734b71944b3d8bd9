/**
 * `npm run bench`: every performance figure the issues ask for, as a readable table, or with
 * `--json` one JSON object `{ "<id>": value, ... }`. `--quick` shortens runs (used by tests), and
 * `--only <substring>` runs the groups whose file name contains it.
 * Each measurement lives in its own module under scripts/bench/ (a file per area).
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { Command } from 'commander';
import type { BenchModule, Figure } from './bench/types.js';

const program = new Command()
  .name('bench')
  .option('--json', 'print one JSON object of all figures')
  .option('--quick', 'shorter runs (less precise)')
  .option('--only <name>', 'only the bench files whose name contains this')
  .parse();
const opts = program.opts<{ json?: boolean; quick?: boolean; only?: string }>();

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench');
const files = (await readdir(dir))
  .filter((f) => /\.bench\.ts$/.test(f))
  .filter((f) => !opts.only || f.includes(opts.only))
  .sort();

function meets(f: Figure): string {
  if (!f.target) return '';
  const pass = f.target.op === '<=' ? f.value <= f.target.value : f.value >= f.target.value;
  return `${f.target.op} ${f.target.value} ${pass ? 'ok' : 'MISSED'}`;
}

const all: Figure[] = [];
const rows: string[][] = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: BenchModule };
  let figures: Figure[];
  try {
    figures = await mod.default.figures({ quick: Boolean(opts.quick) });
  } catch (error) {
    // One broken area must not hide the others' figures.
    process.stderr.write(`bench ${file} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
    continue;
  }
  all.push(...figures);
  for (const f of figures) {
    const digits = Math.abs(f.value) >= 100 ? 0 : Math.abs(f.value) >= 10 ? 1 : 3;
    rows.push([mod.default.title, f.label, `${f.value.toFixed(digits)} ${f.unit}`, meets(f), f.note ?? '']);
  }
}

if (opts.json) {
  process.stdout.write(JSON.stringify(Object.fromEntries(all.map((f) => [f.id, f.value]))) + '\n');
} else {
  const header = ['area', 'figure', 'value', 'target', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  process.stdout.write([line(header), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...rows.map(line)].join('\n') + '\n');
}
