/**
 * Turns measurements into probabilities: each cell's class from the committed network
 * (cell-model.json, trained on synthetic photos by train-cells.ts), each border's join from how
 * much pencil fills the strip beside it on both sides, relative to this photo's own pencil darkness
 * and blank borders.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Geometry } from '../../shared/games/worm-and-cozy/board.js';
import { CELL_CLASSES, type CellInput, type JoinInput } from './assemble.js';
import { cellExtras, cellImage, CELL_EXTRAS, CELL_IMAGE, CELL_IMAGE_MM, photoPencil, type BoardRaster, type CellMeasure } from './cells.js';
import { cnnFromJson, cnnRunner, type Cnn, type CnnRunner } from './cnn.js';

export const MODEL_FILE = fileURLToPath(new URL('./cell-model.json', import.meta.url));

export interface CellModel {
  version: 2;
  classes: string[];
  image: number;
  imageMm: number;
  extras: number;
  /** The network as JSON (cnn.ts). */
  cnn: unknown;
  /** How the model was trained (seeds, counts, accuracy on held-out training photos). */
  trainedOn: Record<string, unknown>;
}

export interface LoadedCellModel {
  model: CellModel;
  net: Cnn;
  /** The network's fast inference form (what the reader runs). */
  runner: CnnRunner;
}

let cached: LoadedCellModel | null = null;

export function loadCellModel(file = MODEL_FILE): LoadedCellModel {
  if (cached && file === MODEL_FILE) return cached;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot load the sheet cell model ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const m = json as CellModel;
  if (m.version !== 2 || m.image !== CELL_IMAGE || m.imageMm !== CELL_IMAGE_MM || m.extras !== CELL_EXTRAS || m.classes?.join() !== CELL_CLASSES.join()) {
    throw new Error(`the sheet cell model ${file} does not fit this reader (version ${m.version}, classes ${m.classes?.join(',')}): retrain it with vision/sheet/train-cells.ts`);
  }
  const net = cnnFromJson(m.cnn);
  const loaded = { model: m, net, runner: cnnRunner(net) };
  if (file === MODEL_FILE) cached = loaded;
  return loaded;
}

function percentile(values: number[], q: number): number {
  const s = values.slice().sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : 0;
}

/** The photo's pencil darkness once cells are classified: the typical strength of the worm line's cells. */
export function pencilStrength(cells: readonly CellMeasure[], probs: readonly (readonly number[])[]): number {
  const band = cells.filter((_, i) => (probs[i]?.[1] ?? 0) > 0.5).map((c) => c.strength);
  return band.length >= 3 ? Math.max(0.12, percentile(band, 0.5)) : photoPencil(cells);
}

/** Join probability from the normalised gap score (both sides' ink beside the border). */
export function joinProbability(score: number): number {
  return 1 / (1 + Math.exp(-30 * (score - 0.16)));
}

/**
 * The cell image seen from a few one-pixel shifts (0.5 mm), their class probabilities averaged: a
 * letter written off-centre or a registration a little off moves the image, and the average of
 * shifted views is steadier than one view (on the held-out training photos it cut organ errors by
 * a third).
 */
export const VIEW_SHIFTS: readonly (readonly [number, number])[] = [
  [0, 0],
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];

/** Class probabilities of cell (column, row), averaged over VIEW_SHIFTS. */
export function cellProbabilities(model: LoadedCellModel, raster: BoardRaster, column: number, row: number, m: CellMeasure, pencil: number): number[] {
  const pad = Math.max(...VIEW_SHIFTS.map(([x, y]) => Math.max(Math.abs(x), Math.abs(y))));
  const n = CELL_IMAGE + 2 * pad;
  const big = cellImage(raster, column, row, pencil, n);
  const extras = cellExtras(m, pencil);
  const sum = new Array<number>(CELL_CLASSES.length).fill(0);
  for (const [dx, dy] of VIEW_SHIFTS) {
    const p = model.runner.classify(big, extras, { stride: n, x: pad + dx, y: pad + dy });
    for (let k = 0; k < sum.length; k++) sum[k]! += p[k]! / VIEW_SHIFTS.length;
  }
  return sum;
}

export function classifyCells(model: LoadedCellModel, g: Geometry, raster: BoardRaster, cells: readonly CellMeasure[]): { inputs: CellInput[]; joins: JoinInput[]; pencil: number } {
  const first = photoPencil(cells);
  const probs = cells.map((c, i) => (g.rock[i] ? CELL_CLASSES.map((_, k) => (k === 0 ? 1 : 0)) : cellProbabilities(model, raster, i % g.width, Math.floor(i / g.width), c, first)));
  const pencil = pencilStrength(cells, probs);
  const inputs: CellInput[] = cells.map((c, i) => ({ probs: probs[i]!, pointers: c.pointers.map((v) => v / pencil) }));
  // Blank borders' level (the printed grid line's own ink spills a little into the strip).
  const gaps: number[] = [];
  for (const c of cells) gaps.push(...c.gaps);
  const base = percentile(gaps, 0.3);
  const joins: JoinInput[] = [];
  for (let i = 0; i < g.size; i++) {
    const x = i % g.width;
    const pairs: [number, number, number][] = [];
    if (x + 1 < g.width) pairs.push([i + 1, 1, 3]);
    if (i + g.width < g.size) pairs.push([i + g.width, 2, 0]);
    for (const [j, da, db] of pairs) {
      const s = (Math.min(cells[i]!.gaps[da]!, cells[j]!.gaps[db]!) - base) / pencil;
      joins.push({ a: i, b: j, p: joinProbability(s) });
    }
  }
  return { inputs, joins, pencil };
}
