/**
 * Score a sheet, in real Chromium: a finished paper sheet copied onto the phone by dragging
 * across cells and tapping organs and foods; problems marked on the grid as they happen; the
 * score drawn as the sheet's tracks and equal to what the engine (and `npm run score`) says.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { circledSymbols, getChapter } from '../../shared/games/worm-and-cozy/index.js';
import { scoreSheet } from '../../shared/games/worm-and-cozy/sheet.js';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

/** Drags a finger (mouse) through the centres of these cells, in order. */
async function drag(cells: string[]): Promise<void> {
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

async function tool(name: string, cells: string[]): Promise<void> {
  await page.click(`[data-testid="tool-${name}"]`);
  for (const c of cells) await page.locator(`[data-cell="${c}"]`).click();
}

const sheetJson = async () => JSON.parse((await page.textContent('[data-testid="sheet-json"]'))!) as unknown;

beforeAll(async () => {
  server = await startServer({ game: 'worm-and-cozy' });
  browser = await launchBrowser();
  page = (await openPhone(browser, 'about:blank')).page;
  await page.goto(`${server.url}/#/score`);
  await page.waitForSelector('[data-testid="score-screen"]');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('score a sheet on the phone', () => {
  it('draws worms by dragging, adds eyes and foods, and scores the sheet as the engine does', async () => {
    const fixture = JSON.parse(await readFile(path.join(import.meta.dirname, '../cozy/fixtures/full.sheet.json'), 'utf8')) as { worms: unknown[]; foods: string[] };
    // Worm 1 from its front: A1 down to A4, then B4 (an L). Worm 2: B3 up to B1, then C1, D1 (a V).
    await drag(['A1', 'A2', 'A3', 'A4', 'B4']);
    await drag(['B3', 'B2', 'B1', 'C1', 'D1']);
    expect(await page.locator('g.worm').count()).toBe(2);
    // Eyes at the front tips: the engine's rules give their facing (N for worm 1, S for worm 2).
    await tool('eye', ['A1', 'B3']);
    await tool('food', ['C2', 'D2']);
    expect(await sheetJson()).toEqual({ chapter: 'clew-1', ...fixture });
    const expected = scoreSheet(fixture && { chapter: 'clew-1', ...fixture });
    if (!expected.ok) throw new Error(expected.errors.join('; '));
    expect(await page.textContent('[data-testid="total"]')).toBe(String(expected.score.total));
    expect(await page.textContent('[data-testid="rubric"]')).toBe(expected.score.rubric);
    // The circled symbols on each track are the ones the count reaches.
    const chapter = getChapter('clew-1');
    const tracks = page.locator('[data-testid="score-tracks"] .track');
    for (const [i, reward] of chapter.rewards.entries()) {
      const circled = await tracks.nth(i).locator('[data-circled="yes"]').count();
      expect(circled).toBe(circledSymbols(reward.track, expected.score.rewards[i]!.count));
    }
    expect(await page.locator('[data-testid="sheet-problems"]').count()).toBe(0);
  });

  it('marks problems on the grid as they happen, and undo takes them away', async () => {
    // A worm across worm 1 and onto the rock at C3.
    await page.click('[data-testid="tool-worm"]');
    await drag(['A3', 'B3', 'C3']);
    await page.waitForSelector('[data-testid="sheet-problems"]');
    const problems = await page.textContent('[data-testid="sheet-problems"]');
    expect(problems).toContain('lies on the rock at C3');
    expect(problems).toMatch(/overlap at A3/);
    const marked = await page.$$eval('rect.cell.mark', (els) => els.map((e) => e.getAttribute('data-cell')));
    expect(marked).toEqual(expect.arrayContaining(['A3', 'B3', 'C3']));
    // No score is shown for a sheet with problems.
    expect(await page.locator('[data-testid="sheet-score"]').count()).toBe(0);
    await page.click('[data-testid="editor-undo"]');
    await page.waitForSelector('[data-testid="sheet-score"]');
    expect(await page.locator('rect.cell.mark').count()).toBe(0);
  });

  it('an eye in the middle of a worm is kept as drawn and the problem is named', async () => {
    await tool('erase', ['A1']); // the eye goes, the worm stays
    await tool('eye', ['A3']);
    expect(await page.textContent('[data-testid="editor-message"]')).toContain('not where eyes go');
    await page.waitForSelector('[data-testid="sheet-problems"]');
    expect(await page.textContent('[data-testid="sheet-problems"]')).toContain('the eye at A3');
    await page.click('[data-testid="editor-undo"]');
    await page.click('[data-testid="editor-undo"]');
    await page.waitForSelector('[data-testid="sheet-score"]');
  });

  it('keeps the sheet on the phone across a reload', async () => {
    const before = await sheetJson();
    await page.reload();
    await page.waitForSelector('[data-testid="score-screen"]');
    expect(await sheetJson()).toEqual(before);
  });
});
