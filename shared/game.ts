/**
 * The shape every game in clew takes (after boardgame.io's game object and chess.js's query API).
 *
 * A game is pure: no I/O, no clock, no randomness. Dice faces arrive as observations inside moves.
 * The server holds the authoritative state and calls these functions; the browser imports the same
 * code to draw highlights. State is plain JSON: it crosses the socket and lands in the event log.
 */
import type { z } from 'zod';
import type { DiceSetId, ObservedDie } from './dice.js';

/** Namespaced error codes: `<area>/<what>`, e.g. `move/illegal`, `sheet/invalid`, `auth/not-referee`. */
export type ErrorNamespace =
  | 'move'
  | 'setup'
  | 'sheet'
  | 'dice'
  | 'intent'
  | 'auth'
  | 'table'
  | 'payload'
  | 'rate'
  | 'camera'
  | 'calibration'
  | 'photo'
  | 'log'
  | 'server';
export type ErrorCode = `${ErrorNamespace}/${string}`;

/** Common codes every game uses; games may add their own in the same namespaces. */
export const Errors = {
  illegal: 'move/illegal',
  notYourTurn: 'move/not-your-turn',
  wrongPhase: 'move/wrong-phase',
  malformed: 'move/malformed',
  gameOver: 'move/game-over',
  setupInvalid: 'setup/invalid',
  sheetInvalid: 'sheet/invalid',
} as const satisfies Record<string, ErrorCode>;

export type Failure = { ok: false; code: ErrorCode; message: string };
export type Result<S> = { ok: true; state: S } | Failure;

export function ok<S>(state: S): Result<S> {
  return { ok: true, state };
}
export function fail(code: ErrorCode, message: string): Failure {
  return { ok: false, code, message };
}

export type GameId = 'worm-and-cozy' | 'the-worm-is-drawn' | 'worm-up' | 'worm-derby' | 'tapeworm';
export const GAME_IDS: readonly GameId[] = ['worm-and-cozy', 'the-worm-is-drawn', 'worm-up', 'worm-derby', 'tapeworm'];

export type PlayerId = string;

/** A seat at the table, chosen at setup. `color` is the player's dice colour where the game uses one. */
export interface PlayerInfo {
  id: PlayerId;
  name: string;
  color?: string;
}

/** Who may submit a move: table moves (advance the hour, record the roll) need the referee or the buttons. */
export type Authority = { kind: 'table' } | { kind: 'player'; player: PlayerId };

/** Hardware/dashboard buttons the table knows. BACK (undo) and READ (camera) are handled by the server. */
export type ButtonName = 'NEXT' | 'BACK' | 'READ' | 'OK';

/** One die the camera should find: which set, and optionally the colour or role that tells it apart. */
export interface DiceSlot {
  set: DiceSetId;
  /** e.g. 'shape' for the Worm & Cozy shape die, or a player id for Worm-up bids. */
  role?: string;
  /** Named colour (see DIE_COLORS) that identifies this die, when the game fixes one. */
  color?: string;
}

/** What the camera should read now, or null when the game expects no dice. */
export interface DiceRequest {
  /** Dice sets in play, for the classifier mask (a roll may mix sets, e.g. d6 stand-ins). */
  sets: DiceSetId[];
  /** The dice expected; `count` for games where any number may appear (e.g. 1..8 remaining dice). */
  slots?: DiceSlot[];
  count?: { min: number; max: number };
  /**
   * Colours to name every die from, where the game tells dice apart by colour and dice of colours
   * its slots do not name may lie in the tray (Worm-up: the spare dice beside the bids, the bids
   * beside the ghost's dice). Without it the palette is the slots' colours. With it, slots that
   * name no colour are not fitted to (the game picks its dice by colour): every die is kept.
   */
  colors?: string[];
  /** Plain words for the phone: "Roll the shape die and both organ dice". */
  prompt: string;
}

/** A short, display-ready summary that every game can give (the referee screen's headline). */
export interface GameStatus {
  /** e.g. "3 AM", "Round 4", "Alice's turn". */
  headline: string;
  /** Players expected to act now (empty when the table must advance). */
  toAct: PlayerId[];
  finished: boolean;
  /** Final ranking when finished: player ids, best first (ties share a rank index). */
  ranking?: { player: PlayerId; rank: number; score: number }[];
}

/**
 * One game. `S` state, `M` move, `Q` legal-options query, `L` legal-options result, `O` setup
 * options, `Sc` score. Every function is pure and total: a bad move gives a Failure, never a throw.
 */
