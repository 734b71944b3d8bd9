/**
 * The live table session: the pure table core (table.ts) plus the durable log (log.ts), with one
 * queue so intents are handled strictly one after another. For each intent: check the version,
 * decide the event, append it (fsync), then commit, tell the listeners and acknowledge. Nothing
 * else writes the table, and nothing is acknowledged or shown before it is on disk.
 *
 * The version check: an intent is decided on the table it was made on. One made on an older
 * version is still decided (on the current table) when everything committed since leaves it
 * independent: in a game played at once on separate sheets, only other seats' own moves came in
 * between (`independentSince`). Everything else is refused as stale.
 *
 * An intent sent again after a reconnect with the id of one that made a remembered event (its ack
 * was lost) is acknowledged as applied, and nothing is decided again (`madeBy`).
 */
import { fail, type Failure, type GameId, type Result } from '../../shared/game.js';
import type { Ack, Intent, IntentEnvelope } from '../../shared/protocol.js';
import { EventLog, type LogStatus } from './log.js';
import type { Logger } from './logger.js';
import {
  buttonMeaning,
  cameraRollEvent,
  decide,
  evolve,
  isTableIntent,
  runsTheTable,
  tableEventSchema,
  tableStateSchema,
  unusableTable,
  type Actor,
  type Decision,
  type GameLookup,
  type RolledDie,
  type TableEvent,
  type TableState,
} from './table.js';
import type { ButtonName } from '../../shared/game.js';

/** Intents that are not table events: they ask the camera or the calibration store for something. */
export type SideIntent = Exclude<Intent, { type: 'move' | 'undo' | 'button' | 'table/setup' | 'dice/correct' | 'dice/remove' | 'dice/add' | 'dice/manual' | 'dice/confirm' }>;

export interface SideEffects {
  /** READ: read the tray again now. */
  read(by: Actor): Promise<Result<unknown>>;
  /** calibration/label, calibration/commit, calibration/undo. */
  calibrate(intent: Extract<SideIntent, { type: `calibration/${string}` }>, table: TableState, by: Actor): Promise<Result<unknown>>;
  /** tray/learn, tray/forget: the empty tray the camera's frames are compared with. */
  tray(intent: Extract<SideIntent, { type: `tray/${string}` }>, by: Actor): Promise<Result<unknown>>;
}

/**
 * An intent's id as remembered and logged: the sender's own (its role and seat, then its id), so
 * another client's intent that happens to carry the same id (a script numbering its intents 1, 2,
 * …) is decided, not answered as applied with nothing applied. Ids logged before this carry no
 * sender and no longer match a resend: only a resend across that upgrade's restart is judged anew.
 */
export function senderIntentId(actor: Actor, id: string): string {
  const seat = actor.kind === 'player' ? actor.player : actor.kind === 'camera' ? actor.source : '';
  return `${actor.kind}:${seat}:${id}`;
}

/** What a committed change was: its event, and the table before it (a used roll is in `before`). */
export type ChangeListener = (table: TableState, change: { event: TableEvent; before: TableState }) => void;

export interface SessionOptions {
  dataDir: string;
  games: GameLookup;
  /** The game a fresh table starts with (the log is empty). */
  initialGame: { game: GameId; options: unknown };
  onCorrupt: 'recover' | 'refuse';
  compactEvery: number;
  logger: Logger;
  now(): number;
  /** How many recent events are kept to judge an intent made on an older version (RECENT_EVENTS). */
  recentEvents?: number;
}

/**
 * Events remembered in memory: enough for a round trip or a Wi-Fi blip at a busy table (a Worm &
 * Cozy hour is a few dozen moves); an intent older than this is stale, as it always was.
 */
export const RECENT_EVENTS = 500;

/** The newest events, each known by the version it made; contiguous, so "every event since v" is exact. */
class RecentEvents {
  private events: TableEvent[] = [];
  private last = 0;

  constructor(private readonly limit: number) {}

  record(version: number, event: TableEvent): void {
    // A gap (the first event after a snapshot): what came before it is not known.
    if (version !== this.last + 1) this.events = [];
    this.events.push(event);
    this.last = version;
    if (this.events.length > this.limit) this.events.shift();
  }

  /** Forgets everything: the window starts at `version` (nothing before it is known). */
  restartAt(version: number): void {
    this.events = [];
    this.last = version;
  }

  get newest(): number {
    return this.last;
  }

  /** Whether a remembered event was made by the intent with this id (the log carries it over a restart). */
  madeBy(intentId: string): boolean {
    return this.events.some((event) => event.intentId === intentId);
  }

