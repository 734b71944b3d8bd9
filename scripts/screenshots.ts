/**
 * `npm run screenshots`: every screen of the phone dashboard at phone size (360 x 640 CSS px,
 * device scale 2), written to docs/screenshots/. It builds the dashboard if needed, starts a real
 * clew server on a temporary data folder, brings the table into each state (through the session,
 * as the phones would), and photographs what a phone shows. Seeded: the same pictures every run.
 *
 *   npm run screenshots [-- --only cozy]
 */
import { Command, InvalidArgumentError } from 'commander';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import type { Intent } from '../shared/protocol.js';
import { legalOptions, type CozyMove, type CozyState } from '../shared/games/worm-and-cozy/index.js';
import { createRng } from '../shared/rng.js';
import { HAS_MODEL, launchBrowser, openPhone, startServer, type RunningServer } from '../tests/browser/support/harness.js';
import { atVersion, joinAsReferee, joinSeat, litCells } from '../tests/browser/support/pages.js';

const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');
/** The groups of screens, as main() takes them in turn. */
const GROUPS = ['join', 'setup', 'cozy', 'dice', 'teach', 'cozy-end', 'score', 'twid', 'wormup', 'derby', 'tapeworm', 'offline'] as const;

// Parsed before anything is written: a full run deletes every picture first, so a mistyped flag
// (or --help) must stop here, not start the job.
const program = new Command()
  .name('screenshots')
  .description('photograph every screen of the phone dashboard at 360 x 640 into docs/screenshots/ (a full run deletes every PNG there first)')
  .option('--only <group>', `only the groups whose name contains GROUP, leaving the other pictures alone: ${GROUPS.join(', ')}`, (value: string) => {
    if (!GROUPS.some((g) => g.includes(value))) throw new InvalidArgumentError(`no group's name contains "${value}" (groups: ${GROUPS.join(', ')})`);
    return value;
  })
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
  .parse();
const only = program.opts<{ only?: string }>().only;

let server: RunningServer;

/** Sends an intent as the referee straight into the table session (the state a phone would reach). */
async function referee(intent: Intent): Promise<void> {
  const t = server.clew.session.table;
  const ack = await server.clew.session.submit({ kind: 'referee' }, { version: t.version, intent });
  if (!ack.ok) throw new Error(`${intent.type}: ${ack.message}`);
}
const move = (m: unknown) => referee({ type: 'move', move: m });
const cozy = () => server.clew.session.table.state as CozyState;

/** Photographs the viewport with `selector` near its top (or the top of the page). */
async function shot(page: Page, name: string, selector?: string, offset = 64): Promise<void> {
  await page.evaluate(
    selector
      ? `(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) throw new Error('no ${selector.replace(/'/g, '')}'); window.scrollTo(0, Math.max(0, el.getBoundingClientRect().top + window.scrollY - ${offset})); })()`
      : 'window.scrollTo(0, 0)',
  );
  await page.waitForTimeout(120);
  // Palette PNGs: the screens are flat colours, so 256 colours keep them sharp at a third of the bytes.
  const png = await page.screenshot();
  await sharp(png).png({ palette: true, quality: 95, effort: 10, compressionLevel: 9 }).toFile(path.join(OUT, `${name}.png`));
  process.stdout.write(`  ${name}.png\n`);
}

async function settle(page: Page): Promise<void> {
  await atVersion(page, server.clew.session.table.version);
  await page.waitForTimeout(80);
}

