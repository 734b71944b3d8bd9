/**
 * `apply(state, move)`: checks a move against the rules and returns the next state, or a Failure
 * naming what was wrong, with the state untouched (moves run on a copy-on-write draft).
 */
import { Errors, fail, ok, type Result } from '../../game.js';
import { BABY_ORGAN_TYPES, actOrgan, actableOrgan, addFood, babiesForOrgans, closeTop, congaCells, growOne, growthSteps, isBabyPlacement, mouthsAt, settle, startCollar, type GrowthStep } from './actions.js';
import { cellIndex, cellName } from './board.js';
import { atOptionStep, endHourSheet, mustOrgan, fillableBrains, optionBOrgans, optionCAllows, optionWormProblem, startHourSheet } from './hour.js';
import type { CozyMove, PlayerMove } from './moves.js';
import { describePending } from './describe.js';
import { drawOrgan, findSpot, foodCells } from './organs.js';
import { borrowDraft, copyState, mutableWorm, placeOf, releasePosition, wormAt, wormById, writableWorms, type Draft } from './position.js';
import { isPath, orderAsPath, shapeOfCells } from './shapes.js';
import { ORGAN_TYPES, SHAPE_NAMES, type CozyState, type Dir, type Organ, type OrganType, type Pending, type PlayerSheet, type ShapeName, type Worm } from './state.js';
import { organAt } from './worms.js';
import { hourLabel } from './chapters.js';
import { givePaperSheet } from './paper.js';

type Problem = string | null;

export function applyMove(state: CozyState, move: CozyMove): Result<CozyState> {
  // The one move after the final hour (and only then): a seat's finished paper sheet.
  if (move.type === 'paperSheet') return givePaperSheet(state, move.player, move.sheet);
  if (state.phase === 'over') return fail(Errors.gameOver, 'the game is over: the final hour has ended');
  if (move.type === 'roll') {
    if (state.phase !== 'roll') return fail(Errors.wrongPhase, `${hourLabel(state.chapter, state.hour)} has already been rolled`);
    const roll = { shape: move.shape, organs: [move.organs[0], move.organs[1]] as [OrganType, OrganType] };
    const sheets: PlayerSheet[] = [];
    for (const s of state.sheets) sheets.push(startHourSheet(s, roll));
    return ok(copyState(state, state.hour, 'play', roll, sheets));
  }
  if (move.type === 'endHour') {
    if (state.phase !== 'play') return fail(Errors.wrongPhase, `roll the dice for ${hourLabel(state.chapter, state.hour)} first`);
    // Option A's organ cannot be passed (the rules: "Place a new worm. Add one organ to it."), so
    // the hour cannot end over it either: the table is told who is still drawing.
    for (let i = 0; i < state.sheets.length; i++) {
      const must = mustOrgan(state.sheets[i]!);
      if (must) return fail(Errors.illegal, `${hourLabel(state.chapter, state.hour)} cannot end yet: ${state.players[i]!.name} still has to add option A's organ to the new worm (${describePending(placeOf(state, i), must)})`);
    }
    const sheets: PlayerSheet[] = [];
    for (const s of state.sheets) sheets.push(endHourSheet(s));
    const hour = state.hour + 1;
    return ok(copyState(state, hour, hour >= state.chapter.clock.hours ? 'over' : 'roll', null, sheets));
  }
  let index = -1;
  for (let i = 0; i < state.players.length; i++) if (state.players[i]!.id === move.player) index = i;
  if (index < 0) return fail(Errors.notYourTurn, `no player "${move.player}" at this table (players: ${state.players.map((p) => p.id).join(', ')})`);
  if (state.phase !== 'play') return fail(Errors.wrongPhase, `the dice for ${hourLabel(state.chapter, state.hour)} have not been rolled yet`);
  const d = borrowDraft(state, index);
  const problem = playerMove(d, move);
  if (problem === null) settle(d);
  releasePosition(d); // the grid is not read after this
  if (problem) return fail(Errors.illegal, problem);
  const sheets = state.sheets.slice();
  sheets[index] = d.sheet;
  return ok(copyState(state, state.hour, state.phase, state.roll, sheets));
}

