/** The phone's message line: how long a notice stays, and the notice a camera roll replacing a roll entered by hand brings. */
import { describe, expect, it } from 'vitest';
import type { PendingRoll, TableSnapshot } from '../../../shared/protocol.js';
import { ERROR_MS, ERROR_READ_MS, ERROR_VERSIONS, INFO_MS, noticeEnds, raisedOn, REPLACED_BY_CAMERA, replacedRollMessage, type Notice } from '../../../web/client/src/net/notices.js';

const PLAYERS = [{ id: 'ann', name: 'Ann', color: 'red' }, { id: 'bob', name: 'Bob', color: 'yellow' }];
const table = (version: number, more: Partial<TableSnapshot> = {}) =>
  ({ version, game: 'worm-and-cozy', options: { chapter: 'clew-1' }, players: PLAYERS, state: { hour: 3 }, roll: null, ...more }) as unknown as TableSnapshot;

const AT = 1_000_000;
const error = (on: TableSnapshot | null): Notice => ({ id: 1, kind: 'error', text: 'The table changed while this phone was away, so “die 1 is 4” was not sent.', raised: raisedOn(on, AT) });

describe('how long a notice stays', () => {
  it('an error about a game goes at once when the table plays another game, or the same game with other players', () => {
    const notice = error(table(40));
    expect(noticeEnds(notice, table(41, { game: 'tapeworm', options: {} }))).toBeLessThanOrEqual(AT);
    expect(noticeEnds(notice, table(41, { players: PLAYERS.slice(0, 1) }))).toBeLessThanOrEqual(AT);
  });

  it('an error stays long enough to be read while the table moves on, and goes once it has moved a few versions', () => {
    const notice = error(table(40));
    // The table as it was, or a move or two on: it stays (the person may still be reading it).
    expect(noticeEnds(notice, table(40))).toBe(AT + ERROR_MS);
    expect(noticeEnds(notice, table(40 + ERROR_VERSIONS - 1))).toBe(AT + ERROR_MS);
    // A few moves on it is old news, but is still shown for reading first.
    expect(noticeEnds(notice, table(40 + ERROR_VERSIONS))).toBe(AT + ERROR_READ_MS);
    expect(ERROR_READ_MS).toBeGreaterThanOrEqual(10_000);
    // One raised before any table was seen (a join refused) goes after the long time only.
    expect(noticeEnds(error(null), table(90, { game: 'tapeworm' }))).toBe(AT + ERROR_MS);
  });

  it('an info notice goes after a few seconds, as before', () => {
    const info: Notice = { id: 2, kind: 'info', text: 'Offline: “use this roll” will be sent when the table is back.', raised: raisedOn(table(7), AT) };
    expect(noticeEnds(info, table(7))).toBe(AT + INFO_MS);
  });
});

describe('a camera roll replacing a roll entered by hand', () => {
  const manual: PendingRoll = { dice: [{ set: 'd6', face: '5', color: 'red' }, { set: 'd6', face: '1' }, { set: 'd6', face: '6' }], source: 'manual', needsConfirmation: false };
  const camera: PendingRoll = { dice: [{ set: 'd6', face: '2', color: 'red', confidence: 0.9, box: [1, 2, 30, 30] }, { set: 'd6', face: '1' }, { set: 'd6', face: '3' }], source: 'camera', needsConfirmation: false } as PendingRoll;

  it('is said on every phone: the dice shown changed though nobody on it asked', () => {
    expect(replacedRollMessage(table(14, { roll: manual }), table(15, { roll: camera }))).toBe(REPLACED_BY_CAMERA);
    expect(replacedRollMessage(table(14, { roll: manual }), table(15, { roll: { ...camera, source: 'phone-camera' } }))).toBe(REPLACED_BY_CAMERA);
  });

  it('is not said for a camera roll replacing a camera roll, a roll entered over another, the first snapshot, or the same version again', () => {
    expect(replacedRollMessage(table(14, { roll: camera }), table(15, { roll: camera }))).toBeNull();
    expect(replacedRollMessage(table(14, { roll: camera }), table(15, { roll: manual }))).toBeNull();
    expect(replacedRollMessage(null, table(15, { roll: camera }))).toBeNull();
    expect(replacedRollMessage(table(14, { roll: manual }), table(14, { roll: manual }))).toBeNull();
  });

  it('is not said for BACK bringing back an older camera roll (the game changes too), nor when the phone missed versions', () => {
    expect(replacedRollMessage(table(14, { roll: manual }), table(15, { roll: { ...camera, dice: [{ ...camera.dice[0]!, corrected: true, readAs: '4' }, ...camera.dice.slice(1)] } }))).toBeNull();
    expect(replacedRollMessage(table(14, { roll: manual }), table(15, { roll: camera, state: { hour: 2 } }))).toBeNull();
    expect(replacedRollMessage(table(14, { roll: manual }), table(17, { roll: camera }))).toBeNull();
  });
});
