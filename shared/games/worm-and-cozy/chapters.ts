/**
 * Chapters (the printed game sheets) as validated data: board, rocks, the hour clock, the dice
 * tables, three rewards built from named counters, the penalty track and the rubric. A table owner
 * edits `chapters/*.json`; every file is checked with zod and then for meaning (cells on the board,
 * known counters with valid parameters, ordered tracks, the rules' penalty: worms touching blank
 * space on a track of x's, and no x on a reward) on first use, with one message per problem.
 */
import { z } from 'zod';
import { DIE_COLORS, isDieColor } from '../../dice.js';
import { parseCellName, parseRange } from './board.js';
import { COUNTERS, counterNamed } from './counters.js';
import { ORGAN_TYPES, SHAPE_NAMES, type OrganType, type ShapeName } from './state.js';
import clew1 from './chapters/clew-1.json' with { type: 'json' };
import clew2 from './chapters/clew-2.json' with { type: 'json' };
import clew3 from './chapters/clew-3.json' with { type: 'json' };
import clew4 from './chapters/clew-4.json' with { type: 'json' };
import clew5 from './chapters/clew-5.json' with { type: 'json' };
import clew6 from './chapters/clew-6.json' with { type: 'json' };
import clew7 from './chapters/clew-7.json' with { type: 'json' };
import clew8 from './chapters/clew-8.json' with { type: 'json' };

const symbolSchema = z
  .object({
    /** The count this symbol is printed under: it is circled once the reward's count reaches it. */
    at: z.number().int().min(0).max(999),
    /** star: +1 each; circle: 0; x: −1 each (an "XX" pair is `{symbol: "x", count: 2}`). */
    symbol: z.enum(['star', 'circle', 'x']),
    /** Grouped symbols printed under the same number (default 1). */
    count: z.number().int().min(1).max(20).optional(),
  })
  .strict();
export type TrackSymbol = z.infer<typeof symbolSchema>;

const rewardSchema = z
  .object({
    name: z.string().min(1).max(80),
    /** The name of a counter in the library (counters.ts). */
    counter: z.string().min(1),
    params: z.record(z.string(), z.unknown()).optional(),
    /** How the sheet words it, e.g. "worms with 3 or more organs". */
    text: z.string().max(200).optional(),
    track: z.array(symbolSchema).min(1).max(60),
  })
  .strict();
export type Reward = z.infer<typeof rewardSchema>;

const regionSchema = z
  .object({
    /** The edge of the sheet where the hour's label is printed. */
    edge: z.enum(['top', 'right', 'bottom', 'left']),
    /** Columns like "A-E" (top and bottom edges) or rows like "1-5" (left and right edges). */
    columns: z.string().optional(),
    rows: z.string().optional(),
  })
  .strict();
export type RegionSpec = z.infer<typeof regionSchema>;

export const chapterSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'lower-case letters, digits and dashes'),
    title: z.string().min(1).max(80),
    /** True for clew's own chapters (not the printed originals). */
    clew: z.boolean().optional(),
    description: z.string().max(400).optional(),
    board: z
      .object({
        columns: z.number().int().min(3).max(26),
        rows: z.number().int().min(3).max(99),
        rocks: z.array(z.string()).max(200),
      })
      .strict(),
    clock: z
      .object({
        /** The hours' regions in clock order, stepping clockwise around the board. */
        regions: z.array(regionSchema).min(1).max(24),
        /** The laps around the board: "AM" then "PM". */
        halves: z.array(z.string().min(1).max(8)).min(1).max(4),
        hours: z.number().int().min(1).max(96),
      })
      .strict(),
    dice: z
      .object({
        /** Standard die numbers 1–6 → shapes. */
        shape: z.array(z.enum(SHAPE_NAMES as [ShapeName, ...ShapeName[]])).length(6),
        /** Standard die numbers 1–6 → organs. */
        organ: z.array(z.enum(ORGAN_TYPES as [OrganType, ...OrganType[]])).length(6),
        /** With standard dice, the shape die is the one of this colour. */
        shapeDieColor: z.string(),
      })
      .strict(),
    rewards: z.array(rewardSchema).min(1).max(6),
    penalty: rewardSchema,
    rubric: z
      .object({
        /** The line for totals below the first step. */
        lowest: z.string().min(1).max(60),
        steps: z.array(z.object({ from: z.number().int(), label: z.string().min(1).max(60) }).strict()).max(20),
      })
      .strict(),
  })
  .strict();

