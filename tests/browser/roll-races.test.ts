/**
 * The roll panel when more than one hand is on the table, in real Chromium: a correction made in
 * a picker opened before another phone changed the roll is refused, not applied to whichever die
 * is now in that place; a watcher sees the dice without correction controls; a double tap on "Use
 * this roll" is one intent and no error; "Enter by hand" left open does not come back open at
 * the next hour; a camera roll replacing a roll entered by hand is said, and the notice does not
 * outlive its game.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { WAIT, caughtUp, joinAsReferee } from './support/pages.js';

let server: RunningServer;
let browser: Browser;
let referee: Page;
let watcher: Page;
const table = () => server.clew.session.table;

/** The camera's settled roll: d6 stand-ins, the red one the shape die. */
async function cameraSees(faces: [string, string][]): Promise<void> {
  const ack = await server.clew.session.cameraRoll(
    faces.map(([face, color], i) => ({ set: 'd6' as const, face, color, confidence: 0.95, box: [10 + i * 90, 10, 80 + i * 90, 80] as [number, number, number, number] })),
    'camera',
  );
  expect(ack.ok).toBe(true);
}

/** Another phone's intent, straight into the table (as a second referee phone sends it). */
async function elsewhere(intent: Parameters<RunningServer['clew']['session']['submit']>[1]['intent']): Promise<void> {
  const ack = await server.clew.session.submit({ kind: 'referee' }, { version: table().version, intent });
  expect(ack, JSON.stringify(ack)).toMatchObject({ ok: true });
}

