/**
 * Moves made at once on separate sheets (since the forty-second session): in Worm & Cozy every
 * player draws the hour on their own sheet at the same time, so a move made on a table version that
 * other players' own moves have since passed is still decided, on the current table. Anything else
 * that came in between (the roll, the hour's end, an undo, a new game, the same seat's move), a
 * game that declares nothing, or a version older than the session remembers: stale, as before.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ack } from '../../shared/protocol.js';
import { legalOptions, type CozyMove, type CozyState } from '../../shared/games/worm-and-cozy/index.js';
import { silentLogger } from '../../web/server/logger.js';
import { registryLookup } from '../../web/server/main.js';
import { TableSession } from '../../web/server/session.js';
import { replay, type Actor, type TableEvent } from '../../web/server/table.js';
import { RACE, raceOnly } from '../support/games.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const PLAYERS = [
  { id: 'ann', name: 'Ann' },
  { id: 'bob', name: 'Bob' },
  { id: 'cat', name: 'Cat' },
];
const referee: Actor = { kind: 'referee' };
const seat = (player: string): Actor => ({ kind: 'player', player });

function newDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clew-independent-'));
  dirs.push(dir);
  return dir;
}

function openCozy(dataDir: string, recentEvents?: number): Promise<TableSession> {
  return TableSession.open({
    dataDir,
    games: registryLookup,
    initialGame: { game: 'worm-and-cozy', options: { chapter: 'clew-1', players: PLAYERS } },
    onCorrupt: 'refuse',
    compactEvery: 1000,
    logger: silentLogger,
    now: () => 0,
    ...(recentEvents !== undefined ? { recentEvents } : {}),
  });
}

const move = (session: TableSession, by: Actor, m: CozyMove, version: number): Promise<Ack> => session.submit(by, { version, intent: { type: 'move', move: m } });

/** The referee rolls the hour (W: the I shape, an eye and a heart) on the current table. */
async function roll(session: TableSession): Promise<number> {
  expect(await move(session, referee, { type: 'roll', shape: 'I', organs: ['eye', 'heart'] }, session.table.version)).toMatchObject({ ok: true });
  return session.table.version;
}

/** The `n`th legal move of `player` now (placements first, in board order). */
function legal(session: TableSession, player: string, n = 0): CozyMove {
  const m = legalOptions(session.table.state as CozyState, { player }).moves[n];
  if (!m) throw new Error(`${player} has no move ${n}`);
  return m;
}

