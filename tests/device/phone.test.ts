import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PhoneCamera } from '../../device/camera/phone.js';
import { FakeClock } from './support/fake-clock.js';
import { take } from './support/collect.js';

const jpeg = async () => new Uint8Array(await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } }).jpeg().toBuffer());

describe('phone camera', () => {
  it('accepts JPEG frames pushed from a phone and hands them to readers', async () => {
    const clock = new FakeClock();
    const camera = new PhoneCamera({ maxBytes: 100_000, maxFps: 5, clock });
    await camera.start();
    expect(camera.status()).toMatchObject({ ok: false, message: expect.stringMatching(/waiting/) });
    const reading = take(camera.frames(), 1);
    const frame = await jpeg();
    expect(camera.push(frame)).toEqual({ ok: true });
    const [got] = await reading;
    expect(got!.jpeg).toEqual(frame);
    expect(camera.status()).toMatchObject({ ok: true });
  });

  it('rejects what is not a whole JPEG, and frames over the size limit, changing nothing', async () => {
    const camera = new PhoneCamera({ maxBytes: 2_000, maxFps: 5, clock: new FakeClock() });
    await camera.start();
    const good = await jpeg();
    expect(camera.push(new TextEncoder().encode('<html>'))).toMatchObject({ ok: false, code: 'camera/not-jpeg' });
    expect(camera.push(good.slice(0, good.length - 10))).toMatchObject({ ok: false, code: 'camera/not-jpeg' });
    const big = new Uint8Array(3_000);
    big.set([0xff, 0xd8]);
    big.set([0xff, 0xd9], big.length - 2);
    expect(camera.push(big)).toMatchObject({ ok: false, code: 'camera/too-large', message: expect.stringMatching(/3000 bytes; the limit is 2000/) });
    expect(camera.delivered).toBe(0);
  });

  it('limits the frame rate: a burst beyond maxFps is refused until time passes', async () => {
    const clock = new FakeClock();
    const camera = new PhoneCamera({ maxBytes: 100_000, maxFps: 3, clock });
    await camera.start();
    const frame = await jpeg();
    const burst = Array.from({ length: 5 }, () => camera.push(frame).ok);
    expect(burst).toEqual([true, true, true, false, false]);
    expect(camera.push(frame)).toMatchObject({ code: 'rate/camera-frames' });
    clock.advance(400); // 1.2 tokens back at 3 per second
    expect(camera.push(frame).ok).toBe(true);
    expect(camera.push(frame).ok).toBe(false);
  });

  it('says so when the phone stops sending, and refuses frames when stopped', async () => {
    const clock = new FakeClock();
    const camera = new PhoneCamera({ maxBytes: 100_000, maxFps: 3, stallMs: 5000, clock });
    await camera.start();
    camera.push(await jpeg());
    clock.advance(7000);
    expect(camera.status()).toMatchObject({ ok: false, message: 'no frame from the phone for 7 s' });
    await camera.stop();
    expect(camera.push(await jpeg())).toMatchObject({ ok: false, code: 'camera/stopped' });
  });
});
