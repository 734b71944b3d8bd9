/**
 * Worm Derby v3.1: one test per rule statement of the text, in the text's order.
 * Positions are written in the one-line notation (see shared/games/worm-derby/notation.ts).
 */
import { describe, expect, it } from 'vitest';
import { DerbyErrors, toNotation, wormDerby } from '../../shared/games/worm-derby/index.js';
import { legalOptions as legal } from '../../shared/games/worm-derby/legal.js';
import { ALICE, BOB, CAROL, DAVE, expectRejected, placeAllObstacles, play, position, roll, start, steps } from './helpers.js';

describe('Worm Derby: players and worms', () => {
  it('is for 2–4 players', () => {
    expect(wormDerby.setup({ players: [ALICE] }).ok).toBe(false);
    expect(wormDerby.setup({ players: [ALICE, BOB] }).ok).toBe(true);
    expect(wormDerby.setup({ players: [ALICE, BOB, CAROL, DAVE] }).ok).toBe(true);
    const five = wormDerby.setup({ players: [ALICE, BOB, CAROL, DAVE, { id: 'eve', name: 'Eve' }] });
    expect(five).toMatchObject({ ok: false, code: 'setup/invalid' });
  });

  it('in the basic rules, all worms are six coins long', () => {
    const s = start({ players: [ALICE, BOB, CAROL] });
    expect(s.worms.map((w) => w.length)).toEqual([6, 6, 6]);
    expect(s.rules).toBe('basic');
  });

  it('gives each player a die and the coins of one suit (a suit colour for each die)', () => {
    const s = start({ players: [ALICE, BOB, CAROL, DAVE] });
    expect(wormDerby.players(s).map((p) => p.color)).toEqual(['red', 'black', 'green', 'blue']);
  });
});

describe('Worm Derby: worm movement', () => {
  it('a multi-step move takes every step from the same end: the instruction says "from one end"', () => {
    const s = play(position('basic roll @alice t1 r0 obst:0/0 | alice 6 | bob 6'), roll('4'));
    expect(legal(s).instruction).toBe('alice: move 4 steps from one end.');
    expect(legal(s).steps).toMatchObject({ steps: 4, from: 'either' });
  });

  it('a worm rolling again in one turn makes its whole move in the same direction: every step from the end it first moved from (thirty-eighth session)', () => {
    const table = structuredClone(position('basic roll @alice t1 r0 obst:0/0 | alice 6 | bob 6').dieTable);
    table.faces['5'] = { action: 'steps', steps: 5, rollAgain: true };
    const s = { ...position('basic roll @alice t1 r0 obst:0/0 | alice 6 | bob 6'), dieTable: table };
    const first = play(s, roll('5'), steps('alice', 5, { from: 'A' }), roll('3'));
    expect(toNotation(first)).toBe('basic move=3 @alice t1 r2 obst:0/0 from:A | alice 6 | bob 6');
    expect(legal(first).instruction).toBe('alice: move 3 steps from end A again (the whole move goes one way).');
    expect(legal(first).steps).toMatchObject({ steps: 3, from: ['A'] });
    expect(legal(first, { verbose: true }).detail!.filter((m) => m.type === 'move' && m.steps > 0).every((m) => m.type === 'move' && m.from === 'A')).toBe(true);
    expect(expectRejected(first, steps('alice', 3, { from: 'B' }), DerbyErrors.sameDirection)).toMatch(/moved from end A earlier this turn/);
    const done = play(first, steps('alice', 3, { from: 'A' }));
    expect(toNotation(done), 'the next turn is free to choose').toBe('basic roll @bob t2 r2 obst:0/0 | alice 6 | bob 6');
  });

  it('a worm moves the steps rolled: fewer only when obstacles block it', () => {
    const s = play(position('basic roll @alice t1 r0 obst:0/0 | alice 6 | bob 6'), roll('4'));
    expectRejected(s, steps('alice', 3), DerbyErrors.tooFewSteps);
    expect(play(s, steps('alice', 3, { blocked: true })).active).toBe(1);
    expect(play(s, steps('alice', 4, { from: 'B' })).active).toBe(1);
  });
});

