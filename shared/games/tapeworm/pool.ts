/**
 * Which cards can still be hidden (in the deck or in hands): every copy of a kind that is not on
 * the table or in the discard pile. A card the referee records as played must come from there:
 * that is how a typo ("a fourth red head") is caught without anyone showing their hand.
 */
import { expandDeck, type CardKind, type Deck } from './deck.js';
import type { TapewormState } from './state.js';

export function deckOf(state: TapewormState): Deck {
  return expandDeck(state.deck);
}

/** Copies of each kind that are public (on the table or discarded). */
export function publicCounts(state: TapewormState): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of state.table) counts.set(c.card, (counts.get(c.card) ?? 0) + 1);
  for (const id of state.discard) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** Copies of a kind that may be in the deck or a hand. */
export function hiddenCount(state: TapewormState, kind: CardKind, counts = publicCounts(state)): number {
  return kind.start ? 0 : kind.count - (counts.get(kind.id) ?? 0);
}

/** The kinds of which some copy is still hidden. */
export function hiddenKinds(state: TapewormState): CardKind[] {
  const counts = publicCounts(state);
  return deckOf(state).playable.filter((k) => hiddenCount(state, k, counts) > 0);
}

/** A card can be drawn: the deck has one, or the discards can be shuffled into a new deck. */
export const canDraw = (state: TapewormState): boolean => state.drawPile + state.discard.length > 0;

/**
 * The kinds a hand may hold once the active player draws a card (a Dig: draw, then discard one).
 * A draw from an empty deck shuffles the discards back in first, so their kinds are hidden again.
 */
export function kindsAfterDraw(state: TapewormState): CardKind[] {
  return hiddenKinds(state.drawPile === 0 && state.discard.length > 0 ? { ...state, discard: [] } : state);
}
