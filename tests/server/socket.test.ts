/**
 * The table over real sockets: phones join with the code, act, and all see the same versioned
 * snapshots; stale intents and reconnects resync; buttons and the referee run the table.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TableSnapshot } from '../../shared/protocol.js';
import { connectPhone, type Phone } from '../support/phone.js';
import type { RaceState } from '../support/race-game.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { lanAddresses, lanInvite, localUrl } from '../../web/server/lan.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

const race = (s: TableSnapshot) => s.state as RaceState;
const at = (version: number) => (s: TableSnapshot) => s.version === version;

/** A referee and the two players, joined. */
async function table(): Promise<{ referee: Phone; ann: Phone; bob: Phone }> {
  const { joinCode, refereeCode } = server.clew.codes;
  const referee = await server.phone();
  const ann = await server.phone();
  const bob = await server.phone();
  expect(await referee.join('referee', refereeCode)).toMatchObject({ ok: true });
  expect(await ann.join('player', joinCode, 'ann')).toMatchObject({ ok: true });
  expect(await bob.join('player', joinCode, 'bob')).toMatchObject({ ok: true });
  return { referee, ann, bob };
}

describe('joining', () => {
  it('a phone that connects sees the table at once, as a viewer, without any code', async () => {
    const phone = await server.phone();
    const s = phone.latest();
    expect(s).toMatchObject({ protocol: 1, version: 1, game: 'worm-up', you: { role: 'viewer' } });
    expect(s.players.map((p) => p.id)).toEqual(['ann', 'bob']);
    expect(JSON.stringify(s)).not.toContain(server.clew.codes.joinCode);
    expect(JSON.stringify(s)).not.toContain(server.clew.codes.refereeCode);
  });

  it('the referee sees both codes; a player sees neither', async () => {
    const { referee, ann } = await table();
    expect(referee.latest().you).toEqual({ role: 'referee', joinCode: server.clew.codes.joinCode, refereeCode: server.clew.codes.refereeCode });
    expect(ann.latest().you).toEqual({ role: 'player', player: 'ann' });
  });

  it('listening on every interface, the referee is also told the LAN address other phones reach clew at (for the QR code); a player is not', async () => {
    await server.close();
    server = await startTestServer({ config: { host: '0.0.0.0' } });
    const { referee, ann } = await table();
    const port = Number(new URL(server.url).port);
    const lan = lanAddresses()[0];
    expect(referee.latest().you).toEqual({ role: 'referee', joinCode: server.clew.codes.joinCode, refereeCode: server.clew.codes.refereeCode, ...(lan ? { lanUrl: `http://${lan}:${port}` } : {}) });
    expect(ann.latest().you).toEqual({ role: 'player', player: 'ann' });
    // The rule itself, whatever this machine's network.
    expect(lanInvite('0.0.0.0', 8080, ['192.168.1.20', '10.0.0.5'])).toBe('http://192.168.1.20:8080');
    expect(lanInvite('::', 8080, ['192.168.1.20'])).toBe('http://192.168.1.20:8080');
    expect(lanInvite('0.0.0.0', 8080, [])).toBeNull();
    // IPv6 addresses in brackets, as URLs write them.
    expect(lanInvite('::', 8080, ['fd00::20'])).toBe('http://[fd00::20]:8080');
    expect(localUrl('::1', 8739)).toBe('http://[::1]:8739');
    expect(localUrl('127.0.0.1', 8739)).toBe('http://127.0.0.1:8739');
    expect(lanInvite('127.0.0.1', 8080, ['192.168.1.20'])).toBeNull();
    expect(lanInvite('192.168.1.20', 8080, ['192.168.1.20'])).toBeNull();
    // A laptop with Docker and a VPN: the Wi-Fi address comes first, whatever order the system lists them in.
    const info = (address: string, internal = false) => ({ address, family: 'IPv4' as const, internal, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: `${address}/24` });
    expect(lanAddresses({ lo: [info('127.0.0.1', true)], docker0: [info('172.17.0.1')], 'br-1a2b': [info('172.18.0.1')], tailscale0: [info('100.64.0.7')], wlp2s0: [info('192.168.1.20')], enp3s0: [info('10.0.0.5')] })).toEqual(['192.168.1.20', '10.0.0.5', '172.17.0.1', '172.18.0.1', '100.64.0.7']);
    expect(lanAddresses({ lo: [info('127.0.0.1', true)] })).toEqual([]);
  });

  it('codes are not case-sensitive', async () => {
    const phone = await server.phone();
    expect(await phone.join('player', server.clew.codes.joinCode.toLowerCase(), 'ann')).toMatchObject({ ok: true });
  });

  it('a wrong code, the join code used for referee, or a seat that does not exist is refused', async () => {
    const phone = await server.phone();
    expect(await phone.join('player', 'ZZZZZ', 'ann')).toMatchObject({ ok: false, code: 'auth/bad-code' });
    expect(await phone.join('referee', server.clew.codes.joinCode)).toMatchObject({ ok: false, code: 'auth/bad-code' });
    const seat = await phone.join('player', server.clew.codes.joinCode, 'zoe');
    expect(seat).toMatchObject({ ok: false, code: 'auth/no-such-seat' });
    if (!seat.ok) expect(seat.message).toContain('ann, bob');
    expect(phone.latest().you.role).toBe('viewer');
  });

  it('no action without the join code: a viewer’s intent is refused and changes nothing', async () => {
    const phone = await server.phone();
    const ack = await phone.send({ type: 'move', move: { type: 'roll', player: 'ann', face: 6 } });
    expect(ack).toMatchObject({ ok: false, code: 'auth/not-joined' });
    expect(server.clew.session.table.version).toBe(1);
  });

  it('a phone can join in the handshake and is in its seat from the first snapshot', async () => {
    const phone = await server.phone({ role: 'player', code: server.clew.codes.joinCode, player: 'bob' });
    expect(phone.snapshots[0]?.you).toEqual({ role: 'player', player: 'bob' });
  });
});