function cellOf(d: Draft, name: string): number | string {
  const c = cellIndex(d.geo, name);
  return c >= 0 ? c : `${name} is not a cell of this ${d.geo.width} x ${d.geo.height} board`;
}

function top(sheet: PlayerSheet): Pending | undefined {
  return sheet.stack[sheet.stack.length - 1];
}

function expecting(d: Draft, what: string): string {
  const f = top(d.sheet);
  if (f) return `${what} is not possible now: first ${describePending(d, f)} (or pass)`;
  if (d.sheet.done) return `${what} is not possible: you are done this hour`;
  return `${what} is not possible now: choose option A, B or C first`;
}

function playerMove(d: Draft, move: PlayerMove): Problem {
  const s = d.sheet;
  if (s.done) return 'you are done this hour: wait for the next hour';
  switch (move.type) {
    case 'changeDie':
      return changeDie(d, move.die, move.face, move.brain);
    case 'placeWorm':
      return placeWorm(d, move.cells);
    case 'addOrgan':
      return addOrganMove(d, move.organ, move.cell, move.facing);
    case 'activate':
      return activate(d, move.worm);
    case 'act':
      return act(d, move.cell);
    case 'food':
      return food(d, move.cell);
    case 'grow':
      return grow(d, move.cells, move.from);
    case 'congaLine': {
      const f = top(s);
      if (f?.k !== 'line') return expecting(d, 'choosing a conga line');
      const key = move.worms.join(',');
      const line = f.lines.find((l) => l.join(',') === key);
      if (!line) return `worms ${key} are not one of the conga lines: ${f.lines.map((l) => l.join('→')).join(', ')}`;
      s.stack.pop();
      s.stack.push({ k: 'conga', worms: line, used: [], left: line.length - 1 });
      return null;
    }
    case 'partner': {
      const f = top(s);
      if (f?.k !== 'partner') return expecting(d, 'choosing a partner');
      if (!f.partners.includes(move.worm)) return `worm ${move.worm} cannot be the partner: it must touch worm ${f.worm} and have a collar (choose ${f.partners.join(' or ')})`;
      s.stack.pop();
      startCollar(d, f.worm, move.worm);
      return null;
    }
    case 'baby':
      return baby(d, move.cells);
    case 'babyOrgans': {
      const f = top(s);
      if (f?.k !== 'collar') return expecting(d, 'giving the babies organs');
      const babies = babiesForOrgans(d, f.worm, f.partner);
      if (babies.length === 0) return `worms ${f.worm} and ${f.partner} have no baby made this hour that can take an organ`;
      s.stack[s.stack.length - 1] = { k: 'collar', worm: f.worm, partner: f.partner, left: f.left - 1 };
      s.stack.push({ k: 'babyOrgans', babies, added: [] });
      return null;
    }
    case 'pass': {
      const f = top(s);
      if (!f) return s.option === null ? 'nothing to pass: choose an option, or "done" for nothing this hour' : 'nothing to pass';
      if (f.k === 'organ' && f.must) return `option A adds one organ to the new worm: ${describePending(d, f)}`;
      closeTop(d);
      return null;
    }
    case 'done': {
      const must = mustOrgan(s);
      if (must) return `option A adds one organ to the new worm first: ${describePending(d, must)}`;
      s.stack.length = 0;
      s.done = true;
      return null;
    }
  }
}

