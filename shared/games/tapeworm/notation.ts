/**
 * A one-line Tapeworm position, for tests and failing-test output:
 *
 *   play @bob t4 lock:pink played:1 deck:58 hands:alice=4,bob=5 discard:red-head | start@0,0 red-curve@0,-1r1 wild-curve@1,0r3=white
 *
 * phase (`draw`, `play`, `effect`, `over`), `@active`, `t<turn>`, then only what differs from a
 * fresh turn: `lock:`, `played:`, `cut` (a Cut was played this turn), `ends` (a head or colour change was played), `pending:peek,ringworm`,
 * `passes:`, `last:` (last to play), `winner:`, `end:`, `reshuffles:`; the counts `deck:`, `hands:`
 * (every player, in seat order) and `discard:` (ids, oldest first). After `|` the table: each card
 * as `id@x,y`, `r<rotation>` if turned, `=colour` for a wild. `deck:` may be left out when parsing:
 * it is what the 80 cards leave. Parsing uses the default deck and checks the table is legal.
 */
import { DECK_SIZE, DEFAULT_DECK, expandDeck, type DeckDefinition } from './deck.js';
import { tableProblems, type PlacedCard, type Rotation } from './geometry.js';
import type { EndReason, PendingEffect, TapewormPhase, TapewormState } from './state.js';

export function toNotation(state: TapewormState): string {
  const head: string[] = [state.phase];
  if (state.phase !== 'over') head.push(`@${state.players[state.active]!.id}`);
  head.push(`t${state.turn}`);
  if (state.lock) head.push(`lock:${state.lock}`);
  if (state.played) head.push(`played:${state.played}`);
  if (state.cut) head.push('cut');
  if (state.turnEnds) head.push('ends');
  if (state.pending.length) head.push(`pending:${state.pending.map((p) => `${p.effect}/${p.card}`).join(',')}`);
  if (state.passes) head.push(`passes:${state.passes}`);
  if (state.lastToPlay) head.push(`last:${state.lastToPlay}`);
  if (state.winner) head.push(`winner:${state.winner}`);
  if (state.end) head.push(`end:${state.end}`);
  if (state.reshuffles) head.push(`reshuffles:${state.reshuffles}`);
  head.push(`deck:${state.drawPile}`, `hands:${state.players.map((p, i) => `${p.id}=${state.hands[i]}`).join(',')}`);
  head.push(`discard:${state.discard.length ? state.discard.join(',') : '-'}`);
  const table = state.table.map((c) => `${c.card}@${c.x},${c.y}${c.rotation ? `r${c.rotation}` : ''}${c.color ? `=${c.color}` : ''}`);
  return `${head.join(' ')} | ${table.join(' ')}`;
}

export class NotationError extends Error {}

function bad(text: string, why: string): never {
  throw new NotationError(`bad Tapeworm notation "${text}": ${why}`);
}

const PHASES: readonly TapewormPhase[] = ['draw', 'play', 'effect', 'over'];
const EFFECTS: readonly PendingEffect['effect'][] = ['peek', 'dig', 'hatch', 'swap', 'ringworm'];

/** A count written in digits: `Number` alone would read "x" as NaN and "-1" as a count. */
function count(text: string, key: string, v: string): number {
  if (!/^\d+$/.test(v)) bad(text, `${key}: "${v}" is not a count`);
  return Number(v);
}

