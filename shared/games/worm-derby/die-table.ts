/**
 * The Worm Derby die table: what each face of a piecepack die tells the roller to do.
 *
 * The rules text lost this table, so it is data (die-table.json), validated here on load. A table
 * owner with the printed rules can correct the file, or pass a whole table in the setup options;
 * `reconstructed` travels in the state so the dashboard can say the default is clew's guess.
 */
import { z } from 'zod';
import defaultTableJson from './die-table.json' with { type: 'json' };

export const PIECEPACK_FACES = ['null', 'ace', '2', '3', '4', '5'] as const;
export type PiecepackFace = (typeof PIECEPACK_FACES)[number];

const rollAgain = z.boolean();
export const dieFaceActionSchema = z.discriminatedUnion('action', [
  /** Nothing happens (the turn ends unless the table says roll again). */
  z.strictObject({ action: z.literal('none'), rollAgain }),
  /** Move the worm this many steps, all from one end. */
  z.strictObject({ action: z.literal('steps'), steps: z.number().int().min(1).max(6), rollAgain }),
  /** Move one obstacle tile (with cannibal worms: or put an eaten coin back instead). */
  z.strictObject({ action: z.literal('obstacle'), rollAgain }),
]);
export type DieFaceAction = z.infer<typeof dieFaceActionSchema>;

export const dieTableSchema = z.strictObject({
  /** Shown on the dashboard, e.g. "clew reconstruction" or "printed rules v3.1". */
  name: z.string().min(1).max(80),
  /** True when the table is not the printed one (the dashboard marks it "reconstructed"). */
  reconstructed: z.boolean(),
  source: z.string().max(1000),
  faces: z.strictObject({
    null: dieFaceActionSchema,
    ace: dieFaceActionSchema,
    '2': dieFaceActionSchema,
    '3': dieFaceActionSchema,
    '4': dieFaceActionSchema,
    '5': dieFaceActionSchema,
  }),
});
export type DieTable = z.infer<typeof dieTableSchema>;

/** Validates a die table; the error names the file (or origin) and every bad path. */
export function parseDieTable(json: unknown, origin: string): { ok: true; table: DieTable } | { ok: false; message: string } {
  const parsed = dieTableSchema.safeParse(json);
  if (parsed.success) return { ok: true, table: parsed.data };
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
  return { ok: false, message: `${origin} is not a valid Worm Derby die table: ${issues}` };
}

function loadDefault(): DieTable {
  const result = parseDieTable(defaultTableJson, 'shared/games/worm-derby/die-table.json');
  if (!result.ok) throw new Error(result.message);
  return result.table;
}

/** The table in force when the setup options give none (DECISIONS §4, marked reconstructed). */
export const DEFAULT_DIE_TABLE: DieTable = loadDefault();

/** Plain words for a face under a table, e.g. "4: move 4 steps from one end". */
export function describeFace(table: DieTable, face: PiecepackFace): string {
  const action = table.faces[face];
  const again = action.rollAgain ? ', then roll again' : '';
  switch (action.action) {
    case 'none':
      return `${face}: no move${again}`;
    case 'steps':
      return `${face}: move ${action.steps} step${action.steps === 1 ? '' : 's'} from one end${again}`;
    case 'obstacle':
      return `${face}: move an obstacle${again}`;
  }
}
