/**
 * Dice checked during play teach clew (`vision.learnFromChecks`, on by default): a used camera
 * roll's corrected dice, and its dice marked "check" when a phone used it, become their set's
 * labelled crops on the Teach tab once the game moves on; an undo drops them first. With the
 * shipped model and the replay camera, the race test game (one d6 a turn).
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FOUR_D6_REPLAY } from '../support/replays.js';
import { ReplayCamera } from '../../device/camera/replay.js';
import type { CalibrationStatus, TableSnapshot } from '../../shared/protocol.js';
import { pacedClock, pipelinesBusy } from '../support/paced-clock.js';
import { scratchDir } from '../support/scratch.js';
import type { Phone } from '../support/phone.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { countInPlay } from '../../web/server/played-rolls.js';

const root = path.resolve(import.meta.dirname, '../..');
const HAS_MODEL = ['vision/model/weights/meta.json', 'vision/locate/detector/weights/detector.json'].every((f) => existsSync(path.join(root, f)));

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function pipelinesIdle(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (pipelinesBusy(server?.clew)) {
    if (Date.now() > deadline) throw new Error('the camera pipelines stayed busy');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A table whose camera rolled the replay's dice once and then stopped, the referee's phone in sync with it. */
async function rolledOnce(config: Record<string, unknown> = {}, dataDir?: string): Promise<{ referee: Phone; roll: NonNullable<TableSnapshot['roll']> }> {
  const camera = new ReplayCamera({ folder: FOUR_D6_REPLAY, fps: 12, loop: true, clock: pacedClock(() => pipelinesBusy(server?.clew)) });
  server = await startTestServer({ config: { vision: { enabled: true, ...config } }, adapters: { camera }, ...(dataDir ? { dataDir } : {}) });
  const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
  await referee.snapshot((x) => x.roll !== null, 60_000);
  // No more rolls: the replay loops, and a new roll would move the game on by itself.
  await camera.stop();
  await pipelinesIdle();
  const s = await referee.snapshot((x) => x.version === server!.clew.session.table.version);
  return { referee, roll: s.roll! };
}

/** The server started again on a data folder, with no camera (the reader loads only when asked), and the referee's phone. */
async function restartOn(dataDir: string): Promise<Phone> {
  server = await startTestServer({ config: { vision: { enabled: true } }, dataDir });
  return server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
}

async function send(phone: Phone, intent: Parameters<Phone['send']>[0]): Promise<TableSnapshot> {
  const ack = await phone.send(intent);
  expect(ack, JSON.stringify(ack)).toMatchObject({ ok: true });
  return phone.snapshot((x) => x.version === server!.clew.session.table.version);
}

/** Keeps only die `keep` of the pending roll (the race game uses one die). */
async function keepOnly(phone: Phone, keep: number, count: number): Promise<void> {
  for (let i = count - 1; i >= 0; i--) if (i !== keep) await send(phone, { type: 'dice/remove', index: i });
}

const d6 = (s: TableSnapshot): CalibrationStatus | undefined => s.calibration.find((c) => c.set === 'd6');

