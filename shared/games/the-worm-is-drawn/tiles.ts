/** The tiles: which may be taken or stolen for a total, and what a failure costs. */
import type { PlayerId } from '../../game.js';
import type { Rules, Tile } from './data.js';
import type { Steal } from './types.js';

export function wormsOn(tiles: readonly Tile[], value: number): number {
  return tiles.find((t) => t.value === value)?.worms ?? 0;
}

/** `any`: every face-up table tile up to the total; `highest`: only the highest of them. */
export function takeableTiles(table: readonly number[], total: number, rules: Rules): number[] {
  const reachable = table.filter((v) => v <= total);
  if (rules.take === 'any' || reachable.length === 0) return reachable;
  return [Math.max(...reachable)];
}

/** An opponent's top tile whose value is exactly the total may be taken instead. */
export function stealableTiles(
  stacks: readonly (readonly number[])[],
  players: readonly { id: PlayerId }[],
  current: number,
  total: number,
  tiles: readonly Tile[],
): Steal[] {
  const out: Steal[] = [];
  stacks.forEach((stack, i) => {
    const top = stack[stack.length - 1];
    if (i !== current && top === total) out.push({ tile: top, worms: wormsOn(tiles, top), from: players[i]!.id });
  });
  return out;
}

/**
 * A failed turn: with no tiles the player just passes; otherwise the top tile goes back on the
 * table and the highest face-up table tile is turned down (classic skips the flip when the
 * returned tile is itself the highest).
 */
export function failure(
  table: readonly number[],
  stack: readonly number[],
  rules: Rules,
): { table: number[]; stack: number[]; returned: number | null; flipped: number | null } {
  const returned = stack[stack.length - 1];
  if (returned === undefined) return { table: [...table], stack: [], returned: null, flipped: null };
  const back = [...table, returned].sort((a, b) => a - b);
  const highest = back[back.length - 1]!;
  const flip = highest !== returned || rules.flipReturnedHighest;
  return {
    table: flip ? back.slice(0, -1) : back,
    stack: stack.slice(0, -1),
    returned,
    flipped: flip ? highest : null,
  };
}
