/**
 * A die's soft shadow taken off its box. Under a broad light (a room's lamp, a window) a die
 * darkens the table round its foot on the side away from the light, most at the foot and fading
 * over up to half a die's side. The mask takes that in (it differs from the tray), so the box
 * grows on that side, and the die sits off-centre and smaller in its crop: on the real Catan
 * frames the locator's boxes were 8 % too long and two of their dice were misread for it.
 *
 * A side of the box moves in over the lines (rows or columns, inside the box's corners) that hold
 * no die: no pixel tinted away from the tray's colour or lighter than it, only the tray and the
 * tray darkened, up to the die's edge (such pixels, or a step to a darker line: a black die's
 * body is the tray darkened too). It moves only if those lines look like a shadow and not like
 * a die's own dark side or body, which is also the tray's colour, darker, when the die is white,
 * grey or black:
 * - the box's edge is faint (a shadow is cut where it fades under the grow level; a die's edge
 *   is a step past it);
 * - the shadow goes on past the box's edge and keeps fading there, gradually (a die ends at its
 *   edge, and the tray outside it is the tray);
 * - inwards it darkens slowly, and is darker next to the die than at the box's edge.
 * At most two sides, next to each other, move (a shadow leans away from one light), and the box
 * left must still be die-shaped. Measured in docs/notes/vision-locate.md ("Soft shadows").
 */
import type { Box } from '../types.js';

/** The tray-relative darkness and tint of a stretch of one row (`FineEvidence.shade`). */
export interface ShadeProbe {
  shade(y: number, x0: number, x1: number, dark: Float32Array, tint: Float32Array): void;
  /**
   * The probe compares with the empty tray itself (FineReferenceEvidence), not a model of it:
   * a pixel that is the tray darkened, untinted, is then known to be the tray in a shadow.
   */
  readonly exact?: boolean;
}

/** Levels of the shadow test, in units of the tray's texture (as the locator's evidence). */
export interface ShadowTrimOptions {
  /** A pixel tinted this much, or this much lighter than the tray, is a die's (default 3). */
  dieLevel?: number;
  /** A line with this share of a die's pixels is the die's edge (default 0.15). */
  dieLine?: number;
  /** A line darker than the one outside it by more than this share of that one's darkness (taken as at least 1) is a dark die's edge (default 0.3). */
  jump?: number;
  /** The box's outer line is at most this dark, a little over the grow level of 3.5 that drew it (default 4). */
  edgeDark?: number;
  /** Each of the two lines outside the box is at least this share as dark as the line inside it (default 0.7). */
  fade?: number;
  /** Inwards, the shadow darkens by at most this share of its outer line's darkness a line (default 0.2). */
  slope?: number;
  /** The outer third of the shadow is at most this share as dark as its inner third (default 0.85). */
  ramp?: number;
}

const DEFAULTS: Required<ShadowTrimOptions> = { dieLevel: 3, dieLine: 0.15, jump: 0.3, edgeDark: 4, fade: 0.7, slope: 0.2, ramp: 0.85 };
/** The shadow may take at most this share of the box's side. */
const MAX_TAIL = 0.45;
/** A shadow narrower than this share of the box (and than 2 px) is left in. */
const MIN_TAIL = 0.06;
/** The shadow's lines are darker than the tray by this much on average. */
const MIN_DARK = 2;
/** Lines outside the box looked at: the shadow must still be fading this far out. */
const OUTSIDE = 4;
/** Columns (rows) this share in from each corner are left out of a line. */
const CORNER = 0.2;
/** A box this close to square (long side over short) is die-shaped whatever it was before. */
const SQUARE = 1.2;
/** A box smaller than this (px) is left alone. */
const MIN_BOX = 10;

let darkRow = new Float32Array(0), tintRow = new Float32Array(0);

/**
 * The lines of one side of a box, measured on demand (most sides end at a die in their first
 * line or two): `die(k)`, the share of line k's pixels that are a die's, and `dark(k)`, its mean
 * darkness (positive: darker than the tray); k counts inwards from the box's edge (0), negative
 * outside it. NaN off the frame.
 */
class SideLines {
  private readonly cache = new Map<number, [number, number, number]>();
  private readonly vertical: boolean;
  private readonly outer: number;
  private readonly inward: number;
  private readonly a: number;
  private readonly z: number;
  private readonly limit: number;

  constructor(private readonly probe: ShadeProbe, b: Box, side: 0 | 1 | 2 | 3, width: number, height: number, private readonly level: number) {
    this.vertical = side === 0 || side === 2;
    this.outer = side === 0 ? b[0] : side === 1 ? b[1] : side === 2 ? b[2] - 1 : b[3] - 1;
    this.inward = side === 0 || side === 1 ? 1 : -1;
    const [from, to] = this.vertical ? [b[1], b[3]] : [b[0], b[2]];
    const inset = Math.floor(CORNER * (to - from));
    this.a = from + inset;
    this.z = to - inset;
    this.limit = this.vertical ? width : height;
  }

  die(k: number): number {
    return this.line(k)[0];
  }

  dark(k: number): number {
    return this.line(k)[1];
  }

  /** The share of line k's pixels tinted away from the tray's colour. */
  tinted(k: number): number {
    return this.line(k)[2];
  }

