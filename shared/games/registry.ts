/**
 * Every game clew can run at a table, wrapped for the server (`toTableGame`), and the options a
 * fresh table starts each one with (a referee changes them from a phone).
 */
import { toTableGame, type GameId, type TableGame } from '../game.js';
import { tapeworm } from './tapeworm/index.js';
import { theWormIsDrawn } from './the-worm-is-drawn/index.js';
import { wormAndCozy } from './worm-and-cozy/index.js';
import { wormDerby } from './worm-derby/index.js';
import { wormUp } from './worm-up/index.js';

export const GAMES: Record<GameId, TableGame> = {
  'worm-and-cozy': toTableGame(wormAndCozy),
  'the-worm-is-drawn': toTableGame(theWormIsDrawn),
  'worm-up': toTableGame(wormUp),
  'worm-derby': toTableGame(wormDerby),
  tapeworm: toTableGame(tapeworm),
};

/** Two seats named plainly: enough for a fresh table; the referee sets the real players. */
const twoPlayers = { players: [{ id: 'p1', name: 'Player 1' }, { id: 'p2', name: 'Player 2' }] };

export const DEFAULT_OPTIONS: Record<GameId, unknown> = {
  // Worm & Cozy's own default is a solo game of the first clew chapter.
  'worm-and-cozy': {},
  'the-worm-is-drawn': twoPlayers,
  'worm-up': twoPlayers,
  'worm-derby': twoPlayers,
  tapeworm: twoPlayers,
};
