/**
 * `npm run bench`: every performance figure the issues ask for, as a readable table, or with
 * `--json` one JSON object `{ "<id>": value, ... }`. `--quick` shortens runs (used by tests), and
 * `--only <substring>` runs the groups whose file name contains it.
 * Each measurement lives in its own module under scripts/bench/ (a file per area), and each area
 * runs in a fresh Node process: in one process the later areas measured what the earlier ones
 * left behind (a grown heap, other models on the same wasm backend), e.g. the dice crops at
 * 1.6 ms after the sheet and server areas against 0.9 ms alone.
 */
import { execFile } from 'node:child_process';
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
  .option('--area <file>', 'internal: measure this one file in this process and print its figures as JSON')
  .parse();
const opts = program.opts<{ json?: boolean; quick?: boolean; only?: string; area?: string }>();

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench');
const areas = (await readdir(dir)).filter((f) => /\.bench\.ts$/.test(f)).sort();
const files = areas.filter((f) => !opts.only || f.includes(opts.only));
if (opts.area === undefined && opts.only !== undefined && files.length === 0) {
  // A typo would otherwise measure nothing and print an empty table (or {}) as if all were well.
  process.stderr.write(`bench: no area's file name contains "${opts.only}"; the areas are: ${areas.map((f) => f.replace(/\.bench\.ts$/, '')).join(', ')}\n`);
  process.exit(2);
}

function meets(f: Figure): string {
  if (!f.target) return '';
  const pass = f.target.op === '<=' ? f.value <= f.target.value : f.value >= f.target.value;
  return `${f.target.op} ${f.target.value} ${pass ? 'ok' : 'MISSED'}`;
}

if (opts.area !== undefined) {
  // One area, in this process: its title and figures as one JSON line for the parent.
  const mod = (await import(pathToFileURL(path.join(dir, path.basename(opts.area))).href)) as { default: BenchModule };
  const figures = await mod.default.figures({ quick: Boolean(opts.quick) });
  process.stdout.write(`${JSON.stringify({ title: mod.default.title, figures })}\n`);
  process.exit(0);
}

/** Runs one area in a fresh process; its own output other than the last line goes to stderr. */
function measure(file: string): Promise<{ title: string; figures: Figure[] }> {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--area', file, ...(opts.quick ? ['--quick'] : [])];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const lines = stdout.trimEnd().split('\n');
      process.stderr.write(lines.slice(0, -1).map((l) => `${l}\n`).join('') + stderr);
      if (error) return reject(new Error(stderr.trim().split('\n').at(-1) || error.message));
      try {
        resolve(JSON.parse(lines.at(-1) ?? '') as { title: string; figures: Figure[] });
      } catch {
        reject(new Error(`no figures from ${file}`));
      }
    });
  });
}

const all: Figure[] = [];
const rows: string[][] = [];
for (const file of files) {
  let title: string, figures: Figure[];
  try {
    ({ title, figures } = await measure(file));
  } catch (error) {
    // One broken area must not hide the others' figures.
    process.stderr.write(`bench ${file} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
    continue;
  }
  all.push(...figures);
  for (const f of figures) {
    const digits = Math.abs(f.value) >= 100 ? 0 : Math.abs(f.value) >= 10 ? 1 : 3;
    rows.push([title, f.label, `${f.value.toFixed(digits)} ${f.unit}`, meets(f), f.note ?? '']);
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
