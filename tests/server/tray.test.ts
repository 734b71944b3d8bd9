/**
 * "Show clew the empty tray" at the table (web/server/tray.ts): the referee's `tray/learn` takes
 * the tray camera's newest frame, keeps it in the data folder and has the camera's frames read
 * against it; the phones see the state (a frame that no longer fits says the camera moved);
 * `tray/forget` drops it; a restart takes up the kept one. The dice reader is a stand-in here
 * (this is the plumbing; vision's tests show what the empty tray does for finding dice).
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { encodeJpeg } from '../../vision/image/decode.js';
import { renderScene } from '../../vision/synth/index.js';
import { FOUR_D6_REPLAY } from '../support/replays.js';
import { ReplayCamera } from '../../device/camera/replay.js';
import type { ClewDiceReader } from '../../vision/reader.js';
import type { DieReading, ReadOptions, RgbImage } from '../../vision/types.js';
import type { RollStream } from '../../web/server/camera.js';
import { CameraPipeline } from '../../web/server/camera.js';
import type { Logger } from '../../web/server/logger.js';
import { registryLookup } from '../../web/server/main.js';
import { TableTray } from '../../web/server/tray.js';
import { scratchDir } from '../support/scratch.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A roll stream that reads nothing and remembers the options of every frame it was given. */
function spyingStream(seen: ReadOptions[]): RollStream {
  return {
    push: async (_image: RgbImage, _at: number, options: ReadOptions) => (seen.push(options), null),
    readNow: async (_image: RgbImage, options: ReadOptions): Promise<DieReading[]> => (seen.push(options), []),
    reset: () => {},
  };
}

/** A roll stream whose every frame settles a tray with no dice (as the vote gives a still, empty tray). */
function settlingEmpty(seen: ReadOptions[]): RollStream {
  return {
    push: async (_image: RgbImage, _at: number, options: ReadOptions) => (seen.push(options), []),
    readNow: async (): Promise<DieReading[]> => [],
    reset: () => {},
  };
}

/** A replay folder of one rendered felt tray without its dice (and, with `dice`, the same tray with them). */
async function trayFolder(dir: string, withDice = false): Promise<string> {
  const scene = renderScene(createRng('server-auto-tray'), { width: 640, height: 480, table: 'felt', dice: 4, dieSize: [50, 70], empty: true });
  const image = withDice ? scene.image : scene.empty!;
  const folder = path.join(dir, withDice ? 'dice' : 'empty');
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'frame-00.jpg'), await encodeJpeg(image, 92));
  return folder;
}

const worm = { games: registryLookup, game: 'the-worm-is-drawn' as const, options: { players: [{ id: 'ann', name: 'Ann' }, { id: 'bob', name: 'Bob' }], diceSet: 'd6' } };
const noReader = async () => ({ dispose: () => {}, backend: 'none', modelId: 'none', calibration: { list: () => [], pending: () => ({ counts: {} }) } }) as unknown as ClewDiceReader;

