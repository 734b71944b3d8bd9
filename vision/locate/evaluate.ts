/**
 * Measuring a locator on seeded rendered scenes, per condition: every die found once (IoU ≥ 0.5),
 * nothing else. Used by `tsx scripts/train-locator.ts --evaluate` (the table in the notes) and by
 * the tests. The scenes' seed is never one the detector was trained on.
 */
import { createRng } from '../../shared/rng.js';
import { renderScene, type RenderSceneOptions, type SceneDie } from '../synth/index.js';
import type { Box, RgbImage } from '../types.js';

export interface EvalCase {
  name: string;
  /** What the case stresses, for the table. */
  about: string;
  options: RenderSceneOptions;
}

/** The conditions the issue names, one rendered case each. */
export const EVAL_CASES: readonly EvalCase[] = [
  { name: 'wood', about: 'wooden table', options: { table: 'wood' } },
  { name: 'felt', about: 'felt', options: { table: 'felt' } },
  { name: 'card', about: 'grey card', options: { table: 'card' } },
  { name: 'pattern', about: 'patterned cloth', options: { table: 'pattern' } },
  { name: 'dark', about: 'dark table', options: { table: 'dark' } },
  { name: 'white-on-light', about: 'white and ivory dice on a light tray', options: { table: 'tray', palette: ['white', 'ivory'] } },
  { name: 'touching', about: 'many dice, most touching', options: { dice: 16, dieSize: [30, 90], knobs: { touchChance: 1 } } },
  { name: 'hard-looks', about: 'marbled, translucent, low-contrast, glossy', options: { knobs: { hardLooks: 1, glareChance: 0.8 } } },
  { name: 'tiny', about: 'dice 20–30 px', options: { dice: 20, dieSize: [20, 30] } },
  { name: 'large', about: 'dice 150–300 px', options: { dice: 2, dieSize: [150, 300] } },
  // Added 26 November (fifth session): the real frames' dice sit in such shadows.
  { name: 'room-light', about: "a broad light's soft shadows round the dice, on plain tables", options: { knobs: { broadLight: 1, tables: ['wood', 'felt', 'card', 'tray', 'dark'] } } },
];

export function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return union > 0 ? inter / union : 0;
}

/** Greedy one-to-one matching, best IoU first: which truths were found and which boxes are extra. */
export function matchDice(truth: readonly Box[], found: readonly Box[], at = 0.5): { hit: boolean[]; spurious: number[]; ious: number[] } {
  const pairs: [number, number, number][] = [];
  truth.forEach((t, i) => found.forEach((f, j) => {
    const v = iou(t, f);
    if (v >= at) pairs.push([v, i, j]);
  }));
  pairs.sort((p, q) => q[0] - p[0]);
  const hit = truth.map(() => false), used = found.map(() => false), ious = truth.map(() => 0);
  for (const [v, i, j] of pairs) {
    if (hit[i] || used[j]) continue;
    hit[i] = used[j] = true;
    ious[i] = v;
  }
  return { hit, spurious: used.flatMap((u, j) => (u ? [] : [j])), ious };
}

export interface Tally {
  dice: number;
  found: number;
  spurious: number;
  /** Mean IoU of the dice found. */
  iou: number;
}

export interface EvalReport {
  /** Per case (recall and precision over its scenes). */
  cases: Record<string, Tally>;
  /** Per die condition over all cases (spurious not attributable: 0). */
  conditions: Record<string, Tally>;
  all: Tally;
}

/** Dice whose boxes come within 2 px of another die's box. */
export function touchingDice(dice: readonly SceneDie[]): boolean[] {
  return dice.map((d, k) =>
    dice.some((o, j) => j !== k && o.box[0] < d.box[2] + 2 && o.box[2] > d.box[0] - 2 && o.box[1] < d.box[3] + 2 && o.box[3] > d.box[1] - 2),
  );
}

