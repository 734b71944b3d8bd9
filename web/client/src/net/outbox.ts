/**
 * Intents waiting for the server's answer. Pure bookkeeping, so the reconnect rules can be tested
 * without a socket: an intent is sent with the snapshot version it was made on; when the phone
 * comes back after sleep or a server restart, the snapshot on reconnect is the truth, and each
 * unanswered intent is either resent (the table has not moved: nothing was lost) or dropped with a
 * message (the table moved: the intent may already be in, or no longer make sense).
 */
import type { Intent } from '../../../../shared/protocol.js';

export interface Outgoing {
  id: number;
  intent: Intent;
  /** The snapshot version the person acted on. */
  version: number;
  /** Plain words for messages: "use this roll". */
  label: string;
  /** True once emitted on a live connection (it may still be lost if the connection drops). */
  sent: boolean;
}

export interface Outbox {
  next: number;
  items: Outgoing[];
}

export const emptyOutbox = (): Outbox => ({ next: 1, items: [] });

export function enqueue(box: Outbox, intent: Intent, version: number, label: string): { box: Outbox; item: Outgoing } {
  const item: Outgoing = { id: box.next, intent, version, label, sent: false };
  return { box: { next: box.next + 1, items: [...box.items, item] }, item };
}

export function markSent(box: Outbox, id: number): Outbox {
  return { ...box, items: box.items.map((i) => (i.id === id ? { ...i, sent: true } : i)) };
}

/** The answer came (accepted or refused): the intent is no longer pending. */
export function settle(box: Outbox, id: number): Outbox {
  return { ...box, items: box.items.filter((i) => i.id !== id) };
}

/** The connection dropped: whatever was in flight may never be answered, so it waits for the reconnect. */
export function disconnected(box: Outbox): Outbox {
  return { ...box, items: box.items.map((i) => ({ ...i, sent: false })) };
}

export interface ReconnectPlan {
  box: Outbox;
  /** Still valid on the table as it is now: send again. */
  resend: Outgoing[];
  /** The table moved on: dropped, and the person is told. */
  dropped: Outgoing[];
}

/**
 * After the first snapshot of a (re)connection: intents made on the version the table is still at
 * are resent; the rest are dropped. Only unsent items are judged (a sent one still has its ack coming).
 */
export function afterSnapshot(box: Outbox, version: number): ReconnectPlan {
  const resend: Outgoing[] = [];
  const dropped: Outgoing[] = [];
  const keep: Outgoing[] = [];
  for (const item of box.items) {
    if (item.sent) keep.push(item);
    // Teaching does not move the table's version, so a resent label, save or undo could run twice
    // (a second undo re-applies what the first undid): dropped and said instead.
    else if (item.version === version && !item.intent.type.startsWith('calibration/')) {
      resend.push(item);
      keep.push(item);
    } else dropped.push(item);
  }
  return { box: { ...box, items: keep }, resend, dropped };
}

/** The message for intents dropped on reconnect. */
export function droppedMessage(dropped: readonly Outgoing[]): string | null {
  if (dropped.length === 0) return null;
  const what = dropped.map((d) => `“${d.label}”`).join(', ');
  return `The table changed while this phone was away, so ${what} ${dropped.length === 1 ? 'was' : 'were'} not sent. Check the table and try again if it is still needed.`;
}

/** The message for an intent the server refused as stale (someone acted first). */
export function staleMessage(label: string): string {
  return `Someone acted first: “${label}” was made on an older view of the table and was not used. The screen now shows the table as it is.`;
}
