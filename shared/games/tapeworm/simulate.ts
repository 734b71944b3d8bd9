/**
 * A simulated physical table for seeded playouts and the bench: a real shuffled deck and real
 * hands, kept in step with the engine (which only sees counts and public cards). Each step picks
 * a random legal action for the active player from what they actually hold, applies it to the
 * engine, and moves the simulated cards the same way.
 */
import type { Result } from '../../game.js';
import type { Rng } from '../../rng.js';
import { cutsFor, placementsFor } from './legal.js';
import type { TapewormMove } from './moves.js';
import { deckOf } from './pool.js';
import type { TapewormState } from './state.js';
import { applyMove } from './turn.js';

export interface SimulatedTable {
  /** Face-down deck, top card last. */
  deck: string[];
  hands: string[][];
  discard: string[];
}

/** Shuffle and deal the real cards to match a fresh engine state. */
export function dealTable(state: TapewormState, rng: Rng): SimulatedTable {
  const cards = deckOf(state).playable.flatMap((k) => Array<string>(k.count).fill(k.id));
  const deck = rng.shuffle(cards);
  const hands = state.hands.map((n) => deck.splice(deck.length - n, n));
  return { deck, hands, discard: [] };
}

function drawInto(table: SimulatedTable, seat: number, rng: Rng): void {
  if (table.deck.length === 0 && table.discard.length > 0) {
    table.deck = rng.shuffle(table.discard);
    table.discard = [];
  }
  const card = table.deck.pop();
  if (card !== undefined) table.hands[seat]!.push(card);
}

function takeFromHand(table: SimulatedTable, seat: number, card: string): void {
  const hand = table.hands[seat]!;
  const i = hand.indexOf(card);
  if (i < 0) throw new Error(`simulated hand ${seat} does not hold ${card}`);
  hand.splice(i, 1);
}

function randomCard(hand: string[], rng: Rng): string {
  return rng.pick(hand);
}

/**
 * One random legal action, applied to the engine and the simulated table together. Returns the
 * engine's result (a refusal would be an engine bug: the action came from the player's real cards).
 */
export function randomStep(state: TapewormState, table: SimulatedTable, rng: Rng): { move: TapewormMove; result: Result<TapewormState> } {
  const seat = state.active;
  const player = state.players[seat]!.id;
  const hand = table.hands[seat]!;
  let move: TapewormMove;
  const apply = (m: TapewormMove) => ({ move: m, result: applyMove(state, m) });
  switch (state.phase) {
    case 'over':
      throw new Error('the game is over');
    case 'draw': {
      move = { type: 'draw', player };
      const out = apply(move);
      if (out.result.ok) drawInto(table, seat, rng);
      return out;
    }
    case 'play': {
      const deck = deckOf(state);
      const kinds = [...new Set(hand)].map((id) => deck.kinds.get(id)!);
      const placements = placementsFor(state, kinds);
      const cuts = cutsFor(state, kinds);
      const stop = placements.length + cuts.length === 0 || (state.played > 0 && rng.next() < 0.15);
      if (stop) return apply({ type: 'end-turn', player });
      if (cuts.length > 0 && (placements.length === 0 || rng.next() < 0.25)) {
        const c = rng.pick(cuts);
        move = { type: 'cut', player, card: c.card, x: c.x, y: c.y, edge: c.edge };
        const out = apply(move);
        if (out.result.ok) {
          takeFromHand(table, seat, c.card);
          table.discard = out.result.state.discard.slice();
        }
        return out;
      }
      const p = rng.pick(placements);
      move = { type: 'place', player, card: p.card, x: p.x, y: p.y, rotation: p.rotation };
      const out = apply(move);
      if (out.result.ok) takeFromHand(table, seat, p.card);
      return out;
    }
    case 'effect': {
      const next = state.pending[0]!;
      const others = state.players.map((_, i) => i).filter((i) => i !== seat);
      if (rng.next() < 0.2) return apply({ type: 'decline', player });
      switch (next.effect) {
        case 'peek': {
          const out = apply({ type: 'peek', player });
          if (out.result.ok) {
            drawInto(table, seat, rng);
            const back = randomCard(hand, rng);
            takeFromHand(table, seat, back);
            table.deck.push(back);
          }
          return out;
        }
        case 'dig': {
          // The discard is chosen after seeing the drawn card: draw on a copy first.
          const trial: SimulatedTable = { deck: table.deck.slice(), hands: table.hands.map((h) => h.slice()), discard: table.discard.slice() };
          drawInto(trial, seat, rng);
          const gone = randomCard(trial.hands[seat]!, rng);
          const out = apply({ type: 'dig', player, discard: gone });
          if (out.result.ok) {
            takeFromHand(trial, seat, gone);
            trial.discard.push(gone);
            Object.assign(table, trial);
          }
          return out;
        }
        case 'hatch': {
          const target = rng.pick(others);
          const out = apply({ type: 'hatch', player, target: state.players[target]!.id });
          if (out.result.ok) drawInto(table, target, rng);
          return out;
        }
        case 'swap': {
          const target = rng.pick(others);
          const theirs = table.hands[target]!;
          const traded = hand.length > 0 && theirs.length > 0 && rng.next() < 0.7;
          const out = apply({ type: 'swap', player, target: state.players[target]!.id, traded });
          if (out.result.ok && traded) {
            const mine = randomCard(hand, rng);
            const got = randomCard(theirs, rng);
            takeFromHand(table, seat, mine);
            takeFromHand(table, target, got);
            hand.push(got);
            theirs.push(mine);
          }
          return out;
        }
        case 'ringworm': {
          const n = Math.min(hand.length, rng.int(0, 2));
          const chosen = rng.shuffle(hand).slice(0, n);
          const out = apply({ type: 'ringworm', player, discard: chosen });
          if (out.result.ok) {
            for (const c of chosen) takeFromHand(table, seat, c);
            table.discard.push(...chosen);
          }
          return out;
        }
      }
    }
  }
}
