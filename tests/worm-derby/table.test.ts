/** Worm Derby at the table: camera rolls, buttons, who may send what, and the notation. */
import { describe, expect, it } from 'vitest';
import { toTableGame } from '../../shared/game.js';
import { fromNotation, toNotation, wormDerby, moveText, NotationError } from '../../shared/games/worm-derby/index.js';
import { expectRejected, play, position, roll, start, steps } from './helpers.js';

describe('Worm Derby dice', () => {
  it('asks for the active player\'s one piecepack die, in their suit colour', () => {
    const s = start({ obstacleTiles: 0 });
    expect(wormDerby.diceRequest(s)).toEqual({
      sets: ['piecepack', 'd6'],
      slots: [{ set: 'piecepack', role: 'alice', color: 'red' }],
      count: { min: 1, max: 1 },
      prompt: 'Alice: roll your die',
    });
    expect(wormDerby.diceRequest(play(s, roll('3')))).toBeNull();
  });

  it('turns the camera\'s read into the roll move', () => {
    const s = start({ obstacleTiles: 0 });
    expect(wormDerby.diceMove(s, [{ set: 'piecepack', face: 'ace', confidence: 0.98 }])).toEqual({ ok: true, state: { type: 'roll', face: 'ace' } });
    // A d6 may stand in: 1 is the ace, 6 the null.
    expect(wormDerby.diceMove(s, [{ set: 'd6', face: '1' }])).toEqual({ ok: true, state: { type: 'roll', face: 'ace' } });
    expect(wormDerby.diceMove(s, [{ set: 'd6', face: '6' }])).toEqual({ ok: true, state: { type: 'roll', face: 'null' } });
    expect(wormDerby.diceMove(s, [{ set: 'd6', face: '4' }])).toEqual({ ok: true, state: { type: 'roll', face: '4' } });
  });

  it('refuses reads that are not one die of the right set', () => {
    const s = start({ obstacleTiles: 0 });
    expect(wormDerby.diceMove(s, [])).toMatchObject({ ok: false, code: 'dice/wrong-count' });
    expect(wormDerby.diceMove(s, [{ set: 'piecepack', face: '2' }, { set: 'piecepack', face: '3' }])).toMatchObject({ ok: false, code: 'dice/wrong-count' });
    expect(wormDerby.diceMove(s, [{ set: 'wurmeln', face: 'X' }])).toMatchObject({ ok: false, code: 'dice/wrong-set' });
    expect(wormDerby.diceMove(s, [{ set: 'piecepack', face: '6' }])).toMatchObject({ ok: false, code: 'dice/bad-face' });
    expect(wormDerby.diceMove(play(s, roll('2')), [{ set: 'piecepack', face: '2' }])).toMatchObject({ ok: false, code: 'dice/not-expected' });
  });
});

