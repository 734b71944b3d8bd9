/**
 * `meta.json` beside the weights: everything inference must do exactly as training did
 * (class list, crop framing, preprocessing), the calibrated temperature, and how the model was
 * made (seed, configs, renderer hash, measured accuracy). Validated when loaded.
 */
import { z } from 'zod';
import { FACE_CLASSES } from '../faces/classes.js';
import { OrientationHeadSchema } from './orientation.js';

export const ModelMetaSchema = z.object({
  version: z.literal(1),
  classes: z.array(z.string()),
  crop: z.object({ size: z.number().int().positive(), scale: z.number().positive() }),
  preprocessing: z.object({ kind: z.literal('per-crop-standardise'), size: z.number().int().positive(), minStd: z.number().positive() }),
  temperature: z.number().positive(),
  /** Test-time augmentation views averaged at inference (1, 2 or 4 quarter turns). */
  views: z.union([z.literal(1), z.literal(2), z.literal(4)]),
  /**
   * The model reads crops upright, as photos are taken: world up points up in the crop, so a
   * die's side faces show below its top face. It was trained so (camera roll within ±roll
   * degrees, no quarter turns) and reads one view, never turned. Absent: any roll, turned views.
   * `orientation`: the head that finds a picture's up when it is not known (orientation.ts).
   */
  upright: z.object({ roll: z.number().min(0).max(180), orientation: OrientationHeadSchema.optional() }).optional(),
  net: z.object({
    blocks: z.array(z.object({ filters: z.number().int().positive(), kernel: z.number().int().positive(), stride: z.number().int().positive(), residual: z.boolean().optional() })),
    batchNorm: z.boolean(),
    dropout: z.number(),
    head: z.enum(['gap', 'dense']).optional(),
    embedding: z.number().int().positive().optional(),
  }),
  training: z.record(z.string(), z.unknown()),
  metrics: z.record(z.string(), z.unknown()),
});

export type ModelMeta = z.infer<typeof ModelMetaSchema>;

export function parseModelMeta(json: unknown, where: string): ModelMeta {
  const parsed = ModelMetaSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${where}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const meta = parsed.data;
  if (meta.classes.length !== FACE_CLASSES.length || meta.classes.some((c, i) => c !== FACE_CLASSES[i])) {
    throw new Error(`${where}: the model's classes (${meta.classes.length}) are not this clew's FACE_CLASSES (${FACE_CLASSES.length}); retrain with npm run train`);
  }
  return meta;
}
