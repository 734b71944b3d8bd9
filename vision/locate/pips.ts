/**
 * Small pieces that group as a face's pips stand for a die whose body the mask lost (a white die
 * on a white tray keeps only its pips): grouped, split into faces, and checked for a body.
 */
import type { Box } from '../types.js';
import { boxArea, intersection } from './boxes.js';
import type { LocatedDie } from './locate.js';

/** Least area (coarse pixels) of a region under a die's size taken for a possible pip. */
export const MIN_PIP_AREA = 6;
/** Two small pieces this close (centre to centre, in their larger side) are pips of one face. */
const PIP_REACH = 4;
/**
 * A die's box from its pips' extent: the pips of 2–6 span about 0.7 of a face square on (1.4×),
 * and 0.9 of it turned 45°, when the die's box is 1.4 faces (1.5×).
 */
const DIE_PER_PIPS = 1.45;

/**
 * Pieces that lie near another one of about their size are a face's pips: a die the colour of
 * the tray (black on a black tray, white on white) whose body the mask lost, each pip of which
 * would be read as a "1". The pieces are those too small to have their marks measured (kept as
 * dice until here), and the `marks`: pieces no die holds that are blank inside, under a quarter
 * of a die, or regions too small to be a die at all (not on a patterned cloth, whose own marks
 * they would mostly be). Each group (transitive, 2–6 pips spanning at most 5.5 pips) becomes one
 * die, a box 1.45 times their extent round their centre. A run where the pips of touching dice
 * run together is split into faces (`facesOf`), and those of 3 pips or more are kept (a side
 * face shows one or two). A die so inferred that overlaps a die seen whole is that die's (its
 * side face's pips), and is dropped. A lone small piece kept as a die stays one (a die of 20 px
 * or so); a lone mark is dropped.
 */
export function pipGroupsToDice(dice: LocatedDie[], width: number, height: number, marks: readonly LocatedDie[] = []): LocatedDie[] {
  const pips = [...dice.filter((d) => d.marked === false), ...marks];
  if (pips.length < 2) return dice;
  const side = (b: Box) => Math.max(b[2] - b[0], b[3] - b[1]);
  const centre = (b: Box) => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] as const;
  const near = (d: LocatedDie, o: LocatedDie) => {
    if (o === d) return false;
    const a = side(d.box), b = side(o.box);
    if (Math.max(a, b) > 2 * Math.min(a, b)) return false;
    const [x, y] = centre(d.box), [u, v] = centre(o.box);
    return Math.hypot(x - u, y - v) <= PIP_REACH * Math.max(a, b);
  };
  const grouped = pips.filter((d) => pips.some((o) => near(d, o)));
  const out = dice.filter((d) => !grouped.includes(d));
  const left = [...grouped];
  const inferred: LocatedDie[] = [];
  while (left.length > 0) {
    const group = [left.pop()!];
    for (let k = 0; k < group.length; k++) {
      for (let j = left.length - 1; j >= 0; j--) if (near(group[k]!, left[j]!)) group.push(...left.splice(j, 1));
    }
    const pip = group.map((d) => side(d.box)).sort((a, b) => a - b)[group.length >> 1]!;
    // Four or more pieces in a line are a groove, a seam or a print's stripe: no face of four or
    // more pips is a line.
    if (group.length >= 4 && lineSpread(group) <= LINE_SPREAD * pip) continue;
    if (group.length <= 6 && extentOf(group) <= FACE_SPAN * pip) {
      inferred.push(dieAroundPips(group, width, height));
      continue;
    }
    // The pips of touching dice run together: split them into faces, each as compact as a face's
    // pips are, and keep those with enough pips to be sure of.
    // (A run longer than ten dice' pips is a print or specks, and splitting it costs k³.)
    if (group.length > MAX_RUN_PIPS) continue;
    for (const face of facesOf(group, FACE_SPAN * pip)) if (face.length >= MIN_SPLIT_PIPS) inferred.push(dieAroundPips(face, width, height));
  }
  // A die inferred from pips that overlaps a die seen whole is that die (its side face's pips, or
  // its neighbour's), not another one.
  const overlaps = (b: Box, o: Box) => intersection(b, o) >= PIPS_OVERLAP * Math.min(boxArea(b), boxArea(o));
  return [...out, ...inferred.filter((d) => !out.some((o) => overlaps(d.box, o.box)))];
}

/** How far a group's centres spread across their main line (the smaller principal spread, as a standard deviation). */
function lineSpread(group: readonly LocatedDie[]): number {
  const xs = group.map((d) => (d.box[0] + d.box[2]) / 2), ys = group.map((d) => (d.box[1] + d.box[3]) / 2);
  const n = group.length, mx = xs.reduce((a, b) => a + b, 0) / n, my = ys.reduce((a, b) => a + b, 0) / n;
  let sxx = 0, syy = 0, sxy = 0;
  for (let i = 0; i < n; i++) (sxx += (xs[i]! - mx) ** 2), (syy += (ys[i]! - my) ** 2), (sxy += (xs[i]! - mx) * (ys[i]! - my));
  sxx /= n; syy /= n; sxy /= n;
  const minor = (sxx + syy) / 2 - Math.sqrt(((sxx - syy) / 2) ** 2 + sxy ** 2);
  return Math.sqrt(Math.max(0, minor));
}

