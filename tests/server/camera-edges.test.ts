/**
 * The camera pipeline at its edges: a camera that stopped delivering leaves its last frame
 * behind, and READ must not make that old frame (often the roll before) the roll now; a corrupt
 * frame is refused, said once; the stream made for the next player's dice must not report the
 * dice already lying on the tray, nor may the tray settling again on the dice read last (a lamp,
 * a shadow, a hand) be a new roll. The replay camera (device/camera/replay.ts) and the stream
 * reader (vision/stream.ts) are real; the reader behind the stream reports a die wherever the
 * frame is dark, so the test is exact. The demo replay of several rolls holds each roll until
 * the table wants dice.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { FOUR_D6_REPLAY } from '../support/replays.js';
import { ReplayCamera, replayOrder } from '../../device/camera/replay.js';
import { createVideoReplay } from '../../device/camera/video-replay.js';
import { silentLogger } from '../../device/log.js';
import { DEFAULT_REPLAY_FOLDER } from '../../device/config.js';
import { FakeClock } from '../device/support/fake-clock.js';
import type { CameraFrame, FrameSource } from '../../device/types.js';
import type { DetailedReading } from '../../vision/reader.js';
import type { ClewDiceReader } from '../../vision/reader.js';
import type { TrayFit, TrayReference } from '../../vision/locate/tray-reference.js';
import type { Box, DieReading, ReadOptions, RgbImage } from '../../vision/types.js';
import { CameraPipeline, type RollStream } from '../../web/server/camera.js';
import { collectingLogger, type Logger } from '../../web/server/logger.js';
import { visionRollStream } from '../../web/server/roll-stream.js';
import { TableSession } from '../../web/server/session.js';
import { raceOnly, RACE } from '../support/games.js';
import { scratchDir } from '../support/scratch.js';
import { startTestServer } from '../support/server.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

/** A 64×48 tray, a dark 16 px die at `x`. */
function tray(x: number): RgbImage {
  const data = new Uint8Array(64 * 48 * 3).fill(200);
  for (let y = 10; y < 26; y++) for (let i = x; i < x + 16; i++) data.fill(30, (y * 64 + i) * 3, (y * 64 + i) * 3 + 3);
  return { width: 64, height: 48, data };
}

/** Reads a die wherever the frame's first row of dark pixels starts, and says which options it was read with. */
function darkReader(): { reader: ClewDiceReader; asked: ReadOptions[] } {
  const asked: ReadOptions[] = [];
  const readDetailed = async (image: RgbImage, options: ReadOptions): Promise<DetailedReading[]> => {
    asked.push(options);
    const at = image.data.findIndex((v) => v < 100);
    if (at < 0) return [];
    const x = (at / 3) % image.width, y = Math.floor(at / 3 / image.width);
    return [{ set: 'd6', face: '3', confidence: 0.97, box: [x, y, x + 16, y + 16], uncertain: false, probabilities: { '3': 0.97 } }];
  };
  return { reader: { readDetailed, uncertainBelow: 0.85, read: readDetailed } as unknown as ClewDiceReader, asked };
}

describe('a camera that stopped delivering', () => {
  it('READ refuses its last frame, saying why, instead of making it the roll now', async () => {
    const camera = new ReplayCamera({ folder: FOUR_D6_REPLAY, fps: 20, loop: true });
    const rolls: unknown[] = [];
    const session = { table: { roll: null }, cameraRoll: async (dice: unknown) => (rolls.push(dice), { ok: true, version: rolls.length }) };
    const readNow: RollStream['readNow'] = async () => [{ set: 'd6', face: '4', confidence: 0.99, box: [0, 0, 10, 10], uncertain: false }];
    const stream: RollStream = { push: async () => null, readNow, reset: () => {} };
    const pipeline = new CameraPipeline({
      source: camera,
      kind: 'camera',
      session: session as never,
      games: (() => ({ diceRequest: () => ({ sets: ['d6'] }) })) as never,
      decode: async () => tray(10),
      stream: async () => stream,
      logger: quiet,
    });
    await camera.start();
    while (!camera.latest()) await new Promise((r) => setTimeout(r, 10));
    // Delivering: READ reads its newest frame.
    expect(await pipeline.readNow()).toMatchObject({ ok: true });
    expect(pipeline.notDelivering()).toBeNull();
    await camera.stop();
    expect(await pipeline.readNow()).toEqual({ ok: false, code: 'camera/no-frame', message: 'the replay camera is not delivering frames (stopped)' });
    expect(await pipeline.newestFrame()).toBeNull();
    expect(rolls).toHaveLength(1);
  });
});

