/**
 * A compact text notation for a Worm & Cozy board, read by tests and fixtures and printed in
 * failing tests so the reader sees the position (after chess.js's FEN, but as a picture).
 *
 * ```
 *    A  B   C  D  E
 * 1  .  .   #  .  .
 * 2  .  1E^ 1  1  .      worm 1: an eye facing north on B2
 * 3  *  .   .  1T> .     a food on A3; worm 1's tail on D3 points east
 * 1: ext=1               legend: what the picture cannot show
 * ```
 *
 * Cell tokens, separated by spaces: `.` blank, `#` rock, `*` food, or a worm number followed by an
 * optional organ letter and facing arrow. Organs: `E` eye, `M` mouth, `T` tail, `C` collar, `B`
 * brain, `b` filled brain, `H` heart; facings `^` N, `>` E, `v` S, `<` W (eyes and mouths default to
 * facing forward, tails outward). The header row of column letters is optional; with it, each row
 * starts with its number. Rows may also be separated by `/` on one line, and legend entries by `;`.
 *
 * Legend lines `N: key=value ...` give what the picture cannot: `shape=L` (or `shape=-` for a
 * baby; default: the shape the 5 cells form, a baby for 2–3 cells), `front=B2` (the front tip; by
 * default the end where the eyes or mouths are, or away from the tail), `front=?` (no front yet),
 * `cells=B2,B3,...` (the order, when the worm touches itself), `ext=3` (largest extension so far),
 * `parents=1+3` and `born=4` (a baby's parents and the 0-based hour it was made).
 *
 * A board is refused, not bent, when it is no position a game reaches: the organ placements the
 * sheet file refuses (drawn.ts: one check for both), legend values that are not whole numbers or
 * name no other worm, a key given twice, a board past Z99.
 */
import { cellName, columnLetter, dirBetween, gridGeometry, parseCellName, type Geometry } from './board.js';
import { drawnWormProblems } from './drawn.js';
import { FACING_ORGANS } from './organs.js';
import { orderAsPath, isPath, shapeOfCells } from './shapes.js';
import { SHAPE_NAMES, type Dir, type Organ, type OrganType, type ShapeName, type Worm } from './state.js';

export interface NotationBoard {
  width: number;
  height: number;
  /** Rock cells by name (as a chapter lists them). */
  rocks: string[];
  foods: number[];
  /** Worm k is `worms[k - 1]`, numbered as in the picture. */
  worms: Worm[];
}

export class NotationError extends Error {
  constructor(readonly problems: string[]) {
    super(`bad board notation:\n  ${problems.join('\n  ')}`);
    this.name = 'NotationError';
  }
}

const ORGAN_LETTER: Readonly<Record<string, OrganType>> = { E: 'eye', M: 'mouth', T: 'tail', C: 'collar', B: 'brain', b: 'brain', H: 'heart' };
const LETTER_OF: Readonly<Record<OrganType, string>> = { eye: 'E', mouth: 'M', tail: 'T', collar: 'C', brain: 'B', heart: 'H' };
const ARROW_DIR: Readonly<Record<string, Dir>> = { '^': 'N', '>': 'E', v: 'S', '<': 'W' };
const DIR_ARROW: Readonly<Record<Dir, string>> = { N: '^', E: '>', S: 'v', W: '<' };

/** The largest board a chapter may have (chapters.ts): cell names run A1 to Z99. */
const MAX_COLUMNS = 26;
const MAX_ROWS = 99;
const WHOLE = /^\d+$/;

interface RawWorm {
  cells: number[];
  organs: { type: OrganType; cell: number; facing?: Dir; filled?: boolean }[];
}

