/**
 * A camera runs for hours: the pipeline must hold only the newest frames, not every frame it saw.
 * (Its wait for the next frame raced one promise that lived as long as the pipeline, and each
 * race left a reaction on it holding that frame: about a JPEG a frame, gigabytes an hour at the
 * Pi camera's 10 frames a second.) The frames here are tracked by weak references, and a garbage
 * collection must take all but the last few.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { FrameHub } from '../../device/camera/frame-hub.js';
import type { CameraSource } from '../../device/select.js';
import { CameraPipeline } from '../../web/server/camera.js';
import { collectingLogger } from '../../web/server/logger.js';
import { TableSession } from '../../web/server/session.js';
import { raceOnly, RACE } from '../support/games.js';
import { scratchDir } from '../support/scratch.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('a camera pipeline over many frames', () => {
  it.each(['no dice expected', 'dice expected'] as const)('keeps only the newest frames (%s)', async (mode) => {
    const logger = collectingLogger();
    const session = await TableSession.open({ dataDir: scratchDir('clew-camera-memory-'), games: raceOnly, initialGame: { game: RACE, options: {} }, onCorrupt: 'recover', compactEvery: 1000, logger, now: Date.now });
    // Rolled: the race game expects no dice until the next turn.
    if (mode === 'no dice expected') await session.submit({ kind: 'referee' }, { version: session.table.version, intent: { type: 'move', move: { type: 'roll', player: 'ann', face: 1 } } });
    const hub = new FrameHub();
    const source: CameraSource = { kind: 'fake', start: async () => {}, stop: async () => hub.close(), frames: () => hub.frames(), status: () => ({ kind: 'fake', ok: true, message: 'ok' }), latest: () => hub.latest() };
    const pipeline = new CameraPipeline({
      source, kind: 'camera', session, games: raceOnly, logger,
      decode: async () => ({ width: 4, height: 4, data: new Uint8Array(48) }),
      stream: async () => ({ push: async () => null, readNow: async () => [], reset: () => {} }),
    });
    close = async () => {
      await pipeline.stop();
      await session.close();
    };
    pipeline.start();
    const seen: WeakRef<Uint8Array>[] = [];
    for (let i = 0; i < 400; i++) {
      const jpeg = new Uint8Array(1000);
      seen.push(new WeakRef(jpeg));
      hub.publish({ jpeg, at: performance.now() });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    gc();
    const alive = seen.filter((r) => r.deref() !== undefined).length;
    // The newest frame, one being worked on, and those the hub or a settle vote may still hold.
    expect(alive).toBeLessThanOrEqual(10);
  });
});
