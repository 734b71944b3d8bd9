/** The referee's new-game form and the roll helpers, checked against the engines' own setup and diceMove. */
import { describe, expect, it } from 'vitest';
import { GAMES } from '../../../shared/games/registry.js';
import type { PendingRoll } from '../../../shared/protocol.js';
import { inkOn, luminance } from '../../../web/client/src/logic/colors.js';
import { confidenceText, countsEntry, diceFromCounts, manualSlots, missingDice, rollMeaning } from '../../../web/client/src/logic/roll.js';
import { GAME_INFO, GAME_ORDER, SEAT_COLORS, defaultForm, formFromTable, formProblem, freeColor, inviteOrigin, setupOptions, switchGame } from '../../../web/client/src/logic/setup.js';

describe('the new-game form', () => {
  it('the default form of every game starts that game', () => {
    for (const id of GAME_ORDER) {
      const form = switchGame(defaultForm(), id);
      expect(formProblem(form)).toBeNull();
      expect(GAMES[id].setup(setupOptions(form)).ok).toBe(true);
    }
  });

  it('switching game fits the seats to its player count', () => {
    const solo = defaultForm('worm-and-cozy');
    expect(solo.seats).toHaveLength(1);
    expect(switchGame(solo, 'worm-up').seats).toHaveLength(2);
    const seven = { ...defaultForm('the-worm-is-drawn'), seats: Array.from({ length: 7 }, (_, i) => ({ name: `P${i}` })) };
    expect(switchGame(seven, 'tapeworm').seats).toHaveLength(GAME_INFO.tapeworm.players.max);
  });

  it('says what is wrong: too few players, the same name twice, two players with one die colour', () => {
    expect(formProblem({ ...defaultForm('worm-up'), seats: [{ name: 'Ann', color: 'red' }] })).toBe('Worm-up is for 2–5 players');
    expect(formProblem({ ...defaultForm('worm-derby'), seats: [{ name: 'Ann' }, { name: 'ann ' }] })).toBe('two players are called “ann”: give each a name of their own');
    expect(formProblem({ ...defaultForm('worm-up'), seats: [{ name: 'Ann', color: 'red' }, { name: 'Ben', color: 'red' }] })).toBe("two players have red dice: each player's die needs its own colour");
  });

  it('seats are p1, p2 … so phones keep their seats when the table starts again', () => {
    const o = setupOptions({ ...defaultForm('tapeworm'), seats: [{ name: 'Ann' }, { name: 'Ben', color: 'red' }] }) as { players: unknown[] };
    expect(o.players).toEqual([{ id: 'p1', name: 'Ann' }, { id: 'p2', name: 'Ben', color: 'red' }]);
  });

  it('reads the game at the table back into the form', () => {
    const form = formFromTable('worm-derby', { rules: 'advanced', obstacleTiles: 4, players: [] }, [{ id: 'p1', name: 'Ann', color: 'red' }, { id: 'p2', name: 'Ben' }]);
    expect(form).toMatchObject({ game: 'worm-derby', derbyRules: 'advanced', obstacleTiles: 4, seats: [{ name: 'Ann', color: 'red' }, { name: 'Ben' }] });
    expect(setupOptions(form)).toMatchObject({ rules: 'advanced', obstacleTiles: 4 });
  });

  it('every seat has a colour: one the table has none for gets the first colour no seat has', () => {
    // The first seat of a table started without colours showed an empty box beside coloured ones.
    const form = formFromTable('the-worm-is-drawn', {}, [{ id: 'p1', name: 'Ann' }, { id: 'p2', name: 'Ben', color: SEAT_COLORS[0]! }, { id: 'p3', name: 'Cid' }]);
    expect(form.seats).toEqual([
      { name: 'Ann', color: SEAT_COLORS[1] },
      { name: 'Ben', color: SEAT_COLORS[0] },
      { name: 'Cid', color: SEAT_COLORS[2] },
    ]);
    // Seats a game switch adds take colours nobody has either.
    const solo = { ...defaultForm('worm-and-cozy'), seats: [{ name: 'Ann', color: SEAT_COLORS[1]! }] };
    expect(switchGame(solo, 'worm-up').seats).toEqual([{ name: 'Ann', color: SEAT_COLORS[1] }, { name: 'Player 2', color: SEAT_COLORS[0] }]);
    expect(freeColor([{ name: 'Ann', color: SEAT_COLORS[0]! }, { name: 'Ben' }])).toBe(SEAT_COLORS[1]);
  });
});

