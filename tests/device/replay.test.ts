import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { looksLikeJpeg } from '../../device/camera/jpeg.js';
import { ReplayCamera, replayOrder } from '../../device/camera/replay.js';
import { DEFAULT_REPLAY_FOLDER } from '../../device/config.js';
import type { ReplayTruth, SettledDie } from '../../device/camera/make-replay.js';
import { COZY_REPLAY, FOUR_D6_REPLAY } from '../support/replays.js';
import { memoryLogger } from '../../device/log.js';
import { FakeClock } from './support/fake-clock.js';
import { flush, take } from './support/collect.js';
import { scratchDir } from '../support/scratch.js';

async function tinyFolder(): Promise<string> {
  const dir = scratchDir('clew-replay-');
  const solid = (r: number) => sharp({ create: { width: 8, height: 8, channels: 3, background: { r, g: 0, b: 0 } } });
  await writeFile(path.join(dir, 'f2.jpg'), await solid(20).jpeg().toBuffer());
  await writeFile(path.join(dir, 'f10.png'), await solid(200).png().toBuffer());
  await writeFile(path.join(dir, 'f1.jpg'), await solid(120).jpeg().toBuffer());
  await writeFile(path.join(dir, 'notes.txt'), 'not a frame');
  await writeFile(path.join(dir, 'broken.jpg'), 'this is not a jpeg');
  return dir;
}

const red = async (jpeg: Uint8Array) => (await sharp(jpeg).raw().toBuffer())[0]!;

const started: ReplayCamera[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
});