export interface GameDefinition<S, M, Q = unknown, L = unknown, O = unknown, Sc = unknown> {
  id: GameId;
  title: string;
  /** Validates plain JSON from the phone or the log into setup options. */
  optionsSchema: z.ZodType<O>;
  /** Validates plain JSON into a move (shape only; legality is `apply`'s job). */
  moveSchema: z.ZodType<M>;
  setup(options: O): Result<S>;
  legalOptions(state: S, query?: Q): L;
  apply(state: S, move: M): Result<S>;
  score(state: S): Sc;
  players(state: S): PlayerInfo[];
  authority(state: S, move: M): Authority;
  status(state: S): GameStatus;
  /** What the camera should read now (null: no dice expected). */
  diceRequest(state: S): DiceRequest | null;
  /** Turns a settled, confirmed roll into the move it means in this state. */
  diceMove(state: S, dice: ObservedDie[]): Result<M>;
  /** The move a hardware button means now (e.g. NEXT ends the hour), or null if it means nothing. */
  buttonMove(state: S, button: ButtonName): M | null;
  /**
   * The seat this move belongs to when it changes that seat's own things and nothing any other seat
   * reads (its own sheet in a game played at once), so that such moves of different seats can be
   * decided in either order; null for every other move. With it, the server takes a move made on a
   * slightly older table when only other seats' such moves came in between. Without it (games in
   * turns), every intent needs the table's exact version.
   */
  independentSeat?(move: M): PlayerId | null;
}

/**
 * The server's view of a game: the same functions with state and moves opaque (`unknown`), and the
 * edge validation done inside, so the transport never holds an unvalidated move and no `any`
 * crosses the boundary.
 */
export interface TableGame {
  id: GameId;
  title: string;
  setup(options: unknown): Result<unknown>;
  /** Validates the move's shape with the game's schema, then applies it. */
  apply(state: unknown, move: unknown): Result<unknown>;
  /** Who may submit this move, or a Failure if the move is malformed. */
  authority(state: unknown, move: unknown): Authority | Failure;
  legalOptions(state: unknown, query?: unknown): unknown;
  score(state: unknown): unknown;
  players(state: unknown): PlayerInfo[];
  status(state: unknown): GameStatus;
  diceRequest(state: unknown): DiceRequest | null;
  diceMove(state: unknown, dice: ObservedDie[]): Result<unknown>;
  buttonMove(state: unknown, button: ButtonName): unknown | null;
  /** See GameDefinition.independentSeat; null for a malformed move. Absent: the game declares none. */
  independentSeat?(move: unknown): PlayerId | null;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}

/** Wraps a typed definition for the server. State passed back in must be one this game produced. */
export function toTableGame<S, M, Q, L, O, Sc>(def: GameDefinition<S, M, Q, L, O, Sc>): TableGame {
  const parseMove = (move: unknown): { ok: true; move: M } | Failure => {
    const parsed = def.moveSchema.safeParse(move);
    return parsed.success
      ? { ok: true, move: parsed.data }
      : fail(Errors.malformed, `not a ${def.title} move: ${describeIssues(parsed.error)}`);
  };
  return {
    id: def.id,
    title: def.title,
    setup(options) {
      const parsed = def.optionsSchema.safeParse(options);
      if (!parsed.success) return fail(Errors.setupInvalid, `bad ${def.title} options: ${describeIssues(parsed.error)}`);
      return def.setup(parsed.data);
    },
    apply(state, move) {
      const m = parseMove(move);
      return m.ok ? def.apply(state as S, m.move) : m;
    },
    authority(state, move) {
      const m = parseMove(move);
      return m.ok ? def.authority(state as S, m.move) : m;
    },
    legalOptions: (state, query) => def.legalOptions(state as S, query as Q | undefined),
    score: (state) => def.score(state as S),
    players: (state) => def.players(state as S),
    status: (state) => def.status(state as S),
    diceRequest: (state) => def.diceRequest(state as S),
    diceMove: (state, dice) => def.diceMove(state as S, dice),
    buttonMove: (state, button) => def.buttonMove(state as S, button),
    ...(def.independentSeat
      ? {
          independentSeat: (move: unknown) => {
            const m = parseMove(move);
            return m.ok ? (def.independentSeat?.(m.move) ?? null) : null;
          },
        }
      : {}),
  };
}