describe('Worm Derby: setup', () => {
  it('turns go clockwise around the table, starting with the first player', () => {
    let s = start({ players: [ALICE, BOB, CAROL], firstPlayer: 'bob', obstacleTiles: 0 });
    expect(s.players.map((p) => p.id)).toEqual(['bob', 'carol', 'alice']);
    const turns: string[] = [];
    for (let i = 0; i < 4; i++) {
      turns.push(s.worms[s.active]!.player);
      s = play(s, roll('null'));
    }
    expect(turns).toEqual(['bob', 'carol', 'alice', 'bob']);
  });

  it.each([
    [2, 10, 1],
    [3, 7, 0],
    [4, 5, 1],
  ])('deals the 21 remaining tiles evenly to %i players (%i each, %i put aside)', (n, each, aside) => {
    const s = start({ players: [ALICE, BOB, CAROL, DAVE].slice(0, n) });
    expect(s.worms.map((w) => w.tilesInHand)).toEqual(Array(n).fill(each));
    expect(s.obstacles).toEqual({ dealt: each * n, aside, placed: 0 });
  });

  it('starting with the first player, each player in turn places a tile until all dealt tiles are placed', () => {
    let s = start({ players: [ALICE, BOB, CAROL], obstacleTiles: 6 });
    expect(s.phase).toBe('obstacles');
    const placers: string[] = [];
    while (s.phase === 'obstacles') {
      placers.push(s.worms[s.active]!.player);
      s = play(s, { type: 'place-obstacle', player: s.worms[s.active]!.player });
    }
    expect(placers).toEqual(['alice', 'bob', 'carol', 'alice', 'bob', 'carol']);
    expect(s.obstacles.placed).toBe(6);
    expect(s).toMatchObject({ phase: 'roll', active: 0, turn: 1 });
  });

  it('the placing instruction keeps obstacles three tile widths from the start line and the pylon', () => {
    const s = start({ players: [ALICE, BOB], obstacleTiles: 4 });
    expect(legal(s).instruction).toBe(
      'Alice: place one obstacle tile face down on the course, at least 3 tile widths from the start line and the pylon (2 tiles left).',
    );
    expectRejected(s, { type: 'place-obstacle', player: 'bob' }, 'move/not-your-turn');
  });

  it('then the first player builds and the race starts with the first player', () => {
    const s = placeAllObstacles(start({ players: [ALICE, BOB], firstPlayer: 'bob' }));
    expect(s.phase).toBe('roll');
    expect(s.worms[s.active]!.player).toBe('bob');
    expect(legal(s).instruction).toBe('Build every worm behind the start line (end A between the start tiles). Bob: roll your die.');
  });
});

describe('Worm Derby: the race', () => {
  it('the first worm home after going around the far side of the pylon wins', () => {
    const s = position('basic roll @alice t9 r9 obst:21/21 | alice 6 P | bob 6 P');
    const won = play(s, roll('3'), steps('alice', 3, { finished: true }));
    expect(won.phase).toBe('over');
    expect(wormDerby.status(won)).toMatchObject({ finished: true, headline: 'The race is over: alice won.' });
    expect(wormDerby.score(won).finishingOrder).toEqual(['alice']);
  });

  it('a worm home in the middle of its roll has won; one that took no step has neither finished nor rounded the pylon', () => {
    const s = play(position('basic roll @alice t9 r9 obst:21/21 | alice 6 P | bob 6 P'), roll('5'));
    // Across the line on its second step: the other three are not taken.
    expect(play(s, steps('alice', 2, { finished: true })).phase).toBe('over');
    expectRejected(s, steps('alice', 0, { blocked: true, finished: true }), 'move/malformed');
    const notYet = play(position('basic roll @alice t9 r9 obst:21/21 | alice 6 | bob 6'), roll('5'));
    expectRejected(notYet, steps('alice', 0, { blocked: true, roundedPylon: true }), 'move/malformed');
  });

  it('a worm cannot finish before it has rounded the pylon', () => {
    const s = play(position('basic roll @alice t9 r9 obst:21/21 | alice 6 | bob 6'), roll('3'));
    expectRejected(s, steps('alice', 3, { finished: true }), DerbyErrors.notRounded);
    // Rounding the pylon is reported once; it is then remembered.
    const rounded = play(s, steps('alice', 3, { roundedPylon: true }));
    expect(rounded.worms[0]!.roundedPylon).toBe(true);
    const again = play(rounded, roll('null'), roll('2'));
    expectRejected(again, steps('alice', 2, { roundedPylon: true }), DerbyErrors.alreadyRounded);
  });

  it('the remaining worms may continue to race for second and third place', () => {
    let s = position('basic roll @alice t9 r9 obst:21/21 | alice 6 P | bob 6 P | carol 6 P | dave 6 P');
    s = play(s, roll('3'), steps('alice', 3, { finished: true }));
    expect(s.phase).toBe('roll');
    expect(s.worms[s.active]!.player).toBe('bob');
    s = play(s, roll('null'), roll('5'), steps('carol', 5, { finished: true }));
    // Finished worms leave the turn order: after dave comes bob.
    s = play(s, roll('null'));
    expect(s.worms[s.active]!.player).toBe('bob');
    s = play(s, roll('2'), steps('bob', 2, { finished: true }));
    expect(s.phase).toBe('over');
    expect(wormDerby.score(s).lines.map((l) => [l.player, l.rank])).toEqual([
      ['alice', 1],
      ['carol', 2],
      ['bob', 3],
      ['dave', 4],
    ]);
  });

  it('the table may stop the race once the places it cares about are decided', () => {
    let s = position('basic roll @bob t9 r9 obst:21/21 | alice 6 P #1 | bob 6 P | carol 6');
    s = play(s, { type: 'stop-race' });
    expect(s).toMatchObject({ phase: 'over', stoppedEarly: true });
    expect(wormDerby.status(s).ranking).toEqual([
      { player: 'alice', rank: 1, score: 2 },
      { player: 'bob', rank: 2, score: 1 },
      { player: 'carol', rank: 2, score: 1 },
    ]);
    expectRejected(s, roll('2'), 'move/game-over');
  });
});

