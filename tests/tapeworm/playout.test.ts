/**
 * Seeded random games on a simulated physical table (a real shuffled deck and real hands), the
 * engine seeing only what a referee sees. After every action: the 80 cards are conserved across
 * deck, hands, discard and table; the engine's counts and public cards match the simulated table
 * card for card; the table is a legal layout joined to the start card; the colour lock and the
 * phases agree; every game ends with a winner who emptied their hand or was the last to play.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import {
  dealTable,
  expandDeck,
  hiddenCount,
  publicCounts,
  randomStep,
  tableProblems,
  tapeworm,
  toNotation,
  type SimulatedTable,
  type TapewormState,
} from '../../shared/games/tapeworm/index.js';

function invariantBreaks(s: TapewormState, sim: SimulatedTable): string[] {
  const out: string[] = [];
  const inHands = s.hands.reduce((a, b) => a + b, 0);
  if (s.drawPile + inHands + s.discard.length + s.table.length !== 80) out.push(`cards not conserved: ${s.drawPile}+${inHands}+${s.discard.length}+${s.table.length}`);
  if (s.drawPile !== sim.deck.length) out.push(`deck ${s.drawPile} but the table holds ${sim.deck.length}`);
  s.hands.forEach((n, i) => {
    if (n !== sim.hands[i]!.length) out.push(`seat ${i} holds ${sim.hands[i]!.length}, the engine says ${n}`);
  });
  if (s.discard.join() !== sim.discard.join()) out.push('discard piles differ');
  const deck = expandDeck(s.deck);
  const counts = publicCounts(s);
  const hidden = new Map<string, number>();
  for (const id of [...sim.deck, ...sim.hands.flat()]) hidden.set(id, (hidden.get(id) ?? 0) + 1);
  for (const kind of deck.playable) {
    if (hiddenCount(s, kind, counts) !== (hidden.get(kind.id) ?? 0)) out.push(`${kind.id}: ${hiddenCount(s, kind, counts)} hidden by the engine, ${hidden.get(kind.id) ?? 0} really`);
  }
  out.push(...tableProblems(deck, s.table));
  if ((s.phase === 'play' || s.phase === 'effect') && (s.lock === null) !== (s.played === 0)) out.push(`lock ${s.lock} with ${s.played} played`);
  if ((s.phase === 'effect') !== (s.pending.length > 0)) out.push(`phase ${s.phase} with ${s.pending.length} pending`);
  if (s.phase === 'over') {
    if (s.end === 'emptied-hand' && s.hands[s.players.findIndex((p) => p.id === s.winner)] !== 0) out.push('the winner still holds cards');
    if (s.end === 'stalled' && s.winner !== (s.players.length === 1 ? null : s.lastToPlay)) out.push('a stalled game goes to the last player to play');
  }
  return out;
}

describe('Tapeworm random games', () => {
  it('2000 seeded games on a simulated table keep every invariant after every action, and all end', () => {
    const rng = createRng('tapeworm-playout');
    const ends = new Map<string, number>();
    const seen = new Set<string>();
    let actions = 0;
    let refusedChecks = 0;
    for (let game = 0; game < 2000; game++) {
      const n = 1 + (game % 4);
      const setup = tapeworm.setup({ players: ['a', 'b', 'c', 'd'].slice(0, n).map((id) => ({ id, name: id.toUpperCase() })) });
      if (!setup.ok) throw new Error(setup.message);
      let s = setup.state;
      const sim = dealTable(s, rng);
      let steps = 0;
      while (s.phase !== 'over') {
        if (++steps > 3000) throw new Error(`game ${game} did not end: [${toNotation(s)}]`);
        if (steps % 29 === 0) {
          // A move by someone else is refused and changes nothing.
          const other = s.players[(s.active + 1) % n]!.id;
          if (n > 1) {
            const before = JSON.stringify(s);
            expect(tapeworm.apply(s, { type: 'end-turn', player: other }).ok).toBe(false);
            expect(JSON.stringify(s)).toBe(before);
            refusedChecks++;
          }
        }
        const { move, result } = randomStep(s, sim, rng);
        if (!result.ok) throw new Error(`${JSON.stringify(move)} refused at [${toNotation(s)}]: ${result.code} ${result.message}`);
        seen.add(move.type);
        s = result.state;
        actions++;
        const broken = invariantBreaks(s, sim);
        if (broken.length) throw new Error(`after ${JSON.stringify(move)}: ${broken.join('; ')} [${toNotation(s)}]`);
      }
      const key = `${n === 1 ? 'solo' : 'table'} ${s.end}`;
      ends.set(key, (ends.get(key) ?? 0) + 1);
    }
    // Every kind of action happened, and games ended both ways.
    expect([...seen].sort()).toEqual(['cut', 'decline', 'dig', 'draw', 'end-turn', 'hatch', 'peek', 'place', 'ringworm', 'swap']);
    expect(ends.get('table emptied-hand')).toBeGreaterThan(100);
    expect(ends.get('table stalled')).toBeGreaterThan(100);
    expect(ends.get('solo emptied-hand')).toBeGreaterThan(20);
    expect(actions).toBeGreaterThan(100_000);
    expect(refusedChecks).toBeGreaterThan(2000);
  });
});
