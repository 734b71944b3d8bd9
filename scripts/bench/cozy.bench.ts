/**
 * Worm & Cozy engine figures: `legalOptions` time per position, and complete random 16-hour solo
 * games per second (random legal choices from `legalOptions`, random dice from shared/rng.ts), all
 * through the engine's public `legalOptions` and `applyMove`.
 */
import { applyMove } from '../../shared/games/worm-and-cozy/apply.js';
import { setup } from '../../shared/games/worm-and-cozy/index.js';
import type { CozyMove } from '../../shared/games/worm-and-cozy/moves.js';
import { legalOptions } from '../../shared/games/worm-and-cozy/options.js';
import { ORGAN_TYPES, SHAPE_NAMES, type CozyState } from '../../shared/games/worm-and-cozy/state.js';
import { createRng, type Rng } from '../../shared/rng.js';
import type { BenchModule } from './types.js';

function isActive(m: CozyMove): boolean {
  return m.type !== 'done' && m.type !== 'pass';
}

/**
 * The random player: with probability 0.9 a uniformly random "active" move (not `done` or `pass`),
 * when there is one, else a uniformly random move, so games grow rich. It draws by rejection instead
 * of filtering a copy of the list (the copy and its closure were a tenth of a game's time, and they
 * are the player's cost, not the engine's); the distribution is the same.
 */
function pickMove(rng: Rng, moves: readonly CozyMove[]): CozyMove {
  if (rng.next() < 0.9) {
    for (let tries = 0; tries < 8; tries++) {
      const m = moves[Math.floor(rng.next() * moves.length)]!;
      if (isActive(m)) return m;
    }
    // Few or no active moves: count them and draw exactly.
    let active = 0;
    for (const m of moves) if (isActive(m)) active++;
    if (active > 0) {
      let k = Math.floor(rng.next() * active);
      for (const m of moves) if (isActive(m) && k-- === 0) return m;
    }
  }
  return rng.pick(moves);
}

/** One random solo game; `visit` sees every position where the player chooses. */
function randomGame(rng: Rng, visit?: (s: CozyState) => void): number {
  const r = setup({});
  if (!r.ok) throw new Error(r.message);
  let s = r.state;
  let moves = 0;
  while (s.phase !== 'over') {
    let next;
    if (s.phase === 'roll') next = applyMove(s, { type: 'roll', shape: rng.pick(SHAPE_NAMES), organs: [rng.pick(ORGAN_TYPES), rng.pick(ORGAN_TYPES)] });
    else if (s.sheets[0]!.done) next = applyMove(s, { type: 'endHour' });
    else {
      visit?.(s);
      next = applyMove(s, pickMove(rng, legalOptions(s).moves));
      moves++;
    }
    if (!next.ok) throw new Error(next.message);
    s = next.state;
  }
  return moves;
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1e6;
}

const bench: BenchModule = {
  title: 'Worm & Cozy',
  async figures({ quick }) {
    const rng = createRng('cozy-bench');
    // Warm up the JIT before timing anything, long enough for it to settle: the optimizing compiler
    // runs on background threads whose CPU time counts too, and on this shared 2-core machine its
    // jobs take long, so after 300 games (the first version of this bench) it was still compiling
    // and a good part of the measured CPU time was the compiler's (per-thread CPU from /proc showed
    // it settle after about 2,000 games). At least 2,000 games and 2 seconds; quick runs just 100.
    const minGames = quick ? 100 : 2000;
    const warmUntil = performance.now() + (quick ? 0 : 2000);
    for (let i = 0; i < 10_000 && (i < minGames || performance.now() < warmUntil); i++) randomGame(rng);

    const games = quick ? 300 : 3000;
    let moves = 0;
    // CPU time as well as wall time: on a shared, loaded machine the wall clock mostly measures
    // the other processes; the process's own CPU seconds are what one core gives this engine.
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (let i = 0; i < games; i++) moves += randomGame(rng);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(c0);

    // Positions from fresh random games: every point where the player chooses.
    const positions: CozyState[] = [];
    for (let i = 0; i < (quick ? 20 : 100); i++) randomGame(rng, (s) => positions.push(s));
    const reps = quick ? 3 : 10;
    let worst = 0;
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    for (const p of positions) {
      const a = performance.now();
      for (let k = 0; k < reps; k++) legalOptions(p);
      worst = Math.max(worst, (performance.now() - a) / reps);
    }
    const perPositionCpu = (cpuSeconds(c1) * 1000) / (positions.length * reps);
    const perPosition = (performance.now() - t1) / (positions.length * reps);

    const tv = performance.now();
    for (const p of positions) legalOptions(p, { verbose: true });
    const verbose = (performance.now() - tv) / positions.length;

    return [
      { id: 'cozy.legalOptions.ms', label: 'legalOptions per position (mean)', value: perPosition, unit: 'ms', target: { op: '<=', value: 1 }, note: `${positions.length} positions from random games; worst ${worst.toFixed(3)} ms (wall)` },
      { id: 'cozy.legalOptions.cpuMs', label: 'legalOptions per position (mean, CPU time)', value: perPositionCpu, unit: 'ms', target: { op: '<=', value: 1 } },
      { id: 'cozy.legalOptionsVerbose.ms', label: 'legalOptions verbose per position', value: verbose, unit: 'ms', target: { op: '<=', value: 1 } },
      { id: 'cozy.games.perCpuSecond', label: 'random 16-hour solo games per CPU second', value: games / cpu, unit: 'games/s', target: { op: '>=', value: 2000 }, note: `${(moves / games).toFixed(0)} choices per game; one core` },
      { id: 'cozy.games.perSecond', label: 'random 16-hour solo games (wall clock)', value: games / seconds, unit: 'games/s', note: 'lower when the machine is shared' },
    ];
  },
};

export default bench;