function changeDie(d: Draft, die: 0 | 1 | 2, face: string, brain: string | undefined): Problem {
  const s = d.sheet;
  if (!atOptionStep(s)) return 'dice can only be changed before choosing an option';
  const dice = s.dice!;
  if (die === 0 && !SHAPE_NAMES.includes(face as ShapeName)) return `the shape die shows a shape (${SHAPE_NAMES.join(', ')}), not "${face}"`;
  if (die !== 0 && !ORGAN_TYPES.includes(face as OrganType)) return `an organ die shows an organ (${ORGAN_TYPES.join(', ')}), not "${face}"`;
  const current = die === 0 ? dice.shape : dice.organs[die - 1];
  if (current === face) return `that die already shows ${face}`;
  if (brain !== undefined) {
    const c = cellOf(d, brain);
    if (typeof c === 'string') return c;
    const w = wormAt(d, c);
    const o = w && organAt(w, c);
    if (!o || o.type !== 'brain') return `there is no brain at ${brain}`;
    if (o.filled) return `the brain at ${brain} is already filled in`;
    if (!fillableBrains(d).includes(c)) return `the brain at ${brain} is on worm ${w.id}, which has no cell in this hour's region`;
    const mw = mutableWorm(d, w.id);
    for (let i = 0; i < mw.organs.length; i++) {
      if (mw.organs[i]!.cell === c) {
        mw.organs[i] = filledBrain(o);
        break;
      }
    }
  } else {
    if (s.credits <= 0) {
      const used = s.creditsUsed ?? 0;
      const why = used > 0 ? `the ${used === 1 ? 'die change' : `${used} die changes`} from brains that acted last hour ${used === 1 ? 'is' : 'are'} used up` : 'no brain acted last hour';
      return `${why}: fill in a brain on a worm in this hour's region to change a die`;
    }
    s.credits -= 1;
    s.creditsUsed = (s.creditsUsed ?? 0) + 1;
  }
  // Object literals, not `{ ...dice, k: v }`: V8's spread path cost microseconds per move.
  s.dice = die === 0 ? { shape: face as ShapeName, organs: dice.organs } : { shape: dice.shape, organs: die === 1 ? [face as OrganType, dice.organs[1]] : [dice.organs[0], face as OrganType] };
  return null;
}

/** The brain, filled in: its keys in the same order as `{ ...o, filled: true }`. */
function filledBrain(o: Organ): Organ {
  const out: Organ = { type: o.type, cell: o.cell };
  if ('facing' in o) out.facing = o.facing;
  out.filled = true;
  return out;
}

function placeWorm(d: Draft, names: string[]): Problem {
  const s = d.sheet;
  if (!atOptionStep(s)) return expecting(d, 'option A');
  const cells: number[] = [];
  for (let i = 0; i < names.length; i++) {
    // Indexed: moves from legalOptions hold frozen arrays, which for-of walks slowly.
    const n = names[i]!;
    const c = cellOf(d, n);
    if (typeof c === 'string') return c;
    cells.push(c);
  }
  const shape = s.dice!.shape;
  const got = shapeOfCells(d.geo, cells);
  if (got !== shape) return `${names.join(' ')} ${got ? `is an ${got}` : 'is not one of the shapes'}; the shape die says ${shape}`;
  for (const c of cells) {
    const o = d.occ[c]!;
    if (o !== 0) return `${cellName(d.geo, c)} is not empty (${o > 0 ? `worm ${o}` : o === -1 ? 'a rock' : 'a food'})`;
  }
  let inRegion = false;
  for (const c of cells) if (d.region[c]) inRegion = true;
  if (!inRegion) return `the new worm must have a cell in this hour's region`;
  const path = isPath(d.geo, cells) ? cells : orderAsPath(d.geo, cells)!;
  const id = s.worms.length + 1;
  writableWorms(d).push({ id, cells: path, front: false, shape, organs: [], ext: 0 });
  d.copied.push(id);
  for (const c of path) d.occ[c] = id;
  s.option = 'A';
  const [x, y] = s.dice!.organs;
  const types = x === y ? [x] : [x, y];
  s.stack.push({ k: 'organ', worm: id, types, must: true });
  return null;
}

