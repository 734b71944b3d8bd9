/**
 * Security at the edge: no action without the join code, hour control and undo only for the
 * referee or the buttons, size and rate limits, and no stack trace ever sent to a phone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fail, ok, type TableGame } from '../../shared/game.js';
import { MAX_INTENT_CHARS, MAX_PAYLOAD_BYTES, type Ack } from '../../shared/protocol.js';
import { RACE } from '../support/games.js';
import { raceGame } from '../support/race-game.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const STACK = /\n\s+at |\.ts:\d+|\.js:\d+|node_modules/;

describe('who may do what', () => {
  it('players cannot advance the hour, undo, press the table buttons or start a game; the referee can', async () => {
    server = await startTestServer();
    const ann = await server.phone();
    const referee = await server.phone();
    await ann.join('player', server.clew.codes.joinCode, 'ann');
    await referee.join('referee', server.clew.codes.refereeCode);
    await referee.send({ type: 'move', move: { type: 'roll', player: 'ann', face: 2 } });
    for (const intent of [
      { type: 'move', move: { type: 'next' } },
      { type: 'button', button: 'NEXT' },
      { type: 'button', button: 'BACK' },
      { type: 'undo' },
      { type: 'table/setup', game: RACE, options: {} },
      { type: 'calibration/commit', set: 'd6' },
    ]) {
      expect(await ann.send(intent, 2)).toMatchObject({ ok: false, code: 'auth/not-referee' });
    }
    expect(server.clew.session.table.version).toBe(2);
    expect(await referee.send({ type: 'button', button: 'NEXT' }, 2)).toEqual({ ok: true, version: 3 });
  });

  it('a player cannot act for another player', async () => {
    server = await startTestServer();
    const bob = await server.phone({ role: 'player', code: server.clew.codes.joinCode, player: 'bob' });
    expect(await bob.send({ type: 'move', move: { type: 'roll', player: 'ann', face: 6 } })).toMatchObject({ ok: false, code: 'auth/not-your-move' });
  });

  it('sending frames needs the join code too', async () => {
    server = await startTestServer();
    const viewer = await server.phone();
    expect(await viewer.emit('frame', Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toMatchObject({ ok: false, code: 'auth/not-joined' });
  });
});

describe('limits', () => {
  it('a phone that sends too fast is refused with rate/limited, and the refused intents change nothing', async () => {
    server = await startTestServer({ config: { limits: { intentBurst: 5, intentsPerSecond: 0.1 } } });
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    const acks: Ack[] = [];
    for (let i = 0; i < 8; i++) acks.push(await referee.send({ type: 'dice/manual', dice: [{ set: 'd6', face: String((i % 6) + 1) }] }, 1 + Math.min(i, 5)));
    expect(acks.slice(0, 5).every((a) => a.ok)).toBe(true);
    expect(acks.slice(5)).toEqual(Array(3).fill(expect.objectContaining({ ok: false, code: 'rate/limited' })));
    expect(server.clew.session.table.version).toBe(6);
  });

  it('camera frames are limited per phone', async () => {
    server = await startTestServer({ config: { limits: { framesPerSecond: 2 } } });
    const ann = await server.phone({ role: 'player', code: server.clew.codes.joinCode, player: 'ann' });
    const codes: string[] = [];
    // A tiny but complete JPEG (start and end markers): the phone camera takes it.
    for (let i = 0; i < 4; i++) {
      const ack = await ann.emit('frame', Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
      codes.push(ack.ok ? 'ok' : ack.code);
    }
    expect(codes).toEqual(['ok', 'ok', 'rate/camera-frames', 'rate/camera-frames']);
  });

  it('join attempts are limited per phone and per address, so a code cannot be guessed', async () => {
    server = await startTestServer({ config: { limits: { joinsPerMinute: 4 } } });
    const codes: string[] = [];
    for (let round = 0; round < 3; round++) {
      // A fresh phone each round: the limit follows the address, not the connection.
      const phone = await server.phone();
      for (let i = 0; i < 2; i++) codes.push(((await phone.join('player', `WRONG${round}${i}`, 'ann')) as { code: string }).code);
    }
    expect(codes.slice(0, 4)).toEqual(Array(4).fill('auth/bad-code'));
    expect(codes.slice(4)).toEqual(['rate/join', 'rate/join']);
    const late = await server.phone();
    expect(await late.join('player', server.clew.codes.joinCode, 'ann')).toMatchObject({ ok: false, code: 'rate/join' });
  });

  it('an intent larger than the intent limit is refused as too large', async () => {
    server = await startTestServer();
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    const ack = await referee.send({ type: 'move', move: { type: 'next', padding: 'x'.repeat(MAX_INTENT_CHARS) } });
    expect(ack).toMatchObject({ ok: false, code: 'payload/too-large' });
  });

  it('a message over the socket limit closes that connection; the server and other phones carry on', async () => {
    server = await startTestServer();
    const big = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    const other = await server.phone({ role: 'player', code: server.clew.codes.joinCode, player: 'ann' });
    const closed = new Promise<string>((resolve) => big.socket.once('disconnect', resolve));
    big.socket.emit('intent', { version: 1, intent: { type: 'move', move: 'x'.repeat(MAX_PAYLOAD_BYTES + 10) } });
    expect(await closed).toMatch(/transport close|transport error/);
    expect(await other.send({ type: 'dice/manual', dice: [{ set: 'd6', face: '1' }] })).toEqual({ ok: true, version: 2 });
  });

  it('dice reads over HTTP are rate-limited per address', async () => {
    server = await startTestServer();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await fetch(`${server.url}/api/dice/read`, { method: 'POST', body: Buffer.from('x') })).status);
    // No reader here (503) for the burst of five, then refused for speed.
    expect(statuses.slice(0, 5)).toEqual([503, 503, 503, 503, 503]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('an image over the upload limit is a JSON 413', async () => {
    server = await startTestServer({ config: { limits: { imageBytes: 2048 } } });
    const res = await fetch(`${server.url}/api/dice/read`, { method: 'POST', body: Buffer.alloc(4096, 1) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'payload/too-large' });
  });
});

describe('no stack traces', () => {
  it('an engine that throws gives server/internal with a plain message; the table is unchanged and still works', async () => {
    // A broken engine (TableGame promises never to throw; the server must not trust that).
    const broken: TableGame = {
      ...raceGame,
      apply: (state, move) => {
        if ((move as { face?: number }).face === 6) throw new Error('kaboom in the engine');
        return raceGame.apply(state, move);
      },
    };
    server = await startTestServer({ games: (id) => (id === RACE ? broken : undefined) });
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    const ack = await referee.send({ type: 'move', move: { type: 'roll', player: 'ann', face: 6 } });
    expect(ack).toMatchObject({ ok: false, code: 'server/internal' });
    if (!ack.ok) {
      expect(ack.message).not.toMatch(STACK);
      expect(ack.message).not.toContain('kaboom');
    }
    expect(server.clew.session.table.version).toBe(1);
    expect(await referee.send({ type: 'move', move: { type: 'roll', player: 'ann', face: 5 } })).toEqual({ ok: true, version: 2 });
    // The details are in the server's own log, for the owner.
    expect(server.logger.lines.some((l) => l.level === 'error' && l.message.includes('kaboom'))).toBe(true);
  });

  it('refusals of malformed payloads name what was wrong, without a trace', async () => {
    server = await startTestServer();
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    const acks = [
      await referee.emit('intent', 'not an object'),
      await referee.emit('intent', { version: -1, intent: { type: 'undo' } }),
      await referee.emit('intent', { version: 1, intent: { type: 'teleport' } }),
      await referee.emit('join', { code: 12, role: 'god' }),
      await referee.emit('whatever', 1, 2, 3),
    ];
    for (const ack of acks) {
      expect(ack.ok).toBe(false);
      if (!ack.ok) {
        expect(ack.code).toMatch(/^(payload)\//);
        expect(ack.message).not.toMatch(STACK);
      }
    }
    expect(acks[1]).toMatchObject({ message: expect.stringContaining('version') });
    // A join or an intent sent with only its callback: no payload, not "a function".
    for (const event of ['join', 'intent']) {
      const ack = await new Promise<Ack>((resolve) => referee.socket.emit(event, resolve));
      expect(ack).toMatchObject({ ok: false, code: 'payload/invalid', message: expect.stringMatching(/received undefined/) });
    }
  });

  it('an intent nested deeper than any clew sends is refused as too deep before it is parsed, and changes nothing', async () => {
    server = await startTestServer();
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    let deep: unknown = 'x';
    for (let i = 0; i < 2_000; i++) deep = [deep];
    const version = server.clew.session.table.version;
    expect(await referee.send({ type: 'move', move: deep })).toMatchObject({ ok: false, code: 'payload/too-deep', message: 'the intent is nested too deeply (more than 64 levels)' });
    expect(server.clew.session.table.version).toBe(version);
    // An ordinary intent still goes through.
    expect(await referee.send({ type: 'undo' })).toMatchObject({ code: 'table/nothing-to-undo' });
  });

  it('an engine that throws on reading state does not bring the server down (HTTP gets a plain 500)', async () => {
    let explode = false;
    const fragile: TableGame = {
      ...raceGame,
      status: (state) => {
        if (explode) throw new Error('status exploded');
        return raceGame.status(state);
      },
      setup: (options) => (options === 'bad' ? fail('setup/invalid', 'bad') : raceGame.setup(options)),
      diceMove: (state, dice) => (dice.length ? raceGame.diceMove(state, dice) : ok(null)),
    };
    server = await startTestServer({ games: (id) => (id === RACE ? fragile : undefined) });
    explode = true;
    const res = await fetch(`${server.url}/api/table`);
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(body).not.toMatch(STACK);
    expect(JSON.parse(body)).toMatchObject({ code: 'server/internal' });
    explode = false;
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
