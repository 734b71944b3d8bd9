/**
 * What a pending roll means in the game, worked out on the phone with the same rules the server
 * uses (`diceMove`), so the table sees "shape U, eye and brain" or "2 red dice: which is the shape
 * die?" before the referee uses the roll. Pure.
 */
import type { DiceSetId, ObservedDie } from '../../../../shared/dice.js';
import { DICE_SETS } from '../../../../shared/dice.js';
import type { DiceRequest, GameId } from '../../../../shared/game.js';
import { GAMES } from '../../../../shared/games/registry.js';
import type { PendingRoll } from '../../../../shared/protocol.js';

export type RollMeaning = { ok: true; move: unknown } | { ok: false; message: string };

export function observedDice(roll: PendingRoll): ObservedDie[] {
  return roll.dice.map(({ set, face, color, confidence, box }) => ({
    set,
    face,
    ...(color !== undefined ? { color } : {}),
    ...(confidence !== undefined ? { confidence } : {}),
    ...(box !== undefined ? { box } : {}),
  }));
}

export function rollMeaning(game: GameId, state: unknown, roll: PendingRoll): RollMeaning {
  const def = GAMES[game];
  const r = def.diceMove(state, observedDice(roll));
  return r.ok ? { ok: true, move: r.state } : { ok: false, message: r.message };
}

/** Confidence as the phone shows it: a whole percent, or null for a face a person entered. */
export function confidenceText(confidence: number | undefined): string | null {
  if (confidence === undefined) return null;
  return `${Math.round(confidence * 100)}%`;
}

/** One die to enter by hand: its set, colour and what it stands for. */
export interface ManualSlot {
  set: DiceSetId;
  color?: string;
  label: string;
}

/**
 * The dice a person enters by hand for a request: one per slot when the game names them
 * (shape die, each player's bid), else `count.max` dice of the first set.
 */
export function manualSlots(request: DiceRequest, names: Record<string, string> = {}): ManualSlot[] {
  if (request.slots?.length) {
    return request.slots.map((s, i) => {
      const role = s.role ? (names[s.role] ?? s.role) : `die ${i + 1}`;
      const label = s.color ? `${role} (${s.color})` : role;
      return s.color ? { set: s.set, color: s.color, label } : { set: s.set, label };
    });
  }
  const set = request.sets[0] ?? 'd6';
  const n = request.count?.max ?? 1;
  return Array.from({ length: n }, (_, i) => ({ set, label: `die ${i + 1}` }));
}

/** Counting entry (many alike dice): faces × how many, as dice in face order. */
export function diceFromCounts(set: DiceSetId, counts: Record<string, number>): ObservedDie[] {
  const out: ObservedDie[] = [];
  for (const face of DICE_SETS[set].faces) for (let i = 0; i < (counts[face] ?? 0); i++) out.push({ set, face });
  return out;
}

/** True when the request names no roles (The worm is drawn): count each face instead. */
export function countsEntry(request: DiceRequest): boolean {
  return !request.slots?.length;
}

/**
 * What "add a missed die" offers for a pending roll: the request's named dice that no die of the
 * roll stands for (matched by set, and by colour where the slot names one), or else one plain die
 * of each set in play (The worm is drawn counts dice, it does not name them).
 */
export function missingDice(request: DiceRequest, dice: readonly ObservedDie[], names: Record<string, string> = {}): ManualSlot[] {
  if (request.slots?.length) {
    const used = new Set<number>();
    const slots = manualSlots(request, names);
    // Slots with a colour first: a plain slot must not take the die a coloured one needs.
    const order = slots.map((s, i) => i).sort((i, j) => Number(!slots[i]!.color) - Number(!slots[j]!.color));
    const filled = new Set<number>();
    for (const i of order) {
      const s = slots[i]!;
      const k = dice.findIndex((d, j) => !used.has(j) && d.set === s.set && (s.color === undefined || d.color === s.color));
      if (k >= 0) {
        used.add(k);
        filled.add(i);
      }
    }
    const open = slots.filter((_, i) => !filled.has(i));
    if (open.length) return open;
  }
  return request.sets.map((set) => ({ set, label: request.sets.length > 1 ? DICE_SETS[set].name : 'a die' }));
}
