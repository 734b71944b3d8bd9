/**
 * 10,000 seeded random and malformed messages from three phones (a viewer, a player, the referee):
 * the server stays up, every refused message leaves the table exactly as it was, every accepted
 * intent moves it one version on, and a restart replays to the same table.
 */
import { describe, expect, it } from 'vitest';
import type { Ack } from '../../shared/protocol.js';
import { createRng } from '../../shared/rng.js';
import { fuzzMessage, type FuzzMessage } from '../support/fuzz-payloads.js';
import { connectPhone, type Phone } from '../support/phone.js';
import { startTestServer } from '../support/server.js';

const MESSAGES = 10_000;
const STACK = /\n\s+at |\.ts:\d+|\.js:\d+|node_modules/;

type Outcome = { kind: 'ack'; ack: Ack } | { kind: 'closed' };

/** Emits with an ack; a connection the server closed (garbage at the protocol level) answers 'closed'. */
function exchange(phone: Phone, message: FuzzMessage, version: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = phone.socket;
    const timer = setTimeout(() => reject(new Error(`no answer to ${message.kind} ${message.category}`)), 20_000);
    const done = (o: Outcome) => {
      clearTimeout(timer);
      socket.off('disconnect', onClose);
      resolve(o);
    };
    const onClose = () => done({ kind: 'closed' });
    socket.on('disconnect', onClose);
    if (message.kind === 'emit') {
      socket.emit(message.event, ...message.args, (ack: Ack) => done({ kind: 'ack', ack }));
    } else {
      // Raw packets carry no ack: follow with a stale intent, answered after everything before it.
      socket.io.engine.write(message.packet);
      socket.emit('intent', { version: version + 1_000_000, intent: { type: 'undo' } }, () => done({ kind: 'ack', ack: { ok: false, code: 'intent/stale', message: 'sync' } }));
    }
  });
}

describe('fuzzing the socket', () => {
  it(`${MESSAGES} random and malformed messages: the server stays up and refused ones change nothing`, async () => {
    const server = await startTestServer({
      // The fuzz is about validation, so the rate limits are opened wide (they have their own test).
      config: { limits: { intentsPerSecond: 10_000, intentBurst: 100_000, joinsPerMinute: 100_000 } },
    });
    const rng = createRng('clew-fuzz-1');
    const auths = [
      undefined,
      { role: 'player', code: server.clew.codes.joinCode, player: 'ann' },
      { role: 'referee', code: server.clew.codes.refereeCode },
    ];
    const phones: Phone[] = [];
    for (const auth of auths) phones.push(await connectPhone(server.url, auth ? { auth } : {}));
    const counts = new Map<string, { sent: number; accepted: number; closed: number }>();
    let reconnects = 0;

    try {
      for (let i = 0; i < MESSAGES; i++) {
        const slot = rng.int(0, phones.length - 1);
        const phone = phones[slot]!;
        const before = server.clew.session.table;
        const beforeJson = JSON.stringify(before);
        const message = fuzzMessage(rng, before.version);
        const outcome = await exchange(phone, message, before.version);
        const after = server.clew.session.table;
        const count = counts.get(message.category) ?? { sent: 0, accepted: 0, closed: 0 };
        count.sent++;
        counts.set(message.category, count);

        const accepted = outcome.kind === 'ack' && outcome.ack.ok && message.kind === 'emit' && message.event === 'intent';
        if (accepted) {
          count.accepted++;
          expect(after.version, `message ${i} (${message.category}) was accepted`).toBe(before.version + 1);
        } else {
          if (JSON.stringify(after) !== beforeJson) {
            throw new Error(`message ${i} (${message.category}) was refused but changed the table: ${JSON.stringify(message).slice(0, 300)}`);
          }
        }
        if (outcome.kind === 'ack' && !outcome.ack.ok) expect(outcome.ack.message).not.toMatch(STACK);
        if (outcome.kind === 'closed') {
          count.closed++;
          reconnects++;
          phone.close();
          const auth = auths[slot];
          phones[slot] = await connectPhone(server.url, auth ? { auth } : {});
        }
      }

      // Still up: a new phone joins and plays.
      const late = await connectPhone(server.url, { auth: { role: 'referee', code: server.clew.codes.refereeCode } });
      phones.push(late);
      expect(late.latest().version).toBe(server.clew.session.table.version);
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
      for (const p of phones) expect(p.errors.every((e) => !STACK.test(e.message))).toBe(true);

      // Every category was exercised, and some plausible intents really were accepted.
      expect([...counts.keys()].sort()).toEqual(
        ['bad joins', 'binary junk', 'deep nesting', 'deep nesting (raw)', 'huge strings', 'near misses', 'plausible intents', 'raw protocol garbage', 'unknown events', 'unknown intents', 'wrong types', 'wrong versions'].sort(),
      );
      expect(counts.get('plausible intents')!.accepted).toBeGreaterThan(50);
      expect(counts.get('wrong versions')!.accepted).toBe(0);
      expect(counts.get('unknown intents')!.accepted).toBe(0);
      expect(reconnects).toBeGreaterThan(0);

      // What was accepted is what the log replays.
      const table = server.clew.session.table;
      for (const p of phones) p.close();
      await server.stop();
      const again = await startTestServer({ dataDir: server.dataDir });
      expect(again.clew.session.table).toEqual(table);
      await again.close();
    } finally {
      for (const p of phones) p.close();
      await server.close();
    }
  });
});
