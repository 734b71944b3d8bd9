/**
 * Worm & Cozy on the phone, as pure helpers over the engine's own legal moves: the orientations
 * of the rolled shape (rotate, flip) and the placements in each, which moves a tap on a cell
 * means, and each move in plain words. Nothing here decides legality: the engine's
 * `legalOptions(state, { verbose: true })` does, and these functions only sort its answer.
 */
import { parseCellName } from '../../../../shared/games/worm-and-cozy/board.js';
import type { CozyMove, Dir, OrganType, ShapeName } from '../../../../shared/games/worm-and-cozy/index.js';
import { ORIENTATIONS } from '../../../../shared/games/worm-and-cozy/index.js';
import type { VerboseMove } from '../../../../shared/games/worm-and-cozy/options.js';

type Pt = readonly [number, number];

function points(cells: readonly string[]): Pt[] {
  return cells.map((c) => {
    const p = parseCellName(c);
    if (!p) throw new Error(`not a cell name: ${c}`);
    return p;
  });
}

function keyOf(pts: readonly Pt[]): string {
  const mx = Math.min(...pts.map((p) => p[0]));
  const my = Math.min(...pts.map((p) => p[1]));
  return pts
    .map(([x, y]) => `${x - mx},${y - my}`)
    .sort()
    .join(' ');
}

function parseKey(key: string): Pt[] {
  return key.split(' ').map((s) => s.split(',').map(Number) as unknown as Pt);
}

/** The orientation of a set of cells: its cells moved to the top-left corner, as a sortable key. */
export function orientationKey(cells: readonly string[]): string {
  return keyOf(points(cells));
}

/** A quarter turn clockwise (on the sheet, y grows downwards). */
export function rotateKey(key: string): string {
  return keyOf(parseKey(key).map(([x, y]) => [-y, x] as const));
}

/** A mirror image, left to right. */
export function flipKey(key: string): string {
  return keyOf(parseKey(key).map(([x, y]) => [-x, y] as const));
}

/** The cells of an orientation as (column, row) offsets, for drawing its small picture. */
export function keyCells(key: string): Pt[] {
  return parseKey(key);
}

/** Every distinct orientation of a shape, in the engine's order. */
export function shapeOrientations(shape: ShapeName): string[] {
  return ORIENTATIONS[shape].map((pts) => keyOf(pts));
}

export type PlaceMove = Extract<CozyMove, { type: 'placeWorm' }>;

export interface Placements {
  /** The legal placements, by orientation key. */
  byKey: Map<string, PlaceMove[]>;
}

export function groupPlacements(moves: readonly CozyMove[]): Placements {
  const byKey = new Map<string, PlaceMove[]>();
  for (const m of moves) {
    if (m.type !== 'placeWorm') continue;
    const k = orientationKey(m.cells);
    const list = byKey.get(k);
    if (list) list.push(m);
    else byKey.set(k, [m]);
  }
  return { byKey };
}

/** The first orientation with room on the board (rotating from the shape's first), or the first. */
export function startingOrientation(shape: ShapeName, placements: Placements): string {
  const all = shapeOrientations(shape);
  return all.find((k) => placements.byKey.has(k)) ?? all[0]!;
}

/** Cells covered by some legal placement in this orientation (highlighted on the board). */
export function placementCells(placements: Placements, key: string): Set<string> {
  const out = new Set<string>();
  for (const m of placements.byKey.get(key) ?? []) for (const c of m.cells) out.add(c);
  return out;
}

/**
 * A tap on `cell` while placing: the placements of the chosen orientation that cover it (the
 * `nth` of them, so tapping again slides the shape to the next fit), or, when none in that
 * orientation covers it, the first orientation that does.
 */
export function placementAt(placements: Placements, key: string, cell: string, nth: number): { key: string; move: PlaceMove } | null {
  const inKey = (k: string) => (placements.byKey.get(k) ?? []).filter((m) => m.cells.includes(cell));
  let k = key;
  let hits = inKey(k);
  if (hits.length === 0) {
    for (const other of placements.byKey.keys()) {
      hits = inKey(other);
      if (hits.length) {
        k = other;
        break;
      }
    }
  }
  if (hits.length === 0) return null;
  return { key: k, move: hits[nth % hits.length]! };
}

