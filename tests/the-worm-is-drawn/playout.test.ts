/**
 * Seeded random playouts: thousands of games per preset, 2–7 players, with the game's invariants
 * checked after every move against an independent reading of the rules:
 * tiles conserved and ordered, stacks changed only as the outcome says, totals consistent, every
 * listed move legal, a random unlisted move refused with the state untouched, every game finished.
 */
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../shared/rng.js';
import { moveText, randomMove, toNotation, type Face, type Kept, type TwidMove, type TwidState } from '../../shared/games/the-worm-is-drawn/index.js';
import { deepFreeze, game } from './helpers.js';

/** Games per preset and player count: 2 presets x 6 player counts x 170 = 2040 games. */
const GAMES = 170;
const ALL_TILES = Array.from({ length: 16 }, (_, i) => 21 + i);
const FACES: Face[] = ['1', '2', '3', '4', '5', 'worm'];

const sum = (kept: readonly Kept[], wormValue: number) => kept.reduce((n, k) => n + k.count * (k.face === 'worm' ? wormValue : Number(k.face)), 0);
const top = (stack: readonly number[]) => stack[stack.length - 1];
const sorted = (xs: readonly number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! < x);

function anyMove(rng: Rng): TwidMove {
  switch (rng.int(0, 4)) {
    case 0:
      return { type: 'roll', dice: Array.from({ length: rng.int(1, 8) }, () => rng.pick(FACES)) };
    case 1:
      return { type: 'keep', face: rng.pick(FACES) };
    case 2:
      return { type: 'stop' };
    case 3:
      return { type: 'take', tile: rng.int(19, 38) };
    default:
      return { type: 'steal', tile: rng.int(19, 38) };
  }
}

function isListed(s: TwidState, m: TwidMove): boolean {
  const o = game.legalOptions(s);
  return m.type === 'roll' ? o.roll === m.dice.length : o.moves.includes(moveText(m));
}

/** A plain assertion: the playout checks run a million times, too often for expect(). */
function check(cond: boolean, what: string): void {
  if (!cond) throw new Error(what);
}
const same = (a: readonly number[] | undefined, b: readonly number[] | undefined) => a !== undefined && b !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

/** The position invariants. */
function checkPosition(s: TwidState): void {
  const all = [...s.table, ...s.removed, ...s.stacks.flat()].sort((a, b) => a - b);
  check(same(all, ALL_TILES), `tiles not conserved: ${all.join(',')}`);
  check(sorted(s.table) && sorted(s.removed), 'table or removed tiles out of order');
  const keptDice = s.kept.reduce((n, k) => n + k.count, 0);
  check(keptDice <= s.dice, 'more dice kept than there are');
  check(new Set(s.kept.map((k) => k.face)).size === s.kept.length, 'a face kept twice');
  check(s.kept.every((k) => k.count > 0), 'an empty keep');
  check(s.phase === 'keep' ? s.roll!.length + keptDice === s.dice : s.roll === null, 'kept and rolled dice do not make the set');
  check((s.phase === 'over') === (s.table.length === 0), 'over exactly when the table is empty');
  const d = game.legalOptions(s, { verbose: true }).detail!;
  check(d.total === sum(s.kept, s.rules.wormValue), `total ${d.total} is not the kept dice's sum`);
  check(d.diceLeft === s.dice - keptDice, 'dice left');
  check(d.wormHeld === s.kept.some((k) => k.face === 'worm'), 'worm held');
  if (s.phase === 'choose') check(d.takeable.length + d.stealable.length > 0, 'a choice with nothing to choose');
}

/** The transition, read from the rules independently of the engine's own helpers. */
function checkStep(p: TwidState, m: TwidMove, n: TwidState): void {
  const cur = p.current;
  const me = p.players[cur]!.id;
  const finalKept: Kept[] =
    m.type === 'keep' ? [...p.kept, { face: m.face, count: p.roll!.filter((f) => f === m.face).length }] : p.kept;
  const total = sum(finalKept, p.rules.wormValue);
  const worm = finalKept.some((k) => k.face === 'worm');
  const othersUnchanged = (...who: number[]) => check(n.stacks.every((st, i) => who.includes(i) || same(st, p.stacks[i])), 'another stack changed');

  if (n.turn === p.turn) {
    check(n.current === cur && n.stacks.every((st, i) => same(st, p.stacks[i])) && same(n.table, p.table), 'tiles moved mid-turn');
    return;
  }
  check(n.turn === p.turn + 1 && n.current === (cur + 1) % p.players.length, 'the turn did not pass clockwise');
  const last = n.last!;
  check(last.player === me, 'outcome of the wrong player');
  if (last.kind === 'took') {
    check(m.type === 'take' && m.tile === last.tile, 'took without a take move');
    check(p.table.includes(last.tile) && last.tile <= total, `took ${last.tile} with ${total}`);
    if (p.rules.take === 'highest') check(last.tile === Math.max(...p.table.filter((t) => t <= total)), 'classic takes the highest');
    if (p.rules.wormRequired) check(worm, 'took without a worm');
    check(same(n.stacks[cur], [...p.stacks[cur]!, last.tile]), 'tile not on top of the stack');
    othersUnchanged(cur);
  } else if (last.kind === 'stole') {
    const victim = p.players.findIndex((pl) => pl.id === last.from);
    check(victim !== cur && top(p.stacks[victim]!) === last.tile && last.tile === total, `stole ${last.tile} with ${total}`);
    if (p.rules.wormRequired) check(worm, 'stole without a worm');
    check(same(n.stacks[cur], [...p.stacks[cur]!, last.tile]) && same(n.stacks[victim], p.stacks[victim]!.slice(0, -1)), 'steal moved the wrong tiles');
    check(same(n.table, p.table), 'steal changed the table');
    othersUnchanged(cur, victim);
  } else {
    check(m.type !== 'take' && m.type !== 'steal', 'a take or steal failed');
    check(last.total === total, 'failure total');
    const bust = m.type === 'roll' && p.rules.stuckRollBusts;
    const reachable = p.table.some((t) => t <= total) || p.stacks.some((st, i) => i !== cur && top(st) === total);
    check(bust || (p.rules.wormRequired && !worm) || !reachable, `failed with ${total} although a tile was within reach`);
    const mine = p.stacks[cur]!;
    check(last.returned === (top(mine) ?? null), 'returned tile is not the top one');
    if (last.returned === null) {
      check(last.flipped === null && same(n.table, p.table), 'a pass changed the table');
    } else {
      const highest = Math.max(...p.table, last.returned);
      const skip = !p.rules.flipReturnedHighest && highest === last.returned;
      check(last.flipped === (skip ? null : highest), `flipped ${last.flipped}, expected ${skip ? 'none' : highest}`);
      check(same(n.stacks[cur], mine.slice(0, -1)), 'top tile not removed');
      check(same(n.removed, skip ? p.removed : [...p.removed, highest].sort((a, b) => a - b)), 'removed tiles');
    }
    othersUnchanged(cur);
  }
}

