/**
 * Reads synthetic photos and compares with their truth: cell state accuracy (blank, worm, food over
 * every non-rock cell; rocks are printed and known, so counting them would flatter), organ type
 * accuracy, and whether the fully automatic score equals the true score. Used by
 * `npm run eval:sheets` (seeds eval-0 .. eval-199, never used for training or tuning) and, on a few
 * test-<i> photos, by the tests.
 */
import { cellName, geometry } from '../../shared/games/worm-and-cozy/board.js';
import { getChapter } from '../../shared/games/worm-and-cozy/chapters.js';
import { readSheetPhoto } from './read.js';
import { synthSheetPhoto, type SynthOptions } from './synth/index.js';

export interface PhotoResult {
  seed: string;
  chapter: string;
  cells: number;
  cellsRight: number;
  organs: number;
  organsRight: number;
  trueTotal: number;
  readTotal: number | null;
  uncertain: number;
  uncertainAffectingScore: number;
  /** Wrong cells, as "C7 worm→blank". */
  wrongCells: string[];
  wrongOrgans: string[];
  error?: string;
  ms: number;
}

export interface EvalSummary {
  photos: number;
  cellAccuracy: number;
  organAccuracy: number;
  scoreEqual: number;
  /** Photos whose score was wrong although nothing affecting the score was flagged. */
  silentlyWrong: number;
  failed: number;
  meanMs: number;
  results: PhotoResult[];
}

export async function evaluatePhoto(seed: string, options: SynthOptions = {}): Promise<PhotoResult> {
  const p = await synthSheetPhoto(seed, options);
  const ch = getChapter(p.truth.chapterId);
  const g = geometry(ch);
  const base = { seed, chapter: ch.id, trueTotal: p.truth.score?.total ?? 0 };
  const t0 = performance.now();
  try {
    const r = await readSheetPhoto(p.jpeg, ch.id);
    const ms = performance.now() - t0;
    const wrongCells: string[] = [];
    let cells = 0;
    let cellsRight = 0;
    r.cells.forEach((c, i) => {
      const truth = p.truth.cells[i]!;
      if (truth === 'rock') return;
      cells++;
      if (c.state === truth) cellsRight++;
      else wrongCells.push(`${c.cell} ${truth}→${c.state}`);
    });
    const readOrgan = new Map<string, string>();
    for (const w of r.sheet.worms) for (const o of w.organs ?? []) readOrgan.set(o.cell, o.type === 'brain' && o.filled ? 'usedBrain' : o.type);
    let organs = 0;
    let organsRight = 0;
    const wrongOrgans: string[] = [];
    for (const w of p.truth.worms)
      for (const o of w.organs) {
        organs++;
        const name = cellName(g, o.cell);
        const want = o.type === 'brain' && o.filled ? 'usedBrain' : o.type;
        const got = readOrgan.get(name) ?? 'none';
        if (got === want) organsRight++;
        else wrongOrgans.push(`${name} ${want}→${got}`);
      }
    return {
      ...base,
      cells,
      cellsRight,
      organs,
      organsRight,
      readTotal: r.score?.total ?? null,
      uncertain: r.uncertain.length,
      uncertainAffectingScore: r.uncertain.filter((u) => u.affectsScore).length,
      wrongCells,
      wrongOrgans,
      ms,
    };
  } catch (error) {
    return { ...base, cells: 0, cellsRight: 0, organs: 0, organsRight: 0, readTotal: null, uncertain: 0, uncertainAffectingScore: 0, wrongCells: [], wrongOrgans: [], error: error instanceof Error ? error.message : String(error), ms: performance.now() - t0 };
  }
}

export async function evaluate(seeds: readonly string[], options: SynthOptions = {}, progress?: (r: PhotoResult) => void): Promise<EvalSummary> {
  const results: PhotoResult[] = [];
  for (const seed of seeds) {
    const r = await evaluatePhoto(seed, options);
    results.push(r);
    progress?.(r);
  }
  return summarise(results);
}

/** The figures over some photos. A photo refused (an error) is unreadable: not read wrong without a flag. */
export function summarise(results: PhotoResult[]): EvalSummary {
  const sum = (f: (r: PhotoResult) => number) => results.reduce((s, r) => s + f(r), 0);
  const cells = sum((r) => r.cells);
  const organs = sum((r) => r.organs);
  return {
    photos: results.length,
    cellAccuracy: cells ? sum((r) => r.cellsRight) / cells : 0,
    organAccuracy: organs ? sum((r) => r.organsRight) / organs : 0,
    scoreEqual: results.length ? results.filter((r) => r.readTotal === r.trueTotal).length / results.length : 0,
    silentlyWrong: results.filter((r) => !r.error && r.readTotal !== r.trueTotal && r.uncertainAffectingScore === 0).length,
    failed: results.filter((r) => r.error).length,
    meanMs: results.length ? sum((r) => r.ms) / results.length : 0,
    results,
  };
}
