/** The phone's outbox: what happens to intents when the line drops and comes back. */
import { describe, expect, it } from 'vitest';
import { afterSnapshot, disconnected, droppedMessage, emptyOutbox, enqueue, envelopeOf, markSent, settle, staleMessage } from '../../../web/client/src/net/outbox.js';

const done = { type: 'move' as const, move: { type: 'done', player: 'p1' } };

describe('outbox', () => {
  it('an answered intent leaves the outbox', () => {
    let { box, item } = enqueue(emptyOutbox(), done, 7, 'nothing more this hour');
    box = markSent(box, item.id);
    expect(box.items).toHaveLength(1);
    expect(settle(box, item.id).items).toEqual([]);
  });

  it('after a reconnect on the same version, an intent in flight when the line dropped is resent', () => {
    let { box, item } = enqueue(emptyOutbox(), done, 7, 'done');
    box = disconnected(markSent(box, item.id));
    const plan = afterSnapshot(box, 7);
    expect(plan.resend.map((i) => i.id)).toEqual([item.id]);
    expect(plan.dropped).toEqual([]);
    expect(plan.box.items).toHaveLength(1); // still waiting for its answer
  });

  it('teaching is not resent after a reconnect (it does not move the version, so it could run twice): dropped with a message', () => {
    let { box, item } = enqueue(emptyOutbox(), { type: 'calibration/undo', set: 'd6' }, 7, 'undo the calibration');
    box = disconnected(markSent(box, item.id));
    const plan = afterSnapshot(box, 7);
    expect(plan.resend).toEqual([]);
    expect(plan.dropped.map((i) => i.id)).toEqual([item.id]);
  });

  it('after a reconnect on a newer version, unsent intents are resent with the version they were made on, for the server to judge (since the forty-second session)', () => {
    // In Worm & Cozy another player's move on their own sheet leaves this one valid: the server takes it.
    const a = enqueue(emptyOutbox(), done, 7, 'done');
    const b = enqueue(a.box, { type: 'undo' }, 7, 'undo');
    const c = enqueue(b.box, { type: 'move', move: { type: 'done', player: 'p2' } }, 9, 'done too');
    const plan = afterSnapshot(disconnected(markSent(c.box, a.item.id)), 9);
    expect(plan.resend.map((i) => [i.label, i.version, i.away ?? false])).toEqual([
      ['done', 7, true],
      ['undo', 7, true],
      ['done too', 9, false],
    ]);
    expect(plan.dropped).toEqual([]);
    // Still waiting for the answers, and a refusal of the older ones will say the table changed while away.
    expect(plan.box.items.map((i) => i.away ?? false)).toEqual([true, true, false]);
  });

  it('what a reconnect did not get onto the table is said in one message: not sent (dropped), not used (refused when resent)', () => {
    const a = enqueue(emptyOutbox(), { type: 'calibration/undo', set: 'd6' }, 7, 'undo the calibration');
    const b = enqueue(a.box, done, 7, 'done');
    const c = enqueue(b.box, { type: 'undo' }, 7, 'undo');
    expect(droppedMessage([a.item, b.item])).toBe(
      'The table changed while this phone was away, so “undo the calibration”, “done” were not sent. Check the table and try again if it is still needed.',
    );
    expect(droppedMessage([], [b.item])).toBe('The table changed while this phone was away, so “done” was not used. Check the table and try again if it is still needed.');
    expect(droppedMessage([a.item], [b.item, c.item])).toBe(
      'The table changed while this phone was away, so “undo the calibration” was not sent and “done”, “undo” were not used. Check the table and try again if it is still needed.',
    );
  });

  it('an intent is sent with its own id, and resent after a reconnect with the same id, so one already applied is known (since the forty-second session)', () => {
    const a = enqueue(emptyOutbox(), done, 7, 'done');
    const b = enqueue(a.box, { type: 'undo' }, 7, 'undo');
    const first = envelopeOf(a.item);
    expect(first).toEqual({ version: 7, intent: done, id: a.item.intentId });
    expect(first.id).toBeTruthy();
    const plan = afterSnapshot(disconnected(markSent(b.box, a.item.id)), 9);
    expect(plan.resend.map(envelopeOf)).toEqual([first, { version: 7, intent: { type: 'undo' }, id: b.item.intentId }]);
    // Distinct for every intent, and between phones (each outbox starts its items at 1).
    const other = enqueue(emptyOutbox(), done, 7, 'done');
    expect(new Set([a.item.intentId, b.item.intentId, other.item.intentId]).size).toBe(3);
  });

  it('an intent still on the wire (sent, line up) is left alone by a snapshot', () => {
    let { box, item } = enqueue(emptyOutbox(), done, 7, 'done');
    box = markSent(box, item.id);
    const plan = afterSnapshot(box, 8);
    expect(plan.resend).toEqual([]);
    expect(plan.dropped).toEqual([]);
    expect(plan.box.items).toHaveLength(1);
  });

  it('says nothing when nothing was dropped, and names the stale intent', () => {
    expect(droppedMessage([])).toBeNull();
    expect(staleMessage('use this roll')).toContain('“use this roll”');
  });
});
