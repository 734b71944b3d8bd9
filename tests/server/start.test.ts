/**
 * `npm start` on a fresh machine: embedded defaults (replay camera, keyboard buttons, the log in
 * the data folder) serve a table, print the URL and codes, and SIGTERM stops everything cleanly;
 * the next start resumes the same table.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableSnapshot } from '../../shared/protocol.js';
import { tempDir } from '../support/tmp.js';

const root = path.resolve(import.meta.dirname, '../..');
let dir: string;
let remove: () => Promise<void>;
beforeAll(async () => ({ dir, remove } = await tempDir('clew-start-')));
afterAll(() => remove());

function start() {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts'), '--no-qr'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', CLEW_DATA: dir, CLEW_CONFIG: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const running = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      out += line + '\n';
      const m = /clew is running: http:\/\/\S+:(\d+)/.exec(line);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    void exit.then(() => reject(new Error(`npm start exited early:\n${err}`)));
  });
  return { child, running, exit, output: () => out, errors: () => err };
}

describe('npm start', () => {
  it('serves a table with the embedded defaults, prints where to join, and stops cleanly on SIGTERM', async () => {
    const run = start();
    const url = await run.running;
    const health = (await (await fetch(`${url}/api/health`)).json()) as { camera: { kind: string }; buttons: { kind: string }[]; log: { ok: boolean; path: string } };
    expect(health.camera.kind).toBe('replay');
    expect(health.buttons.map((b) => b.kind)).toEqual(['keyboard']);
    expect(health.log).toMatchObject({ ok: true, path: path.join(dir, 'table.jsonl') });
    const table = (await (await fetch(`${url}/api/table`)).json()) as TableSnapshot;
    expect(table.game).toBe('worm-and-cozy');
    expect(run.output()).toMatch(/players: open http:\S+\/\?code=[A-Z0-9]{5}/);
    expect(run.output()).toMatch(/referee: open http:\S+\/\?referee=[A-Z0-9]{8}/);
    // It said what it chose.
    expect(run.errors()).toMatch(/camera: .*replay/);
    expect(run.errors()).toMatch(/buttons: keyboard/);

    run.child.kill('SIGTERM');
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(run.errors()).toMatch(/SIGTERM: shutting down/);
    expect(existsSync(path.join(dir, 'clew.lock'))).toBe(false);

    // The next start resumes the same table.
    const again = start();
    const url2 = await again.running;
    const resumed = (await (await fetch(`${url2}/api/table`)).json()) as TableSnapshot;
    expect(resumed.version).toBe(table.version);
    expect(again.errors()).toMatch(/resumed worm-and-cozy at version 1/);
    again.child.kill('SIGINT');
    expect((await again.exit).code).toBe(0);
  });

  it('SIGTERM while it is still starting: it finishes starting, then stops cleanly and lets the data folder go', async () => {
    const run = start();
    run.running.catch(() => undefined); // it stops before it serves: not an error here
    // Once it has started starting (said something past its config: the table, the camera), before
    // it serves the table. (Right after its first line the signal could come before any handler.)
    await new Promise<void>((resolve) => {
      const seen = () => run.errors().split('\n').some((l) => l.trim() && !/config: /.test(l)) && resolve();
      run.child.stderr!.on('data', seen);
    });
    run.child.kill('SIGTERM');
    expect(await run.exit).toEqual({ code: 0, signal: null });
    expect(run.errors()).toMatch(/SIGTERM: shutting down/);
    expect(existsSync(path.join(dir, 'clew.lock'))).toBe(false);
  });

  it('a port another program holds is said in words a person can act on (exit 1)', async () => {
    const { createServer } = await import('node:net');
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts'), '--no-qr'], {
        cwd: root,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CLEW_DATA: dir, CLEW_CONFIG: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1);
      expect(err).toMatch(new RegExp(`could not start: .*EADDRINUSE.*: port ${port} is taken by another program; stop it, or give clew another port`));
      expect(existsSync(path.join(dir, 'clew.lock'))).toBe(false);
    } finally {
      holder.close();
    }
  });

  it('a bad config is refused with a message that names the key, and exit code 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts')], {
      cwd: root,
      env: { ...process.env, PORT: 'eighty', CLEW_DATA: dir, CLEW_CONFIG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toMatch(/environment: PORT=eighty: port:/);
  });

  /** `npm start` with these arguments and environment, until it exits (each case here exits at once). */
  async function startExits(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; err: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/start.ts'), '--no-qr', ...args], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', CLEW_DATA: dir, CLEW_CONFIG: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, err };
  }

  it('what is wrong is said as the flag or the variable a person typed, and every usage error exits 2 (since the thirty-eighth session)', async () => {
    expect(await startExits(['--port', '99999'])).toMatchObject({ code: 2, err: expect.stringMatching(/--port 99999: port: a port is a whole number 0–65535/) });
    expect(await startExits([], { CLEW_LOG_LEVEL: 'verbose' })).toMatchObject({ code: 2, err: expect.stringMatching(/environment: CLEW_LOG_LEVEL=verbose: logLevel: /) });
    expect(await startExits(['--prot', '8080'])).toMatchObject({ code: 2, err: expect.stringMatching(/unknown option '--prot'/) });
    expect(await startExits(['--port'])).toMatchObject({ code: 2, err: expect.stringMatching(/option '-p, --port <port>' argument missing/) });
  });

  it('a data folder clew cannot make or write in is named, with how to choose another (exit 1; since the thirty-eighth session)', async () => {
    // A file where the data folder should be made: refused whoever runs clew.
    const file = path.join(dir, 'not-a-folder');
    await writeFile(file, '');
    const inTheWay = await startExits([], { CLEW_DATA: path.join(file, 'data') });
    expect(inTheWay.code).toBe(1);
    expect(inTheWay.err).toMatch(new RegExp(`could not start: ENOTDIR.*: clew cannot make its data folder ${path.join(file, 'data')}, a file is in the way; choose another folder with --data <folder> or CLEW_DATA=<folder>`));
    // A folder clew may not write in (root may write anywhere: there it is not tried).
    if (process.getuid?.() !== 0) {
      const closed = path.join(dir, 'closed');
      await mkdir(closed);
      await chmod(closed, 0o555);
      try {
        const refused = await startExits(['--data', closed]);
        expect(refused.code).toBe(1);
        expect(refused.err).toMatch(new RegExp(`could not start: EACCES.*: clew may not write in its data folder ${closed}; .*choose another folder with --data <folder> or CLEW_DATA=<folder>`));
      } finally {
        await chmod(closed, 0o755);
      }
    }
  });
});