function emptyReport(): EvalReport {
  return { cases: {}, conditions: {}, all: { dice: 0, found: 0, spurious: 0, iou: 0 } };
}

/** Every locator on the same seeded scenes (each scene is rendered once). */
export function evaluateLocators(
  locators: Record<string, (image: RgbImage, empty?: RgbImage) => Box[]>,
  options: {
    seed: string;
    scenesPerCase: number;
    cases?: readonly EvalCase[];
    size?: number;
    /** Also render each tray without its dice (`RenderSceneOptions.empty`) and give it to the locators. */
    withEmpty?: boolean;
    onScene?: (caseName: string, i: number) => void;
  },
): Record<string, EvalReport> {
  const reports: Record<string, EvalReport> = {};
  for (const name of Object.keys(locators)) reports[name] = emptyReport();
  const add = (t: Tally, hit: boolean, v: number) => {
    t.dice++;
    if (hit) (t.found++, (t.iou += v));
  };
  const fresh = (): Tally => ({ dice: 0, found: 0, spurious: 0, iou: 0 });
  for (const c of options.cases ?? EVAL_CASES) {
    for (let i = 0; i < options.scenesPerCase; i++) {
      const rng = createRng(`locate-eval:${options.seed}:${c.name}:${i}`);
      const scene = renderScene(rng, { width: options.size ?? 640, height: options.size ?? 640, ...c.options, ...(options.withEmpty ? { empty: true } : {}) });
      const touching = touchingDice(scene.dice);
      for (const [name, locate] of Object.entries(locators)) {
        const report = reports[name]!;
        const tally = (report.cases[c.name] ??= fresh());
        const m = matchDice(scene.dice.map((d) => d.box), locate(scene.image, scene.empty));
        scene.dice.forEach((d, k) => {
          const side = Math.max(d.box[2] - d.box[0], d.box[3] - d.box[1]);
          const v = m.ious[k]!, hit = m.hit[k]!;
          add(tally, hit, v);
          add(report.all, hit, v);
          const tags = [side < 32 ? 'size <32 px' : side < 80 ? 'size 32–80 px' : side < 160 ? 'size 80–160 px' : 'size ≥160 px'];
          if (touching[k]) tags.push('touching');
          if (d.tilted) tags.push('tilted');
          for (const tag of tags) add((report.conditions[tag] ??= fresh()), hit, v);
        });
        tally.spurious += m.spurious.length;
        report.all.spurious += m.spurious.length;
      }
      options.onScene?.(c.name, i);
    }
  }
  for (const report of Object.values(reports)) {
    for (const t of [...Object.values(report.cases), ...Object.values(report.conditions), report.all]) t.iou = t.found ? t.iou / t.found : 0;
  }
  return reports;
}

/** The report as a Markdown table: recall, precision and mean IoU per case and per condition. */
export function reportTable(reports: Record<string, EvalReport>): string {
  const names = Object.keys(reports);
  const first = reports[names[0]!]!;
  const cell = (t: Tally | undefined, spurious: boolean) =>
    t ? `${t.found}/${t.dice} (${((100 * t.found) / Math.max(1, t.dice)).toFixed(0)}%)${spurious ? `, ${t.spurious} extra` : ''}, IoU ${t.iou.toFixed(2)}` : '';
  const rows = [
    `| case | ${names.map((n) => `${n}: found, extra, IoU`).join(' | ')} |`,
    `|---|${names.map(() => '---').join('|')}|`,
    ...Object.keys(first.cases).map((c) => `| ${c} | ${names.map((n) => cell(reports[n]!.cases[c], true)).join(' | ')} |`),
    ...Object.keys(first.conditions).sort().map((c) => `| *${c}* | ${names.map((n) => cell(reports[n]!.conditions[c], false)).join(' | ')} |`),
    `| **all** | ${names.map((n) => cell(reports[n]!.all, true)).join(' | ')} |`,
  ];
  return rows.join('\n');
}