describe('Worm Derby buttons', () => {
  it('NEXT confirms the instruction as done', () => {
    const setup = start({ obstacleTiles: 2 });
    expect(wormDerby.buttonMove(setup, 'NEXT')).toEqual({ type: 'place-obstacle', player: 'alice' });
    const s = position('advanced roll @bob t2 r2 obst:21/21 | alice 6 | bob 5+1 !alice@B');
    expect(wormDerby.buttonMove(s, 'NEXT')).toBeNull();
    const moving = play(s, roll('4'));
    expect(wormDerby.buttonMove(moving, 'NEXT')).toEqual({ type: 'move', player: 'bob', steps: 4, from: 'B' });
    const ace = play(s, roll('ace'));
    expect(wormDerby.buttonMove(ace, 'NEXT')).toEqual({ type: 'move-obstacle', player: 'bob' });
    expect(wormDerby.buttonMove(ace, 'OK')).toEqual({ type: 'pass-ace', player: 'bob' });
    expect(wormDerby.buttonMove(ace, 'READ')).toBeNull();
  });

  it('NEXT means nothing when the worm must choose between two bitten ends', () => {
    const s = play(position('advanced roll @bob t2 r2 obst:21/21 | alice 6 | bob 4+2 !alice@B !carol@A | carol 6'), roll('3'));
    expect(wormDerby.buttonMove(s, 'NEXT')).toBeNull();
  });

  it('after a roll again, NEXT takes the steps from the end the worm already moved from this turn (thirty-eighth session)', () => {
    const s = play(position('advanced roll @bob t2 r2 obst:21/21 | alice 6 | bob 4+2 !alice@B !carol@A | carol 6'), roll('3'));
    const table = structuredClone(s.dieTable);
    table.faces['3'] = { action: 'steps', steps: 3, rollAgain: true };
    const again = play({ ...s, dieTable: table, pending: { ...s.pending!, rollAgain: true } }, steps('bob', 3, { from: 'A' }), roll('3'));
    expect(toNotation(again)).toBe('advanced move=3 @bob t2 r4 obst:21/21 from:A | alice 6 | bob 4+2 !alice@B !carol@A | carol 6');
    expect(wormDerby.buttonMove(again, 'NEXT')).toEqual({ type: 'move', player: 'bob', steps: 3, from: 'A' });
    expect(play(again, wormDerby.buttonMove(again, 'NEXT')!), 'accepted; 3 rolls again').toMatchObject({ phase: 'roll', active: 1, turnEnd: 'A' });
  });
});

describe('Worm Derby authority and turns', () => {
  it('the roll and stopping the race are the table\'s; worm reports are the player\'s', () => {
    const s = start();
    expect(wormDerby.authority(s, roll('2'))).toEqual({ kind: 'table' });
    expect(wormDerby.authority(s, { type: 'stop-race' })).toEqual({ kind: 'table' });
    expect(wormDerby.authority(s, steps('bob', 2))).toEqual({ kind: 'player', player: 'bob' });
  });

  it('refuses moves out of turn or out of phase, leaving the state unchanged', () => {
    const s = play(position('basic roll @alice t1 r0 obst:21/21 | alice 6 | bob 6'), roll('3'));
    expectRejected(s, steps('bob', 3), 'move/not-your-turn');
    expectRejected(s, roll('4'), 'move/wrong-phase');
    expectRejected(s, { type: 'move-obstacle', player: 'alice' }, 'move/wrong-phase');
    expectRejected(s, { type: 'place-obstacle', player: 'alice' }, 'move/wrong-phase');
    expectRejected(s, steps('alice', 3, { blocked: true }), 'move/malformed');
    expectRejected(s, steps('alice', 0, { ate: { player: 'bob', end: 'A' } }), 'move/basic-rules-no-eating');
  });

  it('the server wrapper validates shapes before the rules see them', () => {
    const table = toTableGame(wormDerby);
    const s = start();
    expect(table.apply(s, { type: 'move', player: 'alice', steps: 9 })).toMatchObject({ ok: false, code: 'move/malformed' });
    expect(table.apply(s, { type: 'fly' })).toMatchObject({ ok: false, code: 'move/malformed' });
    expect(table.setup({ players: [{ id: 'a', name: 'A' }, { id: 'a', name: 'B' }] })).toMatchObject({ ok: false, code: 'setup/invalid' });
    expect(table.setup({ players: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }], firstPlayer: 'c' })).toMatchObject({ ok: false, code: 'setup/invalid' });
  });

  it('describes moves in one line for the log', () => {
    const s = play(position('advanced roll @alice t1 r0 obst:21/21 | alice 6 | bob 6'), roll('5'));
    expect(moveText(s, steps('alice', 2, { from: 'B', ate: { player: 'bob', end: 'A' }, roundedPylon: true }))).toBe(
      'alice moved 2 steps from end B, ate a coin of bob at end A, rounded the pylon',
    );
  });
});

