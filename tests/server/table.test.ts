/**
 * The table core, as the table sees it: who may do what, what a roll becomes, what undo restores.
 * Pure functions, no server: every case is a fold of events.
 */
import { describe, expect, it } from 'vitest';
import { decide, evolve, replay, MAX_UNDO, type Actor, type TableEvent, type TableState } from '../../web/server/table.js';
import { RACE, raceOnly } from '../support/games.js';
import type { RaceState } from '../support/race-game.js';

const referee: Actor = { kind: 'referee' };
const ann: Actor = { kind: 'player', player: 'ann' };
const bob: Actor = { kind: 'player', player: 'bob' };
const buttons: Actor = { kind: 'buttons' };

function fresh(): TableState {
  const r = evolve(null, { type: 'setup', game: RACE, options: {} }, raceOnly);
  if (!r.ok) throw new Error(r.message);
  return r.state;
}

function play(table: TableState, ...events: TableEvent[]): TableState {
  for (const e of events) {
    const r = evolve(table, e, raceOnly);
    if (!r.ok) throw new Error(`${e.type}: ${r.code} ${r.message}`);
    table = r.state;
  }
  return table;
}

const race = (t: TableState) => t.state as RaceState;

describe('setting up', () => {
  it('a fresh table is at version 1 with the game set up and nothing pending', () => {
    const t = fresh();
    expect(t.version).toBe(1);
    expect(race(t).positions).toEqual({ ann: 0, bob: 0 });
    expect(t.roll).toBeNull();
    expect(t.undo).toEqual([]);
  });

  it('bad options are refused with setup/invalid and the table keeps its game', () => {
    const t = fresh();
    const d = decide(t, referee, { type: 'table/setup', game: RACE, options: { goal: 'far' } }, raceOnly);
    expect(d).toMatchObject({ ok: false, code: 'setup/invalid' });
  });

  it('only the referee starts a new game', () => {
    const d = decide(fresh(), ann, { type: 'table/setup', game: RACE, options: {} }, raceOnly);
    expect(d).toMatchObject({ ok: false, code: 'auth/not-referee' });
  });

  it('a game with no engine on this server is refused', () => {
    const d = decide(fresh(), referee, { type: 'table/setup', game: 'tapeworm', options: {} }, raceOnly);
    expect(d).toMatchObject({ ok: false, code: 'table/unknown-game' });
  });
});

describe('players act only for themselves', () => {
  it("Ann may make her own roll move, Bob may not make Ann's", () => {
    const t = fresh();
    expect(decide(t, bob, { type: 'move', move: { type: 'roll', player: 'ann', face: 3 } }, raceOnly)).toMatchObject({
      ok: false,
      code: 'auth/not-your-move',
    });
    const d = decide(t, ann, { type: 'move', move: { type: 'roll', player: 'ann', face: 3 } }, raceOnly);
    expect(d.ok).toBe(true);
    if (d.ok) expect(race(d.table).positions.ann).toBe(3);
  });

  it('the referee may act for a player (a player without a phone)', () => {
    const d = decide(fresh(), referee, { type: 'move', move: { type: 'roll', player: 'ann', face: 2 } }, raceOnly);
    expect(d.ok).toBe(true);
  });

  it('a table move (passing the turn) needs the referee or the buttons', () => {
    const t = play(fresh(), { type: 'move', move: { type: 'roll', player: 'ann', face: 2 }, by: ann });
    expect(decide(t, ann, { type: 'move', move: { type: 'next' } }, raceOnly)).toMatchObject({ ok: false, code: 'auth/not-referee' });
    expect(decide(t, ann, { type: 'button', button: 'NEXT' }, raceOnly)).toMatchObject({ ok: false, code: 'auth/not-referee' });
    expect(decide(t, ann, { type: 'undo' }, raceOnly)).toMatchObject({ ok: false, code: 'auth/not-referee' });
    expect(decide(t, referee, { type: 'button', button: 'NEXT' }, raceOnly).ok).toBe(true);
  });

  it('a malformed move is refused by the game schema before anything else', () => {
    expect(decide(fresh(), referee, { type: 'move', move: { type: 'fly' } }, raceOnly)).toMatchObject({ ok: false, code: 'move/malformed' });
  });

  it('an illegal move is refused with the game code and the table is unchanged', () => {
    const t = fresh();
    const before = JSON.stringify(t);
    expect(decide(t, referee, { type: 'move', move: { type: 'next' } }, raceOnly)).toMatchObject({ ok: false, code: 'move/wrong-phase' });
    expect(JSON.stringify(t)).toBe(before);
  });
});

