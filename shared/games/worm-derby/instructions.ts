/**
 * Plain words for the referee screen: each roll becomes an instruction a player can follow
 * without reading the rules ("move 4 steps from one end", "move an obstacle, then roll again").
 */
import { activeWorm, nameOf, type DerbyState, type Worm } from './state.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The bitten ends a worm must move from this turn, or null when it is free to choose. */
export function forcedEnds(worm: Worm): ('A' | 'B')[] | null {
  if (worm.bites.length === 0) return null;
  return [...new Set(worm.bites.map((b) => b.end))].sort();
}

/** Attackers this worm may not eat this turn ("not until the turn after"). */
export function protectedBiters(worm: Worm): string[] {
  return [...new Set(worm.bites.map((b) => b.by))];
}

function awayClause(state: DerbyState, worm: Worm): string {
  const ends = forcedEnds(worm);
  if (!ends) return '';
  const biters = protectedBiters(worm).map((p) => nameOf(state, p)).join(' and ');
  const from = ends.length === 1 ? `from end ${ends[0]}` : 'from either bitten end';
  return ` ${from}, away from ${biters} (and you may not eat ${biters} this turn)`;
}

/** Later in a turn: the whole move goes one way, from the end the worm first moved from. */
function sameEndClause(state: DerbyState, worm: Worm, end: 'A' | 'B'): string {
  const biters = protectedBiters(worm).map((p) => nameOf(state, p)).join(' and ');
  return ` from end ${end} again (the whole move goes one way)${biters ? ` (and you may not eat ${biters} this turn)` : ''}`;
}

/** What the table should do now, in one sentence. */
export function instruction(state: DerbyState): string {
  if (state.phase === 'over') {
    const winner = state.finishingOrder[0];
    return winner ? `The race is over: ${nameOf(state, winner)} won.` : 'The race was stopped with no finisher.';
  }
  const worm = activeWorm(state);
  const who = nameOf(state, worm.player);
  switch (state.phase) {
    case 'obstacles':
      return `${who}: place one obstacle tile face down on the course, at least 3 tile widths from the start line and the pylon (${plural(worm.tilesInHand, 'tile')} left).`;
    case 'roll':
      if (state.turn === 1 && state.rolls === 0) {
        const course = state.slalom ? ` ${SLALOM_RULE}` : '';
        return `Build every worm behind the start line (end A between the start tiles).${course} ${who}: roll your die.`;
      }
      return `${who}: roll your die.`;
    case 'ace': {
      const pending = state.pending;
      const then = pending?.rollAgain ? ', then roll again' : '';
      const canObstacle = state.obstacles.placed > 0;
      const canCoin = state.rules === 'advanced' && worm.eaten > 0;
      if (canObstacle && canCoin) return `${who}: ${pending?.face ?? 'ace'}! Move one obstacle tile, or put an eaten coin back on one end of your worm${then}.`;
      if (canCoin) return `${who}: ${pending?.face ?? 'ace'}! Put an eaten coin back on one end of your worm${then}.`;
      return `${who}: ${pending?.face ?? 'ace'}! Move one obstacle tile${then}.`;
    }
    case 'move': {
      const pending = state.pending;
      if (!pending) return `${who}: move your worm.`;
      const away = state.turnEnd ? sameEndClause(state, worm, state.turnEnd) : awayClause(state, worm);
      const lost = pending.lost > 0 ? ` (${plural(pending.lost, 'step')} lost: your worm is ${worm.length} coins long)` : '';
      const base = away ? `${who}: move ${plural(pending.steps, 'step')}${away}` : `${who}: move ${plural(pending.steps, 'step')} from one end`;
      const again = pending.rollAgain ? ', then roll again' : '';
      return `${base}${lost}${again}.`;
    }
  }
}

/** The slalom course rule, for the setup screen. */
export const SLALOM_RULE = 'Slalom: no movable obstacles; pass every red tile on its right and every blue tile on its left.';
