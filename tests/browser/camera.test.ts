/**
 * Dice read by the real reader, in real Chromium: the replay camera (a rendered tray of three d6,
 * one red) feeds the server's camera pipeline and dice reader; the roll appears on a referee's and
 * two players' phones as faces with their confidence; a player corrects a die; the roll is used for
 * hour after hour; the referee teaches clew the dice from the crops the camera saw; and a phone
 * used as the camera (Chromium's fake camera playing the same tray) gives a roll too.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CozyState } from '../../shared/games/worm-and-cozy/index.js';
import { ReplayCamera } from '../../device/camera/replay.js';
import { pacedClock, pipelinesBusy } from '../support/paced-clock.js';
import { HAS_MODEL, launchBrowser, openPhone, startServer, tempDir, type RunningServer } from './support/harness.js';
import { WAIT, caughtUp, joinAsReferee, joinSeat, tapAndWait } from './support/pages.js';

const REPLAY = path.join(import.meta.dirname, 'fixtures/cozy-replay');
const PLAYERS = [
  { id: 'p1', name: 'Alice', color: 'blue' },
  { id: 'p2', name: 'Bob', color: 'green' },
];

interface Truth {
  settled: { face: string; color: string; box: number[] }[];
}

describe.skipIf(!HAS_MODEL)('dice from the camera, read by the real reader', () => {
  let server: RunningServer;
  let browser: Browser;
  let referee: Page;
  let alice: Page;
  let bob: Page;
  let truth: Truth;
  let camera: ReplayCamera;

  beforeAll(async () => {
    truth = JSON.parse(await readFile(path.join(REPLAY, 'scene.json'), 'utf8')) as Truth;
    // The replay camera at 6 fps, each frame read before the next (see paced-clock.ts): the
    // replay has five still frames, and a loaded machine would drop too many of them to settle.
    camera = new ReplayCamera({ folder: REPLAY, fps: 6, loop: true, clock: pacedClock(() => pipelinesBusy(server?.clew)) });
    server = await startServer({
      game: 'worm-and-cozy',
      options: { chapter: 'clew-1', players: PLAYERS },
      vision: true,
      adapters: { camera },
    });
    browser = await launchBrowser();
    referee = (await openPhone(browser, 'about:blank')).page;
    alice = (await openPhone(browser, 'about:blank')).page;
    bob = (await openPhone(browser, 'about:blank')).page;
    await joinAsReferee(referee, server.url);
    await joinSeat(alice, server.url, 'p1');
    await joinSeat(bob, server.url, 'p2');
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * READ, as the referee's "Read again" does, on a still frame of the replay: its next loop puts
   * the same dice in the same places, which the camera does not take for a new roll by itself (a
   * lamp, a shadow or a hand drawn back looks the same). Read on the loop's first still frames, so
   * the frame read is still when READ takes it.
   */
  async function readStillTray(): Promise<void> {
    const still = await Promise.all(['frame-02.jpg', 'frame-03.jpg'].map((n) => readFile(path.join(REPLAY, n))));
    const pipeline = server.clew.pipelines[0]!;
    await expect.poll(() => {
      const frame = camera.latest();
      return !!frame && still.some((f) => Buffer.compare(f, frame.jpeg) === 0);
    }, { timeout: 30_000, interval: 5 }).toBe(true);
    expect(await pipeline.readNow()).toMatchObject({ ok: true });
  }

  /**
   * Waits for the camera's roll on every phone (read by READ first when `read`), then Alice fixes
   * on her phone whatever the reader got wrong (the face, or the colour that tells the shape die),
   * as a player at the table would.
   */
  async function cameraRoll(read = false): Promise<void> {
    if (read) await readStillTray();
    for (const page of [referee, alice, bob]) await page.waitForSelector('[data-testid="rolled-dice"]', { timeout: 90_000 });
    // A phone that has not yet had the last hour's end still shows that hour's dice.
    for (const page of [referee, alice, bob]) await caughtUp(page);
    const roll = server.clew.session.table.roll!;
    expect(roll.source).toBe('camera');
    expect(roll.dice).toHaveLength(3);
    const centre = (b: number[]) => [(b[0]! + b[2]!) / 2, (b[1]! + b[3]!) / 2] as const;
    const truthAt = (box: number[]) => {
      const [x, y] = centre(box);
      return [...truth.settled].sort((p, q) => Math.hypot(centre(p.box)[0] - x, centre(p.box)[1] - y) - Math.hypot(centre(q.box)[0] - x, centre(q.box)[1] - y))[0]!;
    };
    for (const [i, die] of roll.dice.entries()) {
      // Each die on screen carries the reader's confidence.
      expect(await alice.textContent(`[data-testid="die-${i}"]`)).toContain(`${Math.round(die.confidence! * 100)}%`);
      const t = truthAt(die.box!);
      if ((die.color === 'red') !== (t.color === 'red')) {
        await alice.click(`[data-testid="die-${i}"]`);
        await tapAndWait(alice, `[data-testid="colour-${t.color}"]`);
      }
      if (die.face !== t.face) {
        await alice.click(`[data-testid="die-${i}"]`);
        await tapAndWait(alice, `[data-testid="face-${t.face}"]`);
      }
    }
    const key = (d: { face: string; color?: string | undefined }) => `${d.color === 'red' ? 'red' : 'other'}:${d.face}`;
    expect(server.clew.session.table.roll!.dice.map(key).sort()).toEqual(truth.settled.map(key).sort());
    // Every phone shows the corrected roll before anyone acts on it (Alice's fixes reach the
    // others on their own sockets; an intent made on the older view is refused as stale).
    for (const page of [referee, alice, bob]) await caughtUp(page);
  }

  it('the camera’s roll reaches every phone; a player corrects a die; hours are played with it', async () => {
    for (let hour = 0; hour < 2; hour++) {
      // The first hour's roll settles on the tray by itself; the next hour's dice lie where they lay.
      await cameraRoll(hour > 0);
      if (hour === 0) {
        // A correction on purpose, and back: the table records both, and what the camera read.
        const face = server.clew.session.table.roll!.dice[0]!.face;
        const other = face === '6' ? '5' : '6';
        await alice.click('[data-testid="die-0"]');
        await tapAndWait(alice, `[data-testid="face-${other}"]`);
        await expect.poll(() => bob.getAttribute('[data-testid="die-0"]', 'data-face'), WAIT).toBe(other);
        await alice.click('[data-testid="die-0"]');
        await tapAndWait(alice, `[data-testid="face-${face}"]`);
        expect(server.clew.session.table.roll!.dice[0]).toMatchObject({ face, corrected: true });
      }
      // The meaning shown is the chapter's: red → shape, the others → organs.
      const red = truth.settled.find((d) => d.color === 'red')!.face;
      const shape = ['I', 'L', 'U', 'V', 'W', 'Z'][Number(red) - 1]!;
      // Alice's corrections reach the referee's phone on its own socket.
      await caughtUp(referee);
      expect(await referee.textContent('[data-testid="roll-meaning"]')).toContain(shape);
      await tapAndWait(referee, '[data-testid="use-roll"]');
      expect((server.clew.session.table.state as CozyState).roll?.shape).toBe(shape);
      await tapAndWait(alice, '[data-testid="done"]');
      await tapAndWait(bob, '[data-testid="done"]');
      await tapAndWait(referee, '[data-testid="next"]');
    }
    expect((server.clew.session.table.state as CozyState).hour).toBe(2);
  });

  it('teach clew your dice: the crops the camera saw, confirmed die by die', async () => {
    await cameraRoll(true);
    // The dice checked in the hours played wait to be taught: the tab says how many.
    await expect.poll(() => referee.textContent('[data-testid="tab-teach-count"]'), WAIT).toMatch(/^[1-9]\d*$/);
    await referee.click('[data-testid="tab-teach"]');
    await referee.waitForSelector('[data-testid="teach-dice"]');
    // The dice checked in the hours played before (the die corrected on purpose, any Alice fixed,
    // any marked "check" in a roll the referee's phone used) count already (vision.learnFromChecks).
    await expect.poll(() => referee.textContent('[data-testid="teach-from-play"]'), WAIT).toMatch(/^(1 of them is a die|\d+ of them are dice) checked during play/);
    // And the table's own measure of the reader: the two hours' three dice each.
    expect(await referee.textContent('[data-testid="teach-in-play"]')).toMatch(/^In play so far: clew read [0-6] of 6 dice right \(\d+%\); it marked [0-6] "check", and misread [0-6] without the mark\.$/);
    // Each die's crop comes from the frame the roll was read from.
    await expect.poll(() => referee.$$eval('img.crop', (imgs) => imgs.map((i) => (i as unknown as { naturalWidth: number }).naturalWidth)), WAIT).toEqual([160, 160, 160]);
    for (let i = 0; i < 3; i++) await referee.click(`[data-testid="teach-right-${i}"]`);
    await expect.poll(() => referee.textContent('[data-testid="teach-tally"]'), WAIT).toMatch(/Your checks so far: clew read [0-3] of 3 right/);
    await expect.poll(() => server.clew.session.table.roll && referee.textContent('[data-testid="teach-progress"]'), WAIT).toMatch(/1\/5/);
    // Every face needs an example before saving: the tab names the faces still missing and holds
    // the button till then. The rest of the labels as earlier rolls would have given them (the
    // tray only holds three dice, and a die labelled again replaces its label), then save on this phone.
    const perFace = await referee.$$eval('[data-testid="teach-progress"] span', (spans) => spans.map((e) => e.textContent ?? ''));
    expect(perFace).toHaveLength(6);
    if (perFace.includes('0/5')) {
      expect(await referee.textContent('[data-testid="teach-missing"]')).toMatch(/^To save, clew needs at least one die of every face; still missing: [1-6](, [1-6])*\. /);
      expect(await referee.$eval('[data-testid="teach-save"]', (b) => (b as unknown as { disabled: boolean }).disabled)).toBe(true);
    }
    const roll = server.clew.session.table.roll!;
    const taught = new Set(roll.dice.slice(0, 3).map((d) => d.face));
    const pipeline = server.clew.pipelines.find((p) => p.frameFor(roll))!;
    const frame = pipeline.frameFor(roll)!;
    for (const face of ['1', '2', '3', '4', '5', '6'].filter((f) => !taught.has(f))) await server.clew.reader.loaded()!.calibration.add('d6', face, frame.image, roll.dice[0]!.box!, pipeline.view);
    server.clew.transport.broadcast();
    await caughtUp(referee);
    await expect.poll(() => referee.$('[data-testid="teach-missing"]'), WAIT).toBeNull();
    // The whole net adapts for a while: the phone says so and holds the buttons meanwhile. What the
    // page showed is recorded in the page as it changes, however short the fit.
    // (Page code as text: the tests are compiled without the DOM's types.)
    await referee.evaluate(`(() => {
      const seen = [];
      window.fitting = seen;
      new MutationObserver(() => {
        const line = document.querySelector('[data-testid="teach-fitting"]');
        const save = document.querySelector('[data-testid="teach-save"]');
        if (line) seen.push({ text: line.textContent || '', saveDisabled: Boolean(save && save.disabled) });
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    })()`);
    await referee.click('[data-testid="teach-save"]');
    await referee.waitForSelector('[data-testid="teach-accuracy"]', { timeout: 120_000 });
    const seen = (await referee.evaluate('window.fitting')) as { text: string; saveDisabled: boolean }[];
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.text).toMatch(/clew is learning your dice… (starting|\d+%)/);
      expect(s.saveDisabled).toBe(true);
    }
    expect(await referee.$('[data-testid="teach-fitting"]')).toBeNull();
    expect(await referee.textContent('[data-testid="teach-accuracy"]')).toMatch(/Reader on the dice it learnt from \(\d+\): .* before → \d+% after\. Dice it has seen; the count in play shows how it reads the next ones\./);
    // The empty tray: shown (here a frame of the replay, dice and all: this is the plumbing), and
    // forgotten again. Its dice are the only strong edges of that "tray", so once the replay's
    // dice move the frames no longer fit it and the phones say so: either state may show by now.
    expect(await referee.textContent('[data-testid="teach-tray-state"]')).toMatch(/Not shown yet/);
    await referee.click('[data-testid="teach-tray-learn"]');
    await expect.poll(() => referee.textContent('[data-testid="teach-tray-state"]'), WAIT).toMatch(/Shown: dice are found against the empty tray|The camera moved/);
    await referee.click('[data-testid="teach-tray-forget"]');
    await expect.poll(() => referee.textContent('[data-testid="teach-tray-state"]'), WAIT).toMatch(/Not shown yet/);
    await referee.click('[data-testid="tab-table"]');
  }, 240_000);
});

