/**
 * How a die and a table look: body colours (plain, marbled, translucent), ink colours (including
 * low-contrast pairs such as red on black and the Catan red/yellow pairs), pip finish, gloss, and
 * the table surfaces (wood, felt, grey card, light tray, patterns, dark cloth). Colours are linear
 * light (0..1) for shading; names are DIE_COLORS keys.
 */
import { DIE_COLORS } from '../../shared/dice.js';
import type { Rng } from '../../shared/rng.js';
import { hsvToRgb, rgbToHsv, rgbToLab, SRGB_TO_LINEAR } from '../image/color.js';
import type { Vec3 } from './geometry.js';
import { fbm2, noise2, seedFrom } from './noise.js';

export interface DieLook {
  /** DIE_COLORS name nearest to the body colour. */
  colorName: string;
  body: Vec3;
  /** Second body colour of a marbled die (swirled through the first), or null. */
  marble: { color: Vec3; freq: number; turbulence: number; sharpness: number; seed: number } | null;
  /** 0 opaque … 1 strongly translucent (light passes through: softer shading, glow). */
  translucency: number;
  ink: Vec3;
  /** Pips/art recessed into the body (inner shadow) rather than printed flat. */
  engraved: boolean;
  /** Specular strength and exponent (gloss). */
  gloss: number;
  shininess: number;
  /** Face art style pool index (one style per die: all its faces match). */
  style: number;
  /** Edge rounding radius as a fraction of the half side. */
  rounding: number;
}

const lin = (rgb: readonly [number, number, number]): Vec3 => [SRGB_TO_LINEAR[rgb[0]]!, SRGB_TO_LINEAR[rgb[1]]!, SRGB_TO_LINEAR[rgb[2]]!];

/** Nearest DIE_COLORS name (CIE Lab distance) to an sRGB colour, among `names`. */
export function nearestColorName(rgb: readonly [number, number, number], names: readonly string[] = Object.keys(DIE_COLORS)): string {
  const lab = rgbToLab(rgb[0], rgb[1], rgb[2]);
  let best = names[0]!, bestD = Infinity;
  for (const name of names) {
    const c = DIE_COLORS[name];
    if (!c) continue;
    const l = rgbToLab(c[0], c[1], c[2]);
    const d = (lab[0] - l[0]) ** 2 + (lab[1] - l[1]) ** 2 + (lab[2] - l[2]) ** 2;
    if (d < bestD) {
      bestD = d;
      best = name;
    }
  }
  return best;
}

const BODY_WEIGHTS: readonly [string, number][] = [
  ['white', 22], ['ivory', 8], ['black', 10], ['red', 11], ['yellow', 7], ['green', 7], ['blue', 9],
  ['orange', 5], ['purple', 5], ['pink', 4], ['brown', 4], ['grey', 4],
];

function weighted<T>(rng: Rng, items: readonly [T, number][]): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = rng.next() * total;
  for (const [item, w] of items) {
    x -= w;
    if (x < 0) return item;
  }
  return items[items.length - 1]![0];
}

/** A body colour near a named colour, jittered but still nearest to that name. */
function jitterNamed(rng: Rng, name: string, amount: number): [number, number, number] {
  const base = DIE_COLORS[name]!;
  for (let k = 0; k < 6; k++) {
    const a = amount / (1 + k);
    const [h, s, v] = rgbToHsv(base[0], base[1], base[2]);
    const rgb = hsvToRgb(h + rng.range(-14, 14) * a, Math.min(1, Math.max(0, s + rng.range(-0.15, 0.15) * a)), Math.min(1, Math.max(0.04, v * (1 + rng.range(-0.2, 0.15) * a))));
    if (nearestColorName(rgb) === name) return rgb;
  }
  return [base[0], base[1], base[2]];
}

const INK_DARK: readonly [number, number, number][] = [[20, 20, 22], [15, 15, 15], [30, 40, 110], [170, 25, 30], [20, 90, 40], [40, 40, 45]];
const INK_LIGHT: readonly [number, number, number][] = [[245, 245, 240], [250, 250, 250], [235, 200, 60], [230, 225, 200]];

export interface LookOptions {
  /** Restrict body colours to these DIE_COLORS names. */
  colors?: readonly string[];
  /** 0..1: how often hard looks (marbled, translucent, low-contrast ink, glare-prone gloss) appear. */
  hardness: number;
}

