/**
 * A one-line position, like chess FEN, for tests and failing-test output:
 *
 *   seed T:21-24,26,28-36 X:25 S:27.31/-/33 P:1/keep K:ww1111 R:55
 *
 * preset; `T:` face-up table tiles; `X:` tiles turned face down; `S:` each player's stack bottom
 * to top (`.` between tiles, `/` between players, `-` for none); `P:` whose turn (0-based) and the
 * phase; `K:` the dice kept this turn in keep order (w = worm); `R:` the roll waiting for a keep.
 */
import { Errors, fail, ok, type PlayerInfo, type Result } from '../../game.js';
import { EQUIPMENT, PRESETS, PRESET_NAMES, type PresetName } from './data.js';
import { allFacesKept, keepableFaces, keptCount } from './dice.js';
import { faceChar, parseFace } from './moves.js';
import { judge } from './turn.js';
import type { Face, Kept, Phase, TwidState } from './types.js';

const PHASES: readonly Phase[] = ['roll', 'keep', 'choose', 'over'];
const FIELDS = ['T', 'X', 'S', 'P', 'K', 'R'] as const;

function tileList(values: readonly number[]): string {
  if (values.length === 0) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j - i >= 2 ? `${sorted[i]}-${sorted[j]}` : sorted.slice(i, j + 1).join(','));
    i = j + 1;
  }
  return parts.join(',');
}

export function toNotation(state: TwidState): string {
  const kept = state.kept.map((k) => faceChar(k.face).repeat(k.count)).join('') || '-';
  const roll = state.roll?.map(faceChar).join('') || '-';
  const stacks = state.stacks.map((s) => (s.length ? s.join('.') : '-')).join('/');
  return `${state.preset} T:${tileList(state.table)} X:${tileList(state.removed)} S:${stacks} P:${state.current}/${state.phase} K:${kept} R:${roll}`;
}

class NotationError extends Error {}

function parseTiles(text: string): number[] {
  if (text === '-') return [];
  return text.split(',').flatMap((part) => {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new NotationError(`"${part}" is not a tile or a range of tiles`);
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo) throw new NotationError(`range ${part} runs backwards`);
    return Array.from({ length: hi - lo + 1 }, (_, k) => lo + k);
  });
}

function parseFaces(text: string): Face[] {
  if (text === '-') return [];
  return [...text].map((c) => {
    const f = parseFace(c);
    if (!f) throw new NotationError(`"${c}" is not a die face (1-5 or w)`);
    return f;
  });
}

function groupKept(faces: Face[]): Kept[] {
  const kept: Kept[] = [];
  for (const face of faces) {
    const last = kept[kept.length - 1];
    if (last?.face === face) last.count++;
    else if (kept.some((k) => k.face === face)) throw new NotationError(`${face} is kept twice in one turn`);
    else kept.push({ face, count: 1 });
  }
  return kept;
}

/** Why a position leaves the player to move nothing to do (the game would be stuck), or null. */
function deadEnd(state: TwidState): string | null {
  switch (state.phase) {
    case 'roll':
      if (keptCount(state.kept) === state.dice) return 'every die is kept, so none is left to roll';
      // Without stopping, keeping the sixth face ends the turn (turn.ts keep): no roll follows.
      if (!state.rules.mayStop && allFacesKept(state.kept)) return 'every face is kept, so the turn has ended';
      return null;
    case 'keep':
      return keepableFaces(state.roll ?? [], state.kept).length === 0 ? 'the roll shows no face that was not kept before' : null;
    case 'choose':
      return judge(state).whyNot;
    case 'over':
      return null;
  }
}

/**
 * Builds a position from notation with the shipped tiles and presets. Players default to
 * p1, p2, …; pass `players` to name them (as many as the notation has stacks).
 */
