/**
 * `renderScene`: a whole tray photo with up to 25 dice (20–300 px across), scattered and in
 * touching clusters, some tilted, under one light, through one camera (often oblique like a webcam
 * on a stand), with the true box, class, colour and tilt of every visible die.
 */
import { DICE_SETS, DICE_SET_IDS, type DiceSetId } from '../../shared/dice.js';
import type { Rng } from '../../shared/rng.js';
import type { FaceClass } from '../faces/classes.js';
import type { Box, RgbImage } from '../types.js';
import { cameraPipeline, toSrgb, type CameraResponse } from './camera.js';
import { lookAt, normalize, project, type Vec3 } from './geometry.js';
import { knobsFor, type SynthKnobs } from './knobs.js';
import { randomDieLook, randomTable, type DieLook, type TableKind } from './looks.js';
import { dieHullPoints, ownerBoxes, traceWindow, type SynthDie, type World } from './trace.js';
import { cameraRoll, makeDie, overlapsAny, placeTouching, randomLight, randomOcclusion, randomResponse, randomTilt, TILTED_FROM_DEG } from './world.js';

export interface RenderSceneOptions {
  /** Frame size (default 640 × 640). */
  width?: number;
  height?: number;
  /** Number of dice, 1..25 (default: random 1..12). */
  dice?: number;
  /** Dice sets in play (default: all). */
  sets?: DiceSetId[];
  /**
   * One set per die, in order, instead of a set drawn for each from `sets`: a game's own roll
   * (Worm & Cozy's shape die and two organ dice). Gives the number of dice.
   */
  diceSets?: DiceSetId[];
  /** Die size range across, in pixels (default [20, 300], narrowed so the dice fit). */
  dieSize?: [number, number];
  /** 0 easy … 1 hard (default 0.7). */
  difficulty?: number;
  knobs?: Partial<SynthKnobs>;
  /** Body colours (DIE_COLORS names) to draw from. */
  palette?: string[];
  /** Force a table kind. */
  table?: TableKind;
  /**
   * Also render the same tray without its dice (`Scene.empty`), as a fixed camera saw it a while
   * before: its own sensor noise, the exposure drifted by up to ±`drift` (default 0.04) and the
   * camera moved by up to `shift` pixels (default 0.75) each way. For measuring a locator given
   * the empty tray (locate/tray-reference.ts). The scene itself is the same with or without.
   */
  empty?: boolean | { drift?: number; shift?: number };
  /**
   * The widest the lens sees, in degrees from the picture's centre to the middle of its longer
   * edge (default 50: a wide-angle webcam, or the Pi Camera Module 3 Wide at about 51°). The
   * camera is moved back from the table until its lens is no wider. Before the twenty-sixth
   * session only the distance was drawn, so small dice in a large frame were seen through a
   * lens 60–70° wide and more, which stretched the dice near the corners into bars; 90 draws
   * the distance alone, as then (the learned detector's training scenes, which its committed
   * weights were trained on).
   */
  maxHalfView?: number;
}

export interface SceneDie {
  cls: FaceClass;
  /** Tight box of the die's visible pixels, [x0, y0, x1, y1] in pixel-edge coordinates. */
  box: Box;
  color: string;
  tilted: boolean;
  set: DiceSetId;
  face: string;
}

export interface Scene {
  image: RgbImage;
  dice: SceneDie[];
  /** The same tray without its dice (`RenderSceneOptions.empty`). */
  empty?: RgbImage;
  /** How wide the lens saw, in degrees from the centre to the middle of the longer edge. */
  halfView: number;
}

const MAX_DICE = 25;

