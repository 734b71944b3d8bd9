/**
 * The table, as pure data and pure functions: no I/O, no clock. Everything the live session does
 * to the table is a `TableEvent`; `evolve` folds one event into the table and `decide` turns a
 * phone's or a button's intent into the event it means, after checking who may do it.
 *
 * The log stores events, so a restart replays exactly the same folds: the state after a restart
 * is, by construction, the fold of every acknowledged event.
 */
import { z } from 'zod';
import { BUTTON_NAMES } from '../../device/buttons/emitter.js';
import { DICE_SET_IDS, DIE_COLORS, isFaceOf, type DiceSetId, type ObservedDie, isDieColor } from '../../shared/dice.js';
import {
  GAME_IDS,
  fail,
  ok,
  type Authority,
  type ButtonName,
  type DiceRequest,
  type Failure,
  type GameId,
  type PlayerId,
  type Result,
  type TableGame,
} from '../../shared/game.js';
import type { Intent, PendingRoll } from '../../shared/protocol.js';

/** Who did something: a phone's role, the hardware buttons, or the camera. */
export type Actor =
  | { kind: 'referee' }
  | { kind: 'player'; player: PlayerId }
  | { kind: 'buttons' }
  | { kind: 'camera'; source: 'camera' | 'phone-camera' };

export type RolledDie = PendingRoll['dice'][number];

/** What undo restores: the game state and the pending roll from before a move. */
export interface UndoEntry {
  state: unknown;
  roll: PendingRoll | null;
  /** The table's version then (a used roll is known by it: played-rolls.ts); absent in snapshots from before. */
  version?: number;
}

export interface TableState {
  /** Number of events folded so far; the snapshot version phones act on. */
  version: number;
  game: GameId;
  options: unknown;
  state: unknown;
  roll: PendingRoll | null;
  /** Most recent last; bounded by MAX_UNDO so a long game keeps a small footprint. */
  undo: UndoEntry[];
}

/** How many moves back undo can go. A table rarely needs more; it bounds memory and snapshots. */
export const MAX_UNDO = 100;

export type TableEvent = (
  | { type: 'setup'; game: GameId; options: unknown }
  | { type: 'move'; move: unknown; by: Actor }
  /** A pending roll used: `move` is what the game's diceMove made of it. */
  | { type: 'confirm'; move: unknown; by: Actor }
  | { type: 'undo'; by: Actor }
  | { type: 'roll'; dice: RolledDie[]; source: PendingRoll['source']; by: Actor }
  | { type: 'correct'; index: number; face: string; color?: string; by: Actor }
  /** A person took die `index` out of the pending roll (no die there, or not one of this roll). */
  | { type: 'remove'; index: number; by: Actor }
  /** A person added a die the camera missed to the pending roll. */
  | { type: 'add'; die: ObservedDie; by: Actor }
) & {
  /** The phone's id of the intent that made it (IntentEnvelope.id), so a resend is known after a restart. */
  intentId?: string;
};

export type GameLookup = (id: GameId) => TableGame | undefined;

// ---- schemas for what lands on disk (the log validates every line with these) ----

const diceSetId = z.enum(DICE_SET_IDS as [DiceSetId, ...DiceSetId[]]);
const actorSchema: z.ZodType<Actor> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('referee') }),
  z.object({ kind: z.literal('player'), player: z.string() }),
  z.object({ kind: z.literal('buttons') }),
  z.object({ kind: z.literal('camera'), source: z.enum(['camera', 'phone-camera']) }),
]);
const rolledDieSchema = z.object({
  set: diceSetId,
  face: z.string(),
  color: z.string().optional(),
  confidence: z.number().optional(),
  box: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional(),
  corrected: z.boolean().optional(),
  uncertain: z.boolean().optional(),
  readAs: z.string().optional(),
  readColor: z.string().optional(),
  readUncertain: z.boolean().optional(),
  added: z.boolean().optional(),
});
/** A die as observed (a die a person added, or one taken out as the camera read it). */
const observedSchema = rolledDieSchema.pick({ set: true, face: true, color: true });
export const pendingRollSchema = z.object({
  dice: z.array(rolledDieSchema),
  removed: z.array(observedSchema).optional(),
  source: z.enum(['camera', 'phone-camera', 'manual']),
  needsConfirmation: z.boolean(),
});
const gameIdSchema = z.enum(GAME_IDS as [GameId, ...GameId[]]);

