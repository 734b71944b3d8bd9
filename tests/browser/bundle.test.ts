/**
 * The dashboard the phones download is the production bundle whoever built it: the test runner
 * sets NODE_ENV=test, and a Vite build under it used to ship Preact's development JSX (every
 * element carrying its source file, line and column: 449 KB instead of 403 KB).
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_OUT, ensureClientBuilt } from '../../web/client/build.js';

describe('the built dashboard', () => {
  it('is the production bundle even when built from inside the tests', async () => {
    expect(process.env.NODE_ENV).toBe('test');
    await ensureClientBuilt({ quiet: true });
    const dir = path.join(CLIENT_OUT, 'assets');
    const scripts = (await readdir(dir)).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const code = await readFile(path.join(dir, name), 'utf8');
      expect(code, `${name} carries development JSX source positions`).not.toMatch(/columnNumber:/);
    }
    expect(process.env.NODE_ENV).toBe('test');
  });
});