export function fromNotation(text: string, players?: PlayerInfo[]): Result<TwidState> {
  try {
    const fields = text.trim().split(/\s+/);
    const [preset, ...rest] = fields;
    if (!PRESET_NAMES.includes(preset as PresetName)) throw new NotationError(`preset must be ${PRESET_NAMES.join(' or ')}, not "${preset}"`);
    for (const r of rest) {
      const key = r.slice(0, r.indexOf(':'));
      if (!r.includes(':') || !(FIELDS as readonly string[]).includes(key)) throw new NotationError(`"${r}" is not a field (${FIELDS.map((f) => `${f}:`).join(' ')})`);
      if (rest.filter((o) => o.startsWith(`${key}:`)).length > 1) throw new NotationError(`the ${key}: field is given twice`);
    }
    const get = (key: (typeof FIELDS)[number]): string => {
      const f = rest.find((r) => r.startsWith(`${key}:`));
      if (f === undefined) throw new NotationError(`missing ${key}: field`);
      return f.slice(key.length + 1);
    };
    const table = parseTiles(get('T'));
    const removed = parseTiles(get('X'));
    const stacks = get('S').split('/').map((s) => (s === '-' ? [] : s.split('.').flatMap(parseTiles)));
    const [who = '', phaseText, ...extra] = get('P').split('/');
    if (extra.length) throw new NotationError(`P:${get('P')} must be <seat>/<phase>`);
    const current = /^\d+$/.test(who) ? Number(who) : NaN;
    const phase = PHASES.find((p) => p === phaseText);
    const kept = groupKept(parseFaces(get('K')));
    const roll = parseFaces(get('R'));

    const seats = players ?? stacks.map((_, i) => ({ id: `p${i + 1}`, name: `p${i + 1}` }));
    if (seats.length !== stacks.length) throw new NotationError(`${stacks.length} stacks but ${seats.length} players`);
    if (stacks.length < 2) throw new NotationError('at least 2 players');
    if (!Number.isInteger(current) || current < 0 || current >= stacks.length) throw new NotationError(who === '' ? 'P: names no seat' : `player ${who} is not a seat`);
    if (!phase) throw new NotationError(`phase must be one of ${PHASES.join(', ')}`);
    const all = [...table, ...removed, ...stacks.flat()].sort((a, b) => a - b);
    const box = EQUIPMENT.tiles.map((t) => t.value).sort((a, b) => a - b);
    if (all.join() !== box.join()) throw new NotationError(`the tiles must be ${tileList(box)}, each exactly once; found ${all.join(',')}`);
    if (keptCount(kept) > EQUIPMENT.dice) throw new NotationError(`more than ${EQUIPMENT.dice} dice kept`);
    if ((phase === 'keep') !== roll.length > 0) throw new NotationError('a roll lies in the tray exactly when a face is to be kept');
    if (roll.length && roll.length + keptCount(kept) !== EQUIPMENT.dice) throw new NotationError(`kept and rolled dice must make ${EQUIPMENT.dice}`);
    if ((phase === 'over') !== (table.length === 0)) throw new NotationError('the game is over exactly when no tile is face up on the table');

    const p = preset as PresetName;
    const state: TwidState = {
      game: 'the-worm-is-drawn',
      preset: p,
      rules: { ...PRESETS[p] },
      diceSet: 'worm',
      dice: EQUIPMENT.dice,
      tiles: [...EQUIPMENT.tiles].sort((a, b) => a.value - b.value),
      players: seats.map((s) => ({ ...s })),
      current,
      phase,
      table: [...table].sort((a, b) => a - b),
      removed: [...removed].sort((a, b) => a - b),
      stacks,
      kept,
      roll: roll.length ? roll : null,
      turn: 0,
      last: null,
    };
    const dead = deadEnd(state);
    if (dead) throw new NotationError(`no move is possible: ${dead}`);
    return ok(state);
  } catch (e) {
    if (e instanceof NotationError) return fail(Errors.setupInvalid, `bad position "${text}": ${e.message}`);
    throw e;
  }
}
