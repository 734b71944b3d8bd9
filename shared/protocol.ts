/**
 * The typed socket.io protocol between the phones and the table server.
 *
 * One way for state: phone or button → `intent {version, intent}` → validate → apply → append to
 * the log (fsync) → version + 1 → `snapshot` to every phone. On every (re)connect the phone gets
 * the latest snapshot. A stale, illegal or malformed intent gets an `error` and changes nothing.
 *
 * The schemas here are the edge validation: nothing reaches the rules without passing them.
 *
 * Joining: a phone that connects is a viewer (it sees the table, it cannot act). It becomes a
 * player (one of the seats) with the join code, or the referee with the referee code, either by
 * emitting `join` or, better, by putting the same request in the handshake
 * (`io(url, { auth: { code, role, player } })`), so every reconnect lands back in its seat and
 * its first snapshot already says who it is.
 *
 * Answers: `join`, `intent` and `frame` take an ack callback and answer with an `Ack`; without a
 * callback, a refusal comes as an `error` event instead. Refusal codes the server uses (besides
 * the games' own `move/…`, `setup/…` and `dice/…` codes):
 *   intent/stale          the version is not the table's (the ack carries the current version)
 *   auth/not-joined       no join code yet          auth/bad-code        wrong join/referee code
 *   auth/no-such-seat     not one of the seats      auth/not-referee     referee or buttons only
 *   auth/not-your-move    another player's move     rate/limited, rate/join  too fast
 *   payload/invalid       fails the schema below    payload/too-large, payload/too-deep
 *   payload/unknown-event table/nothing-to-undo, table/button-unused, table/unknown-game
 *   dice/no-roll, dice/not-expected, dice/wrong-set, dice/bad-face, dice/wrong-count, dice/no-such-die,
 *   dice/last-die, dice/too-many, dice/bad-color
 *   camera/…              the camera or phone frames   calibration/…   teaching the dice
 *   log/write-failed      the change could not be saved, so it was not made
 *   server/internal       a bug; nothing was changed (details only in the server's log)
 */
import { z } from 'zod';
import { DICE_SET_IDS, type DiceSetId, type ObservedDie } from './dice.js';
import { GAME_IDS, type ButtonName, type DiceRequest, type ErrorCode, type GameId, type GameStatus, type PlayerId, type PlayerInfo } from './game.js';

export const PROTOCOL_VERSION = 1;

/** Largest socket.io message the server accepts (bytes); camera frames from phones fit under it. */
export const MAX_PAYLOAD_BYTES = 1_000_000;

/** Largest intent (as JSON text): moves and setup options are small; only frames are big. */
export const MAX_INTENT_CHARS = 64_000;

const diceSetId = z.enum(DICE_SET_IDS as [DiceSetId, ...DiceSetId[]]);
const gameId = z.enum(GAME_IDS as [GameId, ...GameId[]]);
const shortText = z.string().min(1).max(64);

export const observedDieSchema = z.object({
  set: diceSetId,
  face: z.string().min(1).max(16),
  color: z.string().max(24).optional(),
  confidence: z.number().min(0).max(1).optional(),
  box: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional(),
});

export const joinSchema = z.object({
  code: z.string().min(1).max(16),
  role: z.enum(['referee', 'player']),
  /** A player joins as one of the table's seats. */
  player: shortText.optional(),
});
export type JoinRequest = z.infer<typeof joinSchema>;

