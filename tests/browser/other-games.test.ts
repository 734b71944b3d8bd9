/**
 * One short game of each other game, started from the referee's setup screen and played on the
 * phones in real Chromium: The worm is drawn, Worm-up (two players: the ghost), Worm Derby and
 * Tapeworm (solo practice). Ann plays on her own phone and keeps her seat from game to game;
 * the referee enters rolls by hand (no camera at this table) and acts for Ben.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameId } from '../../shared/game.js';
import { randomMove, type TwidState } from '../../shared/games/the-worm-is-drawn/index.js';
import type { DerbyState } from '../../shared/games/worm-derby/index.js';
import type { TapewormState } from '../../shared/games/tapeworm/index.js';
import type { WormUpState } from '../../shared/games/worm-up/index.js';
import { createRng } from '../../shared/rng.js';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { WAIT, atVersion, caughtUp, joinAsReferee, joinSeat, tapAndWait } from './support/pages.js';

let server: RunningServer;
let browser: Browser;
let referee: Page;
let ann: Page;

const table = () => server.clew.session.table;

/** The referee starts a game from the setup screen: which game, the names, and any extra taps. */
async function startGame(game: GameId, names: string[], extra: (page: Page) => Promise<void> = async () => {}): Promise<void> {
  // The last game may have ended on another phone: the setup screen starts from the table as it is.
  await caughtUp(referee);
  await referee.click('[data-testid="tab-setup"]');
  await referee.click(`[data-testid="game-${game}"]`);
  while ((await referee.locator('[data-testid^="seat-name-"]').count()) < names.length) await referee.click('[data-testid="add-seat"]');
  while ((await referee.locator('[data-testid^="seat-name-"]').count()) > names.length) await referee.click(`[aria-label="remove seat ${names.length + 1}"]`);
  for (const [i, name] of names.entries()) await referee.fill(`[data-testid="seat-name-${i}"]`, name);
  await extra(referee);
  const before = await caughtUp(referee);
  await referee.click('[data-testid="start-game"]');
  if (await referee.locator('[data-testid="start-confirm"]').isVisible()) await referee.click('[data-testid="start-confirm"]');
  await atVersion(referee, before + 1);
  expect(table().game).toBe(game);
  await referee.waitForSelector(`.app[data-game="${game}"]`);
  if (ann.url() !== 'about:blank') await ann.waitForSelector(`.app[data-game="${game}"]`);
}

/** The referee enters a roll by hand: faces per slot (or counts per face) and uses it. */
async function enterRoll(faces: string[] | Record<string, number>, use = true): Promise<void> {
  // The roll follows a move made on another phone: enter it on the table as it is now.
  await caughtUp(referee);
  await referee.click('[data-testid="enter-by-hand"]');
  if (Array.isArray(faces)) {
    for (const [i, face] of faces.entries()) {
      await referee.click(`[data-testid="slot-${i}"]`);
      await referee.click(`[data-testid="face-${face}"]`);
    }
  } else {
    for (const [face, n] of Object.entries(faces)) for (let k = 0; k < n; k++) await referee.click(`[data-testid="more-${face}"]`);
  }
  await tapAndWait(referee, '[data-testid="manual-submit"]');
  if (use) await tapAndWait(referee, '[data-testid="use-roll"]');
}

/** Plays the table on to its end with seeded random legal moves, straight into the session. */
async function finishWithRandomMoves(move: (state: unknown) => unknown, limit: number): Promise<void> {
  for (let i = 0; ; i++) {
    const t = server.clew.session.table;
    if ((t.state as { phase: string }).phase === 'over') return;
    if (i >= limit) throw new Error(`the game did not end in ${limit} moves`);
    const m = move(t.state);
    if (!m) throw new Error('no legal move, yet the game is not over');
    const ack = await server.clew.session.submit({ kind: 'referee' }, { version: t.version, intent: { type: 'move', move: m } });
    if (!ack.ok) throw new Error(ack.message);
  }
}

