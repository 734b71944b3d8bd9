/**
 * Details of the phone app found by the thirty-eighth session's review, in real Chromium: the face
 * picker behaves as the modal dialog it says it is (focus in, Tab kept inside, focus back on
 * close); every seat of the new-game form has a colour and no empty box is drawn for a player
 * without one; a seated player who opens the referee's screens gets no seat picker; an icon beside
 * its caption is not named twice; and starting a new game over a finished one asks first.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomMove, type TwidState } from '../../shared/games/the-worm-is-drawn/index.js';
import { createRng } from '../../shared/rng.js';
import { REFEREE_CODE, launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { WAIT, atVersion, caughtUp, joinAsReferee, joinSeat, litCells, tapAndWait } from './support/pages.js';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

/** Where the keyboard focus is: the element's test id (or tag), and whether it is inside the open dialog. */
async function focus(page: Page): Promise<{ id: string; inDialog: boolean }> {
  // A string: the test code is typed without the DOM's types.
  return page.evaluate(`(() => {
    const a = document.activeElement;
    return { id: a?.getAttribute('data-testid') ?? a?.tagName.toLowerCase() ?? '', inDialog: !!a?.closest('[role="dialog"]') };
  })()`) as Promise<{ id: string; inDialog: boolean }>;
}

describe('solo Worm & Cozy on the referee phone', () => {
  let server: RunningServer;
  let phone: Page;

  beforeAll(async () => {
    server = await startServer({ game: 'worm-and-cozy', options: { chapter: 'clew-1' } });
    phone = (await openPhone(browser, 'about:blank')).page;
    await joinAsReferee(phone, server.url);
  }, 180_000);

  afterAll(async () => {
    await phone?.context().close();
    await server?.close();
  });

  it('the face picker takes the focus, keeps Tab and Shift-Tab inside, and gives the focus back to the die slot on Escape', async () => {
    await phone.click('[data-testid="enter-by-hand"]');
    await phone.click('[data-testid="slot-0"]');
    await phone.waitForSelector('[role="dialog"][aria-modal="true"]');
    // Open: the focus is on the picker's first choice, not left on the page behind.
    await expect.poll(() => focus(phone), WAIT).toEqual({ id: 'face-1', inDialog: true });
    // The d6 picker has the close button and six faces: Tab goes round them and never leaves.
    const seen = new Set<string>();
    for (let i = 0; i < 10; i++) {
      await phone.keyboard.press('Tab');
      const f = await focus(phone);
      expect(f.inDialog, `Tab ${i + 1} went to ${f.id}`).toBe(true);
      seen.add(f.id);
    }
    expect(seen.size).toBe(7);
    for (let i = 0; i < 8; i++) {
      await phone.keyboard.press('Shift+Tab');
      const f = await focus(phone);
      expect(f.inDialog, `Shift-Tab ${i + 1} went to ${f.id}`).toBe(true);
    }
    // Escape closes it, and the focus is back on the slot that opened it.
    await phone.keyboard.press('Escape');
    await phone.waitForSelector('[role="dialog"]', { state: 'detached' });
    await expect.poll(() => focus(phone), WAIT).toEqual({ id: 'slot-0', inDialog: false });
  });

  it('an organ chip, and a score-sheet tool, is named once: the die face beside the caption is hidden from assistive tech', async () => {
    // The manual entry is still open from the last test: L, eye, brain.
    for (const [i, face] of ['2', '1', '5'].entries()) {
      await phone.click(`[data-testid="slot-${i}"]`);
      await phone.click(`[data-testid="face-${face}"]`);
    }
    await tapAndWait(phone, '[data-testid="manual-submit"]');
    await tapAndWait(phone, '[data-testid="use-roll"]');
    await phone.click('[data-testid="option-A"]');
    const lit = await litCells(phone);
    await phone.locator(`[data-cell="${lit[0]}"]`).click();
    if (await phone.locator('[data-testid="choices"]').isVisible()) await phone.click('[data-testid="choice-0"]');
    await tapAndWait(phone, '[data-testid="confirm"]');
    await phone.waitForSelector('[data-testid="twin"][data-pending="organ"]');
    for (const organ of ['eye', 'brain']) {
      const chip = phone.locator(`[data-testid="organ-${organ}"]`);
      expect(await phone.getByRole('button', { name: organ, exact: true }).count()).toBe(1);
      // What a screen reader's reading cursor meets inside: the caption only (it said "brain brain").
      expect(await chip.getByRole('img').count()).toBe(0);
      expect((await chip.textContent())?.trim()).toBe(organ);
    }
    // The score sheet's tools had no aria-label: their name was the face's title and the caption.
    await phone.click('[data-testid="tab-score"]');
    await phone.waitForSelector('[data-testid="tool-brain"]');
    for (const [id, name] of [['tool-eye', 'eye'], ['tool-brain', 'brain'], ['tool-fill', 'Fill brain']] as const) {
      const tool = phone.getByRole('button', { name, exact: true });
      expect(await tool.count(), name).toBe(1);
      expect(await tool.getAttribute('data-testid')).toBe(id);
    }
  });
});

