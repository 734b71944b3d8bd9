/**
 * `renderCrop`: one training crop of a face class, framed exactly as inference frames a located
 * die (squareCrop of the die's box). The die stands in a small world of its own, often with
 * neighbours touching it, seen by a camera that may look at it obliquely; the crop window is
 * rendered at camera resolution, degraded like a camera image, then framed on the die's true
 * (visible) box.
 */
import type { DiceSetId } from '../../shared/dice.js';
import type { Rng } from '../../shared/rng.js';
import { DICE_SETS } from '../../shared/dice.js';
import { faceOf, isFaceClass, type FaceClass } from '../faces/classes.js';
import { CROP_SCALE, CROP_SIZE, squareAround, squareCrop } from '../image/crop.js';
import { cropRect } from '../image/image.js';
import type { Box, RgbImage } from '../types.js';
import { cameraPipeline, toSrgb } from './camera.js';
import { project } from './geometry.js';
import { knobsFor, type SynthKnobs } from './knobs.js';
import { randomDieLook, randomTable } from './looks.js';
import { dieHullPoints, ownerBoxes, traceWindow, type SynthDie, type World } from './trace.js';
import { cameraRoll, makeDie, placeTouching, randomCamera, randomLight, randomOcclusion, randomResponse, randomTilt, setsShowing, overlapsAny, TILTED_FROM_DEG } from './world.js';

export interface RenderCropOptions {
  /** Dice sets in play: the die is of one of these (that shows the class), neighbours too. */
  sets?: DiceSetId[];
  /** 0 easy … 1 hard (default 0.7). */
  difficulty?: number;
  /** Individual knobs, overriding the difficulty's. */
  knobs?: Partial<SynthKnobs>;
  /** Body colours (DIE_COLORS names) to draw from. */
  palette?: string[];
  /** Output side (default 64) and framing scale (default 1.15): keep the defaults for training. */
  size?: number;
  scale?: number;
}

export interface CropDetail {
  image: RgbImage;
  set: DiceSetId;
  face: string;
  color: string;
  tilted: boolean;
  /** The die's true box in the rendered window, and the box actually framed (after jitter). */
  box: Box;
  framed: Box;
  /** The rendered camera window the crop was taken from. */
  window: RgbImage;
}

/** A size×size crop of a die showing `cls` on top. Same rng state → same pixels. */
export function renderCrop(rng: Rng, cls: FaceClass, options: RenderCropOptions = {}): RgbImage {
  return renderCropDetail(rng, cls, options).image;
}

