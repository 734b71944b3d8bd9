/**
 * A frame's reading fitted to the roll the game asks for (its DiceRequest, shared/game.ts). Worm &
 * Cozy rolls one shape die and two organ dice: a reading of two shape dice and one organ die, or of
 * four dice, is not such a roll, and the table would stop to ask a person. The reader knows more
 * than its best guess per die: how likely each die is to be of each set in play. So the dice are
 * given the slots that make the likeliest roll, each die read as its slot's set, and boxes beyond
 * the slots (a shadow, a ghost of the learned tray) are left out, the least likely first.
 *
 * What stays honest: a die moved to another set keeps that set's own confidence (not renormalised),
 * so it is marked "check" unless the net was sure of that reading too; and where a box left out was
 * itself read surely, the least sure die kept is marked, since the person must then look.
 *
 * Colours likewise (`fitColours`): with Worm & Cozy's default dice, three d6, the shape die is the
 * one red die, so the die nearest red is it, even where the light makes it brown.
 * Pure: the reader (reader.ts) gives every die's reading in each set in play and its body colour.
 */
import type { DiceSetId } from '../shared/dice.js';
import type { DiceRequest } from '../shared/game.js';
import { colorLab, namingDistance, nearestColor, type Lab } from './locate/color.js';
import type { RollExpectation } from './types.js';

export type { RollExpectation };

/** A die read as one set: the set's likeliest face, its probability, and every face's. */
export interface SetReading {
  set: DiceSetId;
  face: string;
  confidence: number;
  probabilities: Record<string, number>;
}

export interface FittableDie extends SetReading {
  uncertain: boolean;
  guessed?: boolean;
  /** The die read as each set in play (only where more than one is). */
  bySet?: readonly SetReading[];
}

export interface FittedRoll<T> {
  /** The dice kept, in their order, each as the set of its slot. */
  dice: T[];
  /** Boxes left out: more dice were read than the game's slots hold. */
  dropped: T[];
  /** Dice now read as another set than their own best guess. */
  moved: number;
}

/** The dice a game's request asks for, as the reader fits a frame's dice to them: its slots. */
export function expectationOf(request: DiceRequest): RollExpectation | undefined {
  const slots = request.slots ?? [];
  if (slots.length === 0) return undefined;
  return { slots: slots.map(({ set, color }) => ({ set, ...(color ? { color } : {}) })) };
}

/** Below this a die is as good as impossible as that set (a set not in play, a face masked out). */
const FLOOR = 1e-6;
/** Readings of more dice than this are left as they are (the search is exponential in the sets). */
const MAX_DICE = 40;

/**
 * The likeliest roll the slots allow: every die takes a slot of a set it may be, at most as many
 * of each set as the slots hold, and where there are more dice than slots the surplus is left out.
 * Likeliest: the product of each kept die's probability as its slot's set. A reading that already
 * fits comes back as it was.
 */
export function fitToSlots<T extends FittableDie>(dice: readonly T[], slots: readonly { readonly set: DiceSetId }[], uncertainBelow: number): FittedRoll<T> {
  const unchanged: FittedRoll<T> = { dice: [...dice], dropped: [], moved: 0 };
  if (slots.length === 0 || dice.length === 0 || dice.length > MAX_DICE) return unchanged;
  const sets = [...new Set(slots.map((s) => s.set))];
  const capacity = sets.map((s) => slots.filter((x) => x.set === s).length);
  const fits = dice.length <= slots.length && sets.every((s, k) => dice.filter((d) => d.set === s).length <= capacity[k]!) && dice.every((d) => sets.includes(d.set));
  if (fits) return unchanged;

  const as = dice.map((d) => sets.map((s) => readingAs(d, s)));
  const logp = as.map((row) => row.map((r) => Math.log(Math.max(r?.confidence ?? 0, FLOOR))));
  const drops = Math.max(0, dice.length - slots.length);
  // Best choice for dice i.. given the slots left of each set and the drops left: memoised on
  // (i, slots left, drops left), a handful of states for a table's dice.
  const memo = new Map<string, { value: number; pick: number }>();
  const best = (i: number, left: number[], dropsLeft: number): number => {
    if (i === dice.length) return 0;
    const key = `${i}|${left.join(',')}|${dropsLeft}`;
    const seen = memo.get(key);
    if (seen) return seen.value;
    let value = -Infinity, pick = -1;
    if (dropsLeft > 0) {
      value = best(i + 1, left, dropsLeft - 1);
    }
    for (let k = 0; k < sets.length; k++) {
      if (left[k]! === 0) continue;
      const next = left.slice();
      next[k]!--;
      const v = logp[i]![k]! + best(i + 1, next, dropsLeft);
      if (v > value) (value = v), (pick = k);
    }
    memo.set(key, { value, pick });
    return value;
  };
  best(0, capacity, drops);

  const kept: T[] = [];
  const dropped: T[] = [];
  let moved = 0;
  let left = capacity, dropsLeft = drops;
  for (let i = 0; i < dice.length; i++) {
    const { pick } = memo.get(`${i}|${left.join(',')}|${dropsLeft}`)!;
    if (pick < 0) {
      dropped.push(dice[i]!);
      dropsLeft--;
      continue;
    }
    left = left.slice();
    left[pick]!--;
    const d = dice[i]!;
    const r = as[i]![pick];
    if (!r || r.set === d.set) {
      kept.push(d);
      continue;
    }
    moved++;
    kept.push({ ...d, set: r.set, face: r.face, confidence: r.confidence, probabilities: r.probabilities, uncertain: !!d.guessed || r.confidence < uncertainBelow });
  }
  // A box left out that was read surely: the roll is in doubt, so the least sure die kept is marked.
  if (dropped.some((d) => !d.uncertain) && kept.length > 0) {
    const weakest = kept.reduce((w, d, i) => (d.confidence < kept[w]!.confidence ? i : w), 0);
    kept[weakest] = { ...kept[weakest]!, uncertain: true };
  }
  return { dice: kept, dropped, moved };
}