function addOrganMove(d: Draft, type: OrganType, name: string, facing: 'N' | 'E' | 'S' | 'W' | undefined): Problem {
  const s = d.sheet;
  const c = cellOf(d, name);
  if (typeof c === 'string') return c;
  const w = wormAt(d, c);
  if (!w) return `there is no worm at ${name}`;
  const f = top(s);
  if (f?.k === 'organ') {
    if (w.id !== f.worm) return `the organ goes on worm ${f.worm}, not worm ${w.id}`;
    if (!f.types.includes(type)) return `the organ must be ${f.types.join(' or ')} (the organs rolled), not ${type}`;
    const p = placeOrgan(d, w, type, c, name, facing);
    if (p) return p;
    s.stack.pop();
    s.stack.push({ k: 'act', cells: [c] });
    return null;
  }
  if (f?.k === 'babyOrgans') {
    if (!f.babies.includes(w.id)) return `worm ${w.id} is not one of the babies waiting for an organ (${f.babies.join(', ')})`;
    if (!BABY_ORGAN_TYPES.includes(type)) return 'a baby gets any organ but a collar';
    const p = placeOrgan(d, w, type, c, name, facing);
    if (p) return p;
    s.stack[s.stack.length - 1] = { k: 'babyOrgans', babies: f.babies.filter((b) => b !== w.id), added: f.added.concat(c) };
    return null;
  }
  if (f || !atOptionStep(s)) return expecting(d, 'adding an organ');
  // Option B.
  const problem = optionWormProblem(d, w);
  if (problem) return problem;
  const roll = s.dice!;
  if (!roll.organs.includes(type)) return `option B adds one of the organs rolled (${roll.organs.join(', ')}), not ${type}`;
  if (!optionBOrgans(roll, w).includes(type)) {
    const other = roll.organs[0] === type ? roll.organs[1] : roll.organs[0];
    return `worm ${w.id} needs the other organ rolled (${other}) or the rolled shape (${roll.shape}) for option B`;
  }
  const p = placeOrgan(d, w, type, c, name, facing);
  if (p) return p;
  s.option = 'B';
  s.stack.push({ k: 'act', cells: [c] });
  return null;
}

function placeOrgan(d: Draft, w: Worm, type: OrganType, c: number, name: string, facing: Dir | undefined): Problem {
  const spot = findSpot(d.geo, w, type, c, facing);
  if ('error' in spot) return `a ${type} cannot go at ${name} on worm ${w.id}: ${spot.error}${organAt(w, c) ? ` (${name} already has a ${organAt(w, c)!.type})` : ''}`;
  drawOrgan(d, w.id, type, spot);
  return null;
}

function activate(d: Draft, id: number): Problem {
  const s = d.sheet;
  if (!atOptionStep(s)) return expecting(d, 'option C');
  const w = wormById(d, id);
  if (!w) return `there is no worm ${id}`;
  const problem = optionWormProblem(d, w);
  if (problem) return problem;
  if (!optionCAllows(s.dice!, w)) return `worm ${id} has neither organ rolled (${s.dice!.organs.join(', ')}) nor the rolled shape (${s.dice!.shape})`;
  s.option = 'C';
  const cells: number[] = [];
  for (const o of w.organs) if (actableOrgan(d, o.cell)) cells.push(o.cell);
  s.stack.push({ k: 'act', cells });
  return null;
}

function act(d: Draft, name: string): Problem {
  const s = d.sheet;
  const c = cellOf(d, name);
  if (typeof c === 'string') return c;
  const f = top(s);
  if (f?.k === 'act') {
    if (!f.cells.includes(c)) return `the organ at ${name} is not one of those that may act now (${f.cells.map((x) => cellName(d.geo, x)).join(', ')})`;
    if (!actableOrgan(d, c)) return `the organ at ${name} has already acted this hour`;
    const rest: number[] = [];
    for (const x of f.cells) if (x !== c) rest.push(x);
    s.stack[s.stack.length - 1] = { k: 'act', cells: rest };
    actOrgan(d, c);
    return null;
  }
  if (f?.k === 'conga') {
    if (!congaCells(d, f).includes(c)) {
      const w = wormAt(d, c);
      if (!w || !f.worms.includes(w.id)) return `${name} is not on a worm of the conga line (${f.worms.join('→')})`;
      if (f.used.includes(w.id)) return `worm ${w.id} has already had an organ act for this conga line`;
      const o = organAt(w, c);
      if (!o) return `there is no organ at ${name}`;
      if (o.type === 'tail') return 'a conga line lets any organ act but a tail';
      return `the organ at ${name} has already acted this hour`;
    }
    const w = wormAt(d, c)!;
    s.stack[s.stack.length - 1] = { k: 'conga', worms: f.worms, used: f.used.concat(w.id), left: f.left - 1 };
    actOrgan(d, c);
    return null;
  }
  return expecting(d, 'having an organ act');
}

