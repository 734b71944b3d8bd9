/**
 * The visual face classes: what a die face LOOKS like, which is what the classifier outputs.
 * Several sets share a look (a d6 "4" and a worm-set "4" are both four pips), so the CNN has one
 * output per look and `classOf` maps a set's face label onto it.
 */
import { DICE_SETS, type DiceSetId } from '../../shared/dice.js';

export const FACE_CLASSES = [
  'pips-1', 'pips-2', 'pips-3', 'pips-4', 'pips-5', 'pips-6', // d6 1–6, worm-set 1–5
  'worm', // worm-set 6
  'blank', 'ace', // piecepack null, ace
  'num-2', 'num-3', 'num-4', 'num-5', 'num-6', 'num-7', // piecepack 2–5, wurmeln 3–7
  'X', // wurmeln X
  'shape-I', 'shape-L', 'shape-U', 'shape-V', 'shape-W', 'shape-Z',
  'organ-eye', 'organ-mouth', 'organ-tail', 'organ-collar', 'organ-brain', 'organ-heart',
] as const;

export type FaceClass = (typeof FACE_CLASSES)[number];

const CLASS_SET: ReadonlySet<string> = new Set(FACE_CLASSES);

export function isFaceClass(value: string): value is FaceClass {
  return CLASS_SET.has(value);
}

/** Per set: face label → visual class. Every face of every set in `shared/dice.ts` is listed. */
const FACE_TO_CLASS: Readonly<Record<DiceSetId, Readonly<Record<string, FaceClass>>>> = {
  d6: { '1': 'pips-1', '2': 'pips-2', '3': 'pips-3', '4': 'pips-4', '5': 'pips-5', '6': 'pips-6' },
  worm: { '1': 'pips-1', '2': 'pips-2', '3': 'pips-3', '4': 'pips-4', '5': 'pips-5', worm: 'worm' },
  piecepack: { null: 'blank', ace: 'ace', '2': 'num-2', '3': 'num-3', '4': 'num-4', '5': 'num-5' },
  wurmeln: { '3': 'num-3', '4': 'num-4', '5': 'num-5', '6': 'num-6', '7': 'num-7', X: 'X' },
  'cozy-shape': { I: 'shape-I', L: 'shape-L', U: 'shape-U', V: 'shape-V', W: 'shape-W', Z: 'shape-Z' },
  'cozy-organ': {
    eye: 'organ-eye', mouth: 'organ-mouth', tail: 'organ-tail',
    collar: 'organ-collar', brain: 'organ-brain', heart: 'organ-heart',
  },
};

/** The visual class of a set's face label. Throws on an unknown set or face. */
export function classOf(set: DiceSetId, face: string): FaceClass {
  const table = FACE_TO_CLASS[set];
  if (!table) throw new Error(`classOf: unknown dice set "${String(set)}"`);
  const cls = Object.hasOwn(table, face) ? table[face] : undefined;
  if (!cls) {
    const faces = DICE_SETS[set].faces.join(', ');
    throw new Error(`classOf: "${face}" is not a face of dice set "${set}" (faces: ${faces})`);
  }
  return cls;
}

/** Every face of a set, in the set's order, with its visual class. */
export function facesOfSet(set: DiceSetId): { face: string; cls: FaceClass }[] {
  const def = DICE_SETS[set];
  if (!def) throw new Error(`facesOfSet: unknown dice set "${String(set)}"`);
  return def.faces.map((face) => ({ face, cls: classOf(set, face) }));
}

/** The face label a class has in a given set, or undefined when that set has no such face. */
export function faceOf(set: DiceSetId, cls: FaceClass): string | undefined {
  return facesOfSet(set).find((f) => f.cls === cls)?.face;
}

/** The distinct classes the faces of these sets can show (for masking the classifier). */
export function classesOfSets(sets: readonly DiceSetId[]): FaceClass[] {
  const wanted = new Set(sets.flatMap((s) => facesOfSet(s).map((f) => f.cls)));
  return FACE_CLASSES.filter((c) => wanted.has(c));
}
