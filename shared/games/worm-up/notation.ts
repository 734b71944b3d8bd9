/**
 * A one-line position for tests and failing-test output (written, not read back):
 *
 *   r3 move ^red:5 blue:X=4 green:5/c ghost:- moved:1/2
 *
 * the round and phase; each seat as colour:bid (`-` before the reveal, `X?` before X names its
 * number, `X=4` after), `/` and the void reasons (c collision, g ghost, r restricted), `^` before a
 * seat that may not bid 7 or X this round; the ghost's two dice; movers moved of all; the winner.
 */
import type { VoidReason, WormUpState } from './types.js';

const REASON: Record<VoidReason, string> = { collision: 'c', ghost: 'g', restricted: 'r' };

export function toNotation(state: WormUpState): string {
  const r = state.current;
  const seats = state.players.map((p) => {
    const b = r?.bids.find((x) => x.player === p.id);
    const bid = !b ? '-' : b.bid !== 'X' || b.void.length ? b.bid : r!.xNumber === null ? 'X?' : `X=${r!.xNumber}`;
    const marks = b?.void.length ? `/${b.void.map((v) => REASON[v]).join('')}` : '';
    return `${state.restricted.includes(p.id) ? '^' : ''}${p.color}:${bid}${marks}`;
  });
  const ghost = r?.ghost ? r.ghost.dice.join('') : '-';
  const moved = r ? `${r.moved}/${r.order.length}` : '-';
  const winner = state.players.find((p) => p.id === state.winner);
  return [`r${state.round}`, state.phase, ...seats, `ghost:${ghost}`, `moved:${moved}`, ...(winner ? [`win:${winner.color}`] : [])].join(' ');
}