export const intentSchema = z.discriminatedUnion('type', [
  /** A game move; its shape is checked by the game's own schema. */
  z.object({ type: z.literal('move'), move: z.unknown() }),
  /** Undo the last accepted action (referee or buttons only). Undo is itself an event. */
  z.object({ type: z.literal('undo') }),
  /** The dashboard's on-screen hardware buttons (referee only). */
  z.object({ type: z.literal('button'), button: z.enum(['NEXT', 'BACK', 'READ', 'OK']) }),
  /** Start a new game at this table (referee only). */
  z.object({ type: z.literal('table/setup'), game: gameId, options: z.unknown() }),
  /** Ask the camera to read the tray again. */
  z.object({ type: z.literal('dice/read') }),
  /**
   * Correct one die of the pending roll; the correction is recorded. `color` corrects the die's
   * colour too (it tells the Worm & Cozy shape die or a Worm-up player's bid).
   */
  z.object({ type: z.literal('dice/correct'), index: z.number().int().min(0).max(31), face: z.string().min(1).max(16), color: z.string().min(1).max(24).optional() }),
  /**
   * Take die `index` out of the pending roll: the camera boxed something that is no die of this
   * roll (a shadow, a die left aside). The camera's later reads of the same tray keep it out.
   */
  z.object({ type: z.literal('dice/remove'), index: z.number().int().min(0).max(31) }),
  /** Add a die the camera missed to the pending roll (`set` one of the roll's sets). */
  z.object({ type: z.literal('dice/add'), die: observedDieSchema }),
  /** Enter a whole roll by hand (no camera, or the camera is wrong). */
  z.object({ type: z.literal('dice/manual'), dice: z.array(observedDieSchema).min(1).max(16) }),
  /** Use the pending roll: it becomes the game's move for this roll. */
  z.object({ type: z.literal('dice/confirm') }),
  /** "Teach clew your dice": label the crop of die `index` of the pending roll as `face` for its set. */
  z.object({ type: z.literal('calibration/label'), set: diceSetId, index: z.number().int().min(0).max(31), face: z.string().min(1).max(16) }),
  z.object({ type: z.literal('calibration/commit'), set: diceSetId }),
  z.object({ type: z.literal('calibration/undo'), set: diceSetId }),
  /**
   * The tray camera's newest frame is the tray without dice: later frames are compared with it to
   * find the dice (a patterned cloth, a plank's grain and a lamp's hot spot are then the tray).
   */
  z.object({ type: z.literal('tray/learn') }),
  /** Forget the empty tray: the tray is modelled from each frame again. */
  z.object({ type: z.literal('tray/forget') }),
]);
export type Intent = z.infer<typeof intentSchema>;

export const intentEnvelopeSchema = z.object({
  /** The snapshot version the phone acted on; a different current version rejects the intent. */
  version: z.number().int().min(0),
  intent: intentSchema,
  /**
   * The phone's own id for this intent, the same when it is sent again after a reconnect: a resend
   * whose first send was applied (its ack lost) is acknowledged as applied, not judged again.
   * Optional: older phones and scripts send none.
   */
  id: z.string().min(1).max(64).optional(),
});
export type IntentEnvelope = z.infer<typeof intentEnvelopeSchema>;

/** The roll waiting to be used: what the camera read, with corrections applied. */
export interface PendingRoll {
  /**
   * `corrected`: a person changed this die's face (or colour); `readAs` then keeps the face the
   * camera read, `readColor` the colour it read when a person changed that ('' for none), and `readUncertain`
   * whether it had marked the die "check" (a corrected die asks no more). `added`: a person
   * added this die, which the camera did not see.
   */
  dice: (ObservedDie & { corrected?: boolean; uncertain?: boolean; readAs?: string; readColor?: string; readUncertain?: boolean; added?: boolean })[];
  /**
   * Dice a person took out of a camera's roll (`dice/remove`), as the camera read them: a later
   * read of the same tray is the same roll, and does not bring them back.
   */
  removed?: ObservedDie[];
  /** Where it came from: 'camera', 'phone-camera' or 'manual'. */
  source: 'camera' | 'phone-camera' | 'manual';
  /** True when some die needs a person to confirm before the roll can be used. */
  needsConfirmation: boolean;
}

export interface HardwareStatus {
  camera: { kind: string; ok: boolean; message?: string };
  buttons: { kind: string; ok: boolean; message?: string }[];
  model: { ok: boolean; backend?: string; message?: string };
  log: { ok: boolean; path?: string; entries?: number; message?: string };
}

