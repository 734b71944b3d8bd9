/**
 * The Worm & Cozy state model: plain JSON, small, crosses the socket and lands in the log.
 *
 * Cells are compact indices (`row * width + column`, A1 = 0) inside the state; moves, the sheet
 * format and the notation use cell names like `C7`. Worm ids are 1-based and never reused (worms
 * are never removed), so `sheet.worms[id - 1]` is worm `id`.
 */
import type { PlayerInfo } from '../../game.js';
import type { Chapter } from './chapters.js';

export type ShapeName = 'I' | 'L' | 'U' | 'V' | 'W' | 'Z';
export const SHAPE_NAMES: readonly ShapeName[] = ['I', 'L', 'U', 'V', 'W', 'Z'];

export type OrganType = 'eye' | 'mouth' | 'tail' | 'collar' | 'brain' | 'heart';
export const ORGAN_TYPES: readonly OrganType[] = ['eye', 'mouth', 'tail', 'collar', 'brain', 'heart'];

/** Compass facing on the sheet: N is up (towards row 1), E is right (towards the last column). */
export type Dir = 'N' | 'E' | 'S' | 'W';
export const DIRS: readonly Dir[] = ['N', 'E', 'S', 'W'];

export interface Organ {
  type: OrganType;
  cell: number;
  /** Eyes and mouths face forward; a tail points outward from the rear tip. */
  facing?: Dir;
  /** A brain that has been filled in (used up to change a die); it never acts again. */
  filled?: boolean;
}

export interface Worm {
  id: number;
  /** An ordered path of orthogonally adjacent cells. When `front` is true, `cells[0]` is the front tip. */
  cells: number[];
  /** False until an eye, mouth or tail fixes which end is the front. */
  front: boolean;
  /** The shape it was placed with (kept after growth for matching the shape die); null for babies. */
  shape: ShapeName | null;
  organs: Organ[];
  /** Size of this worm's one largest extension so far (heart growth). */
  ext: number;
  /** Babies: the two parent worm ids and the hour index they were made. */
  parents?: [number, number];
  born?: number;
}

/** The three dice as one player sees them: the table's roll, then that player's brain changes. */
export interface Roll {
  shape: ShapeName;
  organs: [OrganType, OrganType];
}

/**
 * One pending optional decision of a chain reaction. The player's `stack` holds them, the top (last)
 * is decided first; when it is done the one below continues (Tito returns to his tail's action).
 */
export type Pending =
  /** Add one organ to `worm`: option A's organ (`must`, one of the rolled `types`), a mouth's (any type). */
  | { k: 'organ'; worm: number; types: OrganType[]; must: boolean }
  /** These organs may act now, in any order (the new organ; option C's worm; mouths at a new food). */
  | { k: 'act'; cells: number[] }
  /** The acting eye may still add `left` foods in cells it can see. */
  | { k: 'food'; eye: number; left: number }
  /** A heart's growth: up to `max` cells from the front tip or a tailless rear tip; `end` fixed by the first cell. */
  | { k: 'grow'; worm: number; max: number; end: 'front' | 'rear' | null; grown: number }
  /** A tail acted and several conga lines contain its worm: choose one (worm ids in link order). */
  | { k: 'line'; lines: number[][] }
  /** One organ (not a tail) may act on each of these worms but one: `left` more, `used` worms done. */
  | { k: 'conga'; worms: number[]; used: number[]; left: number }
  /** A collar acted: choose its partner among the touching worms with a collar. */
  | { k: 'partner'; worm: number; partners: number[] }
  /** The collar's `left` actions: each places a baby or gives our babies made this hour an organ each. */
  | { k: 'collar'; worm: number; partner: number; left: number }
  /** Give each of these babies one organ (not a collar); then every added organ may act. */
  | { k: 'babyOrgans'; babies: number[]; added: number[] };

export type PendingKind = Pending['k'];

export type OptionLetter = 'A' | 'B' | 'C';

/** One player's paper sheet and where they are in the current hour. */
export interface PlayerSheet {
  worms: Worm[];
  /** Cells holding a food (foods stay where they are drawn). */
  foods: number[];
  /** This player's dice this hour (null until the table rolls). */
  dice: Roll | null;
  /** Die changes still available from brains that acted last hour. */
  credits: number;
  /** Of those, the ones used this hour (absent for none): "all used" is then told from "none". */
  creditsUsed?: number;
  /** The option chosen this hour, once chosen. */
  option: OptionLetter | null;
  /** Organ cells that have acted this hour (each organ acts at most once per hour). */
  acted: number[];
  stack: Pending[];
  /** Finished with this hour (chose nothing, or the option's chain reactions are all resolved). */
  done: boolean;
}

/** A finished paper sheet given to a seat at the end (`paperSheet`), as the sheet file showed it. */
export interface PaperSheet {
  worms: Worm[];
  foods: number[];
}

export type Phase = 'roll' | 'play' | 'over';

export type DiceKind = 'standard' | 'cozy';

export interface CozyState {
  game: 'worm-and-cozy';
  v: 1;
  chapter: Chapter;
  /** Which dice the table rolls: three d6 (shape die told by colour) or the Cozy icon dice. */
  dice: DiceKind;
  players: PlayerInfo[];
  /** 0-based hour index: 0 is 1 AM. */
  hour: number;
  phase: Phase;
  /** The table's roll this hour (null before it is recorded). */
  roll: Roll | null;
  /** One sheet per player, in the order of `players`. */
  sheets: PlayerSheet[];
  /**
   * Paper sheets given to seats once the game is over, in the order of `players` (null: none given).
   * Absent until the first is given, so states and logs from before it read the same. Only the
   * `paperSheet` move (accepted only when `over`) sets it, so no hour's move has to carry it.
   */
  paper?: (PaperSheet | null)[];
}
