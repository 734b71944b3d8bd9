/** The dice of one turn: what was kept, what it is worth, what may be kept from a roll. */
import type { Rules } from './data.js';
import { FACES, type Face, type Kept } from './types.js';

export function faceValue(face: Face, rules: Rules): number {
  return face === 'worm' ? rules.wormValue : Number(face);
}

export function keptCount(kept: readonly Kept[]): number {
  return kept.reduce((n, k) => n + k.count, 0);
}

/** The running total: every kept die's value, a worm counting the preset's worm value. */
export function total(kept: readonly Kept[], rules: Rules): number {
  return kept.reduce((sum, k) => sum + k.count * faceValue(k.face, rules), 0);
}

export function wormHeld(kept: readonly Kept[]): boolean {
  return kept.some((k) => k.face === 'worm');
}

export function isKept(kept: readonly Kept[], face: Face): boolean {
  return kept.some((k) => k.face === face);
}

/** How many dice of each face a roll shows, in face order, faces absent from the roll left out. */
export function countFaces(roll: readonly Face[]): { face: Face; count: number }[] {
  // One pass: this runs on every legality check.
  const counts = [0, 0, 0, 0, 0, 0];
  for (const f of roll) counts[FACE_INDEX[f]]!++;
  const out: { face: Face; count: number }[] = [];
  FACES.forEach((face, i) => counts[i]! > 0 && out.push({ face, count: counts[i]! }));
  return out;
}

const FACE_INDEX: Record<Face, number> = { '1': 0, '2': 1, '3': 2, '4': 3, '5': 4, worm: 5 };

/** Only dice of a value not already kept may be taken. */
export function keepableFaces(roll: readonly Face[], kept: readonly Kept[]): { face: Face; count: number }[] {
  return countFaces(roll).filter((c) => !isKept(kept, c.face));
}

/** Once every face has been kept, no roll can show a new one. */
export function allFacesKept(kept: readonly Kept[]): boolean {
  return FACES.every((f) => isKept(kept, f));
}