export function fromNotation(text: string, deckDefinition: DeckDefinition = DEFAULT_DECK): TapewormState {
  const [headText, tableText, ...rest] = text.split('|').map((p) => p.trim());
  if (!headText || tableText === undefined || rest.length) bad(text, 'expected "<header> | <table>"');
  const deck = expandDeck(deckDefinition);
  const tokens = headText.split(/\s+/);
  const phase = tokens.shift() as TapewormPhase;
  if (!PHASES.includes(phase)) bad(text, `"${phase}" is not a phase (${PHASES.join(', ')})`);
  const s: TapewormState = {
    game: 'tapeworm',
    players: [],
    deck: deckDefinition,
    tableEdge: null,
    drawPile: -1,
    hands: [],
    discard: [],
    table: [],
    phase,
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
  };
  let activeId: string | undefined;
  for (const t of tokens) {
    const [k, v = ''] = t.includes(':') ? [t.slice(0, t.indexOf(':')), t.slice(t.indexOf(':') + 1)] : [t, ''];
    let m: RegExpMatchArray | null;
    if ((m = /^@(\S+)$/.exec(t))) activeId = m[1];
    else if ((m = /^t(\d+)$/.exec(t))) s.turn = Number(m[1]);
    else if (t === 'ends') s.turnEnds = true;
    else if (t === 'cut') s.cut = true;
    else if (k === 'lock') {
      if (!deck.colors.includes(v)) bad(text, `"${v}" is not a colour of the deck`);
      s.lock = v;
    } else if (k === 'played') s.played = count(text, k, v);
    else if (k === 'passes') s.passes = count(text, k, v);
    else if (k === 'reshuffles') s.reshuffles = count(text, k, v);
    else if (k === 'deck') s.drawPile = count(text, k, v);
    else if (k === 'last') s.lastToPlay = v;
    else if (k === 'winner') s.winner = v;
    else if (k === 'end') {
      if (v !== 'emptied-hand' && v !== 'stalled') bad(text, `"${v}" is not an end (emptied-hand, stalled)`);
      s.end = v as EndReason;
    } else if (k === 'pending') {
      s.pending = v.split(',').map((p) => {
        const [effect, card] = p.split('/');
        if (!EFFECTS.includes(effect as PendingEffect['effect']) || !card || !deck.kinds.has(card)) bad(text, `pending "${p}" must be <effect>/<card>`);
        return { effect: effect as PendingEffect['effect'], card };
      });
    } else if (k === 'hands') {
      for (const part of v.split(',')) {
        const hm = /^([^=\s]+)=(\d+)$/.exec(part);
        if (!hm) bad(text, `hands entry "${part}" must be <player>=<cards>`);
        if (s.players.some((p) => p.id === hm[1])) bad(text, `hands: "${hm[1]}" has two seats`);
        s.players.push({ id: hm[1]!, name: hm[1]! });
        s.hands.push(Number(hm[2]));
      }
    } else if (k === 'discard') {
      s.discard = v === '-' ? [] : v.split(',');
      for (const id of s.discard) if (!deck.kinds.has(id)) bad(text, `discarded "${id}" is not a card of the deck`);
    } else bad(text, `unknown header token "${t}"`);
  }
  if (s.players.length < 1 || s.players.length > 4) bad(text, 'hands: must list 1–4 players');
  if (phase !== 'over') {
    s.active = s.players.findIndex((p) => p.id === activeId);
    if (s.active < 0) bad(text, `the active player "${activeId ?? ''}" is not in hands:`);
  }
  for (const [key, id] of [['last', s.lastToPlay], ['winner', s.winner]] as const) {
    if (id !== null && !s.players.some((p) => p.id === id)) bad(text, `${key}: "${id}" is not in hands:`);
  }
  // The engine resolves pending effects in the effect phase and nowhere else (legalOptions reads the first).
  if ((phase === 'effect') !== (s.pending.length > 0)) bad(text, `effects are pending exactly in the effect phase (phase ${phase}, ${s.pending.length} pending)`);
  for (const cardText of tableText.split(/\s+/).filter(Boolean)) {
    const cm = /^([a-z0-9-]+)@(-?\d+),(-?\d+)(?:r([0-3]))?(?:=([a-z]+))?$/.exec(cardText);
    if (!cm) bad(text, `table card "${cardText}" must be <id>@<x>,<y>[r<rotation>][=<colour>]`);
    if (!deck.kinds.has(cm[1]!)) bad(text, `"${cm[1]}" is not a card of the deck`);
    const placed: PlacedCard = { card: cm[1]!, x: Number(cm[2]), y: Number(cm[3]), rotation: Number(cm[4] ?? 0) as Rotation };
    if (cm[5]) placed.color = cm[5];
    s.table.push(placed);
  }
  const inHands = s.hands.reduce((a, b) => a + b, 0);
  if (s.drawPile < 0) s.drawPile = DECK_SIZE - inHands - s.discard.length - s.table.length;
  if (s.drawPile < 0 || s.drawPile + inHands + s.discard.length + s.table.length !== DECK_SIZE) {
    bad(text, `deck ${s.drawPile} + hands ${inHands} + discard ${s.discard.length} + table ${s.table.length} is not ${DECK_SIZE}`);
  }
  const problems = tableProblems(deck, s.table);
  const used = new Map<string, number>();
  for (const id of [...s.table.map((c) => c.card), ...s.discard]) used.set(id, (used.get(id) ?? 0) + 1);
  for (const [id, n] of used) if (n > deck.kinds.get(id)!.count) problems.push(`${n} ${id} cards shown but the deck has ${deck.kinds.get(id)!.count}`);
  if (problems.length) bad(text, problems.join('; '));
  return s;
}
