/**
 * Face art: one vector drawing per face class, the single source of truth for how a face looks.
 * The training renderer rasterises it (with style variation, since real dice differ), the
 * dashboard draws it as SVG, and sticker sheets print it with pdfkit. No fonts anywhere: numerals
 * and letters are drawn as filled outlines of stroked centrelines.
 *
 * Coordinates: the face square is 0..100 in x and y (y down), edge to edge of the die face. Paths
 * are painted in order with the nonzero rule; `fill` is a role: `ink` (pips, numerals, icons) or
 * `body` (the die's own colour, used to cut details back out of ink, like the highlight in an eye).
 */
import type { DiceSetId } from '../../shared/dice.js';
import type { Rng } from '../../shared/rng.js';
import { classOf, type FaceClass } from './classes.js';
import { Centreline, PathBuilder, strokeOutline, type Pt } from './path.js';

export type InkRole = 'ink' | 'body';

export interface FaceArt {
  /** Always "0 0 100 100": the face edge to edge. */
  viewBox: string;
  paths: { d: string; fill: InkRole }[];
}

export interface ArtStyle {
  /** Pip shape: round dots, rounded squares, or hollow rings. */
  pipShape: 'round' | 'square' | 'ring';
  /** Pip radius in face units (a typical d6 is 8–10). */
  pipRadius: number;
  /** Distance of the outer pips from the centre along each axis (typical 24–27). */
  pipSpread: number;
  /** The single pip of a 1 is often larger: its radius is pipRadius × this. */
  onePipScale: number;
  /** Stroke width of numerals, letters and line icons in face units. */
  stroke: number;
  /** Numeral design: a plain geometric sans, an alternative cut (flat-top 3, open 4, bar 7), or with serifs/ball ends. */
  numerals: 'sans' | 'alt' | 'serif';
  /** Height of numerals in face units. */
  glyphHeight: number;
  /** Width / height of numerals. */
  glyphAspect: number;
  /** Underline a 6 (common on numeral dice to tell it from a 9). */
  underlineSix: boolean;
  /** Pentomino silhouettes: one solid shape, cells with gaps, or outlined cells. */
  cells: 'solid' | 'gapped' | 'outlined';
  /** Overall scale of icons and shapes (1 = the default size). */
  iconScale: number;
}

export const DEFAULT_ART_STYLE: Readonly<ArtStyle> = {
  pipShape: 'round',
  pipRadius: 9,
  pipSpread: 25,
  onePipScale: 1.15,
  stroke: 11,
  numerals: 'sans',
  glyphHeight: 58,
  glyphAspect: 0.62,
  underlineSix: false,
  cells: 'solid',
  iconScale: 1,
};

/** A random but plausible style, for training variety. */
export function randomArtStyle(rng: Rng): ArtStyle {
  const stroke = rng.range(7.5, 14);
  return {
    pipShape: rng.next() < 0.85 ? 'round' : rng.next() < 0.8 ? 'square' : 'ring',
    pipRadius: rng.range(6.5, 11.5),
    pipSpread: rng.range(21, 28),
    onePipScale: rng.next() < 0.45 ? 1 : rng.range(1.1, 1.9),
    stroke,
    numerals: rng.pick(['sans', 'sans', 'alt', 'serif'] as const),
    glyphHeight: rng.range(46, 66),
    glyphAspect: rng.range(0.5, 0.75),
    underlineSix: rng.next() < 0.35,
    cells: rng.pick(['solid', 'solid', 'gapped', 'outlined'] as const),
    iconScale: rng.range(0.8, 1.08),
  };
}

// ---------------------------------------------------------------------------------------------
// Pips

const PIP_LAYOUTS: Readonly<Record<number, readonly (readonly [number, number])[]>> = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [-1, 0], [-1, 1], [1, -1], [1, 0], [1, 1]],
};

