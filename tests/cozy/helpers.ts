/**
 * Test helpers: build a position from the board notation, play moves, and print the board in any
 * failure message so the reader sees the position.
 */
import { expect } from 'vitest';
import { getChapter, parseChapter, type Chapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { geometry } from '../../shared/games/worm-and-cozy/board.js';
import { applyMove } from '../../shared/games/worm-and-cozy/apply.js';
import { setup } from '../../shared/games/worm-and-cozy/index.js';
import type { CozyMove } from '../../shared/games/worm-and-cozy/moves.js';
import { parseBoard, printBoard } from '../../shared/games/worm-and-cozy/notation.js';
import { legalOptions } from '../../shared/games/worm-and-cozy/options.js';
import type { CozyState, OrganType, Roll, ShapeName } from '../../shared/games/worm-and-cozy/state.js';

/** clew-1 with another board: size and rocks from a picture, regions as given (default: every hour the whole board). */
export function chapterFor(board: string, regions?: Chapter['clock']['regions'], hours = 16): Chapter {
  const b = parseBoard(board);
  const base = getChapter('clew-1');
  const lastCol = String.fromCharCode(64 + b.width);
  const r = parseChapter({
    ...base,
    id: 'test',
    board: { columns: b.width, rows: b.height, rocks: b.rocks },
    clock: { regions: regions ?? Array.from({ length: 8 }, () => ({ edge: 'top' as const, columns: `A-${lastCol}` })), halves: ['AM', 'PM'], hours: Math.min(hours, (regions?.length ?? 8) * 2) },
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.chapter;
}

export interface At {
  /** The chapter (default clew-1; the picture's rocks must match it). */
  chapter?: Chapter;
  /** 0-based hour index (0 = 1 AM). */
  hour?: number;
  roll?: [ShapeName, OrganType, OrganType];
  credits?: number;
  players?: { id: string; name: string }[];
}

export function roll(shape: ShapeName, a: OrganType, b: OrganType): Roll {
  return { shape, organs: [a, b] };
}

/** A state in the play phase of `hour`, every player's sheet drawn as in `board`. */
export function stateAt(board: string, at: At = {}): CozyState {
  const chapter = at.chapter ?? getChapter('clew-1');
  const b = parseBoard(board);
  expect(b.width, 'board width').toBe(chapter.board.columns);
  expect(b.height, 'board height').toBe(chapter.board.rows);
  expect([...b.rocks].sort(), 'the picture shows the chapter rocks').toEqual([...chapter.board.rocks].sort());
  const s = setup({ chapter: chapter.id === 'test' ? (chapter as unknown as Record<string, unknown>) : chapter.id, ...(at.players ? { players: at.players } : {}) });
  if (!s.ok) throw new Error(s.message);
  const r = at.roll ? roll(...at.roll) : roll('I', 'eye', 'mouth');
  return {
    ...s.state,
    hour: at.hour ?? 0,
    phase: 'play',
    roll: r,
    sheets: s.state.sheets.map(() => ({
      worms: structuredClone(b.worms),
      foods: [...b.foods],
      dice: { shape: r.shape, organs: [r.organs[0], r.organs[1]] },
      credits: at.credits ?? 0,
      option: null,
      acted: [],
      stack: [],
      done: false,
    })),
  };
}

export function show(state: CozyState, player = 0): string {
  const sheet = state.sheets[player]!;
  return `\n${printBoard(geometry(state.chapter), sheet)}\nstack: ${JSON.stringify(sheet.stack)}\nacted: ${JSON.stringify(sheet.acted)}`;
}

/** Applies moves in order; a rejected move fails the test with the board printed. */
export function play(state: CozyState, ...moves: CozyMove[]): CozyState {
  let s = state;
  for (const m of moves) {
    const r = applyMove(s, m);
    if (!r.ok) expect.fail(`${JSON.stringify(m)} was rejected: ${r.message}${show(s)}`);
    s = r.state;
  }
  return s;
}

/** Applies one move expecting it to be rejected; checks the state is unchanged. */
export function reject(state: CozyState, move: CozyMove): { code: string; message: string } {
  const before = JSON.stringify(state);
  const r = applyMove(state, move);
  if (r.ok) expect.fail(`${JSON.stringify(move)} was accepted, but it should be illegal${show(state)}`);
  expect(JSON.stringify(state), 'a rejected move leaves the state unchanged').toBe(before);
  return { code: r.code, message: r.message };
}

export function movesOf(state: CozyState, player?: string): CozyMove[] {
  return legalOptions(state, player === undefined ? {} : { player }).moves;
}

export function movesOfType<T extends CozyMove['type']>(state: CozyState, type: T, player?: string): Extract<CozyMove, { type: T }>[] {
  return movesOf(state, player).filter((m): m is Extract<CozyMove, { type: T }> => m.type === type);
}

export const P = 'solo';
