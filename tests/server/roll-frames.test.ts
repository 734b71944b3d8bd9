/**
 * The frames of the last rolls a camera gave the table are kept in the data folder
 * (`roll-frames/<camera>/`, web/server/roll-frames.ts), so a roll read before a restart is
 * labelled on the Teach tab, and its checked dice taught when it is used again, from the very
 * pixels it was read from. The server, the socket and the camera pipeline are real (the real
 * decoder too); the camera's frames are noise with a patch whose shade numbers the roll, the
 * stream reads one die from it (its face and box from that number), and the reader's calibration
 * records what it is given.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CameraSource } from '../../device/select.js';
import type { PhoneCamera } from '../../device/camera/phone.js';
import type { CameraFrame } from '../../device/types.js';
import { decodeImage, encodeJpeg } from '../../vision/image/index.js';
import type { ClewDiceReader } from '../../vision/reader.js';
import type { Box, RgbImage } from '../../vision/types.js';
import { CameraPipeline, OFFERED_KEPT } from '../../web/server/camera.js';
import { collectingLogger } from '../../web/server/logger.js';
import { RollFrames } from '../../web/server/roll-frames.js';
import { TableSession } from '../../web/server/session.js';
import type { Phone } from '../support/phone.js';
import { raceOnly, RACE } from '../support/games.js';
import { scratchDir } from '../support/scratch.js';
import { settableCamera } from '../support/settable-camera.js';
import { startTestServer, type TestServer } from '../support/server.js';

const W = 160, H = 120;
/** Roll `n`'s frame: noise (a lossy copy would not keep it), and a flat patch top left of shade 12·n (n up to 21). */
function frameOf(n: number): RgbImage {
  let seed = 1000 + n;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256);
  const data = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data.set(x < 16 && y < 16 ? [12 * n, 12 * n, 12 * n] : [random(), random(), random()], (y * W + x) * 3);
  return { width: W, height: H, data };
}
/** The roll number a frame shows: its patch's shade. */
const numberOf = (image: RgbImage) => Math.round(image.data[(4 * W + 4) * 3]! / 12);
const faceOf = (n: number) => String((n % 6) + 1);
const boxOf = (n: number): Box => [40 + n, 30, 90 + n, 80];
const hash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A phone's camera whose frames the test sends (each read by the frame loop, which settles it at
 * once); a restarted server reads the frames sent after it restarted.
 */
function sentCamera(): { camera: CameraSource; send(frame: CameraFrame): void } {
  let waiting: ((next: IteratorResult<CameraFrame>) => void) | null = null;
  const camera: CameraSource = {
    kind: 'fake-phone',
    start: async () => {},
    stop: async () => {},
    status: () => ({ kind: 'fake-phone', ok: true, message: 'ok' }),
    latest: () => null,
    frames: () => ({
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<CameraFrame>>((resolve) => (waiting = resolve)),
        return: async () => ({ done: true as const, value: undefined }),
      }),
    }),
  };
  return {
    camera,
    send: (frame) => {
      if (!waiting) throw new Error('the phone camera is not being read');
      const resolve = waiting;
      waiting = null;
      resolve({ done: false, value: frame });
    },
  };
}

