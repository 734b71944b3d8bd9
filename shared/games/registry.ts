/**
 * Every game this build of clew can run at a table, wrapped for the server (`toTableGame`), and
 * the options a fresh table starts each one with (a referee changes them from a phone).
 */
import { toTableGame, type GameId, type TableGame } from '../game.js';
import { theWormIsDrawn } from './the-worm-is-drawn/index.js';

export const GAMES: Partial<Record<GameId, TableGame>> = {
  'the-worm-is-drawn': toTableGame(theWormIsDrawn),
};

/** Two seats named plainly: enough for a fresh table; the referee sets the real players. */
const twoPlayers = { players: [{ id: 'p1', name: 'Player 1' }, { id: 'p2', name: 'Player 2' }] };

export const DEFAULT_OPTIONS: Record<GameId, unknown> = {
  'worm-and-cozy': {},
  'the-worm-is-drawn': twoPlayers,
  'worm-up': twoPlayers,
  'worm-derby': twoPlayers,
  tapeworm: twoPlayers,
};

export function gameIds(): GameId[] {
  return (Object.keys(GAMES) as GameId[]).filter((id) => GAMES[id] !== undefined);
}
