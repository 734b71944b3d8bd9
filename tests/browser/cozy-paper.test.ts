/**
 * A paper player at a Worm & Cozy table, in real Chromium: Bob plays on paper only (his twin stays
 * empty), copies his finished sheet onto *Score a sheet*, and once the game is over gives it to his
 * seat; every phone's end screen then shows his paper score, marked "from paper", and names him the
 * winner. The referee gives Alice a sheet from the referee's phone, and BACK takes it away again.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CozyState } from '../../shared/games/worm-and-cozy/index.js';
import { scoreSheet } from '../../shared/games/worm-and-cozy/sheet.js';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { WAIT, atVersion, dragThrough, joinAsReferee, joinSeat, tapAndWait } from './support/pages.js';

const PLAYERS = [
  { id: 'p1', name: 'Alice', color: 'blue' },
  { id: 'p2', name: 'Bob', color: 'green' },
];

let server: RunningServer;
let browser: Browser;
let alice: Page;
let bob: Page;
let referee: Page;

/** The table's referee rolls and ends each of the sixteen hours (nobody draws on a twin). */
async function playToTheEnd(): Promise<void> {
  const session = server.clew.session;
  for (let h = 0; h < 16; h++) {
    for (const move of [{ type: 'roll', shape: 'I', organs: ['eye', 'eye'] }, { type: 'endHour' }]) {
      const ack = await session.submit({ kind: 'referee' }, { version: session.table.version, intent: { type: 'move', move } });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
    }
  }
  expect((session.table.state as CozyState).phase).toBe('over');
}

const centred = (page: Page, selector: string) => page.evaluate(`document.querySelector('${selector}').scrollIntoView({ block: 'center' })`);

