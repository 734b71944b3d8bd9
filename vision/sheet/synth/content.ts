/**
 * Realistic content for synthetic sheets: a random solo game of the chapter played to the end with
 * the engine (random legal choices from `legalOptions`, random dice), so every sheet is one a player
 * could really draw. Seeded: the same rng state gives the same finished sheet.
 */
import { applyMove } from '../../../shared/games/worm-and-cozy/apply.js';
import { loadChapter, type Chapter } from '../../../shared/games/worm-and-cozy/chapters.js';
import { setup } from '../../../shared/games/worm-and-cozy/index.js';
import { legalOptions } from '../../../shared/games/worm-and-cozy/options.js';
import { sheetFromState, type SheetJson } from '../../../shared/games/worm-and-cozy/sheet.js';
import { dirBetween, geometry } from '../../../shared/games/worm-and-cozy/board.js';
import { ORGAN_TYPES, SHAPE_NAMES, type CozyState, type Organ, type OrganType, type Worm } from '../../../shared/games/worm-and-cozy/state.js';
import type { Rng } from '../../../shared/rng.js';

export interface FinishedSheet {
  chapter: Chapter;
  worms: Worm[];
  foods: number[];
  sheet: SheetJson;
}

/**
 * Plays one solo game. `eagerness` is the chance of taking an active move over passing when both
 * are legal (random players who always act fill the board more than real ones; 0.75..0.95 is typical).
 */
export function playRandomGame(rng: Rng, chapter: Chapter, eagerness = 0.9): FinishedSheet {
  const bundled = loadChapter(chapter.id);
  const r = setup({ chapter: bundled.ok && bundled.chapter === chapter ? chapter.id : (chapter as unknown as Record<string, unknown>) });
  if (!r.ok) throw new Error(`synth: cannot set up ${chapter.id}: ${r.message}`);
  let s: CozyState = r.state;
  while (s.phase !== 'over') {
    let next;
    if (s.phase === 'roll') next = applyMove(s, { type: 'roll', shape: rng.pick(SHAPE_NAMES), organs: [rng.pick(ORGAN_TYPES), rng.pick(ORGAN_TYPES)] });
    else if (s.sheets[0]!.done) next = applyMove(s, { type: 'endHour' });
    else {
      const all = legalOptions(s).moves;
      const active = all.filter((m) => m.type !== 'done' && m.type !== 'pass');
      next = applyMove(s, active.length > 0 && rng.next() < eagerness ? rng.pick(active) : rng.pick(all));
    }
    if (!next.ok) throw new Error(`synth: the engine refused its own legal move: ${next.message}`);
    s = next.state;
  }
  const sheet = s.sheets[0]!;
  return { chapter: s.chapter, worms: sheet.worms, foods: sheet.foods, sheet: sheetFromState(s, s.players[0]!.id) };
}

/**
 * Training content only (never evaluated): the board packed with short random worms whose cells
 * mostly carry organs, so one photo holds many letters for the cell classifier to learn from. The
 * worms are paths with eyes and mouths facing along them and tails on the rear tip, like real ones.
 */
export function denseContent(rng: Rng, chapter: Chapter): { worms: Worm[]; foods: number[] } {
  const g = geometry(chapter);
  const used = new Uint8Array(g.size);
  for (const r of g.rocks) used[r] = 1;
  const worms: Worm[] = [];
  for (let attempt = 0; attempt < 400; attempt++) {
    const start = rng.int(0, g.size - 1);
    if (used[start]) continue;
    const len = rng.int(2, 7);
    const cells = [start];
    used[start] = 1;
    while (cells.length < len) {
      const last = cells[cells.length - 1]!;
      const free = [0, 1, 2, 3].map((d) => g.neighbor[last * 4 + d]!).filter((m) => m >= 0 && !used[m]);
      if (free.length === 0) break;
      const next = rng.pick(free);
      used[next] = 1;
      cells.push(next);
    }
    if (cells.length < 2) {
      used[start] = 0;
      continue;
    }
    const organs: Organ[] = [];
    const n = cells.length;
    cells.forEach((c, i) => {
      if (rng.next() > 0.8) return;
      const types: OrganType[] = ['eye', 'mouth', 'collar', 'brain', 'heart', 'brain'];
      if (i === n - 1) types.push('tail', 'tail');
      const type = rng.pick(types);
      const o: Organ = { type, cell: c };
      if (type === 'tail') o.facing = dirBetween(g, cells[n - 2]!, c)!;
      if (type === 'eye' || type === 'mouth') o.facing = i === 0 ? dirBetween(g, cells[1]!, c)! : rng.next() < 0.5 && i + 1 < n ? dirBetween(g, cells[i + 1]!, c)! : dirBetween(g, c, cells[i - 1]!)!;
      if (type === 'brain' && rng.next() < 0.45) o.filled = true;
      organs.push(o);
    });
    worms.push({ id: worms.length + 1, cells, front: true, shape: null, organs, ext: 0 });
  }
  const foods: number[] = [];
  for (let c = 0; c < g.size; c++) if (!used[c] && rng.next() < 0.5) foods.push(c);
  return { worms, foods };
}