  /** Every event after `version`, oldest first; null when the window does not reach back that far. */
  since(version: number): TableEvent[] | null {
    const count = this.last - version;
    if (!Number.isInteger(count) || count < 0 || count > this.events.length) return null;
    return this.events.slice(this.events.length - count);
  }
}

const noEffects: SideEffects = {
  read: async () => fail('camera/none', 'this table has no camera'),
  calibrate: async () => fail('calibration/unavailable', 'calibration needs the dice reader, which is not running'),
  tray: async () => fail('camera/none', 'this table has no camera'),
};

export class TableSession {
  private queue: Promise<unknown> = Promise.resolve();
  private listeners = new Set<ChangeListener>();
  private effects: SideEffects = noEffects;
  private closed = false;

  private constructor(
    private current: TableState,
    private readonly log: EventLog<TableState, TableEvent>,
    private readonly opts: SessionOptions,
    private readonly recent: RecentEvents,
  ) {
    // The log's events since its last snapshot were recorded as they were replayed; a window
    // that does not end at the table's version knows nothing (judged strictly until it fills).
    if (recent.newest !== current.version) recent.restartAt(current.version);
  }

  /** Replays the log (or sets up the initial game on a fresh table). */
  static async open(opts: SessionOptions): Promise<TableSession> {
    // Filled while the log replays, so a phone that queued a move across a restart can still be judged.
    const recent = new RecentEvents(opts.recentEvents ?? RECENT_EVENTS);
    const { log, state } = await EventLog.open<TableState, TableEvent>({
      dir: opts.dataDir,
      name: 'table',
      eventSchema: tableEventSchema,
      stateSchema: tableStateSchema,
      fold: (table, event) => {
        const next = evolve(table, event, opts.games);
        if (next.ok) recent.record(next.state.version, event);
        return next;
      },
      check: (table) => unusableTable(table, opts.games),
      onCorrupt: opts.onCorrupt,
      compactEvery: opts.compactEvery,
      logger: opts.logger,
      now: opts.now,
    });
    let table = state;
    if (table === null) {
      const event: TableEvent = { type: 'setup', game: opts.initialGame.game, options: opts.initialGame.options };
      const first = evolve(null, event, opts.games);
      if (!first.ok) {
        await log.close();
        throw new Error(`cannot start the table with ${opts.initialGame.game}: ${first.message}`);
      }
      await log.append(first.state.version, event, first.state);
      recent.record(first.state.version, event);
      table = first.state;
      opts.logger.info(`table: a fresh table playing ${table.game}`);
    } else {
      opts.logger.info(`table: resumed ${table.game} at version ${table.version}`);
    }
    return new TableSession(table, log, opts, recent);
  }

  get table(): TableState {
    return this.current;
  }

  logStatus(): LogStatus {
    return this.log.status();
  }

  setSideEffects(effects: Partial<SideEffects>): void {
    this.effects = { ...noEffects, ...effects };
  }

  /** Called after every committed change, in order, with the new table and the event that made it. */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One validated intent from a phone. Acknowledged only after it is on disk. */
  submit(actor: Actor, envelope: IntentEnvelope): Promise<Ack> {
    // Fitting a calibration takes seconds (the whole net is adapted; tens of seconds on a Pi) and
    // changes how dice are read, not the table: it runs beside the queue, so moves, buttons and
    // camera rolls are not held up behind it. It does not depend on the table's version either.
    // READ too: the camera's reading becomes the pending roll through this queue (cameraRoll), so
    // read inside it, it would wait for itself, and the table would stop for good.
    const side = envelope.intent.type === 'calibration/commit' || envelope.intent.type === 'calibration/undo' || envelope.intent.type === 'dice/read' ? envelope.intent : null;
    if (side) return this.side(actor, side);
    return this.enqueue(async () => {
      // Already applied, its ack lost in a blip: judged again it would be stale (its own seat's move
      // since) and the phone would say it was not used. Answered as the first send was.
      const id = envelope.id === undefined ? undefined : senderIntentId(actor, envelope.id);
      if (id !== undefined && this.recent.madeBy(id)) return { ok: true, version: this.current.version };
      if (envelope.version !== this.current.version && !this.independentSince(envelope)) {
        return {
          ok: false,
          code: 'intent/stale',
          message: `the table is at version ${this.current.version}, not ${envelope.version}; act on the latest snapshot`,
          version: this.current.version,
        };
      }
      const intent = envelope.intent;
      if (isTableIntent(intent)) return this.commit(decide(this.current, actor, intent, this.opts.games), id);
      return this.side(actor, intent);
    });
  }

