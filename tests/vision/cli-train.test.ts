/**
 * `npm run train`, run as a user runs it, in its quick form: one run writes the model, and the
 * steps after training redone on those stored weights (`--from-weights`) write the same meta.json
 * (temperature, test scores, orientation head). So the fits are made on the net as it is stored
 * and loaded, float16, not on the float32 net in memory, and a full run reproduces all three
 * committed files, not only the weights.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'clew-train-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function train(...args: string[]): void {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/train.ts', '--quick', '--cache-dir', path.join(tmp, 'cache'), ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
}

const meta = (dir: string) => {
  const { training: _training, ...rest } = JSON.parse(readFileSync(path.join(dir, 'meta.json'), 'utf8')) as Record<string, unknown>;
  return rest;
};

describe('train CLI', () => {
  it('fits what follows training on the stored weights: a run and its --from-weights redo write the same model and meta.json', () => {
    const first = path.join(tmp, 'first');
    const again = path.join(tmp, 'again');
    train('--out', first);
    train('--from-weights', first, '--out', again);
    expect(readFileSync(path.join(again, 'weights.bin')).equals(readFileSync(path.join(first, 'weights.bin')))).toBe(true);
    expect(readFileSync(path.join(again, 'model.json'), 'utf8')).toBe(readFileSync(path.join(first, 'model.json'), 'utf8'));
    expect(meta(again)).toEqual(meta(first));
  }, 180_000);
});