async function table() {
  const jpegs = new Map<number, Uint8Array>();
  const { camera, show } = settableCamera();
  const phone = sentCamera();
  const stream = {
    // Only the phone's camera sends frames to the loop (the table's camera is read by READ only).
    push: async (image: RgbImage) => [{ set: 'd6' as const, face: faceOf(numberOf(image)), confidence: 0.99, box: boxOf(numberOf(image)), uncertain: false }],
    readNow: async (image: RgbImage) => [{ set: 'd6' as const, face: faceOf(numberOf(image)), confidence: 0.99, box: boxOf(numberOf(image)), uncertain: false }],
    reset: () => {},
  };
  /** What the reader was taught: the face, the roll the frame shows, its pixels' hash, the box and view. */
  const taught: { face: string; roll: number; pixels: string; box: Box; view: string }[] = [];
  let next = 0;
  const reader = {
    modelId: 'stand-in', backend: 'cpu', threads: 1, uncertainBelow: 0.85, dispose() {},
    calibration: {
      add: async (set: string, face: string, image: RgbImage, box: Box, view: string) => {
        taught.push({ face, roll: numberOf(image), pixels: hash(image.data), box, view });
        return { set, counts: {}, label: next++ };
      },
      withdraw: async (set: string) => ({ set, counts: {}, withdrawn: true }),
      pending: (set: string) => ({ set, counts: {} }),
      list: () => [],
    },
  } as unknown as ClewDiceReader;
  const dataDir = scratchDir('clew-roll-frames-');
  let referee: Phone;
  const start = async () => {
    server = await startTestServer({ dataDir, config: { vision: { enabled: true, learnFromChecks: true } }, adapters: { camera, phoneCamera: phone.camera as unknown as PhoneCamera }, start: { loadReader: async () => reader, rollStream: () => stream } });
    referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    await referee.snapshot((x) => x.version === server!.clew.session.table.version);
  };
  await start();
  const send = async (intent: Parameters<Phone['send']>[0]) => {
    const ack = await referee.send(intent);
    await referee.snapshot((x) => x.version === server!.clew.session.table.version);
    return ack;
  };
  const framesDir = path.join(dataDir, 'roll-frames', 'camera');
  const index = () => JSON.parse(readFileSync(path.join(framesDir, 'frames.json'), 'utf8')) as { frames: { file: string; at: number; bytes: number }[] };
  return {
    dataDir,
    framesDir,
    index,
    taught,
    logger: () => server!.logger,
    /** clew stopped and started again on the same data folder (`whileStopped`: the disk meddled with). */
    async restart(whileStopped?: () => void) {
      await server!.stop();
      whileStopped?.();
      await start();
    },
    send,
    /** The camera shows roll `n` (at time `n`, or `at`) and READ is pressed. */
    async read(n: number, at = n) {
      const jpeg = await encodeJpeg(frameOf(n), 90);
      jpegs.set(n, jpeg);
      show({ jpeg, at });
      return send({ type: 'dice/read' });
    },
    /** A phone's camera sends roll `n` at time `at`; settles when the table has it. */
    async phoneRolls(n: number, at: number) {
      const jpeg = await encodeJpeg(frameOf(n), 90);
      jpegs.set(n, jpeg);
      await vi.waitFor(() => phone.send({ jpeg, at }), { timeout: 10_000 });
      await referee.snapshot((x) => x.roll?.source === 'phone-camera' && x.roll.dice[0]?.face === faceOf(n) && x.version === server!.clew.session.table.version);
    },
    /** The pixels roll `n`'s frame decodes to. */
    pixels: async (n: number) => hash((await decodeImage(jpegs.get(n)!)).data),
    label: (face: string) => send({ type: 'calibration/label', set: 'd6', index: 0, face }),
    crop: async () => {
      const res = await fetch(`${server!.url}/api/camera/crop?index=0`);
      return res.ok ? hash(new Uint8Array(await res.arrayBuffer())) : `HTTP ${res.status}`;
    },
    roll: () => server!.clew.session.table.roll,
  };
}

describe('the frames of the last rolls, kept over a restart', () => {
  it.each([
    ['without a restart', false],
    ['over a restart', true],
  ] as const)('a roll read before (%s) is labelled on the Teach tab from the same pixels, box and view', async (_, restart) => {
    const t = await table();
    expect(await t.read(3)).toMatchObject({ ok: true });
    const crop = await t.crop();
    if (restart) await t.restart();
    expect(await t.crop()).toBe(crop);
    expect(await t.label('5')).toMatchObject({ ok: true });
    expect(t.taught).toEqual([{ face: '5', roll: 3, pixels: await t.pixels(3), box: boxOf(3), view: 'any' }]);
  });

  it('over many rolls the frames on disk are the last 8 rolls\', no more; after a restart the newest is labelled from its own frame', async () => {
    const t = await table();
    for (let n = 1; n <= 20; n++) expect(await t.read(n)).toMatchObject({ ok: true });
    await t.restart();
    const kept = t.index().frames;
    expect(kept.map((f) => f.at)).toEqual([20, 19, 18, 17, 16, 15, 14, 13]);
    expect(OFFERED_KEPT).toBe(8);
    // Only the files the index names, each the camera's JPEG as it came.
    expect(readdirSync(t.framesDir).sort()).toEqual(['frames.json', ...kept.map((f) => f.file)].sort());
    for (const f of kept) expect(statSync(path.join(t.framesDir, f.file)).size).toBe(f.bytes);
    expect(await t.label('1')).toMatchObject({ ok: true });
    expect(t.taught).toEqual([expect.objectContaining({ roll: 20, pixels: await t.pixels(20) })]);
  });

  it('a torn frame file: the Teach tab says which file and to roll again, the server starts, and the other roll\'s frame still labels', async () => {
    const t = await table();
    await t.read(1);
    await t.send({ type: 'dice/confirm' });
    await t.send({ type: 'button', button: 'NEXT' });
    await t.read(2);
    let torn = '', shown = '', statBytes = 0;
    await t.restart(() => {
      const entry = t.index().frames.find((f) => f.at === 1)!;
      torn = path.join(t.framesDir, entry.file);
      shown = `roll-frames/camera/${entry.file}`;
      statBytes = entry.bytes;
      writeFileSync(torn, readFileSync(torn).subarray(0, 300));
    });
    expect(t.logger().lines).toContainEqual({ level: 'warn', message: `camera: the frame of a roll read before the restart, ${torn} could not be read back (300 bytes that are not the ${statBytes} written: torn or changed); its dice cannot be labelled nor taught` });
    // The roll read last labels from its frame, as before the restart.
    expect(await t.label('3')).toMatchObject({ ok: true });
    expect(t.taught).toEqual([expect.objectContaining({ roll: 2, pixels: await t.pixels(2) })]);
    // BACK twice: roll 1 is pending again; its frame was torn.
    await t.send({ type: 'undo' });
    await t.send({ type: 'undo' });
    expect(t.roll()?.dice[0]).toMatchObject({ face: faceOf(1), box: boxOf(1) });
    const answer = await t.label('2');
    expect(answer).toMatchObject({ ok: false, code: 'calibration/no-crop' });
    // The phones are told the file as it lies in the data folder, not the server's path (the log has that).
    expect((answer as { message: string }).message).toBe(`the camera frame of this roll was kept over the restart but ${shown} could not be read back (300 bytes that are not the ${statBytes} written: torn or changed); roll again`);
    expect((answer as { message: string }).message).not.toContain(t.dataDir);
    expect(t.taught).toHaveLength(1);
    // The torn file is named no more, the good one still is.
    expect(existsSync(torn)).toBe(false);
    expect(t.index().frames.map((f) => f.at)).toEqual([2]);
  });

  it('a roll made final before a restart, brought back by BACK after it, mended and used again: its checked die is taught from its own frame', async () => {
    const t = await table();
    await t.read(1); // the camera reads a 2
    await t.send({ type: 'dice/correct', index: 0, face: '3' }); // a mis-tap "corrects" it to 3
    await t.send({ type: 'dice/confirm' });
    await t.send({ type: 'button', button: 'NEXT' });
    await t.read(2); // the used roll is final: its 3 taught
    await vi.waitFor(() => expect(t.taught.map((x) => `${x.face} from ${x.roll}`)).toEqual(['3 from 1']));
    await t.restart();
    await t.send({ type: 'undo' });
    await t.send({ type: 'undo' });
    expect(t.roll()?.dice[0]).toMatchObject({ face: '3', corrected: true });
    await t.send({ type: 'dice/correct', index: 0, face: '2' });
    await t.send({ type: 'dice/confirm' });
    await t.send({ type: 'button', button: 'NEXT' });
    await t.read(4);
    await vi.waitFor(() => expect(t.taught.map((x) => `${x.face} from ${x.roll}`)).toEqual(['3 from 1', '2 from 1']));
    expect(t.taught[1]!.pixels).toBe(await t.pixels(1));
  });
});

