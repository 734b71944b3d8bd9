/**
 * A seat's id keys the engines' bids, scores and hands, so an id naming a built-in property of
 * every object is refused where a table is set up, in every game, with a message that says why
 * (a Worm-up seat "__proto__" could never reveal its bid). Other ids are as free as before.
 */
import { describe, expect, it } from 'vitest';
import type { GameId } from '../../shared/game.js';
import { GAMES } from '../../shared/games/registry.js';

const GAME_IDS = Object.keys(GAMES) as GameId[];
const seats = (first: string) => ({ players: [{ id: first, name: 'First' }, { id: 'p2', name: 'Second' }] });

describe('player ids at setup', () => {
  it.each(GAME_IDS)('%s refuses "__proto__", "constructor" and "toString" as ids, and takes ordinary ones', (id) => {
    for (const bad of ['__proto__', 'constructor', 'toString']) {
      const result = GAMES[id].setup(seats(bad));
      expect(result.ok, `${id} ${bad}`).toBe(false);
      if (!result.ok) expect(result.message).toContain(`"${bad}" cannot be a player id (it names a built-in property of JavaScript objects)`);
    }
    for (const good of ['ann', 'p1', 'Bob-2', 'proto']) expect(GAMES[id].setup(seats(good)).ok, `${id} ${good}`).toBe(true);
  });
});