describe('Worm Derby: variants', () => {
  it('1. a shorter game has fewer obstacle tiles, or none', () => {
    const few = start({ players: [ALICE, BOB], obstacleTiles: 5 });
    expect(few.obstacles).toEqual({ dealt: 4, aside: 17, placed: 0 });
    const none = start({ players: [ALICE, BOB], obstacleTiles: 0 });
    expect(none.phase).toBe('roll');
    // With no obstacle to move, an ace simply means roll again.
    const ace = play(none, roll('ace'));
    expect(ace).toMatchObject({ phase: 'roll', active: 0 });
  });

  it('2. slalom has no movable obstacles: red tiles are passed on their right, blue on their left', () => {
    const s = start({ players: [ALICE, BOB], slalom: true });
    expect(s.phase).toBe('roll');
    expect(s.obstacles.dealt).toBe(0);
    expect(legal(s).instruction).toContain('pass every red tile on its right and every blue tile on its left');
    expect(play(s, roll('ace')).phase).toBe('roll');
  });
});

describe('Worm Derby: advanced rules, cannibal worms', () => {
  const race = 'advanced roll @alice t5 r5 obst:21/21 | alice 6 | bob 6 | carol 6';

  it('worm lengths run from 2 to 6 coins', () => {
    const s = start({ players: [ALICE, BOB], rules: 'advanced' });
    expect(s.worms.map((w) => [w.length, w.eaten])).toEqual([
      [6, 0],
      [6, 0],
    ]);
  });

  it('a worm that overlays an end coin of another worm eats it: the coin goes back to its owner', () => {
    const s = play(position(race), roll('4'), steps('alice', 2, { from: 'B', ate: { player: 'bob', end: 'A' } }));
    expect(toNotation(s)).toBe('advanced roll @bob t6 r6 obst:21/21 | alice 6 | bob 5+1 !alice@A | carol 6');
  });

  it('eating ends the movement for that turn, even on a face that rolls again', () => {
    const table = structuredClone(position(race).dieTable);
    table.faces['3'] = { action: 'steps', steps: 3, rollAgain: true };
    const s = { ...position(race), dieTable: table };
    const ate = play(s, roll('3'), steps('alice', 1, { ate: { player: 'bob', end: 'B' } }));
    expect(ate.worms[ate.active]!.player).toBe('bob');
    const plain = play(s, roll('3'), steps('alice', 3));
    expect(plain).toMatchObject({ phase: 'roll', active: 0 });
  });

  it('eating is only for the advanced rules', () => {
    const s = play(position('basic roll @alice t5 r5 obst:21/21 | alice 6 | bob 6'), roll('4'));
    expectRejected(s, steps('alice', 2, { ate: { player: 'bob', end: 'A' } }), DerbyErrors.noCannibals);
  });

  it('length-two worms may not be attacked', () => {
    const s = play(position('advanced roll @alice t5 r5 obst:21/21 | alice 6 | bob 2+4 | carol 3+3'), roll('4'));
    expect(legal(s).steps!.mayEat.map((t) => t.player)).toEqual(['carol']);
    const message = expectRejected(s, steps('alice', 2, { ate: { player: 'bob', end: 'A' } }), DerbyErrors.tooShortToEat);
    expect(message).toContain('length-two worms may not be attacked');
    // Eating a three-coin worm leaves it at two: never shorter.
    expect(play(s, steps('alice', 1, { ate: { player: 'carol', end: 'B' } })).worms[2]!.length).toBe(2);
  });

  it('the attacked worm, on its next move, must move away from the attacker (from the eaten end)', () => {
    const s = play(position('advanced roll @bob t6 r6 obst:21/21 | alice 6 | bob 5+1 !alice@A | carol 6'), roll('3'));
    expect(legal(s).instruction).toBe('bob: move 3 steps from end A, away from alice (and you may not eat alice this turn).');
    expectRejected(s, steps('bob', 3, { from: 'B' }), DerbyErrors.mustMoveAway);
    expectRejected(s, steps('bob', 3), DerbyErrors.mustMoveAway);
    const moved = play(s, steps('bob', 3, { from: 'A' }));
    // Served: the obligation ends with that turn.
    expect(moved.worms[1]!.bites).toEqual([]);
  });

  it('the attacked worm may not attack its attacker until the turn after', () => {
    let s = position('advanced roll @bob t6 r6 obst:21/21 | alice 6 | bob 5+1 !alice@A | carol 6');
    s = play(s, roll('3'));
    expect(legal(s).steps!.mayEat.map((t) => t.player)).toEqual(['carol']);
    expectRejected(s, steps('bob', 1, { from: 'A', ate: { player: 'alice', end: 'B' } }), DerbyErrors.mayNotAttackBiter);
    s = play(s, steps('bob', 3, { from: 'A' }), roll('null'), roll('null'));
    // Bob's next turn: Alice may be attacked again.
    s = play(s, roll('4'));
    expect(legal(s).steps!.mayEat.map((t) => t.player)).toEqual(['alice', 'carol']);
    expect(play(s, steps('bob', 2, { ate: { player: 'alice', end: 'B' } })).worms[0]!.length).toBe(5);
  });

  it('a worm never moves more steps than its length: the extra steps are lost', () => {
    const s = play(position('advanced roll @bob t6 r6 obst:21/21 | alice 6 | bob 3+3 | carol 6'), roll('5'));
    expect(legal(s).steps).toMatchObject({ steps: 3, lost: 2 });
    expect(legal(s).instruction).toBe('bob: move 3 steps from one end (2 steps lost: your worm is 3 coins long).');
    expectRejected(s, steps('bob', 5), DerbyErrors.tooManySteps);
    expectRejected(s, steps('bob', 4), DerbyErrors.tooManySteps);
    expect(play(s, steps('bob', 3)).active).toBe(2);
  });

  it('on an ace a worm may put an eaten coin back on one end instead of moving an obstacle, and still rolls again', () => {
    const s = play(position('advanced roll @bob t6 r6 obst:21/21 | alice 6 | bob 4+2 | carol 6'), roll('ace'));
    expect(legal(s).ace).toEqual({ moveObstacle: true, returnCoin: true, rollAgain: true });
    const back = play(s, { type: 'return-coin', player: 'bob', end: 'B' });
    expect(back.worms[1]).toMatchObject({ length: 5, eaten: 1 });
    expect(back).toMatchObject({ phase: 'roll', active: 1 });
    const moved = play(s, { type: 'move-obstacle', player: 'bob' });
    expect(moved.worms[1]).toMatchObject({ length: 4, eaten: 2 });
    expect(moved).toMatchObject({ phase: 'roll', active: 1 });
  });

  it('a worm with nothing eaten cannot put a coin back', () => {
    const s = play(position('advanced roll @bob t6 r6 obst:21/21 | alice 6 | bob 6 | carol 6'), roll('ace'));
    expectRejected(s, { type: 'return-coin', player: 'bob' }, DerbyErrors.noEatenCoin);
  });
});
