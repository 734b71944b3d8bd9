/**
 * Tapeworm turns: setup, and each recorded action applied. Pure and total: an action the rules
 * forbid gives a Failure with a `move/...` code and leaves the state as it was.
 */
import { Errors, fail, ok, type ErrorCode, type Failure, type Result } from '../../game.js';
import { DEFAULT_DECK, DECK_SIZE, parseDeck, type CardKind } from './deck.js';
import { checkPlacement, cutLine, edgeIndex, frontier, grid, type Rotation } from './geometry.js';
import type { TapewormMove } from './moves.js';
import { HAND_SIZE, tapewormOptionsSchema, type TapewormOptions } from './options.js';
import { canDraw, deckOf, hiddenCount, hiddenKinds, publicCounts } from './pool.js';
import { activePlayer, isSolo, nameOf, type IconEffect, type PendingEffect, type TapewormState } from './state.js';

export const TapewormErrors = {
  unknownCard: 'move/unknown-card',
  startCard: 'move/start-card',
  notAvailable: 'move/card-not-available',
  emptyHand: 'move/empty-hand',
  colourLocked: 'move/colour-locked',
  notACutCard: 'move/not-a-cut-card',
  cutColour: 'move/cut-colour',
  cutTurnColour: 'move/cut-turn-colour',
  effectMismatch: 'move/effect-mismatch',
  effectUnavailable: 'move/effect-unavailable',
  noSuchPlayer: 'move/no-such-player',
  targetSelf: 'move/target-self',
  nothingToTrade: 'move/nothing-to-trade',
  tooManyDiscards: 'move/too-many-discards',
} as const satisfies Record<string, ErrorCode>;

export function initialState(options: TapewormOptions): Result<TapewormState> {
  const parsed = tapewormOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(Errors.setupInvalid, `bad Tapeworm options: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}`);
  }
  const o = parsed.data;
  let deck = DEFAULT_DECK;
  if (o.deck) {
    const checked = parseDeck(o.deck, 'the deck in the options');
    if (!checked.ok) return fail(Errors.setupInvalid, checked.message);
    deck = checked.deck;
  }
  const first = o.firstPlayer ? o.players.findIndex((p) => p.id === o.firstPlayer) : 0;
  const players = [...o.players.slice(first), ...o.players.slice(0, first)].map((p) => ({ ...p }));
  // The start card goes in the middle; everyone is dealt five from the shuffled rest.
  return ok({
    game: 'tapeworm',
    players,
    deck,
    tableEdge: o.tableEdge ?? null,
    drawPile: DECK_SIZE - 1 - HAND_SIZE * players.length,
    hands: players.map(() => HAND_SIZE),
    discard: [],
    table: [{ card: deck.start.id, x: 0, y: 0, rotation: 0 }],
    phase: 'draw',
    active: 0,
    turn: 1,
    lock: null,
    played: 0,
    turnEnds: false,
    pending: [],
    passes: 0,
    lastToPlay: null,
    winner: null,
    end: null,
    reshuffles: 0,
  });
}

/**
 * In a turn with a Cut, "the Cut card and all cards played that turn must be the same color": the
 * colour on a card that is not the lock's (a two-coloured card), or null. A rainbow card takes the
 * colour of the segment it joins (its `colors` is that one), so a wild on the lock colour is fine.
 */
export function cutTurnOffColour(state: TapewormState, colors: readonly string[]): string | null {
  if (!state.cut || !state.lock) return null;
  return colors.find((c) => c !== state.lock) ?? null;
}

/** A copy for one move; the table array is shared (moves that change it replace it, never edit it). */
function copy(state: TapewormState): TapewormState {
  return { ...state, hands: state.hands.slice(), discard: state.discard.slice(), pending: state.pending.slice() };
}

/** Draw one card into a seat's hand, shuffling the discards into a new deck first if it is empty. */
function drawOne(s: TapewormState, seat: number): boolean {
  if (s.drawPile === 0 && s.discard.length > 0) {
    s.drawPile = s.discard.length;
    s.discard = [];
    s.reshuffles += 1;
  }
  if (s.drawPile === 0) return false;
  s.drawPile -= 1;
  s.hands[seat]! += 1;
  return true;
}

