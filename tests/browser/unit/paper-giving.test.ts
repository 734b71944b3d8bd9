/**
 * *Score a sheet* joined to a table: whether the phone offers "Give this score to <seat>", and to
 * which seats. The engine checks the move again; this only decides what the screen offers.
 */
import { describe, expect, it } from 'vitest';
import { applyMove, setup, type CozyMove, type CozyState } from '../../../shared/games/worm-and-cozy/index.js';
import type { TableSnapshot } from '../../../shared/protocol.js';
import { firstPaperSeat, paperGiving } from '../../../web/client/src/logic/paper.js';

const PLAYERS = [
  { id: 'ann', name: 'Ann' },
  { id: 'bob', name: 'Bob' },
];

function played(state: CozyState, ...moves: CozyMove[]): CozyState {
  for (const m of moves) {
    const r = applyMove(state, m);
    if (!r.ok) throw new Error(r.message);
    state = r.state;
  }
  return state;
}

/** Ann drew a worm on her twin at 1 AM; Bob played on paper only. */
function game(over: boolean): CozyState {
  const r = setup({ chapter: 'clew-1', players: PLAYERS });
  if (!r.ok) throw new Error(r.message);
  let s = played(r.state, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] }, { type: 'placeWorm', player: 'ann', cells: ['A1', 'A2', 'A3', 'A4', 'A5'] }, { type: 'addOrgan', player: 'ann', organ: 'eye', cell: 'A1', facing: 'N' }, { type: 'endHour' });
  for (let h = 1; h < (over ? 16 : 3); h++) s = played(s, { type: 'roll', shape: 'I', organs: ['eye', 'eye'] }, { type: 'endHour' });
  return s;
}

const snap = (state: unknown, you: TableSnapshot['you'], gameId: TableSnapshot['game'] = 'worm-and-cozy') => ({ game: gameId, state, you }) as TableSnapshot;

describe('giving a scored sheet to a seat', () => {
  it('the seated phone gives to its own seat once the game is over; the referee to any seat', () => {
    const s = game(true);
    expect(paperGiving(snap(s, { role: 'player', player: 'bob' }), 'clew-1')).toEqual({ kind: 'ready', seats: [{ id: 'bob', name: 'Bob', twinUsed: false, paperGiven: false }] });
    const referee = paperGiving(snap(s, { role: 'referee' }), 'clew-1');
    expect(referee).toEqual({ kind: 'ready', seats: [{ id: 'ann', name: 'Ann', twinUsed: true, paperGiven: false }, { id: 'bob', name: 'Bob', twinUsed: false, paperGiven: false }] });
    // The referee's picker starts on the seat with nothing on its twin: the paper player's.
    expect(referee.kind === 'ready' && firstPaperSeat(referee.seats)).toBe('bob');
  });

  it('before the end it says when; with another chapter it names the table’s', () => {
    const s = game(false);
    expect(paperGiving(snap(s, { role: 'player', player: 'bob' }), 'clew-1')).toMatchObject({ kind: 'not-over', hour: '4 AM', last: '8 PM' });
    expect(paperGiving(snap(game(true), { role: 'player', player: 'bob' }), 'clew-2')).toMatchObject({ kind: 'other-chapter', table: { id: 'clew-1' } });
  });

  it('a table playing a chapter of its own (not one this screen can draw) says so, rather than asking for a chapter not offered', () => {
    const own = { ...game(true), chapter: { ...game(true).chapter, id: 'house-1', title: 'House rules' } };
    for (const sheetChapter of ['clew-1', 'clew-2']) expect(paperGiving(snap(own, { role: 'player', player: 'bob' }), sheetChapter)).toMatchObject({ kind: 'own-chapter', table: { title: 'House rules' } });
  });

  it('nothing to give with no table, another game, or a phone only watching', () => {
    expect(paperGiving(null, 'clew-1')).toEqual({ kind: 'none' });
    expect(paperGiving(snap({}, { role: 'referee' }, 'worm-up'), 'clew-1')).toEqual({ kind: 'none' });
    expect(paperGiving(snap(game(true), { role: 'viewer' }), 'clew-1')).toEqual({ kind: 'none' });
  });

  it('a seat given a paper sheet already says so (giving again replaces it)', () => {
    const s = played(game(true), { type: 'paperSheet', player: 'bob', sheet: { chapter: 'clew-1', worms: [{ cells: ['J1', 'J2'] }] } });
    expect(paperGiving(snap(s, { role: 'player', player: 'bob' }), 'clew-1')).toEqual({ kind: 'ready', seats: [{ id: 'bob', name: 'Bob', twinUsed: false, paperGiven: true }] });
  });
});