export function renderCropDetail(rng: Rng, cls: FaceClass, options: RenderCropOptions = {}): CropDetail {
  if (!isFaceClass(cls)) throw new Error(`renderCrop: unknown face class "${String(cls)}"`);
  const sets = setsShowing(cls, options.sets);
  if (sets.length === 0) throw new Error(`renderCrop: no dice set among [${options.sets?.join(', ')}] has the face class "${cls}"`);
  const knobs = knobsFor(options.difficulty, options.knobs);
  const size = options.size ?? CROP_SIZE;
  const scale = options.scale ?? CROP_SCALE;
  const hard = knobs.hardLooks;

  const set = rng.pick(sets);
  const look = randomDieLook(rng, { hardness: hard, colors: options.palette });
  const half = 0.5 * rng.range(0.92, 1.08);
  const target = makeDie(rng, set, faceOf(set, cls)!, look, half, 0, 0, rng.range(0, 2 * Math.PI), randomTilt(rng, knobs));
  const dice: SynthDie[] = [target];

  // Neighbours: mostly dice of the sets in play, often of the same look (one player's dice).
  const count = knobs.neighbours > 0 ? Math.floor(rng.next() ** 1.3 * (knobs.neighbours + 1)) : 0;
  const neighbourSets = options.sets && options.sets.length > 0 ? options.sets : [set];
  for (let n = 0; n < count; n++) {
    const s = rng.pick(neighbourSets);
    const nLook = rng.next() < 0.5 ? { ...look, style: look.style } : randomDieLook(rng, { hardness: hard, colors: options.palette });
    const nHalf = half * rng.range(0.85, 1.15);
    const d = makeDie(rng, s, rng.pick(DICE_SETS[s].faces), nLook, nHalf, 0, 0, rng.range(0, 2 * Math.PI), randomTilt(rng, knobs));
    const anchor = rng.next() < 0.75 ? target : rng.pick(dice);
    const touching = rng.next() < knobs.touchChance;
    const gap = touching ? rng.range(0, 0.03) * half : rng.range(0.1, 0.9) * half;
    if (placeTouching(d, anchor, rng.range(0, 2 * Math.PI), dice, gap) && !overlapsAny(d, dice)) dice.push(d);
  }

  // Camera: distance sets the strength of perspective; the die's pixel size sets the focal length.
  const [smin, smax] = knobs.cropDieSize;
  const diePx = Math.exp(rng.range(Math.log(smin), Math.log(Math.max(smin, smax))));
  const dist = rng.range(5, 28);
  const focal = (diePx * dist) / (2 * half);
  // Biased toward steeper views (webcams on a stand), where side faces show most.
  const oblique = knobs.maxOblique * Math.sqrt(rng.next());
  const camera = randomCamera(rng, target.center, dist, oblique, focal, 0, 0, cameraRoll(rng.range(0, 2 * Math.PI), knobs.roll), knobs.roll < 180);
  const glare = rng.next() < knobs.glareChance;
  const light = randomLight(rng, target.center, 1, glare ? { cam: camera.pos } : undefined);
  const table = randomTable(rng, rng.pick(knobs.tables));
  const world: World = {
    dice,
    table,
    light,
    camera,
    shadowStrength: rng.range(knobs.shadow[0], knobs.shadow[1]),
    shadowSoftness: rng.range(0.5, 2),
  };
  const response = randomResponse(rng, knobs, light, target.center);
  const occlusion = randomOcclusion(rng, knobs);
  if (occlusion) world.occlusion = occlusion;
  // Blur beyond ~6% of the die's size leaves nothing readable: keep labels meaningful.
  response.blur = Math.min(response.blur, 0.06 * diePx);

  // Window: the crop square around the die's projected hull, with margin for blur and jitter.
  let a = Infinity, b = Infinity, c = -Infinity, d = -Infinity;
  for (const p of dieHullPoints(target, camera)) {
    const q = project(camera, p)!;
    a = Math.min(a, q[0]); b = Math.min(b, q[1]); c = Math.max(c, q[0]); d = Math.max(d, q[1]);
  }
  // A picture cut reaches 35 % of the die beyond each side: 1.7× its box.
  const reach = knobs.pictureCut > 0 ? Math.max(knobs.framing[1], 1.7) : knobs.framing[1];
  const sq = squareAround([a, b, c, d], scale * (1 + 2 * knobs.boxJitter) * reach);
  const margin = 3; // room for the blur kernel; the crop square stays inside
  const x0 = Math.floor(sq[0]) - margin, y0 = Math.floor(sq[1]) - margin;
  const w = Math.ceil(sq[2]) + margin - x0, h = Math.ceil(sq[3]) + margin - y0;
  const traced = traceWindow(world, x0, y0, w, h);
  const window = cameraPipeline(toSrgb(traced.rgb, w, h, response), response, rng);
  const box: Box = ownerBoxes(traced, dice.length)[0] ?? [a - x0, b - y0, c - x0, d - y0];

  const bw = box[2] - box[0], bh = box[3] - box[1];
  const detail = (image: RgbImage, framed: Box): CropDetail => ({
    image,
    set,
    face: target.face,
    color: look.colorName,
    tilted: (target.tilt * 180) / Math.PI >= TILTED_FROM_DEG,
    box,
    framed,
    window,
  });

  // A picture of one die cut by somebody else (no draw when the chance is 0, so other renders
  // stay what they were): framed whole, as the reader frames such a picture.
  if (knobs.pictureCut > 0 && rng.next() < knobs.pictureCut) {
    const side = () => rng.range(-0.05, 0.35);
    const cut: Box = [
      Math.max(0, Math.round(box[0] - side() * bw)),
      Math.max(0, Math.round(box[1] - side() * bh)),
      Math.min(w, Math.round(box[2] + side() * bw)),
      Math.min(h, Math.round(box[3] + side() * bh)),
    ];
    const picture = cropRect(window, cut[0], cut[1], cut[2], cut[3]);
    return detail(squareCrop(picture, [0, 0, picture.width, picture.height], { size, scale }), cut);
  }

  // Optional locator-like error on the framed box.
  let framed: Box = box;
  if (knobs.boxJitter > 0) {
    const j = knobs.boxJitter;
    const cx = (box[0] + box[2]) / 2 + rng.range(-j, j) * bw, cy = (box[1] + box[3]) / 2 + rng.range(-j, j) * bh;
    const k = 1 + rng.range(-j, j) * 1.5;
    framed = [cx - (bw * k) / 2, cy - (bh * k) / 2, cx + (bw * k) / 2, cy + (bh * k) / 2];
  }
  // Loose framing: the same centre, a larger box (no draw when the range is [1, 1], so the
  // default renders stay what they were).
  if (knobs.framing[1] > 1 || knobs.framing[0] < 1) {
    const f = knobs.framing[0] === knobs.framing[1] ? knobs.framing[0] : rng.range(knobs.framing[0], knobs.framing[1]);
    const cx = (framed[0] + framed[2]) / 2, cy = (framed[1] + framed[3]) / 2;
    const hw = ((framed[2] - framed[0]) * f) / 2, hh = ((framed[3] - framed[1]) * f) / 2;
    framed = [cx - hw, cy - hh, cx + hw, cy + hh];
  }
  return detail(squareCrop(window, framed, { size, scale }), framed);
}