describe('playing', () => {
  it('two phones and a referee: a roll entered, confirmed, the turn passed; everyone sees each version', async () => {
    const { referee, ann, bob } = await table();
    expect(await ann.send({ type: 'dice/manual', dice: [{ set: 'd6', face: '4' }] })).toEqual({ ok: true, version: 2 });
    for (const p of [referee, ann, bob]) expect((await p.snapshot(at(2))).roll).toMatchObject({ source: 'manual', dice: [{ set: 'd6', face: '4' }] });

    expect(await bob.send({ type: 'dice/confirm' })).toMatchObject({ ok: false, code: 'auth/not-your-move' });
    expect(await ann.send({ type: 'dice/confirm' })).toEqual({ ok: true, version: 3 });
    for (const p of [referee, ann, bob]) {
      const s = await p.snapshot(at(3));
      expect(race(s).positions).toEqual({ ann: 4, bob: 0 });
      expect(s.roll).toBeNull();
      expect(s.status.headline).toBe("ann's turn");
    }

    expect(await ann.send({ type: 'button', button: 'NEXT' })).toMatchObject({ ok: false, code: 'auth/not-referee' });
    expect(await referee.send({ type: 'button', button: 'NEXT' })).toEqual({ ok: true, version: 4 });
    expect((await bob.snapshot(at(4))).status).toMatchObject({ headline: "bob's turn", toAct: ['bob'] });
  });

  it('dice read, corrected, confirmed: the game gets the corrected face and the correction is on record', async () => {
    const { referee, ann } = await table();
    // A camera reading arrives as the session's camera roll (the camera pipeline's entry point).
    await server.clew.session.cameraRoll([{ set: 'd6', face: '2', confidence: 0.41, uncertain: true, box: [10, 10, 40, 40] }], 'camera');
    const read = await ann.snapshot(at(2));
    expect(read.roll).toMatchObject({ source: 'camera', needsConfirmation: true });

    expect(await referee.send({ type: 'dice/correct', index: 0, face: '5' })).toEqual({ ok: true, version: 3 });
    const corrected = await ann.snapshot(at(3));
    expect(corrected.roll?.dice[0]).toMatchObject({ face: '5', corrected: true, readAs: '2' });
    expect(corrected.roll?.needsConfirmation).toBe(false);

    expect(await ann.send({ type: 'dice/confirm' })).toEqual({ ok: true, version: 4 });
    expect(race(await referee.snapshot(at(4))).positions.ann).toBe(5);
  });

  it('undo: only the referee (or BACK) may, and it restores the roll as it was', async () => {
    const { referee, ann, bob } = await table();
    await ann.send({ type: 'dice/manual', dice: [{ set: 'd6', face: '6' }] });
    await ann.send({ type: 'dice/confirm' }, 2);
    expect(await ann.send({ type: 'undo' }, 3)).toMatchObject({ ok: false, code: 'auth/not-referee' });
    expect(await referee.send({ type: 'undo' }, 3)).toEqual({ ok: true, version: 4 });
    const s = await bob.snapshot(at(4));
    expect(race(s).positions.ann).toBe(0);
    expect(s.roll?.dice[0]?.face).toBe('6');
  });

  it('a stale version is refused with the current version, and changes nothing', async () => {
    const { ann, bob, referee } = await table();
    // Both phones act on version 1; Ann's lands first.
    const first = await ann.send({ type: 'dice/manual', dice: [{ set: 'd6', face: '3' }] }, 1);
    const second = await bob.send({ type: 'dice/manual', dice: [{ set: 'd6', face: '1' }] }, 1);
    expect(first).toEqual({ ok: true, version: 2 });
    expect(second).toMatchObject({ ok: false, code: 'intent/stale', version: 2 });
    expect((await referee.snapshot(at(2))).roll?.dice[0]?.face).toBe('3');
    expect(server.clew.session.table.version).toBe(2);
  });

  it('an illegal move gets the game’s code and changes nothing', async () => {
    const { referee } = await table();
    expect(await referee.send({ type: 'move', move: { type: 'next' } })).toMatchObject({ ok: false, code: 'move/wrong-phase', version: 1 });
    expect(server.clew.session.table.version).toBe(1);
  });

  it('without an ack callback, a refusal arrives as an error event', async () => {
    const { ann } = await table();
    const error = new Promise((resolve) => ann.socket.once('error', resolve));
    ann.socket.emit('intent', { version: 99, intent: { type: 'dice/confirm' } });
    expect(await error).toMatchObject({ code: 'intent/stale', version: 1 });
  });

  it('the hardware buttons run the table: NEXT passes the turn, BACK undoes, OK uses the roll', async () => {
    const { referee } = await table();
    await server.clew.session.cameraRoll([{ set: 'd6', face: '3', confidence: 0.99 }], 'camera');
    server.buttons.press('OK');
    expect(race(await referee.snapshot(at(3))).positions.ann).toBe(3);
    server.buttons.press('NEXT');
    expect((await referee.snapshot(at(4))).status.headline).toBe("bob's turn");
    server.buttons.press('BACK');
    expect((await referee.snapshot(at(5))).status.headline).toBe("ann's turn");
  });

  it('a new game set up by the referee reaches every phone', async () => {
    const { referee, bob } = await table();
    const players = [{ id: 'ann', name: 'Ann' }, { id: 'bob', name: 'Bob' }, { id: 'cy', name: 'Cy' }];
    expect(await referee.send({ type: 'table/setup', game: 'worm-up', options: { players, goal: 5 } })).toEqual({ ok: true, version: 2 });
    const s = await bob.snapshot(at(2));
    expect(s.players.map((p) => p.id)).toEqual(['ann', 'bob', 'cy']);
    expect(race(s).goal).toBe(5);
  });
});