describe('the frames of a run are timed after those kept from before the restart', () => {
  // The camera's clock starts again near 0 in each process (performance.now()): here the test's
  // frames carry the same time before and after the restart, as a clock may by chance.
  /** The frame times on disk once `count` frames are there (the writes come after the roll reached the phones). */
  const at = async (t: Awaited<ReturnType<typeof table>>, count: number) => {
    await vi.waitFor(() => expect(t.index().frames).toHaveLength(count), { timeout: 10_000 });
    return t.index().frames.map((f) => f.at);
  };

  it('a die labelled in a roll read before the restart is not taken for the die of a new roll in the same box at the same clock time', async () => {
    const t = await table();
    await t.read(3);
    expect(await t.label('5')).toMatchObject({ ok: true });
    await t.send({ type: 'dice/confirm' });
    await t.send({ type: 'button', button: 'NEXT' });
    await t.read(4);
    await t.restart();
    // The roll read before, brought back by BACK: its die is still the die labelled (its frame keeps its time).
    await t.send({ type: 'undo' });
    await t.send({ type: 'undo' });
    expect(t.roll()?.dice[0]).toMatchObject({ face: faceOf(3), box: boxOf(3) });
    expect(await t.label('5')).toMatchObject({ ok: false, code: 'calibration/already-labelled' });
    // A new roll of the same die in the same box, its frame at the same clock time: another die.
    await t.read(4);
    await t.read(3);
    expect(await t.label('5')).toMatchObject({ ok: true });
    expect(t.taught.map((x) => `${x.face} from ${x.roll}`)).toEqual(['5 from 3', '5 from 3']);
  });

  it('a die checked in play in a new roll is taught, though a die in the same box at the same clock time was labelled before the restart', async () => {
    const t = await table();
    await t.read(3);
    expect(await t.label('5')).toMatchObject({ ok: true });
    await t.read(4);
    await t.restart();
    await t.read(3);
    await t.send({ type: 'dice/correct', index: 0, face: '2' });
    await t.send({ type: 'dice/confirm' });
    await t.send({ type: 'button', button: 'NEXT' });
    await t.read(5); // the used roll is final: its checked die taught
    await vi.waitFor(() => expect(t.taught.map((x) => `${x.face} from ${x.roll}`)).toEqual(['5 from 3', '2 from 3']), { timeout: 10_000 });
  });

  it('on disk the rolls of each run come after those of the runs before, newest first, whatever the clock says', async () => {
    const t = await table();
    await t.read(5);
    await t.read(6);
    await t.restart();
    await t.read(1);
    await t.read(2);
    const first = await at(t, 4);
    expect(first.slice(2)).toEqual([6, 5]);
    expect(first[1]).toBeGreaterThan(6);
    expect(first[0]).toBeGreaterThan(first[1]!);
    // A roll read right after a second restart, at the clock's time 0, still comes after them all.
    await t.restart();
    await t.read(7, 0);
    const second = await at(t, 5);
    expect(second.slice(1)).toEqual(first);
    expect(second[0]).toBeGreaterThan(first[0]!);
    // And the Teach tab labels each from its own frame.
    expect(await t.label('2')).toMatchObject({ ok: true });
    expect(t.taught).toEqual([expect.objectContaining({ roll: 7, pixels: await t.pixels(7) })]);
  });

  it('a die labelled before the restart is not taken for a new roll\'s die at the same clock time though the frames kept were lost: the labels remembered time the run too', async () => {
    const t = await table();
    await t.read(3);
    expect(await t.label('5')).toMatchObject({ ok: true });
    await t.restart(() => rmSync(path.join(t.dataDir, 'roll-frames'), { recursive: true, force: true }));
    await t.read(4);
    await t.read(3);
    expect(await t.label('5')).toMatchObject({ ok: true });
    expect(t.taught.map((x) => `${x.face} from ${x.roll}`)).toEqual(['5 from 3', '5 from 3']);
  });

  it("a phone camera's frames are timed after the table camera's kept frames too: a Teach label names a die by time and box, whichever camera's", async () => {
    const t = await table();
    await t.read(3);
    expect(await t.label('5')).toMatchObject({ ok: true });
    await t.restart();
    await t.phoneRolls(4, 1);
    await t.phoneRolls(3, 3);
    expect(await t.label('5')).toMatchObject({ ok: true });
    expect(t.taught.map((x) => `${x.face} from ${x.roll}`)).toEqual(['5 from 3', '5 from 3']);
    const phoneIndex = () => JSON.parse(readFileSync(path.join(t.dataDir, 'roll-frames', 'phone-camera', 'frames.json'), 'utf8')) as { frames: { at: number }[] };
    await vi.waitFor(() => expect(phoneIndex().frames).toHaveLength(2), { timeout: 10_000 });
    expect(Math.min(...phoneIndex().frames.map((f) => f.at))).toBeGreaterThan(3);
  });
});