/** A die's reading as set `set`: its own where it is of that set, else the one it gives. */
function readingAs(d: FittableDie, set: DiceSetId): SetReading | undefined {
  if (d.set === set) return d;
  return d.bySet?.find((r) => r.set === set);
}

/** A die's colour as a fit gives it. */
export interface ColourFit {
  /** Each die's colour name, in the dice's order. */
  colors: string[];
  /** Dice whose colour the fit changed where another die was nearly as near that slot's colour: a person should look. */
  doubtful: boolean[];
}

/** Dice beyond this many are named one by one (the matching is exponential in them). */
const MAX_COLOUR_DICE = 12;

/**
 * The dice's colours given the game's coloured slots. A slot that names a colour is one die of
 * that colour (Worm & Cozy's shape d6 is the one red die, each player's bidding die in Worm-up is
 * the player's colour), so the coloured slots take the dice at the least total distance between
 * each die's body colour and its slot's colour, and a die in a slot that names none takes the
 * nearest name no slot claims. A dark red die the light makes brown is then still the shape die,
 * where named one by one it left the roll with no red die at all.
 *
 * Only for as many dice as slots, at least one of them coloured; else null (named one by one).
 * Where the fit changed a die's colour and another die was within `margin` (naming distance) as
 * near the slot's colour, both are doubtful: two dice that red are for a person to tell apart.
 */
export function fitColours(bodies: readonly Lab[], slots: readonly { readonly color?: string }[], palette: readonly string[], margin: number): ColourFit | null {
  const n = bodies.length;
  if (n === 0 || n !== slots.length || n > MAX_COLOUR_DICE || !slots.some((s) => s.color)) return null;
  const claimed = new Set(slots.flatMap((s) => (s.color ? [s.color] : [])));
  const free = palette.filter((name) => !claimed.has(name));
  const names = free.length > 0 ? free : palette;
  const distance = (lab: Lab, name: string) => namingDistance(lab, colorLab(name));
  // cost[i][j]: die i in slot j. A slot that names no colour costs nothing: its die may be of any
  // colour, even one between names, and weighing how far it is from its nearest name chose a
  // less red die as Worm & Cozy's shape die in 3 of 127 rendered rolls.
  const cost = bodies.map((lab) => slots.map((s) => (s.color ? distance(lab, s.color) : 0)));
  // Dice in order, slots as a used-set: best[mask] = least cost of dice 0..popcount(mask)-1 in the slots of mask.
  const size = 1 << n;
  const best = new Float64Array(size).fill(Infinity);
  const from = new Int32Array(size).fill(-1);
  best[0] = 0;
  for (let mask = 0; mask < size; mask++) {
    if (best[mask] === Infinity) continue;
    const i = popcount(mask);
    if (i === n) continue;
    for (let j = 0; j < n; j++) {
      if (mask & (1 << j)) continue;
      const next = mask | (1 << j);
      const value = best[mask]! + cost[i]![j]!;
      if (value < best[next]!) (best[next] = value), (from[next] = j);
    }
  }
  const slotOf = new Array<number>(n);
  for (let mask = size - 1, i = n - 1; i >= 0; i--) {
    const j = from[mask]!;
    slotOf[i] = j;
    mask &= ~(1 << j);
  }
  const colors = bodies.map((lab, i) => slots[slotOf[i]!]!.color ?? nearestColor(lab, names));
  const plain = bodies.map((lab) => nearestColor(lab, palette));
  const doubtful = bodies.map(() => false);
  for (let i = 0; i < n; i++) {
    const c = slots[slotOf[i]!]!.color;
    if (!c) continue;
    let rival = -1;
    for (let k = 0; k < n; k++) if (k !== i && (rival < 0 || distance(bodies[k]!, c) < distance(bodies[rival]!, c))) rival = k;
    if (rival < 0) continue;
    const changed = colors[i] !== plain[i] || colors[rival] !== plain[rival];
    if (changed && distance(bodies[rival]!, c) - distance(bodies[i]!, c) < margin) doubtful[i] = doubtful[rival] = true;
  }
  return { colors, doubtful };
}

function popcount(x: number): number {
  let c = 0;
  for (; x; x &= x - 1) c++;
  return c;
}
