/** The race's record: the winner the referee declared and how far each worm was moved by its bids. */
import type { WormUpScore, WormUpState } from './types.js';

export function scoreRace(state: WormUpState): WormUpScore {
  const advanced: Record<string, number> = Object.fromEntries(state.players.map((p) => [p.id, 0]));
  const rounds = state.current ? [...state.history, state.current] : state.history;
  for (const r of rounds) for (const m of r.order.slice(0, r.moved)) advanced[m.player] = (advanced[m.player] ?? 0) + m.steps;
  return { finished: state.phase === 'over', winner: state.winner, rounds: rounds.length, advanced };
}
