/** The box's dice, loaded from JSON and validated on load (a table owner edits `data/equipment.json`). */
import { z } from 'zod';
import { DIE_COLORS, isDieColor } from '../../dice.js';
import raw from './data/equipment.json' with { type: 'json' };

export const equipmentSchema = z.object({
  /** The dice's colours, in the order seats get them by default; one die (and one worm) per colour. */
  colors: z
    .array(z.string().refine((c) => isDieColor(c), { error: (iss) => `"${String(iss.input)}" is not a die colour clew knows (${Object.keys(DIE_COLORS).join(', ')})` }))
    .min(2)
    .max(8)
    .refine((cs) => new Set(cs).size === cs.length, 'a colour is listed twice'),
  /** Segments per worm (for the dashboard's picture). */
  segments: z.number().int().min(2).max(20),
});
export type Equipment = z.infer<typeof equipmentSchema>;

export function loadData<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  throw new Error(`worm-up: ${file} is invalid: ${where}`);
}

export const EQUIPMENT: Equipment = loadData(equipmentSchema, raw, 'data/equipment.json');
