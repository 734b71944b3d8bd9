import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessCamera } from '../../device/camera/process-camera.js';
import { createRpicamCamera, rpicamArgs } from '../../device/camera/rpicam.js';
import { systemClock } from '../../device/clock.js';
import { memoryLogger } from '../../device/log.js';
import { FakeClock } from './support/fake-clock.js';
import { take } from './support/collect.js';
import { FRAME_A, FRAME_B, fakeBin, until } from './support/fake-bin.js';

const A = new Uint8Array(readFileSync(FRAME_A));
const B = new Uint8Array(readFileSync(FRAME_B));
const restart = { minMs: 50, maxMs: 400 };

const cameras: ProcessCamera[] = [];
afterEach(async () => {
  await Promise.all(cameras.splice(0).map((c) => c.stop()));
});

function rpicam(bin: string, overrides: Partial<{ stallMs: number; clock: typeof systemClock }> = {}) {
  const log = memoryLogger();
  const camera = createRpicamCamera({ bin, width: 640, height: 480, fps: 30, stallMs: 2000, restart, log, clock: systemClock, ...overrides });
  cameras.push(camera);
  return { camera, log };
}

describe('process camera (rpicam-vid / ffmpeg supervised)', () => {
  it('streams whole JPEG frames from the process stdout, with the rpicam command line', async () => {
    const fake = fakeBin({ programs: ['rpicam-vid'], runs: ['stream'] });
    const { camera } = rpicam(fake.bin('rpicam-vid'));
    const reading = take(camera.frames(), 4);
    await camera.start();
    const frames = await reading;
    expect(frames.map((f) => Buffer.from(f.jpeg).equals(Buffer.from(frames.indexOf(f) % 2 ? B : A)))).toEqual([true, true, true, true]);
    expect(camera.status()).toMatchObject({ kind: 'rpicam', ok: true, message: 'streaming from rpicam-vid' });
    expect(fake.runs()).toEqual([{ name: 'rpicam-vid', args: rpicamArgs({ width: 640, height: 480, fps: 30 }) }]);
  });

  it('a process that dies is reported with its last stderr line and restarted; frames go on', async () => {
    const fake = fakeBin({ programs: ['rpicam-vid'], runs: ['die', 'stream'] });
    const { camera, log } = rpicam(fake.bin('rpicam-vid'));
    const reading = take(camera.frames(), 5);
    await camera.start();
    await reading;
    expect(fake.runs()).toHaveLength(2);
    expect(log.messages('warn').join('\n')).toMatch(/rpicam-vid exited \(code 3\): ERROR: camera vanished; retrying in 50 ms/);
    expect(camera.status().ok).toBe(true);
  });

  it('a process that stops delivering frames is killed and restarted', async () => {
    const fake = fakeBin({ programs: ['rpicam-vid'], runs: ['stall', 'stream'] });
    // The restarted stand-in sends a frame every 15 ms; a loaded machine can hold one back for a few
    // hundred, which must not count as a second stall (the run count is checked below).
    const { camera, log } = rpicam(fake.bin('rpicam-vid'), { stallMs: 1500 });
    const reading = take(camera.frames(), 3);
    await camera.start();
    await reading;
    expect(fake.runs()).toHaveLength(2);
    expect(log.messages('warn').join('\n')).toMatch(/no frame from rpicam-vid for 1\.5 s; restarting it/);
  });

  it('a missing program: status says not found, retries back off 50 → 100 → 200 → 400 → 400 ms', async () => {
    const clock = new FakeClock();
    const { camera, log } = rpicam('/nonexistent/rpicam-vid', { clock });
    await camera.start();
    const retries = () => log.messages('warn').filter((m) => m.includes('retrying'));
    for (let i = 1; i <= 5; i++) {
      await until(() => retries().length === i, `retry ${i}`);
      clock.advance(1000);
    }
    expect(retries()).toEqual(
      ['50 ms', '100 ms', '200 ms', '400 ms', '400 ms'].map((d) => `camera rpicam: rpicam-vid not found (is it installed and on PATH?); retrying in ${d}`),
    );
  });

  it('stopping a camera whose program is missing, before Node has said so, signals no one else', async () => {
    // ChildProcess.kill() on a spawn that failed calls kill(0, …), which signals the whole process
    // group (the server and the shell or service that started it). Run where that can do no harm:
    // a process group of its own, which reports any SIGTERM it gets.
    const script = fileURLToPath(new URL('../fixtures/device/stop-missing-program.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code, err).toBe(0);
    expect(out).toContain('signalled: false');
    expect(out).toContain('camera: stopped');
    expect(out).not.toContain('SIGTERM');
  });

  it('a program that fails at once is retried, and stop() ends everything', async () => {
    const fake = fakeBin({ programs: ['rpicam-vid'], runs: ['fail'] });
    const { camera, log } = rpicam(fake.bin('rpicam-vid'));
    await camera.start();
    await until(() => fake.runs().length >= 3, 'three attempts');
    expect(log.messages('warn').join('\n')).toMatch(/exited \(code 1\): ERROR: \*\*\* no cameras available \*\*\*/);
    await camera.stop();
    const attempts = fake.runs().length;
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.runs().length).toBe(attempts);
    expect(camera.status()).toMatchObject({ ok: false, message: 'stopped' });
  });

  it('a finite process (a video played once) ends the stream on a normal exit; a live camera is restarted', async () => {
    const fake = fakeBin({ programs: ['ffmpeg'], runs: ['end'] });
    const once = new ProcessCamera('replay', { bin: fake.bin('ffmpeg'), args: ['-i', 'tray.mp4'], stallMs: 2000, restart, log: memoryLogger(), clock: systemClock, finite: true });
    cameras.push(once);
    const frames: number[] = [];
    const reading = (async () => {
      for await (const f of once.frames()) frames.push(f.jpeg.length);
    })();
    await once.start();
    await reading;
    expect(frames).toEqual([A.length, B.length, A.length]);
    expect(once.status()).toMatchObject({ ok: true, message: 'ffmpeg finished' });
    expect(fake.runs()).toHaveLength(1);

    const live = fakeBin({ programs: ['rpicam-vid'], runs: ['end', 'stream'] });
    const { camera } = rpicam(live.bin('rpicam-vid'));
    const reading2 = take(camera.frames(), 5);
    await camera.start();
    await reading2;
    expect(live.runs()).toHaveLength(2);
  });

  it('stop() kills a streaming process and ends every reader', async () => {
    const fake = fakeBin({ programs: ['ffmpeg'], runs: ['stream'] });
    const camera = new ProcessCamera('v4l2', { bin: fake.bin('ffmpeg'), args: ['-f', 'mjpeg', '-'], stallMs: 2000, restart, log: memoryLogger(), clock: systemClock });
    cameras.push(camera);
    let count = 0;
    const reading = (async () => {
      for await (const _ of camera.frames()) count++;
    })();
    await camera.start();
    await until(() => count >= 2, 'two frames');
    await camera.stop();
    await reading;
    expect(camera.status().message).toBe('stopped');
  });
});