function food(d: Draft, name: string): Problem {
  const s = d.sheet;
  const f = top(s);
  if (f?.k !== 'food') return expecting(d, 'adding a food');
  const c = cellOf(d, name);
  if (typeof c === 'string') return c;
  const eye = organAt(wormAt(d, f.eye)!, f.eye)!;
  if (!foodCells(d, eye).includes(c)) {
    if (d.occ[c] !== 0) return `${name} is not blank`;
    return `the eye at ${cellName(d.geo, f.eye)} (facing ${eye.facing}) cannot see ${name}`;
  }
  s.stack[s.stack.length - 1] = { k: 'food', eye: f.eye, left: f.left - 1 };
  addFood(d, c);
  const mouths = mouthsAt(d, c);
  if (mouths.length > 0) s.stack.push({ k: 'act', cells: mouths });
  return null;
}

function grow(d: Draft, names: string[], from: string | undefined): Problem {
  const s = d.sheet;
  let f = top(s);
  if (f?.k !== 'grow') return expecting(d, 'growing');
  let fromCell = -1;
  if (from !== undefined) {
    const c = cellOf(d, from);
    if (typeof c === 'string') return c;
    fromCell = c;
  }
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const c = cellOf(d, name);
    if (typeof c === 'string') return c;
    if (f.grown >= f.max) return `worm ${f.worm} may grow by at most ${f.max} (hearts + largest earlier extension)`;
    let found: GrowthStep | undefined;
    let count = 0;
    for (const x of growthSteps(d, f)) {
      if (x.cell !== c || (fromCell >= 0 && f.end === null && x.from !== fromCell)) continue;
      found ??= x;
      count++;
    }
    if (!found) {
      if (d.occ[c] !== 0) return `${name} is not blank`;
      return `${name} does not continue worm ${f.worm} from ${f.end === null ? 'its head or tailless rear' : `its ${f.end === 'front' ? 'front' : 'rear'} tip`}`;
    }
    if (count > 1) return `${name} touches both tips of worm ${f.worm}: say which tip it grows from ("from")`;
    f = growOne(d, f, found.end, c);
    s.stack[s.stack.length - 1] = f;
  }
  return null;
}

function baby(d: Draft, names: string[]): Problem {
  const s = d.sheet;
  const f = top(s);
  if (f?.k !== 'collar') return expecting(d, 'placing a baby');
  const cells: number[] = [];
  for (let i = 0; i < names.length; i++) {
    const n = names[i]!;
    const c = cellOf(d, n);
    if (typeof c === 'string') return c;
    if (d.occ[c] !== 0) return `${n} is not blank`;
    cells.push(c);
  }
  const path = orderAsPath(d.geo, cells);
  if (!path) return `${names.join(' ')} is not a path of touching cells`;
  // Every path of 2 or 3 blank cells touching a parent is one of babyPlacements (checked directly).
  if (!isBabyPlacement(d, f.worm, f.partner, path)) return `the baby must touch worm ${f.worm} or its partner, worm ${f.partner}`;
  const id = s.worms.length + 1;
  const w: Worm = { id, cells: path, front: false, shape: null, organs: [], ext: 0, parents: [f.worm, f.partner], born: d.hour };
  writableWorms(d).push(w);
  d.copied.push(id);
  for (const c of path) d.occ[c] = id;
  s.stack[s.stack.length - 1] = { k: 'collar', worm: f.worm, partner: f.partner, left: f.left - 1 };
  return null;
}