/** Moves a tap on `cell` may mean: those whose highlighted cells include it. */
export function movesAtCell(moves: readonly VerboseMove[], cell: string): VerboseMove[] {
  return moves.filter((m) => m.cells.includes(cell));
}

/**
 * Growing a baby (2 or 3 cells) by tapping cells one by one: the moves that still fit the cells
 * chosen so far, and the move when the choice is complete.
 */
export function babyChoice(moves: readonly CozyMove[], chosen: readonly string[]): { fits: Extract<CozyMove, { type: 'baby' }>[]; complete: Extract<CozyMove, { type: 'baby' }> | null } {
  const fits = moves.filter((m): m is Extract<CozyMove, { type: 'baby' }> => m.type === 'baby' && chosen.every((c) => m.cells.includes(c)));
  const complete = fits.find((m) => m.cells.length === chosen.length) ?? null;
  return { fits, complete };
}

const DIR_WORD: Record<Dir, string> = { N: 'up', E: 'right', S: 'down', W: 'left' };
export const dirWord = (d: Dir): string => DIR_WORD[d];

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
/** Letters as they are said: "an L", "a U". */
const shapeArticle = (shape: ShapeName) => (shape === 'I' || shape === 'L' ? `an ${shape}` : `a ${shape}`);

/** What a move does, in plain words (the confirm button says this). `organAt` names an acting organ. */
export function describeMove(move: CozyMove, organAt: (cell: string) => OrganType | undefined = () => undefined): string {
  switch (move.type) {
    case 'roll':
      return `Roll: ${move.shape}, ${move.organs[0]} and ${move.organs[1]}`;
    case 'endHour':
      return 'End the hour';
    case 'placeWorm':
      return `Draw the worm on ${[...move.cells].sort().join(', ')}`;
    case 'addOrgan':
      return `Add ${article(move.organ)} at ${move.cell}${move.facing ? `, facing ${DIR_WORD[move.facing]}` : ''}`;
    case 'activate':
      return `Worm ${move.worm}: each of its organs acts`;
    case 'act': {
      const organ = organAt(move.cell);
      return `${organ ? `The ${organ}` : 'The organ'} at ${move.cell} acts`;
    }
    case 'food':
      return `Add a food at ${move.cell}`;
    case 'grow':
      return `Grow into ${move.cells.join(', ')}${move.from ? ` from the tip at ${move.from}` : ''}`;
    case 'congaLine':
      return `Conga line: worms ${move.worms.join(' → ')}`;
    case 'partner':
      return `Worm ${move.worm} is the partner`;
    case 'baby':
      return `A baby worm on ${move.cells.join(', ')}`;
    case 'babyOrgans':
      return 'Give each baby made this hour an organ';
    case 'changeDie':
      return `Change ${move.die === 0 ? 'the shape die' : `organ die ${move.die}`} to ${move.face}${move.brain ? ` (fill in the brain at ${move.brain})` : ' (a brain that acted last hour)'}`;
    case 'pass':
      return 'Skip this';
    case 'done':
      return 'Nothing more this hour';
    case 'paperSheet':
      return `Give ${move.player} the score of the paper sheet`;
  }
}

/** Options A, B and C for this roll, in plain words. */
export function optionTexts(shape: ShapeName, organs: readonly [OrganType, OrganType]): { A: string; B: string; C: string } {
  const [x, y] = organs;
  const either = x === y ? article(x) : `${article(x)} or ${article(y)}`;
  return {
    A: `Draw a new ${shape} worm touching the hour's region, and give it ${either}.`,
    B: x === y ? `Add ${article(x)} to a worm in the region that is ${shapeArticle(shape)} or has ${article(x)}.` : `Add ${either} to a worm in the region that has the other one, or is ${shapeArticle(shape)}.`,
    C: `Every organ of one worm in the region acts (a worm that is ${shapeArticle(shape)}, or has ${either}).`,
  };
}