describe('The worm is drawn for two players without colours', () => {
  let server: RunningServer;
  let referee: Page;
  const table = () => server.clew.session.table;

  beforeAll(async () => {
    server = await startServer({ game: 'the-worm-is-drawn', options: { players: [{ id: 'p1', name: 'Ann' }, { id: 'p2', name: 'Ben' }] } });
    referee = (await openPhone(browser, 'about:blank')).page;
    await joinAsReferee(referee, server.url);
  }, 180_000);

  afterAll(async () => {
    await referee?.context().close();
    await server?.close();
  });

  it('no empty swatch beside a player without a colour; the new-game form gives every seat one, the first free', async () => {
    await referee.waitForSelector('[data-testid="twid-screen"]');
    const turn = referee.locator('[data-testid="twid-screen"] h2', { hasText: "Ann's turn" });
    await turn.waitFor();
    expect(await turn.locator('.swatch').count()).toBe(0);

    await referee.click('[data-testid="tab-setup"]');
    const colourOf = (i: number) => referee.getAttribute(`[data-testid="seat-color-${i}"]`, 'aria-label');
    const first = await colourOf(0);
    const second = await colourOf(1);
    expect(first).toMatch(/^dice colour of seat 1: \w+$/);
    expect(first).not.toMatch(/: none$/);
    expect(second).not.toMatch(/: none$/);
    expect(first!.split(': ')[1]).not.toBe(second!.split(': ')[1]);
    await referee.click('[data-testid="add-seat"]');
    const third = (await colourOf(2))!.split(': ')[1];
    expect([first!.split(': ')[1], second!.split(': ')[1]]).not.toContain(third);
    expect(third).not.toBe('none');
    // "none" is still a choice, said in words rather than drawn as an empty box.
    await referee.click('[data-testid="seat-color-2"]');
    await referee.click('.palette >> text=none');
    expect(await colourOf(2)).toBe('dice colour of seat 3: none');
    expect(await referee.textContent('[data-testid="seat-color-2"]')).toBe('no colour');
    await referee.click('[data-testid="tab-table"]');
  });

  it('a seated player who opens #/setup or #/teach is told only the referee does that, keeps the seat, and may give the referee code', async () => {
    const { context, page: ann } = await openPhone(browser, 'about:blank');
    try {
      await joinSeat(ann, server.url, 'p1');
      await ann.goto(`${server.url}/#/setup`);
      await ann.waitForSelector('[data-testid="referee-only"]');
      expect(await ann.textContent('[data-testid="referee-only"] h1')).toBe('Only the referee sets up the table');
      // No seat picker (a tap there moved the phone to another seat mid-game).
      expect(await ann.locator('[data-testid="join"], [data-testid^="seat-p"]').count()).toBe(0);
      await ann.click('[data-testid="back-to-table"]');
      await ann.waitForSelector('[data-testid="twid-screen"]');
      expect(await ann.textContent('[data-testid="who"]')).toBe('Ann');

      await ann.goto(`${server.url}/#/teach`);
      await ann.waitForSelector('[data-testid="referee-only"]');
      expect(await ann.textContent('[data-testid="referee-only"] h1')).toBe('Only the referee teaches clew the dice');
      expect(await ann.locator('[data-testid="join"], [data-testid^="seat-p"]').count()).toBe(0);
      expect(await ann.getAttribute('.app', 'data-role')).toBe('player');
      // The referee's phone after all: the referee code, and this route shows the referee's screen.
      await ann.fill('[data-testid="referee-code-input"]', 'WRONG999');
      await ann.click('[data-testid="referee-code-submit"]');
      await ann.waitForSelector('[data-testid="referee-code-problem"]');
      expect(await ann.getAttribute('.app', 'data-role')).toBe('player');
      await ann.fill('[data-testid="referee-code-input"]', REFEREE_CODE.toLowerCase());
      await ann.click('[data-testid="referee-code-submit"]');
      await ann.waitForSelector('.app[data-role="referee"] [data-testid="teach-screen"]');
    } finally {
      await context.close();
    }
  });

  it('after the game finished, Start asks first and says the result will be gone; "keep the result" keeps it', async () => {
    // The rest of the game, quickly, straight into the session.
    const rng = createRng('phone-details-twid');
    for (let i = 0; (table().state as TwidState).phase !== 'over'; i++) {
      if (i >= 2000) throw new Error('the game did not end in 2000 moves');
      const t = table();
      const m = randomMove(t.state as TwidState, rng);
      if (!m) throw new Error('no legal move, yet the game is not over');
      const ack = await server.clew.session.submit({ kind: 'referee' }, { version: t.version, intent: { type: 'move', move: m } });
      if (!ack.ok) throw new Error(ack.message);
    }
    await expect.poll(() => referee.textContent('[data-testid="headline"]'), WAIT).toMatch(/^Game over/);
    const over = await caughtUp(referee);
    await referee.click('[data-testid="tab-setup"]');
    await referee.click('[data-testid="start-game"]');
    await referee.waitForSelector('[data-testid="start-confirming"]');
    expect(await referee.textContent('[data-testid="start-confirming"]')).toContain('The result of The worm is drawn (its final standings) will be gone');
    await referee.click('[data-testid="start-cancel"]');
    await referee.waitForSelector('[data-testid="start-confirming"]', { state: 'detached' });
    expect(table().version).toBe(over);
    expect((table().state as TwidState).phase).toBe('over');
    // Asked and answered: the new game replaces it.
    await referee.click('[data-testid="start-game"]');
    await referee.click('[data-testid="start-confirm"]');
    await atVersion(referee, over + 1);
    expect((table().state as TwidState).phase).not.toBe('over');
  });
});