export type Chapter = z.infer<typeof chapterSchema>;

export type ChapterResult = { ok: true; chapter: Chapter } | { ok: false; errors: string[] };

/** Validates plain JSON as a chapter: the zod shape first, then what the shape cannot say. */
export function parseChapter(json: unknown, where = 'chapter'): ChapterResult {
  const parsed = chapterSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => `${where}: ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`),
    };
  }
  const c = parsed.data;
  const errors: string[] = [];
  const { columns, rows } = c.board;
  const seenRocks = new Set<string>();
  for (const name of c.board.rocks) {
    const p = parseCellName(name);
    // "A0" parses to row −1: a cell name off the top or left edge is off the board too.
    if (!p || p[0] < 0 || p[1] < 0 || p[0] >= columns || p[1] >= rows) errors.push(`${where}: rock ${name} is not a cell of the ${columns} x ${rows} board`);
    else if (seenRocks.has(name.toUpperCase())) errors.push(`${where}: rock ${name} is listed twice`);
    seenRocks.add(name.toUpperCase());
  }
  c.clock.regions.forEach((r, i) => {
    const label = `${where}: clock region ${i + 1}`;
    const horizontal = r.edge === 'top' || r.edge === 'bottom';
    if (horizontal && (!r.columns || r.rows)) errors.push(`${label}: a ${r.edge}-edge region names columns (like "A-E") and no rows`);
    if (!horizontal && (!r.rows || r.columns)) errors.push(`${label}: a ${r.edge}-edge region names rows (like "1-5") and no columns`);
    if (r.columns) {
      const b = parseRange(r.columns, 'columns');
      if (!b || b[1] >= columns) errors.push(`${label}: columns "${r.columns}" are not a range of this board's columns`);
    }
    if (r.rows) {
      const b = parseRange(r.rows, 'rows');
      if (!b || b[1] >= rows || b[0] < 0) errors.push(`${label}: rows "${r.rows}" are not a range of this board's rows`);
    }
  });
  const maxHours = c.clock.regions.length * c.clock.halves.length;
  if (c.clock.hours > maxHours) errors.push(`${where}: ${c.clock.hours} hours need more than ${c.clock.regions.length} regions x ${c.clock.halves.length} halves = ${maxHours} labelled hours`);
  if (new Set(c.dice.shape).size !== 6) errors.push(`${where}: dice.shape must name each of the six shapes once`);
  if (new Set(c.dice.organ).size !== 6) errors.push(`${where}: dice.organ must name each of the six organs once`);
  if (!isDieColor(c.dice.shapeDieColor)) errors.push(`${where}: dice.shapeDieColor "${c.dice.shapeDieColor}" is not a known die colour (${Object.keys(DIE_COLORS).join(', ')})`);
  const checkCounter = (r: Reward, label: string) => {
    const counter = counterNamed(r.counter);
    if (!counter) {
      errors.push(`${label} "${r.name}": unknown counter "${r.counter}" (known: ${Object.keys(COUNTERS).join(', ')})`);
    } else {
      const p = counter.params.safeParse(r.params ?? {});
      if (!p.success) errors.push(`${label} "${r.name}": bad params for ${r.counter}: ${p.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
    }
  };
  const checkTrack = (r: Reward, label: string) => {
    for (let i = 1; i < r.track.length; i++) {
      if (r.track[i]!.at < r.track[i - 1]!.at) errors.push(`${label} "${r.name}": track symbol ${i + 1} is printed under ${r.track[i]!.at}, before the ${r.track[i - 1]!.at} to its left`);
    }
  };
  c.rewards.forEach((r, i) => {
    const label = `${where}: reward ${i + 1}`;
    checkCounter(r, label);
    checkTrack(r, label);
    // Only the penalty takes points off ("the number of stars you circle, minus the number of X's").
    const xs = symbolsNumbered(r.track, (s) => s.symbol === 'x');
    if (xs.length) errors.push(`${label} "${r.name}": track ${xs.length > 1 ? `symbols ${xs.join(', ')} are x's` : `symbol ${xs[0]} is an x`}, but a reward's track has only stars and circles (an x takes a point off: only the penalty has them)`);
  });
  const penalty = c.penalty;
  const penaltyLabel = `${where}: penalty`;
  // The rules: the penalty "always says it's based on 'the number of worms touching blank space(s)'";
  // DECISIONS makes that counter a rule, so only the penalty's track is the chapter's to choose.
  if (penalty.counter === PENALTY_COUNTER) checkCounter(penalty, penaltyLabel);
  else errors.push(`${penaltyLabel} "${penalty.name}": its counter is "${penalty.counter}", but the penalty always counts worms touching blank space ("${PENALTY_COUNTER}")`);
  checkTrack(penalty, penaltyLabel);
  const notX = symbolsNumbered(penalty.track, (s) => s.symbol !== 'x');
  if (notX.length) errors.push(`${penaltyLabel} "${penalty.name}": track ${notX.length > 1 ? `symbols ${notX.join(', ')} are not x's` : `symbol ${notX[0]} is not an x`}, but the penalty's track has only x's (each circled x is a point off)`);
  const keys = c.rewards.map((r) => `${r.counter}:${JSON.stringify(r.params ?? {})}`);
  if (new Set(keys).size !== keys.length) errors.push(`${where}: two rewards count the same thing`);
  for (let i = 1; i < c.rubric.steps.length; i++) {
    if (c.rubric.steps[i]!.from <= c.rubric.steps[i - 1]!.from) errors.push(`${where}: rubric steps must rise (step ${i + 1})`);
  }
  return errors.length ? { ok: false, errors } : { ok: true, chapter: c };
}

/** The penalty's counter: the rules fix it for every chapter. */
const PENALTY_COUNTER = 'wormsTouchingBlank';

/** The 1-based numbers of a track's symbols that `pick` selects, as the messages name them. */
function symbolsNumbered(track: readonly TrackSymbol[], pick: (s: TrackSymbol) => boolean): number[] {
  const out: number[] = [];
  track.forEach((s, i) => {
    if (pick(s)) out.push(i + 1);
  });
  return out;
}

const RAW: Readonly<Record<string, unknown>> = {
  'clew-1': clew1,
  'clew-2': clew2,
  'clew-3': clew3,
  'clew-4': clew4,
  'clew-5': clew5,
  'clew-6': clew6,
  'clew-7': clew7,
  'clew-8': clew8,
};

export const CHAPTER_IDS: readonly string[] = Object.keys(RAW);
export const DEFAULT_CHAPTER_ID = 'clew-1';

const loaded = new Map<string, ChapterResult>();

/** A bundled chapter by id, validated on first use; unknown ids and bad files give messages. */
export function loadChapter(id: string): ChapterResult {
  let r = loaded.get(id);
  if (!r) {
    // Own keys only: "constructor" or "__proto__" is an unknown chapter, not Object's.
    const raw = Object.hasOwn(RAW, id) ? RAW[id] : undefined;
    if (raw === undefined) return { ok: false, errors: [`unknown chapter "${id}" (known: ${CHAPTER_IDS.join(', ')})`] };
    r = parseChapter(raw, `chapter ${id}`);
    if (r.ok && r.chapter.id !== id) r = { ok: false, errors: [`chapter file ${id}.json says its id is "${r.chapter.id}"`] };
    loaded.set(id, r);
  }
  return r;
}

/** A bundled chapter, or a thrown error naming every problem (for code paths that need one). */
export function getChapter(id: string): Chapter {
  const r = loadChapter(id);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.chapter;
}

/** "3 AM" for hour index 2 of the default clock. */
export function hourLabel(chapter: Chapter, hour: number): string {
  // Every legalOptions call names the hour: the labels are made once per chapter object.
  if (!Number.isInteger(hour) || hour < 0 || hour > 999) return makeHourLabel(chapter, hour);
  let labels = chapter === lastLabelled ? lastLabels : hourLabels.get(chapter);
  if (!labels) {
    labels = [];
    hourLabels.set(chapter, labels);
  }
  lastLabelled = chapter;
  lastLabels = labels;
  return (labels[hour] ??= makeHourLabel(chapter, hour));
}

/** The last chapter labelled (a comparison beats a WeakMap on every call). */
let lastLabelled: Chapter | null = null;
let lastLabels: string[] | undefined;

const hourLabels = new WeakMap<Chapter, string[]>();

function makeHourLabel(chapter: Chapter, hour: number): string {
  const n = chapter.clock.regions.length;
  const half = chapter.clock.halves[Math.floor(hour / n)] ?? '';
  return `${(hour % n) + 1} ${half}`.trim();
}

/** The index into `clock.regions` of an hour's region. */
export function hourRegionIndex(chapter: Chapter, hour: number): number {
  return hour % chapter.clock.regions.length;
}
