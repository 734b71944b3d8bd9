/**
 * A Worm & Cozy paper sheet given to a seat at a real table: the `paperSheet` move goes the
 * generic `move` intent path, so a seated phone gives only its own seat's, the referee any seat's;
 * every phone's snapshot scores the seat from it; BACK undoes it; it survives a restart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CozyState } from '../../shared/games/worm-and-cozy/index.js';
import type { SheetJson } from '../../shared/games/worm-and-cozy/sheet.js';
import type { TableSnapshot } from '../../shared/protocol.js';
import { registryLookup } from '../../web/server/main.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer | undefined;
let second: TestServer | undefined;
afterEach(async () => {
  await second?.close();
  await server?.close();
  server = second = undefined;
});

const PLAYERS = [
  { id: 'ann', name: 'Ann' },
  { id: 'bob', name: 'Bob' },
];

/** Bob's paper: two eyes (+1), four foods (+2), two cozy worms (+2), one worm touching blank (−2): 3. */
const BOB: SheetJson = {
  chapter: 'clew-1',
  worms: [
    { cells: ['A1', 'A2', 'A3', 'A4', 'A5'], shape: 'I', organs: [{ type: 'eye', cell: 'A1', facing: 'N' }] },
    { cells: ['B1', 'B2', 'B3', 'B4', 'B5'], shape: 'I', organs: [{ type: 'eye', cell: 'B1', facing: 'N' }] },
    { cells: ['A6', 'B6', 'C6', 'D6', 'D7'], shape: 'L' },
  ],
  foods: ['C1', 'C2', 'C4', 'C5'],
};

const paperOf = (s: TableSnapshot) => (s.state as CozyState).paper;

/** Sixteen hours with nobody drawing: the table's referee rolls and ends each hour. */
async function playToTheEnd(t: TestServer): Promise<void> {
  const session = t.clew.session;
  for (let h = 0; h < 16; h++) {
    for (const move of [{ type: 'roll', shape: 'I', organs: ['eye', 'eye'] }, { type: 'endHour' }]) {
      const ack = await session.submit({ kind: 'referee' }, { version: session.table.version, intent: { type: 'move', move } });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
    }
  }
}

describe('Worm & Cozy: a paper sheet given to a seat at the end', () => {
  it('a seated phone gives its own seat its sheet (not another seat), every phone sees it, BACK undoes it, a restart keeps it', async () => {
    server = await startTestServer({ games: registryLookup, game: 'worm-and-cozy', options: { chapter: 'clew-1', players: PLAYERS } });
    const { joinCode, refereeCode } = server.clew.codes;
    const bob = await server.phone({ role: 'player', code: joinCode, player: 'bob' });
    const ann = await server.phone({ role: 'player', code: joinCode, player: 'ann' });
    const referee = await server.phone({ role: 'referee', code: refereeCode });
    const early = await bob.send({ type: 'move', move: { type: 'paperSheet', player: 'bob', sheet: BOB } });
    expect(early).toMatchObject({ ok: false, code: 'move/wrong-phase', message: expect.stringMatching(/once the game is over/) });
    await playToTheEnd(server);
    const end = await bob.snapshot((s) => s.status.finished);
    expect(end.status.ranking?.map((r) => [r.player, r.score])).toEqual([['ann', 0], ['bob', 0]]);

    expect(await bob.send({ type: 'move', move: { type: 'paperSheet', player: 'ann', sheet: BOB } }, end.version)).toMatchObject({ ok: false, code: 'auth/not-your-move' });
    const given = await bob.send({ type: 'move', move: { type: 'paperSheet', player: 'bob', sheet: BOB } }, end.version);
    expect(given).toEqual({ ok: true, version: end.version + 1 });
    const seen = await ann.snapshot((s) => s.version === end.version + 1);
    expect(paperOf(seen)?.[0]).toBeNull();
    expect(paperOf(seen)?.[1]?.worms).toHaveLength(3);
    expect(seen.status.ranking).toEqual([{ player: 'bob', score: 3, rank: 0 }, { player: 'ann', score: 0, rank: 1 }]);

    // A bad sheet from the referee is refused with the rules' reason and changes nothing.
    const wrong = await referee.send({ type: 'move', move: { type: 'paperSheet', player: 'ann', sheet: { ...BOB, chapter: 'clew-2' } } }, given.ok ? given.version : 0);
    expect(wrong).toMatchObject({ ok: false, code: 'sheet/invalid', message: expect.stringMatching(/^the sheet is chapter clew-2/) });
    expect(server.clew.session.table.version).toBe(end.version + 1);

    // BACK undoes it, and the referee may give it again (to any seat).
    expect(await referee.send({ type: 'undo' }, end.version + 1)).toEqual({ ok: true, version: end.version + 2 });
    expect(paperOf(await bob.snapshot((s) => s.version === end.version + 2))).toBeUndefined();
    expect(await referee.send({ type: 'move', move: { type: 'paperSheet', player: 'bob', sheet: BOB } }, end.version + 2)).toEqual({ ok: true, version: end.version + 3 });

    const { dataDir } = server;
    await server.stop();
    second = await startTestServer({ games: registryLookup, game: 'worm-and-cozy', options: { chapter: 'clew-1', players: PLAYERS }, dataDir });
    const after = await (await second.phone()).snapshot();
    expect(after.version).toBe(end.version + 3);
    expect(after.status.ranking?.[0]).toEqual({ player: 'bob', score: 3, rank: 0 });
  });
});
