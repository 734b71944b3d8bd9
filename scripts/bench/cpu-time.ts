/**
 * CPU-time measures shared by the bench areas. The figures are per CPU second, not wall-clock
 * where a rate is asked for: the machines this runs on are shared, and wall time there mostly
 * measures the neighbours.
 */

/** CPU milliseconds used by this process (user and system). */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Plays whole games for at least `ms` CPU milliseconds, after `warmUp` games: games per CPU second
 * and moves per game (`play` returns the moves of the game with that seed).
 */
export function gameRate(play: (seed: number) => number, ms: number, warmUp: number): { perSecond: number; movesPerGame: number } {
  for (let i = 0; i < warmUp; i++) play(1_000_000 + i);
  let games = 0;
  let moves = 0;
  const t0 = cpuMs();
  while (cpuMs() - t0 < ms) moves += play(games++);
  return { perSecond: (games * 1000) / (cpuMs() - t0), movesPerGame: moves / games };
}

/**
 * CPU microseconds per call, after `warmUp` calls (past the optimising compiler); the clock is read
 * every `between` calls, so a fast call is not measured by the clock's own cost.
 */
export function cpuPerCall(run: () => void, ms: number, warmUp: number, between: number): number {
  for (let i = 0; i < warmUp; i++) run();
  let n = 0;
  const t0 = cpuMs();
  while (cpuMs() - t0 < ms) for (let i = 0; i < between; i++, n++) run();
  return ((cpuMs() - t0) * 1000) / n;
}
