/**
 * The game screens against the engines, as the thirty-eighth session's review played them: a top
 * tile of The worm is drawn is lit for stealing only when stealing is a move (mid-roll it was lit
 * and the tap refused), and a Ringworm's discards picked on a phone go with that Ringworm (left
 * over after "Leave it unused" and a BACK, the next Ringworm opened with them and sent them).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TapewormState } from '../../shared/games/tapeworm/index.js';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { WAIT, caughtUp, joinAsReferee, joinSeat, tapAndWait } from './support/pages.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

async function submit(server: RunningServer, move: unknown): Promise<void> {
  const t = server.clew.session.table;
  const ack = await server.clew.session.submit({ kind: 'referee' }, { version: t.version, intent: { type: 'move', move } });
  if (!ack.ok) throw new Error(`${JSON.stringify(move)}: ${ack.message}`);
}

describe('two players at the table', () => {
  let server: RunningServer | undefined;
  let referee: Page;
  let ben: Page;

  async function start(game: 'the-worm-is-drawn' | 'tapeworm'): Promise<void> {
    server = await startServer({ game, options: { players: [{ id: 'p1', name: 'Ann' }, { id: 'p2', name: 'Ben' }] } });
    referee = (await openPhone(browser, 'about:blank')).page;
    await joinAsReferee(referee, server.url);
    ben = (await openPhone(browser, 'about:blank')).page;
    await joinSeat(ben, server.url, 'p2');
  }

  afterAll(async () => {
    await server?.close();
  });

  it('The worm is drawn: a top tile is not lit for stealing while its owner\'s rival is still rolling', async () => {
    await start('the-worm-is-drawn');
    const s = server!;
    // Ann takes 28 (four worms and four 1s... in the seed preset, any tile up to her total).
    for (const m of [
      { type: 'roll', dice: ['worm', 'worm', 'worm', 'worm', '1', '1', '1', '1'] },
      { type: 'keep', face: 'worm' },
      { type: 'roll', dice: ['1', '1', '1', '1'] },
      { type: 'keep', face: '1' },
      { type: 'take', tile: 28 },
      // Ben is still rolling: worms and 2s kept so far.
      { type: 'roll', dice: ['worm', 'worm', 'worm', 'worm', '2', '2', '1', '1'] },
      { type: 'keep', face: 'worm' },
      { type: 'roll', dice: ['2', '2', '3', '3'] },
      { type: 'keep', face: '2' },
    ]) await submit(s, m);
    for (const page of [referee, ben]) {
      await caughtUp(page);
      expect(await page.getAttribute('[data-testid="steal-28"]', 'class')).not.toMatch(/stealable/);
      expect(await page.isDisabled('[data-testid="steal-28"]')).toBe(true);
    }
    await s.close();
    server = undefined;
  });

  it('Tapeworm: the Ringworm\'s discards picked on a phone go with that Ringworm', async () => {
    const found = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/tapeworm-ring/position.json'), 'utf8')) as { moves: unknown[]; ring: { card: string; x: number; y: number; rotation: number } };
    await start('tapeworm');
    const s = server!;
    const state = () => s.clew.session.table.state as TapewormState;
    for (const m of found.moves) await submit(s, m);
    await caughtUp(ben);
    const ring = found.ring;
    const closeTheRing = async () => {
      await ben.click('[data-testid="tw-play-card"]');
      await ben.click('[data-testid="colour-white"]');
      await ben.click(`[data-testid="card-${ring.card}"]`);
      await ben.click(`[data-spot="${ring.x},${ring.y}"]`);
      const turned = `[data-testid="tw-rotations"] button[aria-label="turned ${ring.rotation * 90} degrees"]`;
      if (await ben.locator(turned).count()) await ben.click(turned);
      await tapAndWait(ben, '[data-testid="tw-confirm"]');
    };
    await closeTheRing();
    expect(state().pending[0]).toMatchObject({ effect: 'ringworm' });
    await ben.click('button:has-text("+ a discarded card")');
    await ben.click('[data-testid="colour-red"]');
    await ben.click('[data-testid="card-red-curve"]');
    await expect.poll(() => ben.textContent('[data-testid="tw-effect"] p.muted'), WAIT).toBe('Discarded: red-curve');
    await tapAndWait(ben, '[data-testid="tw-decline"]');
    // The referee takes the decline and the ring back; Ben closes the ring again.
    await tapAndWait(referee, '[data-testid="undo"]');
    await tapAndWait(referee, '[data-testid="undo"]');
    await caughtUp(ben);
    await closeTheRing();
    await expect.poll(() => ben.textContent('[data-testid="tw-effect"] p.muted'), WAIT).toBe('Discarded: nothing yet');
    const before = state().discard.length;
    await tapAndWait(ben, 'button:has-text("Done discarding")');
    expect(state().discard.slice(before)).toEqual([]);
  });
});
