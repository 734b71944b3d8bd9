/**
 * The live table session: the pure table core (table.ts) plus the durable log (log.ts), with one
 * queue so intents are handled strictly one after another. For each intent: check the version,
 * decide the event, append it (fsync), then commit, tell the listeners and acknowledge. Nothing
 * else writes the table, and nothing is acknowledged or shown before it is on disk.
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
  ) {}

  /** Replays the log (or sets up the initial game on a fresh table). */
  static async open(opts: SessionOptions): Promise<TableSession> {
    const { log, state } = await EventLog.open<TableState, TableEvent>({
      dir: opts.dataDir,
      name: 'table',
      eventSchema: tableEventSchema,
      stateSchema: tableStateSchema,
      fold: (table, event) => evolve(table, event, opts.games),
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
      table = first.state;
      opts.logger.info(`table: a fresh table playing ${table.game}`);
    } else {
      opts.logger.info(`table: resumed ${table.game} at version ${table.version}`);
    }
    return new TableSession(table, log, opts);
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
      if (envelope.version !== this.current.version) {
        return {
          ok: false,
          code: 'intent/stale',
          message: `the table is at version ${this.current.version}, not ${envelope.version}; act on the latest snapshot`,
          version: this.current.version,
        };
      }
      const intent = envelope.intent;
      if (isTableIntent(intent)) return this.commit(decide(this.current, actor, intent, this.opts.games));
      return this.side(actor, intent);
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

  private async commit(decision: Decision): Promise<Ack> {
    if (!decision.ok) return this.failure(decision);
    try {
      await this.log.append(decision.table.version, decision.event, decision.table);
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
