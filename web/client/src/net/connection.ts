/**
 * The phone's line to the table: socket.io with reconnection, the join in the handshake (so a
 * phone that slept or a server that restarted puts the phone back in its seat without a round
 * trip), the snapshot as the only truth, and the outbox rules for intents made while the line was
 * down (see outbox.ts).
 */
import { io, type Socket } from 'socket.io-client';
import type { Ack, ClientToServerEvents, ErrorMessage, Intent, ServerToClientEvents, TableSnapshot } from '../../../../shared/protocol.js';
import { handshakeAuth, parseCredentials, type Credentials } from './credentials.js';
import { afterSnapshot, disconnected, droppedMessage, emptyOutbox, enqueue, envelopeOf, markSent, settle, staleMessage, type Outbox, type Outgoing } from './outbox.js';
import { raisedOn, replacedRollMessage, type Notice } from './notices.js';
import { createStore, type Store } from './store.js';

export type LinkStatus = 'connecting' | 'online' | 'offline';

export type { Notice } from './notices.js';

export interface TableView {
  status: LinkStatus;
  snapshot: TableSnapshot | null;
  credentials: Credentials | null;
  notice: Notice | null;
  /** Intents sent and not yet answered. */
  pending: number;
  /** How many times the line came back after dropping. */
  reconnects: number;
  /** A stored seat or code the server refused (shown on the join screen). */
  joinProblem: string | null;
  /** The last refusal of this phone's camera frames (shown beside the camera, not as a pop-up). */
  cameraProblem: string | null;
}

const STORAGE_KEY = 'clew.credentials';

type ClewSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export class TableConnection {
  readonly store: Store<TableView>;
  private socket: ClewSocket;
  private outbox: Outbox = emptyOutbox();
  /** Each unanswered intent's answer, and what settles it (a double tap shares the answer). */
  private waiters = new Map<number, { answer: Promise<Ack>; resolve: (ack: Ack) => void }>();
  private noticeId = 0;
  /** The first snapshot after a (re)connect decides what happens to unsent intents. */
  private awaitingFirstSnapshot = true;
  private everConnected = false;
  /** What the last reconnect did not get onto the table: dropped then, or refused when resent. */
  private away: { dropped: Outgoing[]; refused: Outgoing[] } = { dropped: [], refused: [] };

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null) {
    const credentials = parseCredentials(storage?.getItem(STORAGE_KEY) ?? null);
    this.store = createStore<TableView>({ status: 'connecting', snapshot: null, credentials, notice: null, pending: 0, reconnects: 0, joinProblem: null, cameraProblem: null });
    this.socket = io({
      // Re-read on every (re)connect, so a join made since then is used.
      auth: (cb) => cb(handshakeAuth(this.store.get().credentials)),
      reconnectionDelay: 500,
      reconnectionDelayMax: 4000,
      timeout: 8000,
    });
    this.socket.on('connect', () => {
      this.awaitingFirstSnapshot = true;
      if (this.everConnected) this.store.set({ reconnects: this.store.get().reconnects + 1 });
      this.everConnected = true;
      this.store.set({ status: 'online' });
    });
    this.socket.on('disconnect', () => {
      this.outbox = disconnected(this.outbox);
      this.store.set({ status: 'offline' });
    });
    this.socket.io.on('reconnect_attempt', () => this.store.set({ status: 'connecting' }));
    this.socket.on('connect_error', () => this.store.set({ status: 'offline' }));
    this.socket.on('snapshot', (snapshot) => this.onSnapshot(snapshot));
    this.socket.on('error', (error: ErrorMessage) => this.onServerError(error));
  }

  /** A phone that wakes up: if the line died in its sleep, dial again now rather than after back-off. */
  wake(): void {
    if (!this.socket.connected) this.socket.connect();
  }

  private onSnapshot(snapshot: TableSnapshot): void {
    const before = this.store.get().snapshot;
    const patch: Partial<TableView> = { snapshot };
    // A seat that no longer exists (the referee started a game with other players): choose again.
    const creds = this.store.get().credentials;
    if (creds?.role === 'player' && snapshot.you.role === 'player' && !snapshot.players.some((p) => p.id === creds.player)) {
      patch.joinProblem = 'Your seat is not at this game any more: choose your seat again.';
    }
    this.store.set(patch);
    // Nobody on this phone asked for it, so it would pass unseen: the dice shown changed.
    const replaced = replacedRollMessage(before, snapshot);
    if (replaced) this.notify('error', replaced);
    if (this.awaitingFirstSnapshot) {
      this.awaitingFirstSnapshot = false;
      const plan = afterSnapshot(this.outbox, snapshot.version);
      this.outbox = plan.box;
      this.away = { dropped: plan.dropped, refused: [] };
      for (const item of plan.dropped) this.finish(item.id, { ok: false, code: 'intent/stale', message: 'dropped on reconnect', version: snapshot.version }, true);
      const message = droppedMessage(plan.dropped);
      if (message) this.notify('error', message);
      for (const item of plan.resend) this.emit(item);
    }
  }

  private onServerError(error: ErrorMessage): void {
    if (error.code.startsWith('camera/') || error.code === 'rate/camera-frames') {
      this.store.set({ cameraProblem: error.message });
      return;
    }
    const creds = this.store.get().credentials;
    if (error.code === 'auth/no-such-seat' && creds?.role === 'player') {
      // The seat left (a game set up without it): the code still holds, only the seat is chosen again.
      this.store.set({ joinProblem: 'Your seat is not at this game any more: choose your seat again.' });
      return;
    }
    if (error.code.startsWith('auth/') && creds) {
      // The stored code or seat was refused at the handshake (new codes, or a seat that left).
      this.forget();
      this.store.set({ joinProblem: `${error.message}. Join again.` });
      return;
    }
    this.notify('error', error.message);
  }

  notify(kind: Notice['kind'], text: string): void {
    this.store.set({ notice: { id: ++this.noticeId, kind, text, raised: raisedOn(this.store.get().snapshot, Date.now()) } });
  }

  /** Takes the notice away; with `id`, only that notice (one that came since stays). */
  dismiss(id?: number): void {
    if (id !== undefined && this.store.get().notice?.id !== id) return;
    this.store.set({ notice: null });
  }

  /** Joins as referee or in a seat; on success the phone remembers it. */
  join(credentials: Credentials): Promise<Ack> {
    return new Promise((resolve) => {
      const request = credentials.player ? { code: credentials.code, role: credentials.role, player: credentials.player } : { code: credentials.code, role: credentials.role };
      let answered = false;
      const answer = (result: Ack) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        if (result.ok) {
          this.storage?.setItem(STORAGE_KEY, JSON.stringify(credentials));
          this.store.set({ credentials, joinProblem: null });
        }
        resolve(result);
      };
      const timer = setTimeout(() => answer({ ok: false, code: 'server/timeout', message: 'the table did not answer; check the Wi-Fi and try again' }), 10_000);
      this.socket.emit('join', request, answer);
    });
  }

  /** Leaves the seat (this phone becomes a viewer) and forgets the stored code. */
  leave(): void {
    this.forget();
    this.socket.disconnect().connect();
  }

  private forget(): void {
    this.storage?.removeItem(STORAGE_KEY);
    this.store.set({ credentials: null });
  }

  /**
   * Sends an intent made on the snapshot now shown. Resolves with the server's answer; a refusal
   * is also shown to the person (the server's message says what was wrong).
   */
  send(intent: Intent, label: string, madeOn?: number): Promise<Ack> {
    // `madeOn`: the version the person acted on, where it was not the one shown now (a picker opened earlier).
    const version = madeOn ?? this.store.get().snapshot?.version ?? 0;
    // A double tap: the same intent on the same version, still unanswered, is not sent twice (the
    // second would be refused as made on an older view, and say so as if something went wrong).
    const same = this.outbox.items.find((i) => i.version === version && JSON.stringify(i.intent) === JSON.stringify(intent));
    const already = same && this.waiters.get(same.id);
    if (already) return already.answer;
    const { box, item } = enqueue(this.outbox, intent, version, label);
    this.outbox = box;
    this.store.set({ pending: this.outbox.items.length });
    let resolve!: (ack: Ack) => void;
    const answer = new Promise<Ack>((r) => (resolve = r));
    this.waiters.set(item.id, { answer, resolve });
    if (this.socket.connected && !this.awaitingFirstSnapshot) this.emit(item);
    else this.notify('info', `Offline: “${label}” will be sent when the table is back.`);
    return answer;
  }

  private emit(item: Outgoing): void {
    this.outbox = markSent(this.outbox, item.id);
    this.socket.emit('intent', envelopeOf(item), (ack: Ack) => this.finish(item.id, ack));
  }

  private finish(id: number, ack: Ack, quiet = false): void {
    const item = this.outbox.items.find((i) => i.id === id);
    this.outbox = settle(this.outbox, id);
    this.store.set({ pending: this.outbox.items.length });
    const waiter = this.waiters.get(id);
    this.waiters.delete(id);
    if (!ack.ok && item && !quiet) {
      if (ack.code === 'intent/stale' && item.away) {
        // Resent after a reconnect and the table had changed in a way it depends on: one message
        // for everything the reconnect lost, not "someone acted first" for each.
        this.away.refused.push(item);
        this.notify('error', droppedMessage(this.away.dropped, this.away.refused) ?? staleMessage(item.label));
      } else if (ack.code === 'intent/stale') this.notify('error', staleMessage(item.label));
      else this.notify('error', ack.message);
    }
    waiter?.resolve(ack);
  }

  /** A camera frame from this phone (JPEG bytes). Fire and forget: the next frame follows soon. */
  frame(jpeg: ArrayBuffer): void {
    if (this.socket.connected) this.socket.volatile.emit('frame', jpeg);
  }
}
