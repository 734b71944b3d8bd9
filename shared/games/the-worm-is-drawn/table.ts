/** The table side: the referee headline, whose move it is, what the camera should read, buttons. */
import type { ObservedDie } from '../../dice.js';
import { fail, ok, type Authority, type ButtonName, type DiceRequest, type GameStatus, type Result } from '../../game.js';
import { keptCount, total, wormHeld } from './dice.js';
import { legalMoves, diceToRoll } from './options.js';
import { judge } from './turn.js';
import { scoreGame } from './scoring.js';
import type { Face, TwidMove, TwidState } from './types.js';

export const DiceErrors = {
  notExpected: 'dice/not-expected',
  wrongSet: 'dice/wrong-set',
  wrongCount: 'dice/wrong-count',
  badFace: 'dice/bad-face',
} as const;

/** Recording the roll is the table's (camera, referee, buttons); choices are the player's. */
export function authority(state: TwidState, move: TwidMove): Authority {
  if (move.type === 'roll') return { kind: 'table' };
  return { kind: 'player', player: state.players[state.current]!.id };
}

export function status(state: TwidState): GameStatus {
  if (state.phase === 'over') {
    const score = scoreGame(state);
    const best = score.lines[0]!;
    const name = state.players.find((p) => p.id === best.player)!.name;
    const tie = score.lines.filter((l) => l.rank === 1).length > 1;
    return {
      headline: tie ? `Game over: a tie on ${best.worms} worms` : `Game over: ${name} wins with ${best.worms} worm${best.worms === 1 ? '' : 's'}`,
      toAct: [],
      finished: true,
      ranking: score.lines.map((l) => ({ player: l.player, rank: l.rank, score: l.worms })),
    };
  }
  const p = state.players[state.current]!;
  const sum = total(state.kept, state.rules);
  const held = state.kept.length ? ` (total ${sum}${wormHeld(state.kept) ? ', worm held' : ''})` : '';
  const what =
    state.phase === 'roll'
      ? `roll ${diceToRoll(state)} dice${state.rules.mayStop && state.kept.length ? ' or stop' : ''}`
      : state.phase === 'keep'
        ? 'keep a face'
        : judge(state).stealable.length
          ? 'take or steal a tile'
          : 'take a tile';
  return { headline: `${p.name}: ${what}${held}`, toAct: [p.id], finished: false };
}

export function diceRequest(state: TwidState): DiceRequest | null {
  const n = diceToRoll(state);
  if (n === 0) return null;
  return {
    sets: [state.diceSet],
    count: { min: n, max: n },
    prompt: `${state.players[state.current]!.name}: roll ${n} ${n === 1 ? 'die' : 'dice'}`,
  };
}

/** A face of the game's dice, or of a d6 standing in for them (6 is the worm). */
function readFace(die: ObservedDie): Face | null {
  if (die.set === 'worm') return (['1', '2', '3', '4', '5', 'worm'] as const).find((f) => f === die.face) ?? null;
  if (die.set === 'd6') return die.face === '6' ? 'worm' : (['1', '2', '3', '4', '5'] as const).find((f) => f === die.face) ?? null;
  return null;
}

export function diceMove(state: TwidState, dice: ObservedDie[]): Result<TwidMove> {
  const n = diceToRoll(state);
  if (n === 0) return fail(DiceErrors.notExpected, `no roll is expected now (${state.phase === 'over' ? 'the game is over' : `time ${state.phase === 'keep' ? 'to keep a face' : 'to take or steal a tile'}`})`);
  const faces: Face[] = [];
  for (const [i, die] of dice.entries()) {
    if (die.set !== 'worm' && die.set !== 'd6') return fail(DiceErrors.wrongSet, `die ${i + 1} is from the ${die.set} set; this game uses worm dice (or d6)`);
    const face = readFace(die);
    if (!face) return fail(DiceErrors.badFace, `die ${i + 1} shows "${die.face}", not a face of the ${die.set} set`);
    faces.push(face);
  }
  if (faces.length !== n) {
    return fail(DiceErrors.wrongCount, `expected ${n} dice (${keptCount(state.kept)} kept), saw ${faces.length}`);
  }
  return ok({ type: 'roll', dice: faces });
}

/** OK confirms the only choice there is; NEXT ends the turn where the preset lets the player stop. */
export function buttonMove(state: TwidState, button: ButtonName): TwidMove | null {
  const moves = legalMoves(state);
  if (button === 'NEXT') return moves.find((m) => m.type === 'stop') ?? null;
  if (button === 'OK' && (state.phase === 'keep' || state.phase === 'choose') && moves.length === 1) return moves[0]!;
  return null;
}
