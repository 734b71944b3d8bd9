/**
 * The camera pipeline at its edges: a camera that stopped delivering leaves its last frame
 * behind, and READ must not make that old frame (often the roll before) the roll now; the
 * stream made for the next player's dice must not report the dice already lying on the tray.
 * The replay camera (device/camera/replay.ts) and the stream reader (vision/stream.ts) are real;
 * the reader behind the stream reports a die wherever the frame is dark, so the test is exact.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_REPLAY_FOLDER } from '../../device/config.js';
import { ReplayCamera } from '../../device/camera/replay.js';
import type { DetailedReading } from '../../vision/reader.js';
import type { ClewDiceReader } from '../../vision/reader.js';
import type { ReadOptions, RgbImage } from '../../vision/types.js';
import { CameraPipeline, type RollStream } from '../../web/server/camera.js';
import type { Logger } from '../../web/server/logger.js';
import { visionRollStream } from '../../web/server/roll-stream.js';

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
    const camera = new ReplayCamera({ folder: DEFAULT_REPLAY_FOLDER, fps: 20, loop: true });
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

describe('the stream reader behind the camera pipeline', () => {
  it('when the game asks for the next player\'s die, the die already reported is not reported again; the next roll is', async () => {
    const { reader, asked } = darkReader();
    const stream = visionRollStream(reader);
    const red = { sets: ['d6'], palette: ['red'] } as ReadOptions, blue = { sets: ['d6'], palette: ['blue'] } as ReadOptions;
    const reported: string[] = [];
    let t = 0;
    const push = async (x: number, options: ReadOptions) => {
      const dice = await stream.push(tray(x), (t += 33), options);
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
