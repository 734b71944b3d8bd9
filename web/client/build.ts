/**
 * Building the dashboard (Node side, not part of the bundle): `npm run build` builds it always;
 * `npm start` runs this with `--if-stale` first (the `prestart` script), so a fresh checkout or an
 * edit to the dashboard or the rules it imports is built before the server serves dist/client.
 * Tests and the screenshot script call `ensureClientBuilt()` once per run.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLIENT_OUT = path.join(REPO, 'dist/client');

/** Everything the bundle is made from: the client, the rules and face art it imports, the build config and recipe. */
const SOURCES = ['web/client/src', 'web/client/index.html', 'shared', 'vision/faces', 'vite.config.ts', 'web/client/build.ts', 'package.json'];

function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const name of readdirSync(p)) max = Math.max(max, newest(path.join(p, name)));
  return max;
}

/** True when dist/client is missing or older than any of its sources. */
export function clientIsStale(repo = REPO, out = CLIENT_OUT): boolean {
  const index = path.join(out, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((s) => newest(path.join(repo, s)) > built);
}

/** Runs the Vite build (same config as `npm run build`), then writes a gzipped twin of each script and style sheet. */
export async function buildClient(options: { quiet?: boolean } = {}): Promise<void> {
  const { build } = await import('vite');
  // Vite builds for whatever NODE_ENV says. Under vitest NODE_ENV is 'test', so Preact's and
  // Vite's development code came along (449 KB instead of 403 KB, 131 KB gzipped instead of
  // 124 KB). The phones must get the same production bundle whoever builds it.
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(REPO, 'vite.config.ts'), mode: 'production', logLevel: options.quiet ? 'error' : 'info' });
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
  await gzipAssets();
}

/** The server sends `x.js.gz` to phones that accept gzip (web/server/http.ts): compressed once, here. */
export async function gzipAssets(out = CLIENT_OUT): Promise<void> {
  const dir = path.join(out, 'assets');
  for (const name of await readdir(dir)) {
    if (!/\.(js|css)$/.test(name)) continue;
    await writeFile(path.join(dir, `${name}.gz`), gzipSync(await readFile(path.join(dir, name)), { level: 9 }));
  }
}

/**
 * Builds once even when several test processes ask at the same time: the first takes a lock
 * folder, the others wait for it to go.
 */
export async function ensureClientBuilt(options: { quiet?: boolean; waitMs?: number } = {}): Promise<void> {
  const lock = path.join(REPO, 'dist/.client-build.lock');
  // Written last, after the gzipped twins: another process's build in progress empties
  // dist/client first (this goes with it) and writes index.html before its scripts are all
  // there, so a fresh index.html alone does not say the dashboard can be served yet.
  const built = path.join(CLIENT_OUT, '.built');
  const deadline = Date.now() + (options.waitMs ?? 240_000);
  await mkdir(path.dirname(lock), { recursive: true });
  for (;;) {
    if (!clientIsStale() && existsSync(built)) return;
    try {
      await mkdir(lock);
    } catch {
      // Someone else is building; a lock older than the wait is left over from a killed run.
      const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > (options.waitMs ?? 240_000)) await rm(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('waited too long for another build of the dashboard');
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (clientIsStale()) await buildClient(options);
      await writeFile(built, new Date().toISOString());
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
    return;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  try {
    if (ifStale) {
      if (clientIsStale()) {
        process.stdout.write('clew: building the phone dashboard (dist/client)…\n');
        await ensureClientBuilt({ quiet: true });
      }
    } else {
      await buildClient();
    }
  } catch (error) {
    process.stderr.write(`clew: the dashboard could not be built: ${(error as Error).message}\n`);
    // npm start still serves the table (with the placeholder page) when only the build failed.
    process.exit(ifStale ? 0 : 1);
  }
}
