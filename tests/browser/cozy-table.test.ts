/**
 * Worm & Cozy at a real table, in real Chromium: a referee and two phones join one table, the
 * camera's roll reaches every phone, a player corrects a die, the referee uses the roll, both
 * players keep their digital twins through several hours, the referee undoes a move, a phone is
 * reloaded, and the server restarts under the phones.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CozyState } from '../../shared/games/worm-and-cozy/index.js';
import type { TableSnapshot } from '../../shared/protocol.js';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { WAIT, atVersion, caughtUp, confirm, joinAsReferee, joinSeat, litCells, tapAndWait } from './support/pages.js';

const PLAYERS = [
  { id: 'p1', name: 'Alice', color: 'blue' },
  { id: 'p2', name: 'Bob', color: 'green' },
];

let server: RunningServer;
let browser: Browser;
let referee: Page;
let alice: Page;
let bob: Page;

const table = () => server.clew.session.table;
const cozy = () => table().state as CozyState;

/** What the camera sends when the tray settles: three d6, the red one the shape die. One is unsure. */
async function cameraRolls(faces: [string, string, string], unsure = -1): Promise<void> {
  const colours = ['red', 'white', 'white'];
  const ack = await server.clew.session.cameraRoll(
    faces.map((face, i) => ({ set: 'd6' as const, face, color: colours[i]!, confidence: i === unsure ? 0.41 : 0.96, box: [10 + i * 90, 10, 80 + i * 90, 80] as [number, number, number, number], ...(i === unsure ? { uncertain: true } : {}) })),
    'camera',
  );
  expect(ack.ok).toBe(true);
}

/** A player's whole hour on the phone: option A, a lit place, the must organ, then done. */
async function placeAWorm(page: Page, player: string): Promise<void> {
  await drawAWorm(page, player);
  await addItsOrgan(page);
}

/** Option A's first half: the worm of the rolled shape, drawn on the first lit place. */
async function drawAWorm(page: Page, player: string): Promise<void> {
  // The other phones' moves reach this one on its own socket: draw on the table as it is now.
  await caughtUp(page);
  await page.click('[data-testid="option-A"]');
  const lit = await litCells(page);
  expect(lit.length).toBeGreaterThan(4);
  await page.locator(`[data-cell="${lit[0]}"]`).click();
  await expect.poll(() => page.locator('[data-testid="confirm-text"]').textContent(), WAIT).toMatch(/^Draw the worm on/);
  const worms = cozy().sheets[PLAYERS.findIndex((p) => p.id === player)]!.worms.length;
  await confirm(page);
  expect(cozy().sheets[PLAYERS.findIndex((p) => p.id === player)]!.worms.length).toBe(worms + 1);
  // The new worm must get one of the rolled organs: its legal cells are lit at once.
  await page.waitForSelector('[data-testid="twin"][data-pending="organ"]');
}

/** Option A's second half: one of the rolled organs on the new worm. */
async function addItsOrgan(page: Page): Promise<void> {
  const organCells = await litCells(page);
  expect(organCells.length).toBeGreaterThan(0);
  await page.locator(`[data-cell="${organCells[0]}"]`).click();
  if (await page.locator('[data-testid="choices"]').isVisible()) await page.click('[data-testid="choice-0"]');
  await expect.poll(() => page.locator('[data-testid="confirm-text"]').textContent(), WAIT).toMatch(/^Add an? /);
  await confirm(page);
  // Whatever the new organ may do now is optional: this player is done for the hour.
  if (await page.locator('[data-testid="done"]').isVisible()) await tapAndWait(page, '[data-testid="done"]');
  await page.waitForSelector('[data-testid="twin"][data-step="done"]');
}

/** Starts the server again on the same port and data folder (the phones know only the address). */
async function restart(): Promise<void> {
  const { port, dataDir } = server;
  const previous = server;
  const next = await startServer({ dataDir }, port);
  server = { ...next, close: async () => { await next.close(); await previous.close().catch(() => undefined); } };
}

/** The referee uses the pending roll. */
async function useRoll(): Promise<void> {
  await referee.waitForSelector('[data-testid="use-roll"]:not([disabled])');
  await tapAndWait(referee, '[data-testid="use-roll"]');
  expect(cozy().phase).toBe('play');
}