  /**
   * Whether an intent made on an older version may be decided on the current table: it is a move
   * the game declares one seat's own (GameDefinition.independentSeat), and every event since its
   * version was such a move of another seat. So nothing it was made on has changed for it (not
   * the roll, the hour, the game, an undo, nor its own seat: a move already in is not made twice).
   * The engine still checks it against the current table.
   */
  private independentSince(envelope: IntentEnvelope): boolean {
    const { intent } = envelope;
    if (intent.type !== 'move') return false;
    const game = this.opts.games(this.current.game);
    if (!game?.independentSeat) return false;
    const seatOf = (move: unknown): string | null => game.independentSeat?.(move) ?? null;
    const seat = seatOf(intent.move);
    if (seat === null) return false;
    const since = this.recent.since(envelope.version);
    if (since === null) return false;
    return since.every((event) => {
      if (event.type !== 'move') return false;
      const other = seatOf(event.move);
      return other !== null && other !== seat;
    });
  }

  /** A physical button: acts on the current table (no version: the person sees the table). */
  async button(button: ButtonName): Promise<Ack> {
    const by: Actor = { kind: 'buttons' };
    const step = await this.enqueue(async (): Promise<Ack | 'read'> => {
      const game = this.opts.games(this.current.game);
      if (!game) return this.failure(fail('table/unknown-game', `no engine for ${this.current.game}`));
      const meaning = buttonMeaning(this.current, game, button, by);
      if ('ok' in meaning) return this.failure(meaning);
      if (meaning.kind === 'read') return 'read';
      const next = evolve(this.current, meaning.event, this.opts.games);
      return this.commit(next.ok ? { ok: true, event: meaning.event, table: next.state } : next);
    });
    // Read beside the queue, as a phone's READ is (submit): its roll is committed through the queue.
    return step === 'read' ? this.sideResult(await this.effects.read(by)) : step;
  }

  /** A settled roll from a camera becomes the pending roll (ignored when no dice are expected). */
  cameraRoll(dice: RolledDie[], source: 'camera' | 'phone-camera'): Promise<Ack> {
    return this.enqueue(async () => this.commit(cameraRollEvent(this.current, this.opts.games, dice, source)));
  }

  private async side(actor: Actor, intent: SideIntent): Promise<Ack> {
    if (intent.type === 'dice/read') return this.sideResult(await this.effects.read(actor));
    if (intent.type === 'tray/learn' || intent.type === 'tray/forget') {
      if (!runsTheTable(actor)) return this.failure(fail('auth/not-referee', 'only the referee may show clew the empty tray'));
      return this.sideResult(await this.effects.tray(intent, actor));
    }
    if (!runsTheTable(actor)) return this.failure(fail('auth/not-referee', 'only the referee may teach clew the dice'));
    return this.sideResult(await this.effects.calibrate(intent, this.current, actor));
  }

  private sideResult(result: Result<unknown>): Ack {
    return result.ok ? { ok: true, version: this.current.version } : this.failure(result);
  }

  private failure(f: Failure): Ack {
    return { ok: false, code: f.code, message: f.message, version: this.current.version };
  }

  /** `intentId`: the phone's id of the intent, logged with its event so a resend is known (madeBy). */
  private async commit(decision: Decision, intentId?: string): Promise<Ack> {
    if (!decision.ok) return this.failure(decision);
    const logged: TableEvent = intentId === undefined ? decision.event : { ...decision.event, intentId };
    try {
      await this.log.append(decision.table.version, logged, decision.table);
    } catch (error) {
      this.opts.logger.error(`log: could not write version ${decision.table.version}: ${(error as Error).message}`);
      // After a write that could not be cut back no change can be saved, however the disk is now.
      const stuck = this.log.needsRestart() !== undefined;
      return this.failure(
        fail('log/write-failed', stuck ? 'the table could not save this change, so it was not made, and cannot save any until clew is restarted; restart clew once the disk is fixed' : 'the table could not save this change, so it was not made; check the disk'),
      );
    }
    const before = this.current;
    this.current = decision.table;
    this.recent.record(this.current.version, logged);
    for (const listener of this.listeners) {
      try {
        listener(this.current, { event: decision.event, before });
      } catch (error) {
        this.opts.logger.error(`table: a change listener failed: ${(error as Error).message}`);
      }
    }
    return { ok: true, version: this.current.version };
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the table session is closed'));
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Waits for the queue to drain, then closes the log. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.log.close();
  }
}