/** Reads a board; throws a NotationError listing every problem (with row and column). */
export function parseBoard(text: string): NotationBoard {
  const problems: string[] = [];
  const lines = text
    .split(/\n|\//)
    .flatMap((l) => l.split(';'))
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => l.trim() !== '');
  const legend = lines.filter((l) => /^\s*\d+\s*:/.test(l));
  let grid = lines.filter((l) => !/^\s*\d+\s*:/.test(l)).map((l) => l.trim().split(/\s+/));
  let numbered = false;
  if (grid[0] && grid[0].every((t, i) => t === columnLetter(i))) {
    numbered = true;
    grid = grid.slice(1);
  }
  if (numbered) {
    grid = grid.map((row, r) => {
      if (row[0] !== String(r + 1)) problems.push(`row ${r + 1}: starts with "${row[0]}", expected its number ${r + 1} (the board has a header row)`);
      return row.slice(1);
    });
  }
  const height = grid.length;
  const width = grid[0]?.length ?? 0;
  if (height === 0 || width === 0) throw new NotationError(['no board rows']);
  // Cell names stop at column Z (a 27th column would be "[1"), and a chapter's board at 99 rows.
  if (width > MAX_COLUMNS || height > MAX_ROWS) throw new NotationError([`the board is ${width} x ${height}: at most ${MAX_COLUMNS} columns (A-Z) and ${MAX_ROWS} rows`]);
  grid.forEach((row, r) => {
    if (row.length !== width) problems.push(`row ${r + 1}: ${row.length} cells, but row 1 has ${width}`);
  });
  const rocks: string[] = [];
  const foods: number[] = [];
  const raw = new Map<number, RawWorm>();
  const geo0 = gridGeometry(width, height, []);
  grid.forEach((row, r) =>
    row.forEach((tok, c) => {
      if (c >= width) return;
      const cell = r * width + c;
      const where = `${cellName(geo0, cell)}`;
      if (tok === '.') return;
      if (tok === '#') return void rocks.push(where);
      if (tok === '*') return void foods.push(cell);
      const m = /^(\d+)([EMTCBbH])?([\^>v<])?$/.exec(tok);
      if (!m) return void problems.push(`${where}: "${tok}" is not a cell token (. # * or worm number, organ letter, facing)`);
      const id = Number(m[1]);
      if (id < 1) return void problems.push(`${where}: worms are numbered from 1`);
      let w = raw.get(id);
      if (!w) raw.set(id, (w = { cells: [], organs: [] }));
      w.cells.push(cell);
      if (m[2]) {
        const type = ORGAN_LETTER[m[2]]!;
        const o: RawWorm['organs'][number] = { type, cell };
        if (m[3]) o.facing = ARROW_DIR[m[3]];
        if (m[2] === 'b') o.filled = true;
        if (m[3] && type !== 'eye' && type !== 'mouth' && type !== 'tail') problems.push(`${where}: a ${type} has no facing`);
        w.organs.push(o);
      } else if (m[3]) problems.push(`${where}: a facing arrow needs an organ letter before it`);
    }),
  );
  const geo = gridGeometry(width, height, rocks);
  const ids = [...raw.keys()].sort((a, b) => a - b);
  ids.forEach((id, i) => {
    if (id !== i + 1) problems.push(`worms must be numbered 1, 2, 3... without gaps: worm ${i + 1} is missing`);
  });
  const legendOf = new Map<number, Map<string, string>>();
  for (const l of legend) {
    const m = /^\s*(\d+)\s*:(.*)$/.exec(l)!;
    const id = Number(m[1]);
    const kv = legendOf.get(id) ?? new Map<string, string>();
    for (const part of m[2]!.trim().split(/\s+/).filter(Boolean)) {
      const eq = part.indexOf('=');
      if (eq < 1) {
        problems.push(`legend ${id}: "${part}" is not key=value`);
        continue;
      }
      const key = part.slice(0, eq);
      // The last one would win silently: a legend that says two things says neither.
      if (kv.has(key)) problems.push(`legend ${id}: ${key}= is given twice`);
      kv.set(key, part.slice(eq + 1));
    }
    legendOf.set(id, kv);
    if (!raw.has(id)) problems.push(`legend ${id}: there is no worm ${id} on the board`);
  }
  const worms: Worm[] = [];
  for (const id of ids) {
    const w = raw.get(id)!;
    const kv = legendOf.get(id) ?? new Map<string, string>();
    const label = `worm ${id}`;
    for (const k of kv.keys()) if (!['shape', 'front', 'cells', 'ext', 'parents', 'born'].includes(k)) problems.push(`${label}: unknown legend key "${k}"`);
    let cells: number[] | null;
    // Whether the cells are a path in a known order: the rules' organ checks need both.
    let orderKnown = true;
    if (kv.has('cells')) {
      cells = kv
        .get('cells')!
        .split(',')
        .map((n) => {
          const p = parseCellName(n);
          return p ? p[1] * width + p[0] : -1;
        });
      const a = [...cells].sort((x, y) => x - y).join();
      const b = [...w.cells].sort((x, y) => x - y).join();
      if (a !== b) problems.push(`${label}: cells= lists other cells than the picture shows`);
      if (!isPath(geo, cells)) problems.push(`${label}: cells= is not a path of touching cells`);
      orderKnown = a === b && isPath(geo, cells);
    } else {
      cells = orderAsPath(geo, w.cells);
      if (!cells) {
        problems.push(`${label}: its cells ${w.cells.map((c) => cellName(geo, c)).join(' ')} do not form a path`);
        continue;
      }
      if (!uniquePath(geo, w.cells)) {
        problems.push(`${label}: it touches itself, so give its order with cells=...`);
        orderKnown = false;
      }
    }
    if (w.cells.length < 2) problems.push(`${label}: a worm has at least 2 cells`);
    const organs: Organ[] = [];
    for (const o of w.organs) organs.push(o.facing ? { type: o.type, cell: o.cell, facing: o.facing } : o.filled ? { type: o.type, cell: o.cell, filled: true } : { type: o.type, cell: o.cell });
    // shape
    let shape: ShapeName | null;
    const sv = kv.get('shape');
    if (sv === '-') shape = null;
    else if (sv !== undefined) {
      if (SHAPE_NAMES.includes(sv as ShapeName)) shape = sv as ShapeName;
      else {
        problems.push(`${label}: shape=${sv} is not one of ${SHAPE_NAMES.join(' ')} or -`);
        shape = null;
      }
    } else if (cells.length === 5 && shapeOfCells(geo, cells)) shape = shapeOfCells(geo, cells);
    else if (cells.length <= 3) shape = null;
    else {
      problems.push(`${label}: ${cells.length} cells: say its original shape with shape=L (or shape=- for a baby)`);
      shape = null;
    }
    // front
    const fv = kv.get('front');
    let front = false;
    if (fv === '?') {
      // An eye, mouth or tail gives a worm its front as it is added (organs.ts).
      const giver = organs.find((o) => FACING_ORGANS.has(o.type));
      if (giver) {
        problems.push(`${label}: front=? but the ${giver.type} at ${cellName(geo, giver.cell)} gives it a front`);
        orderKnown = false;
      }
    } else if (fv !== undefined) {
      const p = parseCellName(fv);
      const f = p ? p[1] * width + p[0] : -1;
      if (f === cells[0]) front = true;
      else if (f === cells[cells.length - 1]) {
        cells.reverse();
        front = true;
      } else {
        problems.push(`${label}: front=${fv} is not one of its tips`);
        orderKnown = false;
      }
    } else {
      const d = defaultFront(geo, cells, organs);
      if (d === 'error') {
        problems.push(`${label}: cannot tell its front from its organs: say front=CELL`);
        orderKnown = false;
      } else if (d !== null) {
        front = true;
        if (d === 'rear') cells.reverse();
      }
    }
    // facings default
    for (const o of organs) {
      if ((o.type === 'eye' || o.type === 'mouth') && !o.facing) {
        if (!front) problems.push(`${label}: the ${o.type} at ${cellName(geo, o.cell)} needs a facing arrow`);
        else o.facing = dirBetween(geo, cells[1]!, cells[0]!)!;
      }
      if (o.type === 'tail' && !o.facing) {
        const n = cells.length;
        if (front && o.cell === cells[n - 1]) o.facing = dirBetween(geo, cells[n - 2]!, cells[n - 1]!)!;
        else problems.push(`${label}: the tail at ${cellName(geo, o.cell)} needs a facing arrow`);
      }
    }
    // The placements the rules forbid, as the sheet file refuses them (an eye facing sideways, two tails...).
    if (orderKnown) problems.push(...drawnWormProblems(geo, { cells, shape, organs }, label));
    // Number('') is 0 and Number('x') NaN: only digits are a whole number here.
    const ev = kv.get('ext') ?? '0';
    if (!WHOLE.test(ev)) problems.push(`${label}: ext=${ev} must be a whole number`);
    const worm: Worm = { id, cells, front, shape, organs, ext: Number(ev) };
    if (kv.has('parents')) {
      const pv = kv.get('parents')!;
      const ps = pv.split('+');
      if (ps.length !== 2 || !ps.every((p) => WHOLE.test(p))) problems.push(`${label}: parents=${pv} is like 1+3`);
      else {
        const [a, b] = [Number(ps[0]), Number(ps[1])];
        // A collar partners its worm with another worm it touches: two worms, neither the baby.
        for (const p of new Set([a, b])) {
          if (p === id) problems.push(`${label}: parents=${pv} names the baby itself`);
          else if (!raw.has(p)) problems.push(`${label}: parents=${pv} names worm ${p}, which is not on the board`);
        }
        if (a === b) problems.push(`${label}: parents=${pv} names one worm twice: a baby has two parents`);
        worm.parents = [a, b];
      }
    }
    if (kv.has('born')) {
      const bv = kv.get('born')!;
      if (!WHOLE.test(bv)) problems.push(`${label}: born=${bv} must be a whole number (the 0-based hour it was made)`);
      worm.born = Number(bv);
    }
    worms.push(worm);
  }
  if (problems.length) throw new NotationError(problems);
  return { width, height, rocks, foods, worms };
}