function pips(count: number, s: ArtStyle): FaceArt['paths'] {
  const ink = new PathBuilder();
  const holes = new PathBuilder();
  const r = count === 1 ? s.pipRadius * s.onePipScale : s.pipRadius;
  for (const [u, v] of PIP_LAYOUTS[count]!) {
    const x = 50 + u * s.pipSpread;
    const y = 50 + v * s.pipSpread;
    if (s.pipShape === 'square') ink.roundedRect(x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8, r * 0.35);
    else ink.circle(x, y, r);
    if (s.pipShape === 'ring') holes.circle(x, y, r * 0.55);
  }
  const out: FaceArt['paths'] = [{ d: ink.toString(), fill: 'ink' }];
  if (!holes.isEmpty()) out.push({ d: holes.toString(), fill: 'body' });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Numerals and letters: centrelines in a unit glyph box (u, v in 0..1, v down), stroked.

type GlyphDraw = (c: Centreline, style: ArtStyle) => void;

/** Where a 6's underline sits (v, below the glyph box); `glyph` maps it with room for the stroke. */
const UNDERLINE_AT = 1.35;

const GLYPHS: Readonly<Record<string, GlyphDraw>> = {
  '2': (c) => {
    c.M(0.04, 0.24).C(0.06, -0.03, 0.96, -0.06, 0.95, 0.27).C(0.94, 0.5, 0.35, 0.68, 0.02, 1).L(1, 1);
  },
  '3': (c, s) => {
    if (s.numerals === 'alt') {
      c.M(0.04, 0).L(0.94, 0).L(0.42, 0.4);
      c.M(0.42, 0.4).C(0.8, 0.36, 1.0, 0.55, 0.98, 0.72).C(0.96, 1.03, 0.3, 1.06, 0.02, 0.86);
      return;
    }
    c.M(0.05, 0.14).C(0.3, -0.06, 0.96, -0.03, 0.92, 0.24).C(0.89, 0.43, 0.62, 0.47, 0.38, 0.47);
    c.M(0.38, 0.47).C(0.76, 0.46, 1.0, 0.56, 0.98, 0.75).C(0.95, 1.04, 0.3, 1.05, 0.02, 0.87);
  },
  '4': (c, s) => {
    if (s.numerals === 'alt') {
      c.M(0.4, 0).L(0.04, 0.68).L(1, 0.68);
      c.M(0.74, 0.3).L(0.74, 1);
      return;
    }
    c.M(0.72, 1).L(0.72, 0).L(0, 0.68).L(1, 0.68);
    if (s.numerals === 'serif') c.M(0.5, 1).L(0.94, 1);
  },
  '5': (c) => {
    c.M(0.94, 0).L(0.14, 0).L(0.07, 0.45);
    c.M(0.07, 0.45).C(0.3, 0.31, 0.98, 0.32, 0.98, 0.7).C(0.98, 1.05, 0.3, 1.06, 0.02, 0.86);
  },
  '6': (c, s) => {
    c.M(0.88, 0.06).C(0.55, -0.08, 0.03, 0.04, 0.03, 0.66);
    c.ellipse(0.5, 0.7, 0.47, 0.3);
    if (s.underlineSix) c.M(0.1, UNDERLINE_AT).L(0.9, UNDERLINE_AT);
  },
  '7': (c, s) => {
    c.M(0, 0).L(1, 0).L(0.32, 1);
    if (s.numerals === 'alt') c.M(0.38, 0.52).L(0.88, 0.52);
    if (s.numerals === 'serif') c.M(0, 0).L(0, 0.14);
  },
  X: (c, s) => {
    c.M(0, 0).L(1, 1);
    c.M(1, 0).L(0, 1);
    if (s.numerals === 'serif') {
      for (const [x0, x1, y] of [[-0.12, 0.22, 0], [0.78, 1.12, 0], [-0.12, 0.22, 1], [0.78, 1.12, 1]] as const) c.M(x0, y).L(x1, y);
    }
  },
  A: (c, s) => {
    c.M(0, 1).L(0.5, 0).L(1, 1);
    c.M(0.22, 0.64).L(0.78, 0.64);
    if (s.numerals === 'serif') {
      c.M(-0.12, 1).L(0.16, 1);
      c.M(0.84, 1).L(1.12, 1);
    }
  },
};

/** Glyphs whose free ends get ball terminals in the serif style. */
const BALL_ENDS: Readonly<Record<string, readonly Pt[]>> = {
  '2': [[0.04, 0.24]],
  '3': [[0.05, 0.14], [0.02, 0.87]],
  '5': [[0.02, 0.86]],
  '6': [[0.88, 0.06]],
};

function glyph(ch: string, s: ArtStyle, widthScale = 1): FaceArt['paths'] {
  const h = s.glyphHeight;
  const w = h * s.glyphAspect * widthScale;
  const inner = s.stroke; // keep the stroke inside the nominal box
  const underline = ch === '6' && s.underlineSix;
  // An underlined 6 shrinks so glyph and underline together keep the nominal height.
  const gh = (h - inner) / (underline ? UNDERLINE_AT : 1);
  const gw = Math.max(4, w - inner);
  const x0 = 50 - gw / 2;
  const y0 = 50 - (gh * (underline ? UNDERLINE_AT : 1)) / 2;
  const map = (p: Pt): Pt => [x0 + p[0] * gw, y0 + p[1] * gh];
  const c = new Centreline(map);
  GLYPHS[ch]!(c, s);
  const path = new PathBuilder();
  for (const line of c.lines) strokeOutline(path, line, s.stroke);
  if (s.numerals === 'serif') {
    for (const p of BALL_ENDS[ch] ?? []) {
      const [x, y] = map(p);
      path.circle(x, y, s.stroke * 0.8);
    }
  }
  return [{ d: path.toString(), fill: 'ink' }];
}

// ---------------------------------------------------------------------------------------------
// The worm (the worm-set's 6): a wavy body with a head and an eye.

function worm(s: ArtStyle): FaceArt['paths'] {
  const k = s.iconScale;
  const map = (p: Pt): Pt => [50 + (p[0] - 50) * k, 50 + (p[1] - 50) * k];
  const body = new Centreline(map);
  body.M(16, 66).C(26, 44, 38, 44, 46, 58).C(54, 72, 66, 70, 72, 48);
  const ink = new PathBuilder();
  for (const line of body.lines) strokeOutline(ink, line, (t) => k * (9 + 8 * t));
  const [hx, hy] = map([74, 36]);
  ink.circle(hx, hy, 13 * k);
  const cut = new PathBuilder();
  cut.circle(hx + 3.5 * k, hy - 3 * k, 3.6 * k);
  const mouth = new Centreline();
  mouth.M(hx - 7 * k, hy + 5 * k).C(hx - 3 * k, hy + 9 * k, hx + 3 * k, hy + 9 * k, hx + 7 * k, hy + 5 * k);
  for (const line of mouth.lines) strokeOutline(cut, line, 2.6 * k);
  return [
    { d: ink.toString(), fill: 'ink' },
    { d: cut.toString(), fill: 'body' },
  ];
}

// ---------------------------------------------------------------------------------------------
// Pentominoes (Worm & Cozy shape die): I L U V W Z as cells (column, row).

const PENTOMINOES: Readonly<Record<string, readonly (readonly [number, number])[]>> = {
  I: [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4]],
  L: [[0, 0], [0, 1], [0, 2], [0, 3], [1, 3]],
  U: [[0, 0], [2, 0], [0, 1], [1, 1], [2, 1]],
  V: [[0, 0], [0, 1], [0, 2], [1, 2], [2, 2]],
  W: [[0, 0], [0, 1], [1, 1], [1, 2], [2, 2]],
  Z: [[0, 0], [1, 0], [1, 1], [1, 2], [2, 2]],
};

