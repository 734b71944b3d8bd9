/**
 * The referee's "new game" form as plain data, and the setup options it means for each game.
 * The form is checked on the phone with the game's own `setup` (the same code the server runs),
 * so a mistake is shown before anything is sent. Pure.
 */
import type { GameId, PlayerInfo } from '../../../../shared/game.js';
import { GAME_IDS } from '../../../../shared/game.js';
import { GAMES } from '../../../../shared/games/registry.js';
import { CHAPTER_IDS, loadChapter } from '../../../../shared/games/worm-and-cozy/chapters.js';
import { PRESETS, type PresetName } from '../../../../shared/games/the-worm-is-drawn/data.js';
import { EQUIPMENT as WORM_UP_EQUIPMENT } from '../../../../shared/games/worm-up/data.js';

export interface GameInfo {
  id: GameId;
  title: string;
  blurb: string;
  players: { min: number; max: number };
  /** `die`: every seat needs a distinct die colour (it names whose die it is). */
  colors: 'optional' | 'die';
}

export const GAME_INFO: Readonly<Record<GameId, GameInfo>> = {
  'worm-and-cozy': { id: 'worm-and-cozy', title: 'Worm & Cozy', blurb: 'Roll and write: fit cozy worms on your sheet. Solo or more.', players: { min: 1, max: 12 }, colors: 'optional' },
  'the-worm-is-drawn': { id: 'the-worm-is-drawn', title: 'The worm is drawn', blurb: 'Keep dice, take worm tiles, steal the top tile.', players: { min: 2, max: 7 }, colors: 'optional' },
  'worm-up': { id: 'worm-up', title: 'Worm-up', blurb: 'Secret bids move the worms; collisions go nowhere.', players: { min: 2, max: 5 }, colors: 'die' },
  'worm-derby': { id: 'worm-derby', title: 'Worm Derby', blurb: 'A piecepack race of coin worms around the pylon.', players: { min: 2, max: 4 }, colors: 'optional' },
  tapeworm: { id: 'tapeworm', title: 'Tapeworm', blurb: 'Lay cards to grow tapeworms; the colour locks each turn.', players: { min: 1, max: 4 }, colors: 'optional' },
};

export const GAME_ORDER: readonly GameId[] = GAME_IDS;

export interface SeatForm {
  name: string;
  color?: string;
}

export interface SetupForm {
  game: GameId;
  seats: SeatForm[];
  chapter: string;
  cozyDice: 'standard' | 'cozy';
  preset: PresetName;
  twidDice: 'worm' | 'd6';
  derbyRules: 'basic' | 'advanced';
  slalom: boolean;
  /** Obstacle tiles dealt out (variant 1: fewer); null: all of them. */
  obstacleTiles: number | null;
}

export const CHAPTERS: readonly { id: string; title: string }[] = CHAPTER_IDS.map((id) => {
  const r = loadChapter(id);
  return { id, title: r.ok ? r.chapter.title : id };
});

export const PRESET_CHOICES: readonly { id: PresetName; label: string }[] = (Object.keys(PRESETS) as PresetName[]).map((id) => ({ id, label: PRESETS[id].label }));

/** Colours a fresh seat gets, in order (the Worm-up box's first: its dice name the players). */
export const SEAT_COLORS: readonly string[] = [...WORM_UP_EQUIPMENT.colors, 'orange', 'purple', 'pink', 'black', 'brown', 'grey', 'ivory'].filter((c, i, a) => a.indexOf(c) === i);

export function defaultSeats(n: number): SeatForm[] {
  return Array.from({ length: n }, (_, i) => ({ name: `Player ${i + 1}`, color: SEAT_COLORS[i % SEAT_COLORS.length]! }));
}

/** The first colour no seat has yet (the first of the list when every one is taken). */
export function freeColor(seats: readonly SeatForm[]): string {
  const used = new Set(seats.map((s) => s.color));
  return SEAT_COLORS.find((c) => !used.has(c)) ?? SEAT_COLORS[0]!;
}

/**
 * Every seat coloured: one with none gets the first colour free (in seat order). A seat without a
 * colour showed an empty box beside seats with one, read as an unticked checkbox; "none" stays
 * a choice the referee makes on purpose.
 */
export function colourSeats(seats: readonly SeatForm[]): SeatForm[] {
  const out: SeatForm[] = seats.map((s) => ({ ...s }));
  for (const s of out) if (!s.color) s.color = freeColor(out);
  return out;
}

