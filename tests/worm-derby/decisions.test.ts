/** DECISIONS.md §4 (Worm Derby): one test per row. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DIE_TABLE, DerbyErrors, parseDieTable, wormDerby, type DieTable } from '../../shared/games/worm-derby/index.js';
import { legalOptions as legal } from '../../shared/games/worm-derby/legal.js';
import { ALICE, BOB, CAROL, expectRejected, play, position, roll, start, steps } from './helpers.js';

const tableFile = path.resolve(import.meta.dirname, '../../shared/games/worm-derby/die-table.json');

describe('DECISIONS §4 die table (data, marked "reconstructed")', () => {
  it('the default table is the data file, marked reconstructed for the dashboard', () => {
    const file = parseDieTable(JSON.parse(readFileSync(tableFile, 'utf8')), 'die-table.json');
    expect(file.ok && file.table).toEqual(DEFAULT_DIE_TABLE);
    expect(DEFAULT_DIE_TABLE.reconstructed).toBe(true);
    const s = start();
    expect(legal(s).dieTable).toEqual({ name: 'clew reconstruction', reconstructed: true });
    expect(wormDerby.score(s).dieTable.reconstructed).toBe(true);
  });

  it('null: no move, the turn passes', () => {
    const s = play(position('basic roll @alice t1 r0 obst:21/21 | alice 6 | bob 6'), roll('null'));
    expect(s).toMatchObject({ phase: 'roll', active: 1, lastRoll: { player: 'alice', face: 'null', meaning: 'null: no move' } });
  });

  it('ace: move one obstacle tile, then roll again', () => {
    const s = play(position('basic roll @alice t1 r0 obst:21/21 | alice 6 | bob 6'), roll('ace'));
    expect(legal(s).instruction).toBe('alice: ace! Move one obstacle tile, then roll again.');
    expect(legal(s).moves).toEqual(['move-obstacle', 'pass-ace', 'stop-race']);
    expect(play(s, { type: 'move-obstacle', player: 'alice' })).toMatchObject({ phase: 'roll', active: 0 });
  });

  it('ace, advanced: return one eaten coin instead, then roll again', () => {
    const s = play(position('advanced roll @alice t1 r0 obst:21/21 | alice 5+1 | bob 6'), roll('ace'));
    expect(legal(s).instruction).toBe('alice: ace! Move one obstacle tile, or put an eaten coin back on one end of your worm, then roll again.');
    expect(play(s, { type: 'return-coin', player: 'alice' })).toMatchObject({ phase: 'roll', active: 0, worms: [{ length: 6, eaten: 0 }, {}] });
  });

  it.each([
    ['2', 2],
    ['3', 3],
    ['4', 4],
    ['5', 5],
  ] as const)('%s: that many steps, all from one end', (face, n) => {
    const s = play(position('basic roll @alice t1 r0 obst:21/21 | alice 6 | bob 6'), roll(face));
    expect(legal(s).steps).toMatchObject({ steps: n, lost: 0, from: 'either' });
    expect(s.lastRoll?.meaning).toBe(`${face}: move ${n} steps from one end`);
  });

  it('a table owner can correct the table: a corrected table in the options is used and shown', () => {
    const printed: DieTable = structuredClone(DEFAULT_DIE_TABLE);
    printed.name = 'printed rules';
    printed.reconstructed = false;
    printed.faces.null = { action: 'steps', steps: 1, rollAgain: false };
    const s = start({ dieTable: printed, obstacleTiles: 0 });
    expect(legal(s).dieTable).toEqual({ name: 'printed rules', reconstructed: false });
    expect(legal(play(s, roll('null'))).steps?.steps).toBe(1);
  });

  it('a broken table is refused with the path of the bad entry', () => {
    const broken = structuredClone(DEFAULT_DIE_TABLE) as unknown as { faces: Record<string, unknown> };
    broken.faces['4'] = { action: 'steps', steps: 9, rollAgain: false };
    const result = wormDerby.setup({ players: [ALICE, BOB], dieTable: broken as unknown as DieTable });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.code).toBe('setup/invalid');
      expect(result.message).toContain('dieTable.faces.4.steps');
    }
    const missing = parseDieTable({ ...DEFAULT_DIE_TABLE, faces: { ...DEFAULT_DIE_TABLE.faces, ace: undefined } }, 'my-table.json');
    expect(missing).toMatchObject({ ok: false });
    if (!missing.ok) expect(missing.message).toMatch(/^my-table\.json is not a valid Worm Derby die table: faces\.ace/);
  });
});

describe('DECISIONS §4 lengths', () => {
  it('basic: 6 coins, always', () => {
    const s = start({ obstacleTiles: 0 });
    expect(s.worms.every((w) => w.length === 6)).toBe(true);
    expect(legal(play(s, roll('5'))).steps).toMatchObject({ steps: 5, lost: 0 });
  });

  it('advanced: 2–6, tracked per worm as coins are eaten and returned', () => {
    let s = position('advanced roll @alice t1 r0 obst:21/21 | alice 6 | bob 4+2');
    s = play(s, roll('2'), steps('alice', 1, { ate: { player: 'bob', end: 'B' } }));
    expect(s.worms[1]).toMatchObject({ length: 3, eaten: 3 });
    s = play(s, roll('ace'), { type: 'return-coin', player: 'bob', end: 'A' });
    expect(s.worms[1]).toMatchObject({ length: 4, eaten: 2 });
  });

  it('steps above the length are lost', () => {
    const s = play(position('advanced roll @bob t1 r0 obst:21/21 | alice 6 | bob 2+4'), roll('4'));
    expect(legal(s).steps).toMatchObject({ steps: 2, lost: 2 });
  });
});

describe('DECISIONS §4 cannibal', () => {
  it('the attacked worm must move away next turn and may not attack the attacker until the turn after', () => {
    const s = play(position('advanced roll @bob t2 r2 obst:21/21 | alice 6 | bob 5+1 !alice@B'), roll('4'));
    expect(legal(s).steps).toMatchObject({ from: ['B'], mayEat: [] });
  });

  it('bitten at both ends (by two worms), it may take its steps from either bitten end', () => {
    const s = play(position('advanced roll @bob t2 r2 obst:21/21 | alice 6 | bob 4+2 !alice@B !carol@A | carol 6'), roll('4'));
    expect(legal(s).steps).toMatchObject({ from: ['A', 'B'], mayEat: [] });
    expect(legal(s).instruction).toBe('bob: move 4 steps from either bitten end, away from alice and carol (and you may not eat alice and carol this turn).');
    expectRejected(s, steps('bob', 4), DerbyErrors.mustMoveAway);
    expect(play(s, steps('bob', 4, { from: 'A' })).active).toBe(2);
  });

  it('the obligation is for the next turn only, even when that turn rolls a null', () => {
    const s = play(position('advanced roll @bob t2 r2 obst:21/21 | alice 6 | bob 5+1 !alice@B'), roll('null'));
    expect(s.worms[1]!.bites).toEqual([]);
  });

  it('length-2 worms cannot be attacked', () => {
    const s = play(position('advanced roll @alice t2 r2 obst:21/21 | alice 6 | bob 2+4'), roll('3'));
    expect(legal(s).steps?.mayEat).toEqual([]);
  });

  it('eating ends the mover\'s turn', () => {
    const s = play(position('advanced roll @alice t2 r2 obst:21/21 | alice 6 | bob 6'), roll('5'), steps('alice', 2, { ate: { player: 'bob', end: 'A' } }));
    expect(s).toMatchObject({ phase: 'roll', active: 1 });
  });

  it('a finished worm has left the course and cannot be eaten', () => {
    const s = play(position('advanced roll @alice t2 r2 obst:21/21 | alice 6 | bob 6 P #1 | carol 6'), roll('5'));
    expectRejected(s, steps('alice', 2, { ate: { player: 'bob', end: 'A' } }), DerbyErrors.victimOffCourse);
    expectRejected(s, steps('alice', 2, { ate: { player: 'alice', end: 'A' } }), DerbyErrors.eatSelf);
    expectRejected(s, steps('alice', 2, { ate: { player: 'zed', end: 'A' } }), DerbyErrors.noSuchWorm);
  });
});

describe('DECISIONS §4 race: turn order, each roll, lengths, pylon, finishing order', () => {
  it('the status and score carry everything the dashboard shows', () => {
    let s = start({ players: [ALICE, BOB, CAROL], rules: 'advanced', obstacleTiles: 0 });
    s = play(s, roll('4'), steps('alice', 4, { roundedPylon: true }));
    expect(wormDerby.status(s)).toEqual({ headline: 'Bob: roll your die.', toAct: ['bob'], finished: false });
    expect(s.lastRoll).toEqual({ player: 'alice', face: '4', meaning: '4: move 4 steps from one end' });
    expect(s.turn).toBe(2);
    s = play(s, roll('3'), steps('bob', 1, { ate: { player: 'carol', end: 'A' } }));
    s = play(s, roll('2'), steps('carol', 2, { from: 'A' }));
    s = play(s, roll('5'), steps('alice', 5, { finished: true }));
    const score = wormDerby.score(s);
    expect(score.finishingOrder).toEqual(['alice']);
    expect(score.lines).toEqual([
      { player: 'alice', rank: 1, place: 1, length: 6, eaten: 0, roundedPylon: true },
      { player: 'bob', rank: 2, place: null, length: 6, eaten: 0, roundedPylon: false },
      { player: 'carol', rank: 2, place: null, length: 5, eaten: 1, roundedPylon: false },
    ]);
    expect(s.rolls).toBe(4);
  });
});

describe('DECISIONS §4 slalom (option)', () => {
  it('is a setup option with the passing rule, and an ace has no obstacle to move', () => {
    const s = start({ slalom: true, rules: 'advanced' });
    expect(s.slalom).toBe(true);
    expect(wormDerby.status(s).headline).toContain('red tile on its right and every blue tile on its left');
    const ace = play(s, roll('ace'));
    expect(ace.phase).toBe('roll');
    // With an eaten coin the ace offers only the coin.
    const bitten = { ...s, worms: s.worms.map((w, i) => (i === 0 ? { ...w, length: 5, eaten: 1 } : w)) };
    const coin = play(bitten, roll('ace'));
    expect(legal(coin).ace).toEqual({ moveObstacle: false, returnCoin: true, rollAgain: true });
    expectRejected(coin, { type: 'move-obstacle', player: 'alice' }, DerbyErrors.noObstacles);
  });
});
