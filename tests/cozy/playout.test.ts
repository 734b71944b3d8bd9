/**
 * Seeded random playouts: thousands of solo games (random legal choices from `legalOptions`,
 * random dice from shared/rng.ts) play every hour to the end, and after every move the rules'
 * invariants hold. Random moves that `legalOptions` does not list are rejected with the state
 * unchanged; every listed move is accepted.
 */
import { describe, expect, it } from 'vitest';
import { cellName, dirBetween, geometry, type Geometry } from '../../shared/games/worm-and-cozy/board.js';
import { applyMove } from '../../shared/games/worm-and-cozy/apply.js';
import { setup } from '../../shared/games/worm-and-cozy/index.js';
import type { CozyMove } from '../../shared/games/worm-and-cozy/moves.js';
import { printBoard } from '../../shared/games/worm-and-cozy/notation.js';
import { legalOptions } from '../../shared/games/worm-and-cozy/options.js';
import { sheetFromState, validateSheet } from '../../shared/games/worm-and-cozy/sheet.js';
import { isPath, shapeOfCells } from '../../shared/games/worm-and-cozy/shapes.js';
import { DIRS, ORGAN_TYPES, SHAPE_NAMES, type CozyState, type PlayerSheet } from '../../shared/games/worm-and-cozy/state.js';
import { createRng, type Rng } from '../../shared/rng.js';

/** Do some 5 consecutive cells of the worm still form its shape (growth keeps the original shape)? */
function keepsShape(g: Geometry, cells: readonly number[], shape: string): boolean {
  for (let k = 0; k + 5 <= cells.length; k++) if (shapeOfCells(g, cells.slice(k, k + 5)) === shape) return true;
  return false;
}

/** Every broken invariant of one sheet, in words (empty when all hold). */
function broken(g: Geometry, sheet: PlayerSheet, stateJson: CozyState, player: string, checkSheetFile: boolean): string[] {
  const out: string[] = [];
  const owner = new Map<number, number>();
  sheet.worms.forEach((w, i) => {
    if (w.id !== i + 1) out.push(`worm ${i + 1} has id ${w.id}`);
    for (const c of w.cells) {
      if (owner.has(c)) out.push(`worms ${owner.get(c)} and ${w.id} overlap at ${cellName(g, c)}`);
      owner.set(c, w.id);
      if (g.rock[c]) out.push(`worm ${w.id} is on the rock at ${cellName(g, c)}`);
    }
    if (!isPath(g, w.cells) || w.cells.length < 2) out.push(`worm ${w.id} is not a path`);
    if (w.shape && !keepsShape(g, w.cells, w.shape)) out.push(`worm ${w.id} lost its shape ${w.shape}`);
    const organCells = new Set<number>();
    for (const o of w.organs) {
      if (!w.cells.includes(o.cell)) out.push(`worm ${w.id}: ${o.type} off the worm`);
      if (organCells.has(o.cell)) out.push(`worm ${w.id}: two organs on ${cellName(g, o.cell)}`);
      organCells.add(o.cell);
    }
    const tails = w.organs.filter((o) => o.type === 'tail');
    if (tails.length > 1) out.push(`worm ${w.id} has ${tails.length} tails`);
    const n = w.cells.length;
    if (tails[0] && (tails[0].cell !== w.cells[n - 1] || tails[0].facing !== dirBetween(g, w.cells[n - 2]!, w.cells[n - 1]!))) out.push(`worm ${w.id}: the tail is not on the rear tip pointing outward`);
    const hasFront = w.organs.some((o) => o.type === 'eye' || o.type === 'mouth' || o.type === 'tail');
    if (hasFront !== w.front) out.push(`worm ${w.id}: front is ${w.front} but front organs say ${hasFront}`);
  });
  const foods = new Set<number>();
  for (const f of sheet.foods) {
    if (foods.has(f)) out.push(`two foods on ${cellName(g, f)}`);
    foods.add(f);
    if (owner.has(f) || g.rock[f]) out.push(`food on a non-blank cell ${cellName(g, f)}`);
  }
  const acted = new Set(sheet.acted);
  if (acted.size !== sheet.acted.length) out.push(`an organ acted twice this hour: ${sheet.acted.map((c) => cellName(g, c)).join(',')}`);
  for (const c of sheet.acted) if (!sheet.worms.some((w) => w.organs.some((o) => o.cell === c))) out.push(`acted cell ${cellName(g, c)} holds no organ`);
  // The sheet file format accepts every position the engine reaches (checked at hour ends: it is slower).
  if (!checkSheetFile) return out;
  const v = validateSheet(sheetFromState(stateJson, player));
  if (!v.ok) out.push(...v.errors.map((e) => `sheet: ${e}`));
  else if (v.value.warnings.length) out.push(...v.value.warnings.map((e) => `sheet: ${e}`));
  return out;
}

