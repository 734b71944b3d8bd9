/**
 * The durable event log: append-only JSON lines, one `fdatasync` per accepted event, folded back
 * into the state on start. Generic over the event and state types; the table session supplies
 * the schemas and the fold.
 *
 * Files in the data folder:
 *   <name>.jsonl          one line per event: {"v":<version>,"t":<ms since epoch>,"e":<event>}
 *   <name>.snapshot.json  the state at some version (written by compaction, atomically)
 *
 * Damage on start:
 * - a torn last line (no trailing newline: the write was cut short by a power cut or a kill, or a
 *   last line of zero bytes: the size grew before the data landed) is dropped with a warning; it
 *   was never acknowledged, because acks wait for the fsync;
 * - harmless flaws are read past: blank lines, a byte-order mark an editor put at the start, a
 *   line whose time (`t`) is not a number (the time is not needed to replay the event);
 * - a snapshot whose state the owner cannot use (`check`) is set aside like an unreadable one;
 * - a corrupt line with good lines after it (bad JSON, a bad shape, a version out of sequence, or
 *   an event that no longer folds) is reported with its line number. With `onCorrupt: 'recover'`
 *   (the default) the original file is kept beside the log as `<name>.jsonl.corrupt-<ms>`, the log
 *   is rewritten with the good lines before it, and the table starts from that last good state
 *   (the status says so until the next start); with `'refuse'` opening throws `LogCorruptError`.
 */
import { constants as fsConstants } from 'node:fs';
import { copyFile, mkdir, open, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Result } from '../../shared/game.js';
import type { Logger } from './logger.js';

export interface LogStatus {
  ok: boolean;
  path: string;
  /** Events in the log since the last compaction. */
  entries: number;
  version: number;
  message?: string;
}

export interface LogOptions<S, E> {
  dir: string;
  /** File stem: `<name>.jsonl` and `<name>.snapshot.json`. */
  name: string;
  eventSchema: z.ZodType<E>;
  stateSchema: z.ZodType<S>;
  /** Folds event number `version` into the state (null before the first event). */
  fold(state: S | null, event: E, version: number): Result<S>;
  /**
   * Why a snapshot's state, though it fits `stateSchema`, cannot be used (null: it can). A
   * snapshot is taken as a whole, so one that fails here is set aside like an unreadable one.
   */
  check?(state: S): string | null;
  onCorrupt: 'recover' | 'refuse';
  /** Compact (snapshot the state and start an empty log) once this many events are in the log. */
  compactEvery: number;
  logger: Logger;
  now(): number;
}

export interface OpenedLog<S, E> {
  log: EventLog<S, E>;
  state: S | null;
  version: number;
}

