/** Game lookups for tests: the race test game under its borrowed id, alone or with the real engines. */
import type { GameId, TableGame } from '../../shared/game.js';
import type { GameLookup } from '../../web/server/table.js';
import { raceGame } from './race-game.js';

export const RACE: GameId = raceGame.id;

/** Only the race game (the server's own tests, independent of engine changes). */
export const raceOnly: GameLookup = (id) => (id === RACE ? raceGame : undefined);

export function lookupOf(games: Partial<Record<GameId, TableGame>>): GameLookup {
  return (id) => games[id];
}
