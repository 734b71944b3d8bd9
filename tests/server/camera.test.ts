/**
 * Dice from the camera: the pipeline's small rules, the upload API, and (with the shipped model)
 * the replay camera's settled roll becoming the pending roll, a phone's frames doing the same, and
 * "teach clew your dice" stored in the data folder.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FOUR_D6_REPLAY } from '../support/replays.js';
import { ReplayCamera } from '../../device/camera/replay.js';
import { DIE_COLORS } from '../../shared/dice.js';
import type { TableSnapshot } from '../../shared/protocol.js';
import { decodeImage, encodeJpeg } from '../../vision/image/decode.js';
import { squareAround } from '../../vision/image/crop.js';
import { cropRect } from '../../vision/image/image.js';
import type { ClewDiceReader } from '../../vision/reader.js';
import type { DieReading } from '../../vision/types.js';
import { readOptions, sameRoll, sameTray, toRolled, VIEW_CHECK_EVERY, withViewLearning } from '../../web/server/camera.js';
import type { ReplayTruth } from '../../device/camera/make-replay.js';
import type { RolledDie } from '../../web/server/table.js';
import type { DiceReadJson } from '../../web/server/http.js';
import { cozyDiceRequest } from '../../shared/games/worm-and-cozy/dice.js';
import { DEFAULT_CHAPTER_ID, loadChapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { registryLookup } from '../../web/server/main.js';
import { DEFAULT_OPTIONS, GAMES } from '../../shared/games/registry.js';
import { parseConfig } from '../../web/server/config.js';
import { createRng } from '../../shared/rng.js';
import { matchDice } from '../../vision/locate/evaluate.js';
import { renderScene } from '../../vision/synth/index.js';
import { heicPhoto } from '../support/heic.js';
import { pacedClock, pipelinesBusy } from '../support/paced-clock.js';
import { scratchDir } from '../support/scratch.js';
import { startTestServer, type TestServer } from '../support/server.js';

const root = path.resolve(import.meta.dirname, '../..');
// The reader needs the classifier's and the die detector's weights (committed by vision/).
const HAS_MODEL = ['vision/model/weights/meta.json', 'vision/locate/detector/weights/detector.json'].every((f) => existsSync(path.join(root, f)));

let server: TestServer | undefined;

/** Until the server's camera pipelines have worked through every frame they were given. */
async function pipelinesIdle(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (pipelinesBusy(server?.clew)) {
    if (Date.now() > deadline) throw new Error('the camera pipelines stayed busy');
    await new Promise((r) => setTimeout(r, 5));
  }
}
/** A replay camera that waits for the pipelines (see paced-clock.ts). */
/** A replay camera paced by the server's pipelines (a frame only once they are idle): the shipped replay looped, or a folder's frames. */
const pacedReplay = (folder = FOUR_D6_REPLAY, loop = true) => new ReplayCamera({ folder, fps: 12, loop, clock: pacedClock(() => pipelinesBusy(server?.clew)) });

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the pipeline’s small rules', () => {
  it('reader options: the sets asked for; every slot’s colour, or every named colour when only some are named', () => {
    expect(readOptions({ sets: ['worm'], count: { min: 8, max: 8 }, prompt: '' })).toEqual({ sets: ['worm'] });
    expect(readOptions({ sets: ['wurmeln'], slots: [{ set: 'wurmeln', color: 'red' }, { set: 'wurmeln', color: 'yellow' }], prompt: '' })).toEqual({
      sets: ['wurmeln'],
      palette: ['red', 'yellow'],
      expect: { slots: [{ set: 'wurmeln', color: 'red' }, { set: 'wurmeln', color: 'yellow' }] },
    });
    const cozy = readOptions({ sets: ['d6'], slots: [{ set: 'd6', role: 'shape', color: 'red' }, { set: 'd6', role: 'organ' }], prompt: '' });
    expect(cozy.palette).toEqual(Object.keys(DIE_COLORS));
    expect(readOptions({ sets: ['d6'], prompt: 'anything' })).toEqual({ sets: ['d6'] });
  });

  it('reader options, Worm-up: every die named from the box\'s colours, so spares beside the bids are nobody\'s and the ghost\'s dice are not the bids', () => {
    const game = GAMES['worm-up'];
    const set = game.setup({ players: [{ id: 'ann', name: 'Ann', color: 'red' }, { id: 'bob', name: 'Bob', color: 'yellow' }] });
    if (!set.ok) throw new Error(set.message);
    const box = ['red', 'yellow', 'green', 'blue', 'white'];
    const bids = readOptions(game.diceRequest(set.state)!);
    // Named from the seats' colours only, a green spare was read as a second yellow die.
    expect(bids.palette).toEqual(box);
    expect(bids.expect).toEqual({ slots: [{ set: 'wurmeln', color: 'red' }, { set: 'wurmeln', color: 'yellow' }] });
    const tray = (faces: string[]) => faces.map((face, i) => ({ set: 'wurmeln' as const, face, color: box[i]! }));
    const revealed = game.diceMove(set.state, tray(['3', '6', '7', 'X']));
    expect(revealed).toMatchObject({ ok: true, state: { type: 'reveal', bids: { ann: '3', bob: '6' } } });
    const after = game.apply(set.state, (revealed as { state: unknown }).state);
    if (!after.ok) throw new Error(after.message);
    // The ghost: not fitted to its two slots (the fit kept the two dice it was surest of, maybe the bids), every die coloured.
    const ghost = readOptions(game.diceRequest(after.state)!);
    expect(ghost).toEqual({ sets: ['wurmeln'], palette: box });
    expect(game.diceMove(after.state, tray(['3', '6', '7', 'X']))).toMatchObject({ ok: true, state: { type: 'ghost', dice: ['7', 'X'] } });
    // The two bids alone (the ghost's dice not rolled yet, or missed) are not the ghost's; two dice entered by hand are.
    expect(game.diceMove(after.state, tray(['3', '6']))).toMatchObject({ ok: false, message: "the ghost rolls 2 dice; saw 0 that are not a player's colour (2 in all)" });
    expect(game.diceMove(after.state, [{ set: 'wurmeln', face: '3' }, { set: 'wurmeln', face: '6' }])).toMatchObject({ ok: true, state: { type: 'ghost', dice: ['3', '6'] } });
    // A seat given a die of a colour the box file lacks is named in that colour too.
    const black = game.setup({ players: [{ id: 'ann', name: 'Ann', color: 'black' }, { id: 'bob', name: 'Bob', color: 'yellow' }] });
    if (!black.ok) throw new Error(black.message);
    expect(readOptions(game.diceRequest(black.state)!).palette).toEqual([...box, 'black']);
  });

  it('Worm-up at the table: a ghost roll read surely with the bids beside it needs no confirmation', async () => {
    server = await startTestServer({ games: registryLookup, game: 'worm-up', options: { players: [{ id: 'ann', name: 'Ann', color: 'red' }, { id: 'bob', name: 'Bob', color: 'yellow' }] } });
    const sure = (face: string, color: string) => ({ set: 'wurmeln' as const, face, color, confidence: 0.99, box: [0, 0, 10, 10] as [number, number, number, number] });
    expect(await server.clew.session.cameraRoll([sure('3', 'red'), sure('6', 'yellow')], 'camera')).toMatchObject({ ok: true });
    expect(server.clew.session.table.roll?.needsConfirmation).toBe(false);
    expect(await server.clew.session.submit({ kind: 'referee' }, { version: server.clew.session.table.version, intent: { type: 'dice/confirm' } })).toMatchObject({ ok: true });
    expect(await server.clew.session.cameraRoll([sure('3', 'red'), sure('6', 'yellow'), sure('7', 'green'), sure('X', 'blue')], 'camera')).toMatchObject({ ok: true });
    expect(server.clew.session.table.roll?.needsConfirmation).toBe(false);
  });

  it('reader options: the dice the game asks for, as the reader fits a frame to them', () => {
    // Worm & Cozy's icon dice: the slots' sets, so a reading of two shape dice is fitted to one.
    const loaded = loadChapter(DEFAULT_CHAPTER_ID);
    if (!loaded.ok) throw new Error(loaded.errors.join('; '));
    const chapter = loaded.chapter;
    const icons = readOptions(cozyDiceRequest(chapter, 'cozy', '1 AM'));
    expect(icons.expect).toEqual({ slots: [{ set: 'cozy-shape' }, { set: 'cozy-organ' }, { set: 'cozy-organ' }] });
    // Its d6 stand-ins tell the shape die by colour: the one red die.
    expect(readOptions(cozyDiceRequest(chapter, 'standard', '1 AM')).expect).toEqual({ slots: [{ set: 'd6', color: 'red' }, { set: 'd6' }, { set: 'd6' }] });
  });

  it('a reading becomes a rolled die; the uncertain ones say so', () => {
    expect(toRolled([{ set: 'd6', face: '4', confidence: 0.6, box: [1, 2, 3, 4], uncertain: true, color: 'red' }])).toEqual([
      { set: 'd6', face: '4', confidence: 0.6, box: [1, 2, 3, 4], uncertain: true, color: 'red' },
    ]);
  });

  it('the same dice again (in any order, corrections aside) are not a new roll', () => {
    const pending = [
      { set: 'd6' as const, face: '5', readAs: '3', corrected: true },
      { set: 'd6' as const, face: '6' },
    ];
    expect(sameRoll([{ set: 'd6', face: '6' }, { set: 'd6', face: '3' }], pending)).toBe(true);
    expect(sameRoll([{ set: 'd6', face: '6' }, { set: 'd6', face: '5' }], pending)).toBe(false);
    expect(sameRoll([{ set: 'd6', face: '6' }], pending)).toBe(false);
    expect(sameRoll([{ set: 'd6', face: '6' }], undefined)).toBe(false);
  });

  it('dice a person took out still count as read, and dice a person added do not: the same tray again is the same roll', () => {
    const pending = [
      { set: 'd6' as const, face: '6' },
      { set: 'd6' as const, face: '2', added: true },
    ];
    const removed = [{ set: 'd6' as const, face: '1' }];
    // The camera still sees the 6 and the shadow it read as a 1, and still misses the 2.
    expect(sameRoll([{ set: 'd6', face: '1' }, { set: 'd6', face: '6' }], pending, removed)).toBe(true);
    // It now sees the 2 too, or no longer the shadow: the tray changed, a new roll.
    expect(sameRoll([{ set: 'd6', face: '1' }, { set: 'd6', face: '6' }, { set: 'd6', face: '2' }], pending, removed)).toBe(false);
    expect(sameRoll([{ set: 'd6', face: '6' }], pending, removed)).toBe(false);
  });
});