/** Optional on every event: logs from before it load. */
const madeBy = { intentId: z.string().optional() };
export const tableEventSchema: z.ZodType<TableEvent> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('setup'), game: gameIdSchema, options: z.unknown(), ...madeBy }),
  z.object({ type: z.literal('move'), move: z.unknown(), by: actorSchema, ...madeBy }),
  z.object({ type: z.literal('confirm'), move: z.unknown(), by: actorSchema, ...madeBy }),
  z.object({ type: z.literal('undo'), by: actorSchema, ...madeBy }),
  z.object({ type: z.literal('roll'), dice: z.array(rolledDieSchema), source: z.enum(['camera', 'phone-camera', 'manual']), by: actorSchema, ...madeBy }),
  z.object({ type: z.literal('correct'), index: z.number().int().min(0), face: z.string(), color: z.string().optional(), by: actorSchema, ...madeBy }),
  z.object({ type: z.literal('remove'), index: z.number().int().min(0), by: actorSchema, ...madeBy }),
  z.object({ type: z.literal('add'), die: observedSchema, by: actorSchema, ...madeBy }),
]) as z.ZodType<TableEvent>;

export const tableStateSchema: z.ZodType<TableState> = z.object({
  version: z.number().int().min(0),
  game: gameIdSchema,
  options: z.unknown(),
  state: z.unknown(),
  roll: pendingRollSchema.nullable(),
  undo: z.array(z.object({ state: z.unknown(), roll: pendingRollSchema.nullable(), version: z.number().int().min(0).optional() })),
}) as z.ZodType<TableState>;

/**
 * Why the game could not use a table read from disk (a snapshot), or null. The engines have no
 * schema of their state and trust the state they made, so a damaged one (null, a phase no rule
 * knows) shows only as a throw later: at start, in every later event's replay, at a button. The
 * game is asked here for what the table asks of it, on the state and on each undo entry's.
 */
