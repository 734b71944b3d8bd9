/**
 * Legal options, chess.js style: compact by default (whose turn, dice to roll, move texts), and with
 * `{ verbose: true }` everything the dashboard highlights for this roll.
 */
import { keepableFaces, keptCount, total, faceValue, isKept, countFaces, wormHeld } from './dice.js';
import { failure, wormsOn } from './tiles.js';
import { judge } from './turn.js';
import { moveText } from './moves.js';
import type { TwidDetail, TwidMove, TwidOptions, TwidQuery, TwidState } from './types.js';

/** Every legal move except the roll itself (whose dice are the table's to observe). */
export function legalMoves(state: TwidState): TwidMove[] {
  switch (state.phase) {
    case 'roll':
      return state.rules.mayStop && state.kept.length > 0 ? [{ type: 'stop' }] : [];
    case 'keep':
      return keepableFaces(state.roll ?? [], state.kept).map((c) => ({ type: 'keep', face: c.face }));
    case 'choose': {
      const j = judge(state);
      return [
        ...j.takeable.map((tile): TwidMove => ({ type: 'take', tile })),
        ...j.stealable.map((s): TwidMove => ({ type: 'steal', tile: s.tile })),
      ];
    }
    case 'over':
      return [];
  }
}

export function diceToRoll(state: TwidState): number {
  return state.phase === 'roll' ? state.dice - keptCount(state.kept) : 0;
}

function detail(state: TwidState): TwidDetail {
  const tray = state.phase === 'keep' ? state.roll ?? [] : [];
  const sum = total(state.kept, state.rules);
  // While dice are still to be rolled, show what the kept dice would buy if the turn ended now.
  const j = judge(state);
  const failed = state.phase === 'over' ? null : failure(state.table, state.stacks[state.current]!, state.rules);
  return {
    total: sum,
    wormHeld: wormHeld(state.kept),
    kept: state.kept.map((k) => ({ ...k })),
    diceLeft: state.dice - keptCount(state.kept),
    keepable: keepableFaces(tray, state.kept).map((c) => ({ ...c, totalAfter: sum + c.count * faceValue(c.face, state.rules) })),
    blocked: countFaces(tray).filter((c) => isKept(state.kept, c.face)).map((c) => c.face),
    takeable: state.phase === 'over' ? [] : j.takeable.map((value) => ({ value, worms: wormsOn(state.tiles, value) })),
    stealable: state.phase === 'over' ? [] : j.stealable,
    whyNot: state.phase === 'over' ? null : j.whyNot,
    ifFail: failed ? { returned: failed.returned, flipped: failed.flipped } : { returned: null, flipped: null },
  };
}

export function legalOptions(state: TwidState, query?: TwidQuery): TwidOptions {
  const out: TwidOptions = {
    player: state.phase === 'over' ? null : state.players[state.current]!.id,
    phase: state.phase,
    roll: diceToRoll(state),
    moves: legalMoves(state).map(moveText),
  };
  if (query?.verbose) out.detail = detail(state);
  return out;
}
