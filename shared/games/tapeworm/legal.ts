/**
 * What the active player may do now. Compact by default: the phase, the locked colour, the open
 * ends, the counts. Hands are secret, so placements are listed for the cards a query names
 * (`{ cards: [...] }`, e.g. a player's phone asking about its own hand) or, with
 * `{ verbose: true }`, for every kind that may still be hidden; verbose also lists `detail`,
 * every distinct legal move.
 */
import type { PlayerId } from '../../game.js';
import { EDGES, type CardKind } from './deck.js';
import { checkPlacement, cutLines, frontier, grid, openEnds, type Grid, type OpenEnd, type Rotation } from './geometry.js';
import { describeTurn } from './instructions.js';
import { cutTurnOffColour } from './turn.js';
import type { TapewormMove, TapewormMoveType } from './moves.js';
import { canDraw, deckOf, hiddenCount, hiddenKinds, kindsAfterDraw, publicCounts } from './pool.js';
import { type PendingEffect, type TapewormPhase, type TapewormState } from './state.js';

export interface TapewormQuery {
  verbose?: boolean;
  /** Card ids to list placements and cuts for (a hand, or the card in a player's fingers). */
  cards?: string[];
}

export interface PlacementOption {
  card: string;
  x: number;
  y: number;
  rotation: Rotation;
  /** The colour it extends (and locks, if it is the turn's first card). */
  color: string;
  /** A head or a colour change: the turn ends after it. */
  endsTurn: boolean;
  ring: boolean;
  effect: string | null;
}

export interface CutOption {
  card: string;
  x: number;
  y: number;
  edge: (typeof EDGES)[number];
  color: string;
  /** Cards the cut would discard. */
  removes: number;
}

export interface TapewormLegal {
  phase: TapewormPhase;
  player: PlayerId | null;
  instruction: string;
  moves: TapewormMoveType[];
  lock: string | null;
  openEnds: OpenEnd[];
  drawPile: number;
  discard: number;
  hands: { player: PlayerId; cards: number }[];
  pending: PendingEffect[];
  deck: { name: string; official: boolean };
  placements?: PlacementOption[];
  cuts?: CutOption[];
  detail?: TapewormMove[];
}

/** Placements for these kinds that the rules allow now (the lock applies when `lock` is given). */
export function placementsFor(state: TapewormState, kinds: CardKind[], g: Grid = grid(deckOf(state), state.table)): PlacementOption[] {
  const out: PlacementOption[] = [];
  const cells = frontier(g);
  for (const kind of kinds) {
    for (const cell of cells) {
      for (let r = 0; r < 4; r++) {
        const rotation = r as Rotation;
        const p = checkPlacement(g, kind, cell.x, cell.y, rotation, state.tableEdge ?? undefined, false);
        if (!p.ok) continue;
        if (state.lock && !p.connections.some((c) => c.color === state.lock)) continue;
        if (cutTurnOffColour(state, p.colors)) continue;
        const color = state.lock ?? p.connections[0]!.color;
        out.push({ card: kind.id, x: cell.x, y: cell.y, rotation, color, endsTurn: p.head || p.colors.some((c) => c !== color), ring: p.ring, effect: kind.effect });
      }
    }
  }
  return out;
}

/** Cuts these kinds could make now (same colour as the turn's lock, never inside a ringworm). */
export function cutsFor(state: TapewormState, kinds: CardKind[], g: Grid = grid(deckOf(state), state.table)): CutOption[] {
  const cutters = kinds.filter((k) => k.effect === 'cut' && (!state.lock || k.colors[0] === state.lock));
  if (cutters.length === 0) return [];
  const lines = cutLines(g);
  return cutters.flatMap((k) => lines.filter((l) => l.color === k.colors[0]).map((l) => ({ card: k.id, ...l })));
}

/** The kinds named by a query, once each, that may still be in a hand. */
function queriedKinds(state: TapewormState, ids: string[]): CardKind[] {
  const deck = deckOf(state);
  const counts = publicCounts(state);
  const seen = new Set<string>();
  const out: CardKind[] = [];
  for (const id of ids) {
    const kind = deck.kinds.get(id);
    if (!kind || seen.has(id) || hiddenCount(state, kind, counts) <= 0) continue;
    seen.add(id);
    out.push(kind);
  }
  return out;
}