describe('a camera pipeline without a data folder for its frames', () => {
  it('keeps its rolls\' frames in memory only, as before; given a folder, a new pipeline on it has them', async () => {
    const logger = collectingLogger();
    const dataDir = scratchDir('clew-roll-frames-pipeline-');
    const session = await TableSession.open({ dataDir, games: raceOnly, initialGame: { game: RACE, options: {} }, onCorrupt: 'recover', compactEvery: 1000, logger, now: Date.now });
    let jpeg = await encodeJpeg(frameOf(5), 90);
    const source: CameraSource = { kind: 'fake', start: async () => {}, stop: async () => {}, frames: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<CameraFrame>>(() => {}) }) }), status: () => ({ kind: 'fake', ok: true, message: 'ok' }), latest: () => ({ jpeg, at: 5 }) };
    const pipeline = (framesDir?: string) =>
      new CameraPipeline({
        source, kind: 'camera', session, games: raceOnly, logger,
        decode: decodeImage,
        stream: async () => ({ push: async () => null, readNow: async (image) => [{ set: 'd6', face: faceOf(numberOf(image)), confidence: 0.99, box: boxOf(numberOf(image)), uncertain: false }], reset: () => {} }),
        ...(framesDir ? { framesDir } : {}),
      });
    try {
      const before = readdirSync(dataDir).sort();
      const first = pipeline();
      expect(await first.readNow()).toMatchObject({ ok: true });
      const roll = session.table.roll!;
      expect(first.frameFor(roll)?.at).toBe(5);
      await first.stop();
      expect(readdirSync(dataDir).sort()).toEqual(before);
      const again = pipeline();
      await again.restoreFrames();
      expect(again.frameFor(roll)).toBeNull();
      expect(again.lostFrameFor(roll)).toBeNull();

      const framesDir = path.join(dataDir, 'roll-frames', 'camera');
      const kept = pipeline(framesDir);
      jpeg = await encodeJpeg(frameOf(6), 90);
      expect(await kept.readNow()).toMatchObject({ ok: true });
      await kept.stop();
      const after = pipeline(framesDir);
      await after.restoreFrames();
      expect(hash(after.frameFor(session.table.roll!)!.image.data)).toBe(hash((await decodeImage(jpeg)).data));
    } finally {
      await session.close();
    }
  });
});

