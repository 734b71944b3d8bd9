/**
 * The dashboard's files after an update: the page is asked for afresh each time (it names this
 * build's scripts), the hashed scripts may be kept for good, and a script of another build is
 * missing (404), not the page. Before, the page was cached for an hour and an old script's name
 * answered with the page, so a phone showed a blank dashboard for up to an hour after an update.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/scratch.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function builtClient(): string {
  const dir = scratchDir('clew-client-');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/index-NEW.js"></script>');
  writeFileSync(path.join(dir, 'assets', 'index-NEW.js'), 'console.log("new")');
  return dir;
}

describe('the dashboard files', () => {
  it('the page is never served from a cache without asking; its scripts are kept; a script of another build is 404', async () => {
    server = await startTestServer({ start: { clientDir: builtClient() } });
    for (const page of ['/', '/index.html', '/some/route']) {
      const res = await fetch(`${server.url}${page}`);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('content-type'), page).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control'), page).toBe('no-cache');
      expect(await res.text()).toContain('/assets/index-NEW.js');
    }
    const script = await fetch(`${server.url}/assets/index-NEW.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const old = await fetch(`${server.url}/assets/index-OLD.js`);
    expect(old.status).toBe(404);
    expect(old.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await old.text()).toMatch(/no such file in this build of the dashboard: \/assets\/index-OLD\.js; reload the page/);
  });
});
