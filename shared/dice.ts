/**
 * The dice sets clew's games use, as data. A face label is what the rules, the protocol, the
 * command line and the dashboard all say: "4", "worm", "null", "ace", "X", "L", "eye".
 * How each face looks (pips, numeral, icon) is the vision module's face art.
 */

export type DiceSetId = 'd6' | 'worm' | 'piecepack' | 'wurmeln' | 'cozy-shape' | 'cozy-organ';

export interface DiceSet {
  id: DiceSetId;
  name: string;
  /** Face labels in the order of a standard die's numbers 1..6 where that means something. */
  faces: readonly string[];
  description: string;
}

export const DICE_SETS: Readonly<Record<DiceSetId, DiceSet>> = {
  d6: { id: 'd6', name: 'Standard d6', faces: ['1', '2', '3', '4', '5', '6'], description: 'pips 1–6' },
  worm: {
    id: 'worm',
    name: 'The worm is drawn',
    faces: ['1', '2', '3', '4', '5', 'worm'],
    description: 'pips 1–5 and a worm in place of the 6',
  },
  piecepack: {
    id: 'piecepack',
    name: 'Piecepack',
    faces: ['null', 'ace', '2', '3', '4', '5'],
    description: 'null (blank), ace, numerals 2–5',
  },
  wurmeln: { id: 'wurmeln', name: 'Worm-up (Würmeln)', faces: ['3', '4', '5', '6', '7', 'X'], description: 'numerals 3–7 and X' },
  'cozy-shape': {
    id: 'cozy-shape',
    name: 'Worm & Cozy shape die',
    faces: ['I', 'L', 'U', 'V', 'W', 'Z'],
    description: 'six pentomino silhouettes',
  },
  'cozy-organ': {
    id: 'cozy-organ',
    name: 'Worm & Cozy organ die',
    faces: ['eye', 'mouth', 'tail', 'collar', 'brain', 'heart'],
    description: 'six organ icons',
  },
};

export const DICE_SET_IDS = Object.keys(DICE_SETS) as DiceSetId[];

export function isFaceOf(set: DiceSetId, face: string): boolean {
  return DICE_SETS[set].faces.includes(face);
}

/** One die as read by the camera or entered on a phone. */
export interface ObservedDie {
  set: DiceSetId;
  face: string;
  /** Named die colour from the palette, when known. */
  color?: string;
  /** 0..1; absent for a face a person entered or confirmed. */
  confidence?: number;
  /** Pixel box in the frame [x0, y0, x1, y1], when read from an image. */
  box?: [number, number, number, number];
}

/**
 * Named die colours (sRGB of a typical die body under white light). Games name their dice with
 * these; the reader matches a die's body pixels to the nearest entry of the palette in play.
 */
export const DIE_COLORS: Readonly<Record<string, readonly [number, number, number]>> = Object.freeze(
  // No prototype: a name a phone sends ("constructor", "toString") finds nothing, wherever it is looked up.
  Object.assign(Object.create(null) as Record<string, readonly [number, number, number]>, {
    white: [235, 235, 230],
    ivory: [230, 220, 190],
    black: [30, 30, 32],
    red: [190, 30, 35],
    orange: [235, 120, 30],
    yellow: [240, 200, 40],
    green: [40, 140, 60],
    blue: [35, 80, 170],
    purple: [110, 50, 140],
    pink: [230, 120, 170],
    brown: [120, 75, 40],
    grey: [140, 140, 140],
  } satisfies Record<string, readonly [number, number, number]>),
);

/** Whether `name` is one of DIE_COLORS (its own entries, not an object's built-in keys such as "constructor"). */
export function isDieColor(name: string): boolean {
  return Object.hasOwn(DIE_COLORS, name);
}