/** Is the path through these cells unique up to reversal (no cell touches a non-neighbour in the path)? */
function uniquePath(g: Geometry, cells: readonly number[]): boolean {
  const set = new Set(cells);
  let ends = 0;
  for (const c of cells) {
    let k = 0;
    for (let d = 0; d < 4; d++) {
      const m = g.neighbor[c * 4 + d]!;
      if (m >= 0 && set.has(m)) k++;
    }
    if (k > 2) return false;
    if (k <= 1) ends++;
  }
  return ends === 2 || cells.length === 1;
}

/**
 * The front a picture implies: the end whose first two cells hold an eye or mouth facing outward
 * there, or the end away from the tail. null: no front organ. 'error': contradictory or unclear.
 */
function defaultFront(g: Geometry, cells: number[], organs: Organ[]): 'front' | 'rear' | null | 'error' {
  const n = cells.length;
  const votes = new Set<'front' | 'rear'>();
  const out0 = dirBetween(g, cells[1]!, cells[0]!);
  const outN = dirBetween(g, cells[n - 2]!, cells[n - 1]!);
  for (const o of organs) {
    if (o.type === 'tail') {
      if (o.cell === cells[n - 1]) votes.add('front');
      else if (o.cell === cells[0]) votes.add('rear');
      else return 'error';
    } else if (o.type === 'eye' || o.type === 'mouth') {
      const atFront = (o.cell === cells[0] || o.cell === cells[1]) && (!o.facing || o.facing === out0);
      const atRear = (o.cell === cells[n - 1] || o.cell === cells[n - 2]) && (!o.facing || o.facing === outN);
      if (atFront && !atRear) votes.add('front');
      else if (atRear && !atFront) votes.add('rear');
      else if (!atFront && !atRear) return 'error';
    }
  }
  if (votes.size > 1) return 'error';
  return votes.size === 1 ? [...votes][0]! : null;
}

