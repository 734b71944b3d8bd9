/**
 * A phone for tests: a real socket.io client with small helpers to join, send intents and wait
 * for snapshots. Snapshots are queued as they arrive so a test can wait for "the next one".
 */
import { io, type Socket } from 'socket.io-client';
import type { Ack, ErrorMessage, Intent, TableSnapshot } from '../../shared/protocol.js';

export interface Phone {
  socket: Socket;
  /** Every snapshot received, oldest first. */
  snapshots: TableSnapshot[];
  errors: ErrorMessage[];
  latest(): TableSnapshot;
  /** Resolves with the latest snapshot once it matches `test` (at once if it already does; default wait 30 s). */
  snapshot(test?: (s: TableSnapshot) => boolean, timeoutMs?: number): Promise<TableSnapshot>;
  join(role: 'referee' | 'player', code: string, player?: string): Promise<Ack>;
  /** Sends an intent at the phone's latest version (or the one given). */
  send(intent: Intent | unknown, version?: number): Promise<Ack>;
  emit(event: string, ...args: unknown[]): Promise<Ack>;
  close(): void;
}

export async function connectPhone(url: string, options: { auth?: Record<string, unknown>; transports?: string[] } = {}): Promise<Phone> {
  const socket = io(url, {
    transports: options.transports ?? ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(options.auth ? { auth: options.auth } : {}),
  });
  const snapshots: TableSnapshot[] = [];
  const errors: ErrorMessage[] = [];
  const waiters: { test: (s: TableSnapshot) => boolean; from: number; resolve: (s: TableSnapshot) => void }[] = [];
  socket.on('snapshot', (s: TableSnapshot) => {
    snapshots.push(s);
    for (const w of [...waiters]) {
      if (w.test(s)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(s);
      }
    }
  });
  socket.on('error', (e: ErrorMessage) => errors.push(e));

  const phone: Phone = {
    socket,
    snapshots,
    errors,
    latest() {
      const s = snapshots[snapshots.length - 1];
      if (!s) throw new Error('no snapshot yet');
      return s;
    },
    // Generous waits (they end as soon as the answer comes): a loaded machine can be slow to answer.
    snapshot(test = () => true, timeoutMs = 30_000) {
      const last = snapshots[snapshots.length - 1];
      if (last && test(last)) return Promise.resolve(last);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching snapshot arrived')), timeoutMs);
        waiters.push({
          test,
          from: snapshots.length,
          resolve: (s) => {
            clearTimeout(timer);
            resolve(s);
          },
        });
      });
    },
    join(role, code, player) {
      return phone.emit('join', { role, code, ...(player ? { player } : {}) });
    },
    send(intent, version) {
      return phone.emit('intent', { version: version ?? phone.latest().version, intent });
    },
    emit(event, ...args) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ack for ${event}`)), 30_000);
        socket.emit(event, ...args, (ack: Ack) => {
          clearTimeout(timer);
          resolve(ack);
        });
      });
    },
    close() {
      socket.disconnect();
    },
  };
  await new Promise<void>((resolve, reject) => {
    socket.once('connect_error', reject);
    // The server greets every connection with a snapshot.
    const first = () => (snapshots.length ? resolve() : socket.once('snapshot', () => resolve()));
    first();
  });
  return phone;
}