export function renderScene(rng: Rng, options: RenderSceneOptions = {}): Scene {
  const W = options.width ?? 640, H = options.height ?? 640;
  if (!Number.isInteger(W) || !Number.isInteger(H) || W < 32 || H < 32) throw new RangeError(`renderScene: width and height must be integers ≥ 32, got ${W}×${H}`);
  const n = options.diceSets?.length ?? options.dice ?? rng.int(1, 12);
  if (!Number.isInteger(n) || n < 1 || n > MAX_DICE) throw new RangeError(`renderScene: dice must be an integer 1..${MAX_DICE}, got ${n}`);
  const sets = options.sets && options.sets.length > 0 ? options.sets : DICE_SET_IDS;
  for (const s of [...sets, ...(options.diceSets ?? [])]) if (!DICE_SETS[s]) throw new Error(`renderScene: unknown dice set "${s}"`);
  const knobs = knobsFor(options.difficulty, options.knobs);
  const [minPx, maxPx] = options.dieSize ?? [20, 300];
  if (options.maxHalfView !== undefined && !(options.maxHalfView > 0 && options.maxHalfView <= 90)) throw new RangeError(`renderScene: maxHalfView must be in (0, 90] degrees, got ${options.maxHalfView}`);
  if (!(minPx > 0 && maxPx >= minPx)) throw new RangeError(`renderScene: dieSize must be [min, max] with 0 < min ≤ max, got [${minPx}, ${maxPx}]`);

  // How big dice can be and still all fit in the frame.
  const fit = Math.sqrt((0.3 * W * H) / n) / 1.25;
  const hi = Math.max(minPx, Math.min(maxPx, fit));
  const diePx = Math.exp(rng.range(Math.log(minPx), Math.log(hi)));

  // Camera over the table origin, no wider than the lens allows (the distance drawn first, so a
  // scene the limit does not bind is the scene it was before the limit).
  const drawn = rng.range(8, 32);
  const widest = options.maxHalfView ?? 50;
  const dist = widest < 90 ? Math.max(drawn, Math.max(W, H) / 2 / diePx / Math.tan((widest * Math.PI) / 180)) : drawn;
  const focal = diePx * dist; // a unit die at the centre spans diePx
  const oblique = (rng.range(0, Math.min(knobs.maxOblique, 45)) * Math.PI) / 180;
  const az = rng.range(0, 2 * Math.PI);
  const camPos: Vec3 = [Math.sin(oblique) * Math.cos(az) * dist, Math.sin(oblique) * Math.sin(az) * dist, Math.cos(oblique) * dist];
  // Any roll by default; below 180 an upright photo (the knob as renderCrop takes it).
  const camera = lookAt(camPos, [0, 0, 0], focal, W / 2, H / 2, cameraRoll(rng.range(0, 2 * Math.PI), knobs.roll), knobs.roll < 180);

  // Looks: often one look for all (a matched set), sometimes two or more (players' colours).
  const lightTray = rng.next() < 0.12;
  const palette = lightTray ? ['white', 'ivory'] : options.palette;
  const looks: DieLook[] = [];
  const lookCount = rng.next() < 0.4 ? 1 : rng.int(2, 4);
  for (let i = 0; i < lookCount; i++) looks.push(randomDieLook(rng, { hardness: knobs.hardLooks, colors: palette }));
  const table = randomTable(rng, options.table ?? (lightTray ? 'tray' : rng.pick(knobs.tables)));

  // Back-project an image point onto the table plane.
  const toTable = (u: number, v: number): [number, number] | null => {
    const fx = (u - camera.cx) / camera.focal, fy = (v - camera.cy) / camera.focal;
    const d = normalize([
      camera.forward[0] + fx * camera.right[0] + fy * camera.down[0],
      camera.forward[1] + fx * camera.right[1] + fy * camera.down[1],
      camera.forward[2] + fx * camera.right[2] + fy * camera.down[2],
    ]);
    if (d[2] >= -1e-3) return null;
    const t = -camPos[2] / d[2];
    return [camPos[0] + d[0] * t, camPos[1] + d[1] * t];
  };
  const inFrame = (die: SynthDie): boolean => {
    for (const p of dieHullPoints(die, camera)) {
      const q = project(camera, p);
      if (!q || q[0] < 2 || q[1] < 2 || q[0] > W - 2 || q[1] > H - 2) return false;
    }
    return true;
  };

  const dice: SynthDie[] = [];
  const half = 0.5;
  for (let i = 0; i < n; i++) {
    const set = options.diceSets?.[i] ?? rng.pick(sets);
    const look = rng.pick(looks);
    const face = rng.pick(DICE_SETS[set].faces);
    for (let attempt = 0; attempt < 60; attempt++) {
      const d = makeDie(rng, set, face, look, half * rng.range(0.9, 1.1), 0, 0, rng.range(0, 2 * Math.PI), randomTilt(rng, knobs));
      let ok = false;
      if (dice.length > 0 && rng.next() < 0.45) {
        const gap = rng.next() < knobs.touchChance ? rng.range(0, 0.03) : rng.range(0.05, 0.6);
        ok = placeTouching(d, rng.pick(dice), rng.range(0, 2 * Math.PI), dice, gap * half);
      } else {
        const p = toTable(rng.range(0.06, 0.94) * W, rng.range(0.06, 0.94) * H);
        if (p) {
          d.center = [p[0], p[1], d.center[2]];
          ok = !overlapsAny(d, dice, 0.02);
        }
      }
      if (ok && inFrame(d)) {
        dice.push(d);
        break;
      }
    }
  }

  const glare = rng.next() < knobs.glareChance && dice.length > 0;
  const light = randomLight(rng, [0, 0, 0], rng.range(1.5, 3), glare ? { cam: camPos } : undefined);
  const world: World = {
    dice,
    table,
    light,
    camera,
    shadowStrength: rng.range(knobs.shadow[0], knobs.shadow[1]),
    shadowSoftness: rng.range(0.5, 2),
  };
  const response = randomResponse(rng, knobs, light, [0, 0, 0]);
  const occlusion = randomOcclusion(rng, knobs);
  if (occlusion) world.occlusion = occlusion;
  response.blur = Math.min(response.blur, 0.06 * diePx);
  const traced = traceWindow(world, 0, 0, W, H);
  const image = cameraPipeline(toSrgb(traced.rgb, W, H, response), response, rng);
  const boxes = ownerBoxes(traced, dice.length);
  const out: SceneDie[] = [];
  dice.forEach((d, k) => {
    const box = boxes[k];
    if (!box) return; // wholly hidden behind another die
    out.push({
      cls: d.top,
      box,
      color: d.look.colorName,
      tilted: (d.tilt * 180) / Math.PI >= TILTED_FROM_DEG,
      set: d.set,
      face: d.face,
    });
  });
  const halfView = (Math.atan(Math.max(W, H) / 2 / focal) * 180) / Math.PI;
  if (!options.empty) return { image, dice: out, halfView };
  return { image, dice: out, empty: renderEmpty(world, response, rng.fork(), W, H, options.empty === true ? {} : options.empty), halfView };
}

/** The scene's tray alone, a little later: other noise, a drifted exposure, the camera nudged. */
function renderEmpty(world: World, response: CameraResponse, rng: Rng, W: number, H: number, o: { drift?: number; shift?: number }): RgbImage {
  const drift = o.drift ?? 0.04, shift = o.shift ?? 0.75;
  const cam = world.camera;
  const camera = { ...cam, cx: cam.cx + rng.range(-shift, shift), cy: cam.cy + rng.range(-shift, shift) };
  const traced = traceWindow({ ...world, dice: [], camera }, 0, 0, W, H);
  const r = { ...response, exposure: response.exposure * (1 + rng.range(-drift, drift)) };
  return cameraPipeline(toSrgb(traced.rgb, W, H, r), r, rng);
}