/** Prints a board in the notation (with header and row numbers), plus the legend it needs. */
export function printBoard(g: Geometry, sheet: { worms: readonly Worm[]; foods: readonly number[] }): string {
  const tokens: string[] = new Array<string>(g.size).fill('.');
  for (const r of g.rocks) tokens[r] = '#';
  for (const f of sheet.foods) tokens[f] = '*';
  for (const w of sheet.worms) {
    for (const c of w.cells) tokens[c] = String(w.id);
    for (const o of w.organs) tokens[o.cell] = `${w.id}${o.type === 'brain' && o.filled ? 'b' : LETTER_OF[o.type]}${o.facing ? DIR_ARROW[o.facing] : ''}`;
  }
  const width = Math.max(...tokens.map((t) => t.length), String(g.height).length);
  const pad = (t: string) => t.padEnd(width);
  const lines = [[' '.repeat(String(g.height).length), ...Array.from({ length: g.width }, (_, i) => pad(columnLetter(i)))].join(' ').trimEnd()];
  for (let r = 0; r < g.height; r++) {
    const row = tokens.slice(r * g.width, (r + 1) * g.width).map(pad);
    lines.push([String(r + 1).padEnd(String(g.height).length), ...row].join(' ').trimEnd());
  }
  for (const w of sheet.worms) {
    const kv: string[] = [];
    const cells = w.cells;
    const inferredShape = cells.length === 5 && shapeOfCells(g, cells) ? shapeOfCells(g, cells) : cells.length <= 3 ? null : undefined;
    if (inferredShape !== w.shape) kv.push(`shape=${w.shape ?? '-'}`);
    if (!uniquePath(g, cells)) kv.push(`cells=${cells.map((c) => cellName(g, c)).join(',')}`);
    const d = defaultFront(g, cells, w.organs);
    if (w.front && d !== 'front') kv.push(`front=${cellName(g, cells[0]!)}`);
    if (!w.front && d !== null) kv.push('front=?');
    if (w.ext > 0) kv.push(`ext=${w.ext}`);
    if (w.parents) kv.push(`parents=${w.parents[0]}+${w.parents[1]}`);
    if (w.born !== undefined) kv.push(`born=${w.born}`);
    if (kv.length) lines.push(`${w.id}: ${kv.join(' ')}`);
  }
  return lines.join('\n');
}
