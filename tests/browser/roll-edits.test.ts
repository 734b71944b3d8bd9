/**
 * A camera roll mended on a phone, in real Chromium: a box on no die (a shadow read as a fourth
 * die) is taken out, and a die the camera missed is added; the roll then means what the table
 * rolled and the referee uses it. The log keeps both edits: the server restarted from it has them.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CozyState } from '../../shared/games/worm-and-cozy/index.js';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { WAIT, joinAsReferee, tapAndWait } from './support/pages.js';

let server: RunningServer;
let browser: Browser;
let referee: Page;

const table = () => server.clew.session.table;

type Seen = { face: string; color: string; confidence: number };

/** What the camera sends when the tray settles: d6 stand-ins, the red one the shape die. */
async function cameraSees(dice: Seen[]): Promise<void> {
  const ack = await server.clew.session.cameraRoll(
    dice.map((d, i) => ({ set: 'd6' as const, face: d.face, color: d.color, confidence: d.confidence, box: [10 + i * 90, 10, 80 + i * 90, 80] as [number, number, number, number], ...(d.confidence < 0.7 ? { uncertain: true } : {}) })),
    'camera',
  );
  expect(ack.ok).toBe(true);
}

beforeAll(async () => {
  server = await startServer({ game: 'worm-and-cozy', options: { chapter: 'clew-1', players: [{ id: 'p1', name: 'Alice', color: 'blue' }] } });
  browser = await launchBrowser();
  referee = (await openPhone(browser, 'about:blank')).page;
  await joinAsReferee(referee, server.url);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('mending a camera roll on a phone', () => {
  it('a shadow read as a fourth die is taken out', async () => {
    await cameraSees([
      { face: '2', color: 'red', confidence: 0.96 },
      { face: '1', color: 'white', confidence: 0.95 },
      { face: '3', color: 'white', confidence: 0.41 },
      { face: '5', color: 'white', confidence: 0.93 },
    ]);
    await referee.waitForSelector('[data-testid="die-3"]');
    // Four dice for a roll of three: the roll cannot be used as it is.
    await expect.poll(() => referee.locator('[data-testid="use-roll"]').isDisabled(), WAIT).toBe(true);
    await referee.click('[data-testid="die-2"]');
    await tapAndWait(referee, '[data-testid="remove-die"]');
    await expect.poll(() => referee.locator('[data-testid="rolled-dice"] button').count(), WAIT).toBe(3);
    expect(table().roll!.dice.map((d) => d.face)).toEqual(['2', '1', '5']);
    expect(table().roll!.removed).toEqual([{ set: 'd6', face: '3', color: 'white' }]);
    expect(table().roll!.needsConfirmation).toBe(false);
    expect(await referee.textContent('[data-testid="roll-meaning"]')).toMatch(/L.*eye.*brain/);
  });

  it('a die the camera missed is added: the missing organ die, its face picked', async () => {
    await cameraSees([
      { face: '4', color: 'red', confidence: 0.96 },
      { face: '6', color: 'white', confidence: 0.95 },
    ]);
    await expect.poll(() => referee.locator('[data-testid="rolled-dice"] button').count(), WAIT).toBe(2);
    // Only one named die is missing (an organ die), so its faces come at once.
    await referee.click('[data-testid="add-die"]');
    await tapAndWait(referee, '[data-testid="face-1"]');
    await expect.poll(() => referee.locator('[data-testid="rolled-dice"] button').count(), WAIT).toBe(3);
    expect(await referee.getAttribute('[data-testid="die-2"]', 'data-face')).toBe('1');
    expect(await referee.textContent('[data-testid="die-2"]')).toContain('added');
    expect(table().roll!.dice[2]).toEqual({ set: 'd6', face: '1', added: true });
  });

  it('the mended roll is kept in the log: after a restart it is there, and the referee uses it', async () => {
    const { dataDir, port } = server;
    const before = JSON.stringify(table().roll);
    const previous = server;
    await previous.stop();
    const next = await startServer({ dataDir }, port);
    // The first server made the data folder and removes it when closed: close both at the end.
    server = { ...next, close: async () => { await next.close(); await previous.close().catch(() => undefined); } };
    expect(JSON.stringify(table().roll)).toBe(before);
    await referee.waitForSelector('[data-testid="use-roll"]:not([disabled])', WAIT);
    await tapAndWait(referee, '[data-testid="use-roll"]');
    expect((table().state as CozyState).roll).toMatchObject({ organs: expect.arrayContaining(['eye']) });
  });
});