beforeAll(async () => {
  server = await startServer({ game: 'worm-and-cozy' });
  browser = await launchBrowser();
  referee = (await openPhone(browser, 'about:blank')).page;
  ann = (await openPhone(browser, 'about:blank')).page;
  await joinAsReferee(referee, server.url);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('one short game of each other game', () => {
  it('The worm is drawn: keep faces, the total, take a lit tile, steal the top tile, the final ranking', async () => {
    await startGame('the-worm-is-drawn', ['Ann', 'Ben']);
    await joinSeat(ann, server.url, 'p1');
    const twid = () => table().state as TwidState;
    // Ann's turn: 8 dice.
    await enterRoll({ worm: 3, '5': 2, '4': 1, '3': 1, '1': 1 });
    await ann.waitForSelector('[data-testid="keep-worm"].keepable');
    await tapAndWait(ann, '[data-testid="keep-worm"]');
    expect(await ann.textContent('[data-testid="twid-total"]')).toBe('18');
    await enterRoll({ '5': 3, '2': 1, '1': 1 });
    await tapAndWait(ann, '[data-testid="keep-5"]');
    expect(await ann.textContent('[data-testid="twid-total"]')).toBe('33');
    // Worms were kept before: that face is not offered again.
    await enterRoll({ worm: 2 });
    expect(twid().phase).toBe('choose');
    await ann.waitForSelector('[data-testid="tile-24"].takeable');
    expect(await ann.locator('.tile.takeable').count()).toBe(twid().table.filter((t) => t <= 33).length);
    await tapAndWait(ann, '[data-testid="tile-24"]');
    expect(twid().stacks[0]).toEqual([24]);
    // Ben's turn (the referee acts for him): exactly 24 with the worms, then a roll with nothing new.
    await enterRoll({ worm: 4, '1': 2, '2': 1, '3': 1 });
    await tapAndWait(referee, '[data-testid="keep-worm"]');
    await enterRoll({ worm: 4 });
    await referee.waitForSelector('[data-testid="steal-24"].stealable');
    await tapAndWait(referee, '[data-testid="steal-24"]');
    expect(twid().stacks).toEqual([[], [24]]);
    await expect.poll(() => ann.textContent('[data-testid="last-turn"]'), WAIT).toContain('Ben stole 24 from Ann');
    // The rest of the game, quickly, then every phone shows the ranking.
    const rng = createRng('browser-twid');
    await finishWithRandomMoves((s) => randomMove(s as TwidState, rng), 2000);
    for (const page of [referee, ann]) {
      await expect.poll(() => page.textContent('[data-testid="headline"]'), WAIT).toMatch(/^Game over/);
      expect(await page.locator('[data-testid="stacks"] li').count()).toBe(2);
    }
    expect(await ann.textContent('[data-testid="stacks"]')).toContain('1.');
  });

  it('Worm-up: bids by colour, the ghost, a void bid, X names its number, the movement order, the winner', async () => {
    await startGame('worm-up', ['Ann', 'Ben']);
    const up = () => table().state as WormUpState;
    expect(up().players.map((p) => p.color)).toEqual(['red', 'yellow']);
    // Ann keeps her seat from the last game (seats are p1, p2 in order).
    await ann.waitForSelector('.app[data-role="player"]');
    expect(await ann.textContent('[data-testid="who"]')).toBe('Ann');
    // Round 1: Ann 5, Ben X; the ghost rolls 3 and 4.
    await enterRoll(['5', 'X']);
    await enterRoll(['3', '4']);
    expect(up().phase).toBe('x');
    // The ghost's 4 and Ann's 5 are taken: X may be 3, 6 or 7. Ann is not the X player: no buttons.
    await ann.waitForSelector('[data-testid="x-choice"]');
    expect(await ann.locator('[data-testid^="x-"]:not([data-testid="x-choice"])').count()).toBe(0);
    expect(await referee.locator('[data-testid^="x-"]:not([data-testid="x-choice"])').allTextContents()).toEqual(['3', '6', '7']);
    await tapAndWait(referee, '[data-testid="x-3"]');
    // Ann's phone has its own socket: the order reaches it after the referee's.
    await expect.poll(() => ann.textContent('[data-testid="order"]'), WAIT).toMatch(/Ben moves 3 \(X\).*Ann moves 5/);
    await tapAndWait(referee, '[data-testid="next"]');
    await tapAndWait(referee, '[data-testid="next"]');
    expect(up().round).toBe(2);
    // Round 2: both bid 6: a collision, nobody moves.
    await enterRoll(['6', '6']);
    await enterRoll(['3', '3']);
    // Round 1's result is on Ann's phone already: wait for round 2's there.
    await caughtUp(ann);
    await ann.waitForSelector('[data-testid="last-round"]');
    expect(await ann.getAttribute('[data-testid="bid-p1"]', 'data-void')).toBe('collision');
    expect(await ann.getAttribute('[data-testid="bid-p2"]', 'data-void')).toBe('collision');
    // The referee declares the winner.
    await referee.click('[data-testid="declare-winner"]');
    await tapAndWait(referee, '[data-testid="winner-p1"]');
    await expect.poll(() => ann.textContent('[data-testid="headline"]'), WAIT).toBe('Ann wins the race');
  });

  it('Worm Derby: obstacles, the roll as an instruction, an ace, reports, the pylon and the finish', async () => {
    await startGame('worm-derby', ['Ann', 'Ben'], async (page) => {
      for (let i = 0; i < 19; i++) await page.click('[data-testid="obstacles-less"]');
      expect(await page.textContent('[data-testid="obstacles-count"]')).toBe('2');
    });
    const derby = () => table().state as DerbyState;
    expect(derby().phase).toBe('obstacles');
    await ann.waitForSelector('[data-testid="derby-placed"]');
    await tapAndWait(ann, '[data-testid="derby-placed"]');
    await tapAndWait(referee, '[data-testid="derby-placed"]');
    expect(derby().phase).toBe('roll');
    await enterRoll(['4']);
    await expect.poll(() => ann.textContent('[data-testid="instruction"]'), WAIT).toBe('Ann: move 4 steps from one end.');
    await caughtUp(ann);
    await ann.check('[data-testid="derby-pylon"]');
    await tapAndWait(ann, '[data-testid="derby-moved"]');
    expect(derby().worms[0]!.roundedPylon).toBe(true);
    // Ben rolls the ace: he moves an obstacle, then rolls again.
    await enterRoll(['ace']);
    await referee.waitForSelector('[data-testid="derby-ace"]');
    await tapAndWait(referee, '[data-testid="derby-ace"] button');
    await enterRoll(['3']);
    await tapAndWait(referee, '[data-testid="derby-moved"]');
    // Ann's head reaches the finish: with two worms the race ends at the first finisher.
    await enterRoll(['5']);
    // Ann ticks the box on the view with the referee's roll (a later snapshot would draw it afresh).
    await caughtUp(ann);
    await ann.check('[data-testid="derby-finished"]');
    await tapAndWait(ann, '[data-testid="derby-moved"]');
    expect(derby().phase).toBe('over');
    await expect.poll(() => ann.textContent('[data-testid="instruction"]'), WAIT).toBe('The race is over: Ann won.');
    await expect.poll(() => referee.textContent('[data-testid="finishing-order"]'), WAIT).toContain('1. Ann');
  });

  it('Tapeworm: draw, play cards on lit spots with a locked colour, effects, until the hand is empty', async () => {
    await startGame('tapeworm', ['Ann']);
    const tw = () => table().state as TapewormState;
    const colours = ['red', 'pink', 'white', 'black'];
    for (let step = 0; step < 80 && tw().phase !== 'over'; step++) {
      const s = tw();
      if (s.phase === 'draw') {
        await ann.waitForSelector('[data-testid="tw-draw"]');
        await tapAndWait(ann, '[data-testid="tw-draw"]');
      } else if (s.phase === 'effect') {
        await ann.waitForSelector('[data-testid="tw-decline"]');
        await tapAndWait(ann, '[data-testid="tw-decline"]');
      } else {
        // Play a card of the locked colour (or any) that fits somewhere: pick it, tap the first lit spot, confirm.
        let played = false;
        for (const colour of s.lock ? [s.lock] : colours) {
          for (const shape of ['straight', 'curve', 'head']) {
            const id = `${colour}-${shape}`;
            await ann.click('[data-testid="tw-play-card"]');
            await ann.click(`[data-testid="colour-${colour}"]`);
            if ((await ann.locator(`[data-testid="card-${id}"]`).count()) === 0) {
              await ann.click('[data-testid="modal"] .modal-head button');
              continue;
            }
            await ann.click(`[data-testid="card-${id}"]`);
            const spots = ann.locator('[data-spot]');
            if ((await spots.count()) === 0) {
              await ann.click('text=Other card');
              continue;
            }
            await spots.first().click();
            await tapAndWait(ann, '[data-testid="tw-confirm"]');
            played = true;
            break;
          }
          if (played) break;
        }
        if (!played) await tapAndWait(ann, '[data-testid="tw-end-turn"]');
      }
      // The counts on the phone are the table's.
      await expect.poll(async () => ann.textContent('[data-testid="tw-hands"]'), WAIT).toContain(`${tw().hands[0]} card`);
    }
    expect(tw().phase).toBe('over');
    expect(tw().table.length).toBeGreaterThan(5);
    await ann.waitForSelector('[data-testid="tw-over"]');
  });
});