/** A random move of the same kind as the listed ones, usually not listed: it must be rejected. */
function probe(rng: Rng, g: Geometry, player: string, moves: CozyMove[]): CozyMove {
  const cell = () => g.names[rng.int(0, g.size - 1)]!;
  const kind = rng.pick(moves).type;
  switch (kind) {
    case 'addOrgan':
      return { type: 'addOrgan', player, organ: rng.pick(ORGAN_TYPES), cell: cell(), facing: rng.pick(DIRS) };
    case 'food':
      return { type: 'food', player, cell: cell() };
    case 'grow':
      return { type: 'grow', player, cells: [cell()] };
    case 'baby':
      return { type: 'baby', player, cells: [cell(), cell()] };
    case 'placeWorm': {
      const c = rng.int(0, g.size - 1);
      return { type: 'placeWorm', player, cells: [0, 1, 2, 3, 4].map((k) => g.names[(c + k) % g.size]!) };
    }
    case 'activate':
      return { type: 'activate', player, worm: rng.int(1, 12) };
    default:
      return { type: 'act', player, cell: cell() };
  }
}

const key = (m: CozyMove) => JSON.stringify(m, Object.keys(m).sort());

function playOut(rng: Rng, options: Parameters<typeof setup>[0], stats: { moves: number; probes: number; maxStack: number; worms: number }): CozyState {
  const r = setup(options);
  if (!r.ok) throw new Error(r.message);
  let s = r.state;
  const g = geometry(s.chapter);
  while (s.phase !== 'over') {
    if (s.phase === 'roll') {
      const roll = applyMove(s, { type: 'roll', shape: rng.pick(SHAPE_NAMES), organs: [rng.pick(ORGAN_TYPES), rng.pick(ORGAN_TYPES)] });
      if (!roll.ok) throw new Error(roll.message);
      s = roll.state;
      continue;
    }
    const who = s.sheets.findIndex((x) => !x.done);
    if (who < 0) {
      const e = applyMove(s, { type: 'endHour' });
      if (!e.ok) throw new Error(e.message);
      s = e.state;
      continue;
    }
    const player = s.players[who]!.id;
    const opts = legalOptions(s, { player });
    // Failure messages (with the board printed) are built only on failure: building them for every
    // move was most of this test's time.
    if (opts.moves.length === 0) expect.fail(`${player} has no move but is not done\n${printBoard(g, s.sheets[who]!)}`);
    // Now and then, a move that is not listed must be rejected with the state unchanged.
    if (rng.next() < 0.1) {
      const m = probe(rng, g, player, opts.moves);
      const probeKey = key(m);
      const listed = opts.moves.some((x) => key(x) === probeKey);
      const before = JSON.stringify(s);
      const res = applyMove(s, m);
      stats.probes++;
      if (!listed) {
        if (res.ok) expect.fail(`${JSON.stringify(m)} is not listed but was accepted\n${printBoard(g, s.sheets[who]!)}\n${JSON.stringify(s.sheets[who]!.stack)}`);
        const after = JSON.stringify(s);
        if (after !== before) expect(after, `${JSON.stringify(m)} was rejected but changed the state`).toBe(before);
      }
    }
    // Mostly keep playing rather than stopping early, so games grow rich.
    const active = opts.moves.filter((m) => m.type !== 'done' && m.type !== 'pass');
    const move = active.length > 0 && rng.next() < 0.9 ? rng.pick(active) : rng.pick(opts.moves);
    const res = applyMove(s, move);
    if (!res.ok) expect.fail(`listed move ${JSON.stringify(move)} was rejected: ${res.message}\n${printBoard(g, s.sheets[who]!)}`);
    s = res.state;
    stats.moves++;
    stats.maxStack = Math.max(stats.maxStack, s.sheets[who]!.stack.length);
    const problems = broken(g, s.sheets[who]!, s, player, s.sheets[who]!.done);
    if (problems.length) expect.fail(`after ${JSON.stringify(move)}:\n  ${problems.join('\n  ')}\n${printBoard(g, s.sheets[who]!)}`);
  }
  stats.worms += s.sheets.reduce((n, x) => n + x.worms.length, 0);
  return s;
}

describe('random playouts', () => {
  // Generous timeout: the CI machine is small and shared; this is about 5 s on an idle core.
  it('2,000 seeded solo games on clew-1 finish all 16 hours with every invariant holding', { timeout: 600_000 }, () => {
    const rng = createRng('cozy-playout-1');
    const stats = { moves: 0, probes: 0, maxStack: 0, worms: 0 };
    for (let i = 0; i < 2000; i++) {
      const s = playOut(rng, {}, stats);
      expect(s.hour).toBe(16);
      if (i % 200 === 0) expect(JSON.parse(JSON.stringify(s)), 'the state is plain JSON').toEqual(s);
    }
    // The games were rich: chain reactions happened, and every probe was judged.
    expect(stats.maxStack).toBeGreaterThanOrEqual(3);
    expect(stats.worms / 2000).toBeGreaterThan(4);
    expect(stats.probes).toBeGreaterThan(1000);
  });

  it('multi-player games and every clew chapter play out too', { timeout: 300_000 }, () => {
    const rng = createRng('cozy-playout-2');
    const stats = { moves: 0, probes: 0, maxStack: 0, worms: 0 };
    for (const chapter of ['clew-2', 'clew-3', 'clew-4', 'clew-5', 'clew-6', 'clew-7', 'clew-8']) {
      for (let i = 0; i < 8; i++) {
        const s = playOut(rng, { chapter, players: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }, { id: 'c', name: 'C' }] }, stats);
        expect(s.hour).toBe(s.chapter.clock.hours);
      }
    }
  });
});
