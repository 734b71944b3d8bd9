/**
 * A brain's die change on the phone, where more than one source offers it (last hour's acted
 * brains, and unfilled brains on worms touching the hour's region): the player picks which. A
 * filled brain never acts again, so which one is filled matters; the phone always took the first,
 * and the others could not be filled at all (thirty-eighth session's review).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMove, cellIndex, geometry, legalOptions, setup, type CozyMove, type CozyState } from '../../shared/games/worm-and-cozy/index.js';
import { createRng } from '../../shared/rng.js';
import { launchBrowser, openPhone, startServer, type RunningServer } from './support/harness.js';
import { WAIT, caughtUp, joinSeat } from './support/pages.js';

const PLAYERS = [{ id: 'p1', name: 'Alice' }, { id: 'p2', name: 'Bob' }];
const SHAPES = ['I', 'L', 'U', 'V', 'W', 'Z'] as const;
const ORGANS = ['eye', 'mouth', 'tail', 'collar', 'brain', 'heart'] as const;
type ChangeDie = Extract<CozyMove, { type: 'changeDie' }>;

/** A seeded game (brains rolled often) played by the engine until a player may change one die to one face from two brains or more. */
function findPosition(): { moves: CozyMove[]; player: string; change: ChangeDie[] } {
  for (let seed = 1; seed < 400; seed++) {
    const rng = createRng(`cozy-brains-${seed}`);
    const start = setup({ chapter: 'clew-1', players: PLAYERS });
    if (!start.ok) throw new Error(start.message);
    let state: CozyState = start.state;
    const moves: CozyMove[] = [];
    const apply = (m: CozyMove) => {
      const r = applyMove(state, m);
      if (!r.ok) throw new Error(r.message);
      state = r.state;
      moves.push(m);
    };
    for (let hour = 0; hour < 14; hour++) {
      apply({ type: 'roll', shape: rng.pick(SHAPES), organs: [rng.next() < 0.5 ? 'brain' : rng.pick(ORGANS), rng.pick(ORGANS)] });
      for (let guard = 0; guard < 80; guard++) {
        let moved = false;
        for (const p of PLAYERS) {
          const o = legalOptions(state, { player: p.id });
          if (o.step !== 'option' && o.step !== 'decision') continue;
          const changes = o.moves.filter((m): m is ChangeDie => m.type === 'changeDie');
          for (const c of changes) {
            const same = changes.filter((d) => d.die === c.die && d.face === c.face && d.brain);
            if (hour > 0 && same.length >= 2) return { moves, player: p.id, change: changes.filter((d) => d.die === c.die && d.face === c.face) };
          }
          const others = o.moves.filter((m) => m.type !== 'done' && m.type !== 'pass' && m.type !== 'changeDie');
          apply(others.length > 0 && rng.next() < 0.9 ? rng.pick(others) : (o.moves.find((m) => m.type === 'done') ?? o.moves.find((m) => m.type === 'pass') ?? o.moves[0]!));
          moved = true;
        }
        if (!moved) break;
      }
      if (!legalOptions(state).table.includes('endHour')) break;
      apply({ type: 'endHour' });
    }
  }
  throw new Error('no position with two brains to fill was found');
}

let browser: Browser;
let server: RunningServer;
let phone: Page;

beforeAll(async () => {
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await phone?.context().close();
  await server?.close();
  await browser?.close();
});

describe('changing a die with a brain', () => {
  it('where two brains or more offer the same change, the phone asks which to fill, and fills that one', async () => {
    const found = findPosition();
    server = await startServer({ game: 'worm-and-cozy', options: { chapter: 'clew-1', players: PLAYERS } });
    for (const move of found.moves) {
      const t = server.clew.session.table;
      const ack = await server.clew.session.submit({ kind: 'referee' }, { version: t.version, intent: { type: 'move', move } });
      if (!ack.ok) throw new Error(ack.message);
    }
    phone = (await openPhone(browser, 'about:blank')).page;
    await joinSeat(phone, server.url, found.player);
    await caughtUp(phone);
    const { die, face } = found.change[0]!;
    await phone.click('[data-testid="option-brain"]');
    await phone.click(`[data-testid="change-${die}-${face}"]`);
    await phone.waitForSelector('[data-testid="choices"]', WAIT);
    const offered = await phone.locator('[data-testid^="choice-"]').allTextContents();
    expect(offered).toHaveLength(found.change.length);
    const last = found.change.at(-1)!;
    expect(last.brain).toBeDefined();
    const at = offered.findIndex((text) => text.includes(`fill in the brain at ${last.brain}`));
    expect(at, offered.join(' | ')).toBeGreaterThanOrEqual(0);
    await phone.click(`[data-testid="choice-${at}"]`);
    expect(await phone.textContent('[data-testid="confirm-text"]')).toContain(`fill in the brain at ${last.brain}`);
    const before = server.clew.session.table.version;
    await phone.click('[data-testid="confirm"]');
    await expect.poll(() => server.clew.session.table.version, WAIT).toBe(before + 1);
    const state = server.clew.session.table.state as CozyState;
    const sheet = state.sheets[PLAYERS.findIndex((p) => p.id === found.player)]!;
    // The brain chosen is filled in (it never acts again); the others offered are not.
    const brainAt = (cell: string) => sheet.worms.flatMap((w) => w.organs).find((o) => o.type === 'brain' && o.cell === cellIndex(geometry(state.chapter), cell));
    expect(brainAt(last.brain!)?.filled).toBe(true);
    for (const other of found.change) if (other.brain && other.brain !== last.brain) expect(brainAt(other.brain)?.filled).toBeFalsy();
  });
});
