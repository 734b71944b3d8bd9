/**
 * Power cuts, simulated: the server runs as a child process and is killed with SIGKILL at seeded
 * moments of a scripted game of The worm is drawn (often with intents in flight, and with the log
 * compacting every few events so some kills land mid-compaction). After every restart the table
 * must equal the replay of every acknowledged intent, plus possibly a prefix of the ones still in
 * flight (written but not yet acknowledged) and nothing else.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legalMoves, type TwidState } from '../../shared/games/the-worm-is-drawn/index.js';
import { GAMES } from '../../shared/games/registry.js';
import type { Ack, Intent, TableSnapshot } from '../../shared/protocol.js';
import { createRng, type Rng } from '../../shared/rng.js';
import { decide, evolve, isTableIntent, type Actor, type GameLookup, type TableState } from '../../web/server/table.js';
import { bundleChildServer, standbyChild, type ServerChild } from '../support/child.js';
import { connectPhone, type Phone } from '../support/phone.js';
import { tempDir } from '../support/tmp.js';

const ROUNDS = 16;
/** Servers loading their code while the current one plays (a Node start is the slow part). */
const WARM = 2;
const games: GameLookup = (id) => GAMES[id];
const referee: Actor = { kind: 'referee' };
const PLAYERS = { players: [{ id: 'ann', name: 'Ann' }, { id: 'bob', name: 'Bob' }] };
const FACES = ['1', '2', '3', '4', '5', 'worm'];

/** The referee's next intent in a plausible game: roll, sometimes correct, confirm, choose, undo. */
function nextIntent(rng: Rng, table: TableState): Intent {
  const game = games(table.game)!;
  if (rng.next() < 0.07 && table.undo.length) return { type: 'undo' };
  if (table.roll) {
    if (rng.next() < 0.25) return { type: 'dice/correct', index: rng.int(0, table.roll.dice.length - 1), face: rng.pick(FACES) };
    return { type: 'dice/confirm' };
  }
  const request = game.diceRequest(table.state);
  if (request) {
    const n = request.count?.min ?? 1;
    return { type: 'dice/manual', dice: Array.from({ length: n }, () => ({ set: 'worm' as const, face: rng.pick(FACES) })) };
  }
  if (game.status(table.state).finished) return { type: 'table/setup', game: 'the-worm-is-drawn', options: PLAYERS };
  const moves = legalMoves(table.state as TwidState);
  return moves.length ? { type: 'move', move: rng.pick(moves) } : { type: 'button', button: 'NEXT' };
}

/** What the oracle (the pure table core) says an intent does. */
function fold(table: TableState, intent: Intent): { table: TableState; ok: boolean } {
  if (!isTableIntent(intent)) return { table, ok: false };
  const d = decide(table, referee, intent, games);
  return d.ok ? { table: d.table, ok: true } : { table, ok: false };
}

const visible = (t: TableState | TableSnapshot) => ({ version: t.version, game: t.game, options: t.options, state: t.state, roll: t.roll });

let entry: string;
beforeAll(async () => {
  entry = await bundleChildServer();
});
afterAll(async () => {
  await rm(entry, { force: true });
});

describe('killing the server', () => {
  // Each restart is a fresh Node process (about a second of CPU); a shared machine needs the room.
  it(`${ROUNDS} SIGKILLs at seeded moments: after each restart the table is the replay of the acknowledged intents`, { timeout: 180_000 }, async () => {
    const { dir, remove } = await tempDir('clew-kill-');
    const rng = createRng('clew-kill-1');
    const env = { CLEW_DATA: dir, CLEW_COMPACT_EVERY: '7' };
    let oracle: TableState | null = null;
    let inFlight: Intent[] = [];
    const standby: ServerChild[] = Array.from({ length: WARM }, () => standbyChild(entry, env));
    const stats = { acked: 0, inFlightLanded: 0, inFlightLost: 0, refused: 0 };
    let phone: Phone | null = null;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const child = standby.shift()!;
        const info = await child.go();
        // The next servers load their code while this one plays; they touch the data only on `go`.
        standby.push(standbyChild(entry, env));
        phone = await connectPhone(`http://127.0.0.1:${info.port}`, { auth: { role: 'referee', code: info.refereeCode } });
        const seen = phone.latest();

        if (oracle === null) {
          const first = evolve(null, { type: 'setup', game: 'the-worm-is-drawn', options: PLAYERS }, games);
          if (!first.ok) throw new Error(first.message);
          oracle = first.state;
        }
        // The restarted table: the acknowledged intents, plus some prefix of those in flight.
        const candidates: TableState[] = [oracle];
        for (const intent of inFlight) candidates.push(fold(candidates[candidates.length - 1]!, intent).table);
        const match = candidates.findIndex((c) => JSON.stringify(visible(c)) === JSON.stringify(visible(seen)));
        if (match < 0) {
          throw new Error(`round ${round}: the table after the restart is not a replay of what was acknowledged\n` +
            `server: ${JSON.stringify(visible(seen)).slice(0, 400)}\noracle: ${JSON.stringify(visible(oracle)).slice(0, 400)}\n${child.stderr()}`);
        }
        if (inFlight.length) {
          stats.inFlightLanded += match;
          stats.inFlightLost += inFlight.length - match;
        }
        oracle = candidates[match]!;
        inFlight = [];

        // Play acknowledged intents, one at a time.
        const steps = rng.int(2, 12);
        for (let i = 0; i < steps; i++) {
          const intent = nextIntent(rng, oracle);
          const ack: Ack = await phone.send(intent, oracle.version);
          const expected = fold(oracle, intent);
          expect(ack.ok, `round ${round} step ${i}: ${intent.type} (${ack.ok ? '' : ack.message})`).toBe(expected.ok);
          if (ack.ok) {
            expect(ack.version).toBe(expected.table.version);
            stats.acked++;
          } else stats.refused++;
          oracle = expected.table;
        }

        // Then the power cut: a few intents sent without waiting, and a kill a seeded moment later.
        const burst = rng.int(0, 3);
        let predicted = oracle;
        const arrived: boolean[] = [];
        for (let i = 0; i < burst; i++) {
          const intent = nextIntent(rng, predicted);
          inFlight.push(intent);
          phone.send(intent, predicted.version).then(
            () => (arrived[i] = true),
            () => undefined, // never answered: the server died first
          );
          predicted = fold(predicted, intent).table;
        }
        const delay = rng.int(0, 3);
        if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
        await child.kill();
        // Acks that made it out before the kill are acknowledged: they must survive.
        let acked = 0;
        while (arrived[acked]) acked++;
        for (const intent of inFlight.splice(0, acked)) oracle = fold(oracle, intent).table;
        phone.close();
        phone = null;
      }
      // Everything was exercised: acknowledged work, and kills that caught intents in flight.
      expect(stats.acked).toBeGreaterThan(ROUNDS);
      expect(stats.inFlightLanded + stats.inFlightLost).toBeGreaterThan(0);
    } finally {
      phone?.close();
      for (const s of standby) await s.kill();
      await remove();
    }
  });
});