describe('replay camera', () => {
  it('plays frame files in natural name order, skipping other files', () => {
    expect(replayOrder(['f10.png', 'f2.jpg', 'notes.txt', 'f1.JPG', '.hidden.jpg', 'f3.jpeg'])).toEqual(['f1.JPG', 'f2.jpg', 'f3.jpeg', 'f10.png']);
  });

  it('loops the folder at the set fps, PNGs converted to JPEG, bad files skipped with a warning', async () => {
    const dir = await tinyFolder();
    const clock = new FakeClock();
    const log = memoryLogger();
    const camera = new ReplayCamera({ folder: dir, fps: 5, log, clock });
    started.push(camera);
    const reading = take(camera.frames(), 5);
    await camera.start();
    for (let i = 0; i < 4; i++) {
      await flush();
      clock.advance(200);
    }
    const frames = await reading;
    expect(frames.map((f) => f.at)).toEqual([0, 200, 400, 600, 800]);
    expect(frames.every((f) => looksLikeJpeg(f.jpeg))).toBe(true);
    const reds = await Promise.all(frames.map((f) => red(f.jpeg)));
    // f1 (120), f2 (20), f10 (200, from PNG), then f1 and f2 again: JPEG is lossy, so compare loosely.
    expect(reds.map((r) => Math.round(r / 10) * 10)).toEqual([120, 20, 200, 120, 20]);
    expect(log.messages('warn').join('\n')).toMatch(/broken\.jpg: not a JPEG or PNG/);
    expect(camera.status()).toMatchObject({ kind: 'replay', ok: true });
  });

  it('without loop, the stream ends after the last frame', async () => {
    const dir = await tinyFolder();
    const clock = new FakeClock();
    const camera = new ReplayCamera({ folder: dir, fps: 10, loop: false, clock });
    started.push(camera);
    const all: number[] = [];
    const reading = (async () => {
      for await (const f of camera.frames()) all.push(f.at);
    })();
    await camera.start();
    for (let i = 0; i < 6; i++) {
      await flush();
      clock.advance(100);
    }
    await reading;
    expect(all).toEqual([0, 100, 200]);
    expect(camera.status().message).toMatch(/finished/);
  });

  it('a missing folder is reported in status, not thrown', async () => {
    const log = memoryLogger();
    const camera = new ReplayCamera({ folder: '/nonexistent/clew-frames', fps: 2, log, clock: new FakeClock() });
    await camera.start();
    expect(camera.status()).toMatchObject({ ok: false });
    expect(camera.status().message).toMatch(/cannot read replay folder \/nonexistent\/clew-frames/);
    expect(log.messages('error')).toHaveLength(1);
  });

  it('an fps of zero is refused at construction', () => {
    expect(() => new ReplayCamera({ folder: '.', fps: 0 })).toThrow(/fps must be > 0/);
  });

  it('the shipped sequence: 12 small JPEG frames of a tray, dice moving then still', async () => {
    const scene = JSON.parse(await readFile(path.join(FOUR_D6_REPLAY, 'scene.json'), 'utf8')) as { movingFrames: number; stillFrames: number; settled: unknown[] };
    const clock = new FakeClock();
    const camera = new ReplayCamera({ folder: FOUR_D6_REPLAY, fps: 4, clock });
    started.push(camera);
    const reading = take(camera.frames(), 12);
    await camera.start();
    for (let i = 0; i < 11; i++) {
      await flush();
      clock.advance(250);
    }
    const frames = await reading;
    expect(frames).toHaveLength(scene.movingFrames + scene.stillFrames);
    expect(scene.settled).toHaveLength(4);
    const total = frames.reduce((n, f) => n + f.jpeg.length, 0);
    expect(total).toBeLessThan(1_000_000);
    const meta = await sharp(frames[0]!.jpeg).metadata();
    expect([meta.width, meta.height]).toEqual([640, 480]);
    // Still frames differ only by sensor noise; moving frames differ a lot.
    const pixels = await Promise.all(frames.map((f) => sharp(f.jpeg).greyscale().raw().toBuffer()));
    const diff = (a: Buffer, b: Buffer) => a.reduce((s, v, i) => s + Math.abs(v - b[i]!), 0) / a.length;
    expect(diff(pixels[1]!, pixels[2]!)).toBeGreaterThan(3 * diff(pixels[8]!, pixels[9]!));
  });

  it('the default replay is the default game’s rolls in turn: each three d6, exactly one red (Worm & Cozy’s shape die), each roll another, in small frames', async () => {
    expect(DEFAULT_REPLAY_FOLDER).toBe(COZY_REPLAY);
    const scene = JSON.parse(await readFile(path.join(DEFAULT_REPLAY_FOLDER, 'scene.json'), 'utf8')) as ReplayTruth;
    if (!('rolls' in scene)) throw new Error('the default replay is several rolls');
    // One roll looped is offered once: the camera does not offer the dice it read last again.
    expect(scene.rolls.length).toBeGreaterThanOrEqual(2);
    const perRoll = scene.movingFrames + scene.stillFrames;
    const frames = replayOrder(await readdir(DEFAULT_REPLAY_FOLDER));
    expect(frames).toHaveLength(scene.rolls.length * perRoll);
    scene.rolls.forEach((roll, i) => {
      expect(roll.settled.map((d) => d.set)).toEqual(['d6', 'd6', 'd6']);
      expect(roll.settled.filter((d) => d.color === 'red')).toHaveLength(1);
      // Roll i is frames i·12 to i·12+11, in play order.
      expect(roll.frames.map((n) => `frame-${n}.jpg`)).toEqual([frames[i * perRoll], frames[(i + 1) * perRoll - 1]]);
    });
    // Each roll differs from the one before it (the first from the last, as the replay loops).
    const dice = (settled: SettledDie[]) => settled.map((d) => `${d.face} ${d.color} ${d.box.join(',')}`).sort();
    scene.rolls.forEach((roll, i) => expect(dice(roll.settled)).not.toEqual(dice(scene.rolls.at(i - 1)!.settled)));
    const sizes = await Promise.all(frames.map(async (f) => (await stat(path.join(DEFAULT_REPLAY_FOLDER, f))).size));
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(1_000_000);
  });

  /** Plays `folder` at 4 fps on a fake clock; `step(i)` runs before frame i is due. Says each frame's file name. */
  async function play(folder: string, count: number, step: (i: number, camera: ReplayCamera) => void = () => {}): Promise<string[]> {
    const names = replayOrder(await readdir(folder));
    const files = await Promise.all(names.map(async (n) => new Uint8Array(await readFile(path.join(folder, n)))));
    const clock = new FakeClock();
    const camera = new ReplayCamera({ folder, fps: 4, clock });
    started.push(camera);
    const reading = take(camera.frames(), count);
    await camera.start();
    for (let i = 1; i < count; i++) {
      await flush();
      step(i, camera);
      clock.advance(250);
    }
    return (await reading).map((f) => names[files.findIndex((b) => Buffer.compare(b, f.jpeg) === 0)]!);
  }

  it('a replay of several rolls plays a roll once and holds its still frame until dice are wanted, then plays the next, round and round', async () => {
    const names = replayOrder(await readdir(DEFAULT_REPLAY_FOLDER));
    expect(names).toHaveLength(24);
    const [a, b] = [names.slice(0, 12), names.slice(12, 24)];
    // Dice wanted at frame 20 (roll A's last frame held since frame 11) and at frame 45 (roll B's
    // since 32); once more at frame 50 while roll A plays: A is played to its end, then B at once.
    const played = await play(DEFAULT_REPLAY_FOLDER, 70, (i, camera) => [20, 45, 50].includes(i) && camera.replayDiceWanted());
    const held = (frame: string, n: number) => Array<string>(n).fill(frame);
    expect(played).toEqual([...a, ...held(a[11]!, 9), ...b, ...held(b[11]!, 13), ...a, ...b]);
  });

  it('a replay without rolls in scene.json loops all its frames, dice wanted or not', async () => {
    const names = replayOrder(await readdir(FOUR_D6_REPLAY));
    const played = await play(FOUR_D6_REPLAY, 30, (i, camera) => i % 5 === 0 && camera.replayDiceWanted());
    expect(played).toEqual([...names, ...names, ...names.slice(0, 6)]);
  });
});