/**
 * No card that is not on the table could be placed anywhere: the only legal play left is a Cut.
 * The discards count as cards still to come, since the text shuffles them into a new deck when
 * the deck runs out (without a card to draw they never return, and `stalled` ends the game
 * anyway). Placements are checked without the colour lock: this asks about the next turn.
 */
export function onlyCutsRemain(state: TapewormState): boolean {
  const g = grid(deckOf(state), state.table);
  const kinds = hiddenKinds({ ...state, discard: [] });
  for (const cell of frontier(g)) {
    for (const kind of kinds) {
      for (let r = 0 as Rotation; r < 4; r = (r + 1) as Rotation) {
        if (checkPlacement(g, kind, cell.x, cell.y, r, state.tableEdge ?? undefined, false).ok) return false;
      }
    }
  }
  return true;
}

/**
 * The table is stuck: every player in turn has passed, and either only a Cut could help, no card
 * off the table fitting any open end (so nobody holds a usable Cut; publisher FAQ), or there is
 * nothing left to draw, so no hand changes.
 */
function stalled(s: TapewormState): boolean {
  return s.passes >= s.players.length && (!canDraw(s) || onlyCutsRemain(s));
}

function endTurn(s: TapewormState): TapewormState {
  if (s.played === 0) s.passes += 1;
  s.pending = [];
  s.turnEnds = false;
  if (s.hands[s.active] === 0) {
    // The first player with no cards at the end of their turn wins.
    s.phase = 'over';
    s.winner = activePlayer(s).id;
    s.end = 'emptied-hand';
    return s;
  }
  if (stalled(s)) {
    s.phase = 'over';
    // The last player to play wins; solo practice simply ends unfinished.
    s.winner = isSolo(s) ? null : s.lastToPlay;
    s.end = 'stalled';
    return s;
  }
  s.active = (s.active + 1) % s.players.length;
  s.phase = 'draw';
  s.turn += 1;
  s.lock = null;
  s.played = 0;
  delete s.cut;
  return s;
}

/** After a play or an effect: resolve what is pending, else end the turn if it must, else play on. */
function settle(s: TapewormState): TapewormState {
  if (s.pending.length > 0) {
    s.phase = 'effect';
    return s;
  }
  if (s.turnEnds || s.hands[s.active] === 0) return endTurn(s);
  s.phase = 'play';
  return s;
}

function effectUsable(s: TapewormState, effect: PendingEffect['effect']): boolean {
  switch (effect) {
    case 'peek':
    case 'dig':
      return canDraw(s);
    case 'hatch':
      return !isSolo(s) && canDraw(s);
    case 'swap':
      return !isSolo(s);
    case 'ringworm':
      return s.hands[s.active]! > 0;
  }
}

function checkActor(state: TapewormState, player: string, phases: TapewormState['phase'][], what: string): Failure | null {
  if (state.phase === 'over') return fail(Errors.gameOver, 'the game is over');
  const active = activePlayer(state);
  if (player !== active.id) return fail(Errors.notYourTurn, `${nameOf(state, player)} cannot act: it is ${active.name}'s turn`);
  if (!phases.includes(state.phase)) {
    const now = state.phase === 'draw' ? 'draw a card first' : state.phase === 'effect' ? `resolve or decline the ${state.pending[0]?.effect} first` : 'play a card or end the turn';
    return fail(Errors.wrongPhase, `${what} is not possible now: ${now}`);
  }
  return null;
}

/** A card from the hand: a real kind, not the start card, with a copy still unaccounted for. */
function handCard(state: TapewormState, id: string): { ok: true; kind: CardKind } | Failure {
  const kind = deckOf(state).kinds.get(id);
  if (!kind) return fail(TapewormErrors.unknownCard, `"${id}" is not a card of this deck`);
  if (kind.start) return fail(TapewormErrors.startCard, 'the start card is on the table from the beginning');
  if (hiddenCount(state, kind) <= 0) {
    return fail(TapewormErrors.notAvailable, `all ${kind.count} ${id} card${kind.count === 1 ? ' is' : 's are'} already on the table or discarded`);
  }
  if (state.hands[state.active] === 0) return fail(TapewormErrors.emptyHand, `${activePlayer(state).name} has no cards in hand`);
  return { ok: true, kind };
}

