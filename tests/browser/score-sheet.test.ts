/**
 * Score a sheet, in real Chromium: a finished paper sheet copied onto the phone by dragging
 * across cells and tapping organs and foods; problems marked on the grid as they happen; the
 * score drawn as the sheet's tracks and equal to what the engine (and `npm run score`) says.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { circledSymbols, getChapter } from '../../shared/games/worm-and-cozy/index.js';
import { scoreSheet } from '../../shared/games/worm-and-cozy/sheet.js';
import { synthSheetPhoto } from '../../vision/sheet/synth/index.js';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { dragThrough } from './support/pages.js';

let server: RunningServer;
let browser: Browser;
let page: Page;

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
    await dragThrough(page, ['A1', 'A2', 'A3', 'A4', 'B4']);
    await dragThrough(page, ['B3', 'B2', 'B1', 'C1', 'D1']);
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
    await dragThrough(page, ['A3', 'B3', 'C3']);
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

describe('reading a photo of the sheet', () => {
  /** What `POST /api/sheet/read` answers for these bytes (status and JSON). */
  async function api(bytes: Buffer, chapter: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${server.url}/api/sheet/read?chapter=${chapter}`, { method: 'POST', body: bytes, headers: { 'content-type': 'image/jpeg' } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const upload = (name: string, mimeType: string, buffer: Buffer) => page.setInputFiles('[data-testid="sheet-photo"]', { name, mimeType, buffer });

  it('loads the sheet the reader read into the editor, scored as the server scored it, and undo takes it back', async () => {
    // A synthetic photo of a played clew-3 sheet, made by the same generator the reader's tests use.
    const jpeg = Buffer.from((await synthSheetPhoto('test-fixed', { width: 2000, height: 1500, chapter: 'clew-3' })).jpeg);
    const answer = await api(jpeg, 'clew-3');
    expect(answer.status).toBe(200);
    const before = await sheetJson();
    await page.selectOption('[data-testid="score-chapter"]', 'clew-3');
    await upload('sheet.jpg', 'image/jpeg', jpeg);
    await page.waitForSelector('[data-testid="editor-note"]:has-text("Read from the photo")');
    expect(await sheetJson()).toEqual(answer.body.sheet);
    expect(await page.textContent('[data-testid="total"]')).toBe(String((answer.body.score as { total: number }).total));
    expect(await page.locator('g.worm').count()).toBe((answer.body.sheet as { worms: unknown[] }).worms.length);
    // One edit: undo brings back the chapter switch's sheet, a second undo the sheet before.
    await page.click('[data-testid="editor-undo"]');
    expect(await sheetJson()).toEqual({ ...(before as object), chapter: 'clew-3' });
    await page.click('[data-testid="editor-undo"]');
    expect(await sheetJson()).toEqual(before);
  });

  it("lists the reader's doubts, score-changing first; a tap rings their cells, confirming goes on to the next", async () => {
    const sheet = { chapter: 'clew-1', worms: [{ cells: ['A1', 'A2', 'A3', 'A4', 'B4'], shape: 'L', organs: [{ type: 'eye', cell: 'A1', facing: 'N' }] }], foods: ['C2'] };
    const uncertain = [
      { cells: ['B4', 'C4'], what: 'is the border between B4 and C4 crossed by one worm, or left clear between two?', options: ['two worms', 'one worm'], affectsScore: false },
      { cells: ['A1'], what: 'A1: is it eye or collar?', options: ['eye', 'collar'], affectsScore: true },
    ];
    // The answer is made here (the real reader's doubts depend on the photo); the route is the real one's.
    const scored = scoreSheet(sheet);
    const reader = (url: URL) => url.pathname === '/api/sheet/read';
    await page.route(reader, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ chapter: 'clew-1', sheet, score: scored.ok ? scored.score : null, uncertain }) }));
    await page.selectOption('[data-testid="score-chapter"]', 'clew-1');
    await upload('sheet.jpg', 'image/jpeg', Buffer.from('any bytes'));
    await page.waitForSelector('[data-testid="photo-doubts"]');
    await page.unroute(reader);
    expect(await sheetJson()).toEqual(sheet);
    const doubts = page.locator('[data-testid="photo-doubt"]');
    expect(await doubts.count()).toBe(2);
    expect(await doubts.nth(0).textContent()).toContain('A1: is it eye or collar?');
    expect(await doubts.nth(0).textContent()).toContain('may change the score');
    expect(await page.locator('rect.legal-top').count()).toBe(0);
    await doubts.nth(0).locator('[data-testid="doubt-go"]').click();
    expect(await page.$$eval('rect.cell.legal', (els) => els.map((e) => e.getAttribute('data-cell')))).toEqual(['A1']);
    await doubts.nth(0).locator('[data-testid="doubt-confirm"]').click();
    expect(await doubts.nth(0).locator('[data-testid="doubt-confirm"]').textContent()).toContain('Confirmed');
    // On to the border between B4 and C4.
    expect((await page.$$eval('rect.cell.legal', (els) => els.map((e) => e.getAttribute('data-cell')))).sort()).toEqual(['B4', 'C4']);
    expect(await page.textContent('[data-testid="photo-doubts"] h2')).toContain('1 of 2 left');
    // Undoing the photo takes its doubts away with it.
    await page.click('[data-testid="editor-undo"]');
    expect(await page.locator('[data-testid="photo-doubts"]').count()).toBe(0);
  });

  it("shows the server's reason plainly when a photo is refused", async () => {
    const blank = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#f4f1ea' } }).jpeg().toBuffer();
    const refused = await api(blank, 'clew-1');
    expect(refused.status).toBe(422);
    const sheetBefore = await sheetJson();
    await upload('table.jpg', 'image/jpeg', blank);
    await page.waitForSelector('[data-testid="photo-error"]');
    expect(await page.textContent('[data-testid="photo-error"]')).toBe(`The photo was not read: ${refused.body.message as string}`);
    expect(await sheetJson()).toEqual(sheetBefore);
    await upload('notes.txt', 'text/plain', Buffer.from('not a photo'));
    await page.waitForSelector('[data-testid="photo-error"]:has-text("not an image")');
  });
});
