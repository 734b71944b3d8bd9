/** The score: worms on the tiles each player holds; a tie goes to whoever holds the highest tile. */
import type { TwidScore, TwidScoreLine, TwidState } from './types.js';
import { wormsOn } from './tiles.js';

export function scoreGame(state: TwidState): TwidScore {
  const lines: Omit<TwidScoreLine, 'rank'>[] = state.players.map((p, i) => {
    const tiles = state.stacks[i]!;
    return {
      player: p.id,
      worms: tiles.reduce((n, t) => n + wormsOn(state.tiles, t), 0),
      tiles: [...tiles],
      highest: tiles.length ? Math.max(...tiles) : null,
    };
  });
  const key = (l: Omit<TwidScoreLine, 'rank'>) => [l.worms, l.highest ?? 0] as const;
  const sorted = [...lines].sort((a, b) => key(b)[0] - key(a)[0] || key(b)[1] - key(a)[1]);
  const ranked: TwidScoreLine[] = [];
  sorted.forEach((l, i) => {
    const prev = ranked[i - 1];
    // Tiles are unique, so only players holding nothing can still tie after the tie-break.
    const same = prev !== undefined && prev.worms === l.worms && (prev.highest ?? 0) === (l.highest ?? 0);
    ranked.push({ ...l, rank: same ? prev.rank : i + 1 });
  });
  return { finished: state.phase === 'over', lines: ranked };
}
