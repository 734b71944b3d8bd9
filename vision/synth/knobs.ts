/**
 * Difficulty knobs of the synthetic renderer. `difficulty` 0..1 interpolates between an easy
 * setting (upright dice, plain light, clean camera) and a hard one (strong tilt, oblique camera,
 * glare, marbling, blur, noise, low JPEG quality); any knob can be set directly.
 */
import type { TableKind } from './looks.js';
import { TABLE_KINDS } from './looks.js';

export interface SynthKnobs {
  /** Chance that a die is visibly tilted (resting on something), 0..1. */
  tiltChance: number;
  /** Largest tilt of a tilted die, degrees (the top face stays the top: under 40°). */
  maxTilt: number;
  /** Largest angle of the camera's view of a die away from vertical, degrees. */
  maxOblique: number;
  /** Most neighbouring dice around a crop's die. */
  neighbours: number;
  /** Chance that a neighbour touches the die. */
  touchChance: number;
  /** Largest lens blur sigma, camera pixels. */
  blur: number;
  /** Largest sensor noise (8-bit levels at mid grey). */
  noise: number;
  /** Lowest JPEG quality (highest is 95). */
  jpegMin: number;
  /** Chance that the light is placed to throw a specular glare onto the die's top. */
  glareChance: number;
  /** How often hard looks appear: marbled and translucent bodies, low-contrast ink, high gloss. */
  hardLooks: number;
  /** Darkness of cast shadows, [min, max] of 0..1. */
  shadow: [number, number];
  /**
   * Chance of a broad, diffuse light (a room's, a window's) whose soft shadow darkens the table
   * round each die's foot, as in photos of dice under room light (`Occlusion` in trace.ts).
   * 0 (the default) draws nothing for it, so renders without it are unchanged.
   */
  broadLight: number;
  /** Crop only: random error of the box fed to squareCrop, as a fraction of the die's size (0 = the true box). */
  boxJitter: number;
  /**
   * Crop only: [min, max] factor on the framed box's size. Above 1 the die sits smaller in the
   * crop, with more table and neighbours around it, as when a locator's box takes in a shadow or
   * a crop comes from someone else's detector. [1, 1] (the default) frames the true box.
   */
  framing: [number, number];
  /**
   * Crop only: chance that the crop is made as from a picture of one die cut by somebody else's
   * detector: a rectangle round the die (each side from 5 % inside the die to 35 % of its size
   * outside), framed whole the way the reader frames a picture (`squareCrop` of the picture,
   * its edge rows repeated where the square is wider than the picture). Such a crop takes no
   * `framing` or `boxJitter`: the cut is its framing.
   */
  pictureCut: number;
  /**
   * Crop only: die size in camera pixels before framing, [min, max]. In the 64 px crop the die is
   * 64 / 1.15 ≈ 56 px across, so rendering it bigger than ~60 px only costs time.
   */
  cropDieSize: [number, number];
  /**
   * Largest roll of the camera away from upright, degrees (crops and scenes). 180 (the default) is any
   * roll: the die's side faces show on any side of its top face. Below that the picture is
   * upright, as a photo is: world up points up in the crop within ±roll, so side faces show
   * below the top face (a camera looking down from the side).
   */
  roll: number;
  /** Table surfaces to choose from. */
  tables: readonly TableKind[];
}

export const EASY_KNOBS: Readonly<SynthKnobs> = {
  tiltChance: 0,
  maxTilt: 0,
  maxOblique: 10,
  neighbours: 0,
  touchChance: 0,
  blur: 0.3,
  noise: 1,
  jpegMin: 90,
  glareChance: 0,
  hardLooks: 0,
  shadow: [0.2, 0.4],
  broadLight: 0,
  boxJitter: 0,
  framing: [1, 1],
  pictureCut: 0,
  cropDieSize: [40, 60],
  roll: 180,
  tables: TABLE_KINDS,
};

export const HARD_KNOBS: Readonly<SynthKnobs> = {
  tiltChance: 0.45,
  maxTilt: 38,
  maxOblique: 60,
  neighbours: 4,
  touchChance: 0.75,
  blur: 1.6,
  noise: 9,
  jpegMin: 35,
  glareChance: 0.4,
  hardLooks: 1,
  shadow: [0.3, 0.85],
  broadLight: 0,
  boxJitter: 0,
  framing: [1, 1],
  pictureCut: 0,
  cropDieSize: [18, 60],
  roll: 180,
  tables: TABLE_KINDS,
};

export const DEFAULT_DIFFICULTY = 0.7;

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

export function knobsFor(difficulty: number = DEFAULT_DIFFICULTY, overrides: Partial<SynthKnobs> = {}): SynthKnobs {
  if (!(difficulty >= 0 && difficulty <= 1)) throw new RangeError(`difficulty must be in 0..1, got ${difficulty}`);
  const e = EASY_KNOBS, h = HARD_KNOBS, t = difficulty;
  const k: SynthKnobs = {
    tiltChance: lerp(e.tiltChance, h.tiltChance, t),
    maxTilt: lerp(e.maxTilt, h.maxTilt, t),
    maxOblique: lerp(e.maxOblique, h.maxOblique, t),
    neighbours: Math.round(lerp(e.neighbours, h.neighbours, t)),
    touchChance: lerp(e.touchChance, h.touchChance, t),
    blur: lerp(e.blur, h.blur, t),
    noise: lerp(e.noise, h.noise, t),
    jpegMin: Math.round(lerp(e.jpegMin, h.jpegMin, t)),
    glareChance: lerp(e.glareChance, h.glareChance, t),
    hardLooks: lerp(e.hardLooks, h.hardLooks, t),
    shadow: [lerp(e.shadow[0], h.shadow[0], t), lerp(e.shadow[1], h.shadow[1], t)],
    broadLight: lerp(e.broadLight, h.broadLight, t),
    boxJitter: lerp(e.boxJitter, h.boxJitter, t),
    framing: [lerp(e.framing[0], h.framing[0], t), lerp(e.framing[1], h.framing[1], t)],
    pictureCut: lerp(e.pictureCut, h.pictureCut, t),
    cropDieSize: [lerp(e.cropDieSize[0], h.cropDieSize[0], t), lerp(e.cropDieSize[1], h.cropDieSize[1], t)],
    roll: lerp(e.roll, h.roll, t),
    tables: h.tables,
    ...overrides,
  };
  if (k.maxTilt >= 45) throw new RangeError(`maxTilt must stay under 45° so the top face is still the top, got ${k.maxTilt}`);
  if (!(k.framing[0] > 0 && k.framing[0] <= k.framing[1])) throw new RangeError(`framing must be [min, max] with 0 < min ≤ max, got [${k.framing.join(', ')}]`);
  if (!(k.pictureCut >= 0 && k.pictureCut <= 1)) throw new RangeError(`pictureCut must be a chance in 0..1, got ${k.pictureCut}`);
  if (!(k.broadLight >= 0 && k.broadLight <= 1)) throw new RangeError(`broadLight must be a chance in 0..1, got ${k.broadLight}`);
  if (!(k.roll >= 0 && k.roll <= 180)) throw new RangeError(`roll must be in 0..180 degrees, got ${k.roll}`);
  if (k.tables.length === 0) throw new RangeError('tables: give at least one table kind');
  return k;
}