describe.skipIf(!HAS_MODEL)('dice checked during play teach clew', () => {
  it('a corrected die is held when its roll is used, dropped by an undo, and a label once the game moves on', async () => {
    const { referee, roll } = await rolledOnce();
    await keepOnly(referee, 0, roll.dice.length);
    const read = roll.dice[0]!.face;
    const face = read === '6' ? '5' : '6';
    await send(referee, { type: 'dice/correct', index: 0, face });
    // What the camera read is kept with the correction, its "check" mark too.
    expect(server!.clew.session.table.roll!.dice[0]).toMatchObject({ face, corrected: true, readAs: read, ...(roll.dice[0]!.uncertain ? { readUncertain: true } : {}) });
    // Used: the die is counted on the Teach tab at once, as checked during play.
    const marked = roll.dice[0]!.uncertain ? 1 : 0;
    // The dice taken out of the roll (the race game uses one) count as "Not a die".
    const taken = roll.dice.length - 1;
    let s = await send(referee, { type: 'dice/confirm' });
    expect(s.roll).toBeNull();
    // In play: one die, which a person corrected.
    expect(d6(s)).toMatchObject({ samples: { [face]: 1 }, fromPlay: 1, active: false, inPlay: { dice: 1, right: 0, marked, wrongUnmarked: 1 - marked, missed: 0, notDice: taken, since: 'start' } });
    // BACK: the roll comes back to be corrected again, and the die is no longer counted.
    s = await send(referee, { type: 'undo' });
    expect(s.roll?.dice[0]).toMatchObject({ face, corrected: true, readAs: read });
    expect(d6(s)?.fromPlay).toBeUndefined();
    expect(d6(s)?.inPlay).toBeUndefined();
    expect(d6(s)?.samples[face] ?? 0).toBe(0);
    // Used again, then the game moves on (the next player's roll, entered by hand): a label.
    // BACK on a move made after the roll was used does not bring the roll back: it stays held.
    await send(referee, { type: 'dice/confirm' });
    await send(referee, { type: 'button', button: 'NEXT' });
    s = await send(referee, { type: 'undo' });
    expect(s.roll).toBeNull();
    expect(d6(s)).toMatchObject({ fromPlay: 1, inPlay: { dice: 1 } });
    await send(referee, { type: 'button', button: 'NEXT' });
    s = await send(referee, { type: 'dice/manual', dice: [{ set: 'd6', face: '3' }] });
    s = await referee.snapshot((x) => d6(x)?.fromPlay === 1);
    // Counted once; a roll entered by hand is no reading of the camera's.
    expect(d6(s)!.inPlay).toEqual({ dice: 1, right: 0, marked, wrongUnmarked: 1 - marked, missed: 0, notDice: taken, since: 'start' });
    expect(d6(s)!.samples).toEqual({ ...Object.fromEntries(['1', '2', '3', '4', '5', '6'].map((f) => [f, 0])), [face]: 1 });
    // It is a labelled crop like the Teach tab's: a commit wants every face, this one it has.
    const ack = await referee.send({ type: 'calibration/commit', set: 'd6' });
    expect(ack).toMatchObject({ ok: false, code: 'calibration/refused' });
    const missing = ['1', '2', '3', '4', '5', '6'].filter((f) => f !== face);
    expect((ack as { message: string }).message).toContain(`missing: ${missing.join(', ')}`);
  });

  it('a die marked "check" teaches when a phone used its roll, not when the button box did; off in the config, nothing; each counts in play', async () => {
    // Without the colour look (and the closer look at the mark's threshold that comes with it), the
    // replay's overhead roll has a die the reader is unsure of (1, 6, 5? at 0.62, 3; 0.86 with it).
    const unsure = { colourLook: false };
    const first = await rolledOnce(unsure);
    const marked = first.roll.dice.findIndex((d) => d.uncertain && d.box);
    expect(marked).toBeGreaterThanOrEqual(0);
    const face = first.roll.dice[marked]!.face;
    await keepOnly(first.referee, marked, first.roll.dice.length);
    let s = await send(first.referee, { type: 'dice/confirm' });
    expect(d6(s)).toMatchObject({ samples: { [face]: 1 }, fromPlay: 1, inPlay: { dice: 1, right: 1, marked: 1 } });

    // The button box's OK: the die was never looked at, so it teaches nothing.
    await server!.close();
    const second = await rolledOnce(unsure);
    await keepOnly(second.referee, marked, second.roll.dice.length);
    expect(await server!.clew.session.button('OK')).toMatchObject({ ok: true });
    s = await second.referee.snapshot((x) => x.version === server!.clew.session.table.version && x.roll === null);
    // Counted in play all the same.
    expect(d6(s)).toEqual({ set: 'd6', samples: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 0 }, active: false, inPlay: { dice: 1, right: 1, marked: 1, wrongUnmarked: 0, missed: 0, notDice: second.roll.dice.length - 1, since: 'start' } });

    // vision.learnFromChecks false: a phone's use teaches nothing either.
    await server!.close();
    const third = await rolledOnce({ ...unsure, learnFromChecks: false });
    await keepOnly(third.referee, marked, third.roll.dice.length);
    s = await send(third.referee, { type: 'dice/confirm' });
    expect(d6(s)?.fromPlay).toBeUndefined();
    expect(d6(s)?.samples[face]).toBe(0);
    expect(d6(s)?.inPlay).toEqual({ dice: 1, right: 1, marked: 1, wrongUnmarked: 0, missed: 0, notDice: third.roll.dice.length - 1, since: 'start' });
  });

  it('a used roll still held when the server stops cleanly is held again after the restart, as after a power cut: counted and shown, and a BACK still takes back its wrong correction', async () => {
    const dataDir = scratchDir('clew-held-');
    const { referee, roll } = await rolledOnce({}, dataDir);
    await keepOnly(referee, 0, roll.dice.length);
    const face = roll.dice[0]!.face === '6' ? '5' : '6';
    await send(referee, { type: 'dice/correct', index: 0, face });
    const s = await send(referee, { type: 'dice/confirm' });
    // Held: the game has not moved on.
    expect(d6(s)).toMatchObject({ samples: { [face]: 1 }, fromPlay: 1, inPlay: { dice: 1, right: 0 } });
    await server!.close();

    const again = await restartOn(dataDir);
    // From disk, before the reader has loaded.
    expect(server!.clew.reader.loaded()).toBeNull();
    expect(d6(again.latest())).toMatchObject({ samples: { [face]: 1 }, fromPlay: 1, inPlay: { dice: 1, right: 0, notDice: roll.dice.length - 1, since: 'start' } });
    // The correction was wrong: BACK brings the roll back, and the die is neither taught nor counted.
    const back = await send(again, { type: 'undo' });
    expect(back.roll?.dice[0]).toMatchObject({ face, corrected: true });
    expect(d6(back)?.inPlay).toBeUndefined();
    expect(d6(back)?.samples[face] ?? 0).toBe(0);
    expect(existsSync(path.join(dataDir, 'calibration', 'pending', 'd6')) ? readdirSync(path.join(dataDir, 'calibration', 'pending', 'd6')) : []).toEqual([]);
    await vi.waitFor(() => expect(readdirSync(path.join(dataDir, 'held-roll'))).toEqual([]), { timeout: 10_000 });
  });

  it('a used roll held when the power is cut is held again after the restart: counted, taught once the game moves on, dropped by BACK; a torn roll file is reported, a torn frame teaches nothing and says so', async () => {
    const dataDir = scratchDir('clew-cut-');
    const { referee, roll } = await rolledOnce({}, dataDir);
    await keepOnly(referee, 0, roll.dice.length);
    const face = roll.dice[0]!.face === '6' ? '5' : '6';
    await send(referee, { type: 'dice/correct', index: 0, face });
    const used = await send(referee, { type: 'dice/confirm' });
    // The roll and its frame on disk while it is held; the data folder copied as a power cut leaves it.
    const held = path.join(dataDir, 'held-roll');
    await vi.waitFor(() => expect(existsSync(held) ? readdirSync(held).sort() : []).toEqual(['frame.png', 'roll.json']), { timeout: 10_000 });
    const cuts = ['teach', 'back', 'torn', 'frame'].map((name) => {
      const dir = scratchDir(`clew-cut-${name}-`);
      cpSync(dataDir, dir, { recursive: true });
      return dir;
    });
    await server!.close();

    // Held again: counted in play and on the Teach tab before the reader loads, as before the cut.
    let phone = await restartOn(cuts[0]!);
    expect(server!.clew.reader.loaded()).toBeNull();
    const inPlay = { dice: 1, right: 0, notDice: roll.dice.length - 1, since: 'start' };
    expect(d6(phone.latest())).toMatchObject({ samples: { [face]: 1 }, fromPlay: 1, inPlay });
    // The game moves on: the die is a label (a crop pending on disk, framed from the kept frame) and counted for good.
    await send(phone, { type: 'button', button: 'NEXT' });
    await send(phone, { type: 'dice/manual', dice: [{ set: 'd6', face: '3' }] });
    await phone.snapshot((x) => d6(x)?.samples[face] === 1 && server!.clew.reader.loaded() !== null && !existsSync(path.join(cuts[0]!, 'held-roll', 'roll.json')), 60_000);
    await vi.waitFor(() => expect(readdirSync(path.join(cuts[0]!, 'calibration', 'pending', 'd6'))).toEqual([expect.stringMatching(new RegExp(`-${face}\\.png$`))]), { timeout: 60_000 });
    expect(readdirSync(path.join(cuts[0]!, 'held-roll'))).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(cuts[0]!, 'dice-in-play.json'), 'utf8')).d6).toMatchObject(inPlay);
    await server!.close();

    // BACK after the restart brings the roll back to be corrected: it is no longer counted, nor kept.
    phone = await restartOn(cuts[1]!);
    const back = await send(phone, { type: 'undo' });
    expect(back.roll?.dice[0]).toMatchObject({ face, corrected: true });
    expect(d6(back)?.inPlay).toBeUndefined();
    expect(d6(back)?.samples[face] ?? 0).toBe(0);
    await vi.waitFor(() => expect(readdirSync(path.join(cuts[1]!, 'held-roll'))).toEqual([]), { timeout: 10_000 });
    await server!.close();

    // A roll file torn by the cut: reported by name, nothing counted, the table as it was.
    writeFileSync(path.join(cuts[2]!, 'held-roll', 'roll.json'), '{"roll": {"dice": [{"set": "d6", "fa');
    phone = await restartOn(cuts[2]!);
    expect(d6(phone.latest())?.inPlay).toBeUndefined();
    expect(server!.logger.lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/dice in play: .*held-roll\/roll\.json is not a used roll \(.*\); the roll used last is not counted \(kept as roll\.json\.corrupt-\d+\)/) });
    expect(phone.latest().version).toBe(used.version);
    // Put aside, so the next start does not report it again.
    await vi.waitFor(() => expect(readdirSync(path.join(cuts[2]!, 'held-roll'))).toEqual([expect.stringMatching(/^roll\.json\.corrupt-\d+$/)]), { timeout: 10_000 });
    await server!.close();
    await restartOn(cuts[2]!);
    expect(server!.logger.lines.filter((l) => l.message.includes('held-roll'))).toEqual([]);
    await server!.close();

    // A frame torn by the cut: the roll is still counted when the game moves on; its die is not taught, and that is said.
    const frame = path.join(cuts[3]!, 'held-roll', 'frame.png');
    writeFileSync(frame, readFileSync(frame).subarray(0, 200));
    phone = await restartOn(cuts[3]!);
    await send(phone, { type: 'button', button: 'NEXT' });
    await send(phone, { type: 'dice/manual', dice: [{ set: 'd6', face: '3' }] });
    await vi.waitFor(() => expect(server!.logger.lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/calibration: the frame of the roll used before the restart \(.*frame\.png\) could not be read \(.*\); its 1 checked die is not taught/) }), { timeout: 30_000 });
    const moved = await phone.snapshot((x) => x.version === server!.clew.session.table.version && d6(x)?.fromPlay === undefined && (d6(x)?.samples[face] ?? 0) === 0, 30_000);
    expect(d6(moved)?.inPlay).toMatchObject(inPlay);
  });

  it('labels given at the table survive a restart: the Teach tab shows them before and after the reader loads', async () => {
    const dataDir = scratchDir('clew-labels-');
    const { referee } = await rolledOnce({}, dataDir);
    await send(referee, { type: 'calibration/label', set: 'd6', index: 0, face: '1' });
    await send(referee, { type: 'calibration/label', set: 'd6', index: 1, face: '2' });
    const labelled = { '1': 1, '2': 1, '3': 0, '4': 0, '5': 0, '6': 0 };
    expect(d6(referee.latest())).toMatchObject({ samples: labelled, active: false });
    await server!.close();

    // No camera this time: the reader loads only when something asks for it.
    const again = await restartOn(dataDir);
    expect(server!.clew.reader.loaded()).toBeNull();
    expect(d6(again.latest())).toEqual({ set: 'd6', samples: labelled, active: false });
    // Saving asks the reader, which loads with the labels pending: it needs the other faces.
    const seen = again.snapshots.length;
    const ack = await again.send({ type: 'calibration/commit', set: 'd6' });
    expect(ack).toMatchObject({ ok: false, code: 'calibration/refused', message: expect.stringContaining('missing: 3, 4, 5, 6') });
    expect(server!.clew.reader.loaded()).not.toBeNull();
    // The phones are told after a commit, refused or not: now from the loaded reader.
    const loaded = await again.snapshot(() => again.snapshots.length > seen);
    expect(d6(loaded)).toEqual({ set: 'd6', samples: labelled, active: false });
  });
  it('the dice in play are counted over a restart; a file that cannot be read is reported and the counting starts afresh', async () => {
    const dataDir = scratchDir('clew-in-play-');
    const { referee, roll } = await rolledOnce({}, dataDir);
    await keepOnly(referee, 0, roll.dice.length);
    await send(referee, { type: 'dice/confirm' });
    // Final once the game moves on: then on disk.
    await send(referee, { type: 'button', button: 'NEXT' });
    await send(referee, { type: 'dice/manual', dice: [{ set: 'd6', face: '3' }] });
    const counted = d6(referee.latest())!.inPlay!;
    expect(counted).toMatchObject({ dice: 1, right: 1, since: 'start' });
    await server!.close();
    const file = path.join(dataDir, 'dice-in-play.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ d6: counted });

    // Shown again after the restart, before the reader has loaded.
    const again = await restartOn(dataDir);
    expect(server!.clew.reader.loaded()).toBeNull();
    expect(d6(again.latest())?.inPlay).toEqual(counted);
    await server!.close();

    writeFileSync(file, '{"d6": {"dice": -1}}');
    const fresh = await restartOn(dataDir);
    expect(d6(fresh.latest())?.inPlay).toBeUndefined();
    expect(server!.logger.lines).toContainEqual({ level: 'warn', message: expect.stringMatching(/dice in play: .*dice-in-play\.json is not a count of dice in play \(d6\.dice: .*\); counting afresh/) });
  });
});

