/**
 * The game's printed material and rule presets, loaded from JSON and validated on load: a table
 * owner edits `data/*.json`, never the code (DECISIONS.md: every "data" row lives in a data file).
 */
import { z } from 'zod';
import rawTiles from './data/tiles.json' with { type: 'json' };
import rawPresets from './data/presets.json' with { type: 'json' };

export const tileSchema = z.object({
  value: z.number().int().min(1).max(99),
  worms: z.number().int().min(0).max(9),
});

export const equipmentSchema = z
  .object({
    /** Dice in the game (the text: 8). */
    dice: z.number().int().min(1).max(16),
    tiles: z.array(tileSchema).min(1).max(32),
  })
  .superRefine((eq, ctx) => {
    const seen = new Set<number>();
    eq.tiles.forEach((t, i) => {
      if (seen.has(t.value)) ctx.addIssue({ code: 'custom', path: ['tiles', i, 'value'], message: `tile ${t.value} appears twice` });
      seen.add(t.value);
    });
  });

export const rulesSchema = z.object({
  label: z.string().min(1),
  /** What a kept worm adds to the total. */
  wormValue: z.number().int().min(0).max(10),
  /** The player may end the turn after any keep (classic); otherwise the turn runs until no new face can be kept. */
  mayStop: z.boolean(),
  /** A roll showing no new face ends the turn as a failure (classic) rather than being judged. */
  stuckRollBusts: z.boolean(),
  /** At least one worm must be kept to take or steal. */
  wormRequired: z.boolean(),
  /** `any`: any face-up table tile up to the total; `highest`: only the highest such tile. */
  take: z.enum(['any', 'highest']),
  /** On a failure, the highest table tile is turned down even when it is the tile just returned. */
  flipReturnedHighest: z.boolean(),
});

export const PRESET_NAMES = ['seed', 'classic'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];
export const presetsSchema = z.object({ seed: rulesSchema, classic: rulesSchema });

export type Tile = z.infer<typeof tileSchema>;
export type Equipment = z.infer<typeof equipmentSchema>;
export type Rules = z.infer<typeof rulesSchema>;

/** Parses shipped JSON, failing loudly with the file and the offending fields if someone broke it. */
export function loadData<T>(schema: z.ZodType<T>, raw: unknown, file: string): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new Error(`the-worm-is-drawn: ${file} is invalid: ${where}`);
}

export const EQUIPMENT: Equipment = loadData(equipmentSchema, rawTiles, 'data/tiles.json');
export const PRESETS: Readonly<Record<PresetName, Rules>> = loadData(presetsSchema, rawPresets, 'data/presets.json');