describe('a seat a new game drops', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ game: 'the-worm-is-drawn', options: { players: [{ id: 'p1', name: 'Ann' }, { id: 'p2', name: 'Ben' }] } });
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it('the phone in it is asked for its seat again, keeping the code (it had to ask the referee for the code again)', async () => {
    const { context, page: ben } = await openPhone(browser, 'about:blank');
    try {
      await joinSeat(ben, server.url, 'p2');
      // Reloaded: the code is only in the phone's storage now, not in the link.
      await ben.reload();
      await ben.waitForSelector('.app[data-role="player"]');
      const t = server.clew.session.table;
      const ack = await server.clew.session.submit({ kind: 'referee' }, { version: t.version, intent: { type: 'table/setup', game: 'the-worm-is-drawn', options: { players: [{ id: 'p1', name: 'Ann' }, { id: 'p3', name: 'Cy' }] } } });
      expect(ack).toMatchObject({ ok: true });
      // The seat picker, not the code: the new game's seats.
      await ben.waitForSelector('[data-testid="seat-p3"]', WAIT);
      expect(await ben.locator('[data-testid^="seat-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual(['seat-p1', 'seat-p3']);
      await ben.click('[data-testid="seat-p3"]');
      await ben.waitForSelector('.app[data-role="player"]');
      await expect.poll(() => ben.textContent('[data-testid="who"]'), WAIT).toBe('Cy');
    } finally {
      await context.close();
    }
  });
});
