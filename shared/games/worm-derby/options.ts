/**
 * Worm Derby setup options, validated at the edge and again in `setup` (ids unique, the first
 * player one of the players, a corrected die table if one is given).
 */
import { z } from 'zod';
import { playerIdSchema } from '../../player-id.js';
import type { PlayerInfo } from '../../game.js';
import { dieTableSchema } from './die-table.js';

/** A piecepack has 24 tiles: two make the start line, one the pylon, the rest are obstacles. */
export const PIECEPACK_TILES = 24;
export const OBSTACLE_TILES = PIECEPACK_TILES - 3;

/** Piecepack suit colours (suns, moons, crowns, arms) for players who do not name a die colour. */
export const SUIT_COLORS = ['red', 'black', 'green', 'blue'] as const;

const playerSchema = z.strictObject({
  id: playerIdSchema.max(32),
  name: z.string().min(1).max(64),
  color: z.string().min(1).max(24).optional(),
});

export const derbyOptionsSchema = z
  .strictObject({
    /** 2–4 players, listed clockwise around the table. */
    players: z.array(playerSchema).min(2).max(4),
    /** 'basic' (default): worms of 6. 'advanced': cannibal worms of 2–6. */
    rules: z.enum(['basic', 'advanced']).optional(),
    /** Id of the first player (default: the first listed). */
    firstPlayer: z.string().min(1).max(32).optional(),
    /** Obstacle tiles dealt out (variant 1: fewer or none). Default all 21; ignored for slalom. */
    obstacleTiles: z.number().int().min(0).max(OBSTACLE_TILES).optional(),
    /** Slalom variant: no movable obstacles; pass red tiles on their right, blue on their left. */
    slalom: z.boolean().optional(),
    /** A corrected die table (default: die-table.json, the reconstruction). */
    dieTable: dieTableSchema.optional(),
  })
  .superRefine((o, ctx) => {
    const seen = new Set<string>();
    o.players.forEach((p, i) => {
      if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: ['players', i, 'id'], message: `player id "${p.id}" is used twice` });
      seen.add(p.id);
    });
    if (o.firstPlayer !== undefined && !seen.has(o.firstPlayer)) {
      ctx.addIssue({ code: 'custom', path: ['firstPlayer'], message: `"${o.firstPlayer}" is not one of the players` });
    }
  });

export type DerbyOptions = z.infer<typeof derbyOptionsSchema>;

/** Seats clockwise from the first player, each with a die colour (a free suit colour if unnamed). */
export function seatPlayers(options: DerbyOptions): PlayerInfo[] {
  const start = options.firstPlayer ? options.players.findIndex((p) => p.id === options.firstPlayer) : 0;
  const ordered = [...options.players.slice(start), ...options.players.slice(0, start)];
  const taken = new Set(ordered.map((p) => p.color).filter((c): c is string => c !== undefined));
  const free = SUIT_COLORS.filter((c) => !taken.has(c));
  return ordered.map((p) => {
    if (p.color) return { id: p.id, name: p.name, color: p.color };
    const color = free.shift();
    return color ? { id: p.id, name: p.name, color } : { id: p.id, name: p.name };
  });
}
