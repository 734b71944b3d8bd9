/** Plain words for the referee screen: whose turn, what they may do, what an effect asks. */
import { canDraw } from './pool.js';
import { activePlayer, isSolo, nameOf, type PendingEffect, type TapewormState } from './state.js';

const EFFECT_TEXT: Record<PendingEffect['effect'], string> = {
  peek: 'Peek: draw a card, then put a card from your hand on top of the deck (it may be the one you drew)',
  dig: 'Dig: draw a card, then discard a card (it may be the one you drew)',
  hatch: 'Hatch: make another player draw a card',
  swap: "Swap: look at another player's hand; you may trade a card with them",
  ringworm: 'Ringworm! You closed a ring: you may discard 2 cards',
};

export function effectText(effect: PendingEffect['effect']): string {
  return EFFECT_TEXT[effect];
}

export function describeTurn(state: TapewormState): string {
  if (state.phase === 'over') {
    if (state.winner) {
      const who = nameOf(state, state.winner);
      if (state.end === 'emptied-hand') return isSolo(state) ? `${who} emptied their hand in ${state.turn} turns.` : `${who} wins: no cards left at the end of the turn.`;
      // A stall has two causes (turn.ts stalled): nothing left to draw, so no hand can change, or
      // only a Cut could help and nobody holds one.
      if (!canDraw(state)) return `Nothing is left to draw and no one can play: ${who}, the last to play, wins.`;
      return `No one can play but with a Cut nobody holds: ${who}, the last to play, wins.`;
    }
    return isSolo(state) ? 'Practice over: no card can be played any more.' : 'The game is stuck and no one has played a card: no winner.';
  }
  const who = activePlayer(state).name;
  switch (state.phase) {
    case 'draw':
      return `${who}: draw a card.`;
    case 'play':
      if (state.cut && state.lock) return `${who}: this turn has a ${state.lock} Cut: play more cards all ${state.lock} (or another ${state.lock} Cut), or end your turn.`;
      return state.lock
        ? `${who}: play more ${state.lock} (or a ${state.lock} Cut), or end your turn.`
        : `${who}: play a card on an open segment of its colour (or Cut), or pass if you cannot.`;
    case 'effect': {
      const next = state.pending[0]!;
      return `${who}: ${EFFECT_TEXT[next.effect]}, or decline.`;
    }
  }
}
