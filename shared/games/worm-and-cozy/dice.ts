/**
 * The table's dice: the shape die and two organ dice, either the Cozy icon dice or three standard
 * d6 read through the chapter's tables, where the shape die is the one of the chapter's colour.
 */
import type { DiceRequest, Failure, Result } from '../../game.js';
import type { ObservedDie } from '../../dice.js';
import { fail, ok } from '../../game.js';
import type { Chapter } from './chapters.js';
import type { CozyMove } from './moves.js';
import { ORGAN_TYPES, SHAPE_NAMES, type DiceKind, type OrganType, type ShapeName } from './state.js';

export function cozyDiceRequest(chapter: Chapter, kind: DiceKind, label: string): DiceRequest {
  if (kind === 'cozy') {
    return {
      sets: ['cozy-shape', 'cozy-organ'],
      slots: [{ set: 'cozy-shape', role: 'shape' }, { set: 'cozy-organ', role: 'organ' }, { set: 'cozy-organ', role: 'organ' }],
      prompt: `Roll the shape die and both organ dice for ${label}`,
    };
  }
  const color = chapter.dice.shapeDieColor;
  return {
    sets: ['d6'],
    slots: [{ set: 'd6', role: 'shape', color }, { set: 'd6', role: 'organ' }, { set: 'd6', role: 'organ' }],
    prompt: `Roll the three dice for ${label} (the ${color} die is the shape die)`,
  };
}

const bad = (message: string): Failure => fail('dice/unexpected', message);

/**
 * Three observed dice → the roll move. Icon dice are read directly; a d6 is the shape die when it
 * has the chapter's shape-die colour, and its number goes through the chapter's tables.
 */
export function rollFromDice(chapter: Chapter, dice: readonly ObservedDie[]): Result<Extract<CozyMove, { type: 'roll' }>> {
  if (dice.length !== 3) return bad(`Worm & Cozy rolls 3 dice (a shape die and two organ dice); ${dice.length} ${dice.length === 1 ? 'was' : 'were'} read`);
  const color = chapter.dice.shapeDieColor;
  const shapes: ShapeName[] = [];
  const organs: OrganType[] = [];
  const d6: ObservedDie[] = [];
  for (const [i, d] of dice.entries()) {
    if (d.set === 'cozy-shape') {
      if (!SHAPE_NAMES.includes(d.face as ShapeName)) return bad(`die ${i + 1}: "${d.face}" is not a shape die face`);
      shapes.push(d.face as ShapeName);
    } else if (d.set === 'cozy-organ') {
      if (!ORGAN_TYPES.includes(d.face as OrganType)) return bad(`die ${i + 1}: "${d.face}" is not an organ die face`);
      organs.push(d.face as OrganType);
    } else if (d.set === 'd6') {
      if (!/^[1-6]$/.test(d.face)) return bad(`die ${i + 1}: "${d.face}" is not a d6 face`);
      d6.push(d);
    } else {
      return bad(`die ${i + 1} is from the ${d.set} set; Worm & Cozy uses the shape and organ dice or three d6`);
    }
  }
  if (d6.length > 0) {
    const coloured = d6.filter((d) => d.color === color);
    const needShape = 1 - shapes.length;
    if (needShape < 0) return bad(`${shapes.length} shape dice were read; there is one`);
    if (coloured.length !== needShape) {
      return bad(needShape === 0 ? `the shape die is already an icon die, but a ${color} d6 was read too` : `${coloured.length} ${color} dice were read: the shape die is the one ${color} die${d6.some((d) => !d.color) ? ' (some die colours are unknown: confirm them)' : ''}`);
    }
    for (const d of d6) {
      const n = Number(d.face) - 1;
      if (d.color === color) shapes.push(chapter.dice.shape[n]!);
      else organs.push(chapter.dice.organ[n]!);
    }
  }
  if (shapes.length !== 1 || organs.length !== 2) return bad(`need one shape die and two organ dice; read ${shapes.length} shape and ${organs.length} organ dice`);
  return ok({ type: 'roll', shape: shapes[0]!, organs: [organs[0]!, organs[1]!] });
}