export class LogCorruptError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}, line ${line}: ${reason}`);
    this.name = 'LogCorruptError';
  }
}

const snapshotFileSchema = z.object({ v: z.number().int().min(0), t: z.number(), state: z.unknown() });
// `t` (when the event was written) is not needed to replay it: a damaged time does not cost the event.
const lineSchema = z.object({ v: z.number().int().min(1), e: z.unknown() });

/** A line with nothing on it but white space: read past, wherever it is. */
const BLANK = /^\s*$/;
/** A line of zero bytes (and white space): the size of the file grew before its data landed. */
const ZEROS = /^[\0\s]*$/;
/** The byte-order mark some editors put at the start of a text file they save. */
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}

async function fsyncDir(dir: string): Promise<void> {
  // A rename or a new file is durable only once its directory entry is; not every platform can
  // open a directory for fsync, and there it is best effort.
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, fsConstants.O_RDONLY);
    await handle.sync();
  } catch {
    /* best effort */
  } finally {
    await handle?.close();
  }
}

/** Temporary files of this process so far: each write its own, so two writes of one file at once cannot share one. */
let temporaries = 0;

/** Writes a whole file so that a crash leaves either the old content or the new, never a mix. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}-${++temporaries}`;
  try {
    const handle = await open(tmp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
  await fsyncDir(path.dirname(file));
}

export class EventLog<S, E> {
  private handle: FileHandle | null = null;
  private size = 0;
  private entries = 0;
  private version = 0;
  /** What was found wrong on start (damage read past or set aside): said until the next start. */
  private problem: string | undefined;
  /** The last write's failure, until a write reaches the disk again (that event was not made). */
  private writeProblem: string | undefined;
  /** The last compaction's failure, until one succeeds (the events are safe in the log meanwhile). */
  private compactProblem: string | undefined;
  /** Set when a failed write could not be cut back: appending after it would corrupt the log. */
  private unsafe: string | undefined;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly opts: LogOptions<S, E>,
    readonly file: string,
    readonly snapshotFile: string,
  ) {}

  /** Reads the snapshot and the log, folds them, repairs a torn tail, and opens for appending. */
  static async open<S, E>(opts: LogOptions<S, E>): Promise<OpenedLog<S, E>> {
    await mkdir(opts.dir, { recursive: true });
    const file = path.join(opts.dir, `${opts.name}.jsonl`);
    const snapshotFile = path.join(opts.dir, `${opts.name}.snapshot.json`);
    const log = new EventLog(opts, file, snapshotFile);
    const { state, version } = await log.load();
    await log.openForAppend();
    return { log, state, version };
  }

  private async load(): Promise<{ state: S | null; version: number }> {
    const { opts, file } = this;
    let state: S | null = null;
    let version = 0;

    const snapshotText = await readFile(this.snapshotFile, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw e;
    });
    if (snapshotText !== null) {
      const snap = (() => {
        try {
          const parsed = snapshotFileSchema.safeParse(JSON.parse(snapshotText));
          if (!parsed.success) return `bad shape (${issues(parsed.error)})`;
          const inner = opts.stateSchema.safeParse(parsed.data.state);
          if (!inner.success) return `bad state (${issues(inner.error)})`;
          const unusable = opts.check?.(inner.data) ?? null;
          if (unusable !== null) return `bad state (${unusable})`;
          return { v: parsed.data.v, state: inner.data };
        } catch (error) {
          return error instanceof SyntaxError ? `not JSON (${error.message})` : `bad state (${(error as Error).message})`;
        }
      })();
      if (typeof snap === 'string') {
        // A snapshot is written atomically, so a bad one means the disk was damaged.
        const reason = `the snapshot ${this.snapshotFile} is unreadable: ${snap}`;
        if (opts.onCorrupt === 'refuse') throw new LogCorruptError(this.snapshotFile, 1, reason);
        const savedAs = `${this.snapshotFile}.corrupt-${opts.now()}`;
        await rename(this.snapshotFile, savedAs);
        this.problem = `${reason}; kept as ${path.basename(savedAs)}`;
        opts.logger.error(`log: ${this.problem}`);
      } else {
        state = snap.state;
        version = snap.v;
      }
    }

    const buf = await readFile(file).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return Buffer.alloc(0);
      throw e;
    });
    const start = buf.subarray(0, BOM.length).equals(BOM) ? BOM.length : 0;
    let goodLength = buf.lastIndexOf(0x0a) + 1;
    const lines = goodLength > start ? buf.subarray(start, goodLength).toString('utf8').split('\n') : [''];
    lines.pop(); // the empty string after the final newline
    // Last lines of zero bytes are a torn tail too, though a newline landed after them.
    let zeros = lines.length;
    while (zeros > 0 && ZEROS.test(lines[zeros - 1]!)) zeros--;
    if (lines.slice(zeros).some((l) => l.includes('\0'))) {
      for (const l of lines.splice(zeros)) goodLength -= Buffer.byteLength(l) + 1;
    }
    if (goodLength < buf.length) {
      opts.logger.warn(`log: dropped a torn last line (${buf.length - goodLength} bytes) in ${file}; it was never acknowledged`);
    }

    let offset = start;
    let kept = 0;
    const snapshotVersion = state === null ? null : version;
    let foldedAny = false;
    for (const [i, line] of lines.entries()) {
      const lineNo = i + 1;
      if (BLANK.test(line)) {
        offset += Buffer.byteLength(line) + 1;
        continue;
      }
      const step = this.foldLine(line, state, version, foldedAny ? null : snapshotVersion);
      if (step.kind === 'skip') {
        offset += Buffer.byteLength(line) + 1;
        kept++;
        continue;
      }
      if (step.kind === 'bad') {
        const more = lines.slice(lineNo).filter((l) => !BLANK.test(l)).length;
        const reason = `${step.reason}${more ? ` (${more} later line${more > 1 ? 's' : ''} not replayed)` : ''}`;
        if (opts.onCorrupt === 'refuse') throw new LogCorruptError(file, lineNo, reason);
        const savedAs = `${file}.corrupt-${opts.now()}`;
        await copyFile(file, savedAs);
        await writeFileAtomic(file, buf.subarray(0, offset).toString('utf8'));
        const before = this.problem === undefined ? '' : `${this.problem}; then `;
        this.problem = `${before}line ${lineNo} of ${path.basename(file)} is corrupt: ${reason}; started from the last good state (version ${version}${state === null ? ': a fresh table' : ''}); the original is kept as ${path.basename(savedAs)}`;
        opts.logger.error(`log: ${this.problem}`);
        this.size = offset;
        this.entries = kept;
        this.version = version;
        return { state, version };
      }
      state = step.state;
      version = step.version;
      foldedAny = true;
      offset += Buffer.byteLength(line) + 1;
      kept++;
    }
    if (goodLength < buf.length) {
      // Cut the torn tail off so the next append starts on a line of its own.
      const handle = await open(file, 'r+');
      try {
        await handle.truncate(goodLength);
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    this.size = goodLength;
    this.entries = kept;
    this.version = version;
    return { state, version };
  }

  private foldLine(
    line: string,
    state: S | null,
    version: number,
    snapshotVersion: number | null,
  ): { kind: 'ok'; state: S; version: number } | { kind: 'skip' } | { kind: 'bad'; reason: string } {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      return { kind: 'bad', reason: `not JSON (${(error as Error).message})` };
    }
    const parsed = lineSchema.safeParse(json);
    if (!parsed.success) return { kind: 'bad', reason: `not a log entry (${issues(parsed.error)})` };
    const { v, e } = parsed.data;
    // Lines at or below the snapshot's version were compacted into it (a crash can leave them).
    if (snapshotVersion !== null && v <= snapshotVersion) return { kind: 'skip' };
    if (v !== version + 1) return { kind: 'bad', reason: `version ${v} out of sequence (expected ${version + 1})` };
    const event = this.opts.eventSchema.safeParse(e);
    if (!event.success) return { kind: 'bad', reason: `not an event (${issues(event.error)})` };
    let next: Result<S>;
    try {
      next = this.opts.fold(state, event.data, v);
    } catch (error) {
      // The fold is meant to be total; a state it cannot read (a damaged snapshot) may still make it throw.
      return { kind: 'bad', reason: `the event does not replay: it failed (${(error as Error).message})` };
    }
    if (!next.ok) return { kind: 'bad', reason: `the event does not replay: ${next.code}: ${next.message}` };
    return { kind: 'ok', state: next.state, version: v };
  }

  private async openForAppend(): Promise<void> {
    const existed = this.size > 0;
    this.handle = await open(this.file, 'a');
    if (!existed) await fsyncDir(this.opts.dir);
  }

  /**
   * Appends event number `version` and waits for it to reach the disk. `stateAfter` is the state
   * the event led to, used when this append triggers a compaction. On a failed write the file is
   * cut back so no partial line stays behind, and the error is thrown.
   */
  append(version: number, event: E, stateAfter: S): Promise<void> {
    const run = this.writing.then(() => this.write(version, event, stateAfter));
    this.writing = run.catch(() => undefined);
    return run;
  }

  private async write(version: number, event: E, stateAfter: S): Promise<void> {
    const handle = this.handle;
    if (this.unsafe) throw new Error(`the event log cannot be written safely: ${this.unsafe}`);
    if (!handle) throw new Error('the event log is closed');
    if (version !== this.version + 1) throw new Error(`log append out of sequence: ${version} after ${this.version}`);
    const line = JSON.stringify({ v: version, t: this.opts.now(), e: event }) + '\n';
    const bytes = Buffer.from(line, 'utf8');
    try {
      // Every byte, or an error: a full disk may take part of a line and say so only by the count.
      for (let at = 0; at < bytes.length; ) {
        const { bytesWritten } = await handle.write(bytes, at, bytes.length - at);
        if (bytesWritten <= 0) throw new Error(`the disk took ${at} of the line's ${bytes.length} bytes`);
        at += bytesWritten;
      }
      await handle.datasync();
    } catch (error) {
      this.writeProblem = `write failed: ${(error as Error).message}`;
      try {
        await handle.truncate(this.size);
      } catch (cut) {
        // The part of the line left behind would corrupt the next one: no more appends until a restart repairs it.
        this.unsafe = `a failed write could not be cut back (${(cut as Error).message}); restart clew once the disk is fixed`;
      }
      throw error;
    }
    // A full disk that has room again, a card that answers again: the table is saving again.
    this.writeProblem = undefined;
    // On the disk: the event is made, whatever compaction does next.
    this.size += bytes.length;
    this.entries++;
    this.version = version;
    if (this.entries >= this.opts.compactEvery) {
      try {
        await this.compact(stateAfter);
        this.compactProblem = undefined;
      } catch (error) {
        // The log goes on growing; the next append tries again.
        this.compactProblem = `compaction failed: ${(error as Error).message}`;
        this.opts.logger.error(`log: ${this.compactProblem}; the events are safe in ${path.basename(this.file)}`);
      }
    }
  }

  /**
   * Snapshot the state, then start an empty log. Crash-safe in every order: the snapshot is
   * written atomically first, and lines at or below its version are skipped on the next start.
   * A failure at any step leaves the log as it was, open for appends: the new, empty log is made
   * and opened beside it, and put in its place only when ready.
   */
  async compact(state: S): Promise<void> {
    await writeFileAtomic(this.snapshotFile, JSON.stringify({ v: this.version, t: this.opts.now(), state }));
    const fresh = `${this.file}.new-${process.pid}`;
    const next = await open(fresh, 'w');
    try {
      await next.sync();
      await rename(fresh, this.file);
    } catch (error) {
      await next.close();
      await rm(fresh, { force: true }).catch(() => undefined);
      throw error;
    }
    await fsyncDir(this.opts.dir);
    const old = this.handle;
    this.handle = next;
    await old?.close();
    this.size = 0;
    this.entries = 0;
    this.opts.logger.info(`log: compacted at version ${this.version}`);
  }

  /** Why no event can be appended until clew is restarted (undefined: appends go on). */
  needsRestart(): string | undefined {
    return this.unsafe;
  }

  status(): LogStatus {
    const problem = [this.problem, this.writeProblem, this.unsafe, this.compactProblem].filter((p) => p !== undefined).join('; ') || undefined;
    return {
      ok: problem === undefined,
      path: this.file,
      entries: this.entries,
      version: this.version,
      ...(problem !== undefined ? { message: problem } : {}),
    };
  }

  async close(): Promise<void> {
    await this.writing;
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }

  /** Removes the log and its snapshot (a fresh table). */
  static async erase(dir: string, name: string): Promise<void> {
    await rm(path.join(dir, `${name}.jsonl`), { force: true });
    await rm(path.join(dir, `${name}.snapshot.json`), { force: true });
  }
}
