/**
 * What a phone sees: the table as a `TableSnapshot`. The common part is built once per change;
 * each phone's `you` is added per audience (viewer, referee, one per seat), so 50 phones cost one
 * build and a handful of encodings, not fifty.
 */
import { PROTOCOL_VERSION, type CalibrationStatus, type HardwareStatus, type TableSnapshot, type TrayStatus } from '../../shared/protocol.js';
import type { TableCodes } from './codes.js';
import type { GameLookup, TableState } from './table.js';

export type Audience = { role: 'viewer' } | { role: 'referee' } | { role: 'player'; player: string };

export interface Surroundings {
  hardware: HardwareStatus;
  calibration: CalibrationStatus[];
  /** The empty tray the camera compares with (default: none shown). */
  tray?: TrayStatus;
}

export const NO_TRAY: TrayStatus = { state: 'none', message: 'the tray is modelled from each frame' };

export type SharedSnapshot = Omit<TableSnapshot, 'you'>;

export function sharedSnapshot(table: TableState, games: GameLookup, around: Surroundings): SharedSnapshot {
  const game = games(table.game);
  if (!game) throw new Error(`no engine for ${table.game}`);
  return {
    protocol: PROTOCOL_VERSION,
    version: table.version,
    game: table.game,
    title: game.title,
    options: table.options,
    players: game.players(table.state),
    state: table.state,
    status: game.status(table.state),
    diceRequest: game.diceRequest(table.state),
    roll: table.roll,
    hardware: around.hardware,
    calibration: around.calibration,
    tray: around.tray ?? NO_TRAY,
  };
}

export function forAudience(shared: SharedSnapshot, audience: Audience, codes: TableCodes, lanUrl?: string | null): TableSnapshot {
  const you: TableSnapshot['you'] =
    audience.role === 'referee'
      ? { role: 'referee', joinCode: codes.joinCode, refereeCode: codes.refereeCode, ...(lanUrl ? { lanUrl } : {}) }
      : audience.role === 'player'
        ? { role: 'player', player: audience.player }
        : { role: 'viewer' };
  return { ...shared, you };
}

/** socket.io room of an audience: every phone in it gets the same snapshot. */
export function roomOf(audience: Audience): string {
  return audience.role === 'player' ? `player:${audience.player}` : audience.role;
}
