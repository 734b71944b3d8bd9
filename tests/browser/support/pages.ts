/**
 * Small steps a person takes on a phone, for the browser tests and the screenshot script: join a
 * seat, wait for the table to reach a version, tap through a choice. Everything goes through the
 * page as a person would (taps on what is shown), never around it.
 */
import type { Page } from 'playwright-core';
import { JOIN_CODE, REFEREE_CODE } from './harness.js';

/**
 * For `expect.poll` on a page: vitest gives up after one second, and on a loaded machine a
 * snapshot can take longer than that to reach a phone and be drawn (the poll ends when it is).
 */
export const WAIT = { timeout: 20_000 } as const;

/** The snapshot version the page shows (data-version on the app root). */
export async function versionOf(page: Page): Promise<number> {
  return Number(await page.locator('.app').getAttribute('data-version'));
}

/** Waits until the page shows at least this snapshot version. */
export async function atVersion(page: Page, version: number): Promise<void> {
  await page.waitForFunction(`Number(document.querySelector('.app')?.getAttribute('data-version')) >= ${version}`);
}

/** The table's version now, from the server the page was loaded from (null for a page on no server). */
async function tableVersion(page: Page): Promise<number | null> {
  const url = new URL(page.url());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const res = await fetch(`${url.origin}/api/table`);
  if (!res.ok) throw new Error(`GET ${url.origin}/api/table: ${res.status}`);
  return ((await res.json()) as { version: number }).version;
}

/**
 * Waits until the page shows the table as it is now, and returns that version. Every phone has its
 * own socket: another phone's change (or one made straight on the server) may not have reached
 * this one yet, and a tap on that older view is refused as stale ("someone acted first").
 */
export async function caughtUp(page: Page): Promise<number> {
  const now = await tableVersion(page);
  if (now !== null) await atVersion(page, now);
  return versionOf(page);
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
  await tapAndWait(page, '[data-testid="confirm"]');
}

/**
 * Taps something that sends one intent, and waits for the table to move on. The page is first
 * brought up to the table as it is: the intent is made on the version the page shows, and
 * waiting for "one more than the page showed" would otherwise end at once when the page was behind.
 */
export async function tapAndWait(page: Page, selector: string): Promise<void> {
  const before = await caughtUp(page);
  await page.click(selector);
  await atVersion(page, before + 1);
}

/** Drags a finger (mouse) through the centres of these board cells on `page`, in order. */
export async function dragThrough(page: Page, cells: string[]): Promise<void> {
  const centre = async (cell: string) => {
    const box = (await page.locator(`[data-cell="${cell}"]`).boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  };
  // The middle of the screen: the fixed tab bar covers the bottom edge.
  await page.evaluate(`document.querySelector('[data-cell="${cells[0]}"]').scrollIntoView({ block: 'center' })`);
  const first = await centre(cells[0]!);
  await page.mouse.move(first.x, first.y);
  await page.mouse.down();
  for (const cell of cells.slice(1)) {
    const p = await centre(cell);
    await page.mouse.move(p.x, p.y, { steps: 4 });
  }
  await page.mouse.up();
}