const want = (group: string) => !only || group.includes(only);

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  // A full run replaces every picture (a screen that was renamed leaves no stale file behind).
  if (!only) for (const f of await readdir(OUT)) if (f.endsWith('.png')) await rm(path.join(OUT, f));
  server = await startServer({
    game: 'worm-and-cozy',
    options: { chapter: 'clew-1', players: [{ id: 'p1', name: 'Alice', color: 'blue' }, { id: 'p2', name: 'Bob', color: 'green' }] },
    camera: { kind: 'replay', replay: { fps: 2, loop: true } },
  });
  const browser = await launchBrowser();
  try {
    const ref = (await openPhone(browser, 'about:blank')).page;
    const alice = (await openPhone(browser, 'about:blank')).page;

    if (want('join')) {
      const p = (await openPhone(browser, server.url)).page;
      await p.waitForSelector('[data-testid="code-input"]');
      await p.fill('[data-testid="code-input"]', 'WORMS');
      await shot(p, '01-join-code');
      await p.goto(`${server.url}/?code=WORMS`);
      await p.waitForSelector('[data-testid="seat-p1"]');
      await shot(p, '02-join-seat');
      await p.context().close();
    }

    await joinAsReferee(ref, server.url);
    await joinSeat(alice, server.url, 'p1');

    if (want('setup')) {
      await ref.click('[data-testid="tab-setup"]');
      await ref.waitForSelector('[data-testid="qr"] svg');
      await shot(ref, '03-setup-invite');
      await shot(ref, '04-setup-new-game', '[data-testid="new-game"]');
      await ref.click('[data-testid="game-worm-up"]');
      await ref.click('[data-testid="seat-color-1"]');
      await shot(ref, '05-setup-players-colours', '.seats', 180);
      await ref.click('[data-testid="tab-table"]');
    }

    // Worm & Cozy, 1 AM: the camera's roll, one die unsure.
    await server.clew.session.cameraRoll(
      [
        { set: 'd6', face: '2', color: 'red', confidence: 0.98, box: [40, 40, 110, 110] },
        { set: 'd6', face: '1', color: 'white', confidence: 0.95, box: [200, 60, 270, 130] },
        { set: 'd6', face: '6', color: 'white', confidence: 0.46, uncertain: true, box: [330, 90, 400, 160] },
      ],
      'camera',
    );
    if (want('cozy')) {
      await settle(alice);
      await shot(alice, '06-cozy-roll-read', '[data-testid="hour-clock"]', 60);
      await alice.click('[data-testid="die-2"]');
      await alice.waitForSelector('.modal');
      await shot(alice, '07-roll-correct-a-die');
      await alice.click('[data-testid="face-5"]');
      await settle(ref);
      await shot(ref, '08-cozy-referee-use-roll', '[data-testid="roll-panel"]', 60);
    } else {
      await referee({ type: 'dice/correct', index: 2, face: '5' });
    }
    await referee({ type: 'dice/confirm' });
    if (want('cozy')) {
      await settle(alice);
      await shot(alice, '09-cozy-options', '[data-testid="twin"]', 60);
      await alice.click('[data-testid="option-A"]');
      await shot(alice, '10-cozy-place-lit', '[data-testid="place-tools"]', 60);
      await alice.click('[data-testid="rotate"]');
      const lit = await litCells(alice);
      await alice.locator(`[data-cell="${lit[Math.floor(lit.length / 3)]}"]`).click();
      await alice.waitForSelector('[data-testid="confirm-bar"]');
      await shot(alice, '11-cozy-place-confirm', '[data-testid="place-tools"]', 60);
    }
    // Alice: an L with an eye at its front; the eye acts and may add foods it can see.
    const aliceOpts = () => legalOptions(cozy(), { player: 'p1' });
    const place = aliceOpts().moves.find((m): m is Extract<CozyMove, { type: 'placeWorm' }> => m.type === 'placeWorm' && m.cells.includes('B3') && m.cells.includes('B6'))!;
    await move(place);
    if (want('cozy')) {
      await settle(alice);
      await alice.click('[data-testid="organ-eye"]').catch(() => undefined);
      await shot(alice, '12-cozy-organ-cells', '[data-testid="twin"]', 60);
    }
    const eye = aliceOpts().moves.find((m) => m.type === 'addOrgan' && m.organ === 'eye')!;
    await move(eye);
    const act = aliceOpts().moves.find((m) => m.type === 'act');
    if (act) await move(act);
    if (want('cozy')) {
      await settle(alice);
      await shot(alice, '13-cozy-chain-eye-food', '[data-testid="my-dice"]', 64);
    }
    // Bob: a worm with a brain; the brain acts, so next hour Bob may change a die.
    const bobOpts = () => legalOptions(cozy(), { player: 'p2' });
    await move(bobOpts().moves.find((m) => m.type === 'placeWorm')!);
    const brainMoves = bobOpts().moves.filter((m) => m.type === 'addOrgan' && m.organ === 'brain');
    await move(brainMoves[0]!);
    const brainAct = bobOpts().moves.find((m) => m.type === 'act');
    if (brainAct) await move(brainAct);
    await move({ type: 'done', player: 'p1' }).catch(() => undefined);
    if (!cozy().sheets[1]!.done) await move({ type: 'done', player: 'p2' });
    await referee({ type: 'button', button: 'NEXT' });
    await referee({ type: 'dice/manual', dice: [{ set: 'd6', face: '3', color: 'red' }, { set: 'd6', face: '4', color: 'white' }, { set: 'd6', face: '6', color: 'white' }] });
    await referee({ type: 'dice/confirm' });
    if (want('cozy')) {
      const bob = (await openPhone(browser, 'about:blank')).page;
      await joinSeat(bob, server.url, 'p2');
      await settle(bob);
      await shot(bob, '14-cozy-hour-two-clock', undefined);
      if (await bob.locator('[data-testid="option-brain"]').count()) {
        await bob.click('[data-testid="option-brain"]');
        await shot(bob, '15-cozy-brain-change-die', '[data-testid="option-brain"]', 64);
      }
      await bob.context().close();
    }

    if (want('dice')) {
      await alice.click('[data-testid="tab-dice"]');
      await alice.click('[data-testid="camera-on"]');
      await alice.waitForSelector('[data-testid="frames-sent"]');
      await alice.waitForTimeout(1500);
      await shot(alice, '16-dice-phone-camera', '[data-testid="phone-camera"]', 60);
      await alice.click('[data-testid="camera-off"]');
      await shot(alice, '17-dice-table-hardware', '[data-testid="hardware"]', 200);
      await alice.click('[data-testid="tab-table"]');
    }

    if (want('teach')) {
      // A second table with the real reader and a replay camera, so the crops are the camera's own.
      const vision = HAS_MODEL
        ? await startServer({
            game: 'worm-and-cozy',
            options: { chapter: 'clew-1' },
            vision: true,
            camera: { kind: 'replay', replay: { folder: path.resolve(import.meta.dirname, '../tests/browser/fixtures/cozy-replay'), fps: 6, loop: true } },
          })
        : null;
      const p = (await openPhone(browser, 'about:blank')).page;
      await joinAsReferee(p, (vision ?? server).url);
      if (!vision) {
        await server.clew.session.cameraRoll([{ set: 'd6', face: '4', color: 'red', confidence: 0.93, box: [40, 40, 110, 110] }], 'camera');
      }
      await p.waitForSelector('[data-testid="rolled-dice"]', { timeout: 120_000 });
      await p.click('[data-testid="tab-teach"]');
      await p.waitForSelector('[data-testid="teach-dice"]');
      if (vision) {
        await p.waitForFunction(`[...document.querySelectorAll('img.crop')].every((i) => i.naturalWidth > 0)`);
        await p.click('[data-testid="teach-right-0"]');
        await p.waitForSelector('[data-testid="teach-tally"]');
      }
      await shot(p, '18-teach-your-dice', '[data-testid="teach-progress"]', 120);
      if (vision) {
        // The roll used after a correction: the die corrected (and any marked "check") count as
        // labels from play, and the dice in play are scored.
        const session = vision.clew.session;
        const roll = session.table.roll!;
        const other = roll.dice[0]!.face === '6' ? '5' : '6';
        for (const intent of [{ type: 'dice/correct' as const, index: 0, face: other }, { type: 'dice/confirm' as const }]) {
          const ack = await session.submit({ kind: 'referee' }, { version: session.table.version, intent });
          if (!ack.ok) throw new Error(`screenshots: ${intent.type}: ${ack.message}`);
        }
        await p.waitForSelector('[data-testid="teach-in-play"]');
        await shot(p, '18b-teach-dice-checked-in-play', '[data-testid="teach-progress"]', 120);
      }
      await p.context().close();
      await vision?.close();
    }

    if (want('score') || want('cozy-end')) {
      // A solo game played to its end with seeded random legal moves: the final score as tracks.
      await referee({ type: 'table/setup', game: 'worm-and-cozy', options: { chapter: 'clew-1', players: [{ id: 'p1', name: 'Alice', color: 'blue' }] } });
      const rng = createRng('screenshots-cozy');
      for (let guard = 0; guard < 4000 && cozy().phase !== 'over'; guard++) {
        const s = cozy();
        if (s.phase === 'roll') {
          await move({ type: 'roll', shape: rng.pick(['I', 'L', 'U', 'V', 'W', 'Z']), organs: [rng.pick(['eye', 'mouth', 'tail', 'collar', 'brain', 'heart']), rng.pick(['eye', 'mouth', 'tail', 'collar', 'brain', 'heart'])] });
        } else if (s.sheets[0]!.done) {
          await move({ type: 'endHour' });
        } else {
          const moves = legalOptions(s, { player: 'p1' }).moves.filter((m) => m.type !== 'changeDie');
          const rich = moves.filter((m) => m.type !== 'done' && m.type !== 'pass');
          await move(rich.length && rng.next() < 0.85 ? rng.pick(rich) : rng.pick(moves));
        }
      }
      await settle(ref);
      await shot(ref, '19-cozy-game-over-scores', '[data-testid="final-scores"]', 60);
    }

    if (want('score')) {
      const p = (await openPhone(browser, `${server.url}/#/score`)).page;
      await p.waitForSelector('[data-testid="score-screen"]');
      const dragCells = async (cells: string[]) => {
        const centre = async (c: string) => {
          const b = (await p.locator(`[data-cell="${c}"]`).boundingBox())!;
          return [b.x + b.width / 2, b.y + b.height / 2] as const;
        };
        // The middle of the screen: the tab bar covers the bottom edge.
        await p.evaluate(`document.querySelector('[data-cell="${cells[0]}"]').scrollIntoView({ block: 'center' })`);
        const [x, y] = await centre(cells[0]!);
        await p.mouse.move(x, y);
        await p.mouse.down();
        for (const c of cells.slice(1)) {
          const [cx, cy] = await centre(c);
          await p.mouse.move(cx, cy, { steps: 3 });
        }
        await p.mouse.up();
      };
      await dragCells(['A1', 'A2', 'A3', 'A4', 'B4']);
      await dragCells(['B3', 'B2', 'B1', 'C1', 'D1']);
      await dragCells(['D3', 'E3', 'F3', 'F4', 'G4']);
      await p.click('[data-testid="tool-eye"]');
      for (const c of ['A1', 'B3']) await p.locator(`[data-cell="${c}"]`).click();
      await p.click('[data-testid="tool-heart"]');
      await p.locator('[data-cell="E3"]').click();
      await p.click('[data-testid="tool-food"]');
      for (const c of ['C2', 'D2', 'E4']) await p.locator(`[data-cell="${c}"]`).click();
      await shot(p, '20-score-sheet-editor');
      await shot(p, '21-score-sheet-tracks', '[data-testid="sheet-score"]', 60);
      await p.click('[data-testid="tool-worm"]');
      await dragCells(['B6', 'B5', 'C5', 'C4', 'C3']);
      await p.waitForSelector('[data-testid="sheet-problems"]');
      await shot(p, '22-score-sheet-problems', '[data-testid="editor-message"]', 330);
      await p.context().close();
    }

    if (want('twid')) {
      await referee({ type: 'table/setup', game: 'the-worm-is-drawn', options: { players: [{ id: 'p1', name: 'Alice', color: 'blue' }, { id: 'p2', name: 'Bob', color: 'green' }, { id: 'p3', name: 'Cleo', color: 'orange' }] } });
      await move({ type: 'roll', dice: ['worm', 'worm', '5', '5', '4', '3', '3', '1'] });
      await move({ type: 'keep', face: 'worm' });
      await move({ type: 'roll', dice: ['5', '5', '5', '4', '2', '2'] });
      await move({ type: 'keep', face: '5' });
      await move({ type: 'roll', dice: ['4', '4', '1'] });
      await move({ type: 'keep', face: '4' });
      await move({ type: 'roll', dice: ['1'] });
      await move({ type: 'keep', face: '1' }); // 35: Alice's top tile, so Bob may steal it
      await move({ type: 'take', tile: 35 });
      await move({ type: 'roll', dice: ['worm', 'worm', 'worm', '5', '5', '3', '2', '1'] });
      await move({ type: 'keep', face: 'worm' });
      await move({ type: 'roll', dice: ['5', '4', '4', '3', '3'] });
      await move({ type: 'keep', face: '4' });
      await move({ type: 'roll', dice: ['5', '3', '1'] });
      await settle(alice);
      await shot(alice, '23-worm-is-drawn-keep');
      await move({ type: 'keep', face: '5' });
      await move({ type: 'roll', dice: ['worm', '3'] });
      await move({ type: 'keep', face: '3' });
      await move({ type: 'roll', dice: ['1'] });
      await move({ type: 'keep', face: '1' }); // 35: Alice's top tile, so Bob may steal it
      await settle(alice);
      await shot(alice, '24-worm-is-drawn-take-or-steal', '[data-testid="tiles"]', 110);
    }

    if (want('wormup')) {
      await referee({ type: 'table/setup', game: 'worm-up', options: { players: [{ id: 'p1', name: 'Alice' }, { id: 'p2', name: 'Bob' }, { id: 'p3', name: 'Cleo' }] } });
      await move({ type: 'reveal', bids: { p1: '5', p2: 'X', p3: '5' } });
      await settle(alice);
      await shot(alice, '25-worm-up-bids-x', '[data-testid="bids"]', 60);
      await move({ type: 'x', number: 4 });
      await settle(alice);
      await shot(alice, '26-worm-up-movement-order');
    }

    if (want('derby')) {
      await referee({ type: 'table/setup', game: 'worm-derby', options: { players: [{ id: 'p1', name: 'Alice' }, { id: 'p2', name: 'Bob' }, { id: 'p3', name: 'Cleo' }], rules: 'advanced', obstacleTiles: 0 } });
      await move({ type: 'roll', face: '4' });
      await move({ type: 'move', player: 'p1', steps: 4, roundedPylon: true });
      await move({ type: 'roll', face: '5' });
      await move({ type: 'move', player: 'p2', steps: 2, ate: { player: 'p1', end: 'B' } });
      await move({ type: 'roll', face: '3' });
      await move({ type: 'move', player: 'p3', steps: 3 });
      await move({ type: 'roll', face: '5' });
      await settle(alice);
      await shot(alice, '27-worm-derby-instruction');
      await shot(alice, '28-worm-derby-worms', '[data-testid="derby-worms"]', 100);
    }

    if (want('tapeworm')) {
      await referee({ type: 'table/setup', game: 'tapeworm', options: { players: [{ id: 'p1', name: 'Alice' }, { id: 'p2', name: 'Bob' }] } });
      await move({ type: 'draw', player: 'p1' });
      await move({ type: 'place', player: 'p1', card: 'red-straight', x: 0, y: -1, rotation: 0 });
      await move({ type: 'place', player: 'p1', card: 'red-curve', x: 0, y: -2, rotation: 2 });
      await move({ type: 'end-turn', player: 'p1' });
      await move({ type: 'draw', player: 'p2' });
      await settle(alice);
      const bob = (await openPhone(browser, 'about:blank')).page;
      await joinSeat(bob, server.url, 'p2');
      await bob.click('[data-testid="tw-play-card"]');
      await bob.click('[data-testid="colour-white"]');
      await shot(bob, '29-tapeworm-pick-card');
      await bob.click('[data-testid="card-white-curve"]');
      await bob.waitForSelector('[data-spot]');
      await shot(bob, '30-tapeworm-lit-spots', '[data-testid="tw-table"]', 130);
      await bob.context().close();
    }

    if (want('offline')) {
      await alice.click('[data-testid="tab-table"]');
      await server.stop();
      await alice.waitForSelector('[data-testid="link"]:not([data-status="online"])');
      await shot(alice, '31-offline-reconnecting');
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`screenshots: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