describe('the join QR code', () => {
  it('gives the page\'s own address, but the LAN address where the referee opened clew on its own machine', () => {
    const lan = 'http://192.168.1.20:8080';
    expect(inviteOrigin({ origin: 'http://192.168.1.20:8080', hostname: '192.168.1.20' }, lan)).toBe('http://192.168.1.20:8080');
    expect(inviteOrigin({ origin: 'http://clew.local:8080', hostname: 'clew.local' }, lan)).toBe('http://clew.local:8080');
    for (const hostname of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'table.localhost']) {
      expect(inviteOrigin({ origin: `http://${hostname}:8080`, hostname }, lan), hostname).toBe(lan);
    }
    // No LAN address known (clew listens on one address only): the page's own, as before.
    expect(inviteOrigin({ origin: 'http://localhost:8080', hostname: 'localhost' }, undefined)).toBe('http://localhost:8080');
  });
});

describe('the roll', () => {
  it('manual entry has one die per role the game names, or counts of faces', () => {
    const cozy = GAMES['worm-and-cozy'];
    const state = (cozy.setup({}) as { ok: true; state: unknown }).state;
    const request = cozy.diceRequest(state)!;
    expect(countsEntry(request)).toBe(false);
    expect(manualSlots(request).map((s) => s.label)).toEqual(['shape (red)', 'organ', 'organ']);
    const twid = GAMES['the-worm-is-drawn'];
    const t = (twid.setup({ players: [{ name: 'A' }, { name: 'B' }] }) as { ok: true; state: unknown }).state;
    expect(countsEntry(twid.diceRequest(t)!)).toBe(true);
    expect(diceFromCounts('worm', { worm: 2, '3': 1 }).map((d) => d.face)).toEqual(['3', 'worm', 'worm']);
  });

  it('works out what a roll means with the game rules, or why it cannot be used', () => {
    const cozy = GAMES['worm-and-cozy'];
    const state = (cozy.setup({}) as { ok: true; state: unknown }).state;
    const roll = (colours: string[]): PendingRoll => ({ source: 'camera', needsConfirmation: false, dice: ['2', '1', '5'].map((face, i) => ({ set: 'd6' as const, face, color: colours[i]! })) });
    expect(rollMeaning('worm-and-cozy', state, roll(['red', 'white', 'white']))).toEqual({ ok: true, move: { type: 'roll', shape: 'L', organs: ['eye', 'brain'] } });
    const bad = rollMeaning('worm-and-cozy', state, roll(['red', 'red', 'white']));
    expect(bad).toEqual({ ok: false, message: '2 red dice were read: the shape die is the one red die' });
  });

  it('a missed die to add is a named die the roll lacks, or a plain die of the roll\'s set', () => {
    const cozy = GAMES['worm-and-cozy'];
    const state = (cozy.setup({}) as { ok: true; state: unknown }).state;
    const request = cozy.diceRequest(state)!;
    const [shape, organ] = request.slots!;
    const die = (slot: typeof shape, face: string) => ({ set: slot!.set, face, ...(slot!.color ? { color: slot!.color } : {}) });
    // The camera saw one organ die and the shape die: the other organ die is missing.
    expect(missingDice(request, [die(organ, '2'), die(shape, '1')]).map((s) => s.label)).toEqual(['organ']);
    // It saw two plain dice: the red shape die is missing, whatever order the slots come in.
    expect(missingDice(request, [die(organ, '2'), die(organ, '3')])).toEqual([{ set: shape!.set, color: 'red', label: 'shape (red)' }]);
    expect(missingDice(request, []).map((s) => s.label)).toEqual(['shape (red)', 'organ', 'organ']);
    // Every named die is there (one more is odd, but a person may still add it): a plain die.
    expect(missingDice(request, [die(shape, '1'), die(organ, '2'), die(organ, '3')]).map((s) => s.set)).toEqual(request.sets);
    const twid = GAMES['the-worm-is-drawn'];
    const t = (twid.setup({ players: [{ name: 'A' }, { name: 'B' }] }) as { ok: true; state: unknown }).state;
    expect(missingDice(twid.diceRequest(t)!, [{ set: 'worm', face: '3' }])).toEqual([{ set: 'worm', label: 'a die' }]);
  });

  it('shows confidence as a whole percent', () => {
    expect(confidenceText(0.974)).toBe('97%');
    expect(confidenceText(undefined)).toBeNull();
  });

  it('ink reads on every die colour', () => {
    expect(inkOn('white')).toBe('#1d1d1f');
    expect(inkOn('black')).toBe('#ffffff');
    expect(inkOn('blue')).toBe('#ffffff');
    expect(luminance('yellow')).toBeGreaterThan(luminance('red'));
  });
});
