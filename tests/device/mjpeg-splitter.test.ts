import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MjpegSplitter } from '../../device/camera/mjpeg-splitter.js';
import { createRng } from '../../shared/rng.js';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/device/mjpeg/${name}`, import.meta.url)));
const A = fixture('a.jpg');
const B = fixture('b.jpg');
const PROGRESSIVE = fixture('progressive.jpg');
const THUMBNAIL = fixture('thumbnail.jpg');
const RESTART = fixture('restart.bin');

const cat = (...parts: (Uint8Array | number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

function splitAll(stream: Uint8Array, chunkSizes: (offset: number) => number = () => stream.length) {
  const splitter = new MjpegSplitter();
  const frames: Uint8Array[] = [];
  for (let at = 0; at < stream.length; ) {
    const n = Math.max(1, chunkSizes(at));
    frames.push(...splitter.push(stream.subarray(at, at + n)));
    at += n;
  }
  return { frames, stats: splitter.end() };
}

const hex = (frames: Uint8Array[]) => frames.map((f) => Buffer.from(f).toString('hex'));

describe('MJPEG splitter', () => {
  it('two frames back to back come out byte for byte', () => {
    const { frames, stats } = splitAll(cat(A, B));
    expect(hex(frames)).toEqual(hex([A, B]));
    expect(stats).toEqual({ frames: 2, garbageBytes: 0, truncated: 0, corrupt: 0 });
  });

  it('a frame split across chunks at every possible point', () => {
    const stream = cat(A, B);
    for (let cut = 1; cut < stream.length; cut++) {
      const { frames } = splitAll(stream, (at) => (at === 0 ? cut : stream.length));
      expect(hex(frames), `cut at ${cut}`).toEqual(hex([A, B]));
    }
  });

  it('one byte at a time', () => {
    expect(hex(splitAll(cat(A, PROGRESSIVE, B), () => 1).frames)).toEqual(hex([A, PROGRESSIVE, B]));
  });

  it('garbage before, between and after frames is dropped and counted (stray FF D9, FF, text)', () => {
    const junk1 = 'rpicam: warning\n';
    const junk2 = [0xff, 0xd9, 0x00, 0xff, 0x12, 0xff];
    const { frames, stats } = splitAll(cat(junk1, A, junk2, B, 'tail'));
    expect(hex(frames)).toEqual(hex([A, B]));
    expect(stats.garbageBytes).toBe(junk1.length + junk2.length + 4);
  });

  it('an EXIF thumbnail (a whole JPEG inside APP1) does not end the frame early', () => {
    // The fixture holds FF D9 well before its end: a search for EOI would cut it there.
    const firstEoi = Buffer.from(THUMBNAIL).indexOf(Buffer.from([0xff, 0xd9]));
    expect(firstEoi).toBeLessThan(THUMBNAIL.length - 2);
    const { frames } = splitAll(cat(THUMBNAIL, A), () => 7);
    expect(hex(frames)).toEqual(hex([THUMBNAIL, A]));
  });

  it('progressive frames (several DHT + SOS scans) stay whole and decode', async () => {
    const { frames } = splitAll(cat(PROGRESSIVE, PROGRESSIVE), () => 100);
    expect(frames).toHaveLength(2);
    const { info } = await sharp(frames[1]!).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([32, 32]);
  });

  it('stuffed FF 00, RST0–7 markers and fill FFs inside scan data are not frame ends', () => {
    const { frames, stats } = splitAll(cat(RESTART, A), () => 3);
    expect(hex(frames)).toEqual(hex([RESTART, A]));
    expect(stats.corrupt).toBe(0);
  });

  it('a truncated frame followed by a whole one: the cut frame is dropped, the next kept', () => {
    const { frames, stats } = splitAll(cat(A.subarray(0, 300), B, A));
    expect(hex(frames)).toEqual(hex([B, A]));
    expect(stats.truncated).toBe(1);
  });

  it('a frame cut inside a segment header whose bogus length swallows the next SOI is recovered', () => {
    // A's first segment header only, with its length bytes replaced by a huge length.
    const broken = cat(A.subarray(0, 4), [0xff, 0x00], [1, 2, 3]);
    const { frames, stats } = splitAll(cat(broken, B));
    expect(hex(frames)).toEqual(hex([B]));
    expect(stats.corrupt).toBe(1);
  });

  it('a broken APP1 length that swallows later frames: those frames are found again once the stream catches up', () => {
    const broken = cat([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xf0], 'not really exif');
    const after = Array.from({ length: 120 }, (_, i) => (i % 2 ? A : B));
    const { frames, stats } = splitAll(cat(broken, ...after), () => 4096);
    expect(hex(frames)).toEqual(hex(after));
    expect(stats.corrupt).toBe(1);
  });

  it('a frame larger than the limit is dropped and the stream goes on', () => {
    const splitter = new MjpegSplitter(1000);
    const big = cat(PROGRESSIVE.subarray(0, PROGRESSIVE.length - 2), new Uint8Array(2000), [0xff, 0xd9]);
    const out = [...splitter.push(big.subarray(0, 1500)), ...splitter.push(big.subarray(1500)), ...splitter.push(A)];
    expect(hex(out)).toEqual(hex([A]));
    expect(splitter.stats.corrupt).toBeGreaterThanOrEqual(1);
  });

  it('a frame still open when the stream ends counts as truncated', () => {
    const { frames, stats } = splitAll(cat(A, B.subarray(0, 100)));
    expect(frames).toHaveLength(1);
    expect(stats.truncated).toBe(1);
  });

  it('seeded random stream: 40 frames with noise between, random chunk sizes, all recovered exactly', () => {
    const rng = createRng('mjpeg-stream-1');
    const kinds = [A, B, PROGRESSIVE, THUMBNAIL, RESTART];
    const expected: Uint8Array[] = [];
    const parts: Uint8Array[] = [];
    for (let i = 0; i < 40; i++) {
      // Noise without an FF D8 in it (which would rightly start a frame).
      const noise = Array.from({ length: rng.int(0, 20) }, () => rng.int(0, 0xfe));
      parts.push(new Uint8Array(noise));
      const frame = rng.pick(kinds);
      parts.push(frame);
      expected.push(frame);
    }
    const stream = cat(...parts);
    const { frames, stats } = splitAll(stream, () => rng.int(1, 700));
    expect(hex(frames)).toEqual(hex(expected));
    expect(stats.truncated + stats.corrupt).toBe(0);
  });

  it('frames are copies: later chunks do not change a frame already returned', () => {
    const splitter = new MjpegSplitter();
    const [first] = splitter.push(cat(A));
    const copy = Buffer.from(first!);
    splitter.push(cat(B, A, B));
    expect(Buffer.from(first!).equals(copy)).toBe(true);
  });
});