describe('a camera pipeline keeping its rolls\' frames on disk', () => {
  const reading = (n: number) => ({ set: 'd6' as const, face: faceOf(n), confidence: 0.99, box: boxOf(n), uncertain: false });
  /** A pending roll as the table holds roll `n`, for frameFor. */
  const rollOf = (n: number) => ({ dice: [{ set: 'd6', face: faceOf(n), box: boxOf(n) }] }) as unknown as Parameters<CameraPipeline['frameFor']>[0];
  const opened = () => {
    const dataDir = scratchDir('clew-roll-frames-race-');
    const logger = collectingLogger();
    return { dataDir, logger, framesDir: path.join(dataDir, 'roll-frames', 'camera'), session: TableSession.open({ dataDir, games: raceOnly, initialGame: { game: RACE, options: {} }, onCorrupt: 'recover', compactEvery: 1000, logger, now: Date.now }) };
  };

  it('a READ while the frame loop settles another roll keeps its roll with its own frame, in memory and over a restart', async () => {
    const { logger, framesDir, session: opening } = opened();
    const session = await opening;
    const jpeg1 = await encodeJpeg(frameOf(1), 90);
    const jpeg2 = await encodeJpeg(frameOf(2), 90);
    // The camera's newest frame shows roll 1 (READ reads it); the loop's next frame, roll 2, comes
    // just as READ has read (stream.reset), and settles at once.
    let sendRoll2!: () => void;
    const roll2Sent = new Promise<void>((resolve) => (sendRoll2 = resolve));
    let sent = false;
    const source: CameraSource = {
      kind: 'fake', start: async () => {}, stop: async () => {}, status: () => ({ kind: 'fake', ok: true, message: 'ok' }),
      latest: () => ({ jpeg: jpeg1, at: 1 }),
      frames: () => ({ [Symbol.asyncIterator]: () => ({ next: async (): Promise<IteratorResult<CameraFrame>> => {
        if (sent) return new Promise(() => {});
        await roll2Sent;
        sent = true;
        return { done: false, value: { jpeg: jpeg2, at: 2 } };
      } }) }),
    };
    // READ's roll reaches the table only after the loop's (a log write on a slow card, say).
    const cameraRoll = session.cameraRoll.bind(session);
    let letReadThrough!: () => void;
    const readHeld = new Promise<void>((resolve) => (letReadThrough = resolve));
    let calls = 0;
    session.cameraRoll = (async (...args: Parameters<typeof cameraRoll>) => {
      if (calls++ === 0) await readHeld;
      return cameraRoll(...args);
    }) as typeof session.cameraRoll;
    const pipeline = () => new CameraPipeline({
      source, kind: 'camera', session, games: raceOnly, logger, decode: decodeImage, framesDir,
      stream: async () => ({ push: async (image: RgbImage) => [reading(numberOf(image))], readNow: async (image: RgbImage) => [reading(numberOf(image))], reset: () => sendRoll2() }),
    });
    const first = pipeline();
    try {
      first.start();
      const read = first.readNow();
      await vi.waitFor(() => expect(first.counts.rolls).toBe(1), { timeout: 30_000 });
      letReadThrough();
      expect(await read).toMatchObject({ ok: true });
      await first.stop();
      expect(numberOf(first.frameFor(rollOf(1))!.image)).toBe(1);
      expect(numberOf(first.frameFor(rollOf(2))!.image)).toBe(2);
      const again = pipeline();
      await again.restoreFrames();
      for (const [n, jpeg] of [[1, jpeg1], [2, jpeg2]] as const) expect(hash(again.frameFor(rollOf(n))!.image.data), `roll ${n}'s frame after the restart`).toBe(hash((await decodeImage(jpeg)).data));
    } finally {
      await session.close();
    }
  });

  it('stop() waits for a READ in flight and its frame; a READ after stop() writes nothing to the folder', async () => {
    const { logger, framesDir, session: opening } = opened();
    const session = await opening;
    let jpeg = await encodeJpeg(frameOf(3), 90);
    const source: CameraSource = { kind: 'fake', start: async () => {}, stop: async () => {}, frames: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<CameraFrame>>(() => {}) }) }), status: () => ({ kind: 'fake', ok: true, message: 'ok' }), latest: () => ({ jpeg, at: 3 }) };
    let readStarted!: () => void;
    const started = new Promise<void>((resolve) => (readStarted = resolve));
    let finishRead!: () => void;
    let first = true;
    const pipeline = new CameraPipeline({
      source, kind: 'camera', session, games: raceOnly, logger, decode: decodeImage, framesDir,
      stream: async () => ({
        push: async () => null,
        // The first READ is held until the test lets it finish; any later one reads at once.
        readNow: async (image: RgbImage) => {
          if (first) {
            first = false;
            readStarted();
            await new Promise<void>((resolve) => (finishRead = resolve));
          }
          return [reading(numberOf(image))];
        },
        reset: () => {},
      }),
    });
    try {
      pipeline.start();
      const read = pipeline.readNow();
      await started;
      let stopped = false;
      const stopping = pipeline.stop().then(() => (stopped = true));
      // stop() cannot be done while the READ is still reading.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stopped).toBe(false);
      finishRead();
      await stopping;
      expect(await read).toMatchObject({ ok: true });
      // The READ's frame is on disk when stop() is done.
      const index = () => JSON.parse(readFileSync(path.join(framesDir, 'frames.json'), 'utf8')) as { frames: { at: number }[] };
      expect(index().frames.map((f) => f.at)).toEqual([3]);
      const atStop = readdirSync(framesDir).sort();
      // A READ after stop (phones are still connected while the server stops) keeps no frame on disk.
      jpeg = await encodeJpeg(frameOf(4), 90);
      expect(await pipeline.readNow()).toMatchObject({ ok: true });
      expect(session.table.roll?.dice[0]).toMatchObject({ face: faceOf(4) });
      await pipeline.stop(); // settles when every frame kept so far is on disk
      expect(readdirSync(framesDir).sort()).toEqual(atStop);
      expect(index().frames.map((f) => f.at)).toEqual([3]);
    } finally {
      await session.close();
    }
  });
});

