/**
 * The dice games' rules engines: random games played to the end per CPU second (every move applied
 * through the public `apply`, the random table choosing from the legal moves, plus the compact
 * `legalOptions` the server asks for on every snapshot), and one verbose legal-options query.
 */
import { createRng } from '../../shared/rng.js';
import { fromNotation, randomMove as twidMove, theWormIsDrawn, type TwidState } from '../../shared/games/the-worm-is-drawn/index.js';
import { randomMove as wormUpMove, wormUp, type WormUpState } from '../../shared/games/worm-up/index.js';
import type { BenchModule, Figure } from './types.js';
import { cpuPerCall, gameRate } from './cpu-time.js';

function twidGame(seed: number, preset: 'seed' | 'classic', players: number): number {
  const rng = createRng(seed);
  const r = theWormIsDrawn.setup({ players: Array.from({ length: players }, (_, i) => ({ name: `P${i + 1}` })), preset, diceSet: 'worm' });
  if (!r.ok) throw new Error(r.message);
  let s: TwidState = r.state;
  let moves = 0;
  for (let m = twidMove(s, rng); m; m = twidMove(s, rng)) {
    theWormIsDrawn.legalOptions(s);
    const next = theWormIsDrawn.apply(s, m);
    if (!next.ok) throw new Error(next.message);
    s = next.state;
    moves++;
  }
  return moves;
}

function wormUpRace(seed: number, players: number): number {
  const rng = createRng(seed);
  const r = wormUp.setup({ players: Array.from({ length: players }, (_, i) => ({ name: `P${i + 1}` })) });
  if (!r.ok) throw new Error(r.message);
  let s: WormUpState = r.state;
  let moves = 0;
  for (let m = wormUpMove(s, rng); m; m = wormUpMove(s, rng)) {
    wormUp.legalOptions(s);
    const next = wormUp.apply(s, m);
    if (!next.ok) throw new Error(next.message);
    s = next.state;
    moves++;
  }
  return moves;
}

/** Whole games per CPU second (after 30 games' warm-up). */
const rate = (play: (seed: number) => number, ms: number) => gameRate(play, ms, 30);

/** CPU microseconds per call (warmed up over 20,000 calls, timed 1000 at a time). */
const perCall = (run: () => void, ms: number) => cpuPerCall(run, ms, 20_000, 1000);

const bench: BenchModule = {
  title: 'dice games',
  async figures({ quick }) {
    const ms = quick ? 200 : 2000;
    const seed = rate((g) => twidGame(g, 'seed', 4), ms);
    const classic = rate((g) => twidGame(g, 'classic', 4), ms);
    const up3 = rate((g) => wormUpRace(g, 3), ms);
    const up2 = rate((g) => wormUpRace(g, 2), ms);
    const position = fromNotation('seed T:21-24,26,28-30,32,34-36 X:25 S:27.31/-/33 P:1/keep K:ww1111 R:55');
    if (!position.ok) throw new Error(position.message);
    const verbose = perCall(() => theWormIsDrawn.legalOptions(position.state, { verbose: true }), ms / 2);
    const figures: Figure[] = [
      { id: 'twid.seed.gamesPerSecond', label: 'The worm is drawn (seed, 4 players): random games', value: seed.perSecond, unit: 'games/cpu-s', note: `${seed.movesPerGame.toFixed(0)} moves a game` },
      { id: 'twid.classic.gamesPerSecond', label: 'The worm is drawn (classic, 4 players): random games', value: classic.perSecond, unit: 'games/cpu-s', note: `${classic.movesPerGame.toFixed(0)} moves a game` },
      { id: 'twid.legalOptions.verbose.us', label: 'The worm is drawn: verbose legal options', value: verbose, unit: 'cpu-µs' },
      { id: 'wormUp.3p.gamesPerSecond', label: 'Worm-up (3 players): random races', value: up3.perSecond, unit: 'games/cpu-s', note: `${up3.movesPerGame.toFixed(0)} moves a race` },
      { id: 'wormUp.2p.gamesPerSecond', label: 'Worm-up (2 players, ghost): random races', value: up2.perSecond, unit: 'games/cpu-s', note: `${up2.movesPerGame.toFixed(0)} moves a race` },
    ];
    return figures;
  },
};

export default bench;
