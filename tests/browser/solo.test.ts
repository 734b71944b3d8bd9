/**
 * Solo Worm & Cozy entirely on one phone (the referee's): the roll entered by hand, option A with
 * the organ the rules require, a chain reaction walked step by step (the brain acts; next hour the
 * eye acts and adds a food it can see), a brain's die change, and the end of each hour.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CozyState } from '../../shared/games/worm-and-cozy/index.js';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { WAIT, joinAsReferee, litCells, tapAndWait } from './support/pages.js';

let server: RunningServer;
let browser: Browser;
let phone: Page;
const cozy = () => server.clew.session.table.state as CozyState;
const sheet = () => cozy().sheets[0]!;

/** Enters three d6 by hand: the red shape die first, then the two organ dice. */
async function enterRoll(faces: [string, string, string]): Promise<void> {
  await phone.click('[data-testid="enter-by-hand"]');
  for (const [i, face] of faces.entries()) {
    await phone.click(`[data-testid="slot-${i}"]`);
    await phone.click(`[data-testid="face-${face}"]`);
  }
  await tapAndWait(phone, '[data-testid="manual-submit"]');
  await tapAndWait(phone, '[data-testid="use-roll"]');
}

/** Taps the first lit cell, takes the first of several ways if asked, and confirms. */
async function tapLitAndConfirm(): Promise<void> {
  const lit = await litCells(phone);
  expect(lit.length).toBeGreaterThan(0);
  await phone.locator(`[data-cell="${lit[0]}"]`).click();
  if (await phone.locator('[data-testid="choices"]').isVisible()) await phone.click('[data-testid="choice-0"]');
  await tapAndWait(phone, '[data-testid="confirm"]');
}

beforeAll(async () => {
  server = await startServer({ game: 'worm-and-cozy', options: { chapter: 'clew-1' } });
  browser = await launchBrowser();
  phone = (await openPhone(browser, 'about:blank')).page;
  await joinAsReferee(phone, server.url);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('solo Worm & Cozy on one phone', () => {
  it('1 AM: an L worm with a brain, and the brain acts', async () => {
    await enterRoll(['2', '1', '5']); // L, eye, brain
    expect(cozy().roll).toEqual({ shape: 'L', organs: ['eye', 'brain'] });
    // At 1 AM option A is the only one.
    expect(await phone.locator('[data-testid="option-B"]').count()).toBe(0);
    await phone.click('[data-testid="option-A"]');
    await tapLitAndConfirm();
    expect(sheet().worms).toHaveLength(1);
    await phone.waitForSelector('[data-testid="twin"][data-pending="organ"]');
    // The organ is a must: no "skip" while it is pending.
    expect(await phone.locator('[data-testid="pass"]').count()).toBe(0);
    await phone.click('[data-testid="organ-brain"]');
    await tapLitAndConfirm();
    expect(sheet().worms[0]!.organs.map((o) => o.type)).toEqual(['brain']);
    // The new organ may act at once: the brain is lit; acting gives a die change next hour.
    await phone.waitForSelector('[data-testid="twin"][data-pending="act"]');
    await tapLitAndConfirm();
    await phone.waitForSelector('[data-testid="twin"][data-step="done"]');
    await tapAndWait(phone, '[data-testid="next"]');
    expect(cozy().hour).toBe(1);
    expect(sheet().credits).toBe(1);
  });

  it('2 AM: the brain changes a die; a new worm gets an eye, which acts and adds a food it can see', async () => {
    await enterRoll(['6', '2', '3']); // Z, mouth, tail
    await expect.poll(() => phone.textContent('[data-testid="my-dice"]'), WAIT).toContain('1 die change');
    await phone.click('[data-testid="option-brain"]');
    await phone.click('[data-testid="change-2-eye"]');
    expect(await phone.textContent('[data-testid="confirm-text"]')).toBe('Change organ die 2 to eye (a brain that acted last hour)');
    await tapAndWait(phone, '[data-testid="confirm"]');
    expect(sheet().dice).toEqual({ shape: 'Z', organs: ['mouth', 'eye'] });
    expect(cozy().roll!.organs).toEqual(['mouth', 'tail']); // the table's dice stay as rolled
    await phone.click('[data-testid="option-A"]');
    await tapLitAndConfirm();
    await phone.click('[data-testid="organ-eye"]');
    await tapLitAndConfirm();
    // The chain reaction, one pending choice at a time: the eye acts, then adds a food.
    await phone.waitForSelector('[data-testid="twin"][data-pending="act"]');
    const eyeCell = sheet().worms[1]!.organs.find((o) => o.type === 'eye')!.cell;
    const lit = await litCells(phone);
    expect(lit).toContain(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'][eyeCell % 10]! + String(Math.floor(eyeCell / 10) + 1));
    await tapLitAndConfirm();
    await phone.waitForSelector('[data-testid="twin"][data-pending="food"]');
    expect(await phone.textContent('[data-testid="cozy-prompt"]')).toMatch(/add a food that the eye at [A-J]\d+ can see/i);
    await tapLitAndConfirm();
    expect(sheet().foods).toHaveLength(1);
    expect(await phone.locator('[data-food]').count()).toBe(1);
    // Stop here: "nothing more this hour" drops what is left.
    if (await phone.locator('[data-testid="done"]').isVisible()) await tapAndWait(phone, '[data-testid="done"]');
    await phone.waitForSelector('[data-testid="twin"][data-step="done"]');
    await tapAndWait(phone, '[data-testid="next"]');
    expect(await phone.textContent('[data-testid="hour"]')).toBe('3 AM');
  });
});