function draw(state: TapewormState, move: Extract<TapewormMove, { type: 'draw' }>): Result<TapewormState> {
  const bad = checkActor(state, move.player, ['draw'], 'drawing');
  if (bad) return bad;
  const s = copy(state);
  drawOne(s, s.active);
  s.phase = 'play';
  return ok(s);
}

function place(state: TapewormState, move: Extract<TapewormMove, { type: 'place' }>): Result<TapewormState> {
  const bad = checkActor(state, move.player, ['play'], 'playing a card');
  if (bad) return bad;
  const card = handCard(state, move.card);
  if (!card.ok) return card;
  const { kind } = card;
  const g = grid(deckOf(state), state.table);
  const placement = checkPlacement(g, kind, move.x, move.y, move.rotation, state.tableEdge ?? undefined);
  if (!placement.ok) return fail(placement.code, placement.message);
  if (state.lock && !placement.connections.some((c) => c.color === state.lock)) {
    return fail(TapewormErrors.colourLocked, `this turn extends ${state.lock}: only ${state.lock} segments may be extended until the turn ends`);
  }
  const offColour = cutTurnOffColour(state, placement.colors);
  if (offColour) {
    return fail(TapewormErrors.cutTurnColour, `this turn has a ${state.lock} Cut: the Cut card and all cards played this turn must be ${state.lock}, and ${kind.id} is ${offColour} too`);
  }
  const s = copy(state);
  const lock = s.lock ?? placement.connections[0]!.color;
  s.table = [...state.table, { card: kind.id, x: move.x, y: move.y, rotation: move.rotation, ...(placement.wildColor ? { color: placement.wildColor } : {}) }];
  s.hands[s.active]! -= 1;
  s.lock = lock;
  s.played += 1;
  s.passes = 0;
  s.lastToPlay = move.player;
  // A head ends the tapeworm, a second colour changes it: either ends the turn.
  s.turnEnds = placement.head || placement.colors.some((c) => c !== lock);
  if (kind.effect && kind.effect !== 'cut' && effectUsable(s, kind.effect)) s.pending.push({ effect: kind.effect, card: kind.id });
  if (placement.ring && effectUsable(s, 'ringworm')) s.pending.push({ effect: 'ringworm', card: kind.id });
  return ok(settle(s));
}

function cut(state: TapewormState, move: Extract<TapewormMove, { type: 'cut' }>): Result<TapewormState> {
  const bad = checkActor(state, move.player, ['play'], 'cutting');
  if (bad) return bad;
  const card = handCard(state, move.card);
  if (!card.ok) return card;
  const { kind } = card;
  if (kind.effect !== 'cut') return fail(TapewormErrors.notACutCard, `${kind.id} has no Cut icon`);
  const color = kind.colors[0]!;
  if (state.lock && state.lock !== color) {
    return fail(TapewormErrors.colourLocked, `this turn is ${state.lock}: the Cut card and all cards played this turn must be the same colour`);
  }
  const g = grid(deckOf(state), state.table);
  const line = cutLine(g, move.x, move.y, edgeIndex(move.edge));
  if (!line.ok) return fail(line.code, line.message);
  if (line.color !== color) return fail(TapewormErrors.cutColour, `that line joins ${line.color} segments: a ${color} Cut card cuts only ${color} lines`);
  const s = copy(state);
  const severed = new Set(line.removed);
  s.discard.push(kind.id, ...state.table.filter((_, i) => severed.has(i)).map((c) => c.card));
  s.table = state.table.filter((_, i) => !severed.has(i));
  s.hands[s.active]! -= 1;
  s.lock = color;
  s.cut = true;
  s.played += 1;
  s.passes = 0;
  s.lastToPlay = move.player;
  return ok(settle(s));
}

