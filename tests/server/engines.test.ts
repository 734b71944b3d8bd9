/**
 * The five real engines at a real table: the registry wires each one, a referee sets it up from a
 * phone, and a roll entered on a phone becomes that game's move.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GAMES, DEFAULT_OPTIONS } from '../../shared/games/registry.js';
import { GAME_IDS, type GameId } from '../../shared/game.js';
import type { TableSnapshot } from '../../shared/protocol.js';
import { registryLookup } from '../../web/server/main.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function refereeAt(game: GameId, options: unknown) {
  server = await startTestServer({ games: registryLookup, game, options });
  const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
  return referee;
}

describe('the registry', () => {
  it('has an engine for every game, and each sets up with its default options', () => {
    for (const id of GAME_IDS) {
      expect(GAMES[id].id).toBe(id);
      expect(GAMES[id].setup(DEFAULT_OPTIONS[id]).ok, id).toBe(true);
    }
  });

  it('a fresh table with no config plays Worm & Cozy, solo', async () => {
    server = await startTestServer({ games: registryLookup, game: 'worm-and-cozy', options: undefined });
    const phone = await server.phone();
    expect(phone.latest()).toMatchObject({ game: 'worm-and-cozy', players: [{ id: 'solo' }] });
  });

  it.each(GAME_IDS)('the referee can start %s from a phone', async (id) => {
    const referee = await refereeAt('worm-and-cozy', {});
    const ack = await referee.send({ type: 'table/setup', game: id, options: DEFAULT_OPTIONS[id] });
    expect(ack).toEqual({ ok: true, version: 2 });
    const s = await referee.snapshot((x) => x.version === 2);
    expect(s.game).toBe(id);
    expect(s.title).toBe(GAMES[id].title);
    expect(s.status.headline.length).toBeGreaterThan(0);
  });
});

describe('a roll becomes the game’s move', () => {
  const confirmed = async (game: GameId, options: unknown, dice: { set: string; face: string; color?: string }[]): Promise<TableSnapshot> => {
    const referee = await refereeAt(game, options);
    const before = referee.latest();
    expect(before.diceRequest).not.toBeNull();
    expect(await referee.send({ type: 'dice/manual', dice })).toEqual({ ok: true, version: 2 });
    const ack = await referee.send({ type: 'dice/confirm' });
    expect(ack, JSON.stringify(ack)).toEqual({ ok: true, version: 3 });
    const after = await referee.snapshot((s) => s.version === 3);
    expect(after.roll).toBeNull();
    expect(after.state).not.toEqual(before.state);
    return after;
  };

  it('Worm & Cozy: the three dice of the hour, the red one the shape die', async () => {
    const after = await confirmed('worm-and-cozy', {}, [
      { set: 'd6', face: '2', color: 'red' },
      { set: 'd6', face: '1', color: 'white' },
      { set: 'd6', face: '6', color: 'white' },
    ]);
    expect(after.status.headline).not.toBe('1 AM: roll the dice');
  });

  it('The worm is drawn: eight dice, then the player keeps a face', async () => {
    const players = [{ id: 'ann', name: 'Ann' }, { id: 'bob', name: 'Bob' }];
    const faces = ['worm', 'worm', '1', '1', '1', '1', '5', '5'];
    const after = await confirmed('the-worm-is-drawn', { players }, faces.map((face) => ({ set: 'worm', face })));
    expect(after.status.toAct).toEqual(['ann']);
    const ann = await server!.phone({ role: 'player', code: server!.clew.codes.joinCode, player: 'ann' });
    const bob = await server!.phone({ role: 'player', code: server!.clew.codes.joinCode, player: 'bob' });
    expect(await bob.send({ type: 'move', move: { type: 'keep', face: 'worm' } })).toMatchObject({ ok: false, code: 'auth/not-your-move' });
    expect(await ann.send({ type: 'move', move: { type: 'keep', face: 'worm' } })).toEqual({ ok: true, version: 4 });
  });

  it('Worm-up: every bid revealed at once, told apart by colour', async () => {
    const players = [
      { id: 'ann', name: 'Ann', color: 'red' },
      { id: 'bob', name: 'Bob', color: 'yellow' },
      { id: 'cy', name: 'Cy', color: 'blue' },
    ];
    await confirmed('worm-up', { players }, [
      { set: 'wurmeln', face: '3', color: 'red' },
      { set: 'wurmeln', face: '5', color: 'yellow' },
      { set: 'wurmeln', face: '5', color: 'blue' },
    ]);
  });
});