describe('the frames on disk (RollFrames)', () => {
  it('stay within their count and bytes, the oldest forgotten first; a frame alone over the bytes is not written', async () => {
    const dir = scratchDir('clew-roll-frames-bytes-');
    const logger = collectingLogger();
    const frames = new RollFrames(dir, logger, { frames: 8, bytes: 3500 });
    const reading = { set: 'd6' as const, face: '1', confidence: 1, box: [0, 0, 1, 1] as Box, uncertain: false };
    for (let n = 1; n <= 30; n++) frames.keep({ at: n, readings: [reading], jpeg: new Uint8Array(1000).fill(n) });
    frames.keep({ at: 31, readings: [reading], jpeg: new Uint8Array(4000) });
    await frames.saved();
    const index = JSON.parse(readFileSync(path.join(dir, 'frames.json'), 'utf8')) as { frames: { file: string; at: number }[] };
    expect(index.frames.map((f) => f.at)).toEqual([30, 29, 28]);
    expect(readdirSync(dir).sort()).toEqual(['frames.json', ...index.frames.map((f) => f.file)].sort());
    expect(logger.lines).toContainEqual({ level: 'info', message: "camera: a roll's frame of 4000 bytes is over the 3500 kept on disk: not kept over a restart" });
    // Read back at the next start, newest first; a file nobody names (a cut write's) is removed.
    writeFileSync(path.join(dir, '000099.jpg'), 'x');
    writeFileSync(path.join(dir, '000100.jpg.tmp-1-1'), 'x');
    const again = new RollFrames(dir, logger, { frames: 8, bytes: 3500 });
    const restored = await again.load(async (jpeg) => ({ width: 1, height: 1, data: jpeg.subarray(0, 3) }));
    expect(restored.map((f) => ('image' in f ? f.image.data[0] : f.problem))).toEqual([30, 29, 28]);
    expect(readdirSync(dir).sort()).toEqual(['frames.json', ...index.frames.map((f) => f.file)].sort());
  });

  it('a torn index is said by name and kept aside; its frames are not kept', async () => {
    const dir = scratchDir('clew-roll-frames-index-');
    const logger = collectingLogger();
    const frames = new RollFrames(dir, logger, { frames: 8 });
    frames.keep({ at: 1, readings: [], jpeg: new Uint8Array(10) });
    await frames.saved();
    writeFileSync(path.join(dir, 'frames.json'), '{"frames": [{"file": "0000');
    const again = new RollFrames(dir, logger, { frames: 8 });
    expect(await again.load(async () => ({ width: 1, height: 1, data: new Uint8Array(3) }))).toEqual([]);
    expect(logger.lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/^camera: .*roll-frames-index-.*\/frames\.json is not an index of roll frames \(.+\); the frames of the rolls read before the restart are not kept \(kept as frames\.json\.corrupt-\d+\)$/) });
    expect(readdirSync(dir).filter((n) => n.endsWith('.jpg'))).toEqual([]);
  });

  const one = { set: 'd6' as const, face: '1', confidence: 1, box: [0, 0, 1, 1] as Box, uncertain: false };
  const jpgs = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.jpg')).sort();

  it('an index that cannot be read (a failing card) leaves the folder as it is for the run, said once: no frame removed nor written; a start that reads it again has them all', async () => {
    const dir = path.join(scratchDir('clew-roll-frames-unreadable-'), 'roll-frames', 'camera');
    const decode = async () => ({ width: 1, height: 1, data: new Uint8Array(3) });
    const first = new RollFrames(dir, collectingLogger(), { frames: 8 });
    for (const n of [1, 2, 3]) first.keep({ at: 1000 + n, readings: [], jpeg: new Uint8Array([n, n, n]) });
    await first.close();
    // The index reads as an error (a folder in its place: EISDIR), as a failing card's may for a while.
    const index = path.join(dir, 'frames.json');
    renameSync(index, `${index}.away`);
    mkdirSync(index);
    const logger = collectingLogger();
    const second = new RollFrames(dir, logger, { frames: 8 });
    expect(await second.load(decode)).toEqual([]);
    second.keep({ at: 5, readings: [], jpeg: new Uint8Array(4) });
    second.keep({ at: 6, readings: [], jpeg: new Uint8Array(4) });
    await second.close();
    expect(logger.lines).toEqual([{ level: 'warn', message: expect.stringMatching(/^camera: .*\/frames\.json could not be read \(EISDIR.*\); .* \(the folder is left as it is\)$/) }]);
    expect(jpgs(dir)).toEqual(['000001.jpg', '000002.jpg', '000003.jpg']);
    rmSync(index, { recursive: true });
    renameSync(`${index}.away`, index);
    const third = new RollFrames(dir, collectingLogger(), { frames: 8 });
    expect((await third.load(decode)).filter((r) => 'image' in r).map((r) => r.at)).toEqual([1003, 1002, 1001]);
    expect(third.latest).toBe(1003);
  });

  it('while the index cannot be written no frame file is left behind, roll after roll; once it can, frames are kept again', async () => {
    const dir = scratchDir('clew-roll-frames-noindex-');
    const logger = collectingLogger();
    const frames = new RollFrames(dir, logger, { frames: 8 });
    frames.keep({ at: 1, readings: [one], jpeg: new Uint8Array(1000).fill(1) });
    await frames.saved();
    const first = jpgs(dir);
    // The index cannot be replaced (here a folder stands in its way; in life a write error).
    rmSync(path.join(dir, 'frames.json'));
    mkdirSync(path.join(dir, 'frames.json'));
    for (let n = 2; n <= 30; n++) frames.keep({ at: n, readings: [one], jpeg: new Uint8Array(1000).fill(n) });
    await frames.saved();
    expect(jpgs(dir)).toEqual(first);
    expect(logger.lines.filter((l) => l.level === 'warn' && l.message.startsWith(`camera: the frame of a roll could not be kept in ${dir}: `))).toHaveLength(29);
    rmSync(path.join(dir, 'frames.json'), { recursive: true });
    frames.keep({ at: 31, readings: [one], jpeg: new Uint8Array(1000).fill(31) });
    await frames.saved();
    const index = JSON.parse(readFileSync(path.join(dir, 'frames.json'), 'utf8')) as { frames: { file: string; at: number }[] };
    // The frame kept before the index failed is still named with the new one.
    expect(index.frames.map((f) => f.at)).toEqual([31, 1]);
    expect(jpgs(dir)).toEqual(index.frames.map((f) => f.file).sort());
  });

  it('a frame whose bytes check out but that the decoder fails on is said for that roll, naming its file in the data folder, and kept for the next start', async () => {
    const dir = path.join(scratchDir('clew-roll-frames-decode-'), 'roll-frames', 'camera');
    const logger = collectingLogger();
    const frames = new RollFrames(dir, logger, { frames: 8 });
    frames.keep({ at: 1, readings: [one], jpeg: new Uint8Array(1000).fill(7) });
    await frames.saved();
    const kept = jpgs(dir);
    const failing = new RollFrames(dir, logger, { frames: 8 });
    const restored = await failing.load(async () => {
      throw new Error(`Could not load the "sharp" module from ${dir}/node_modules`);
    });
    await failing.saved();
    expect(restored).toEqual([{ at: 1, readings: [one], problem: `roll-frames/camera/${kept[0]} could not be decoded (the decoder failed: see the server log)` }]);
    expect(logger.lines).toContainEqual({ level: 'warn', message: `camera: the frame of a roll read before the restart, ${path.join(dir, kept[0]!)} could not be decoded (Could not load the "sharp" module from ${dir}/node_modules); its dice cannot be labelled nor taught for now (the file is kept)` });
    expect(jpgs(dir)).toEqual(kept);
    // The next start, with a decoder that works, has the frame.
    const next = new RollFrames(dir, logger, { frames: 8 });
    expect(await next.load(async (jpeg) => ({ width: 1, height: 1, data: jpeg.subarray(0, 3) }))).toEqual([{ at: 1, readings: [one], image: { width: 1, height: 1, data: new Uint8Array(3).fill(7) } }]);
  });

  it('keep the latest frame time given to them, also once its frame is forgotten or was too big to write: a label may still name it', async () => {
    const dir = scratchDir('clew-roll-frames-latest-');
    const logger = collectingLogger();
    const decode = async (jpeg: Uint8Array) => ({ width: 1, height: 1, data: jpeg.subarray(0, 3) });
    const frames = new RollFrames(dir, logger, { frames: 2, bytes: 3000 });
    for (let n = 1; n <= 3; n++) frames.keep({ at: n, readings: [one], jpeg: new Uint8Array(1000).fill(n) });
    frames.keep({ at: 40, readings: [one], jpeg: new Uint8Array(4000) }); // over the bytes: not written
    await frames.saved();
    expect(frames.latest).toBe(40);
    const index = () => JSON.parse(readFileSync(path.join(dir, 'frames.json'), 'utf8')) as { frames: { file: string; at: number }[]; latest?: number };
    expect(index()).toMatchObject({ frames: [{ at: 3 }, { at: 2 }], latest: 40 });
    // Every frame file lost: the frames are forgotten, their latest time is not, start after start.
    for (const f of index().frames) rmSync(path.join(dir, f.file));
    const again = new RollFrames(dir, logger, { frames: 2, bytes: 3000 });
    expect((await again.load(decode)).every((f) => 'problem' in f)).toBe(true);
    await again.saved();
    expect(index()).toEqual({ frames: [], latest: 40 });
    const third = new RollFrames(dir, logger, { frames: 2, bytes: 3000 });
    await third.load(decode);
    expect(third.latest).toBe(40);
    // A folder with no index has none.
    const none = new RollFrames(scratchDir('clew-roll-frames-none-'), logger, { frames: 2 });
    expect(await none.load(decode)).toEqual([]);
    expect(none.latest).toBeNull();
  });

  it('an index written before the latest time was kept (the previous version) still loads: its frames\' latest time stands in, and a pipeline on it times its frames after it', async () => {
    const dataDir = scratchDir('clew-roll-frames-old-');
    const framesDir = path.join(dataDir, 'roll-frames', 'camera');
    const logger = collectingLogger();
    const written = new RollFrames(framesDir, logger, { frames: 8 });
    const jpegs = new Map<number, Uint8Array>();
    for (const n of [4, 9, 7]) {
      jpegs.set(n, await encodeJpeg(frameOf(n), 90));
      written.keep({ at: n, readings: [{ set: 'd6', face: faceOf(n), confidence: 0.99, box: boxOf(n), uncertain: false }], jpeg: jpegs.get(n)! });
    }
    await written.saved();
    // As the previous version wrote it: the frames, newest first, and nothing else.
    const file = path.join(framesDir, 'frames.json');
    const { frames } = JSON.parse(readFileSync(file, 'utf8')) as { frames: unknown[] };
    writeFileSync(file, JSON.stringify({ frames }) + '\n');
    const session = await TableSession.open({ dataDir, games: raceOnly, initialGame: { game: RACE, options: {} }, onCorrupt: 'recover', compactEvery: 1000, logger, now: Date.now });
    const jpeg = await encodeJpeg(frameOf(2), 90);
    const pipeline = new CameraPipeline({
      source: { kind: 'fake', start: async () => {}, stop: async () => {}, frames: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<CameraFrame>>(() => {}) }) }), status: () => ({ kind: 'fake', ok: true, message: 'ok' }), latest: () => ({ jpeg, at: 1 }) } as CameraSource,
      kind: 'camera', session, games: raceOnly, logger, decode: decodeImage, framesDir,
      stream: async () => ({ push: async () => null, readNow: async (image) => [{ set: 'd6', face: faceOf(numberOf(image)), confidence: 0.99, box: boxOf(numberOf(image)), uncertain: false }], reset: () => {} }),
    });
    try {
      expect(await pipeline.restoreFrames()).toBe(9);
      const rollOf = (n: number) => ({ dice: [{ set: 'd6', face: faceOf(n), box: boxOf(n) }] }) as unknown as Parameters<CameraPipeline['frameFor']>[0];
      for (const n of [4, 9, 7]) expect(hash(pipeline.frameFor(rollOf(n))!.image.data), `roll ${n}`).toBe(hash((await decodeImage(jpegs.get(n)!)).data));
      expect(pipeline.frameFor(rollOf(9))!.at).toBe(9);
      // The camera's clock says 1: the frame comes after every frame kept.
      expect(await pipeline.readNow()).toMatchObject({ ok: true });
      expect(pipeline.frameFor(session.table.roll!)!.at).toBeGreaterThan(9);
      await pipeline.stop();
      const index = JSON.parse(readFileSync(file, 'utf8')) as { frames: { at: number }[]; latest: number };
      expect(index.frames.map((f) => f.at).slice(1)).toEqual([7, 9, 4]);
      expect(index.latest).toBe(index.frames[0]!.at);
    } finally {
      await session.close();
    }
  });

  it('an index naming more frames than the limits keep (the limits lowered, or edited by hand): only those kept are decoded, the rest forgotten', async () => {
    const dir = scratchDir('clew-roll-frames-many-');
    const logger = collectingLogger();
    const frames = new RollFrames(dir, logger, { frames: 30 });
    for (let n = 1; n <= 20; n++) frames.keep({ at: n, readings: [one], jpeg: new Uint8Array(1000).fill(n) });
    await frames.saved();
    let decoded = 0;
    const fewer = new RollFrames(dir, logger, { frames: 8, bytes: 5000 });
    const restored = await fewer.load(async (jpeg) => (decoded++, { width: 1, height: 1, data: jpeg.subarray(0, 3) }));
    await fewer.saved();
    expect(decoded).toBe(5);
    expect(restored.map((f) => f.at)).toEqual([20, 19, 18, 17, 16]);
    const index = JSON.parse(readFileSync(path.join(dir, 'frames.json'), 'utf8')) as { frames: { file: string; at: number }[] };
    expect(index.frames.map((f) => f.at)).toEqual([20, 19, 18, 17, 16]);
    expect(jpgs(dir)).toEqual(index.frames.map((f) => f.file).sort());
    // An index naming one file many times decodes it once.
    writeFileSync(path.join(dir, 'frames.json'), JSON.stringify({ frames: Array.from({ length: 500 }, () => index.frames[0]) }));
    decoded = 0;
    expect(await new RollFrames(dir, logger, { frames: 8 }).load(async () => (decoded++, { width: 1, height: 1, data: new Uint8Array(3) }))).toHaveLength(1);
    expect(decoded).toBe(1);
  });
});