function effectMoves(state: TapewormState, player: PlayerId, effect: PendingEffect['effect']): TapewormMove[] {
  const others = state.players.filter((p) => p.id !== player);
  const seat = state.active;
  switch (effect) {
    case 'peek':
      return canDraw(state) ? [{ type: 'peek', player }] : [];
    case 'dig':
      // The card drawn may be any hidden kind (after a reshuffle, a discarded one too), so any may be the one discarded.
      return canDraw(state) ? kindsAfterDraw(state).map((k): TapewormMove => ({ type: 'dig', player, discard: k.id })) : [];
    case 'hatch':
      return canDraw(state) ? others.map((p): TapewormMove => ({ type: 'hatch', player, target: p.id })) : [];
    case 'swap':
      return others.flatMap((p): TapewormMove[] => {
        const target = state.players.indexOf(p);
        const canTrade = state.hands[seat]! > 0 && state.hands[target]! > 0;
        return canTrade ? [{ type: 'swap', player, target: p.id, traded: true }, { type: 'swap', player, target: p.id, traded: false }] : [{ type: 'swap', player, target: p.id, traded: false }];
      });
    case 'ringworm': {
      const kinds = hiddenKinds(state);
      const counts = publicCounts(state);
      const out: TapewormMove[] = [{ type: 'ringworm', player, discard: [] }];
      const max = Math.min(2, state.hands[seat]!);
      kinds.forEach((a, i) => {
        if (max >= 1) out.push({ type: 'ringworm', player, discard: [a.id] });
        if (max < 2) return;
        for (const b of kinds.slice(i)) {
          if (a === b && hiddenCount(state, a, counts) < 2) continue;
          out.push({ type: 'ringworm', player, discard: [a.id, b.id] });
        }
      });
      return out;
    }
  }
}

export function legalOptions(state: TapewormState, query?: TapewormQuery): TapewormLegal {
  const deck = deckOf(state);
  const g = grid(deck, state.table);
  const base: TapewormLegal = {
    phase: state.phase,
    player: state.phase === 'over' ? null : state.players[state.active]!.id,
    instruction: describeTurn(state),
    moves: [],
    lock: state.lock,
    openEnds: openEnds(g),
    drawPile: state.drawPile,
    discard: state.discard.length,
    hands: state.players.map((p, i) => ({ player: p.id, cards: state.hands[i]! })),
    pending: state.pending.slice(),
    deck: { name: state.deck.name, official: state.deck.official },
  };
  if (state.phase === 'over') return query?.verbose ? { ...base, detail: [] } : base;
  const player = state.players[state.active]!.id;
  const verbose = query?.verbose === true;
  switch (state.phase) {
    case 'draw':
      return { ...base, moves: ['draw'], ...(verbose ? { detail: [{ type: 'draw', player }] } : {}) };
    case 'play': {
      const kinds = query?.cards ? queriedKinds(state, query.cards) : verbose ? hiddenKinds(state) : null;
      const moves: TapewormMoveType[] = ['place', 'cut', 'end-turn'];
      if (!kinds) return { ...base, moves };
      const placements = placementsFor(state, kinds, g);
      const cuts = cutsFor(state, kinds, g);
      const detail: TapewormMove[] | undefined = verbose
        ? [
            ...placements.map((p): TapewormMove => ({ type: 'place', player, card: p.card, x: p.x, y: p.y, rotation: p.rotation })),
            ...cuts.map((c): TapewormMove => ({ type: 'cut', player, card: c.card, x: c.x, y: c.y, edge: c.edge })),
            { type: 'end-turn', player },
          ]
        : undefined;
      return { ...base, moves, placements, cuts, ...(detail ? { detail } : {}) };
    }
    case 'effect': {
      const next = state.pending[0]!;
      const uses = effectMoves(state, player, next.effect);
      const moves: TapewormMoveType[] = uses.length ? [next.effect, 'decline'] : ['decline'];
      return { ...base, moves, ...(verbose ? { detail: [...uses, { type: 'decline', player }] } : {}) };
    }
  }
}