beforeAll(async () => {
  server = await startServer({ game: 'worm-and-cozy', options: { chapter: 'clew-1', players: [{ id: 'p1', name: 'Alice', color: 'blue' }] } });
  browser = await launchBrowser();
  referee = (await openPhone(browser, 'about:blank')).page;
  await joinAsReferee(referee, server.url);
  watcher = (await openPhone(browser, server.url)).page;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the roll panel with more than one hand on the table', () => {
  it('a correction picked after another phone took a die out is refused, not made to the die now in its place', async () => {
    await cameraSees([['2', 'red'], ['1', 'white'], ['3', 'white'], ['5', 'white']]);
    await referee.waitForSelector('[data-testid="die-3"]');
    await caughtUp(referee);
    // The referee opens die 2 (the white 1) to correct it; meanwhile another phone takes die 1 out.
    await referee.click('[data-testid="die-1"]');
    await referee.waitForSelector('[data-testid="face-4"]');
    await elsewhere({ type: 'dice/remove', index: 0 });
    await caughtUp(referee);
    await referee.click('[data-testid="face-4"]');
    await referee.waitForSelector('[data-testid="notice"]', WAIT);
    expect(await referee.textContent('[data-testid="notice"]')).toMatch(/older view of the table/);
    expect(table().roll!.dice.map((d) => d.face)).toEqual(['1', '3', '5']);
  });

  it('a watcher sees the dice but is offered no correction', async () => {
    await watcher.click('[data-testid="just-watch"]');
    await watcher.waitForSelector('[data-testid="die-0"]');
    expect(await watcher.getAttribute('[data-testid="die-0"]', 'aria-label')).not.toMatch(/Tap to correct/);
    expect(await watcher.locator('[data-testid="die-0"]').isDisabled()).toBe(true);
  });

  it('a double tap on "Use this roll" uses it once and shows no error', async () => {
    await elsewhere({ type: 'dice/manual', dice: [{ set: 'd6', face: '2', color: 'red' }, { set: 'd6', face: '1' }, { set: 'd6', face: '5' }] });
    await referee.waitForSelector('[data-testid="use-roll"]:not([disabled])', WAIT);
    await caughtUp(referee);
    const before = table().version;
    await referee.dblclick('[data-testid="use-roll"]');
    await expect.poll(() => table().version, WAIT).toBe(before + 1);
    await caughtUp(referee);
    await new Promise((r) => setTimeout(r, 300));
    const notices = await referee.locator('[data-testid="notice"]').allTextContents();
    expect(notices.join(' ')).not.toMatch(/use this roll/);
    expect(table().version).toBe(before + 1);
  });

  it('"Enter by hand" left open closes when the dice asked for change: the next hour starts with the usual buttons', async () => {
    // The hour ends (NEXT); at the next one the referee opens "Enter by hand"...
    await elsewhere({ type: 'button', button: 'NEXT' });
    await caughtUp(referee);
    await referee.click('[data-testid="enter-by-hand"]');
    await referee.waitForSelector('[data-testid="manual-entry"]');
    // ...but the roll is entered and used on another phone, and that hour ends too.
    await elsewhere({ type: 'dice/manual', dice: [{ set: 'd6', face: '3', color: 'red' }, { set: 'd6', face: '2' }, { set: 'd6', face: '6' }] });
    await elsewhere({ type: 'dice/confirm' });
    await elsewhere({ type: 'button', button: 'NEXT' });
    await caughtUp(referee);
    await referee.waitForSelector('[data-testid="roll-prompt"]', WAIT);
    expect(await referee.locator('[data-testid="manual-entry"]').isVisible()).toBe(false);
    expect(await referee.locator('[data-testid="enter-by-hand"]').isVisible()).toBe(true);
    expect(await referee.locator('[data-testid="roll-waiting"]').isVisible()).toBe(true);
  });

  it('the lit board cells are buttons for the keyboard: Tab reaches them, Enter picks one', async () => {
    await elsewhere({ type: 'dice/manual', dice: [{ set: 'd6', face: '1', color: 'red' }, { set: 'd6', face: '2' }, { set: 'd6', face: '6' }] });
    await elsewhere({ type: 'dice/confirm' });
    await caughtUp(referee);
    await referee.click('[data-testid="option-A"]');
    await referee.waitForSelector('rect.cell.legal');
    const first = await referee.getAttribute('rect.cell.legal', 'data-cell');
    expect(await referee.getAttribute('rect.cell.legal', 'role')).toBe('button');
    expect(await referee.getAttribute('rect.cell.legal', 'aria-label')).toBe(first);
    // Tab from the option just chosen until a lit cell has the focus, then Enter.
    let focused: string | null = null;
    for (let i = 0; i < 40 && !focused; i++) {
      await referee.keyboard.press('Tab');
      focused = await referee.evaluate<string | null>("document.activeElement?.matches('rect.cell.legal') ? document.activeElement.getAttribute('data-cell') : null");
    }
    expect(focused).not.toBeNull();
    await referee.keyboard.press('Enter');
    await expect.poll(() => referee.locator('[data-testid="confirm-text"]').textContent(), WAIT).toMatch(/^Draw the worm on/);
  });
});

describe('notices about the roll', () => {
  it('a camera roll replacing a roll entered by hand is said on the phone; the notice goes when the table plays another game', async () => {
    await elsewhere({ type: 'table/setup', game: 'worm-and-cozy', options: { chapter: 'clew-1', players: [{ id: 'p1', name: 'Alice', color: 'blue' }] } });
    await elsewhere({ type: 'dice/manual', dice: [{ set: 'd6', face: '5', color: 'red' }, { set: 'd6', face: '1' }, { set: 'd6', face: '6' }] });
    await caughtUp(referee);
    // The camera saw other dice in the tray (web/server/camera.ts replaces a roll entered by hand only then).
    await cameraSees([['2', 'red'], ['1', 'white'], ['3', 'white']]);
    await caughtUp(referee);
    await referee.waitForSelector('[data-testid="notice"]', WAIT);
    expect(await referee.textContent('[data-testid="notice"]')).toMatch(/replaced the roll entered by hand/);
    // The referee starts another game: a message about the last game's dice is not left behind.
    await elsewhere({ type: 'table/setup', game: 'the-worm-is-drawn', options: { players: [{ id: 'p1', name: 'Alice' }, { id: 'p2', name: 'Bob' }] } });
    await referee.waitForSelector('.app[data-game=the-worm-is-drawn]', WAIT);
    await referee.waitForSelector('[data-testid="notice"]', { state: 'detached', ...WAIT });
  });
});