export function randomDieLook(rng: Rng, options: LookOptions): DieLook {
  const h = options.hardness;
  for (const c of options.colors ?? []) {
    if (!DIE_COLORS[c]) throw new Error(`die colour "${c}" is not a DIE_COLORS name (${Object.keys(DIE_COLORS).join(', ')})`);
  }
  const pool = options.colors && options.colors.length > 0 ? BODY_WEIGHTS.filter(([n]) => options.colors!.includes(n)) : BODY_WEIGHTS;
  const name = weighted(rng, pool);
  const bodyRgb = jitterNamed(rng, name, 1);
  const [, bs, bv] = rgbToHsv(...bodyRgb);
  const light = bv > 0.6 && (bs < 0.35 || name === 'yellow' || name === 'orange' || name === 'pink');
  let inkRgb: [number, number, number];
  const roll = rng.next();
  if (name === 'red' && roll < 0.35) inkRgb = [240, 205, 50]; // Catan red die: yellow pips
  else if (name === 'yellow' && roll < 0.4) inkRgb = [200, 35, 35]; // Catan yellow die: red pips
  else if (roll < 0.12 * h) {
    // Deliberately low contrast: dark red on black, grey on white, etc.
    inkRgb = light ? [Math.round(bodyRgb[0] * 0.55), Math.round(bodyRgb[1] * 0.5), Math.round(bodyRgb[2] * 0.5)] : [150, 30, 35];
  } else inkRgb = [...(light ? rng.pick(INK_DARK) : rng.pick(INK_LIGHT))] as [number, number, number];
  // Small variation of the ink itself.
  inkRgb = inkRgb.map((c) => Math.max(0, Math.min(255, Math.round(c * rng.range(0.88, 1.08))))) as [number, number, number];

  let marble: DieLook['marble'] = null;
  if (rng.next() < 0.3 * h) {
    const second = rng.next() < 0.5 ? (light ? [90, 90, 95] : [235, 235, 230]) : jitterNamed(rng, name, 1).map((c) => Math.round(c * rng.range(0.35, 0.7)));
    marble = {
      color: lin(second as [number, number, number]),
      freq: rng.range(1.5, 5),
      turbulence: rng.range(1, 4),
      sharpness: rng.range(2, 12),
      seed: seedFrom(rng.next),
    };
  }
  const translucency = rng.next() < 0.2 * h ? rng.range(0.3, 1) : 0;
  return {
    colorName: name,
    body: lin(bodyRgb),
    marble,
    translucency,
    ink: lin(inkRgb),
    engraved: rng.next() < 0.55,
    gloss: rng.next() < 0.3 ? rng.range(0.02, 0.12) : rng.range(0.12, 0.35 + 0.5 * h),
    shininess: rng.range(12, 140),
    style: rng.next() < 0.3 ? 0 : rng.int(1, 39),
    // Mostly rounded; some crisp-edged (casino-style) dice.
    rounding: rng.next() < 0.15 ? rng.range(0.03, 0.1) : rng.range(0.1, 0.42),
  };
}

// ---------------------------------------------------------------------------------------------
// Tables

export type TableKind = 'wood' | 'felt' | 'card' | 'tray' | 'pattern' | 'dark';
export const TABLE_KINDS: readonly TableKind[] = ['wood', 'felt', 'card', 'tray', 'pattern', 'dark'];

export interface TableLook {
  kind: TableKind;
  /** Albedo (linear) of the table at world point (x, y), written into out. */
  sample(x: number, y: number, out: Float64Array): void;
  gloss: number;
}

