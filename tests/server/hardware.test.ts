/**
 * The hardware at the table: buttons and the status LED are started with the server and stopped
 * (pins released) when it closes; the LED blinks while a roll waits for a person to confirm it.
 */
import { describe, expect, it } from 'vitest';
import { ReplayCamera } from '../../device/camera/replay.js';
import { FOUR_D6_REPLAY } from '../support/replays.js';
import type { StatusLed } from '../../device/types.js';
import type { ClewDiceReader } from '../../vision/reader.js';
import type { RollStream } from '../../web/server/camera.js';
import { RACE } from '../support/games.js';
import { raceGame } from '../support/race-game.js';
import { startTestServer } from '../support/server.js';

/** Waits until `cond` holds (the button's effect is asynchronous: a queue and a log write with fsync). */
async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!cond() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}

class TestLed implements StatusLed {
  modes: string[] = [];
  running = false;
  async start() {
    this.running = true;
  }
  async stop() {
    this.running = false;
  }
  set(mode: 'off' | 'on' | 'blink') {
    this.modes.push(mode);
  }
}

describe('buttons and the status LED', () => {
  it('the LED is on while clew runs, blinks while a roll needs confirming, and is off and released at the end', async () => {
    const led = new TestLed();
    const server = await startTestServer({ adapters: { led } });
    expect(led.running).toBe(true);
    expect(server.buttons.running).toBe(true);
    expect(led.modes).toEqual(['on']);

    await server.clew.session.cameraRoll([{ set: 'd6', face: '4', confidence: 0.3, uncertain: true }], 'camera');
    expect(led.modes.at(-1)).toBe('blink');
    server.buttons.press('OK');
    await until(() => server.clew.session.table.roll === null);
    expect(led.modes.at(-1)).toBe('on');

    await server.close();
    expect(led.modes.at(-1)).toBe('off');
    expect(led.running).toBe(false);
    expect(server.buttons.running).toBe(false);
  });

  it('a button that means nothing now changes nothing', async () => {
    const server = await startTestServer();
    server.buttons.press('NEXT'); // Ann has not rolled: nothing to pass on
    server.buttons.press('BACK'); // nothing to undo
    await until(() => server.logger.lines.filter((l) => /^button (NEXT|BACK):/.test(l.message)).length === 2);
    expect(server.clew.session.table.version).toBe(1);
    await server.close();
  });

  /** What the snapshot asks of a reader (the stream stands in for its reading). */
  const standInReader = async () => ({ dispose: () => {}, backend: 'none', modelId: 'none', calibration: { list: () => [], pending: () => ({ counts: {} }) } }) as unknown as ClewDiceReader;

  it('READ, from the button box or a phone, makes the camera\'s reading the pending roll, and the table goes on', async () => {
    // The camera's reading: one 4 (the reader stands in; the replay camera and the pipeline are real).
    const stream: RollStream = { push: async () => null, readNow: async () => [{ set: 'd6', face: '4', confidence: 0.99, box: [0, 0, 10, 10], uncertain: false }], reset: () => {} };
    const camera = new ReplayCamera({ folder: FOUR_D6_REPLAY, fps: 20, loop: true });
    const server = await startTestServer({ config: { vision: { enabled: true } }, adapters: { camera }, start: { loadReader: standInReader, rollStream: () => stream } });
    while (!camera.latest()) await new Promise((r) => setTimeout(r, 10));
    // READ ran inside the table's queue and waited for its own roll there: the table stopped for good.
    const pressed = await server.clew.session.button('READ');
    expect(pressed).toMatchObject({ ok: true, version: 2 });
    expect(server.clew.session.table.roll?.dice.map((d) => d.face)).toEqual(['4']);
    // The queue still answers: BACK says there is nothing to undo (a roll is not a move).
    expect(await server.clew.session.button('BACK')).toMatchObject({ ok: false, code: 'table/nothing-to-undo', version: 2 });
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    const read = await referee.send({ type: 'dice/read' });
    expect(read).toMatchObject({ ok: true });
    expect(server.clew.session.table.roll?.dice.map((d) => d.face)).toEqual(['4']);
    await server.close();
  });

  it('a press whose handling throws (an engine\'s bug) is logged, and the table keeps running', async () => {
    const broken = { ...raceGame, buttonMove: () => { throw new Error('engine bug in buttonMove'); } };
    const server = await startTestServer({ games: (id) => (id === RACE ? (broken as unknown as typeof raceGame) : undefined) });
    server.buttons.press('NEXT');
    await until(() => server.logger.lines.some((l) => l.level === 'error' && /^button NEXT: engine bug in buttonMove/.test(l.message)));
    expect(await server.clew.session.button('BACK')).toMatchObject({ ok: false, code: 'table/nothing-to-undo' });
    await server.close();
  });
});
