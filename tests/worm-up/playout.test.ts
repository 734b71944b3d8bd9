/**
 * Seeded random playouts: thousands of races of 2–5 players, with the invariants checked after
 * every move against an independent reading of the rules: bids judged right (collisions, ghost,
 * 7/X rule), X naming a free number, the movement order lowest first with no ties, the 7/X rule
 * never broken by a valid bid, every listed move legal and a random unlisted one refused.
 */
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../shared/rng.js';
import { BIDS, moveText, randomMove, toNotation, type Bid, type Round, type WormUpMove, type WormUpState } from '../../shared/games/worm-up/index.js';
import { deepFreeze, game } from './helpers.js';

/** Races per player count: 4 player counts x 600 = 2400 races. */
const RACES = 600;
const rank = (b: Bid) => BIDS.indexOf(b);

function check(cond: boolean, what: string): void {
  if (!cond) throw new Error(what);
}

function anyMove(s: WormUpState, rng: Rng): WormUpMove {
  const ids = [...s.players.map((p) => p.id), 'stranger'];
  switch (rng.int(0, 4)) {
    case 0: {
      const bids: Record<string, Bid> = {};
      for (const id of ids) if (rng.next() < 0.8) bids[id] = rng.pick(BIDS);
      return { type: 'reveal', bids };
    }
    case 1:
      return { type: 'ghost', dice: [rng.pick(BIDS), rng.pick(BIDS)] };
    case 2:
      return { type: 'x', number: rng.int(1, 9) };
    case 3:
      return rng.next() < 0.5 ? { type: 'moved' } : { type: 'moved', post: rng.pick(['left', 'right'] as const) };
    default:
      return { type: 'finish', winner: rng.pick(ids) };
  }
}

function isListed(s: WormUpState, m: WormUpMove): boolean {
  const o = game.legalOptions(s);
  if (m.type === 'reveal') {
    const keys = Object.keys(m.bids);
    return o.awaiting === 'bids' && keys.length === s.players.length && s.players.every((p) => m.bids[p.id] !== undefined);
  }
  if (m.type === 'ghost') return o.awaiting === 'ghost';
  return o.moves.includes(moveText(m));
}

/** A round's judging, recomputed from the rules text. */
function checkRound(s: WormUpState, r: Round, restricted: readonly string[]): void {
  const two = s.players.length === 2;
  if (r.ghost) {
    const [a, b] = r.ghost.dice;
    check(r.ghost.bid === (rank(a) >= rank(b) ? a : b), 'the ghost bids the higher die');
  }
  for (const b of r.bids) {
    const reasons = [
      ...(r.bids.filter((o) => o.bid === b.bid).length > 1 ? ['collision'] : []),
      ...(r.ghost && r.ghost.bid === b.bid ? ['ghost'] : []),
      ...(restricted.includes(b.player) && (b.bid === '7' || b.bid === 'X') ? ['restricted'] : []),
    ];
    check(reasons.join() === b.void.join(), `${b.player}'s ${b.bid} judged ${b.void.join('+') || 'valid'}, expected ${reasons.join('+') || 'valid'}`);
  }
  check(r.bids.filter((b) => b.bid === 'X' && b.void.length === 0).length <= 1, 'two valid X');
  if (r.xNumber !== null) {
    const taken = [...r.bids.map((b) => b.bid), ...(r.ghost ? [r.ghost.bid] : [])];
    check(r.xNumber >= 3 && r.xNumber <= 7 && !taken.includes(String(r.xNumber) as Bid), `X named ${r.xNumber}, which was bid`);
  }
  if (r.order.length) {
    const valid = r.bids.filter((b) => b.void.length === 0);
    check(r.order.length === valid.length, 'every valid bid moves, no other');
    r.order.forEach((m, i) => {
      const bid = valid.find((b) => b.player === m.player);
      check(bid !== undefined && bid.bid === m.bid, `${m.player} moves without a valid bid`);
      check(m.steps === (m.bid === 'X' ? r.xNumber : Number(m.bid)), 'steps are the bid');
      if (i > 0) check(r.order[i - 1]!.steps < m.steps, `order tie or not lowest first: ${r.order.map((o) => o.steps).join(',')}`);
    });
  }
  check(r.moved >= 0 && r.moved <= r.order.length, 'moved count');
  if (two) check(s.phase === 'ghost' || r.ghost !== null || r !== s.current, 'two players need the ghost');
}

/** What the playout knows of finished rounds: how many were checked, and who is restricted after them. */
interface Replay {
  checked: number;
  restricted: string[];
}

