/**
 * Runs tests/support/child-server.ts as real child processes. The entry is bundled once with
 * esbuild (packages stay external) so a restart costs a Node start, not a TypeScript compile;
 * children are started in standby and released one at a time (see child-server.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '../..');

export async function bundleChildServer(): Promise<string> {
  const outdir = path.join(root, 'node_modules/.cache/clew-tests');
  await mkdir(outdir, { recursive: true });
  const outfile = path.join(outdir, `child-server-${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(root, 'tests/support/child-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

export interface ChildInfo {
  port: number;
  joinCode: string;
  refereeCode: string;
}

export interface ServerChild {
  process: ChildProcess;
  /** Opens the data folder and listens; resolves once it says READY. */
  go(): Promise<ChildInfo>;
  /** SIGKILL, and wait until it is gone. */
  kill(): Promise<void>;
  stderr(): string;
}

export function standbyChild(entry: string, env: Record<string, string>): ServerChild {
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, ...env, CLEW_STANDBY: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<ChildInfo>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve(JSON.parse(line.slice(6)) as ChildInfo);
    });
    void exited.then(() => reject(new Error(`the server exited before it was ready:\n${err}`)));
  });
  ready.catch(() => undefined);
  return {
    process: child,
    go() {
      child.stdin!.write('go\n');
      return ready;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stderr: () => err,
  };
}