/** The cells of a pentomino letter, for the rules' own drawings. */
export function pentominoCells(letter: string): readonly (readonly [number, number])[] {
  const cells = PENTOMINOES[letter];
  if (!cells) throw new Error(`pentominoCells: no pentomino "${letter}" (known: ${Object.keys(PENTOMINOES).join(', ')})`);
  return cells;
}

function pentomino(letter: string, s: ArtStyle): FaceArt['paths'] {
  const cells = pentominoCells(letter);
  const cols = Math.max(...cells.map((c) => c[0])) + 1;
  const rows = Math.max(...cells.map((c) => c[1])) + 1;
  const cell = Math.min(72 / Math.max(cols, rows), 21) * s.iconScale;
  const x0 = 50 - (cols * cell) / 2;
  const y0 = 50 - (rows * cell) / 2;
  const ink = new PathBuilder();
  const cut = new PathBuilder();
  const gap = s.cells === 'gapped' ? cell * 0.1 : 0;
  for (const [c, r] of cells) {
    const x = x0 + c * cell, y = y0 + r * cell;
    // Solid cells overlap a hair so the union has no seams.
    const o = s.cells === 'gapped' ? -gap / 2 : 0.3;
    ink.roundedRect(x - o, y - o, cell + 2 * o, cell + 2 * o, s.cells === 'gapped' ? cell * 0.12 : 0);
    if (s.cells === 'outlined') {
      const t = Math.min(cell * 0.22, s.stroke * 0.5);
      cut.roundedRect(x + t, y + t, cell - 2 * t, cell - 2 * t, cell * 0.05);
    }
  }
  const out: FaceArt['paths'] = [{ d: ink.toString(), fill: 'ink' }];
  if (!cut.isEmpty()) out.push({ d: cut.toString(), fill: 'body' });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Organ icons (Worm & Cozy organ die): bold, simple, told apart by outline.

function scaled(s: ArtStyle): (p: Pt) => Pt {
  const k = s.iconScale;
  return (p) => [50 + (p[0] - 50) * k, 50 + (p[1] - 50) * k];
}

/** A path from M/L/C centreline commands in face units, filled (closed) rather than stroked. */
function filled(build: (c: Centreline) => void, map: (p: Pt) => Pt): string {
  const c = new Centreline(map, 18);
  build(c);
  const p = new PathBuilder();
  for (const line of c.lines) p.polygon(line.slice(0, line.length > 2 ? -1 : undefined));
  return p.toString();
}

function organ(name: string, s: ArtStyle): FaceArt['paths'] {
  const m = scaled(s);
  const k = s.iconScale;
  const w = Math.max(5, s.stroke * 0.8) * k;
  switch (name) {
    case 'eye': {
      const almond = (c: Centreline) => c.M(12, 50).C(32, 18, 68, 18, 88, 50).C(68, 82, 32, 82, 12, 50);
      const inner = (c: Centreline) => c.M(22, 50).C(38, 29, 62, 29, 78, 50).C(62, 71, 38, 71, 22, 50);
      const iris = new PathBuilder().circle(...m([50, 50]), 13 * k);
      const glint = new PathBuilder().circle(...m([55, 45]), 4 * k);
      return [
        { d: filled(almond, m), fill: 'ink' },
        { d: filled(inner, m), fill: 'body' },
        { d: iris.toString(), fill: 'ink' },
        { d: glint.toString(), fill: 'body' },
      ];
    }
    case 'mouth': {
      const lips = (c: Centreline) =>
        c.M(10, 48).C(24, 30, 40, 32, 50, 40).C(60, 32, 76, 30, 90, 48).C(74, 80, 26, 80, 10, 48);
      const seam = new Centreline(m);
      seam.M(16, 50).C(34, 58, 66, 58, 84, 50);
      const cut = new PathBuilder();
      for (const line of seam.lines) strokeOutline(cut, line, Math.max(3, w * 0.45));
      return [
        { d: filled(lips, m), fill: 'ink' },
        { d: cut.toString(), fill: 'body' },
      ];
    }
    case 'tail': {
      const c = new Centreline(m);
      c.M(22, 22).C(62, 22, 28, 66, 60, 74).C(72, 77, 82, 70, 86, 60);
      const ink = new PathBuilder();
      for (const line of c.lines) strokeOutline(ink, line, (t) => k * Math.max(1.2, 20 * (1 - t) ** 0.8));
      ink.circle(...m([22, 22]), 10 * k);
      return [{ d: ink.toString(), fill: 'ink' }];
    }
    case 'collar': {
      const ring = new Centreline(m);
      ring.ellipse(50, 42, 31, 20);
      const ink = new PathBuilder();
      for (const line of ring.lines) strokeOutline(ink, line, w * 1.25);
      ink.circle(...m([50, 73]), 11 * k);
      const link = new Centreline(m);
      link.M(50, 60).L(50, 66);
      for (const line of link.lines) strokeOutline(ink, line, w * 0.8);
      const cut = new PathBuilder().circle(...m([50, 73]), 4 * k);
      return [
        { d: ink.toString(), fill: 'ink' },
        { d: cut.toString(), fill: 'body' },
      ];
    }
    case 'brain': {
      const ink = new PathBuilder();
      for (const [x, y, r] of [[34, 40, 17], [52, 32, 17], [68, 44, 17], [64, 62, 15], [44, 64, 16], [30, 56, 15], [50, 48, 18]] as const) {
        ink.circle(...m([x, y]), r * k);
      }
      const sulci = new Centreline(m);
      sulci.M(50, 22).C(46, 36, 55, 50, 50, 76);
      sulci.M(26, 44).C(32, 40, 38, 44, 38, 52);
      sulci.M(74, 38).C(66, 40, 62, 46, 64, 54);
      sulci.M(36, 66).C(40, 60, 44, 60, 44, 56);
      const cut = new PathBuilder();
      for (const line of sulci.lines) strokeOutline(cut, line, Math.max(2.8, w * 0.42));
      return [
        { d: ink.toString(), fill: 'ink' },
        { d: cut.toString(), fill: 'body' },
      ];
    }
    case 'heart': {
      const heart = (c: Centreline) =>
        c.M(50, 84).C(22, 64, 10, 48, 14, 33).C(18, 18, 42, 14, 50, 32).C(58, 14, 82, 18, 86, 33).C(90, 48, 78, 64, 50, 84);
      return [{ d: filled(heart, m), fill: 'ink' }];
    }
    default:
      throw new Error(`organ: no icon for "${name}"`);
  }
}

// ---------------------------------------------------------------------------------------------

const VIEWBOX = '0 0 100 100';

/** The vector art of a face class in a style (defaults: a clean, typical die). */
export function faceArt(cls: FaceClass, style: Partial<ArtStyle> = {}): FaceArt {
  const s: ArtStyle = { ...DEFAULT_ART_STYLE, ...style };
  let paths: FaceArt['paths'];
  if (cls.startsWith('pips-')) paths = pips(Number(cls.slice(5)), s);
  else if (cls.startsWith('num-')) paths = glyph(cls.slice(4), s);
  else if (cls === 'X') paths = glyph('X', s, 1.25);
  else if (cls === 'ace') paths = glyph('A', s, 1.3);
  else if (cls === 'blank') paths = [];
  else if (cls === 'worm') paths = worm(s);
  else if (cls.startsWith('shape-')) paths = pentomino(cls.slice(6), s);
  else if (cls.startsWith('organ-')) paths = organ(cls.slice(6), s);
  else throw new Error(`faceArt: unknown face class "${String(cls)}"`);
  return { viewBox: VIEWBOX, paths: paths.filter((p) => p.d.length > 0) };
}

/** The art of a set's face label ("4" of d6, "worm", "null", "L", "eye"). Throws on unknown faces. */
export function artForFace(set: DiceSetId, face: string, style: Partial<ArtStyle> = {}): FaceArt {
  return faceArt(classOf(set, face), style);
}