describe('seats after a new game', () => {
  it('a phone whose seat the new game does not have is a viewer again, told why; its intents are refused', async () => {
    const { referee, bob } = await table();
    expect(await referee.send({ type: 'table/setup', game: 'worm-up', options: { players: [{ id: 'ann', name: 'Ann' }, { id: 'cy', name: 'Cy' }], goal: 5 } })).toEqual({ ok: true, version: 2 });
    const s = await bob.snapshot((x) => x.version === 2 && x.you.role === 'viewer');
    expect(s.you).toEqual({ role: 'viewer' });
    expect(bob.errors).toContainEqual({ code: 'auth/no-such-seat', message: 'the table was set up again without the seat "bob": choose your seat again', version: 2 });
    expect(await bob.send({ type: 'dice/manual', dice: [{ set: 'd6', face: '3' }] })).toMatchObject({ ok: false, code: 'auth/not-joined' });
    expect(server.clew.session.table.version).toBe(2);
  });
});

describe('reconnecting', () => {
  it('a phone that was away gets the latest snapshot the moment it reconnects', async () => {
    const { referee, ann } = await table();
    ann.close();
    await referee.send({ type: 'dice/manual', dice: [{ set: 'd6', face: '2' }] });
    await referee.send({ type: 'dice/confirm' });
    const back = await connectPhone(server.url, { auth: { role: 'player', code: server.clew.codes.joinCode, player: 'ann' } });
    try {
      expect(back.snapshots[0]).toMatchObject({ version: 3, you: { role: 'player', player: 'ann' } });
      expect(race(back.snapshots[0]!).positions.ann).toBe(2);
    } finally {
      back.close();
    }
  });

  it('after a server restart the table and the codes are the same, and phones rejoin in their seats', async () => {
    const { referee } = await table();
    await referee.send({ type: 'dice/manual', dice: [{ set: 'd6', face: '5' }] });
    await referee.send({ type: 'dice/confirm' });
    const codes = server.clew.codes;
    const before = server.clew.session.table;
    await server.stop();
    server = await startTestServer({ dataDir: server.dataDir });
    expect(server.clew.codes).toEqual(codes);
    expect(server.clew.session.table).toEqual(before);
    const ann = await server.phone({ role: 'player', code: codes.joinCode, player: 'ann' });
    expect(ann.latest()).toMatchObject({ version: 3, you: { player: 'ann' } });
  });
});

describe('HTTP', () => {
  it('GET /api/table is the viewer snapshot: no codes', async () => {
    const { referee } = await table();
    const body = (await (await fetch(`${server.url}/api/table`)).json()) as TableSnapshot;
    expect(body).toEqual({ ...referee.latest(), you: { role: 'viewer' } });
  });

  it('GET /api/health reports camera, buttons, model and log', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      buttons: [{ kind: 'test-buttons', ok: true }],
      log: { ok: true, entries: 1 },
      camera: { kind: 'none' },
      model: {},
    });
  });

  it('/ serves a page that says the dashboard is not built, when it is not', async () => {
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('dashboard is not built');
  });

  it('an unknown API path is a JSON 404', async () => {
    const res = await fetch(`${server.url}/api/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'server/not-found' });
  });
});
