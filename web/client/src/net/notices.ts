/**
 * The message line's rules: how long a notice stays, and what a snapshot says that nobody asked
 * about (a camera's roll replacing one entered by hand). Pure, so they are tested without a
 * socket or a clock.
 */
import type { TableSnapshot } from '../../../../shared/protocol.js';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
  /** The table it was said about: its version and game as this phone saw them (null: none yet), and when (ms since the epoch). */
  raised: { version: number | null; game: string | null; at: number };
}

/** An info notice ("will be sent when the table is back") goes after this long. */
export const INFO_MS = 5000;
/**
 * An error notice is about what happened a move or two ago: once the table has moved this many
 * versions on, it goes, though not before ERROR_READ_MS (a busy table moves several versions in
 * seconds). One nobody dismissed goes after ERROR_MS whatever happens: it stayed through games
 * and restarts, and a player took it for something about the game now.
 */
export const ERROR_VERSIONS = 3;
export const ERROR_READ_MS = 15_000;
export const ERROR_MS = 120_000;

/** The game a snapshot is of: its id, options and players (a game started with other players is another game). */
export function gameOf(snapshot: TableSnapshot): string {
  return `${snapshot.game} ${JSON.stringify(snapshot.options)} ${snapshot.players.map((p) => p.id).join(',')}`;
}

/** Raised now, about the table as this phone sees it. */
export function raisedOn(snapshot: TableSnapshot | null, at: number): Notice['raised'] {
  return { version: snapshot?.version ?? null, game: snapshot ? gameOf(snapshot) : null, at };
}

/** When `notice` goes by itself (ms since the epoch), the table being `table`: at once when it is about another game. */
export function noticeEnds(notice: Notice, table: TableSnapshot | null): number {
  const { version, game, at } = notice.raised;
  if (notice.kind === 'info') return at + INFO_MS;
  if (table && game !== null && gameOf(table) !== game) return at;
  if (table && version !== null && table.version - version >= ERROR_VERSIONS) return at + ERROR_READ_MS;
  return at + ERROR_MS;
}

export const REPLACED_BY_CAMERA = 'The camera saw new dice in the tray, and its reading replaced the roll entered by hand. Check the dice, and enter them again if they are wrong.';

/**
 * The message when `after` is a camera's roll replacing a roll someone entered by hand (the
 * camera replaces it only when the dice in the tray changed: web/server/camera.ts), else null.
 * Only a roll event does that: one version on, the game's state unchanged (BACK bringing back
 * an older camera roll changes the state), and a roll nobody has touched yet.
 */
export function replacedRollMessage(before: TableSnapshot | null, after: TableSnapshot): string | null {
  if (!before || after.version !== before.version + 1 || before.roll?.source !== 'manual') return null;
  const roll = after.roll;
  if (!roll || roll.source === 'manual' || roll.removed?.length || roll.dice.some((d) => d.corrected || d.added)) return null;
  if (before.game !== after.game || JSON.stringify(before.state) !== JSON.stringify(after.state)) return null;
  return REPLACED_BY_CAMERA;
}
