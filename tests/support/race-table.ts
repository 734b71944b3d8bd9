/**
 * A table of the race test game folded event by event as the session folds it, each event told
 * to whoever listens as main.ts tells clew's calibration part: for tests of what the table's
 * events do to the dice in play and the dice taught (played-rolls.ts), without a server.
 */
import { evolve, type Actor, type TableEvent, type TableState } from '../../web/server/table.js';
import { RACE, raceOnly } from './games.js';

export const referee: Actor = { kind: 'referee' };
/** The camera reads the tray: one die showing `face` at `x` pixels from the left (the same each time: the tray read again unchanged). */
export const trayRead = (x = 1, face = '3'): TableEvent => ({ type: 'roll', dice: [{ set: 'd6', face, box: [x, 2, 30, 31] }], source: 'camera', by: { kind: 'camera', source: 'camera' } });
/** The referee uses the pending roll as `player`'s move. */
export const useRoll = (player: string, face = 3): TableEvent => ({ type: 'confirm', move: { type: 'roll', player, face }, by: referee });
export const next: TableEvent = { type: 'move', move: { type: 'next' }, by: referee };
export const back: TableEvent = { type: 'undo', by: referee };

/** A fresh race table; `play` folds events into it, telling `played` of each (the table before and after). */
export function raceFolds(played: (event: TableEvent, before: TableState, after: TableState) => void) {
  const setup = evolve(null, { type: 'setup', game: RACE, options: {} }, raceOnly);
  if (!setup.ok) throw new Error(setup.message);
  let table: TableState = setup.state;
  return {
    get table() {
      return table;
    },
    set table(to: TableState) {
      table = to;
    },
    play(...events: TableEvent[]) {
      for (const event of events) {
        const r = evolve(table, event, raceOnly);
        if (!r.ok) throw new Error(`${event.type}: ${r.code} ${r.message}`);
        const before = table;
        table = r.state;
        played(event, before, table);
      }
    },
  };
}
