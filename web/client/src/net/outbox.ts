/**
 * Intents waiting for the server's answer. Pure bookkeeping, so the reconnect rules can be tested
 * without a socket: an intent is sent with the snapshot version it was made on; when the phone
 * comes back after sleep or a server restart, each unanswered intent is sent again with that
 * version, and the server judges it: taken when nothing it depends on changed meanwhile (in
 * Worm & Cozy, other players drawing on their own sheets), refused as stale otherwise (it may
 * already be in, or no longer make sense), and the person is told the table changed while away.
 * Each intent carries an id made on this phone, the same on every resend, so one already applied
 * (its answer lost with the line) is answered as applied rather than judged again.
 */
import type { Intent, IntentEnvelope } from '../../../../shared/protocol.js';

export interface Outgoing {
  id: number;
  /** Sent with the intent, the same on every resend: unique to this phone's outbox (`phone`) and item. */
  intentId: string;
  intent: Intent;
  /** The snapshot version the person acted on. */
  version: number;
  /** Plain words for messages: "use this roll". */
  label: string;
  /** True once emitted on a live connection (it may still be lost if the connection drops). */
  sent: boolean;
  /** Sent again after a reconnect that found the table moved on: a refusal means it changed while away. */
  away?: boolean;
}

export interface Outbox {
  /** Random, made once per outbox (a page load): item ids alone repeat on every phone. */
  phone: string;
  next: number;
  items: Outgoing[];
}

/**
 * 64 random bits in hex. `getRandomValues`, not `randomUUID`: the phones open clew over plain
 * http on the table's Wi-Fi, where `randomUUID` (secure contexts only) is missing.
 */
function randomPhoneId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export const emptyOutbox = (phone: string = randomPhoneId()): Outbox => ({ phone, next: 1, items: [] });

export function enqueue(box: Outbox, intent: Intent, version: number, label: string): { box: Outbox; item: Outgoing } {
  const item: Outgoing = { id: box.next, intentId: `${box.phone}-${box.next}`, intent, version, label, sent: false };
  return { box: { ...box, next: box.next + 1, items: [...box.items, item] }, item };
}

/** What goes on the wire: the version it was made on and its id, however often it is sent. */
export function envelopeOf(item: Outgoing): IntentEnvelope {
  return { version: item.version, intent: item.intent, id: item.intentId };
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
  /** Sent again, each with the version it was made on: the server judges whether it still fits. */
  resend: Outgoing[];
  /** Not sent again (teaching), and the person is told. */
  dropped: Outgoing[];
}

/**
 * After the first snapshot of a (re)connection: every unsent intent is resent, made on the table
 * as it is now or not (`away` marks those made on an older one), except teaching, which is
 * dropped. Only unsent items are judged (a sent one still has its ack coming).
 */
export function afterSnapshot(box: Outbox, version: number): ReconnectPlan {
  const resend: Outgoing[] = [];
  const dropped: Outgoing[] = [];
  const keep: Outgoing[] = [];
  for (const item of box.items) {
    if (item.sent) keep.push(item);
    // Teaching does not move the table's version, so the server cannot tell a label, save or undo
    // already done from one still to do: resent, it could run twice (a second undo re-applies
    // what the first undid). Dropped and said instead.
    else if (item.intent.type.startsWith('calibration/')) dropped.push(item);
    else {
      const again = item.version === version ? item : { ...item, away: true };
      resend.push(again);
      keep.push(again);
    }
  }
  return { box: { ...box, items: keep }, resend, dropped };
}

/**
 * The message for intents the table did not take because it changed while the phone was away:
 * `dropped` on reconnect (never sent), `refused` as stale when sent again.
 */
export function droppedMessage(dropped: readonly Outgoing[], refused: readonly Outgoing[] = []): string | null {
  const part = (items: readonly Outgoing[], not: string): string[] =>
    items.length === 0 ? [] : [`${items.map((d) => `“${d.label}”`).join(', ')} ${items.length === 1 ? 'was' : 'were'} not ${not}`];
  const parts = [...part(dropped, 'sent'), ...part(refused, 'used')];
  if (parts.length === 0) return null;
  return `The table changed while this phone was away, so ${parts.join(' and ')}. Check the table and try again if it is still needed.`;
}

/** The message for an intent the server refused as stale (someone acted first). */
export function staleMessage(label: string): string {
  return `Someone acted first: “${label}” was made on an older view of the table and was not used. The screen now shows the table as it is.`;
}
