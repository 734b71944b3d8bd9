/**
 * The marks players draw on a sheet, as centrelines in a unit box (x right, y down, 0..1): the organ
 * letters, the crossed-out (used) brain, the food circle and the facing stroke. The printer draws
 * them clean in the legend; the photo synthesiser draws them by hand (jittered, slanted, pressed
 * lightly or hard) through the same centrelines.
 */
import type { OrganType } from '../../shared/games/worm-and-cozy/state.js';

export type Pt = [number, number];
/** One pen stroke: a polyline. */
export type Stroke = Pt[];

/** What a player writes in a cell. `usedBrain` is a B crossed out. */
export type MarkKind = OrganType | 'usedBrain' | 'food';

export const ORGAN_LETTER: Readonly<Record<OrganType, string>> = {
  eye: 'E',
  mouth: 'M',
  tail: 'T',
  collar: 'C',
  brain: 'B',
  heart: 'H',
};

function arc(cx: number, cy: number, rx: number, ry: number, a0: number, a1: number, steps = 10): Stroke {
  const out: Stroke = [];
  for (let i = 0; i <= steps; i++) {
    const a = a0 + ((a1 - a0) * i) / steps;
    out.push([cx + rx * Math.cos(a), cy + ry * Math.sin(a)]);
  }
  return out;
}

const D = Math.PI / 180;

/** A letter's strokes (the order a hand would draw them). */
const LETTERS: Readonly<Record<string, Stroke[]>> = {
  E: [
    [
      [0.85, 0],
      [0.1, 0],
      [0.1, 1],
      [0.85, 1],
    ],
    [
      [0.1, 0.5],
      [0.7, 0.5],
    ],
  ],
  M: [
    [
      [0.02, 1],
      [0.1, 0],
      [0.5, 0.62],
      [0.9, 0],
      [0.98, 1],
    ],
  ],
  T: [
    [
      [0.02, 0],
      [0.98, 0],
    ],
    [
      [0.5, 0],
      [0.5, 1],
    ],
  ],
  C: [arc(0.56, 0.5, 0.46, 0.5, -50 * D, -310 * D, 14)],
  B: [
    [
      [0.12, 1],
      [0.12, 0],
    ],
    [[0.12, 0], ...arc(0.5, 0.24, 0.36, 0.24, -90 * D, 90 * D, 8), [0.12, 0.48]],
    [[0.12, 0.48], ...arc(0.52, 0.74, 0.42, 0.26, -90 * D, 90 * D, 8), [0.12, 1]],
  ],
  H: [
    [
      [0.1, 0],
      [0.1, 1],
    ],
    [
      [0.9, 0],
      [0.9, 1],
    ],
    [
      [0.1, 0.5],
      [0.9, 0.5],
    ],
  ],
};

/** The strokes of a mark in its unit box. A used brain is the B with an X over it. */
export function markStrokes(kind: MarkKind): Stroke[] {
  if (kind === 'food') return [arc(0.5, 0.5, 0.5, 0.5, -100 * D, 275 * D, 18)];
  if (kind === 'usedBrain')
    return [
      ...LETTERS.B!,
      [
        [-0.15, -0.1],
        [1.15, 1.1],
      ],
      [
        [1.15, -0.1],
        [-0.15, 1.1],
      ],
    ];
  return LETTERS[ORGAN_LETTER[kind]]!;
}

/** Letter box aspect (width / height) a hand keeps for each mark. */
export function markAspect(kind: MarkKind): number {
  if (kind === 'food') return 1;
  if (kind === 'mouth') return 0.95;
  if (kind === 'eye' || kind === 'collar') return 0.62;
  if (kind === 'tail' || kind === 'heart') return 0.72;
  return 0.66;
}