describe('dice: read, correct, confirm', () => {
  const cameraRoll = (face: string, uncertain = false): TableEvent => ({
    type: 'roll',
    dice: [{ set: 'd6', face, confidence: uncertain ? 0.4 : 0.98, box: [1, 2, 30, 31], uncertain }],
    source: 'camera',
    by: { kind: 'camera', source: 'camera' },
  });

  it('a confident camera roll of the expected dice needs no confirmation; an uncertain die does', () => {
    expect(play(fresh(), cameraRoll('4')).roll?.needsConfirmation).toBe(false);
    expect(play(fresh(), cameraRoll('4', true)).roll?.needsConfirmation).toBe(true);
  });

  it('a camera that sees two dice where one is expected asks for confirmation; a person may not enter two', () => {
    const two: TableEvent = { ...(cameraRoll('4') as Extract<TableEvent, { type: 'roll' }>), dice: [{ set: 'd6', face: '4' }, { set: 'd6', face: '2' }] };
    expect(play(fresh(), two).roll?.needsConfirmation).toBe(true);
    const manual = decide(fresh(), ann, { type: 'dice/manual', dice: [{ set: 'd6', face: '4' }, { set: 'd6', face: '2' }] }, raceOnly);
    expect(manual).toMatchObject({ ok: false, code: 'dice/wrong-count' });
  });

  it('a correction changes the face, keeps what the camera read, and is recorded as an event', () => {
    const t = play(fresh(), cameraRoll('4', true));
    const d = decide(t, bob, { type: 'dice/correct', index: 0, face: '5' }, raceOnly);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.event).toEqual({ type: 'correct', index: 0, face: '5', by: bob });
    expect(d.table.roll?.dice[0]).toMatchObject({ face: '5', corrected: true, readAs: '4' });
    expect(d.table.roll?.dice[0]?.confidence).toBeUndefined();
    expect(d.table.roll?.needsConfirmation).toBe(false);
  });

  it('correcting twice still remembers the first reading', () => {
    const t = play(fresh(), cameraRoll('4'), { type: 'correct', index: 0, face: '5', by: bob }, { type: 'correct', index: 0, face: '6', by: ann });
    expect(t.roll?.dice[0]).toMatchObject({ face: '6', readAs: '4' });
  });

  it('a face that is not on the die, or a die that is not there, is refused', () => {
    const t = play(fresh(), cameraRoll('4'));
    expect(decide(t, ann, { type: 'dice/correct', index: 0, face: '7' }, raceOnly)).toMatchObject({ ok: false, code: 'dice/bad-face' });
    expect(decide(t, ann, { type: 'dice/correct', index: 3, face: '2' }, raceOnly)).toMatchObject({ ok: false, code: 'dice/no-such-die' });
  });

  describe('a box on no die taken out, a missed die added', () => {
    const twoSeen: TableEvent = {
      type: 'roll',
      dice: [
        { set: 'd6', face: '4', confidence: 0.97, box: [1, 2, 30, 31] },
        { set: 'd6', face: '2', confidence: 0.41, box: [60, 2, 80, 20], uncertain: true },
      ],
      source: 'camera',
      by: { kind: 'camera', source: 'camera' },
    };

    it('a shadow read as a second die is taken out: the roll is the one die, remembered as read, and usable', () => {
      const d = decide(play(fresh(), twoSeen), bob, { type: 'dice/remove', index: 1 }, raceOnly);
      expect(d.ok).toBe(true);
      if (!d.ok) return;
      expect(d.event).toEqual({ type: 'remove', index: 1, by: bob });
      expect(d.table.roll?.dice).toEqual([{ set: 'd6', face: '4', confidence: 0.97, box: [1, 2, 30, 31] }]);
      expect(d.table.roll?.removed).toEqual([{ set: 'd6', face: '2' }]);
      expect(d.table.roll?.needsConfirmation).toBe(false);
      expect(decide(d.table, ann, { type: 'dice/confirm' }, raceOnly)).toMatchObject({ ok: true, event: { move: { face: 4 } } });
    });

    it('a corrected die taken out is remembered as the camera read it', () => {
      const t = play(fresh(), twoSeen, { type: 'correct', index: 1, face: '5', by: ann }, { type: 'remove', index: 1, by: ann });
      expect(t.roll?.removed).toEqual([{ set: 'd6', face: '2' }]);
    });

    it('the last die stays, and a die that is not there is refused; the roll is unchanged', () => {
      const t = play(fresh(), twoSeen, { type: 'remove', index: 0, by: ann });
      const before = JSON.stringify(t);
      expect(decide(t, ann, { type: 'dice/remove', index: 0 }, raceOnly)).toMatchObject({ ok: false, code: 'dice/last-die' });
      expect(decide(t, ann, { type: 'dice/remove', index: 4 }, raceOnly)).toMatchObject({ ok: false, code: 'dice/no-such-die' });
      expect(decide(fresh(), ann, { type: 'dice/remove', index: 0 }, raceOnly)).toMatchObject({ ok: false, code: 'dice/no-roll' });
      expect(JSON.stringify(t)).toBe(before);
    });

    it('a missed die is added as a person saw it (marked added), and the box on no die then taken out', () => {
      const phantom = play(fresh(), cameraRoll('2', true));
      const d = decide(phantom, bob, { type: 'dice/add', die: { set: 'd6', face: '5', confidence: 0.2, box: [0, 0, 9, 9] } }, raceOnly);
      expect(d.ok).toBe(true);
      if (!d.ok) return;
      // What a person saw has no confidence nor box, whatever the phone sent.
      expect(d.event).toEqual({ type: 'add', die: { set: 'd6', face: '5' }, by: bob });
      expect(d.table.roll?.dice[1]).toEqual({ set: 'd6', face: '5', added: true });
      expect(d.table.roll?.needsConfirmation).toBe(true);
      const t = play(d.table, { type: 'remove', index: 0, by: bob });
      expect(t.roll?.dice).toEqual([{ set: 'd6', face: '5', added: true }]);
      expect(t.roll?.removed).toEqual([{ set: 'd6', face: '2' }]);
      expect(t.roll?.needsConfirmation).toBe(false);
      expect(decide(t, ann, { type: 'dice/confirm' }, raceOnly)).toMatchObject({ ok: true, event: { move: { face: 5 } } });
    });

    it('an added die taken out again is simply gone (the camera never read it)', () => {
      const t = play(fresh(), cameraRoll('2'), { type: 'add', die: { set: 'd6', face: '5' }, by: ann }, { type: 'remove', index: 1, by: ann });
      expect(t.roll?.dice.map((x) => x.face)).toEqual(['2']);
      expect(t.roll?.removed).toBeUndefined();
    });

    it('an added die must be of the roll\'s sets, a face of its die and a die colour; the camera adds nothing', () => {
      const t = play(fresh(), cameraRoll('2'));
      const before = JSON.stringify(t);
      expect(decide(t, ann, { type: 'dice/add', die: { set: 'worm', face: 'worm' } }, raceOnly)).toMatchObject({ ok: false, code: 'dice/wrong-set' });
      expect(decide(t, ann, { type: 'dice/add', die: { set: 'd6', face: '9' } }, raceOnly)).toMatchObject({ ok: false, code: 'dice/bad-face', message: expect.stringContaining('the added die') });
      expect(decide(t, ann, { type: 'dice/add', die: { set: 'd6', face: '3', color: 'plaid' } }, raceOnly)).toMatchObject({ ok: false, code: 'dice/bad-color' });
      expect(decide(t, { kind: 'camera', source: 'camera' }, { type: 'dice/add', die: { set: 'd6', face: '3' } }, raceOnly)).toMatchObject({ ok: false, code: 'auth/not-a-person' });
      expect(decide(fresh(), ann, { type: 'dice/add', die: { set: 'd6', face: '3' } }, raceOnly)).toMatchObject({ ok: false, code: 'dice/no-roll' });
      expect(JSON.stringify(t)).toBe(before);
    });

    it('a die colour is one of clew\'s colours, not an object\'s built-in key, whether added, corrected or entered by hand', () => {
      const t = play(fresh(), cameraRoll('2'));
      for (const color of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        expect(decide(t, ann, { type: 'dice/add', die: { set: 'd6', face: '3', color } }, raceOnly)).toMatchObject({ ok: false, code: 'dice/bad-color' });
        expect(decide(t, ann, { type: 'dice/correct', index: 0, face: '3', color }, raceOnly)).toMatchObject({ ok: false, code: 'dice/bad-color' });
        expect(decide(fresh(), ann, { type: 'dice/manual', dice: [{ set: 'd6', face: '3', color }] }, raceOnly)).toMatchObject({ ok: false, code: 'dice/bad-color', message: expect.stringContaining('die 1') });
      }
      expect(decide(fresh(), ann, { type: 'dice/manual', dice: [{ set: 'd6', face: '3', color: 'puce' }] }, raceOnly)).toMatchObject({ ok: false, code: 'dice/bad-color' });
      expect(decide(fresh(), ann, { type: 'dice/manual', dice: [{ set: 'd6', face: '3', color: 'red' }] }, raceOnly)).toMatchObject({ ok: true });
    });
  });

  it("confirm turns the roll into the game's move for the player to act, and clears the roll", () => {
    const t = play(fresh(), cameraRoll('4'), { type: 'correct', index: 0, face: '6', by: ann });
    const d = decide(t, ann, { type: 'dice/confirm' }, raceOnly);
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.event).toEqual({ type: 'confirm', move: { type: 'roll', player: 'ann', face: 6 }, by: ann });
    expect(race(d.table).positions.ann).toBe(6);
    expect(d.table.roll).toBeNull();
  });

  it("Bob cannot confirm Ann's roll; the OK button can", () => {
    const t = play(fresh(), cameraRoll('3'));
    expect(decide(t, bob, { type: 'dice/confirm' }, raceOnly)).toMatchObject({ ok: false, code: 'auth/not-your-move' });
    expect(decide(t, buttons, { type: 'button', button: 'OK' }, raceOnly).ok).toBe(true);
  });

  it('no roll is accepted when the game expects no dice', () => {
    const t = play(fresh(), { type: 'move', move: { type: 'roll', player: 'ann', face: 2 }, by: ann });
    expect(evolve(t, cameraRoll('3'), raceOnly)).toMatchObject({ ok: false, code: 'dice/not-expected' });
    expect(decide(t, referee, { type: 'dice/manual', dice: [{ set: 'd6', face: '1' }] }, raceOnly)).toMatchObject({ ok: false, code: 'dice/not-expected' });
  });

  it('dice of the wrong set are refused', () => {
    expect(decide(fresh(), ann, { type: 'dice/manual', dice: [{ set: 'worm', face: 'worm' }] }, raceOnly)).toMatchObject({ ok: false, code: 'dice/wrong-set' });
  });

  it('a move that changes what the game asks to roll drops the stale pending roll', () => {
    const t = play(fresh(), cameraRoll('3'), { type: 'move', move: { type: 'roll', player: 'ann', face: 2 }, by: referee });
    expect(t.roll).toBeNull();
  });
});

