/**
 * BACK takes back the use of a roll it brings back, found by the table version the roll was used
 * at (web/server/played-rolls.ts, the undo entries' `version` in table.ts), not by its dice: the
 * same dice come again whenever the tray is read again unchanged. Real table folds of the race
 * test game; clew's calibration part counts the dice in play (no reader, nothing taught).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TableCalibration } from '../../web/server/calibration.js';
import { lazyReader } from '../../web/server/dice-reader.js';
import { silentLogger } from '../../web/server/logger.js';
import { evolve, type Actor, type TableEvent, type TableState } from '../../web/server/table.js';
import { RACE, raceOnly } from '../support/games.js';
import { scratchDir } from '../support/scratch.js';

const referee: Actor = { kind: 'referee' };
/** The camera reads the tray: one die showing 3, in the same place each time (the tray read again unchanged). */
const trayRead: TableEvent = { type: 'roll', dice: [{ set: 'd6', face: '3', box: [1, 2, 30, 31] }], source: 'camera', by: { kind: 'camera', source: 'camera' } };
const use = (player: string): TableEvent => ({ type: 'confirm', move: { type: 'roll', player, face: 3 }, by: referee });
const next: TableEvent = { type: 'move', move: { type: 'next' }, by: referee };
const back: TableEvent = { type: 'undo', by: referee };

/** A table of the race game and clew's calibration part on `dir`, told of every event as main.ts tells it; `restart`: the part started afresh on the same folder, loaded with the table as main.ts loads it. */
async function tableOn(dir: string) {
  const start = async (table?: TableState) => {
    const calibration = new TableCalibration(path.join(dir, 'calibration'), lazyReader(async () => { throw new Error('no reader'); }, silentLogger), () => null, silentLogger, () => {}, {
      learnFromChecks: false,
      file: path.join(dir, 'dice-in-play.json'),
      heldDir: path.join(dir, 'held-roll'),
    });
    await calibration.load(table);
    return calibration;
  };
  let calibration = await start();
  const setup = evolve(null, { type: 'setup', game: RACE, options: {} }, raceOnly);
  if (!setup.ok) throw new Error(setup.message);
  let table: TableState = setup.state;
  return {
    play(...events: TableEvent[]) {
      for (const event of events) {
        const r = evolve(table, event, raceOnly);
        if (!r.ok) throw new Error(`${event.type}: ${r.code} ${r.message}`);
        const before = table;
        table = r.state;
        calibration.played(event, before, table);
      }
    },
    /** The undo entries as a snapshot from before they kept the table's version. */
    forgetVersions() {
      table = { ...table, undo: table.undo.map(({ state, roll }) => ({ state, roll })) };
    },
    async restart() {
      await calibration.close();
      calibration = await start(table);
    },
    settled: () => calibration.saved(),
    inPlay: () => calibration.status().find((s) => s.set === 'd6')?.inPlay?.dice,
  };
}

describe('BACK takes back the use of the roll it brings back', () => {
  it.each([
    ['without a restart', false],
    ['over a restart', true],
  ] as const)('of two final rolls with the same dice, a BACK of a move entered by hand over the same dice read again takes back neither; each later BACK its own (%s)', async (_, restart) => {
    const t = await tableOn(scratchDir('clew-played-back-'));
    // Ann's roll used, then Bob's: the same die in the same place. The tray read a third time is pending.
    t.play(trayRead, use('ann'), next, trayRead, use('bob'), next, trayRead);
    await t.settled();
    expect(t.inPlay()).toBe(2);
    if (restart) await t.restart();
    // Ann's move entered by hand while that third read was pending: its BACK brings the read back, unused.
    t.play({ type: 'move', move: { type: 'roll', player: 'ann', face: 3 }, by: referee });
    t.play(back);
    await t.settled();
    expect(t.inPlay()).toBe(2);
    t.play(back, back); // Bob's NEXT, then Bob's roll back
    await t.settled();
    expect(t.inPlay()).toBe(1);
    t.play(back, back); // Ann's NEXT, then Ann's roll back
    await t.settled();
    expect(t.inPlay()).toBeUndefined();
  });

  it('undo entries from before they kept the version (an older snapshot) find the roll by its dice, the newest first, as before', async () => {
    const t = await tableOn(scratchDir('clew-played-back-'));
    t.play(trayRead, use('ann'), next, trayRead, use('bob'), next, trayRead);
    t.forgetVersions();
    t.play(back, back); // Bob's NEXT, then Bob's roll back
    await t.settled();
    expect(t.inPlay()).toBe(1);
    t.play(back, back);
    await t.settled();
    expect(t.inPlay()).toBeUndefined();
  });
});