function endTurnMove(state: TapewormState, move: Extract<TapewormMove, { type: 'end-turn' }>): Result<TapewormState> {
  const bad = checkActor(state, move.player, ['play'], 'ending the turn');
  if (bad) return bad;
  return ok(endTurn(copy(state)));
}

const EFFECT_NAMES: Record<PendingEffect['effect'], string> = { peek: 'Peek', dig: 'Dig', hatch: 'Hatch', swap: 'Swap', ringworm: 'Ringworm' };

function resolve(state: TapewormState, move: Extract<TapewormMove, { type: IconEffect | 'ringworm' | 'decline' }>): Result<TapewormState> {
  const bad = checkActor(state, move.player, ['effect'], move.type === 'decline' ? 'declining an effect' : `a ${EFFECT_NAMES[move.type]}`);
  if (bad) return bad;
  const next = state.pending[0]!;
  if (move.type !== 'decline' && move.type !== next.effect) {
    return fail(TapewormErrors.effectMismatch, `the effect to resolve now is ${EFFECT_NAMES[next.effect]} (from ${next.card}), not ${EFFECT_NAMES[move.type]}`);
  }
  const s = copy(state);
  s.pending.shift();
  if (move.type === 'decline') return ok(settle(s));
  if (!effectUsable(state, move.type)) {
    return fail(TapewormErrors.effectUnavailable, `${EFFECT_NAMES[move.type]} cannot be used now: decline it`);
  }
  const others = (target: string): number | Failure => {
    const seat = s.players.findIndex((p) => p.id === target);
    if (seat < 0) return fail(TapewormErrors.noSuchPlayer, `"${target}" is not at this table`);
    if (seat === s.active) return fail(TapewormErrors.targetSelf, `${EFFECT_NAMES[move.type as 'hatch']} acts on another player`);
    return seat;
  };
  switch (move.type) {
    case 'peek':
      // Drew one, put one from the hand on top: hand and deck sizes end as they were.
      drawOne(s, s.active);
      s.hands[s.active]! -= 1;
      s.drawPile += 1;
      break;
    case 'dig': {
      drawOne(s, s.active);
      const card = handCard(s, move.discard);
      if (!card.ok) return card;
      s.hands[s.active]! -= 1;
      s.discard.push(card.kind.id);
      break;
    }
    case 'hatch': {
      const seat = others(move.target);
      if (typeof seat !== 'number') return seat;
      drawOne(s, seat);
      break;
    }
    case 'swap': {
      const seat = others(move.target);
      if (typeof seat !== 'number') return seat;
      if (move.traded && (s.hands[s.active] === 0 || s.hands[seat] === 0)) {
        return fail(TapewormErrors.nothingToTrade, 'a trade needs a card in both hands');
      }
      break;
    }
    case 'ringworm': {
      if (move.discard.length > s.hands[s.active]!) {
        return fail(TapewormErrors.tooManyDiscards, `${activePlayer(s).name} holds only ${s.hands[s.active]} card${s.hands[s.active] === 1 ? '' : 's'}`);
      }
      const counts = publicCounts(s);
      for (const id of move.discard) {
        const card = handCard(s, id);
        if (!card.ok) return card;
        if (hiddenCount(s, card.kind, counts) <= 0) return fail(TapewormErrors.notAvailable, `no other ${id} card can be in a hand`);
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      s.hands[s.active]! -= move.discard.length;
      s.discard.push(...move.discard);
      break;
    }
  }
  return ok(settle(s));
}

export function applyMove(state: TapewormState, move: TapewormMove): Result<TapewormState> {
  switch (move.type) {
    case 'draw':
      return draw(state, move);
    case 'place':
      return place(state, move);
    case 'cut':
      return cut(state, move);
    case 'end-turn':
      return endTurnMove(state, move);
    case 'peek':
    case 'dig':
    case 'hatch':
    case 'swap':
    case 'ringworm':
    case 'decline':
      return resolve(state, move);
  }
}
