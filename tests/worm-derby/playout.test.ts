/**
 * Seeded random races: thousands of games, the rules' invariants checked after every move.
 * Lengths stay 2–6 (6 in the basic rules) with length + eaten = 6; the finishing order is
 * consistent (places 1..k in order, every finisher rounded the pylon, finishers leave the turn
 * order); every race ends. On sampled positions every verbose option applies, and moves by the
 * wrong player are refused without touching the state.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { randomMove, toNotation, fromNotation, wormDerby, type DerbyState } from '../../shared/games/worm-derby/index.js';
import { legalOptions } from '../../shared/games/worm-derby/legal.js';

function invariantBreaks(s: DerbyState): string[] {
  const out: string[] = [];
  for (const w of s.worms) {
    if (w.length < 2 || w.length > 6) out.push(`${w.player} has length ${w.length}`);
    if (w.length + w.eaten !== 6) out.push(`${w.player}: length ${w.length} + eaten ${w.eaten} is not 6`);
    if (s.rules === 'basic' && w.length !== 6) out.push(`${w.player} shrank in the basic rules`);
    if (w.place !== null && !w.roundedPylon) out.push(`${w.player} finished without rounding the pylon`);
    if (w.place !== null && w.bites.length > 0) out.push(`${w.player} finished but still has bites to serve`);
    if (w.bites.some((b) => b.by === w.player)) out.push(`${w.player} bit itself`);
  }
  s.finishingOrder.forEach((p, i) => {
    const w = s.worms.find((x) => x.player === p);
    if (!w || w.place !== i + 1) out.push(`finisher ${i + 1} is ${p} but its place is ${w?.place}`);
  });
  if (new Set(s.finishingOrder).size !== s.finishingOrder.length) out.push('a worm finished twice');
  if (s.worms.filter((w) => w.place !== null).length !== s.finishingOrder.length) out.push('places and finishing order disagree');
  const racing = s.worms.filter((w) => w.place === null).length;
  if (s.phase === 'over' && !s.stoppedEarly && racing > 1) out.push('over with several worms still racing');
  if (s.phase !== 'over' && racing <= 1) out.push('racing on with one worm');
  if (s.phase !== 'over' && s.worms[s.active]?.place !== null) out.push('a finished worm is to act');
  if (s.phase === 'move') {
    const p = s.pending;
    const w = s.worms[s.active]!;
    if (!p || p.steps > w.length || p.steps + p.lost !== p.rolled) out.push(`bad pending roll ${JSON.stringify(p)}`);
  }
  const inHand = s.worms.reduce((n, w) => n + w.tilesInHand, 0);
  if (s.obstacles.placed + inHand !== s.obstacles.dealt || s.obstacles.dealt + s.obstacles.aside !== 21) out.push('obstacle tiles not conserved');
  return out;
}

describe('Worm Derby random races', () => {
  it('2000 seeded races keep every invariant after every move, and all end', () => {
    const rng = createRng('worm-derby-playout');
    let moves = 0;
    let eats = 0;
    let finishes = 0;
    let checkedOptions = 0;
    for (let game = 0; game < 2000; game++) {
      const n = 2 + (game % 3);
      const ids = ['a', 'b', 'c', 'd'].slice(0, n);
      const setup = wormDerby.setup({
        players: ids.map((id) => ({ id, name: id.toUpperCase() })),
        rules: game % 2 === 0 ? 'advanced' : 'basic',
        slalom: game % 7 === 0,
        obstacleTiles: rng.int(0, 21),
      });
      if (!setup.ok) throw new Error(setup.message);
      let s = setup.state;
      let steps = 0;
      while (s.phase !== 'over') {
        if (++steps > 5000) throw new Error(`race ${game} did not end: [${toNotation(s)}]`);
        if (steps % 37 === 0) {
          // Perft-style: every option the engine offers is accepted.
          for (const m of legalOptions(s, { verbose: true }).detail ?? []) {
            const r = wormDerby.apply(s, m);
            if (!r.ok) throw new Error(`offered ${JSON.stringify(m)} refused at [${toNotation(s)}]: ${r.message}`);
            checkedOptions++;
          }
          expect(toNotation(fromNotation(toNotation(s)))).toBe(toNotation(s));
          const other = s.worms.find((w, i) => i !== s.active && w.place === null);
          if (other && s.phase !== 'roll') {
            const before = JSON.stringify(s);
            const r = wormDerby.apply(s, { type: 'pass-ace', player: other.player });
            expect(r.ok).toBe(false);
            expect(JSON.stringify(s)).toBe(before);
          }
        }
        const move = randomMove(s, rng)!;
        const result = wormDerby.apply(s, move);
        if (!result.ok) throw new Error(`${JSON.stringify(move)} refused at [${toNotation(s)}]: ${result.code} ${result.message}`);
        if (move.type === 'move' && move.ate) eats++;
        if (move.type === 'move' && move.finished) finishes++;
        s = result.state;
        moves++;
        const broken = invariantBreaks(s);
        if (broken.length) throw new Error(`after ${JSON.stringify(move)}: ${broken.join('; ')} [${toNotation(s)}]`);
      }
    }
    // The playouts really exercised the race: eating, finishing, and the offered options.
    expect(moves).toBeGreaterThan(150_000);
    expect(eats).toBeGreaterThan(1000);
    expect(finishes).toBeGreaterThan(2000);
    expect(checkedOptions).toBeGreaterThan(10_000);
  });
});