describe('a corrupt camera frame', () => {
  it('one cut short that kept its end marker (a webcam\'s lost packets) is refused and said once, not read as a half-grey frame', async () => {
    const whole = readFileSync(path.join(FOUR_D6_REPLAY, 'frame-11.jpg'));
    const folder = scratchDir('clew-camera-cut-');
    writeFileSync(path.join(folder, 'frame-00.jpg'), Buffer.concat([whole.subarray(0, Math.floor(whole.length * 0.6)), Buffer.from([0xff, 0xd9])]));
    const camera = new ReplayCamera({ folder, fps: 20, loop: true });
    let pushed = 0;
    const stream: RollStream = { push: async () => (pushed++, null), readNow: async () => [], reset: () => {} };
    const standInReader = async () => ({ dispose: () => {}, backend: 'none', modelId: 'none', calibration: { list: () => [], pending: () => ({ counts: {} }) } }) as unknown as ClewDiceReader;
    const server = await startTestServer({ config: { vision: { enabled: true } }, adapters: { camera }, start: { loadReader: standInReader, rollStream: () => stream } });
    try {
      const warned = () => server.logger.lines.filter((l) => l.level === 'warn' && l.message.startsWith('camera replay: decodeImage:'));
      await vi.waitFor(() => expect(warned()).not.toHaveLength(0), { timeout: 20_000, interval: 10 });
      const seen = camera.delivered;
      await vi.waitFor(() => expect(camera.delivered).toBeGreaterThan(seen + 5), { timeout: 20_000, interval: 10 });
      expect(warned().map((l) => l.message)).toEqual([expect.stringMatching(/a corrupt or truncated image \(\d+ bytes\): .*premature end of data segment/)]);
      expect(pushed).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('the stream reader behind the camera pipeline', () => {
  it('when the game asks for the next player\'s die, the die already reported is not reported again; the next roll is', async () => {
    const { reader, asked } = darkReader();
    const stream = visionRollStream(reader);
    const red = { sets: ['d6'], palette: ['red'] } as ReadOptions, blue = { sets: ['d6'], palette: ['blue'] } as ReadOptions;
    const reported: string[] = [];
    let t = 0;
    const push = async (x: number, options: ReadOptions) => {
      const dice = await stream.push(tray(x), (t += 100), options);
      if (dice) reported.push(`${options.palette} ${dice.map((d) => d.box[0]).join()}`);
    };
    for (let i = 0; i < 6; i++) await push(10, red);
    expect(reported).toEqual(['red 10']);
    for (let i = 0; i < 8; i++) await push(10, blue);
    expect(reported).toEqual(['red 10']);
    for (let i = 0; i < 6; i++) await push(40, blue);
    expect(reported).toEqual(['red 10', 'blue 40']);
    expect(asked.at(-1)?.palette).toEqual(['blue']);
  });
});

describe('a roll entered by hand and the camera reading the same tray again', () => {
  /**
   * The race game's table (one d6 a turn) with a camera whose every frame settles the tray at once
   * on the dice `tray` says lie there: a frame sent is the tray still again (after a hand moved in
   * it, or the replay looping).
   */
  async function tableWithCamera(dataDir = scratchDir('clew-camera-hand-'), decode: (jpeg: Uint8Array) => Promise<RgbImage> = async () => tray(10)) {
    const logger = collectingLogger();
    const session = await TableSession.open({ dataDir, games: raceOnly, initialGame: { game: RACE, options: {} }, onCorrupt: 'recover', compactEvery: 1000, logger, now: Date.now });
    let onTray: DieReading[] = [];
    /** How the frames fit the empty tray, with one set (`withTray`). */
    let fit: TrayFit | null = null;
    let waiting: ((next: IteratorResult<CameraFrame>) => void) | null = null;
    const source: FrameSource = {
      kind: 'fake',
      start: async () => {},
      stop: async () => {},
      frames: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<CameraFrame>>((resolve) => (waiting = resolve)), return: async () => ({ done: true as const, value: undefined }) }) }),
    };
    const stream: RollStream = {
      push: async (_image, _at, options) => {
        if (fit) options.onTray?.(fit);
        return onTray;
      },
      readNow: async () => [],
      reset: () => {},
    };
    const pipeline = new CameraPipeline({ source, kind: 'camera', session, games: raceOnly, decode, stream: async () => stream, logger, framesDir: `${dataDir}/roll-frames/camera` });
    await pipeline.restoreFrames();
    pipeline.start();
    let at = 0;
    /** The frame's bytes are `jpeg`, and the camera reads `dice` there: resolves once the pipeline is waiting for the next frame. */
    const send = async (dice: DieReading[], jpeg = new Uint8Array([at]), fits: TrayFit | null = fit) => {
      onTray = dice;
      fit = fits;
      while (!waiting) await new Promise((r) => setTimeout(r, 5));
      const resolve = waiting;
      waiting = null;
      resolve({ done: false, value: { jpeg, at: (at += 100) } });
      while (!waiting || pipeline.working()) await new Promise((r) => setTimeout(r, 5));
    };
    /** The dice in the tray are one die showing `face` (at `box`), and the tray settles on them: resolves once the frame is read. */
    const settle = async (face: string, box: Box = [10, 10, 40, 40]) => {
      const decoded = pipeline.counts.decoded;
      await send([die(face, box)]);
      // Read, and given to the table or not.
      expect(pipeline.counts.decoded).toBe(decoded + 1);
    };
    const byHand = (face: string) => session.submit({ kind: 'referee' }, { version: session.table.version, intent: { type: 'dice/manual', dice: [{ set: 'd6', face }] } });
    const close = async () => {
      await pipeline.stop();
      await session.close();
    };
    const referee = (intent: unknown) => session.submit({ kind: 'referee' }, { version: session.table.version, intent } as never);
    /** The camera has an empty tray to compare its frames with; each frame fits it as `fits` says. */
    const withTray = (fits: TrayFit) => {
      pipeline.setTray({ maxSide: 640 } as unknown as TrayReference);
      fit = fits;
    };
    return { session, send, settle, byHand, referee, close, dataDir, logger, withTray };
  }
  const die = (face: string, box: Box = [10, 10, 40, 40]): DieReading => ({ set: 'd6', face, confidence: 0.97, box, uncertain: false });
  const pending = (session: TableSession) => `${session.table.roll?.source} ${session.table.roll?.dice.map((d) => d.face).join()}`;

  it('the hand-entered roll stands while the camera settles on the dice it read before; dice that differ replace it, and the log says so', async () => {
    const t = await tableWithCamera();
    try {
      await t.settle('4');
      expect(pending(t.session)).toBe('camera 4');
      // The camera misread the die: the referee enters it by hand.
      expect(await t.byHand('6')).toMatchObject({ ok: true });
      // A hand points at the die, the tray is still again: the same misreading.
      await t.settle('4');
      await t.settle('4');
      expect(pending(t.session)).toBe('manual 6');
      // Someone rolls again: a new roll replaces the one entered by hand, as it would a camera roll.
      await t.settle('2');
      expect(pending(t.session)).toBe('camera 2');
      expect(t.logger.lines.some((l) => l.message.includes('a new roll on the tray replaced the roll entered by hand'))).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('after a restart too: the camera\'s last roll is kept with its frame, and the same tray settling again leaves the roll entered by hand', async () => {
    const first = await tableWithCamera();
    await first.settle('4');
    expect(await first.byHand('6')).toMatchObject({ ok: true });
    await first.close();
    const again = await tableWithCamera(first.dataDir);
    try {
      expect(pending(again.session)).toBe('manual 6');
      await again.settle('4');
      expect(pending(again.session)).toBe('manual 6');
      await again.settle('3');
      expect(pending(again.session)).toBe('camera 3');
    } finally {
      await again.close();
    }
  });

  it('the used roll\'s die settling again (a lamp, a shadow, a hand drawn back, a camera restart) is not the next player\'s roll; a throw is', async () => {
    const t = await tableWithCamera();
    try {
      await t.settle('4');
      expect(pending(t.session)).toBe('camera 4');
      expect(await t.referee({ type: 'dice/confirm' })).toMatchObject({ ok: true });
      expect(await t.referee({ type: 'move', move: { type: 'next' } })).toMatchObject({ ok: true });
      // Ann's die still lies there, the tray is disturbed and still again, box jittering a little.
      await t.settle('4');
      await t.settle('4', [12, 11, 42, 41]);
      expect(t.session.table.roll).toBeNull();
      // Bob throws: his die lands elsewhere (or shows another face in the same place).
      await t.settle('4', [60, 10, 90, 40]);
      expect(pending(t.session)).toBe('camera 4');
      expect(await t.referee({ type: 'dice/confirm' })).toMatchObject({ ok: true });
      expect(await t.referee({ type: 'move', move: { type: 'next' } })).toMatchObject({ ok: true });
      await t.settle('2', [60, 10, 90, 40]);
      expect(pending(t.session)).toBe('camera 2');
    } finally {
      await t.close();
    }
  });

  it('a hand over the dice: the part of them still seen replaces neither the pending roll nor the correction made to it', async () => {
    const t = await tableWithCamera();
    const a: Box = [10, 10, 40, 40], b: Box = [60, 10, 90, 40];
    try {
      await t.send([die('4', a), die('2', b)]);
      expect(pending(t.session)).toBe('camera 4,2');
      expect(await t.referee({ type: 'dice/correct', index: 1, face: '6' })).toMatchObject({ ok: true });
      // The hand hides die b (and the reader loses it); then it is drawn back.
      await t.send([die('4', a)]);
      expect(pending(t.session)).toBe('camera 4,6');
      await t.send([die('4', a), die('2', b)]);
      expect(pending(t.session)).toBe('camera 4,6');
      // Die b read as another face: the tray changed, a new roll.
      await t.send([die('4', a), die('5', b)]);
      expect(pending(t.session)).toBe('camera 4,5');
    } finally {
      await t.close();
    }
  });

  it('a hand held still over all the dice, the frame fitting the empty tray but differing much: the dice read last still stand (no roll comes back)', async () => {
    const t = await tableWithCamera();
    try {
      t.withTray({ used: true, differing: 0.003, misaligned: 0 });
      await t.settle('4');
      expect(await t.referee({ type: 'dice/confirm' })).toMatchObject({ ok: true });
      expect(await t.referee({ type: 'move', move: { type: 'next' } })).toMatchObject({ ok: true });
      // No dice seen: a hand covers the die (a tenth of the frame differs from the empty tray).
      await t.send([], undefined, { used: true, differing: 0.12, misaligned: 0.05 });
      // The hand is drawn back: Ann's die, still there, is not Bob's roll.
      await t.send([die('4')], undefined, { used: true, differing: 0.003, misaligned: 0 });
      expect(t.session.table.roll).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('the tray seen bare between two throws: in a one-die game, Bob\'s die landing where Ann\'s lay with the same face is his roll', async () => {
    const t = await tableWithCamera();
    try {
      t.withTray({ used: true, differing: 0.003, misaligned: 0 });
      await t.settle('4');
      expect(await t.referee({ type: 'dice/confirm' })).toMatchObject({ ok: true });
      expect(await t.referee({ type: 'move', move: { type: 'next' } })).toMatchObject({ ok: true });
      // Ann picks her die up: the tray settles bare (the frame is the empty tray).
      await t.send([], undefined, { used: true, differing: 0.001, misaligned: 0 });
      // Bob throws; the die comes to rest in the same corner, face 4 (1 in 6 by face alone).
      await t.settle('4', [11, 10, 41, 40]);
      expect(pending(t.session)).toBe('camera 4');
    } finally {
      await t.close();
    }
  });

  it('with no empty tray to compare, a still frame with no dice is not known bare: the dice read last stand, and the log says why no roll came, once', async () => {
    const t = await tableWithCamera();
    try {
      await t.settle('4');
      expect(await t.referee({ type: 'dice/confirm' })).toMatchObject({ ok: true });
      expect(await t.referee({ type: 'move', move: { type: 'next' } })).toMatchObject({ ok: true });
      await t.send([]);
      await t.settle('4');
      await t.settle('4');
      expect(t.session.table.roll).toBeNull();
      const said = () => t.logger.lines.filter((l) => l.level === 'info' && l.message.includes('the tray settled on the dice read last')).length;
      expect(said()).toBe(1);
      // A new roll ends the streak: the next time the tray settles as it was is said again.
      await t.settle('2');
      expect(pending(t.session)).toBe('camera 2');
      await t.settle('2');
      expect(said()).toBe(2);
    } finally {
      await t.close();
    }
  });

  it('a new game\'s first throw landing as the last game\'s last die lay is its first roll', async () => {
    const t = await tableWithCamera();
    try {
      await t.settle('4');
      expect(await t.referee({ type: 'dice/confirm' })).toMatchObject({ ok: true });
      expect(await t.referee({ type: 'table/setup', game: RACE, options: {} })).toMatchObject({ ok: true });
      await t.settle('4');
      expect(pending(t.session)).toBe('camera 4');
    } finally {
      await t.close();
    }
  });

  it('a run of corrupt frames is said once, though each names its own byte count; said again after a good frame', async () => {
    const broken = (jpeg: Uint8Array) => (jpeg.length > 1 ? Promise.reject(new Error(`decodeImage: a corrupt or truncated image (${jpeg.length} bytes)`)) : Promise.resolve(tray(10)));
    const t = await tableWithCamera(undefined, broken);
    try {
      for (const bytes of [15676, 15820, 16003]) await t.send([die('4')], new Uint8Array(bytes));
      const warned = () => t.logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
      expect(warned()).toEqual(['camera fake: decodeImage: a corrupt or truncated image (15676 bytes)']);
      await t.send([die('4')]);
      await t.send([die('4')], new Uint8Array(900));
      expect(warned()).toHaveLength(2);
    } finally {
      await t.close();
    }
  });
});

describe('npm start’s demo replay: several rolls, each held until the table wants dice', () => {
  /**
   * The default replay (two rolls, 12 frames each) on a fake clock, through the real pipeline and
   * stream reader into the race game's table. Its frames are decoded to the small tray: moving
   * frames a die sliding, roll A's still frames a die at x 10, roll B's at x 44.
   */
  async function demoTable() {
    const names = replayOrder(await readdir(DEFAULT_REPLAY_FOLDER));
    const files = await Promise.all(names.map(async (n) => new Uint8Array(await readFile(path.join(DEFAULT_REPLAY_FOLDER, n)))));
    const decode = async (jpeg: Uint8Array) => {
      const i = files.findIndex((b) => Buffer.compare(b, jpeg) === 0);
      const [roll, j] = [Math.floor(i / 12), i % 12];
      return tray(j < 6 ? j * 7 : roll === 0 ? 10 : 44);
    };
    const session = await TableSession.open({ dataDir: scratchDir('clew-camera-demo-'), games: raceOnly, initialGame: { game: RACE, options: {} }, onCorrupt: 'recover', compactEvery: 1000, logger: quiet, now: Date.now });
    const clock = new FakeClock();
    const camera = new ReplayCamera({ folder: DEFAULT_REPLAY_FOLDER, fps: 10, clock });
    const stream = visionRollStream(darkReader().reader);
    const pipeline = new CameraPipeline({ source: camera, kind: 'camera', session, games: raceOnly, decode, stream: async () => stream, logger: quiet });
    pipeline.start();
    await camera.start();
    /** The next `n` frames, each read (or skipped) before the next is sent. */
    const frames = async (n: number) => {
      for (let k = 0; k < n; k++) {
        clock.advance(100);
        await vi.waitFor(() => expect(pipeline.counts.decoded + pipeline.counts.skipped >= camera.delivered && !pipeline.working()).toBe(true), { timeout: 10_000, interval: 2 });
      }
    };
    const pendingAt = () => session.table.roll?.dice.map((d) => d.box?.[0]).join();
    const referee = (intent: unknown) => session.submit({ kind: 'referee' }, { version: session.table.version, intent } as never);
    const close = async () => {
      await pipeline.stop();
      await camera.stop();
      await session.close();
    };
    return { pipeline, frames, pendingAt, referee, close };
  }

  it('a roll waiting unused is not replaced by the next over several loops’ time; once it is used, the next roll comes by itself', async () => {
    const t = await demoTable();
    try {
      await t.frames(12);
      expect(t.pendingAt()).toBe('10');
      expect(t.pipeline.counts.rolls).toBe(1);
      // Idle: four loops' worth of frames, and still roll A, the only roll the table was given.
      await t.frames(4 * 24);
      expect(t.pendingAt()).toBe('10');
      expect(t.pipeline.counts.rolls).toBe(1);
      // Used: the next player's turn asks for dice, and the replay throws roll B.
      expect(await t.referee({ type: 'dice/confirm' })).toMatchObject({ ok: true });
      expect(await t.referee({ type: 'move', move: { type: 'next' } })).toMatchObject({ ok: true });
      await t.frames(24);
      expect(t.pendingAt()).toBe('44');
      expect(t.pipeline.counts.rolls).toBe(2);
      await t.frames(4 * 24);
      expect(t.pipeline.counts.rolls).toBe(2);
      // Used again: roll A comes round.
      expect(await t.referee({ type: 'dice/confirm' })).toMatchObject({ ok: true });
      expect(await t.referee({ type: 'move', move: { type: 'next' } })).toMatchObject({ ok: true });
      await t.frames(24);
      expect(t.pendingAt()).toBe('10');
      expect(t.pipeline.counts.rolls).toBe(3);
    } finally {
      await t.close();
    }
  });
});

describe('a replay that plays the same roll again (one roll in scene.json, or a looped folder without rolls)', () => {
  /** The default replay's first roll (12 frames) in a folder of its own, with `scene` as its scene.json (none: looped as it is). */
  async function replayTable(scene: unknown) {
    const folder = scratchDir('clew-camera-again-');
    mkdirSync(folder, { recursive: true });
    const names = replayOrder(await readdir(DEFAULT_REPLAY_FOLDER)).slice(0, 12);
    for (const n of names) copyFileSync(path.join(DEFAULT_REPLAY_FOLDER, n), path.join(folder, n));
    if (scene !== undefined) writeFileSync(path.join(folder, 'scene.json'), JSON.stringify(scene));
    const files = await Promise.all(names.map(async (n) => new Uint8Array(await readFile(path.join(folder, n)))));
    // Moving frames a die sliding, the still ones a die at x 10.
    const decode = async (jpeg: Uint8Array) => {
      const j = files.findIndex((b) => Buffer.compare(b, jpeg) === 0);
      return tray(j < 6 ? j * 7 : 10);
    };
    const session = await TableSession.open({ dataDir: scratchDir('clew-camera-again-table-'), games: raceOnly, initialGame: { game: RACE, options: {} }, onCorrupt: 'recover', compactEvery: 1000, logger: quiet, now: Date.now });
    const clock = new FakeClock();
    const camera = new ReplayCamera({ folder, fps: 10, clock });
    const stream = visionRollStream(darkReader().reader);
    const pipeline = new CameraPipeline({ source: camera, kind: 'camera', session, games: raceOnly, decode, stream: async () => stream, logger: quiet });
    pipeline.start();
    await camera.start();
    const frames = async (n: number) => {
      for (let k = 0; k < n; k++) {
        clock.advance(100);
        await vi.waitFor(() => expect(pipeline.counts.decoded + pipeline.counts.skipped >= camera.delivered && !pipeline.working()).toBe(true), { timeout: 10_000, interval: 2 });
      }
    };
    const referee = (intent: unknown) => session.submit({ kind: 'referee' }, { version: session.table.version, intent } as never);
    const close = async () => {
      await pipeline.stop();
      await camera.stop();
      await session.close();
    };
    return { pipeline, session, frames, referee, close };
  }

  for (const [what, scene] of [['one roll listed', { rolls: [{ frames: ['00', '11'] }] }], ['looped, no rolls', undefined]] as const) {
    it(`${what}: once the roll is used, the replay's next throw is the next player's roll (it gave one roll, then never another)`, async () => {
      const t = await replayTable(scene);
      try {
        await t.frames(12);
        expect(t.pipeline.counts.rolls).toBe(1);
        expect(await t.referee({ type: 'dice/confirm' })).toMatchObject({ ok: true });
        expect(await t.referee({ type: 'move', move: { type: 'next' } })).toMatchObject({ ok: true });
        await t.frames(48);
        expect(t.pipeline.counts.rolls).toBe(2);
        expect(t.session.table.roll).not.toBeNull();
      } finally {
        await t.close();
      }
    });
  }

  it('a video file replayed gives the replay\'s cue too, so its loops are throws', () => {
    const camera = createVideoReplay({ ffmpeg: 'ffmpeg', file: 'demo.mp4', fps: 10, loop: true, stallMs: 5000, restart: { minMs: 500, maxMs: 5000 }, log: silentLogger, clock: new FakeClock() });
    expect(typeof camera.replayDiceWanted).toBe('function');
  });
});
