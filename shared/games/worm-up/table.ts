/** The table side: the referee headline, who may submit what, what the camera reads, buttons. */
import type { ObservedDie } from '../../dice.js';
import { fail, ok, type Authority, type ButtonName, type DiceRequest, type GameStatus, type Result } from '../../game.js';
import { freeNumbers, validX } from './bids.js';
import { EQUIPMENT } from './data.js';
import { legalMoves, toAct } from './options.js';
import { BIDS, type Bid, type WormUpMove, type WormUpState } from './types.js';

export const DiceErrors = {
  notExpected: 'dice/not-expected',
  wrongSet: 'dice/wrong-set',
  badFace: 'dice/bad-face',
  noColor: 'dice/no-color',
  duplicateColor: 'dice/duplicate-color',
  missing: 'dice/missing',
  wrongCount: 'dice/wrong-count',
} as const;

/** Naming X's number is the X player's; everything the table sees or the referee declares is the table's. */
export function authority(state: WormUpState, move: WormUpMove): Authority {
  if (move.type === 'x' && state.current) {
    const x = validX(state.current.bids);
    if (x) return { kind: 'player', player: x.player };
  }
  return { kind: 'table' };
}

const nameOf = (state: WormUpState, id: string) => state.players.find((p) => p.id === id)?.name ?? id;

export function status(state: WormUpState): GameStatus {
  const base = { toAct: toAct(state), finished: state.phase === 'over' };
  const round = `Round ${state.round}`;
  switch (state.phase) {
    case 'bid': {
      const held = state.restricted.map((id) => nameOf(state, id));
      return { ...base, headline: `${round}: bid, then reveal all dice together${held.length ? ` (no 7 or X for ${held.join(', ')})` : ''}` };
    }
    case 'ghost':
      return { ...base, headline: `${round}: roll two dice for the ghost` };
    case 'x': {
      const r = state.current!;
      return { ...base, headline: `${round}: ${nameOf(state, validX(r.bids)!.player)} names X's number: ${freeNumbers(r.bids, r.ghost).join(', ')}` };
    }
    case 'move': {
      const r = state.current!;
      const m = r.order[r.moved]!;
      const x = m.bid === 'X' ? ' (X) and may swing a finish post' : '';
      return { ...base, headline: `${round}: ${nameOf(state, m.player)} moves ${m.steps}${x}` };
    }
    case 'over':
      return {
        ...base,
        headline: `${nameOf(state, state.winner!)} wins the race`,
        ranking: state.players.map((p) => (p.id === state.winner ? { player: p.id, rank: 1, score: 1 } : { player: p.id, rank: 2, score: 0 })).sort((a, b) => a.rank - b.rank),
      };
  }
}

export function diceRequest(state: WormUpState): DiceRequest | null {
  // Every die is named from the box's colours, not only the seats': spare dice may lie beside the
  // bids, and the bids beside the ghost's dice (at most the box's dice in all). Named from the
  // seats' colours, a spare took a player's (two yellow dice) and the ghost's two dice could be
  // the players' bids.
  // The seats' own colours too: a table may give a player a die of a colour the box file lacks.
  const colors = [...new Set([...EQUIPMENT.colors, ...state.players.map((p) => p.color)])];
  if (state.phase === 'bid') {
    return {
      sets: ['wurmeln'],
      slots: state.players.map((p) => ({ set: 'wurmeln', role: p.id, color: p.color })),
      count: { min: state.players.length, max: Math.max(state.players.length, colors.length) },
      colors,
      prompt: 'Reveal the bids: every die in the tray at once',
    };
  }
  if (state.phase === 'ghost') {
    // diceMove takes the two dice that are not a player's colour, so the reader keeps them all (readOptions).
    return {
      sets: ['wurmeln'],
      slots: [{ set: 'wurmeln', role: 'ghost' }, { set: 'wurmeln', role: 'ghost' }],
      count: { min: 2, max: Math.max(2, colors.length) },
      colors,
      prompt: 'Roll two spare dice for the ghost',
    };
  }
  return null;
}

function faceOf(die: ObservedDie, i: number): Bid | ReturnType<typeof fail> {
  if (die.set !== 'wurmeln') return fail(DiceErrors.wrongSet, `die ${i + 1} is from the ${die.set} set; Worm-up uses its own dice (3–7 and X)`);
  const bid = BIDS.find((b) => b === die.face);
  return bid ?? fail(DiceErrors.badFace, `die ${i + 1} shows "${die.face}", not 3–7 or X`);
}

/**
 * Bids: each player's die is told by its colour; dice of colours nobody plays (spares) are left
 * out. Ghost: the two dice that are not a player's colour (or the only two dice in the tray).
 */
export function diceMove(state: WormUpState, dice: ObservedDie[]): Result<WormUpMove> {
  const faces: Bid[] = [];
  for (const [i, die] of dice.entries()) {
    const f = faceOf(die, i);
    if (typeof f !== 'string') return f;
    faces.push(f);
  }
  const seatOf = (die: ObservedDie) => state.players.find((p) => p.color === die.color);

  if (state.phase === 'bid') {
    const bids: Record<string, Bid> = {};
    for (const [i, die] of dice.entries()) {
      if (!die.color) return fail(DiceErrors.noColor, `die ${i + 1} (${die.face}) has no colour; the colour says whose bid it is`);
      const seat = seatOf(die);
      if (!seat) continue;
      if (Object.hasOwn(bids, seat.id)) return fail(DiceErrors.duplicateColor, `two ${die.color} dice: ${seat.name} has one die`);
      bids[seat.id] = faces[i]!;
    }
    const missing = state.players.filter((p) => !Object.hasOwn(bids, p.id));
    if (missing.length) return fail(DiceErrors.missing, `no die for ${missing.map((p) => `${p.name} (${p.color})`).join(', ')}`);
    return ok({ type: 'reveal', bids });
  }

  if (state.phase === 'ghost') {
    const spare = dice.map((d, i) => ({ d, face: faces[i]! })).filter(({ d }) => !seatOf(d));
    // Two dice without colours (entered by hand) are the ghost's; two of the players' colours are
    // their bids, still in the tray, not the ghost's (taken so, they voided a valid bid).
    const pick = spare.length === 2 ? spare.map((s) => s.face) : dice.length === 2 && dice.every((d) => !d.color) ? faces : null;
    if (!pick) return fail(DiceErrors.wrongCount, `the ghost rolls 2 dice; saw ${spare.length} that are not a player's colour (${dice.length} in all)`);
    return ok({ type: 'ghost', dice: [pick[0]!, pick[1]!] });
  }

  return fail(DiceErrors.notExpected, `no dice are expected now (${state.phase === 'over' ? 'the race is over' : state.phase === 'x' ? "X is naming its number" : 'the worms are moving'})`);
}

/** NEXT (or OK): the worm whose turn it is has moved. */
export function buttonMove(state: WormUpState, button: ButtonName): WormUpMove | null {
  if ((button === 'NEXT' || button === 'OK') && state.phase === 'move') return legalMoves(state)[0] ?? null;
  return null;
}
