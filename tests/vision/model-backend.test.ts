/**
 * The backend clew starts leaves the process's own error handling alone: the wasm module's glue
 * adds handlers that only rethrow, which made any crash print its 38 KB minified source line.
 * Started twice at once (two readers loaded together), it still ends on wasm.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initBackend } from '../../vision/model/backend.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('initBackend (wasm)', () => {
  it('adds no process handler that only rethrows', async () => {
    const before = [...process.listeners('uncaughtException'), ...process.listeners('unhandledRejection')];
    await initBackend('wasm');
    const added = [...process.listeners('uncaughtException'), ...process.listeners('unhandledRejection')].filter((l) => !before.includes(l));
    expect(added.map(String)).toEqual([]);
  });

  it('a process that crashes after starting it says why in a few lines', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'tests/fixtures/vision/crash-after-wasm.ts')], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.stdout).toBe('backend wasm\n');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Error: a rejection nobody handles/);
    expect(run.stderr.length).toBeLessThan(2000);
    expect(Math.max(...run.stderr.split('\n').map((l) => l.length))).toBeLessThan(300);
  });

  it('started twice at once, both calls and tfjs end on wasm (they ended on cpu: the slow backend, reading a little differently)', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'tests/fixtures/vision/init-twice.ts')], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).not.toMatch(/Hi, looks like you are running TensorFlow.js in Node.js/);
    expect(run.stdout).toBe('wasm wasm wasm\n');
  });
});