export interface CalibrationStatus {
  set: DiceSetId;
  /** Labelled crops collected per face so far. */
  samples: Record<string, number>;
  active: boolean;
  /**
   * After a commit: how well the reader read these dice. `before`, the share of the labelled crops
   * the camera had read right before any correction (null when unknown); `after`, the new
   * calibration's fit on them; `crops`, how many crops that was.
   */
  accuracy?: { before: number | null; after: number | null; crops: number };
  /**
   * How many of `samples` are dice checked during play (a correction, or a die marked "check" in a
   * roll a phone used; `vision.learnFromChecks`), not labelled on the Teach tab.
   */
  fromPlay?: number;
  /**
   * The set's dice in camera rolls the table used, since the first was counted in this data
   * folder (`since: 'start'`) or since the set's calibration was saved or undone here: how many, how many nobody corrected, how many the
   * camera marked "check", and how many a person corrected that it had not marked; the dice it
   * missed (a person added them) and its boxes on no die (a person took them out). The table's own
   * measure of the reader on its dice.
   */
  inPlay?: { dice: number; right: number; marked: number; wrongUnmarked: number; missed: number; notDice: number; since: 'start' | 'save' | 'undo' };
  /** While a commit is being fitted (the whole net adapts: seconds, tens of seconds on a Pi): its progress. */
  fitting?: { step: number; steps: number };
}

/** The empty tray the table camera's frames are compared with (`tray/learn`). */
export interface TrayStatus {
  /**
   * `none`: not shown one; `learned`: shown one, and the frames fit it (or none read since);
   * `moved`: the last frame read no longer fits it (the camera moved, or the tray changed):
   * it is modelled from each frame until the tray is shown empty again, or clew takes a still
   * frame with no dice as the empty tray by itself (`vision.autoTray`).
   */
  state: 'none' | 'learned' | 'moved';
  /** When it was shown (ms since the epoch). */
  learnedAt?: number;
  /**
   * `learned`: clew took it by itself, from a still frame in which no die was found (the
   * referee did not show it). `none`: whether clew will take one by itself (false after
   * `tray/forget`, until the tray is shown again, or where `vision.autoTray` is off).
   */
  auto?: boolean;
  message: string;
}

export interface TableSnapshot {
  protocol: typeof PROTOCOL_VERSION;
  version: number;
  game: GameId;
  title: string;
  options: unknown;
  players: PlayerInfo[];
  /** The game's full state (plain JSON); the dashboard imports the same rules to read it. */
  state: unknown;
  status: GameStatus;
  diceRequest: DiceRequest | null;
  roll: PendingRoll | null;
  hardware: HardwareStatus;
  calibration: CalibrationStatus[];
  tray: TrayStatus;
  /**
   * Who this phone is. The codes are only sent to the referee: `joinCode` for players to join,
   * `refereeCode` to bring in a second referee, and `lanUrl`, where clew listens on every
   * interface, the address other phones on the table's network reach it at (for the QR code
   * when the referee opened clew as localhost).
   */
  you: { role: 'referee' | 'player' | 'viewer'; player?: PlayerId; joinCode?: string; refereeCode?: string; lanUrl?: string };
}

export interface ErrorMessage {
  code: ErrorCode;
  message: string;
  /** The server's current version, so the phone knows whether it is behind. */
  version?: number;
}

export type Ack = { ok: true; version: number } | { ok: false; code: ErrorCode; message: string; version?: number };

/** socket.io typings: events the server emits. */
export interface ServerToClientEvents {
  snapshot: (snapshot: TableSnapshot) => void;
  error: (error: ErrorMessage) => void;
}

/** socket.io typings: events the phones emit. Payloads are `unknown` until validated. */
export interface ClientToServerEvents {
  join: (request: unknown, ack?: (result: Ack) => void) => void;
  intent: (envelope: unknown, ack?: (result: Ack) => void) => void;
  /** A JPEG frame from a phone used as the camera. */
  frame: (jpeg: unknown) => void;
}

export type { ButtonName };
