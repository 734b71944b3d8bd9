/**
 * Worm Derby and Tapeworm rules engines: random games played to the end per CPU second, every move
 * applied through the public `apply` with a compact `legalOptions` per move (what the dashboard
 * asks on every snapshot); and one verbose legal-options query on a busy position of each game.
 * Tapeworm's random games run on a simulated table (a real shuffled deck and real hands).
 */
import { createRng } from '../../shared/rng.js';
import { fromNotation as derbyPosition, randomMove, wormDerby, type DerbyState } from '../../shared/games/worm-derby/index.js';
import { dealTable, fromNotation as tapewormPosition, randomStep, tapeworm, type TapewormState } from '../../shared/games/tapeworm/index.js';
import type { BenchModule, Figure } from './types.js';
import { cpuPerCall, gameRate } from './cpu-time.js';

const PLAYERS = ['a', 'b', 'c', 'd'].map((id) => ({ id, name: id.toUpperCase() }));

function derbyRace(seed: number, rules: 'basic' | 'advanced', players: number): number {
  const rng = createRng(seed);
  const r = wormDerby.setup({ players: PLAYERS.slice(0, players), rules });
  if (!r.ok) throw new Error(r.message);
  let s: DerbyState = r.state;
  let moves = 0;
  for (let m = randomMove(s, rng); m; m = randomMove(s, rng)) {
    wormDerby.legalOptions(s);
    const next = wormDerby.apply(s, m);
    if (!next.ok) throw new Error(next.message);
    s = next.state;
    moves++;
  }
  return moves;
}

function tapewormGame(seed: number, players: number): number {
  const rng = createRng(seed);
  const r = tapeworm.setup({ players: PLAYERS.slice(0, players) });
  if (!r.ok) throw new Error(r.message);
  let s: TapewormState = r.state;
  const table = dealTable(s, rng);
  let moves = 0;
  while (s.phase !== 'over') {
    tapeworm.legalOptions(s);
    const { result } = randomStep(s, table, rng);
    if (!result.ok) throw new Error(result.message);
    s = result.state;
    moves++;
  }
  return moves;
}

/** Whole games per CPU second (after 20 games' warm-up). */
const rate = (play: (seed: number) => number, ms: number) => gameRate(play, ms, 20);

/** CPU microseconds per call (warmed up over 2_000 calls, timed 50 at a time). */
const perCall = (run: () => void, ms: number) => cpuPerCall(run, ms, 2000, 50);

const bench: BenchModule = {
  title: 'race and card games',
  async figures({ quick }) {
    const ms = quick ? 200 : 2000;
    const basic = rate((g) => derbyRace(g, 'basic', 4), ms);
    const advanced = rate((g) => derbyRace(g, 'advanced', 4), ms);
    const tw4 = rate((g) => tapewormGame(g, 4), ms);
    const tw2 = rate((g) => tapewormGame(g, 2), ms);
    const derby = derbyPosition('advanced move=5 @b t9 r12 obst:20/20 | a 6 P | b 4+2 !c@A | c 5+1 | d 3+3 P');
    const derbyVerbose = perCall(() => wormDerby.legalOptions(derby, { verbose: true }), ms / 4);
    const busy = tapewormPosition(
      'play @p1 t9 hands:p1=5,p2=5 | start@0,0 red-curve@0,-1r1 white-red-curve@1,0r3 black-curve@-1,0r1 black-curve@-1,1r3 pink-straight@0,1 pink-curve@0,2r3 wild-straight@-1,2r1=pink',
    );
    const twVerbose = perCall(() => tapeworm.legalOptions(busy, { verbose: true }), ms / 4);
    const twHand = perCall(() => tapeworm.legalOptions(busy, { cards: ['red-curve', 'pink-straight', 'black-head', 'wild-curve', 'pink-straight-cut'] }), ms / 4);
    const figures: Figure[] = [
      { id: 'derby.basic.gamesPerSecond', label: 'Worm Derby (basic, 4 players): random races', value: basic.perSecond, unit: 'games/CPU s', note: `${basic.movesPerGame.toFixed(0)} moves a race` },
      { id: 'derby.advanced.gamesPerSecond', label: 'Worm Derby (cannibal, 4 players): random races', value: advanced.perSecond, unit: 'games/CPU s', note: `${advanced.movesPerGame.toFixed(0)} moves a race` },
      { id: 'derby.legalOptions.verbose.us', label: 'Worm Derby: verbose legal options (a 5 with 3 worms to eat)', value: derbyVerbose, unit: 'µs' },
      { id: 'tapeworm.4p.gamesPerSecond', label: 'Tapeworm (4 players): random games', value: tw4.perSecond, unit: 'games/CPU s', note: `${tw4.movesPerGame.toFixed(0)} actions a game` },
      { id: 'tapeworm.2p.gamesPerSecond', label: 'Tapeworm (2 players): random games', value: tw2.perSecond, unit: 'games/CPU s', note: `${tw2.movesPerGame.toFixed(0)} actions a game` },
      { id: 'tapeworm.legalOptions.hand.us', label: 'Tapeworm: placements and cuts for a 5-card hand', value: twHand, unit: 'µs' },
      { id: 'tapeworm.legalOptions.verbose.us', label: 'Tapeworm: verbose legal options (every hidden kind)', value: twVerbose, unit: 'µs' },
    ];
    return figures;
  },
};

export default bench;
