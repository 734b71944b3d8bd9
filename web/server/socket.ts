/**
 * The socket.io transport. Everything a phone sends is checked here, at the edge, before it can
 * reach the table: the payload against `shared/protocol.ts`'s schemas, the sender's role (no
 * action without the join code), a per-phone rate limit, and a size limit. Errors carry a
 * namespaced code and a plain message, never a stack trace. Each change sends the full snapshot
 * to every phone; a phone that (re)connects gets it at once.
 */
import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { z } from 'zod';
import type { ErrorCode, PlayerId } from '../../shared/game.js';
import {
  MAX_INTENT_CHARS,
  MAX_PAYLOAD_BYTES,
  intentEnvelopeSchema,
  joinSchema,
  type Ack,
  type ClientToServerEvents,
  type ErrorMessage,
  type ServerToClientEvents,
} from '../../shared/protocol.js';
import { codeMatches, type TableCodes } from './codes.js';
import type { Logger } from './logger.js';
import { KeyedBuckets, TokenBucket } from './rate-limit.js';
import type { TableSession } from './session.js';
import type { Actor, GameLookup } from './table.js';
import { forAudience, roomOf, sharedSnapshot, type Audience, type SharedSnapshot, type Surroundings } from './view.js';

export interface SocketLimits {
  intentsPerSecond: number;
  intentBurst: number;
  framesPerSecond: number;
  joinsPerMinute: number;
}

export type FrameResult = { ok: true } | { ok: false; code: ErrorCode; message: string };

export interface SocketDeps {
  session: TableSession;
  games: GameLookup;
  codes: TableCodes;
  /** Where other phones on the table's network reach clew (lan.ts `lanInvite`), once it listens; told to the referee. */
  lanUrl?(): string | null;
  /** Hardware and calibration status, read at each broadcast. */
  surroundings(): Surroundings;
  /** A phone used as the camera sent a frame. */
  frame?(jpeg: Uint8Array): FrameResult;
  limits: SocketLimits;
  logger: Logger;
  now(): number;
}

interface PhoneData {
  audience: Audience;
  intents: TokenBucket;
  frames: TokenBucket;
  joins: TokenBucket;
}

type ClewSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, PhoneData>;

const KNOWN_EVENTS = new Set(['join', 'intent', 'frame']);

function zodIssues(error: z.ZodError): string {
  const text = error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}

/** Levels an intent may nest (the deepest clew sends, a custom chapter's rewards, nests about 8). */
const MAX_INTENT_DEPTH = 64;

/**
 * Whether `value` nests deeper than `max` levels, found without recursion and stopping at the
 * first such branch: a message nested 400,000 levels took JSON.stringify up to 750 ms to refuse,
 * and a phone could keep the server's one thread that busy.
 */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Length of the JSON text, or null when it nests too deeply to serialise (it would not fit the log). */
function jsonSize(value: unknown): number | null {
  try {
    return JSON.stringify(value).length;
  } catch {
    return null;
  }
}

function actorOf(audience: Audience): Actor | null {
  if (audience.role === 'referee') return { kind: 'referee' };
  if (audience.role === 'player') return { kind: 'player', player: audience.player };
  return null;
}

/** socket.io puts the ack callback last, when the phone asked for one (then a message with no payload has only the callback). */
function split(args: unknown[]): { payload: unknown; ack: ((result: Ack) => void) | null } {
  const last = args[args.length - 1];
  const ack = typeof last === 'function' ? (last as (result: Ack) => void) : null;
  return { payload: ack && args.length === 1 ? undefined : args[0], ack };
}

function asBytes(payload: unknown): Uint8Array | null {
  if (payload instanceof Uint8Array) return payload;
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  return null;
}

export interface Transport {
  io: Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, PhoneData>;
  /** Sends the current snapshot to every phone (after a table change or a hardware change). */
  broadcast(): void;
  close(): Promise<void>;
}

