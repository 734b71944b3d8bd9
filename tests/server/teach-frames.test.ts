/**
 * Teaching from the frames rolls were read from, with BACK in the way: a roll BACK brings back is
 * cropped and labelled from its own frame, not the last roll's; a die is labelled once, and a die
 * labelled on the Teach tab is not taught again when its roll is used; a final roll BACK brings
 * back is taken back, after a restart too. The server, the socket and the camera pipeline are
 * real; the camera's frames are plain red or blue pictures, the stream reads one die (a 2 on red,
 * a 5 on blue), and the reader's calibration records what it is taught (its labels pending over a
 * restart, each with a file in the pending folder named by its number, as the reader's crops are).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeImage, encodeJpeg } from '../../vision/image/index.js';
import type { ClewDiceReader } from '../../vision/reader.js';
import type { RgbImage } from '../../vision/types.js';
import type { RollStream } from '../../web/server/camera.js';
import type { Phone } from '../support/phone.js';
import { scratchDir } from '../support/scratch.js';
import { settableCamera } from '../support/settable-camera.js';
import { startTestServer, type TestServer } from '../support/server.js';

const solid = (r: number, g: number, b: number): RgbImage => {
  const data = new Uint8Array(64 * 48 * 3);
  for (let i = 0; i < 64 * 48; i++) data.set([r, g, b], i * 3);
  return { width: 64, height: 48, data };
};
const colourOf = (img: RgbImage) => (img.data[0]! > img.data[2]! ? 'red' : 'blue');

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function table() {
  const { camera, show: showFrame } = settableCamera();
  const stream: RollStream = {
    push: async () => null,
    readNow: async (image) => [{ set: 'd6', face: colourOf(image) === 'red' ? '2' : '5', confidence: 0.99, box: [10, 10, 40, 40], uncertain: false }],
    reset: () => {},
  };
  const taught: string[] = [];
  // The labels pending, as vision/calibrations.ts keeps them: a label can be withdrawn while
  // pending, and its crop is on disk, named by its number.
  const pending: { label: number; face: string; what: string }[] = [];
  let next = 1;
  const dataDir = scratchDir('clew-teach-frames-');
  const cropFile = (set: string, p: { label: number; face: string }) => path.join(dataDir, 'calibration', 'pending', set, `${String(p.label).padStart(6, '0')}-${p.face}.png`);
  const counts = () => Object.fromEntries(['1', '2', '3', '4', '5', '6'].map((f) => [f, pending.filter((p) => p.face === f).length]));
  const reader = {
    modelId: 'stand-in', backend: 'cpu', threads: 1, uncertainBelow: 0.85, dispose() {},
    calibration: {
      add: async (set: string, face: string, image: RgbImage) => {
        const what = `${face} from ${colourOf(image)}`;
        taught.push(what);
        pending.push({ label: next, face, what });
        mkdirSync(path.dirname(cropFile(set, pending.at(-1)!)), { recursive: true });
        writeFileSync(cropFile(set, pending.at(-1)!), '');
        return { set, counts: counts(), label: next++ };
      },
      withdraw: async (set: string, label: number) => {
        const at = pending.findIndex((p) => p.label === label);
        if (at >= 0) rmSync(cropFile(set, pending.splice(at, 1)[0]!));
        return { set, counts: counts(), withdrawn: at >= 0 };
      },
      pending: (set: string) => ({ set, counts: counts() }),
      list: () => [],
    },
  } as unknown as ClewDiceReader;
  let referee: Phone;
  const start = async () => {
    server = await startTestServer({ dataDir, config: { vision: { enabled: true, learnFromChecks: true } }, adapters: { camera }, start: { loadReader: async () => reader, rollStream: () => stream } });
    referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    await referee.snapshot((x) => x.version === server!.clew.session.table.version);
  };
  await start();
  /** clew stopped and started again on the same data folder (the camera's frames are gone). */
  const restart = async (whileStopped?: () => void) => {
    await server!.stop();
    whileStopped?.();
    await start();
  };
  const s = { get url() { return server!.url; }, get clew() { return server!.clew; }, dataDir };
  const send = async (intent: Parameters<Phone['send']>[0]) => {
    const ack = await referee.send(intent);
    await referee.snapshot((x) => x.version === s.clew.session.table.version);
    return ack;
  };
  const show = async (colour: 'red' | 'blue', at: number) => {
    showFrame({ jpeg: await encodeJpeg(colour === 'red' ? solid(220, 20, 20) : solid(20, 20, 220), 90), at });
  };
  const crop = async (index: number) => {
    const res = await fetch(`${s.url}/api/camera/crop?index=${index}`);
    return res.ok ? colourOf(await decodeImage(new Uint8Array(await res.arrayBuffer()))) : `HTTP ${res.status}`;
  };
  const version = () => s.clew.session.table.version;
  const roll = () => s.clew.session.table.roll;
  const inPlay = () => {
    const file = path.join(s.dataDir, 'dice-in-play.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { d6?: { dice: number; right: number; wrongUnmarked: number } }).d6 : undefined;
  };
  return { send, show, crop, taught, pending, version, roll, inPlay, restart, dataDir, logger: () => server!.logger };
}