describe.skipIf(!HAS_MODEL)('a phone used as the camera', () => {
  let server: RunningServer;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    // Chromium's fake camera plays an MJPEG file: the replay frames, the still ones repeated.
    dir = await tempDir('clew-fake-camera-');
    const names = (await readdir(REPLAY)).filter((n) => n.endsWith('.jpg')).sort();
    const frames = await Promise.all([...names, ...names.slice(-5), ...names.slice(-5)].map((n) => readFile(path.join(REPLAY, n))));
    const video = path.join(dir, 'tray.mjpeg');
    await writeFile(video, Buffer.concat(frames));
    server = await startServer({ game: 'worm-and-cozy', options: { chapter: 'clew-1', players: PLAYERS }, vision: true, camera: { kind: 'none' } });
    browser = await launchBrowser([`--use-file-for-fake-video-capture=${video}`]);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('streams frames to the server, which reads the roll from them', async () => {
    const { page } = await openPhone(browser, 'about:blank', { permissions: ['camera'] });
    await joinSeat(page, server.url, 'p1');
    await page.click('[data-testid="tab-dice"]');
    await page.click('[data-testid="camera-on"]');
    await expect.poll(async () => Number((await page.textContent('[data-testid="frames-sent"]'))?.split(' ')[0]), { timeout: 30_000 }).toBeGreaterThan(3);
    await page.waitForSelector('[data-testid="rolled-dice"]', { timeout: 90_000 });
    expect(server.clew.session.table.roll?.source).toBe('phone-camera');
    expect(server.clew.session.table.roll?.dice.length).toBeGreaterThan(0);
    await page.click('[data-testid="camera-off"]');
  });
});