/** The JPEG with its frame header (SOF) saying another size: what a decoder sees before it decodes. */
function withJpegSize(jpeg: Uint8Array, width: number, height: number): Uint8Array {
  const out = Uint8Array.from(jpeg);
  for (let at = 2; at + 9 < out.length; ) {
    const marker = out[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2) {
      out[at + 5] = height >> 8; out[at + 6] = height & 255;
      out[at + 7] = width >> 8; out[at + 8] = width & 255;
      return out;
    }
    at += 2 + ((out[at + 2]! << 8) | out[at + 3]!);
  }
  throw new Error('no frame header in the JPEG');
}

describe('POST /api/dice/read', () => {
  const post = (url: string, body: Uint8Array | string, query = '') => fetch(`${url}/api/dice/read${query}`, { method: 'POST', body, headers: { 'content-type': 'image/jpeg' } });

  it('a corrupt image is a 400 that says so; an empty body and an unknown set too', async () => {
    server = await startTestServer({ config: { vision: { enabled: true } } });
    const corrupt = await post(server.url, new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
    expect(corrupt.status).toBe(400);
    expect(await corrupt.json()).toMatchObject({ code: 'photo/corrupt', message: expect.stringMatching(/could not be read/) });
    // An iPhone's HEIC is no corrupt file: a format this build does not read, and what to send instead.
    const heic = await post(server.url, await heicPhoto());
    expect(heic.status).toBe(415);
    expect(await heic.json()).toMatchObject({ code: 'photo/unsupported', message: expect.stringMatching(/could not be read: it is an HEIC file .*JPEG/) });
    const empty = await post(server.url, new Uint8Array());
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 'photo/empty' });
    const jpeg = await readFile(path.join(FOUR_D6_REPLAY, 'frame-11.jpg'));
    const badSet = await post(server.url, jpeg, '?set=d7');
    expect(badSet.status).toBe(400);
    expect(await badSet.json()).toMatchObject({ code: 'dice/bad-set', message: expect.stringContaining('"d7"') });
    const badPalette = await post(server.url, jpeg, '?set=d6&palette=red,mauve');
    expect(badPalette.status).toBe(400);
    expect(await badPalette.json()).toMatchObject({ code: 'dice/bad-palette', message: expect.stringContaining('"mauve"') });
  });

  it('a crop= that is not yes or no, a form upload and a picture over 100 MP are refused, each saying what to send', async () => {
    server = await startTestServer({ config: { vision: { enabled: true } } });
    const jpeg = await readFile(path.join(FOUR_D6_REPLAY, 'frame-11.jpg'));
    const badCrop = await post(server.url, jpeg, '?set=d6&crop=yes');
    expect(badCrop.status).toBe(400);
    expect(await badCrop.json()).toMatchObject({ code: 'dice/bad-query', message: 'crop= is 1 or true (yes), 0 or false (no)' });
    // A form upload: what to send instead.
    const form = new FormData();
    form.append('file', new Blob([jpeg], { type: 'image/jpeg' }), 'frame.jpg');
    const multipart = await fetch(`${server.url}/api/dice/read?set=d6`, { method: 'POST', body: form });
    expect(multipart.status).toBe(415);
    expect(await multipart.json()).toMatchObject({ code: 'photo/multipart', message: expect.stringMatching(/--data-binary/) });
    // A picture over 100 MP (its header says 12000×9000) is refused as too large, not as corrupt.
    const huge = await post(server.url, withJpegSize(jpeg, 12000, 9000));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: 'photo/too-large', message: expect.stringMatching(/too large to read: 12000×9000 pixels \(108 MP; at most 100 MP\)/) });
  });

  it('a die’s picture for teaching: none without a camera roll, none of a roll entered by hand, a bad index refused', async () => {
    server = await startTestServer({ config: { vision: { enabled: true } } });
    const crop = (q: string) => fetch(`${server!.url}/api/camera/crop${q}`);
    const none = await crop('?index=0');
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ code: 'dice/no-roll' });
    expect((await crop('?index=x')).status).toBe(400);
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    await referee.send({ type: 'dice/manual', dice: [{ set: 'd6', face: '3' }] });
    const manual = await crop('?index=0');
    expect(manual.status).toBe(409);
    expect(await manual.json()).toMatchObject({ code: 'camera/no-crop' });
  });

  it('without a reader (vision off) a read is a 503 with the reason', async () => {
    server = await startTestServer();
    const res = await post(server.url, await readFile(path.join(FOUR_D6_REPLAY, 'frame-11.jpg')));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'dice/no-reader' });
  });
});

