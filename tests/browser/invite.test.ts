/**
 * The referee's join QR code in Chromium: a referee who opened clew as localhost on its own
 * machine gets a QR code other phones can open (the LAN address the server listens at), not one
 * that sends every phone to itself.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lanAddresses } from '../../web/server/lan.js';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { joinAsReferee } from './support/pages.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  // Listening on every interface, as `npm start` does; the page is opened as localhost.
  server = await startServer({ game: 'worm-and-cozy', options: { chapter: 'clew-1', players: [{ id: 'p1', name: 'Alice' }] }, config: { host: '0.0.0.0' } });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the join QR code', () => {
  it('opened as localhost, the QR code and its text give the LAN address other phones reach clew at', async () => {
    const { page } = await openPhone(browser, 'about:blank');
    const local = `http://localhost:${server.port}`;
    await joinAsReferee(page, local);
    await page.click('[data-testid="tab-setup"]');
    // This machine's first LAN address, as the server finds it (none: the page's own, as before).
    const lan = lanAddresses()[0];
    const origin = lan ? `http://${lan}:${server.port}` : local;
    expect(await page.getAttribute('[data-testid="qr"]', 'data-text')).toBe(`${origin}/?code=WORMS`);
    expect(await page.textContent('[data-testid="invite"]')).toContain(`open ${new URL(origin).host} and type the code`);
  });
});
