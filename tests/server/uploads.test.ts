/**
 * Uploaded pictures (`POST /api/dice/read`, `POST /api/sheet/read`): read one at a time, past a
 * short queue told to come back (503, Retry-After); boxes of a picture read shrunk given in the
 * picture's own pixels; the two readers answering a picture over 100 MP or an SVG alike; `set=`
 * read as the command line reads `--set`; a body over the limit told what to do.
 */
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiceSetId } from '../../shared/dice.js';
import type { ClewDiceReader } from '../../vision/reader.js';
import type { DieReading, RgbImage } from '../../vision/types.js';
import type { ReaderHolder } from '../../web/server/dice-reader.js';
import { readUpload } from '../../web/server/dice-upload.js';
import { createHttpApp, type DiceReadResult, type HttpDeps } from '../../web/server/http.js';
import { silentLogger } from '../../web/server/logger.js';
import { UploadQueue } from '../../web/server/upload-queue.js';

type Server = ReturnType<ReturnType<typeof createHttpApp>['listen']>;
const servers: Server[] = [];
afterEach(async () => {
  // A test that failed while a read was held leaves its request open: closed with the server.
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => (s.close(() => r()), s.closeAllConnections()))));
});

async function serve(deps: Partial<HttpDeps>): Promise<string> {
  const app = createHttpApp({
    snapshot: () => ({}) as never,
    health: () => ({}) as never,
    defaultSets: () => ['d6'],
    clientDir: path.join(tmpdir(), 'clew-no-client'),
    imageBytes: 8_000_000,
    // Many requests at once from one address here: the per-address rate is not what is tested.
    readsPerSecond: 1000,
    logger: silentLogger,
    ...deps,
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((r) => server.once('listening', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A promise and the function that settles it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

const ok = (file: string): DiceReadResult => ({ ok: true, json: { file, dice: [] } });

describe('the upload queue', () => {
  it('runs one job at a time, in the order they came; a job that fails hands on its turn', async () => {
    const queue = new UploadQueue({ maxWaiting: 8, maxWaitMs: 60_000 });
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const job = (n: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      order.push(n);
      running--;
      if (n === 2) throw new Error('a corrupt picture');
      return n;
    };
    const turns = await Promise.all([1, 2, 3, 4].map((n) => queue.run(job(n)).catch((e: Error) => e.message)));
    expect(turns).toEqual([{ ok: true, value: 1 }, 'a corrupt picture', { ok: true, value: 3 }, { ok: true, value: 4 }]);
    expect(order).toEqual([1, 2, 3, 4]);
    expect(most).toBe(1);
    expect(await queue.run(async () => 'free again')).toEqual({ ok: true, value: 'free again' });
  });

  it('refuses one more than may wait at once, and one that waited too long; the one that waited too long does not run', async () => {
    const queue = new UploadQueue({ maxWaiting: 1, maxWaitMs: 20 });
    const first = gate();
    let ranLate = false;
    const reading = queue.run(() => first.opened.then(() => 'first'));
    const waiting = queue.run(async () => (ranLate = true));
    expect(await queue.run(async () => 'third')).toEqual({ ok: false, reason: 'full' });
    expect(await waiting).toEqual({ ok: false, reason: 'waited' });
    expect(queue.waitingCount).toBe(0);
    first.open();
    expect(await reading).toEqual({ ok: true, value: 'first' });
    expect(ranLate).toBe(false);
  });
});

describe('POST /api/dice/read and /api/sheet/read, several at once', () => {
  it('five dice uploads and a sheet at once are read one at a time, and all answered', async () => {
    let running = 0;
    let most = 0;
    // Each read lasts until another is seen running beside it, or 150 ms: long enough for all six to come in.
    const busy = async <T>(value: T): Promise<T> => {
      running++;
      most = Math.max(most, running);
      for (let t = 0; t < 15 && running < 2; t++) await new Promise((r) => setTimeout(r, 10));
      running--;
      return value;
    };
    const base = await serve({ readDice: (_image, o) => busy(ok(o.file)), readSheet: () => busy({ ok: true, json: { read: 'sheet' } }) });
    const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#888' } }).jpeg().toBuffer();
    const answers = await Promise.all([
      ...[1, 2, 3, 4, 5].map((n) => fetch(`${base}/api/dice/read?file=${n}`, { method: 'POST', body: jpeg })),
      fetch(`${base}/api/sheet/read?chapter=clew-3`, { method: 'POST', body: jpeg }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(most).toBe(1);
  });

  it('past the queue, an upload is told the table is busy and when to try again (503, Retry-After)', async () => {
    const first = gate();
    const started = gate();
    const base = await serve({
      // None may wait: the one after the one being read is refused.
      uploads: { maxWaiting: 0, maxWaitMs: 60_000 },
      readDice: async (_image, o) => {
        started.open();
        if (o.file === 'first') await first.opened;
        return ok(o.file);
      },
    });
    const post = (file: string) => fetch(`${base}/api/dice/read?file=${file}`, { method: 'POST', body: Buffer.from([0xff, 0xd8, 0xff]) });
    const reading = post('first');
    await started.opened;
    const second = await post('second');
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('10');
    expect(await second.json()).toEqual({ code: 'server/busy', message: 'the table is reading other pictures (too many are waiting); send it again in 10 seconds' });
    first.open();
    expect((await reading).status).toBe(200);
    expect((await post('third')).status).toBe(200);
  });
});

describe('POST /api/dice/read: what is asked', () => {
  it('set=d6, (a trailing comma) is read as the command line reads --set d6,; set=, names no set', async () => {
    const asked: DiceSetId[][] = [];
    const base = await serve({ readDice: async (_image, o) => (asked.push(o.sets), ok(o.file)) });
    const post = (query: string) => fetch(`${base}/api/dice/read${query}`, { method: 'POST', body: Buffer.from([0xff, 0xd8, 0xff]) });
    expect((await post('?set=d6,')).status).toBe(200);
    expect((await post('?set=d6,,worm')).status).toBe(200);
    expect(asked).toEqual([['d6'], ['d6', 'worm']]);
    const none = await post('?set=,');
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ code: 'dice/bad-set', message: 'set= names one or more dice sets, comma separated' });
  });

  it('a body over the limit is told its size, the limit, and what to do', async () => {
    const base = await serve({ imageBytes: 2_000_000, readDice: async (_image, o) => ok(o.file), readSheet: async () => ({ ok: true, json: {} }) });
    for (const route of ['dice/read?set=d6', 'sheet/read?chapter=clew-3']) {
      const res = await fetch(`${base}/api/${route}`, { method: 'POST', body: Buffer.alloc(2_600_000, 1) });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        code: 'payload/too-large',
        message: 'the picture is too big to send (2.6 MB): this table takes at most 2 MB. Take the photo at a lower resolution (12 MP is plenty), or share a smaller copy of it',
      });
    }
  });
});

describe('the sheet reader answers as the dice reader does', () => {
  /** A JPEG whose header says it is `width`×`height` (its pixels are 64×48). */
  async function jpegSaying(width: number, height: number): Promise<Buffer> {
    const out = Buffer.from(await sharp({ create: { width: 64, height: 48, channels: 3, background: '#777' } }).jpeg().toBuffer());
    for (let at = 2; ; at += 2 + out.readUInt16BE(at + 2)) {
      if (out[at + 1]! >= 0xc0 && out[at + 1]! <= 0xc2) {
        out.writeUInt16BE(height, at + 5);
        out.writeUInt16BE(width, at + 7);
        return out;
      }
    }
  }

  it('a picture over 100 MP is 413 photo/too-large, and an SVG drawing 415, both before the reader is asked', async () => {
    let asked = 0;
    const base = await serve({ readSheet: async () => (asked++, { ok: true, json: {} }) });
    const huge = await fetch(`${base}/api/sheet/read?chapter=clew-3`, { method: 'POST', body: await jpegSaying(12000, 9000) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ code: 'photo/too-large', message: 'the photo is too large to read: 12000×9000 pixels (108 MP; at most 100 MP). Send a smaller picture' });
    const svg = await fetch(`${base}/api/sheet/read?chapter=clew-3`, { method: 'POST', body: '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"/>' });
    expect(svg.status).toBe(415);
    expect(await svg.json()).toMatchObject({ code: 'photo/unreadable', message: expect.stringMatching(/^the photo is not an image clew can read \(JPEG, PNG, WebP, GIF, TIFF, AVIF; this is an SVG drawing/) });
    expect(asked).toBe(0);
  });
});

describe('readUpload: boxes in the picture\'s own pixels', () => {
  /** A reader that "finds" one die in the middle quarter of whatever picture it is given. */
  const middleReader = {
    read: async (image: RgbImage): Promise<DieReading[]> => [
      { set: 'd6', face: '4', confidence: 0.9, uncertain: false, box: [image.width / 4, image.height / 4, image.width / 2, image.height / 2] },
    ],
  } as unknown as ClewDiceReader;
  const holder = { get: async () => middleReader } as unknown as ReaderHolder;

  it('a picture over 24 MP, read shrunk and stored on its side, answers boxes in its upright full-size pixels', async () => {
    // 4,100×6,000 as stored (24.6 MP, just over), EXIF orientation 6: 6,000×4,100 upright. Plain grey, small as a file.
    const photo = await sharp({ create: { width: 4100, height: 6000, channels: 3, background: '#7a7a7a' } }).withMetadata({ orientation: 6 }).jpeg({ quality: 70 }).toBuffer();
    const answer = await readUpload(holder, photo, { sets: ['d6'], crop: false, file: 'phone.jpg' });
    expect(answer).toMatchObject({ ok: true, json: { file: 'phone.jpg', dice: [{ face: '4', box: [1500, 1025, 3000, 2050] }] } });
  });

  it('an SVG drawing is refused (415), not drawn by librsvg', async () => {
    const answer = await readUpload(holder, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"/>'), { sets: ['d6'], crop: false, file: 'drawing.svg' });
    expect(answer).toMatchObject({ ok: false, status: 415, code: 'photo/unsupported', message: expect.stringMatching(/^the image could not be read: it is not an image clew can read .*this is an SVG drawing/) });
  });
});