export function attachSocket(http: HttpServer, deps: SocketDeps): Transport {
  const { session, logger, limits, now } = deps;
  const io = new Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, PhoneData>(http, {
    maxHttpBufferSize: MAX_PAYLOAD_BYTES,
    // Phones on a table's Wi-Fi sleep and wake; let them come back without piling up timers.
    pingInterval: 20_000,
    pingTimeout: 20_000,
    serveClient: false,
  });
  const joinsByAddress = new KeyedBuckets(limits.joinsPerMinute / 60, limits.joinsPerMinute, now);

  let shared: SharedSnapshot | null = null;
  const current = (): SharedSnapshot => (shared ??= sharedSnapshot(session.table, deps.games, deps.surroundings()));

  const snapshotFor = (audience: Audience) => forAudience(current(), audience, deps.codes, deps.lanUrl?.());

  const broadcast = (): void => {
    shared = null;
    let base: SharedSnapshot;
    try {
      base = current();
    } catch (error) {
      logger.error(`snapshot: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return;
    }
    // A new game without a phone's seat: the phone is a viewer again and told why (it kept acting
    // as a seat nobody had, and the table refused it when it came back).
    const seats = new Set(base.players.map((p) => p.id));
    for (const [room, members] of [...io.sockets.adapter.rooms]) {
      if (!room.startsWith('player:') || seats.has(room.slice('player:'.length))) continue;
      for (const id of [...members]) {
        const phone = io.sockets.sockets.get(id) as ClewSocket | undefined;
        if (!phone) continue;
        void phone.leave(room);
        phone.data.audience = { role: 'viewer' };
        void phone.join(roomOf(phone.data.audience));
        phone.emit('error', { code: 'auth/no-such-seat', message: `the table was set up again without the seat "${room.slice('player:'.length)}": choose your seat again`, version: session.table.version });
      }
    }
    const audiences: Audience[] = [{ role: 'viewer' }, { role: 'referee' }];
    for (const room of io.sockets.adapter.rooms.keys()) {
      if (room.startsWith('player:')) audiences.push({ role: 'player', player: room.slice('player:'.length) });
    }
    for (const audience of audiences) {
      const room = roomOf(audience);
      if (io.sockets.adapter.rooms.get(room)?.size) io.to(room).emit('snapshot', forAudience(base, audience, deps.codes, deps.lanUrl?.()));
    }
  };
  // Through the transport object, so a wrapper (the bench's timing) sees every broadcast.
  const unsubscribe = session.onChange(() => transport.broadcast());

  io.on('connection', (raw) => {
    const socket = raw as ClewSocket;
    socket.data = {
      audience: { role: 'viewer' },
      intents: new TokenBucket(limits.intentsPerSecond, limits.intentBurst, now),
      frames: new TokenBucket(limits.framesPerSecond, Math.ceil(limits.framesPerSecond), now),
      joins: new TokenBucket(limits.joinsPerMinute / 60, Math.min(limits.joinsPerMinute, 5), now),
    };
    const address = socket.handshake.address;
    void socket.join(roomOf(socket.data.audience));

    const reply = (ack: ((r: Ack) => void) | null, result: Ack): void => {
      if (ack) ack(result);
      else if (!result.ok) {
        const error: ErrorMessage = { code: result.code, message: result.message, ...(result.version !== undefined ? { version: result.version } : {}) };
        socket.emit('error', error);
      }
    };
    const refuse = (ack: ((r: Ack) => void) | null, code: ErrorCode, message: string): void =>
      reply(ack, { ok: false, code, message, version: session.table.version });

    /** Runs a handler; whatever goes wrong inside, the phone gets a code and a plain message. */
    const guard =
      (name: string, handler: (payload: unknown, ack: ((r: Ack) => void) | null) => Promise<void> | void) =>
      async (...args: unknown[]): Promise<void> => {
        const { payload, ack } = split(args);
        try {
          await handler(payload, ack);
        } catch (error) {
          logger.error(`socket ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          refuse(ack, 'server/internal', 'something went wrong on the table server; nothing was changed');
        }
      };

    /** Checks a join request and, if it holds, moves this phone into its audience. */
    const join = (payload: unknown): Ack => {
      const no = (code: ErrorCode, message: string): Ack => ({ ok: false, code, message, version: session.table.version });
      if (!socket.data.joins.take() || !joinsByAddress.take(address)) {
        return no('rate/join', `too many join attempts; at most ${limits.joinsPerMinute} a minute`);
      }
      const parsed = joinSchema.safeParse(payload);
      if (!parsed.success) return no('payload/invalid', `not a join request: ${zodIssues(parsed.error)}`);
      const { code, role, player } = parsed.data;
      let audience: Audience;
      if (role === 'referee') {
        if (!codeMatches(code, deps.codes.refereeCode)) return no('auth/bad-code', 'that is not the referee code');
        audience = { role: 'referee' };
      } else {
        if (!codeMatches(code, deps.codes.joinCode) && !codeMatches(code, deps.codes.refereeCode)) {
          return no('auth/bad-code', 'that is not this table’s join code');
        }
        const seats: PlayerId[] = current().players.map((p) => p.id);
        if (!player || !seats.includes(player)) return no('auth/no-such-seat', `join as one of the seats: ${seats.join(', ') || '(none)'}`);
        audience = { role: 'player', player };
      }
      void socket.leave(roomOf(socket.data.audience));
      socket.data.audience = audience;
      void socket.join(roomOf(audience));
      return { ok: true, version: session.table.version };
    };

    socket.on(
      'join',
      guard('join', (payload, ack) => {
        const result = join(payload);
        // The snapshot with the new `you` comes first, so the ack finds the phone up to date.
        if (result.ok) socket.emit('snapshot', snapshotFor(socket.data.audience));
        reply(ack, result);
      }),
    );

    socket.on(
      'intent',
      guard('intent', async (payload, ack) => {
        if (!socket.data.intents.take()) return refuse(ack, 'rate/limited', `too many messages; at most ${limits.intentsPerSecond} a second`);
        const actor = actorOf(socket.data.audience);
        if (!actor) return refuse(ack, 'auth/not-joined', 'join the table with its code first');
        if (nestsDeeperThan(payload, MAX_INTENT_DEPTH)) return refuse(ack, 'payload/too-deep', `the intent is nested too deeply (more than ${MAX_INTENT_DEPTH} levels)`);
        const parsed = intentEnvelopeSchema.safeParse(payload);
        if (!parsed.success) return refuse(ack, 'payload/invalid', `not an intent: ${zodIssues(parsed.error)}`);
        const size = jsonSize(parsed.data);
        if (size === null) return refuse(ack, 'payload/too-deep', 'the intent is nested too deeply');
        if (size > MAX_INTENT_CHARS) return refuse(ack, 'payload/too-large', `an intent may be at most ${MAX_INTENT_CHARS} characters of JSON`);
        reply(ack, await session.submit(actor, parsed.data));
      }),
    );

    socket.on(
      'frame',
      guard('frame', (payload, ack) => {
        if (!actorOf(socket.data.audience)) return refuse(ack, 'auth/not-joined', 'join the table with its code first');
        if (!socket.data.frames.take()) return refuse(ack, 'rate/camera-frames', `too many frames; at most ${limits.framesPerSecond} a second`);
        if (!deps.frame) return refuse(ack, 'camera/no-phone-camera', 'this table does not take camera frames from phones');
        const bytes = asBytes(payload);
        if (!bytes) return refuse(ack, 'camera/not-jpeg', 'a camera frame must be binary JPEG data');
        const result = deps.frame(bytes);
        if (!result.ok) return refuse(ack, result.code, result.message);
        if (ack) ack({ ok: true, version: session.table.version });
      }),
    );

    socket.onAny((event: string, ...args: unknown[]) => {
      if (KNOWN_EVENTS.has(event)) return;
      if (!socket.data.intents.take()) return;
      const { ack } = split(args);
      refuse(ack, 'payload/unknown-event', `unknown event "${String(event).slice(0, 40)}"; send join, intent or frame`);
    });

    // A phone may put its join request in the handshake (`io(url, { auth: { code, role, player } })`),
    // so a reconnect after sleep or a server restart comes back in its seat without a round trip.
    const auth = socket.handshake.auth as unknown;
    if (auth && typeof auth === 'object' && 'code' in auth) {
      const result = join(auth);
      if (!result.ok) socket.emit('error', { code: result.code, message: result.message, version: session.table.version });
    }
    // Every (re)connect starts with the latest snapshot.
    try {
      socket.emit('snapshot', snapshotFor(socket.data.audience));
    } catch (error) {
      logger.error(`socket connect: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      socket.emit('error', { code: 'server/internal', message: 'the table could not be shown; try again shortly' });
    }
  });

  const transport: Transport = {
    io,
    broadcast,
    close: async () => {
      unsubscribe();
      // io.close() also closes the HTTP server, which waits for every open connection to end: a
      // phone's keep-alive or long-poll request could hold a restart up for a minute. Idle ones go
      // at once, busy ones after a short grace.
      const closed = new Promise<void>((resolve) => io.close(() => resolve()));
      http.closeIdleConnections();
      const grace = setTimeout(() => http.closeAllConnections(), 1_000);
      await closed;
      clearTimeout(grace);
    },
  };
  return transport;
}