  private line(k: number): [number, number, number] {
    const cached = this.cache.get(k);
    if (cached) return cached;
    const at = this.outer + this.inward * k;
    const n = this.z - this.a;
    let result: [number, number, number] = [NaN, NaN, NaN];
    if (at >= 0 && at < this.limit && n > 0) {
      let dieN = 0, dark = 0, tintN = 0;
      const take = (d: number, t: number) => {
        dark -= d;
        if (t >= this.level || d >= this.level) dieN++;
        if (t >= this.level) tintN++;
      };
      if (darkRow.length < n) (darkRow = new Float32Array(2 * n)), (tintRow = new Float32Array(2 * n));
      if (this.vertical) {
        for (let y = this.a; y < this.z; y++) {
          this.probe.shade(y, at, at + 1, darkRow, tintRow);
          take(darkRow[0]!, tintRow[0]!);
        }
      } else {
        this.probe.shade(at, this.a, this.z, darkRow, tintRow);
        for (let i = 0; i < n; i++) take(darkRow[i]!, tintRow[i]!);
      }
      result = [dieN / n, dark / n, tintN / n];
    }
    this.cache.set(k, result);
    return result;
  }
}

/**
 * Against the empty tray, a side's lines that hold only the tray darkened, up to a die this share
 * of whose line two in from the shadow is tinted away from the tray, are a shadow whatever its
 * profile: a lamp's hard shadow does not fade. A coloured die's own sides are tinted, so they end
 * the shadow; a white, grey or black die on a tray of its colour is not tinted, and is left to
 * the soft-shadow tests. The seven real Catan frames against empty trays made from the others:
 * 13 → 14 of 14 dice found (a lamp's shadow had kept a box at IoU 0.50), mean IoU 0.74 → 0.82;
 * at half the light 14 either way, 0.85 → 0.88. The rendered scenes of four seeds found the
 * same dice (mean IoU 0.8724 → 0.8726 and 0.8686 → 0.8694: their shadows are soft).
 */
const HARD_TINTED = 0.5;

/** How many lines side `side` (0 left, 1 top, 2 right, 3 bottom) of the whole-pixel box `b` may move in: its shadow's width, or 0. */
export function shadowTail(probe: ShadeProbe, b: Box, side: 0 | 1 | 2 | 3, width: number, height: number, options: ShadowTrimOptions = {}): number {
  const o = { ...DEFAULTS, ...options };
  const across = side === 0 || side === 2 ? b[2] - b[0] : b[3] - b[1];
  const maxTail = Math.floor(MAX_TAIL * across);
  const lines = new SideLines(probe, b, side, width, height, o.dieLevel);
  // Inwards from the box's edge, over lines with no die in them, to the die's edge.
  // A dark die's body is the tray darkened too, but its edge is a step, where a shadow darkens slowly.
  const step = (k: number) => k > 0 && lines.dark(k) - lines.dark(k - 1) > o.jump * Math.max(1, lines.dark(k - 1));
  let tail = 0;
  while (tail <= maxTail && !(lines.die(tail) >= o.dieLine) && !step(tail)) tail++;
  if (tail > maxTail || tail < Math.max(2, MIN_TAIL * across)) return 0;
  let sum = 0;
  for (let k = 0; k < tail; k++) sum += lines.dark(k);
  if (sum / tail < MIN_DARK) return 0;
  // Against the empty tray, a coloured die's shadow need not fade (HARD_TINTED).
  if (probe.exact && lines.tinted(tail + 2) >= HARD_TINTED) return tail;
  const edge = lines.dark(0);
  if (!(edge <= o.edgeDark)) return 0;
  // Past the edge: still dark, fading gradually, and not darker again further out.
  const out1 = lines.dark(-1), out2 = lines.dark(-2), outFar = lines.dark(-OUTSIDE);
  if (!(out1 >= o.fade * edge) || !(out2 >= o.fade * out1)) return 0;
  if (outFar > out1) return 0;
  // Inwards: slowly darker, and darker near the die than at the edge.
  const steps = Math.min(3, tail - 1);
  if (steps > 0 && (lines.dark(steps) - edge) / steps > o.slope * edge) return 0;
  const third = Math.max(1, Math.floor(tail / 3));
  let outerSum = 0, innerSum = 0;
  for (let k = 0; k < third; k++) (outerSum += lines.dark(k)), (innerSum += lines.dark(tail - 1 - k));
  if (outerSum > o.ramp * innerSum) return 0;
  return tail;
}

/** The box with a soft shadow taken off up to two neighbouring sides, or the box as it was. */
export function trimShadow(probe: ShadeProbe, box: Box, width: number, height: number, options: ShadowTrimOptions = {}): Box {
  const b: Box = [Math.round(box[0]), Math.round(box[1]), Math.round(box[2]), Math.round(box[3])];
  if (b[2] - b[0] < MIN_BOX || b[3] - b[1] < MIN_BOX) return box;
  const t = ([0, 1, 2, 3] as const).map((s) => shadowTail(probe, b, s, width, height, options));
  const sides = t.filter((v) => v > 0).length;
  if (sides === 0 || sides > 2 || (t[0]! > 0 && t[2]! > 0) || (t[1]! > 0 && t[3]! > 0)) return box;
  const out: Box = [b[0] + t[0]!, b[1] + t[1]!, b[2] - t[2]!, b[3] - t[3]!];
  const aspect = (x: Box) => Math.max(x[2] - x[0], x[3] - x[1]) / Math.max(1, Math.min(x[2] - x[0], x[3] - x[1]));
  return aspect(out) <= Math.max(SQUARE, aspect(b)) ? out : box;
}
