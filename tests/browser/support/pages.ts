/**
 * Small steps a person takes on a phone, for the browser tests and the screenshot script: join a
 * seat, wait for the table to reach a version, tap through a choice. Everything goes through the
 * page as a person would (taps on what is shown), never around it.
 */
import type { Page } from 'playwright-core';
import { JOIN_CODE, REFEREE_CODE } from './harness.js';

/** The snapshot version the page shows (data-version on the app root). */
export async function versionOf(page: Page): Promise<number> {
  return Number(await page.locator('.app').getAttribute('data-version'));
}

/** Waits until the page shows at least this snapshot version. */
export async function atVersion(page: Page, version: number): Promise<void> {
  await page.waitForFunction(`Number(document.querySelector('.app')?.getAttribute('data-version')) >= ${version}`);
}

/** Opens the referee link and waits until the phone is the referee. */
export async function joinAsReferee(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/?referee=${REFEREE_CODE}`);
  await page.waitForSelector('.app[data-role="referee"]');
}

/** Opens the player link (the QR code's), and taps the seat. */
export async function joinSeat(page: Page, url: string, seat: string): Promise<void> {
  await page.goto(`${url}/?code=${JOIN_CODE}`);
  await page.click(`[data-testid="seat-${seat}"]`);
  await page.waitForSelector('.app[data-role="player"]');
}

/** Taps a cell of the board on screen. */
export async function tapCell(page: Page, cell: string): Promise<void> {
  await page.locator(`[data-cell="${cell}"]`).click();
}

/** The cells lit as legal on the board. */
export async function litCells(page: Page): Promise<string[]> {
  return page.$$eval('rect.cell.legal', (els) => els.map((e) => e.getAttribute('data-cell')!));
}

/** Confirms the chosen move and waits for the table to move on. */
export async function confirm(page: Page): Promise<void> {
  const before = await versionOf(page);
  await page.click('[data-testid="confirm"]');
  await atVersion(page, before + 1);
}

/** Taps something that sends one intent, and waits for the table to move on. */
export async function tapAndWait(page: Page, selector: string): Promise<void> {
  const before = await versionOf(page);
  await page.click(selector);
  await atVersion(page, before + 1);
}