describe('the empty tray at the table', () => {
  it('is learned from the camera, kept, read against, said to have moved, forgotten, and taken up again after a restart', async () => {
    const seen: ReadOptions[] = [];
    const camera = new ReplayCamera({ folder: FOUR_D6_REPLAY, fps: 20, loop: true });
    server = await startTestServer({ ...worm, config: { vision: { enabled: true } }, adapters: { camera }, start: { loadReader: noReader, rollStream: () => spyingStream(seen) } });
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    expect((await referee.snapshot()).tray).toEqual({ state: 'none', auto: true, message: expect.stringMatching(/by itself/) });
    // Frames are read without a tray until one is shown.
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((o) => o.tray === undefined)).toBe(true);

    const player = await server.phone({ role: 'player', code: server.clew.codes.joinCode, player: 'ann' });
    expect(await player.send({ type: 'tray/learn' })).toMatchObject({ ok: false, code: 'auth/not-referee' });

    expect(await referee.send({ type: 'tray/learn' })).toMatchObject({ ok: true });
    const learned = await referee.snapshot((s) => s.tray.state === 'learned');
    expect(learned.tray.learnedAt).toEqual(expect.any(Number));
    const kept = path.join(server.dataDir, 'tray', 'camera.jpg');
    expect(existsSync(kept)).toBe(true);
    const from = seen.length;
    await new Promise((r) => setTimeout(r, 300));
    const after = seen.slice(from).filter((o) => o.tray);
    expect(after.length).toBeGreaterThan(0);
    expect(after[0]!.tray!.width).toBe(640);

    // A frame that no longer fits (the locator says so through onTray): the phones are told.
    after.at(-1)!.onTray!({ used: false, differing: 0.7, misaligned: 0.6, reason: 'misfit' });
    const moved = await referee.snapshot((s) => s.tray.state === 'moved');
    expect(moved.tray.message).toMatch(/camera moved/);
    after.at(-1)!.onTray!({ used: true, differing: 0.05, misaligned: 0.02 });
    await referee.snapshot((s) => s.tray.state === 'learned');

    // Kept across a restart.
    await server.stop();
    const seenAgain: ReadOptions[] = [];
    server = await startTestServer({ ...worm, dataDir: server.dataDir, config: { vision: { enabled: true } }, adapters: { camera: new ReplayCamera({ folder: FOUR_D6_REPLAY, fps: 20, loop: true }) }, start: { loadReader: noReader, rollStream: () => spyingStream(seenAgain) } });
    const again = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    expect((await again.snapshot()).tray.state).toBe('learned');
    await new Promise((r) => setTimeout(r, 300));
    expect(seenAgain.some((o) => o.tray)).toBe(true);

    expect(await again.send({ type: 'tray/forget' })).toMatchObject({ ok: true });
    expect((await again.snapshot((s) => s.tray.state === 'none')).tray.state).toBe('none');
    expect(existsSync(kept)).toBe(false);
    const forgotten = seenAgain.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(seenAgain.slice(forgotten + 1).every((o) => o.tray === undefined)).toBe(true);
  });

  it('is refused, with the reason, where there is no tray camera', async () => {
    server = await startTestServer({ ...worm, config: { vision: { enabled: true } }, start: { loadReader: noReader } });
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    expect(await referee.send({ type: 'tray/learn' })).toMatchObject({ ok: false, code: 'camera/none' });
    expect((await referee.snapshot()).tray.state).toBe('none');
  });

  it('is taken by clew itself from a still frame with no dice, taken again when the camera moved, and not after "forget" until it is shown', async () => {
    const seen: ReadOptions[] = [];
    const folder = await trayFolder(scratchDir('clew-tray-'));
    const camera = () => new ReplayCamera({ folder, fps: 20, loop: true });
    server = await startTestServer({ ...worm, config: { vision: { enabled: true } }, adapters: { camera: camera() }, start: { loadReader: noReader, rollStream: () => settlingEmpty(seen) } });
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    const taken = await referee.snapshot((s) => s.tray.state === 'learned');
    expect(taken.tray).toMatchObject({ state: 'learned', auto: true, message: expect.stringMatching(/taken by clew/) });
    const kept = path.join(server.dataDir, 'tray', 'camera.jpg');
    expect(existsSync(kept)).toBe(true);
    expect(JSON.parse(await readFile(path.join(server.dataDir, 'tray', 'state.json'), 'utf8'))).toMatchObject({ auto: true, autoOff: false });
    await new Promise((r) => setTimeout(r, 200));
    const read = seen.filter((o) => o.tray);
    expect(read.length).toBeGreaterThan(0);

    // The camera moved: the next still, empty frame is taken again.
    read.at(-1)!.onTray!({ used: false, differing: 0.7, misaligned: 0.6, reason: 'misfit' });
    const retaken = await referee.snapshot((s) => s.tray.state === 'learned' && s.tray.learnedAt !== taken.tray.learnedAt);
    expect(retaken.tray.auto).toBe(true);

    // Forgotten: not taken again, also after a restart, until the referee shows it.
    expect(await referee.send({ type: 'tray/forget' })).toMatchObject({ ok: true });
    expect((await referee.snapshot((s) => s.tray.state === 'none')).tray).toMatchObject({ auto: false, message: expect.stringMatching(/forgotten/) });
    await new Promise((r) => setTimeout(r, 300));
    expect((await referee.snapshot()).tray.state).toBe('none');
    expect(existsSync(kept)).toBe(false);
    await server.stop();
    server = await startTestServer({ ...worm, dataDir: server.dataDir, config: { vision: { enabled: true } }, adapters: { camera: camera() }, start: { loadReader: noReader, rollStream: () => settlingEmpty([]) } });
    const again = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    await new Promise((r) => setTimeout(r, 300));
    expect((await again.snapshot()).tray).toMatchObject({ state: 'none', auto: false });
    expect(await again.send({ type: 'tray/learn' })).toMatchObject({ ok: true });
    const shown = await again.snapshot((s) => s.tray.state === 'learned');
    expect(shown.tray.auto).toBeUndefined();
    expect(JSON.parse(await readFile(path.join(server.dataDir, 'tray', 'state.json'), 'utf8'))).toMatchObject({ auto: false, autoOff: false });
  });

  it('is not taken from a still frame that shows dice, nor where vision.autoTray is off', async () => {
    const dir = scratchDir('clew-tray-');
    const withDice = await trayFolder(dir, true);
    const empty = await trayFolder(dir);
    // The stream's vote says "no dice" but the frame shows four: the locator's own look refuses it.
    server = await startTestServer({ ...worm, config: { vision: { enabled: true } }, adapters: { camera: new ReplayCamera({ folder: withDice, fps: 20, loop: true }) }, start: { loadReader: noReader, rollStream: () => settlingEmpty([]) } });
    let referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await referee.snapshot()).tray).toMatchObject({ state: 'none', auto: true });
    await server.close();
    server = await startTestServer({ ...worm, config: { vision: { enabled: true, autoTray: false } }, adapters: { camera: new ReplayCamera({ folder: empty, fps: 20, loop: true }) }, start: { loadReader: noReader, rollStream: () => settlingEmpty([]) } });
    referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await referee.snapshot()).tray).toMatchObject({ state: 'none', auto: false });
  });

  it('a "forget" that comes while clew is keeping a tray it took by itself is not undone by that keep', async () => {
    const scene = renderScene(createRng('server-auto-tray'), { width: 640, height: 480, table: 'felt', dice: 4, dieSize: [50, 70], empty: true });
    const image = scene.empty!;
    const frame = { jpeg: await encodeJpeg(image, 92), image };
    const quiet = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
    const pipeline = new CameraPipeline({ source: new ReplayCamera({ folder: FOUR_D6_REPLAY, fps: 20 }), kind: 'camera', session: {} as never, games: (() => null) as never, decode: async () => image, stream: async () => spyingStream([]), logger: quiet });
    const dir = path.join(scratchDir('clew-tray-race-'), 'tray');
    const tray = new TableTray({ dir, pipeline: () => pipeline, decode: async () => image, logger: quiet, now: () => 1 });
    const taking = tray.settledEmpty(frame);
    // The take has judged the frame and started keeping it (its folder made): the referee forgets.
    while (!existsSync(dir)) await new Promise((r) => setImmediate(r));
    const forgetting = tray.handle({ type: 'tray/forget' });
    expect(await taking).toBe(true);
    expect(await forgetting).toMatchObject({ ok: true });
    expect(pipeline.trayState().tray).toBeNull();
    expect(existsSync(path.join(dir, 'camera.jpg'))).toBe(false);
    expect(tray.status()).toMatchObject({ state: 'none', auto: false });
  });
});