describe('Worm Derby notation', () => {
  it('round-trips positions', () => {
    for (const line of [
      'basic obstacles @bob t0 r0 obst:3/20 | alice 6 ~7 | bob 6 ~10',
      'advanced slalom move=5 @bob t7 r9 obst:0/0 | alice 6 P #1 | bob 3+3 !carol@A | carol 6 P',
      'advanced ace=ace @carol t7 r9 obst:21/21 | alice 6 | bob 6 | carol 4+2',
      'basic over stopped t40 r50 obst:21/21 | alice 6 P #2 | bob 6 P #1',
    ]) {
      expect(toNotation(fromNotation(line))).toBe(line);
    }
  });

  it('says what is wrong with a bad line', () => {
    expect(() => fromNotation('basic roll @zed t1 r0 obst:0/0 | alice 6 | bob 6')).toThrow(NotationError);
    expect(() => fromNotation('basic roll @alice | alice 7 | bob 6')).toThrow(/a worm is 2–6 coins long/);
    expect(() => fromNotation('advanced roll @alice | alice 5+2 | bob 6')).toThrow(/length and eaten coins must make 6/);
    expect(() => fromNotation('basic roll @alice | alice 5 | bob 6')).toThrow(/in the basic rules every worm is 6 coins/);
    expect(() => fromNotation('basic move @alice | alice 6 | bob 6')).toThrow(/needs the face/);
  });

  it('refuses a race that cannot be: a finished worm to move, places not 1, 2, … or without the pylon, impossible bites, tiles or faces', () => {
    // A finished worm has left the course; only racing worms take turns.
    expect(() => fromNotation('basic roll @bob t1 r0 obst:0/0 | alice 6 | bob 6 P #1')).toThrow(/the active player "bob" has finished \(#1\)/);
    // Places are given in finishing order, each once, and only after rounding the pylon.
    expect(() => fromNotation('basic roll @carol t1 r0 obst:0/0 | alice 6 P #1 | bob 6 P #1 | carol 6')).toThrow(/worm "bob" is #1, but 2 finished worms take places 1–2, each once/);
    expect(() => fromNotation('basic roll @alice t1 r0 obst:0/0 | alice 6 | bob 6 P #9 | carol 6')).toThrow(/worm "bob" is #9, but 1 finished worm takes place 1/);
    expect(() => fromNotation('basic roll @alice t1 r0 obst:0/0 | alice 6 | bob 6 #1 | carol 6')).toThrow(/worm "bob" is #1 without rounding the pylon \(P\)/);
    // Worms bite only with the cannibal (advanced) rules, and only other worms of the race.
    expect(() => fromNotation('advanced roll @alice t1 r0 obst:0/0 | alice 5+1 !zed@A | bob 6')).toThrow(/worm "alice": the biter "zed" must be another worm in the race/);
    expect(() => fromNotation('advanced roll @alice t1 r0 obst:0/0 | alice 5+1 !alice@A | bob 6')).toThrow(/worm "alice": the biter "alice" must be another worm in the race/);
    expect(() => fromNotation('basic roll @alice t1 r0 obst:0/0 | alice 6 !bob@A | bob 6')).toThrow(/no worm bites in the basic rules/);
    // No more obstacle tiles on the course than were dealt.
    expect(() => fromNotation('basic roll @alice t1 r0 obst:5/0 | alice 6 | bob 6')).toThrow(/obst:5\/0: more obstacle tiles placed than dealt/);
    // The face must be one the die table sends to that phase ("move=null" read as "move 0 steps").
    expect(() => fromNotation('basic ace=4 @alice t1 r0 obst:0/0 | alice 6 | bob 6')).toThrow(/ace=4: the die table does not make 4 an obstacle face/);
    expect(() => fromNotation('basic move=null @alice t1 r0 obst:0/0 | alice 6 | bob 6')).toThrow(/move=null: the die table gives null no steps/);
    expect(() => fromNotation('basic roll=4 @alice t1 r0 obst:0/0 | alice 6 | bob 6')).toThrow(/phase roll carries no face \("roll=4"\)/);
  });
});