describe('the phone camera, with or without a reader', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    // The table's camera is "a phone": frames from the dashboard are its only source.
    server = await startServer({ game: 'worm-and-cozy', options: { chapter: 'clew-1', players: PLAYERS }, camera: { kind: 'phone' } });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends JPEG frames at a modest rate that the server accepts as its camera', async () => {
    const { page } = await openPhone(browser, 'about:blank', { permissions: ['camera'] });
    await joinSeat(page, server.url, 'p2');
    await page.click('[data-testid="tab-dice"]');
    expect(server.clew.health().camera).toMatchObject({ kind: 'phone', ok: false });
    await page.click('[data-testid="camera-on"]');
    await expect.poll(async () => Number((await page.textContent('[data-testid="frames-sent"]'))?.split(' ')[0]), { timeout: 30_000 }).toBeGreaterThan(2);
    await expect.poll(() => server.clew.health().camera, { timeout: 15_000 }).toMatchObject({ ok: true, message: 'receiving frames from a phone' });
    // The table's hardware list on the phone says so too (hardware changes reach the phones).
    await expect.poll(() => page.textContent('[data-testid="hardware"]'), { timeout: 15_000 }).toContain('receiving frames from a phone');
    expect(await page.locator('[data-testid="phone-camera"] .warn').count()).toBe(0);
    await page.click('[data-testid="camera-off"]');
  });
});