export function unusableTable(table: TableState, games: GameLookup): string | null {
  const game = games(table.game);
  if (!game) return `this server has no engine for the game "${table.game}"`;
  const unusable = (state: unknown): string | null => {
    try {
      game.status(state);
      game.players(state);
      game.diceRequest(state);
      game.legalOptions(state);
      game.score(state);
      for (const button of BUTTON_NAMES) game.buttonMove(state, button);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };
  const now = unusable(table.state);
  if (now !== null) return `the game's state is not one "${game.title}" can use: ${now}`;
  for (const [i, entry] of table.undo.entries()) {
    const then = unusable(entry.state);
    if (then !== null) return `undo entry ${i + 1} of ${table.undo.length} is not a state "${game.title}" can use: ${then}`;
  }
  return null;
}

// ---- folding events ----

function needsConfirmation(dice: RolledDie[], request: DiceRequest | null): boolean {
  if (dice.some((d) => d.uncertain)) return true;
  if (!request) return true;
  // A request that names every die's colour (`colors`) has its dice told apart by colour: other dice may lie beside them.
  const expected = request.colors ? undefined : request.slots?.length;
  if (expected !== undefined && dice.length !== expected) return true;
  if (request.count && (dice.length < request.count.min || dice.length > request.count.max)) return true;
  return false;
}

function sameRequest(a: DiceRequest | null, b: DiceRequest | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The dice a game's diceMove sees: observations only, without the table's bookkeeping. */
export function observed(dice: RolledDie[]): ObservedDie[] {
  return dice.map(({ set, face, color, confidence, box }) => ({
    set,
    face,
    ...(color !== undefined ? { color } : {}),
    ...(confidence !== undefined ? { confidence } : {}),
    ...(box !== undefined ? { box } : {}),
  }));
}

function lookup(games: GameLookup, id: GameId): Result<TableGame> {
  const game = games(id);
  return game ? ok(game) : fail('table/unknown-game', `this server has no engine for the game "${id}"`);
}

/** A game move was accepted: push an undo entry and drop a roll the new state no longer asks for. */
function afterMove(table: TableState, game: TableGame, next: unknown, roll: PendingRoll | null): TableState {
  const undo = [...table.undo, { state: table.state, roll: table.roll, version: table.version }].slice(-MAX_UNDO);
  const keepRoll = roll && sameRequest(game.diceRequest(table.state), game.diceRequest(next)) ? roll : null;
  return { ...table, version: table.version + 1, state: next, roll: keepRoll, undo };
}

/**
 * Folds one event into the table. Total: an event that does not fit gives a Failure (the log
 * reports such a line as corrupt), never a throw.
 */
export function evolve(table: TableState | null, event: TableEvent, games: GameLookup): Result<TableState> {
  if (event.type === 'setup') {
    const game = lookup(games, event.game);
    if (!game.ok) return game;
    const setup = game.state.setup(event.options);
    if (!setup.ok) return setup;
    return ok({ version: (table?.version ?? 0) + 1, game: event.game, options: event.options, state: setup.state, roll: null, undo: [] });
  }
  if (!table) return fail('table/no-game', 'no game has been set up at this table yet');
  const found = lookup(games, table.game);
  if (!found.ok) return found;
  const game = found.state;

  switch (event.type) {
    case 'move': {
      const applied = game.apply(table.state, event.move);
      return applied.ok ? ok(afterMove(table, game, applied.state, table.roll)) : applied;
    }
    case 'confirm': {
      if (!table.roll) return fail('dice/no-roll', 'there is no pending roll to use');
      const applied = game.apply(table.state, event.move);
      return applied.ok ? ok(afterMove(table, game, applied.state, null)) : applied;
    }
    case 'undo': {
      const last = table.undo[table.undo.length - 1];
      if (!last) return fail('table/nothing-to-undo', 'there is nothing to undo');
      return ok({ ...table, version: table.version + 1, state: last.state, roll: last.roll, undo: table.undo.slice(0, -1) });
    }
    case 'roll': {
      const request = game.diceRequest(table.state);
      const checked = checkDice(event.dice, request, event.source === 'manual');
      if (!checked.ok) return checked;
      const roll: PendingRoll = { dice: event.dice, source: event.source, needsConfirmation: needsConfirmation(event.dice, request) };
      return ok({ ...table, version: table.version + 1, roll });
    }
    case 'correct': {
      const roll = table.roll;
      if (!roll) return fail('dice/no-roll', 'there is no pending roll to correct');
      const die = roll.dice[event.index];
      if (!die) return fail('dice/no-such-die', `the roll has ${roll.dice.length} dice; there is no die number ${event.index + 1}`);
      if (!isFaceOf(die.set, event.face)) return fail('dice/bad-face', `"${event.face}" is not a face of the ${die.set} die`);
      const badColor = colorProblem(event.color);
      if (badColor) return badColor;
      const color = event.color ?? die.color;
      // What the camera read is kept once: the first correction records it, later ones keep it
      // ('' where it read no colour: otherwise the same tray read again looked like a new roll).
      const readColor = die.readColor ?? (event.color !== undefined && event.color !== die.color ? (die.color ?? '') : undefined);
      const fixed: RolledDie = {
        set: die.set,
        face: event.face,
        ...(color !== undefined ? { color } : {}),
        ...(die.box !== undefined ? { box: die.box } : {}),
        corrected: true,
        readAs: die.readAs ?? die.face,
        ...(readColor !== undefined ? { readColor } : {}),
        // Whether the camera had marked it "check" (the die no longer asks: a person has looked).
        ...(die.uncertain || die.readUncertain ? { readUncertain: true } : {}),
      };
      const dice = roll.dice.map((d, i) => (i === event.index ? fixed : d));
      const request = game.diceRequest(table.state);
      return ok({ ...table, version: table.version + 1, roll: { ...roll, dice, needsConfirmation: needsConfirmation(dice, request) } });
    }
    case 'remove': {
      const roll = table.roll;
      if (!roll) return fail('dice/no-roll', 'there is no pending roll to take a die out of');
      const die = roll.dice[event.index];
      if (!die) return fail('dice/no-such-die', `the roll has ${roll.dice.length} dice; there is no die number ${event.index + 1}`);
      if (roll.dice.length === 1) return fail('dice/last-die', 'a roll keeps at least one die: read the dice again or enter the roll by hand');
      const dice = roll.dice.filter((_, i) => i !== event.index);
      // A die a person added is simply gone; one the camera read is remembered as the camera read
      // it, so the camera's next read of the same tray is still this roll (camera.ts `sameRoll`).
      const removed = die.added ? roll.removed : [...(roll.removed ?? []), asRead(die)];
      const request = game.diceRequest(table.state);
      return ok({ ...table, version: table.version + 1, roll: { ...roll, dice, ...(removed ? { removed } : {}), needsConfirmation: needsConfirmation(dice, request) } });
    }
    case 'add': {
      const roll = table.roll;
      if (!roll) return fail('dice/no-roll', 'there is no pending roll to add a die to (enter the roll by hand)');
      if (roll.dice.length >= MAX_ROLL_DICE) return fail('dice/too-many', `a roll holds at most ${MAX_ROLL_DICE} dice`);
      const request = game.diceRequest(table.state);
      const { set, face, color } = event.die;
      const checked = checkDice([{ set, face }], request, false, () => 'the added die');
      if (!checked.ok) return checked;
      const badColor = colorProblem(color);
      if (badColor) return badColor;
      const added: RolledDie = { set, face, ...(color !== undefined ? { color } : {}), added: true };
      const dice = [...roll.dice, added];
      return ok({ ...table, version: table.version + 1, roll: { ...roll, dice, needsConfirmation: needsConfirmation(dice, request) } });
    }
  }
}

/** A roll's dice at most (the camera reads up to 25; the intents index up to 31). */
export const MAX_ROLL_DICE = 32;

/** A die as the camera read it, before any person's correction. */
function asRead(die: RolledDie): ObservedDie {
  const color = die.readColor !== undefined ? die.readColor || undefined : die.color;
  return { set: die.set, face: die.readAs ?? die.face, ...(color !== undefined ? { color } : {}) };
}

/** A colour that is no die colour, said so; undefined (none given) or a known colour pass. */
function colorProblem(color: string | undefined): Failure | null {
  if (color === undefined || isDieColor(color)) return null;
  return fail('dice/bad-color', `"${color}" is not a die colour (${Object.keys(DIE_COLORS).join(', ')})`);
}

/** Checks dice against what the game asks for. A camera may see the wrong number of dice (the
 * roll is then marked for confirmation); a person entering a roll must give the right count.
 * `name` says which die a refusal is about ("die 2", "the added die"). */
export function checkDice(dice: RolledDie[], request: DiceRequest | null, strictCount: boolean, name: (i: number) => string = (i) => `die ${i + 1}`): Result<RolledDie[]> {
  if (!request) return fail('dice/not-expected', 'the game expects no dice right now');
  for (const [i, die] of dice.entries()) {
    if (!request.sets.includes(die.set)) return fail('dice/wrong-set', `${name(i)} is a ${die.set} die; this roll uses ${request.sets.join(', ')}`);
    if (!isFaceOf(die.set, die.face)) return fail('dice/bad-face', `${name(i)}: "${die.face}" is not a face of the ${die.set} die`);
  }
  if (strictCount) {
    const slots = request.slots?.length;
    if (slots !== undefined && dice.length !== slots) return fail('dice/wrong-count', `this roll needs ${slots} dice, not ${dice.length}`);
    if (request.count && (dice.length < request.count.min || dice.length > request.count.max)) {
      return fail('dice/wrong-count', `this roll needs ${request.count.min}–${request.count.max} dice, not ${dice.length}`);
    }
  }
  return ok(dice);
}

/** Replays events from nothing (used by tests and by the kill test's oracle). */
export function replay(events: TableEvent[], games: GameLookup): Result<TableState | null> {
  let table: TableState | null = null;
  for (const [i, event] of events.entries()) {
    const next = evolve(table, event, games);
    if (!next.ok) return fail(next.code, `event ${i + 1}: ${next.message}`);
    table = next.state;
  }
  return ok(table);
}

// ---- deciding what an intent means, and whether this actor may ask for it ----

/** Intents the table handles as events; reading the camera and calibration are side effects. */
export type TableIntent = Extract<Intent, { type: 'move' | 'undo' | 'button' | 'table/setup' | 'dice/correct' | 'dice/remove' | 'dice/add' | 'dice/manual' | 'dice/confirm' }>;

export function isTableIntent(intent: Intent): intent is TableIntent {
  return ['move', 'undo', 'button', 'table/setup', 'dice/correct', 'dice/remove', 'dice/add', 'dice/manual', 'dice/confirm'].includes(intent.type);
}

/** The referee and the hardware buttons run the table; they may act for anyone. */
export function runsTheTable(actor: Actor): boolean {
  return actor.kind === 'referee' || actor.kind === 'buttons';
}

function permitted(actor: Actor, authority: Authority): Failure | null {
  if (runsTheTable(actor)) return null;
  if (authority.kind === 'table') return fail('auth/not-referee', 'only the referee or the table buttons may do that');
  if (actor.kind === 'player' && actor.player === authority.player) return null;
  const who = actor.kind === 'player' ? actor.player : actor.kind;
  return fail('auth/not-your-move', `that move is ${authority.player}'s to make, not ${who}'s`);
}

function moveAllowed(game: TableGame, table: TableState, actor: Actor, move: unknown): Failure | null {
  const authority = game.authority(table.state, move);
  if ('ok' in authority) return authority;
  return permitted(actor, authority);
}

export type Decision = { ok: true; event: TableEvent; table: TableState } | Failure;

/** A button press means an event, a camera read (`read`), or nothing at this point of the game. */
export type ButtonMeaning = { kind: 'event'; event: TableEvent } | { kind: 'read' } | Failure;

export function buttonMeaning(table: TableState, game: TableGame, button: ButtonName, by: Actor): ButtonMeaning {
  if (button === 'BACK') return { kind: 'event', event: { type: 'undo', by } };
  if (button === 'READ') return { kind: 'read' };
  if (button === 'OK' && table.roll) return confirmEvent(table, game, by);
  const move = game.buttonMove(table.state, button);
  if (move === null || move === undefined) return fail('table/button-unused', `${button} does nothing at this point of the game`);
  return { kind: 'event', event: { type: 'move', move, by } };
}

function confirmEvent(table: TableState, game: TableGame, by: Actor): { kind: 'event'; event: TableEvent } | Failure {
  if (!table.roll) return fail('dice/no-roll', 'there is no pending roll to use');
  const move = game.diceMove(table.state, observed(table.roll.dice));
  if (!move.ok) return move;
  return { kind: 'event', event: { type: 'confirm', move: move.state, by } };
}

/**
 * Turns a validated table intent from `actor` into the event it means and the table after it, or
 * says why not. Pure: the session appends the event to the log only when this succeeds.
 */
export function decide(table: TableState, actor: Actor, intent: TableIntent, games: GameLookup): Decision {
  const found = lookup(games, table.game);
  if (!found.ok) return found;
  const game = found.state;
  let event: TableEvent;
  switch (intent.type) {
    case 'table/setup':
      if (!runsTheTable(actor)) return fail('auth/not-referee', 'only the referee may start a new game');
      event = { type: 'setup', game: intent.game, options: intent.options };
      break;
    case 'undo':
      if (!runsTheTable(actor)) return fail('auth/not-referee', 'only the referee or the BACK button may undo');
      event = { type: 'undo', by: actor };
      break;
    case 'button': {
      if (!runsTheTable(actor)) return fail('auth/not-referee', 'only the referee may press the table buttons');
      const meaning = buttonMeaning(table, game, intent.button, actor);
      if ('ok' in meaning) return meaning;
      if (meaning.kind === 'read') return fail('table/not-an-event', 'READ asks the camera; it is not a table event');
      event = meaning.event;
      break;
    }
    case 'move': {
      const denied = moveAllowed(game, table, actor, intent.move);
      if (denied) return denied;
      event = { type: 'move', move: intent.move, by: actor };
      break;
    }
    case 'dice/manual': {
      if (actor.kind === 'camera') return fail('auth/not-a-person', 'manual entry is for people');
      // A person's entry has no confidence or box: it is what they saw.
      const dice: RolledDie[] = intent.dice.map(({ set, face, color }) => (color !== undefined ? { set, face, color } : { set, face }));
      // Checked here, not in the fold: a log written before this check still replays.
      for (const [i, die] of dice.entries()) {
        const bad = colorProblem(die.color);
        if (bad) return fail('dice/bad-color', `die ${i + 1}: ${bad.message}`);
      }
      event = { type: 'roll', dice, source: 'manual', by: actor };
      break;
    }
    case 'dice/correct':
      event = intent.color !== undefined ? { type: 'correct', index: intent.index, face: intent.face, color: intent.color, by: actor } : { type: 'correct', index: intent.index, face: intent.face, by: actor };
      break;
    case 'dice/remove':
      event = { type: 'remove', index: intent.index, by: actor };
      break;
    case 'dice/add': {
      if (actor.kind === 'camera') return fail('auth/not-a-person', 'adding a die is for people');
      // What a person saw: no confidence or box.
      const { set, face, color } = intent.die;
      event = { type: 'add', die: color !== undefined ? { set, face, color } : { set, face }, by: actor };
      break;
    }
    case 'dice/confirm': {
      const confirm = confirmEvent(table, game, actor);
      if ('ok' in confirm) return confirm;
      const denied = moveAllowed(game, table, actor, (confirm.event as { move: unknown }).move);
      if (denied) return denied;
      event = confirm.event;
      break;
    }
  }
  const next = evolve(table, event, games);
  return next.ok ? { ok: true, event, table: next.state } : next;
}

/** A camera's settled roll as an event, or a Failure when the game expects no dice now. */
export function cameraRollEvent(table: TableState, games: GameLookup, dice: RolledDie[], source: 'camera' | 'phone-camera'): Decision {
  const event: TableEvent = { type: 'roll', dice, source, by: { kind: 'camera', source } };
  const next = evolve(table, event, games);
  return next.ok ? { ok: true, event, table: next.state } : next;
}