function loggedEvents(dataDir: string): TableEvent[] {
  return readFileSync(path.join(dataDir, 'table.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { e: TableEvent }).e);
}

describe('Worm & Cozy: players moving at once on their own sheets', () => {
  it('two players’ moves made on the same version are both applied, in the order they came, and the log replays to the same table', async () => {
    const dataDir = newDir();
    const session = await openCozy(dataDir);
    const v = await roll(session);
    const annPlaces = legal(session, 'ann');
    const bobPlaces = legal(session, 'bob', 3);
    // Both confirm within one round trip: both acted on version v.
    const [ann, bob] = await Promise.all([move(session, seat('ann'), annPlaces, v), move(session, seat('bob'), bobPlaces, v)]);
    expect(ann).toEqual({ ok: true, version: v + 1 });
    expect(bob).toEqual({ ok: true, version: v + 2 });
    // Ann's organ for her new worm, chosen before Bob's placement reached her phone.
    const annOrgan = legal(session, 'ann');
    expect(annOrgan.type).toBe('addOrgan');
    expect(await move(session, seat('ann'), annOrgan, v + 1)).toEqual({ ok: true, version: v + 3 });

    const state = session.table.state as CozyState;
    expect(state.sheets[0]!.worms[0]!.organs).toHaveLength(1);
    expect(state.sheets[1]!.worms).toHaveLength(1);
    expect(state.sheets[2]!.worms).toHaveLength(0);
    const events = loggedEvents(dataDir);
    expect(events.slice(-3)).toEqual([
      { type: 'move', move: annPlaces, by: seat('ann') },
      { type: 'move', move: bobPlaces, by: seat('bob') },
      { type: 'move', move: annOrgan, by: seat('ann') },
    ]);
    const replayed = replay(events, registryLookup);
    expect(replayed.ok && replayed.state).toEqual(session.table);
    await session.close();
  });

  it('a move made on an older version is still checked by the rules against the table as it is', async () => {
    const session = await openCozy(newDir());
    const v = await roll(session);
    expect(await move(session, seat('ann'), legal(session, 'ann'), v)).toMatchObject({ ok: true });
    // Bob's food, with no eye acting: illegal whatever the version.
    const refused = await move(session, seat('bob'), { type: 'food', player: 'bob', cell: 'A1' }, v);
    expect(refused).toMatchObject({ ok: false, code: 'move/illegal', version: v + 1 });
    expect(session.table.version).toBe(v + 1);
    await session.close();
  });

  it('a seat’s own move since (a move already in, sent again) makes its older move stale, so nothing is made twice', async () => {
    const session = await openCozy(newDir());
    const v = await roll(session);
    const bobPlaces = legal(session, 'bob');
    expect(await move(session, seat('bob'), bobPlaces, v)).toEqual({ ok: true, version: v + 1 });
    expect(await move(session, seat('ann'), legal(session, 'ann'), v)).toEqual({ ok: true, version: v + 2 });
    expect(await move(session, seat('bob'), bobPlaces, v)).toMatchObject({ ok: false, code: 'intent/stale', version: v + 2 });
    expect((session.table.state as CozyState).sheets[1]!.worms).toHaveLength(1);
    await session.close();
  });

  it('a move made before the hour’s end or the next roll is refused as stale, though other seats’ moves in the hour were not', async () => {
    const session = await openCozy(newDir());
    const v = await roll(session);
    expect(await move(session, seat('ann'), { type: 'done', player: 'ann' }, v)).toEqual({ ok: true, version: v + 1 });
    expect(await move(session, seat('bob'), { type: 'done', player: 'bob' }, v)).toEqual({ ok: true, version: v + 2 });
    const catPlaces = legal(session, 'cat');
    expect(await move(session, referee, { type: 'endHour' }, v + 2)).toEqual({ ok: true, version: v + 3 });
    // Not "the dice have not been rolled": the hour it was made in is over.
    expect(await move(session, seat('cat'), catPlaces, v + 2)).toMatchObject({ ok: false, code: 'intent/stale', version: v + 3 });
    const w = await roll(session);
    // Legal in the new hour too, but it was chosen for the hour before.
    expect(await move(session, seat('cat'), catPlaces, v + 2)).toMatchObject({ ok: false, code: 'intent/stale', version: w });
    // An undo since is not another seat's move either.
    expect(await move(session, seat('ann'), { type: 'done', player: 'ann' }, w)).toEqual({ ok: true, version: w + 1 });
    expect(await session.submit(referee, { version: w + 1, intent: { type: 'undo' } })).toEqual({ ok: true, version: w + 2 });
    expect(await move(session, seat('bob'), { type: 'done', player: 'bob' }, w)).toMatchObject({ ok: false, code: 'intent/stale', version: w + 2 });
    // Nor is the table's own move (the referee's roll), nor is a move from a version the table has not reached.
    expect(await move(session, seat('bob'), { type: 'done', player: 'bob' }, w + 5)).toMatchObject({ ok: false, code: 'intent/stale' });
    expect(session.table.version).toBe(w + 2);
    await session.close();
  });

  it('a move older than the remembered events is refused as stale; one inside them is taken', async () => {
    const session = await openCozy(newDir(), 2);
    const v = await roll(session);
    expect(await move(session, seat('ann'), legal(session, 'ann'), v)).toMatchObject({ ok: true });
    expect(await move(session, seat('ann'), legal(session, 'ann'), v + 1)).toMatchObject({ ok: true });
    expect(await move(session, seat('cat'), legal(session, 'cat'), v + 2)).toEqual({ ok: true, version: v + 3 });
    const bobPlaces = legal(session, 'bob');
    // Three events since v, two remembered: what came between is not known.
    expect(await move(session, seat('bob'), bobPlaces, v)).toMatchObject({ ok: false, code: 'intent/stale', version: v + 3 });
    expect(await move(session, seat('bob'), bobPlaces, v + 1)).toEqual({ ok: true, version: v + 4 });
    await session.close();
  });

  it('after a restart, a move queued before it is judged on the events replayed from the log', async () => {
    const dataDir = newDir();
    const first = await openCozy(dataDir);
    const v = await roll(first);
    const bobPlaces = legal(first, 'bob');
    expect(await move(first, seat('ann'), legal(first, 'ann'), v)).toEqual({ ok: true, version: v + 1 });
    await first.close();
    const again = await openCozy(dataDir);
    expect(await move(again, seat('bob'), bobPlaces, v)).toEqual({ ok: true, version: v + 2 });
    await again.close();
  });
});

describe('a game that declares no independent moves', () => {
  it('keeps the exact-version rule: a player’s move made on an older version is stale', async () => {
    const session = await TableSession.open({
      dataDir: newDir(),
      games: raceOnly,
      initialGame: { game: RACE, options: {} },
      onCorrupt: 'refuse',
      compactEvery: 1000,
      logger: silentLogger,
      now: () => 0,
    });
    expect(await session.submit(seat('ann'), { version: 1, intent: { type: 'move', move: { type: 'roll', player: 'ann', face: 3 } } })).toEqual({ ok: true, version: 2 });
    // Only another seat's move since, as in Worm & Cozy: still stale (not judged by the rules).
    expect(await session.submit(seat('bob'), { version: 1, intent: { type: 'move', move: { type: 'roll', player: 'bob', face: 5 } } })).toMatchObject({ ok: false, code: 'intent/stale', version: 2 });
    expect(await session.submit(referee, { version: 2, intent: { type: 'move', move: { type: 'next' } } })).toEqual({ ok: true, version: 3 });
    // Bob's roll, made on version 2: legal on the table now (his turn), but made on an older view.
    const bob = await session.submit(seat('bob'), { version: 2, intent: { type: 'move', move: { type: 'roll', player: 'bob', face: 4 } } });
    expect(bob).toMatchObject({ ok: false, code: 'intent/stale', version: 3 });
    expect(session.table.version).toBe(3);
    await session.close();
  });
});

describe('a move sent again with its id after its ack was lost (since the forty-second session)', () => {
  /** As the phone sends it: with the id it made for the intent, the same on every resend. */
  const sendWithId = (session: TableSession, by: Actor, m: CozyMove, version: number, id: string): Promise<Ack> =>
    session.submit(by, { version, intent: { type: 'move', move: m }, id });
  const bobsMoves = (events: TableEvent[]) => events.filter((e) => e.type === 'move' && e.by.kind === 'player' && e.by.player === 'bob');

  it('is acknowledged as applied, with the current version, and applied once; the log replays to one such event', async () => {
    const dataDir = newDir();
    const session = await openCozy(dataDir);
    const v = await roll(session);
    const bobPlaces = legal(session, 'bob');
    expect(await sendWithId(session, seat('bob'), bobPlaces, v, 'bobphone-1')).toEqual({ ok: true, version: v + 1 });
    // Ann moves while Bob's phone is away; its ack never reached it, so it sends the move again.
    expect(await move(session, seat('ann'), legal(session, 'ann'), v)).toEqual({ ok: true, version: v + 2 });
    expect(await sendWithId(session, seat('bob'), bobPlaces, v, 'bobphone-1')).toEqual({ ok: true, version: v + 2 });
    expect(session.table.version).toBe(v + 2);
    expect((session.table.state as CozyState).sheets[1]!.worms).toHaveLength(1);
    const events = loggedEvents(dataDir);
    // Logged as Bob's own id (his seat's, then the phone's).
    expect(bobsMoves(events)).toEqual([{ type: 'move', move: bobPlaces, by: seat('bob'), intentId: 'player:bob:bobphone-1' }]);
    const replayed = replay(events, registryLookup);
    expect(replayed.ok && replayed.state).toEqual(session.table);
    await session.close();
  });

  it('after a restart too: the id is read back from the log', async () => {
    const dataDir = newDir();
    const first = await openCozy(dataDir);
    const v = await roll(first);
    const bobPlaces = legal(first, 'bob');
    expect(await sendWithId(first, seat('bob'), bobPlaces, v, 'bobphone-1')).toEqual({ ok: true, version: v + 1 });
    await first.close();
    const again = await openCozy(dataDir);
    expect(await sendWithId(again, seat('bob'), bobPlaces, v, 'bobphone-1')).toEqual({ ok: true, version: v + 1 });
    expect((again.table.state as CozyState).sheets[1]!.worms).toHaveLength(1);
    expect(bobsMoves(loggedEvents(dataDir))).toHaveLength(1);
    await again.close();
  });

  it('the same move with another id is judged as now: stale, its own seat having moved since', async () => {
    const session = await openCozy(newDir());
    const v = await roll(session);
    const bobPlaces = legal(session, 'bob');
    expect(await sendWithId(session, seat('bob'), bobPlaces, v, 'bobphone-1')).toEqual({ ok: true, version: v + 1 });
    expect(await sendWithId(session, seat('bob'), bobPlaces, v, 'bobphone-2')).toMatchObject({ ok: false, code: 'intent/stale', version: v + 1 });
    // An id whose intent was refused made nothing: sent again, it is judged again.
    const food = { type: 'food', player: 'cat', cell: 'A1' } as const;
    expect(await sendWithId(session, seat('cat'), food, v + 1, 'catphone-1')).toMatchObject({ ok: false, code: 'move/illegal' });
    expect(await sendWithId(session, seat('cat'), food, v + 1, 'catphone-1')).toMatchObject({ ok: false, code: 'move/illegal' });
    expect(session.table.version).toBe(v + 1);
    await session.close();
  });

  it('another sender\'s intent that happens to carry an id already used (scripts numbering theirs 1, 2, …) is decided, not answered as applied with nothing applied', async () => {
    const session = await TableSession.open({ dataDir: newDir(), games: raceOnly, initialGame: { game: RACE, options: {} }, onCorrupt: 'refuse', compactEvery: 1000, logger: silentLogger, now: () => 0 });
    try {
      // Ann's script rolls for her with id "1".
      expect(await session.submit(seat('ann'), { version: session.table.version, intent: { type: 'move', move: { type: 'roll', player: 'ann', face: 3 } }, id: '1' })).toMatchObject({ ok: true });
      const version = session.table.version;
      // The referee's own script numbers its intents from 1 too: its "next" is applied.
      expect(await session.submit(referee, { version, intent: { type: 'move', move: { type: 'next' } }, id: '1' })).toEqual({ ok: true, version: version + 1 });
      expect(session.table.version).toBe(version + 1);
      // And Ann's own resend of "1" is still known as hers.
      expect(await session.submit(seat('ann'), { version, intent: { type: 'move', move: { type: 'roll', player: 'ann', face: 3 } }, id: '1' })).toEqual({ ok: true, version: version + 1 });
      expect(session.table.version).toBe(version + 1);
    } finally {
      await session.close();
    }
  });
});