function checkPosition(s: WormUpState, replay: Replay): void {
  check((s.current === null) === (s.phase === 'bid' || s.phase === 'over'), 'a round is open exactly between reveal and its end');
  if (s.phase !== 'over') check(s.round === s.history.length + 1, 'round counter');
  // Each newly finished round is judged with the restrictions in force for it: the 7/X rule is never broken.
  for (; replay.checked < s.history.length; replay.checked++) {
    const r = s.history[replay.checked]!;
    check(r.number === replay.checked + 1, 'rounds numbered in order');
    checkRound(s, r, replay.restricted);
    const valid = r.bids.filter((b) => b.void.length === 0);
    for (const b of valid) check(!(replay.restricted.includes(b.player) && (b.bid === '7' || b.bid === 'X')), `${b.player} made a valid ${b.bid} right after a valid 7 or X`);
    replay.restricted = valid.filter((b) => b.bid === '7' || b.bid === 'X').map((b) => b.player);
  }
  if (s.phase !== 'over') check(replay.restricted.join() === s.restricted.join(), `restricted ${s.restricted.join()} but the last round says ${replay.restricted.join()}`);
  if (s.current) checkRound(s, s.current, s.restricted);
  if (s.phase === 'move') check(s.current!.moved < s.current!.order.length, 'someone is left to move');
  if (s.phase === 'x') check(s.current!.order.length === 0 && s.current!.xNumber === null, 'X has not named yet');
}

/** Segments moved per worm, summed from the recorded rounds. */
function checkAdvanced(s: WormUpState): void {
  const expected: Record<string, number> = Object.fromEntries(s.players.map((p) => [p.id, 0]));
  for (const r of s.history) for (const m of r.order.slice(0, r.moved)) expected[m.player]! += m.steps;
  check(JSON.stringify(game.score(s).advanced) === JSON.stringify(expected), 'advanced segments');
}

function race(seed: string, players: number, frozen: boolean): WormUpState {
  const rng = createRng(seed);
  const r = game.setup({ players: Array.from({ length: players }, (_, i) => ({ name: `P${i + 1}` })) });
  if (!r.ok) throw new Error(r.message);
  const freeze = frozen ? deepFreeze : <T,>(x: T) => x;
  let s = freeze(r.state);
  const replay: Replay = { checked: 0, restricted: [] };
  for (let n = 0; ; n++) {
    try {
      checkPosition(s, replay);
      const probe = anyMove(s, rng);
      if (!isListed(s, probe)) check(!game.apply(s, probe).ok, `unlisted ${moveText(probe)} was accepted`);
      for (const m of game.legalOptions(s).moves) check(game.apply(s, parseListed(m)).ok, `listed ${m} was refused`);
      const m = randomMove(s, rng, 0.03);
      if (!m) {
        checkAdvanced(s);
        return s;
      }
      const next = game.apply(s, m);
      if (!next.ok) throw new Error(`${moveText(m)}: ${next.code} ${next.message}`);
      s = freeze(next.state);
      check(n < 5000, 'the race does not end');
    } catch (e) {
      throw new Error(`race ${seed} at ${toNotation(s)}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

function parseListed(text: string): WormUpMove {
  const [verb, arg] = text.split(' ');
  if (verb === 'x') return { type: 'x', number: Number(arg) };
  if (verb === 'finish') return { type: 'finish', winner: arg! };
  return arg ? { type: 'moved', post: arg.slice('post='.length) as 'left' | 'right' } : { type: 'moved' };
}

describe('seeded random playouts', () => {
  it.each([2, 3, 4, 5])(`${RACES} races of %i players keep every invariant and end with the declared winner`, (players) => {
    let rounds = 0;
    const winners = new Set<string>();
    const seen = new Set<string>();
    for (let g = 0; g < RACES; g++) {
      const s = race(`worm-up-${players}-${g}`, players, g % 10 === 0);
      expect(s.phase).toBe('over');
      expect(game.status(s).ranking![0]).toEqual({ player: s.winner, rank: 1, score: 1 });
      rounds += s.history.length;
      winners.add(s.winner!);
      for (const r of s.history) {
        for (const b of r.bids) for (const v of b.void) seen.add(v);
        if (r.xNumber !== null) seen.add('x named');
        if (r.order.length === 0) seen.add('nobody moves');
      }
    }
    // Every kind of round is played, not just the easy ones.
    const kinds = ['collision', 'restricted', 'x named', 'nobody moves', ...(players === 2 ? ['ghost'] : [])];
    expect([...seen].sort()).toEqual(kinds.sort());
    // The playouts are not trivial: many rounds, and every seat wins some races.
    expect(rounds).toBeGreaterThan(RACES * 3);
    expect(winners.size).toBe(players);
  });

  it('the same seed plays the same race', () => {
    expect(toNotation(race('again', 3, false))).toBe(toNotation(race('again', 3, false)));
  });
});
