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
import type { TableState } from '../../web/server/table.js';
import { back, next, raceFolds, referee, trayRead, useRoll } from '../support/race-table.js';
import { scratchDir } from '../support/scratch.js';

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
  const folds = raceFolds((event, before, after) => calibration.played(event, before, after));
  return {
    play: folds.play,
    /** The undo entries as a snapshot from before they kept the table's version. */
    forgetVersions() {
      folds.table = { ...folds.table, undo: folds.table.undo.map(({ state, roll }) => ({ state, roll })) };
    },
    async restart() {
      await calibration.close();
      calibration = await start(folds.table);
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
    t.play(trayRead(), useRoll('ann'), next, trayRead(), useRoll('bob'), next, trayRead());
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
    t.play(trayRead(), useRoll('ann'), next, trayRead(), useRoll('bob'), next, trayRead());
    t.forgetVersions();
    t.play(back, back); // Bob's NEXT, then Bob's roll back
    await t.settled();
    expect(t.inPlay()).toBe(1);
    t.play(back, back);
    await t.settled();
    expect(t.inPlay()).toBeUndefined();
  });
});