function playout(seed: string, preset: 'seed' | 'classic', players: number, frozen = true, seen = new Set<string>()): { moves: number; state: TwidState } {
  const rng = createRng(seed);
  const setup = game.setup({ players: Array.from({ length: players }, (_, i) => ({ name: `P${i + 1}` })), preset, diceSet: 'worm' });
  if (!setup.ok) throw new Error(setup.message);
  // Frozen states: any attempt to change a state in place throws, so a refused move provably changed
  // nothing. Freezing costs a third of the run, so only some games do it.
  const freeze = frozen ? deepFreeze : <T,>(x: T) => x;
  let s = freeze(setup.state);
  let moves = 0;
  for (;;) {
    try {
      checkPosition(s);
      const probe = anyMove(rng);
      if (!isListed(s, probe)) check(!game.apply(s, probe).ok, `unlisted ${moveText(probe)} was accepted`);
      for (const text of game.legalOptions(s).moves) check(game.apply(s, parseListed(text)).ok, `listed ${text} was refused`);
      const m = randomMove(s, rng);
      if (!m) break;
      const r = game.apply(s, m);
      if (!r.ok) throw new Error(`${moveText(m)}: ${r.code} ${r.message}`);
      checkStep(s, m, r.state);
      const last = r.state.last;
      if (r.state.turn !== s.turn && last) {
        if (last.kind !== 'failed') seen.add(last.kind);
        else if (last.returned === null) seen.add('passed');
        else seen.add(last.flipped === null ? 'returned, no flip' : last.flipped === last.returned ? 'returned and flipped' : 'returned, another flipped');
        if (last.kind === 'failed' && last.reason.startsWith('the roll showed')) seen.add('bust');
        if (last.kind === 'failed' && last.reason === 'no worm was kept') seen.add('no worm');
        if (m.type === 'stop') seen.add('stopped');
      }
      s = freeze(r.state);
      moves++;
      check(moves < 20_000, 'the game does not end');
    } catch (e) {
      throw new Error(`game ${seed} at ${toNotation(s)}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { moves, state: s };
}

function parseListed(text: string): TwidMove {
  const [verb, arg] = text.split(' ');
  if (verb === 'stop') return { type: 'stop' };
  if (verb === 'keep') return { type: 'keep', face: arg as Face };
  return { type: verb as 'take' | 'steal', tile: Number(arg) };
}

describe.each(['seed', 'classic'] as const)('seeded random playouts, %s preset', (preset) => {
  it.each([2, 3, 4, 5, 6, 7])(`${GAMES} games of %i players keep every invariant and end with a ranking`, (players) => {
    let totalMoves = 0;
    const seen = new Set<string>();
    for (let g = 0; g < GAMES; g++) {
      const { moves, state } = playout(`${preset}-${players}-${g}`, preset, players, g % 10 === 0, seen);
      totalMoves += moves;
      expect(state.phase).toBe('over');
      const score = game.score(state);
      expect(score.finished).toBe(true);
      const worms = state.stacks.flat().reduce((n, t) => n + state.tiles.find((x) => x.value === t)!.worms, 0);
      expect(score.lines.reduce((n, l) => n + l.worms, 0)).toBe(worms);
      for (let i = 1; i < score.lines.length; i++) {
        const [a, b] = [score.lines[i - 1]!, score.lines[i]!];
        expect(a.worms > b.worms || (a.worms === b.worms && (a.highest ?? 0) >= (b.highest ?? 0))).toBe(true);
      }
    }
    expect(totalMoves).toBeGreaterThan(GAMES * 20);
    // Every kind of turn end is played, not just the easy ones.
    const common = ['took', 'stole', 'passed', 'returned, another flipped'];
    const kinds = preset === 'seed' ? [...common, 'returned and flipped'] : [...common, 'returned, no flip', 'bust', 'no worm', 'stopped'];
    expect([...seen].sort()).toEqual(kinds.sort());
  });
});

it('the same seed plays the same game', () => {
  expect(toNotation(playout('again', 'seed', 4).state)).toBe(toNotation(playout('again', 'seed', 4).state));
});