export function defaultForm(game: GameId = 'worm-and-cozy'): SetupForm {
  return { game, seats: defaultSeats(GAME_INFO[game].players.min === 1 ? 1 : 2), chapter: CHAPTERS[0]?.id ?? 'clew-1', cozyDice: 'standard', preset: 'seed', twidDice: 'worm', derbyRules: 'basic', slalom: false, obstacleTiles: null };
}

/** The form for the game now at the table: its seats and options, so "start again" is one tap. */
export function formFromTable(game: GameId, options: unknown, players: PlayerInfo[]): SetupForm {
  const form = defaultForm(game);
  if (players.length) form.seats = colourSeats(players.map((p) => (p.color ? { name: p.name, color: p.color } : { name: p.name })));
  const o = (options && typeof options === 'object' ? options : {}) as Record<string, unknown>;
  if (typeof o.chapter === 'string') form.chapter = o.chapter;
  if (o.dice === 'cozy' || o.dice === 'standard') form.cozyDice = o.dice;
  if (o.preset === 'seed' || o.preset === 'classic') form.preset = o.preset;
  if (o.diceSet === 'worm' || o.diceSet === 'd6') form.twidDice = o.diceSet;
  if (o.rules === 'basic' || o.rules === 'advanced') form.derbyRules = o.rules;
  if (typeof o.slalom === 'boolean') form.slalom = o.slalom;
  if (typeof o.obstacleTiles === 'number') form.obstacleTiles = o.obstacleTiles;
  return form;
}

/** Switching games keeps the names, fitting the count to the new game's limits. */
export function switchGame(form: SetupForm, game: GameId): SetupForm {
  const { min, max } = GAME_INFO[game].players;
  let seats = form.seats.slice(0, max);
  // New seats take colours nobody has (a default seat's own colour could be one already taken).
  while (seats.length < min) seats = [...seats, { name: `Player ${seats.length + 1}`, color: freeColor(seats) }];
  return { ...form, game, seats };
}

/** Seat ids are p1, p2, … in seat order, so a phone keeps its seat when the same table starts again. */
export function seatId(index: number): string {
  return `p${index + 1}`;
}

export function setupOptions(form: SetupForm): unknown {
  const players = form.seats.map((s, i) => {
    const name = s.name.trim() || `Player ${i + 1}`;
    return s.color ? { id: seatId(i), name, color: s.color } : { id: seatId(i), name };
  });
  switch (form.game) {
    case 'worm-and-cozy':
      return { chapter: form.chapter, dice: form.cozyDice, players };
    case 'the-worm-is-drawn':
      return { players, preset: form.preset, diceSet: form.twidDice };
    case 'worm-up':
      return { players };
    case 'worm-derby':
      return {
        players,
        rules: form.derbyRules,
        ...(form.slalom ? { slalom: true } : {}),
        ...(form.obstacleTiles !== null && !form.slalom ? { obstacleTiles: form.obstacleTiles } : {}),
      };
    case 'tapeworm':
      return { players };
  }
}

/** Why this form would not start a game (the game's own message), or null when it would. */
export function formProblem(form: SetupForm): string | null {
  const { min, max } = GAME_INFO[form.game].players;
  if (form.seats.length < min || form.seats.length > max) return `${GAME_INFO[form.game].title} is for ${min === max ? min : `${min}–${max}`} players`;
  const names = form.seats.map((s) => s.name.trim().toLowerCase());
  const twice = names.find((n, i) => n && names.indexOf(n) !== i);
  if (twice) return `two players are called “${twice}”: give each a name of their own`;
  if (GAME_INFO[form.game].colors === 'die') {
    const colors = form.seats.map((s) => s.color);
    const dup = colors.find((c, i) => c && colors.indexOf(c) !== i);
    if (dup) return `two players have ${dup} dice: each player's die needs its own colour`;
  }
  const r = GAMES[form.game].setup(setupOptions(form));
  return r.ok ? null : r.message;
}

/**
 * The address the join QR code and its text give other phones: the page's own, unless the
 * referee opened clew on its own machine (localhost, 127.x, ::1), where that address would send
 * every phone to itself; then the LAN address the server says it is reached at, when it has one.
 */
export function inviteOrigin(page: { origin: string; hostname: string }, lanUrl: string | undefined): string {
  const loopback = page.hostname === 'localhost' || page.hostname.endsWith('.localhost') || /^127\./.test(page.hostname) || page.hostname === '[::1]' || page.hostname === '::1';
  return loopback && lanUrl ? lanUrl : page.origin;
}