beforeAll(async () => {
  server = await startServer({ game: 'worm-and-cozy', options: { chapter: 'clew-1', players: PLAYERS } });
  browser = await launchBrowser();
  referee = (await openPhone(browser, 'about:blank')).page;
  alice = (await openPhone(browser, 'about:blank')).page;
  bob = (await openPhone(browser, 'about:blank')).page;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Worm & Cozy at a table of three phones', () => {
  it('the referee and two players join one table', async () => {
    await joinAsReferee(referee, server.url);
    await joinSeat(alice, server.url, 'p1');
    // Bob types the code instead of scanning it.
    await bob.goto(server.url);
    await bob.fill('[data-testid="code-input"]', 'worms');
    await bob.click('[data-testid="code-submit"]');
    await bob.click('[data-testid="seat-p2"]');
    await bob.waitForSelector('.app[data-role="player"]');
    expect(await referee.textContent('[data-testid="who"]')).toBe('Referee');
    expect(await alice.textContent('[data-testid="who"]')).toBe('Alice');
    expect(await bob.textContent('[data-testid="who"]')).toBe('Bob');
    // Only the referee sees the join code and the QR code that holds it.
    await referee.click('[data-testid="tab-setup"]');
    expect(await referee.textContent('[data-testid="join-code"]')).toBe('WORMS');
    expect(await referee.getAttribute('[data-testid="qr"]', 'data-text')).toBe(`${server.url}/?code=WORMS`);
    // The QR code is drawn asynchronously (qrcode's toString): wait for it rather than count at once.
    await referee.waitForSelector('[data-testid="qr"] svg');
    expect(await referee.locator('[data-testid="qr"] svg').count()).toBe(1);
    expect(await alice.locator('[data-testid="tab-setup"]').count()).toBe(0);
    await referee.click('[data-testid="tab-table"]');
  });

  it('the server sends the dashboard gzipped to phones that accept it', async () => {
    const html = await (await fetch(server.url)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const zipped = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const plain = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await zipped.text()).toBe(await plain.text());
  });

  it('the roll reaches every phone as faces; a player corrects the unsure die; the referee uses it', async () => {
    expect(await referee.textContent('[data-testid="hour"]')).toBe('1 AM');
    await cameraRolls(['2', '1', '6'], 2);
    for (const page of [referee, alice, bob]) {
      await page.waitForSelector('[data-testid="rolled-dice"]');
      expect(await page.getAttribute('[data-testid="die-2"]', 'data-face')).toBe('6');
      expect(await page.locator('[data-testid="die-2"].uncertain').count()).toBe(1);
      expect(await page.textContent('[data-testid="die-0"]')).toContain('96%');
    }
    // Standard dice through the chapter's tables: red 2 is the L, 1 an eye, 6 a heart.
    expect(await alice.textContent('[data-testid="roll-meaning"]')).toMatch(/L.*eye.*heart/);
    // Alice sees the third die is really a 5 (a brain) and taps it.
    await alice.click('[data-testid="die-2"]');
    await tapAndWait(alice, '[data-testid="face-5"]');
    for (const page of [referee, bob]) {
      await expect.poll(() => page.getAttribute('[data-testid="die-2"]', 'data-face'), WAIT).toBe('5');
    }
    expect(await bob.textContent('[data-testid="die-2"]')).toContain('fixed (6)');
    expect(table().roll!.dice[2]).toMatchObject({ face: '5', corrected: true, readAs: '6' });
    // Players cannot use the roll; the referee can.
    expect(await alice.locator('[data-testid="use-roll"]').count()).toBe(0);
    await useRoll();
    expect(cozy().roll).toEqual({ shape: 'L', organs: ['eye', 'brain'] });
  });

  it('both players place the rolled shape on their twins: lit places, rotate, flip, the organ', async () => {
    // Rotating and flipping change which places are lit (on the table with the roll the referee used).
    await caughtUp(alice);
    await alice.click('[data-testid="option-A"]');
    const before = await litCells(alice);
    await alice.click('[data-testid="rotate"]');
    await alice.click('[data-testid="flip"]');
    const after = await litCells(alice);
    expect(after.length).toBeGreaterThan(0);
    expect(after).not.toEqual(before);
    // Every lit cell is in the 1 AM region or next to it on the way: the engine decides, not the phone.
    await alice.click('[data-testid="option-A"]');
    await placeAWorm(alice, 'p1');
    await placeAWorm(bob, 'p2');
    const sheets = cozy().sheets;
    expect(sheets.map((s) => s.worms.length)).toEqual([1, 1]);
    expect(sheets.every((s) => s.worms[0]!.organs.length >= 1)).toBe(true);
    // Each phone draws its own sheet: Alice's worm on Alice's phone, the referee sees either.
    expect(await alice.locator('g.worm').count()).toBe(1);
    // Bob's worm reaches the referee's phone on its own socket.
    await caughtUp(referee);
    await referee.click('[data-testid="sheet-p2"]');
    expect(await referee.locator('g.worm').count()).toBe(1);
  });

  it('hours go by: the referee ends the hour and the next roll is used', async () => {
    for (const [hour, faces] of [
      ['2 AM', ['4', '2', '5']],
      ['3 AM', ['1', '1', '3']],
    ] as const) {
      await tapAndWait(referee, '[data-testid="next"]');
      await expect.poll(() => referee.textContent('[data-testid="hour"]'), WAIT).toBe(hour);
      await expect.poll(() => alice.textContent('[data-testid="hour"]'), WAIT).toBe(hour);
      await cameraRolls([...faces]);
      await useRoll();
      // Alice places a worm whenever there is room; Bob takes nothing this hour.
      if (hour === '2 AM') {
        // The referee presses NEXT between Alice's worm and its organ: the hour does not end
        // (option A's organ cannot be passed), and the referee is told who is still drawing.
        await drawAWorm(alice, 'p1');
        // NEXT on the view with Alice's worm (on an older one it would be refused as stale).
        await caughtUp(referee);
        await referee.click('[data-testid="next"]');
        await expect.poll(() => referee.textContent('[data-testid="notice"]'), WAIT).toMatch(/2 AM cannot end yet: Alice still has to add option A's organ/);
        expect(cozy().hour).toBe(1);
        await addItsOrgan(alice);
      } else {
        await caughtUp(alice);
        if (await alice.locator('[data-testid="option-A"]:not([disabled])').count()) await placeAWorm(alice, 'p1');
        else await tapAndWait(alice, '[data-testid="done"]');
      }
      await tapAndWait(bob, '[data-testid="done"]');
    }
    expect(cozy().hour).toBe(2);
    expect(cozy().sheets[1]!.done).toBe(true);
  });

  it('undo takes the last move back on every phone', async () => {
    const version = await caughtUp(referee);
    const bobDone = cozy().sheets[1]!.done;
    expect(bobDone).toBe(true);
    await tapAndWait(referee, '[data-testid="undo"]');
    expect(cozy().sheets[1]!.done).toBe(false);
    await atVersion(bob, version + 1);
    await bob.waitForSelector('[data-testid="twin"][data-step="option"]');
  });

  it('a reloaded phone comes back in its seat with its sheet', async () => {
    await alice.reload();
    await alice.waitForSelector('.app[data-role="player"]');
    expect(await alice.textContent('[data-testid="who"]')).toBe('Alice');
    expect(await alice.locator('g.worm').count()).toBe(cozy().sheets[0]!.worms.length);
  });

  it('the server restarts: phones reconnect by themselves, and an intent made while it was down is resent', async () => {
    const version = table().version;
    await server.stop();
    await bob.waitForSelector('[data-testid="link"]:not([data-status="online"])');
    // Bob decides while the table is away: the intent waits for the line.
    await bob.click('[data-testid="done"]');
    await expect.poll(() => bob.textContent('[data-testid="notice"]'), WAIT).toContain('will be sent when the table is back');
    await restart();
    for (const page of [referee, alice, bob]) await page.waitForSelector('[data-testid="link"][data-status="online"]', { timeout: 30_000 });
    // The table resumed where it was, and Bob's "done" went through on the version he saw.
    await expect.poll(() => table().version, WAIT).toBe(version + 1);
    expect(cozy().sheets[1]!.done).toBe(true);
    await bob.waitForSelector('[data-testid="twin"][data-step="done"]');
    expect(await referee.textContent('[data-testid="hour"]')).toBe('3 AM');
  });

  it('an intent made on a view the table has left is refused when resent on reconnect, and the phone says so', async () => {
    await tapAndWait(referee, '[data-testid="undo"]'); // Bob is choosing again
    await bob.waitForSelector('[data-testid="twin"][data-step="option"]');
    await server.stop();
    await bob.context().setOffline(true);
    await bob.waitForSelector('[data-testid="link"]:not([data-status="online"])');
    await bob.click('[data-testid="done"]');
    await restart();
    await referee.waitForSelector('[data-testid="link"][data-status="online"]', { timeout: 30_000 });
    // The referee marks Bob done for him while Bob's phone is still away.
    await referee.click('[data-testid="sheet-p2"]');
    await tapAndWait(referee, '[data-testid="done"]');
    const version = table().version;
    await bob.context().setOffline(false);
    await bob.waitForSelector('[data-testid="link"][data-status="online"]', { timeout: 30_000 });
    // Resent, and refused: the referee's move on Bob's own sheet came in between (since the forty-second session).
    await expect.poll(() => bob.textContent('[data-testid="notice"]'), WAIT).toContain('The table changed while this phone was away, so “Nothing more this hour” was not used');
    // Nothing of Bob's stale tap reached the table.
    expect(table().version).toBe(version);
    const snapshot = (await (await fetch(`${server.url}/api/table`)).json()) as TableSnapshot;
    expect(snapshot.version).toBe(version);
  });
});