describe.skipIf(!HAS_MODEL)('with the shipped model', () => {
  let shared: ClewDiceReader;
  /** What the reader itself reads on the last (still) replay frame: the server must carry exactly this. */
  let direct: DieReading[];
  /** The same frame read as the tray camera reads it by default: from overhead (vision.view). */
  let overhead: DieReading[];
  /** …and as a photo whose view is not known is read (uploads and a phone's camera: view 'any'). */
  let anyWay: DieReading[];
  beforeAll(async () => {
    const { loadDiceReader } = await import('../../vision/reader.js');
    shared = await loadDiceReader();
    const still = await decodeImage(new Uint8Array(await readFile(path.join(FOUR_D6_REPLAY, 'frame-11.jpg'))));
    direct = await shared.read(still, { sets: ['d6'], palette: Object.keys(DIE_COLORS) });
    overhead = await shared.read(still, { sets: ['d6'], palette: Object.keys(DIE_COLORS), view: 'overhead' });
    anyWay = await shared.read(still, { sets: ['d6'], palette: Object.keys(DIE_COLORS), view: 'any' });
  });
  /** The frame read as an upload is: a picture (its dice in doubt read again in turned colours too). */
  const asPicture = (view: 'any' | 'side') => async () => {
    const still = await decodeImage(new Uint8Array(await readFile(path.join(FOUR_D6_REPLAY, 'frame-11.jpg'))));
    return shared.read(still, { sets: ['d6'], palette: Object.keys(DIE_COLORS), view, picture: true });
  };
  afterAll(() => shared?.dispose());
  // One reader for every server here (loading it is slow); the servers must not dispose it.
  const loadReader = async () => ({ ...shared, dispose: () => {} }) as ClewDiceReader;
  // How well the model reads is vision's to show; these tests check that the server delivers
  // the reader's readings faithfully (the replay's ground truth is in scene.json for vision).
  const faces = (from = direct) => from.map((d) => d.face).sort();

  /**
   * A table of The worm is drawn read from a paced replay in this view (the shipped replay, looped,
   * or the frames of `folder`, once): the server, the views its frames were read in, and each read's
   * view and whether it was given earlier rolls' evidence about the camera, in order.
   */
  async function startReplayTable(opts: { view: 'side' | 'auto'; dataDir?: string; folder?: string; colourLook?: boolean | 'auto' }): Promise<{ table: TestServer; views: Set<string | undefined>; reads: { view: string | undefined; prior: boolean; colourLook: boolean | undefined; upTo: number | undefined }[] }> {
    const views = new Set<string | undefined>();
    const reads: { view: string | undefined; prior: boolean; colourLook: boolean | undefined; upTo: number | undefined }[] = [];
    const spying = async () =>
      ({ ...shared, readDetailed: (image, options) => (views.add(options.view), reads.push({ view: options.view, prior: options.cameraPrior !== undefined, colourLook: options.colourLook, upTo: options.colourLookUpTo }), shared.readDetailed(image, options)), dispose: () => {} }) as ClewDiceReader;
    server = await startTestServer({
      games: registryLookup,
      game: 'the-worm-is-drawn',
      options: { players: [{ id: 'ann', name: 'Ann' }, { id: 'bob', name: 'Bob' }], diceSet: 'd6' },
      ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
      config: { vision: { enabled: true, view: opts.view, ...(opts.colourLook !== undefined ? { colourLook: opts.colourLook } : {}) } },
      adapters: { camera: opts.folder ? pacedReplay(opts.folder, false) : pacedReplay() },
      start: { loadReader: spying },
    });
    return { table: server, views, reads };
  }

  /** A replay folder of distinct rendered rolls, seven still frames each (so each settles). */
  async function rollsFolder(prefix: string, rolls: number, scene: (roll: number) => Parameters<typeof renderScene>[1]): Promise<string> {
    const folder = scratchDir(prefix);
    let k = 0;
    for (let roll = 0; roll < rolls; roll++) {
      const jpeg = await encodeJpeg(renderScene(createRng(`${prefix}${roll}`), scene(roll)).image, 92);
      for (let f = 0; f < 7; f++) await writeFile(path.join(folder, `frame-${String(k++).padStart(3, '0')}.jpg`), jpeg);
    }
    return folder;
  }

  it('the reader finds every die of the replay tray', () => {
    expect(direct).toHaveLength(4);
  });

  it('npm start’s default replay settles on rolls the default game takes, each loop another: three d6 read as rendered, the red one its shape die', async () => {
    // The defaults of a config-less start: the game and its options, and the replay folder.
    const config = parseConfig(undefined, {});
    const game = GAMES[config.table.game];
    const setup = game.setup(config.table.options ?? DEFAULT_OPTIONS[config.table.game]);
    if (!setup.ok) throw new Error(setup.message);
    const request = game.diceRequest(setup.state);
    expect(request?.slots?.[0]).toEqual({ set: 'd6', role: 'shape', color: 'red' });
    const folder = config.device.camera.replay.folder;
    const scene = JSON.parse(await readFile(path.join(folder, 'scene.json'), 'utf8')) as ReplayTruth;
    if (!('rolls' in scene)) throw new Error('the default replay is several rolls');
    // The camera does not offer the dice it read last again: with one roll looped, a demo table
    // got its first roll and no other.
    expect(scene.rolls.length).toBeGreaterThanOrEqual(2);
    const chapter = loadChapter(DEFAULT_CHAPTER_ID);
    if (!chapter.ok) throw new Error(chapter.errors.join('; '));
    const reads: RolledDie[][] = [];
    for (const { frames, settled } of scene.rolls) {
      const still = await decodeImage(new Uint8Array(await readFile(path.join(folder, `frame-${frames[1]}.jpg`))));
      // What the game makes of the rendered dice: the red one's face through the shape table, the others' through the organ table.
      const shape = settled.filter((d) => d.color === 'red').map((d) => chapter.chapter.dice.shape[Number(d.face) - 1]);
      const organs = settled.filter((d) => d.color !== 'red').map((d) => chapter.chapter.dice.organ[Number(d.face) - 1]);
      const truth = settled.map((d) => `${d.face} ${d.color}`).sort();
      // Read as the tray camera reads it while learning its view ('any') and once it has ('overhead').
      for (const view of ['any', 'overhead'] as const) {
        const read = await shared.read(still, { ...readOptions(request!), view });
        const move = game.diceMove(setup.state, toRolled(read));
        expect(move, `${frames[1]} ${view}`).toMatchObject({ ok: true, state: { type: 'roll' } });
        const roll = move.ok ? (move.state as { shape: string; organs: string[] }) : undefined;
        expect([roll?.shape], `${frames[1]} ${view}`).toEqual(shape);
        expect([...(roll?.organs ?? [])].sort(), `${frames[1]} ${view}`).toEqual([...organs].sort());
        expect(read.map((d) => `${d.face} ${d.color}`).sort(), `${frames[1]} ${view}`).toEqual(truth);
        if (view === 'overhead') reads.push(toRolled(read));
      }
    }
    // Each roll, settled after the one before it (and the first after the last, as the replay
    // loops), is not the tray the camera read last: it is offered.
    reads.forEach((dice, i) => expect(sameTray(dice, reads.at(i - 1)!), scene.rolls[i]!.frames[1]).toBe(false));
  });

  it('the upload API answers with the dice command line’s JSON', async () => {
    server = await startTestServer({ config: { vision: { enabled: true } }, start: { loadReader } });
    const res = await fetch(`${server.url}/api/dice/read?set=d6&file=frame-11.jpg`, { method: 'POST', body: await readFile(path.join(FOUR_D6_REPLAY, 'frame-11.jpg')) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { file: string; dice: { face: string; confidence: number; box: number[]; color?: string; uncertain: boolean }[] };
    expect(body.file).toBe('frame-11.jpg');
    // An upload's view is not known: read 'any', as `npm run dice` reads, and as a picture.
    expect(body.dice).toEqual(
      (await asPicture('any')()).map((d) => ({ face: d.face, confidence: Math.round(d.confidence * 1e4) / 1e4, box: d.box.map(Math.round), color: d.color, uncertain: d.uncertain })),
    );
    const side = await fetch(`${server.url}/api/dice/read?set=d6&view=side`, { method: 'POST', body: await readFile(path.join(FOUR_D6_REPLAY, 'frame-11.jpg')) });
    expect(((await side.json()) as { dice: { confidence: number }[] }).dice.map((d) => d.confidence)).toEqual((await asPicture('side')()).map((d) => Math.round(d.confidence * 1e4) / 1e4));
    const top = await fetch(`${server.url}/api/dice/read?set=d6&view=overhead`, { method: 'POST', body: await readFile(path.join(FOUR_D6_REPLAY, 'frame-11.jpg')) });
    expect(((await top.json()) as { dice: { face: string }[] }).dice.map((d) => d.face).sort()).toEqual(faces(overhead));
    // A set named twice, spaced as a person types it, is read once: no "set" field.
    const twice = await fetch(`${server.url}/api/dice/read?set=d6,%20d6`, { method: 'POST', body: await readFile(path.join(FOUR_D6_REPLAY, 'frame-11.jpg')) });
    expect(((await twice.json()) as { dice: object[] }).dice.every((d) => !('set' in d))).toBe(true);
    const bad = await fetch(`${server.url}/api/dice/read?set=d6&view=sideways`, { method: 'POST', body: await readFile(path.join(FOUR_D6_REPLAY, 'frame-11.jpg')) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'dice/bad-view' });
    for (const d of body.dice) {
      expect(Object.keys(d).sort()).toEqual(['box', 'color', 'confidence', 'face', 'uncertain']);
      expect(d.box).toHaveLength(4);
      expect(d.confidence).toBeGreaterThan(0);
      expect(d.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('a picture read as one die (crop=1) that shows two says so ("diceInPicture": 2, never "dice", which marks a frame’s answer) and is marked, as `npm run dice -- --crop` says it', async () => {
    server = await startTestServer({ config: { vision: { enabled: true } }, start: { loadReader } });
    // The real frame of the tests' fixtures cut round its two labelled dice, a half again as wide.
    const fixtures = path.join(import.meta.dirname, '..', 'fixtures', 'dice-real');
    const frame = await decodeImage(new Uint8Array(await readFile(path.join(fixtures, 'frame.jpg'))));
    const [a, b] = (await readFile(path.join(fixtures, 'frame.csv'), 'utf8')).trim().split('\n').slice(1).map((l) => l.split(',').slice(1).map(Number) as [number, number, number, number]);
    const [x0, y0, x1, y1] = squareAround([Math.min(a![0], b![0]), Math.min(a![1], b![1]), Math.max(a![2], b![2]), Math.max(a![3], b![3])], 1.5).map(Math.round) as [number, number, number, number];
    const two = await encodeJpeg(cropRect(frame, x0, y0, x1, y1), 92);
    const post = (body: Uint8Array) => fetch(`${server!.url}/api/dice/read?set=d6&crop=1`, { method: 'POST', body, headers: { 'content-type': 'image/jpeg' } });
    const res = await post(two);
    expect(res.status).toBe(200);
    const body = (await res.json()) as DiceReadJson;
    // A client tells a frame's answer by its "dice" array: a crop's answer must not have one.
    if ('dice' in body) throw new Error(`a crop's answer read as a frame's: ${JSON.stringify(body)}`);
    expect(body).toMatchObject({ diceInPicture: 2, uncertain: true });
    expect(body.confidence).toBeLessThanOrEqual(0.5);
    // One die's picture has no such field.
    const one = await post(await readFile(path.join(fixtures, 'crops', (await readdir(path.join(fixtures, 'crops')))[0]!)));
    expect(one.status).toBe(200);
    expect(Object.keys((await one.json()) as object)).not.toContain('diceInPicture');
  });

  it('the replay camera’s settled roll becomes the pending roll, once', async () => {
    const camera = pacedReplay();
    server = await startTestServer({
      games: registryLookup,
      game: 'the-worm-is-drawn',
      options: { players: [{ id: 'ann', name: 'Ann' }, { id: 'bob', name: 'Bob' }], diceSet: 'd6' },
      config: { vision: { enabled: true } },
      adapters: { camera },
      start: { loadReader },
    });
    const phone = await server.phone();
    const s = await phone.snapshot((x: TableSnapshot) => x.roll !== null, 30_000);
    expect(s.roll?.source).toBe('camera');
    // Each die's picture, as the phones show it when teaching the dice.
    const crop = await fetch(`${server.url}/api/camera/crop?index=0`);
    expect(crop.status).toBe(200);
    expect(crop.headers.get('content-type')).toBe('image/jpeg');
    expect(s.roll?.dice.map((d) => d.face).sort()).toEqual(faces(overhead));
    // Eight dice were asked for and four lie in the tray: a person must confirm.
    expect(s.roll?.needsConfirmation).toBe(true);
    // The loop rolls the same dice again: no new event.
    const version = s.version;
    await new Promise((r) => setTimeout(r, 1500));
    expect(server.clew.session.table.version).toBe(version);
  });

  it('the tray camera\'s frames are read in the view the config gives (vision.view: overhead by default, side here)', async () => {
    const { table, views } = await startReplayTable({ view: 'side' });
    const phone = await table.phone();
    const s = await phone.snapshot((x: TableSnapshot) => x.roll !== null, 30_000);
    expect([...views]).toEqual(['side']);
    // Read from the side, three of the four dice are doubtful on the last frame (the tilted one
    // reads 4 or 5 from frame to frame), so the roll's vote over the still frames need not match
    // that one frame. Every die the roll carries as sure reads as the last frame reads it, and a
    // doubtful one asks a person to confirm.
    expect(s.roll!.dice).toHaveLength(direct.length);
    const left = faces(direct);
    for (const d of s.roll!.dice.filter((x) => !x.uncertain)) {
      expect(left).toContain(d.face);
      left.splice(left.indexOf(d.face), 1);
    }
    if (s.roll!.dice.some((d) => d.uncertain)) expect(s.roll!.needsConfirmation).toBe(true);
  });

  it('vision.view auto: the tray camera is read "any" while its view is learnt, each settled roll counted once, and /api/health says how far it got', async () => {
    const { table, views, reads } = await startReplayTable({ view: 'auto' });
    const phone = await table.phone();
    const s = await phone.snapshot((x: TableSnapshot) => x.roll !== null, 30_000);
    expect([...views]).toEqual(['any']);
    // The colour look (vision.colourLook "auto", the default): a frame's dice in doubt get it while the frame holds at most 8 dice.
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.colourLook === undefined && r.upTo === 8)).toBe(true);
    expect(s.roll!.dice.map((d) => d.face).sort()).toEqual(faces(anyWay));
    // The replay loops the same roll: it is one roll's evidence, however many frames show it.
    await new Promise((r) => setTimeout(r, 1500));
    const health = (await (await fetch(`${table.url}/api/health`)).json()) as { camera: { message: string } };
    expect(health.camera.message).toMatch(/learning its view \(read "any" meanwhile\): 1 roll, 4 dice, (side|side turned \d|overhead) ahead by \d+\.\d of 25/);
  });

  it('vision.colourLook true / false: the tray camera\'s dice in doubt are always / never read again in turned colours, whatever the frame holds', async () => {
    for (const colourLook of [true, false]) {
      const { table, reads } = await startReplayTable({ view: 'side', colourLook });
      const phone = await table.phone();
      await phone.snapshot((x: TableSnapshot) => x.roll !== null, 30_000);
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.every((r) => r.colourLook === colourLook && r.upTo === undefined)).toBe(true);
      await server?.close();
      server = undefined;
    }
  });

  it('vision.view auto: a view learnt before the restart is read from the first frame, and /api/health says so', async () => {
    const dataDir = scratchDir('clew-view-auto-');
    await writeFile(path.join(dataDir, 'camera-view.json'), JSON.stringify({ learnt: 'side', rolls: 9, dice: 31, at: '2026-11-28T05:00:00Z' }));
    const { table, views } = await startReplayTable({ view: 'auto', dataDir });
    const phone = await table.phone();
    await phone.snapshot((x: TableSnapshot) => x.roll !== null, 30_000);
    expect([...views]).toEqual(['side']);
    const health = (await (await fetch(`${table.url}/api/health`)).json()) as { camera: { message: string } };
    expect(health.camera.message).toMatch(/view learnt from 9 rolls \(before the restart\): side$/);
  });

  it('vision.view auto: a camera looking from one side is learnt from its rolls, then read "side", and the view is kept in the data folder', async () => {
    // Up to 24 distinct rolls of 8 d6 from one side, seven still frames each (vision's own test
    // learns such trays after about 8 rolls; these, 640×480 with their JPEG, after 12).
    const folder = await rollsFolder('server-view-learn-', 24, () => ({ sets: ['d6'], dice: 8, dieSize: [50, 80], difficulty: 0.2, knobs: { maxOblique: 45, roll: 10 } }));
    const dataDir = scratchDir('clew-view-learn-data-');
    const { reads } = await startReplayTable({ view: 'auto', dataDir, folder });
    const health = async () => ((await (await fetch(`${server!.url}/api/health`)).json()) as { camera: { message: string } }).camera.message;
    const deadline = Date.now() + 90_000;
    while (!/view learnt/.test(await health()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await health()).toMatch(/view learnt from \d+ rolls: side/);
    // The replay goes on: the next frame read is read "side".
    while (!reads.some((r) => r.view === 'side') && Date.now() < deadline + 30_000) await new Promise((r) => setTimeout(r, 100));
    await pipelinesIdle();
    const views = reads.map((r) => r.view);
    const priors = reads.map((r) => r.prior);
    // Read "any" while learning, then "side" (and "any" again only for a check roll).
    expect(views[0]).toBe('any');
    expect(views).toContain('side');
    // The first roll is read with nothing earlier to go by; the rolls after it with what the earlier ones said.
    expect(priors[0]).toBe(false);
    expect(priors.slice(0, views.indexOf('side')).some(Boolean)).toBe(true);
    expect(priors.filter((p, i) => p && views[i] !== 'any')).toEqual([]);
    expect(views.slice(views.indexOf('side')).filter((v) => v !== 'side' && v !== 'any')).toEqual([]);
    const kept = JSON.parse(await readFile(path.join(dataDir, 'camera-view.json'), 'utf8')) as { learnt: string; rolls: number };
    expect(kept).toMatchObject({ learnt: 'side' });
    expect(kept.rolls).toBeLessThanOrEqual(24);
  }, 120_000);

  it('vision.view auto: a learnt view is checked, one new roll in VIEW_CHECK_EVERY read "any" again, and /api/health says so', async () => {
    // Seven distinct rolls from one side (seven still frames each, so each settles), and a view
    // remembered from before the restart: the rolls are read in it, but for every fifth.
    const folder = await rollsFolder('server-view-check-', 7, (roll) => ({ width: 640, height: 480, sets: ['d6'], dice: 3 + (roll % 3), dieSize: [55, 75], difficulty: 0.2, knobs: { maxOblique: 40, roll: 5 } }));
    const dataDir = scratchDir('clew-view-check-data-');
    await writeFile(path.join(dataDir, 'camera-view.json'), JSON.stringify({ learnt: 'overhead', rolls: 20, dice: 160, at: '2026-11-28T05:00:00Z' }));
    const { table, reads } = await startReplayTable({ view: 'auto', dataDir, folder });
    const rolls = () => server!.clew.pipelines.reduce((n, p) => n + p.counts.rolls, 0);
    const deadline = Date.now() + 60_000;
    while (rolls() < VIEW_CHECK_EVERY && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(rolls()).toBeGreaterThanOrEqual(VIEW_CHECK_EVERY);
    // Up to the roll before the check, every frame was read in the view remembered; then "any".
    const views = reads.map((r) => r.view);
    const firstAny = views.indexOf('any');
    expect(firstAny).toBeGreaterThan(0);
    expect(new Set(views.slice(0, firstAny))).toEqual(new Set(['overhead']));
    await pipelinesIdle();
    const health = (await (await fetch(`${table.url}/api/health`)).json()) as { camera: { message: string } };
    expect(health.camera.message).toMatch(/view learnt from 20 rolls \(before the restart\): overhead; checked on 1 roll since/);
  });

  it('a camera\'s status says what it learnt of its view', () => {
    const learning = { learnt: null, leader: 'overhead' as const, margin: 3.14, rolls: 2, dice: 7, remembered: false, checked: 0, doubt: 0 };
    expect(withViewLearning({ kind: 'replay', ok: true, message: 'frames from x' }, learning).message).toBe('frames from x; learning its view (read "any" meanwhile): 2 rolls, 7 dice, overhead ahead by 3.1 of 25');
    expect(withViewLearning({ kind: 'replay', ok: true }, { ...learning, learnt: 'overhead', rolls: 20 }).message).toBe('view learnt from 20 rolls: overhead');
    expect(withViewLearning({ kind: 'replay', ok: true }, { ...learning, learnt: 'side', rolls: 9, remembered: true }).message).toBe('view learnt from 9 rolls (before the restart): side');
    expect(withViewLearning({ kind: 'replay', ok: true }, { ...learning, learnt: 'side turned 1' }).message).toBe('view learnt from 2 rolls: side turned 1 (read "any")');
    expect(withViewLearning({ kind: 'replay', ok: true }, { ...learning, learnt: 'overhead', rolls: 20, checked: 1, doubt: -4.2 }).message).toBe('view learnt from 20 rolls: overhead; checked on 1 roll since');
    expect(withViewLearning({ kind: 'replay', ok: true }, { ...learning, learnt: 'overhead', rolls: 20, checked: 6, doubt: 7.25 }).message).toBe('view learnt from 20 rolls: overhead; checked on 6 rolls since, another view ahead by 7.3 of 25');
    const camera = { kind: 'replay', ok: true, message: 'x' };
    expect(withViewLearning({ kind: 'replay', ok: true }, { ...learning, rolls: 1, dice: 1, leader: null }).message).toBe('learning its view (read "any" meanwhile): 1 roll, 1 die');
    expect(withViewLearning(camera, null)).toBe(camera);
  });

  it('the table camera takes a still, empty tray as its empty tray by itself; dice rolled onto it are then found against it', async () => {
    // A light tray whose five dice the modelled tray finds three of (with three boxes on no die);
    // against the empty tray all five, none extra (vision's locator measures this at scale).
    const scene = renderScene(createRng('server-auto-tray-tray:4'), { width: 640, height: 480, table: 'tray', sets: ['d6'], dice: 5, dieSize: [55, 75], empty: true });
    const folder = scratchDir('clew-auto-tray-');
    const [empty, rolled] = [await encodeJpeg(scene.empty!, 92), await encodeJpeg(scene.image, 92)];
    // Eight frames of the empty tray, then eight of the dice lying on it.
    for (let k = 0; k < 16; k++) await writeFile(path.join(folder, `frame-${String(k).padStart(2, '0')}.jpg`), k < 8 ? empty : rolled);
    const trays: boolean[] = [];
    const spying = async () => ({ ...shared, readDetailed: (image, options) => (trays.push(!!options.tray), shared.readDetailed(image, options)), dispose: () => {} }) as ClewDiceReader;
    server = await startTestServer({
      games: registryLookup,
      game: 'the-worm-is-drawn',
      options: { players: [{ id: 'ann', name: 'Ann' }, { id: 'bob', name: 'Bob' }], diceSet: 'd6' },
      // Read from overhead, as the scene was chosen: read `any` (the default `auto` before its view
      // is learnt), its modelled reading, a marbled die cut into three on the light tray and read
      // surer than the whole dice against the tray, wins (docs/notes/vision-model.md, "Learning
      // the tray camera's view"). The empty tray itself is what this test is about.
      config: { vision: { enabled: true, view: 'overhead' } },
      adapters: { camera: pacedReplay(folder) },
      start: { loadReader: spying },
    });
    const phone = await server.phone();
    const taken = await phone.snapshot((x: TableSnapshot) => x.tray.state === 'learned', 30_000);
    expect(taken.tray.auto).toBe(true);
    expect(taken.roll).toBeNull();
    const s = await phone.snapshot((x: TableSnapshot) => x.roll !== null, 30_000);
    expect(trays.at(-1)).toBe(true);
    const m = matchDice(scene.dice.map((d) => d.box), s.roll!.dice.map((d) => d.box!));
    expect(m.hit.every(Boolean)).toBe(true);
    expect(m.spurious).toHaveLength(0);
    expect(s.tray.state).toBe('learned');
  });

  it('a phone used as the camera: its frames give a roll from the phone camera', async () => {
    server = await startTestServer({ config: { vision: { enabled: true } }, start: { loadReader } });
    const ann = await server.phone({ role: 'player', code: server.clew.codes.joinCode, player: 'ann' });
    const names = (await readdir(FOUR_D6_REPLAY)).filter((n) => n.endsWith('.jpg')).sort();
    const rolled = ann.snapshot((x) => x.roll !== null, 30_000);
    for (const name of [...names, ...names.slice(-4)]) {
      const ack = await ann.emit('frame', await readFile(path.join(FOUR_D6_REPLAY, name)));
      expect(ack.ok).toBe(true);
      // A frame sent while the pipeline still reads the one before replaces it (a slow machine drops
      // frames): the settle needs four still frames in a row, so each is read before the next is sent.
      await pipelinesIdle();
      await new Promise((r) => setTimeout(r, 130)); // under the phone camera's frame rate limit
    }
    const s = await rolled;
    expect(s.roll?.source).toBe('phone-camera');
    expect(s.roll?.dice.map((d) => d.face).sort()).toEqual(faces(anyWay));
  });

  it('teach clew your dice: label the camera’s dice, commit (the phones see it learn), find it in the data folder, undo', async () => {
    const camera = pacedReplay();
    // The server's own reader this time: it keeps its calibrations in the data folder. A few
    // adaptation steps are enough for the plumbing (60, the default, take seconds).
    server = await startTestServer({ config: { vision: { enabled: true, adaptSteps: 10 } }, adapters: { camera } });
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    await referee.snapshot((x) => x.roll !== null, 60_000);
    // The roll stays put while it is labelled: the replay would roll again every loop, and once a
    // calibration is committed the next loop may read differently, a new roll that moves the table's
    // version under the referee's next intent. The roll's frame stays with the pipeline.
    await camera.stop();
    await pipelinesIdle();
    await referee.snapshot((x) => x.version === server!.clew.session.table.version);
    const n = referee.latest().roll!.dice.length;
    // Six labels so every face of the d6 has an example (the faces are made up: this is the
    // plumbing): one for each die of the roll, the rest as earlier rolls would have given them (a
    // die labelled again replaces its label).
    for (let i = 0; i < n; i++) {
      const ack = await referee.send({ type: 'calibration/label', set: 'd6', index: i, face: String(i + 1) });
      expect(ack, JSON.stringify(ack)).toMatchObject({ ok: true });
    }
    const roll = server.clew.session.table.roll!;
    const pipeline = server.clew.pipelines.find((p) => p.frameFor(roll))!;
    for (let i = n; i < 6; i++) await server.clew.reader.loaded()!.calibration.add('d6', String(i + 1), pipeline.frameFor(roll)!.image, roll.dice[0]!.box!, pipeline.view);
    server.clew.transport.broadcast();
    await referee.snapshot((x) => Object.values(x.calibration[0]?.samples ?? {}).reduce((a, b) => a + b, 0) === 6);
    const labelled = referee.latest().calibration;
    expect(labelled).toHaveLength(1);
    expect(labelled[0]).toEqual({ set: 'd6', samples: { '1': 1, '2': 1, '3': 1, '4': 1, '5': 1, '6': 1 }, active: false });
    const before = referee.snapshots.length;
    expect(await referee.send({ type: 'calibration/commit', set: 'd6' })).toMatchObject({ ok: true });
    expect(existsSync(path.join(server.dataDir, 'calibration', 'd6.json'))).toBe(true);
    // While it was fitted the phones were told how far it had got: started, every 5 steps, done
    // (any other broadcast meanwhile shows the step it caught).
    const progress = referee.snapshots.slice(before).flatMap((x) => x.calibration.flatMap((c) => (c.fitting ? [c.fitting] : [])));
    expect(progress[0]).toEqual({ step: 0, steps: 0 });
    expect(progress).toContainEqual({ step: 5, steps: 10 });
    expect(progress.at(-1)).toEqual({ step: 10, steps: 10 });
    expect(progress.every((p, i) => i === 0 || p.step >= progress[i - 1]!.step)).toBe(true);
    const committed = (await referee.snapshot((x) => x.calibration.some((c) => c.active))).calibration[0];
    expect(committed).toMatchObject({ set: 'd6', active: true, accuracy: { after: expect.any(Number), crops: expect.any(Number) } });
    expect(await referee.send({ type: 'calibration/undo', set: 'd6' })).toMatchObject({ ok: true });
    expect((await referee.snapshot((x) => x.calibration.every((c) => !c.active))).calibration).toEqual([
      { set: 'd6', samples: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 0 }, active: false },
    ]);
  });
});