/** Most spread across their line (in pips) of four or more pieces taken for a line, not pips. */
const LINE_SPREAD = 0.25;

/**
 * Most extent of one face's pips, in pips: a lone group's, and each face's when a run of pips is
 * split into faces. Faces were cut at 4.5 until the twenty-seventh session: the faces of dice
 * whose pips come out small (an eighth of the die, as the mask keeps a pip's bright core) were
 * cut up and none kept.
 */
const FACE_SPAN = 5.5;
/** Most pips of a run that is split into faces. */
const MAX_RUN_PIPS = 60;
/** Least pips of a face split from a run. */
const MIN_SPLIT_PIPS = 3;

/** The box round a group's boxes. */
function boundsOf(group: readonly LocatedDie[]): Box {
  return [Math.min(...group.map((d) => d.box[0])), Math.min(...group.map((d) => d.box[1])), Math.max(...group.map((d) => d.box[2])), Math.max(...group.map((d) => d.box[3]))];
}

function extentOf(group: readonly LocatedDie[]): number {
  const [x0, y0, x1, y1] = boundsOf(group);
  return Math.max(x1 - x0, y1 - y0);
}

/** A die's box round its face's pips; a modest score, since its outline was never seen. */
function dieAroundPips(group: readonly LocatedDie[], width: number, height: number): LocatedDie {
  const [x0, y0, x1, y1] = boundsOf(group);
  const half = (DIE_PER_PIPS * Math.max(x1 - x0, y1 - y0)) / 2, cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  return { box: [Math.max(0, cx - half), Math.max(0, cy - half), Math.min(width, cx + half), Math.min(height, cy + half)], score: PIPS_SCORE, marked: true, fromPips: true };
}

/** A die inferred from pips that covers this share of a seen die's box (or of its own) is that die's. */
const PIPS_OVERLAP = 0.3;

/**
 * Least mean evidence (tray-texture units) of the body round a die's pips: white dice on a light
 * tray measured 0.87–2.45 on eval:dice's trays, chance groups of dark specks on a plain table
 * 0.15–0.55 (one 0.88, one 1.71, of 24).
 */
export const MIN_PIPS_BODY = 0.8;

/**
 * Mean evidence over a box's coarse pixels outside the mask (the body round the marks the mask
 * holds), the box's outer sixth left out (the tray round a die turned 45°).
 */
export function bodyEvidence(box: Box, evidence: Float32Array, mask: Uint8Array, cw: number, ch: number, toImage: number): number {
  const [bx0, by0, bx1, by1] = box.map((v) => v / toImage) as [number, number, number, number];
  const mx = (bx1 - bx0) / 6, my = (by1 - by0) / 6;
  const x0 = Math.max(0, Math.round(bx0 + mx)), x1 = Math.min(cw, Math.round(bx1 - mx));
  const y0 = Math.max(0, Math.round(by0 + my)), y1 = Math.min(ch, Math.round(by1 - my));
  let sum = 0, n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (!mask[y * cw + x]) (sum += evidence[y * cw + x]!), n++;
  return n > 0 ? sum / n : 0;
}

/** The score of a die found from its pips. */
const PIPS_SCORE = 0.5;

/**
 * A die scored this or less had its box guessed rather than its outline seen: a face's pips
 * (`PIPS_SCORE`), a drawn-out region or its shaded sides' hull (shape score `ONE_DIE_SCORE`, so
 * 0.21–0.51 with the contrast), or a region barely die-shaped. The reader marks such a die for a
 * check.
 */
export const GUESSED_BOX_SCORE = PIPS_SCORE;

/**
 * A run of pips split into faces: the two nearest clusters (centre to centre) merge while the
 * merged cluster spans at most `span` and holds at most 6 pips (deterministic: ties by order).
 */
function facesOf(pips: readonly LocatedDie[], span: number): LocatedDie[][] {
  const clusters = pips.map((p) => [p]);
  const centre = (c: readonly LocatedDie[]) => [c.reduce((t, d) => t + d.box[0] + d.box[2], 0) / (2 * c.length), c.reduce((t, d) => t + d.box[1] + d.box[3], 0) / (2 * c.length)] as const;
  for (;;) {
    let best: [number, number] | null = null, bestD = Infinity;
    for (let i = 0; i < clusters.length; i++) {
      const [x, y] = centre(clusters[i]!);
      for (let j = i + 1; j < clusters.length; j++) {
        if (clusters[i]!.length + clusters[j]!.length > 6) continue;
        const [u, v] = centre(clusters[j]!);
        const d = Math.hypot(x - u, y - v);
        if (d < bestD && extentOf([...clusters[i]!, ...clusters[j]!]) <= span) (bestD = d), (best = [i, j]);
      }
    }
    if (!best) return clusters;
    clusters[best[0]]!.push(...clusters[best[1]]!);
    clusters.splice(best[1], 1);
  }
}