describe('undo', () => {
  it('undo restores the state and the pending roll from before the confirm', () => {
    const rolled = play(fresh(), { type: 'roll', dice: [{ set: 'd6', face: '5' }], source: 'manual', by: ann });
    const used = play(rolled, { type: 'confirm', move: { type: 'roll', player: 'ann', face: 5 }, by: ann });
    const back = play(used, { type: 'undo', by: referee });
    expect(back.state).toEqual(rolled.state);
    expect(back.roll).toEqual(rolled.roll);
    expect(back.version).toBe(used.version + 1);
  });

  it('BACK means undo; with nothing to undo it is refused', () => {
    expect(decide(fresh(), buttons, { type: 'button', button: 'BACK' }, raceOnly)).toMatchObject({ ok: false, code: 'table/nothing-to-undo' });
  });

  it(`undo reaches back at most ${MAX_UNDO} moves`, () => {
    let t = play(fresh(), { type: 'setup', game: RACE, options: { goal: 100, players: [{ id: 'ann', name: 'Ann' }] } });
    for (let i = 0; i < MAX_UNDO / 2 + 5; i++) {
      t = play(t, { type: 'move', move: { type: 'roll', player: 'ann', face: 1 }, by: ann }, { type: 'move', move: { type: 'next' }, by: referee });
    }
    expect(t.undo.length).toBe(MAX_UNDO);
  });
});

describe('replay', () => {
  it('replaying the events of a game gives the same table', () => {
    const events: TableEvent[] = [
      { type: 'setup', game: RACE, options: { goal: 5 } },
      { type: 'roll', dice: [{ set: 'd6', face: '3' }], source: 'manual', by: ann },
      { type: 'confirm', move: { type: 'roll', player: 'ann', face: 3 }, by: ann },
      { type: 'move', move: { type: 'next' }, by: buttons },
      { type: 'move', move: { type: 'roll', player: 'bob', face: 6 }, by: bob },
      { type: 'undo', by: referee },
    ];
    const r = replay(events, raceOnly);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.state?.version).toBe(6);
      expect((r.state?.state as RaceState).positions).toEqual({ ann: 3, bob: 0 });
    }
  });

  it('an event that does not fit says which one', () => {
    const r = replay([{ type: 'setup', game: RACE, options: {} }, { type: 'move', move: { type: 'next' }, by: referee }], raceOnly);
    expect(r).toMatchObject({ ok: false, code: 'move/wrong-phase' });
    if (!r.ok) expect(r.message).toMatch(/^event 2:/);
  });
});