describe('a used roll counted in play', () => {
  it('counts the set\'s dice as the camera saw them (right unless corrected, marked by the camera\'s "check", misread unmarked when corrected without it), the dice it missed and the boxes taken out', () => {
    const roll = {
      source: 'camera' as const,
      needsConfirmation: true,
      dice: [
        { set: 'd6' as const, face: '4', confidence: 0.97 }, // read right, sure
        { set: 'd6' as const, face: '5', confidence: 0.6, uncertain: true }, // marked, left as read
        { set: 'd6' as const, face: '6', corrected: true, readAs: '5', readUncertain: true }, // marked, misread
        { set: 'd6' as const, face: '2', corrected: true, readAs: '3' }, // misread without the mark
        { set: 'd6' as const, face: '1', corrected: true, readAs: '1', color: 'red', readColor: 'white' }, // only its colour fixed
        { set: 'd6' as const, face: '3', added: true }, // the camera missed it
        { set: 'worm' as const, face: 'worm', confidence: 0.9 }, // another set
      ],
      // Boxes a person took out ("Not a die"), as the camera read them.
      removed: [{ set: 'd6' as const, face: '2' }, { set: 'd6' as const, face: '5' }],
    };
    expect(countInPlay(roll, 'd6')).toEqual({ dice: 5, right: 3, marked: 2, wrongUnmarked: 1, missed: 1, notDice: 2 });
    expect(countInPlay(roll, 'worm')).toEqual({ dice: 1, right: 1, marked: 0, wrongUnmarked: 0, missed: 0, notDice: 0 });
    expect(countInPlay(roll, 'piecepack')).toEqual({ dice: 0, right: 0, marked: 0, wrongUnmarked: 0, missed: 0, notDice: 0 });
  });
});