beforeAll(async () => {
  server = await startServer({ game: 'worm-and-cozy', options: { chapter: 'clew-1', players: PLAYERS } });
  browser = await launchBrowser();
  alice = (await openPhone(browser, 'about:blank')).page;
  bob = (await openPhone(browser, 'about:blank')).page;
  referee = (await openPhone(browser, 'about:blank')).page;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('a paper player at a two-seat table', () => {
  let expected = 0;

  it('Bob scores his paper sheet on his phone; before the end it cannot be given yet, and says when', async () => {
    await joinSeat(alice, server.url, 'p1');
    await joinSeat(bob, server.url, 'p2');
    await bob.click('[data-testid="tab-score"]');
    await bob.waitForSelector('[data-testid="score-screen"]');
    // Two worms with an eye each at their front tips, packed in by a third worm, the rock at C3
    // and four foods: 2 eyes +1, 4 foods +2, 2 cozy worms +2, 1 worm touching blank −2.
    await dragThrough(bob, ['A1', 'A2', 'A3', 'A4', 'A5']);
    await dragThrough(bob, ['B1', 'B2', 'B3', 'B4', 'B5']);
    await dragThrough(bob, ['A6', 'B6', 'C6', 'D6', 'D7']);
    await bob.click('[data-testid="tool-eye"]');
    for (const c of ['A1', 'B1']) await bob.locator(`[data-cell="${c}"]`).click();
    await bob.click('[data-testid="tool-food"]');
    for (const c of ['C1', 'C2', 'C4', 'C5']) await bob.locator(`[data-cell="${c}"]`).click();
    const sheet = JSON.parse((await bob.textContent('[data-testid="sheet-json"]'))!) as unknown;
    const scored = scoreSheet(sheet);
    if (!scored.ok) throw new Error(scored.errors.join('; '));
    expected = scored.score.total;
    expect(expected).toBe(3);
    expect(await bob.textContent('[data-testid="total"]')).toBe(String(expected));
    expect(await bob.textContent('[data-testid="give-paper"]')).toBe('Give this score to Bob');
    expect(await bob.isDisabled('[data-testid="give-paper"]')).toBe(true);
    expect(await bob.textContent('[data-testid="give-paper-why"]')).toBe('A sheet is scored once the game is over, after 8 PM; the table is at 1 AM.');
  });

  it('once the game is over he gives it to his seat, and both phones’ end screens show it from paper', async () => {
    await playToTheEnd();
    const over = server.clew.session.table.version;
    await atVersion(bob, over);
    await bob.waitForSelector('[data-testid="give-paper"]:not([disabled])');
    await centred(bob, '[data-testid="give-paper"]');
    await bob.click('[data-testid="give-paper"]');
    await bob.waitForSelector('[data-testid="give-paper-done"]');
    expect(server.clew.session.table.version).toBe(over + 1);
    expect((server.clew.session.table.state as CozyState).paper?.[1]?.worms).toHaveLength(3);

    await bob.click('[data-testid="tab-table"]');
    for (const page of [alice, bob]) {
      await atVersion(page, over + 1);
      const bobFinal = page.locator('[data-testid="final-p2"]');
      await expect.poll(() => bobFinal.getAttribute('data-from'), WAIT).toBe('paper');
      expect(await bobFinal.locator('[data-testid="final-total"]').textContent()).toBe(String(expected));
      expect(await bobFinal.locator('[data-testid="from-paper"]').textContent()).toBe('from paper');
      expect(await bobFinal.locator('[data-testid="total"]').textContent()).toBe(String(expected));
      const aliceFinal = page.locator('[data-testid="final-p1"]');
      expect(await aliceFinal.getAttribute('data-from')).toBe('twin');
      expect(await aliceFinal.locator('[data-testid="final-total"]').textContent()).toBe('0');
      // The ranking counts the paper: Bob's 3 beats Alice's empty twin (0).
      expect(await page.locator('[data-testid="winner"]').count()).toBe(1);
      expect(await bobFinal.locator('[data-testid="winner"]').textContent()).toBe('wins');
    }
    // Bob's own phone shows his paper sheet in place of his empty twin.
    expect(await bob.locator('[data-testid="paper-board"] g.worm').count()).toBe(3);
    expect(await bob.locator('[data-testid="twin"]').count()).toBe(0);
  });

  it('the referee may give a sheet to any seat (the picker starts on one with nothing yet), and undo takes it back', async () => {
    await joinAsReferee(referee, server.url);
    await referee.click('[data-testid="tab-score"]');
    await referee.waitForSelector('[data-testid="score-screen"]');
    await dragThrough(referee, ['A1', 'A2', 'A3', 'A4', 'A5']);
    await referee.waitForSelector('[data-testid="give-paper"]:not([disabled])');
    // Bob has his paper sheet already: Alice is the seat with neither twin nor paper.
    expect(await referee.inputValue('[data-testid="give-paper-seat"]')).toBe('p1');
    expect(await referee.textContent('[data-testid="give-paper"]')).toBe('Give this score to Alice');
    await referee.selectOption('[data-testid="give-paper-seat"]', 'p2');
    expect(await referee.textContent('[data-testid="give-paper-note"]')).toBe('Bob already has a paper sheet: this one replaces it.');
    await referee.selectOption('[data-testid="give-paper-seat"]', 'p1');
    const before = server.clew.session.table.version;
    await centred(referee, '[data-testid="give-paper"]');
    await referee.click('[data-testid="give-paper"]');
    await referee.waitForSelector('[data-testid="give-paper-done"]');
    await atVersion(alice, before + 1);
    const aliceFinal = alice.locator('[data-testid="final-p1"]');
    await expect.poll(() => aliceFinal.getAttribute('data-from'), WAIT).toBe('paper');
    expect(await aliceFinal.locator('[data-testid="final-total"]').textContent()).toBe('-2');

    await referee.click('[data-testid="tab-table"]');
    await tapAndWait(referee, '[data-testid="undo"]');
    await atVersion(alice, before + 2);
    await expect.poll(() => aliceFinal.getAttribute('data-from'), WAIT).toBe('twin');
    expect(await aliceFinal.locator('[data-testid="final-total"]').textContent()).toBe('0');
    expect(await alice.locator('[data-testid="final-p2"]').getAttribute('data-from')).toBe('paper');
  });
});