export function randomTable(rng: Rng, kind?: TableKind): TableLook {
  const k = kind ?? weighted<TableKind>(rng, [['wood', 30], ['felt', 20], ['card', 14], ['tray', 13], ['pattern', 13], ['dark', 10]]);
  const seed = seedFrom(rng.next);
  const jit = (c: readonly [number, number, number], a = 0.12) => lin(c.map((v) => Math.max(0, Math.min(255, Math.round(v * rng.range(1 - a, 1 + a))))) as unknown as [number, number, number]);
  switch (k) {
    case 'wood': {
      const base = jit(rng.pick([[205, 165, 115], [170, 120, 75], [120, 80, 50], [95, 60, 40], [185, 140, 100], [150, 95, 70]] as const));
      const angle = rng.range(0, Math.PI);
      const ca = Math.cos(angle), sa = Math.sin(angle);
      const freq = rng.range(5, 16);
      const plank = rng.range(2.5, 8);
      const contrast = rng.range(0.1, 0.35);
      return {
        kind: k,
        gloss: rng.range(0, 0.25),
        sample(x, y, out) {
          const u = x * ca + y * sa, v = -x * sa + y * ca;
          const p = Math.floor(v / plank);
          const plankShade = 0.85 + 0.3 * noise2(p * 3.1, 0.5, seed + 11);
          const warp = fbm2(u * 0.15, v * 0.6 + p * 13, seed, 3);
          const ring = 0.5 + 0.5 * Math.sin((v + 1.6 * warp) * freq);
          const streak = noise2(u * 0.6, v * 25, seed + 5);
          const seamDist = Math.abs(v - Math.round(v / plank) * plank);
          const seam = seamDist < 0.035 ? 0.45 : 1;
          const f = plankShade * seam * (1 - contrast + contrast * (0.55 * ring + 0.45 * streak));
          out[0] = base[0] * f;
          out[1] = base[1] * f;
          out[2] = base[2] * f;
        },
      };
    }
    case 'felt': {
      const base = jit(rng.pick([[30, 110, 55], [25, 70, 130], [130, 30, 35], [40, 40, 45], [90, 45, 110], [70, 90, 70], [160, 150, 130]] as const));
      const fiber = rng.range(15, 40);
      return {
        kind: k,
        gloss: 0,
        sample(x, y, out) {
          const f = 0.9 + 0.12 * noise2(x * fiber, y * fiber, seed) + 0.08 * fbm2(x * 0.4, y * 0.4, seed + 3, 2);
          out[0] = base[0] * f;
          out[1] = base[1] * f;
          out[2] = base[2] * f;
        },
      };
    }
    case 'card':
    case 'tray':
    case 'dark': {
      const base = jit(
        k === 'card'
          ? rng.pick([[150, 150, 150], [120, 122, 125], [180, 178, 170], [100, 100, 105]] as const)
          : k === 'tray'
            ? rng.pick([[240, 238, 232], [230, 225, 210], [225, 228, 232], [245, 245, 245], [215, 205, 185]] as const)
            : rng.pick([[25, 25, 28], [35, 30, 28], [20, 24, 35]] as const),
        0.06,
      );
      const grain = rng.range(0.01, 0.05);
      return {
        kind: k,
        gloss: k === 'tray' ? rng.range(0, 0.2) : rng.range(0, 0.06),
        sample(x, y, out) {
          const f = 1 - grain + 2 * grain * (0.7 * fbm2(x * 0.3, y * 0.3, seed, 3) + 0.3 * noise2(x * 20, y * 20, seed + 9));
          out[0] = base[0] * f;
          out[1] = base[1] * f;
          out[2] = base[2] * f;
        },
      };
    }
    case 'pattern': {
      const a = jit(rng.pick([[200, 60, 50], [240, 235, 220], [60, 90, 160], [230, 190, 60], [40, 40, 40], [90, 160, 90]] as const));
      const b = jit(rng.pick([[245, 245, 240], [30, 30, 30], [220, 140, 60], [120, 170, 210], [200, 200, 200], [150, 60, 120]] as const));
      const c = jit(rng.pick([[60, 120, 60], [210, 210, 90], [200, 100, 130], [80, 80, 160]] as const));
      const style = rng.int(0, 3);
      const cell = rng.range(0.8, 4);
      const angle = rng.range(0, Math.PI);
      const ca = Math.cos(angle), sa = Math.sin(angle);
      return {
        kind: k,
        gloss: rng.range(0, 0.15),
        sample(x, y, out) {
          const u = (x * ca + y * sa) / cell, v = (-x * sa + y * ca) / cell;
          let col: Vec3;
          if (style === 0) col = (Math.floor(u) + Math.floor(v)) & 1 ? a : b; // checker
          else if (style === 1) col = Math.floor(u * 2) & 1 ? a : b; // stripes
          else if (style === 2) {
            const du = u - Math.round(u), dv = v - Math.round(v);
            col = du * du + dv * dv < 0.08 ? a : b; // dots
          } else {
            // A printed board: patches of colour with dark borders.
            const n = fbm2(u * 0.7, v * 0.7, seed, 3);
            const band = n * 3;
            const edge = Math.abs(band - Math.round(band)) < 0.04;
            col = edge ? [0.02, 0.02, 0.02] : band < 1.1 ? a : band < 1.6 ? b : c;
          }
          const f = 0.95 + 0.05 * noise2(x * 12, y * 12, seed + 1);
          out[0] = col[0] * f;
          out[1] = col[1] * f;
          out[2] = col[2] * f;
        },
      };
    }
  }
}