describe('teaching from the frame each roll was read from', () => {
  it('a roll BACK brings back is cropped and labelled from its own frame; a die is labelled once; a labelled die is not taught again from play', async () => {
    const t = await table();
    await t.show('red', 1);
    expect(await t.send({ type: 'dice/read' })).toMatchObject({ ok: true });
    expect(await t.send({ type: 'dice/confirm' })).toMatchObject({ ok: true });
    expect(await t.send({ type: 'button', button: 'NEXT' })).toMatchObject({ ok: true });
    await t.show('blue', 2);
    expect(await t.send({ type: 'dice/read' })).toMatchObject({ ok: true });
    // BACK twice: the red roll is pending again, after the blue one was read.
    await t.send({ type: 'undo' });
    await t.send({ type: 'undo' });
    expect(await t.crop(0)).toBe('red');
    expect(await t.send({ type: 'calibration/label', set: 'd6', index: 0, face: '2' })).toMatchObject({ ok: true });
    expect(t.taught).toEqual(['2 from red']);
    // The table changes (a correction), and the same die is labelled the same again: refused, not counted twice.
    await t.send({ type: 'dice/correct', index: 0, face: '2', color: 'red' });
    expect(await t.send({ type: 'calibration/label', set: 'd6', index: 0, face: '2' })).toMatchObject({ ok: false, code: 'calibration/already-labelled', message: 'die 1 of this roll is labelled 2 already' });
    // Used, and the game moves on: the corrected die is checked in play, but labelled already.
    await t.send({ type: 'dice/confirm' });
    await t.send({ type: 'button', button: 'NEXT' });
    await t.show('red', 3);
    await t.send({ type: 'dice/read' });
    await new Promise((r) => setTimeout(r, 300));
    expect(t.taught).toEqual(['2 from red']);
  });

  it('a die labelled again with another face replaces its first label (a mis-tap corrected); the same face again is refused', async () => {
    const t = await table();
    await t.show('red', 1);
    expect(await t.send({ type: 'dice/read' })).toMatchObject({ ok: true });
    expect(await t.send({ type: 'calibration/label', set: 'd6', index: 0, face: '3' })).toMatchObject({ ok: true });
    expect(t.pending.map((p) => p.what)).toEqual(['3 from red']);
    // The referee saw the mis-tap: the die shows 2, as the camera read it.
    expect(await t.send({ type: 'calibration/label', set: 'd6', index: 0, face: '2' })).toMatchObject({ ok: true });
    expect(t.pending.map((p) => p.what)).toEqual(['2 from red']);
    expect(await t.send({ type: 'calibration/label', set: 'd6', index: 0, face: '2' })).toMatchObject({ ok: false, code: 'calibration/already-labelled' });
    // And back again: still one label of the die.
    expect(await t.send({ type: 'calibration/label', set: 'd6', index: 0, face: '3' })).toMatchObject({ ok: true });
    expect(t.pending.map((p) => p.what)).toEqual(['3 from red']);
  });

  it('READ of the same dice again keeps the pending roll and its corrections; READ of other dice replaces it', async () => {
    const t = await table();
    await t.show('red', 1);
    const read = await t.send({ type: 'dice/read' });
    expect(read).toMatchObject({ ok: true });
    await t.send({ type: 'dice/correct', index: 0, face: '3', color: 'red' });
    const corrected = t.version();
    expect(await t.send({ type: 'dice/read' })).toMatchObject({ ok: true, version: corrected });
    expect(t.roll()?.dice[0]).toMatchObject({ face: '3', corrected: true, readAs: '2' });
    await t.show('blue', 2);
    expect(await t.send({ type: 'dice/read' })).toMatchObject({ ok: true, version: corrected + 1 });
    expect(t.roll()?.dice[0]).toMatchObject({ face: '5' });
    expect(t.roll()?.dice[0]?.corrected).toBeUndefined();
  });

  it('a used roll made final by the next roll and then brought back by BACK: its count and its label are taken back, so the mended roll counts once and teaches its right face only', async () => {
    const t = await table();
    await t.show('red', 1);
    await t.send({ type: 'dice/read' }); // the camera reads a 2
    await t.send({ type: 'dice/correct', index: 0, face: '3', color: 'red' }); // a mis-tap "corrects" it to 3
    await t.send({ type: 'dice/confirm' }); // used: held
    await t.send({ type: 'button', button: 'NEXT' });
    await t.show('blue', 2);
    await t.send({ type: 'dice/read' }); // the next roll: the used one is final (counted, its 3 taught)
    await vi.waitFor(() => expect(t.pending.map((p) => p.what)).toEqual(['3 from red']));
    await vi.waitFor(() => expect(t.inPlay()).toMatchObject({ dice: 1, wrongUnmarked: 1 }));
    // BACK twice: the red roll is pending again, still corrected to 3.
    await t.send({ type: 'undo' });
    await t.send({ type: 'undo' });
    expect(t.roll()?.dice[0]).toMatchObject({ face: '3', corrected: true });
    await vi.waitFor(() => expect(t.pending).toEqual([]));
    await vi.waitFor(() => expect(t.inPlay()).toMatchObject({ dice: 0, wrongUnmarked: 0 }));
    // Mended and used again; the game moves on.
    await t.send({ type: 'dice/correct', index: 0, face: '2', color: 'red' });
    await t.send({ type: 'dice/confirm' });
    await t.send({ type: 'button', button: 'NEXT' });
    await t.show('blue', 3);
    await t.send({ type: 'dice/read' });
    await vi.waitFor(() => expect(t.inPlay()).toMatchObject({ dice: 1, right: 1, wrongUnmarked: 0 }));
    // Corrected back to what the camera read: a checked die, taught as 2.
    await vi.waitFor(() => expect(t.pending.map((p) => p.what)).toEqual(['2 from red']));
  });

  it('a used roll made final before a restart and brought back by BACK after it: its count and its label are taken back all the same', async () => {
    const t = await table();
    await t.show('red', 1);
    await t.send({ type: 'dice/read' }); // the camera reads a 2
    await t.send({ type: 'dice/correct', index: 0, face: '3', color: 'red' }); // a mis-tap "corrects" it to 3
    await t.send({ type: 'dice/confirm' });
    await t.send({ type: 'button', button: 'NEXT' });
    await t.show('blue', 2);
    await t.send({ type: 'dice/read' }); // the used roll is final: counted, its 3 taught
    await vi.waitFor(() => expect(t.pending.map((p) => p.what)).toEqual(['3 from red']));
    await vi.waitFor(() => expect(t.inPlay()).toMatchObject({ dice: 1, wrongUnmarked: 1 }));
    await t.restart();
    await t.send({ type: 'undo' });
    await t.send({ type: 'undo' });
    expect(t.roll()?.dice[0]).toMatchObject({ face: '3', corrected: true });
    await vi.waitFor(() => expect(t.pending).toEqual([]));
    await vi.waitFor(() => expect(t.inPlay()).toMatchObject({ dice: 0, wrongUnmarked: 0 }));
  });

  it('a torn memory of the labels given: the server starts and says which file; the labels pending stay, and BACK no longer takes back what it forgot', async () => {
    const t = await table();
    await t.show('red', 1);
    await t.send({ type: 'dice/read' });
    await t.send({ type: 'dice/correct', index: 0, face: '3', color: 'red' });
    await t.send({ type: 'dice/confirm' });
    await t.send({ type: 'button', button: 'NEXT' });
    await t.show('blue', 2);
    await t.send({ type: 'dice/read' });
    await vi.waitFor(() => expect(t.pending.map((p) => p.what)).toEqual(['3 from red']));
    await t.restart(() => writeFileSync(path.join(t.dataDir, 'calibration', 'label-memory.json'), '{"teach": [], "finals": [{"roll": {"dice": [{"se'));
    expect(t.logger().lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/calibration: .*label-memory\.json is not a memory of the dice labelled \(.+\); they are not remembered/) });
    await t.send({ type: 'undo' });
    await t.send({ type: 'undo' });
    expect(t.roll()?.dice[0]).toMatchObject({ face: '3', corrected: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(t.pending.map((p) => p.what)).toEqual(['3 from red']);
  });
});
