/**
 * Interned moves. `legalOptions` lists the same moves again and again (a placement, an organ on a
 * cell, a die change, a food on a cell), so each is made once per board and player, frozen, and
 * handed out every time it is legal. An option step lists a few hundred moves; making them afresh on
 * every call was the largest cost of a random game. Frozen, so no caller can change a shared move;
 * a move is still a plain JSON object with its keys in the order the move types give them.
 */
import type { PlayerId } from '../../game.js';
import type { Geometry } from './board.js';
import type { CozyMove } from './moves.js';
import { placementsOf } from './shapes.js';
import type { Dir, OrganType, ShapeName } from './state.js';

type Slots = (CozyMove | undefined)[];

/** One player's moves on one board, made on first use. */
export interface MoveBook {
  geo: Geometry;
  player: PlayerId;
  done: CozyMove;
  pass: CozyMove;
  /** Per shape: placeWorm moves indexed like `placementsOf(geo)[shape]`. */
  placements: Partial<Record<ShapeName, readonly CozyMove[]>>;
  /** addOrgan by `organSlot(type, facing)`, then cell. */
  organs: (Slots | undefined)[];
  /** changeDie by `dieSlot(die, face, brain)`. */
  dice: Slots | undefined;
  act: Slots | undefined;
  food: Slots | undefined;
  grow: Slots | undefined;
  /** activate by worm id. */
  activate: Slots;
}

const books = new WeakMap<Geometry, Map<PlayerId, MoveBook>>();
/** Players remembered per board: a long-running server meets many tables; a full shelf starts again. */
const PLAYERS_PER_BOARD = 64;

/** The last book handed out: a solo game asks for the same one on every call. */
let lastBook: MoveBook | null = null;

export function moveBook(geo: Geometry, player: PlayerId): MoveBook {
  if (lastBook !== null && lastBook.geo === geo && lastBook.player === player) return lastBook;
  lastBook = shelfBook(geo, player);
  return lastBook;
}

function shelfBook(geo: Geometry, player: PlayerId): MoveBook {
  let shelf = books.get(geo);
  if (!shelf) {
    shelf = new Map();
    books.set(geo, shelf);
  }
  let book = shelf.get(player);
  if (!book) {
    if (shelf.size >= PLAYERS_PER_BOARD) shelf.clear();
    book = {
      geo,
      player,
      done: Object.freeze({ type: 'done', player }),
      pass: Object.freeze({ type: 'pass', player }),
      placements: {},
      organs: [],
      dice: undefined,
      act: undefined,
      food: undefined,
      grow: undefined,
      activate: [],
    };
    shelf.set(player, book);
  }
  return book;
}

function slots(n: number): Slots {
  const out: Slots = [];
  for (let i = 0; i < n; i++) out.push(undefined);
  return out;
}

/** Option A's moves for a shape, indexed like its placements (the cell arrays are shared and frozen). */
export function placementMoves(book: MoveBook, shape: ShapeName): readonly CozyMove[] {
  let moves = book.placements[shape];
  if (!moves) {
    const p = placementsOf(book.geo)[shape];
    const made: CozyMove[] = [];
    for (let k = 0; k < p.count; k++) made.push(Object.freeze({ type: 'placeWorm', player: book.player, cells: p.names[k] as string[] }));
    book.placements[shape] = moves = made;
  }
  return moves;
}

const ORGAN_INDEX: Readonly<Record<OrganType, number>> = { eye: 0, mouth: 1, tail: 2, collar: 3, brain: 4, heart: 5 };
/** addOrgan `organ` on `cell`, facing by its code: 0 for none, then 1..4 for N, E, S, W. */
export function organMove(book: MoveBook, organ: OrganType, cell: number, facingCode: number): CozyMove {
  const table = (book.organs[ORGAN_INDEX[organ] * 5 + facingCode] ??= slots(book.geo.size));
  let move = table[cell];
  if (!move) {
    const name = book.geo.names[cell]!;
    const facing = FACINGS[facingCode];
    move = Object.freeze(facing === undefined ? { type: 'addOrgan', player: book.player, organ, cell: name } : { type: 'addOrgan', player: book.player, organ, cell: name, facing });
    table[cell] = move;
  }
  return move;
}

const FACINGS: readonly (Dir | undefined)[] = [undefined, 'N', 'E', 'S', 'W'];

const SHAPE_INDEX: Readonly<Record<ShapeName, number>> = { I: 0, L: 1, U: 2, V: 3, W: 4, Z: 5 };

/** A die change to `face` (a shape for die 0, an organ for dice 1 and 2), with the brain at `brain` (−1: a brain that acted last hour). */
export function changeDieMove(book: MoveBook, die: 0 | 1 | 2, face: ShapeName | OrganType, brain: number): CozyMove {
  const faceIndex = die === 0 ? SHAPE_INDEX[face as ShapeName] : ORGAN_INDEX[face as OrganType];
  const table = (book.dice ??= slots((book.geo.size + 1) * 18));
  const slot = ((brain + 1) * 3 + die) * 6 + faceIndex;
  let move = table[slot];
  if (!move) {
    move = Object.freeze(brain < 0 ? { type: 'changeDie', player: book.player, die, face } : { type: 'changeDie', player: book.player, die, face, brain: book.geo.names[brain]! });
    table[slot] = move;
  }
  return move;
}

export function actMove(book: MoveBook, cell: number): CozyMove {
  const table = (book.act ??= slots(book.geo.size));
  return (table[cell] ??= Object.freeze({ type: 'act', player: book.player, cell: book.geo.names[cell]! }));
}

export function foodMove(book: MoveBook, cell: number): CozyMove {
  const table = (book.food ??= slots(book.geo.size));
  return (table[cell] ??= Object.freeze({ type: 'food', player: book.player, cell: book.geo.names[cell]! }));
}

/** One growth step to `cell` without `from` (the tip is not ambiguous). */
export function growMove(book: MoveBook, cell: number): CozyMove {
  const table = (book.grow ??= slots(book.geo.size));
  return (table[cell] ??= Object.freeze({ type: 'grow', player: book.player, cells: Object.freeze([book.geo.names[cell]!]) as string[] }));
}

export function activateMove(book: MoveBook, worm: number): CozyMove {
  const table = book.activate;
  while (table.length <= worm) table.push(undefined);
  return (table[worm] ??= Object.freeze({ type: 'activate', player: book.player, worm }));
}
