/**
 * Building blocks for synthetic worlds: dice with their six faces assigned, placed on the table
 * without overlapping (touching allowed), lights, cameras and camera responses drawn from the knobs.
 */
import { DICE_SETS, type DiceSetId } from '../../shared/dice.js';
import type { Rng } from '../../shared/rng.js';
import { classOf, faceOf, type FaceClass } from '../faces/classes.js';
import { axisAngle, lookAt, mul, type Camera, type Mat3, type Vec3 } from './geometry.js';
import type { CameraResponse } from './camera.js';
import type { SynthKnobs } from './knobs.js';
import type { DieLook } from './looks.js';
import type { Light, Occlusion, SynthDie } from './trace.js';

/** Degrees of tilt from which a die counts as tilted. */
export const TILTED_FROM_DEG = 10;

/**
 * A die of `set` showing `face` on top. The other faces follow a standard die: opposite faces are
 * the set's faces i and 5 − i (1–6, 2–5, 3–4 on a d6); the side pairs and art turns are random.
 */
export function makeDie(rng: Rng, set: DiceSetId, face: string, look: DieLook, half: number, x: number, y: number, yaw: number, tiltDeg: number): SynthDie {
  const faces = DICE_SETS[set].faces;
  const t = faces.indexOf(face);
  if (t < 0) throw new Error(`makeDie: "${face}" is not a face of ${set}`);
  const rest = [0, 1, 2].filter((i) => i !== t && i !== 5 - t).map((i) => (rng.next() < 0.5 ? [i, 5 - i] : [5 - i, i]));
  const [p1, p2] = rng.next() < 0.5 ? [rest[0]!, rest[1]!] : [rest[1]!, rest[0]!];
  const order = [p1[0]!, p1[1]!, p2[0]!, p2[1]!, t, 5 - t];
  const cls = order.map((i) => classOf(set, faces[i]!));
  let rot: Mat3 = axisAngle([0, 0, 1], yaw);
  const tilt = (tiltDeg * Math.PI) / 180;
  if (tilt > 0) {
    const a = rng.range(0, 2 * Math.PI);
    rot = mul(axisAngle([Math.cos(a), Math.sin(a), 0], tilt), rot);
  }
  // Rest the lowest point of the rounded cube on the table.
  const rad = half * look.rounding;
  const b = half - rad;
  let low = Infinity;
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) low = Math.min(low, rot[6] * sx * b + rot[7] * sy * b + rot[8] * sz * b);
  return {
    set,
    face,
    top: classOf(set, face),
    faces: cls,
    turns: cls.map(() => rng.int(0, 3)),
    look,
    center: [x, y, rad - low],
    rot,
    half,
    tilt,
  };
}

/** Footprint of a die on the table as an oriented square (centre, half size, yaw). */
interface Footprint { x: number; y: number; h: number; yaw: number }

function footprint(d: SynthDie): Footprint {
  // A tilted die's shadow on the table is a little wider: grow with the tilt.
  return { x: d.center[0], y: d.center[1], h: d.half * (1 + 0.45 * Math.sin(d.tilt)), yaw: Math.atan2(d.rot[3], d.rot[0]) };
}

/** Separating-axis test of two oriented squares. */
export function footprintsOverlap(a: Footprint, b: Footprint, gap = 0): boolean {
  const axes = [a.yaw, a.yaw + Math.PI / 2, b.yaw, b.yaw + Math.PI / 2];
  for (const ang of axes) {
    const ax = Math.cos(ang), ay = Math.sin(ang);
    const proj = (f: Footprint) => {
      const c = f.x * ax + f.y * ay;
      const r = f.h * (Math.abs(Math.cos(f.yaw - ang)) + Math.abs(Math.sin(f.yaw - ang)));
      return [c - r, c + r] as const;
    };
    const [a0, a1] = proj(a), [b0, b1] = proj(b);
    if (a1 + gap <= b0 || b1 + gap <= a0) return false;
  }
  return true;
}

export function overlapsAny(d: SynthDie, others: readonly SynthDie[], gap = 0): boolean {
  const f = footprint(d);
  return others.some((o) => footprintsOverlap(f, footprint(o), gap));
}

/** Move `d` from `anchor` along direction `angle` until it no longer overlaps anything, then add `gap`. */
export function placeTouching(d: SynthDie, anchor: SynthDie, angle: number, others: readonly SynthDie[], gap: number): boolean {
  const ca = Math.cos(angle), sa = Math.sin(angle);
  const dz = d.center[2];
  const at = (dist: number) => {
    d.center = [anchor.center[0] + ca * dist, anchor.center[1] + sa * dist, dz];
    return !overlapsAny(d, others);
  };
  // March out in coarse steps to the first free spot, then bisect back to contact.
  let lo = (anchor.half + d.half) * 0.95, hi = -1;
  for (let dist = lo; dist < (anchor.half + d.half) * 2.2; dist += 0.12 * d.half) {
    if (at(dist)) {
      hi = dist;
      break;
    }
    lo = dist;
  }
  if (hi < 0) return false;
  for (let k = 0; k < 6; k++) {
    const mid = (lo + hi) / 2;
    if (at(mid)) hi = mid;
    else lo = mid;
  }
  return at(hi + gap);
}

/** Sets whose faces include the class, restricted to `sets` when given. */
export function setsShowing(cls: FaceClass, sets?: readonly DiceSetId[]): DiceSetId[] {
  const all = (sets && sets.length > 0 ? sets : (Object.keys(DICE_SETS) as DiceSetId[])).filter((s) => faceOf(s, cls) !== undefined);
  return all;
}

export function randomTilt(rng: Rng, knobs: SynthKnobs): number {
  if (rng.next() < knobs.tiltChance) return rng.range(TILTED_FROM_DEG + 2, Math.max(TILTED_FROM_DEG + 2.5, knobs.maxTilt));
  return rng.range(0, 2.5); // dice never lie perfectly flat
}

/** Colour temperature: warm tungsten … cold daylight/LED, as linear RGB with luminance ~1. */
function lightColor(rng: Rng): Vec3 {
  const t = rng.range(-1, 1);
  const c: Vec3 = t < 0 ? [1, 1 + 0.12 * t, 1 + 0.45 * t] : [1 - 0.12 * t, 1 - 0.02 * t, 1 + 0.12 * t];
  const lum = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  return [c[0] / lum, c[1] / lum, c[2] / lum];
}

/**
 * A point light. With `glareOn` (a point and the camera position) the light sits where the table
 * plane mirrors it into the camera, so flat tops there show a specular highlight.
 */
export function randomLight(rng: Rng, target: Vec3, scale: number, glareOn?: { cam: Vec3 }): Light {
  let pos: Vec3;
  if (glareOn) {
    const v: Vec3 = [glareOn.cam[0] - target[0], glareOn.cam[1] - target[1], glareOn.cam[2] - target[2]];
    const vl = Math.hypot(v[0], v[1], v[2]);
    const dist = rng.range(4, 14) * scale;
    const j = 0.05; // ±3°: the glare lands somewhere on or near the top face
    pos = [target[0] + (-v[0] / vl + rng.range(-j, j)) * dist, target[1] + (-v[1] / vl + rng.range(-j, j)) * dist, target[2] + (v[2] / vl) * dist];
    if (pos[2] < target[2] + 2 * scale) pos[2] = target[2] + 2 * scale;
  } else {
    const az = rng.range(0, 2 * Math.PI);
    const el = (rng.range(25, 85) * Math.PI) / 180;
    const dist = rng.range(4, 25) * scale;
    pos = [target[0] + Math.cos(az) * Math.cos(el) * dist, target[1] + Math.sin(az) * Math.cos(el) * dist, target[2] + Math.sin(el) * dist];
  }
  const color = lightColor(rng);
  const amb = rng.range(0.12, 0.55);
  const refDistance = Math.hypot(pos[0] - target[0], pos[1] - target[1], pos[2] - target[2]);
  // Ambient light is bluish-neutral skylight or the same tint as the lamp.
  const ambTint: Vec3 = rng.next() < 0.5 ? color : [0.95, 1, 1.08];
  // Lamp disc from a bare bulb (a fraction of a degree) to a window or softbox (several degrees).
  const radius = (rng.range(0.3, 4) * Math.PI) / 180;
  return { pos, color, ambient: [ambTint[0] * amb, ambTint[1] * amb, ambTint[2] * amb], refDistance, radius };
}

/**
 * A broad light's soft shadow round each die's foot (`Occlusion`), with chance `knobs.broadLight`.
 * Nothing is drawn when that chance is 0, so renders without it keep their bytes.
 */
export function randomOcclusion(rng: Rng, knobs: Pick<SynthKnobs, 'broadLight'>): Occlusion | undefined {
  if (knobs.broadLight <= 0 || rng.next() >= knobs.broadLight) return undefined;
  // As measured on the real Catan frames (room light): the table at a die's foot is up to 60 %
  // darker than the tray, back to the tray's level about half a die's side away; on the side
  // away from the lamp only (the side towards it shows none).
  return { strength: rng.range(0.35, 0.7), reach: rng.range(0.15, 0.35), shift: rng.range(0.1, 0.45) };
}

/**
 * The camera's roll for a uniform draw in [0, 2π): the draw itself when any roll goes
 * (maxRollDeg 180, so such renders keep their bytes), else the draw mapped onto ±maxRollDeg.
 * Roll 0 keeps world up pointing up in the picture (lookAt), as in a photo.
 */
export function cameraRoll(draw: number, maxRollDeg: number): number {
  if (maxRollDeg >= 180) return draw;
  return (draw / Math.PI - 1) * ((maxRollDeg * Math.PI) / 180);
}

/** A camera `dist` away from `target`, `obliqueDeg` off vertical, rolled by `roll` (upright: lookAt's). */
export function randomCamera(rng: Rng, target: Vec3, dist: number, obliqueDeg: number, focal: number, cx: number, cy: number, roll: number, upright = false): Camera {
  const th = (obliqueDeg * Math.PI) / 180;
  const az = rng.range(0, 2 * Math.PI);
  const pos: Vec3 = [target[0] + Math.sin(th) * Math.cos(az) * dist, target[1] + Math.sin(th) * Math.sin(az) * dist, target[2] + Math.cos(th) * dist];
  return lookAt(pos, target, focal, cx, cy, roll, upright);
}

/** Exposure, white balance and camera degradations for one shot. */
export function randomResponse(rng: Rng, knobs: SynthKnobs, light: Light, target: Vec3): CameraResponse {
  const lx = light.pos[0] - target[0], ly = light.pos[1] - target[1], lz = light.pos[2] - target[2];
  const d = Math.hypot(lx, ly, lz);
  const lum = (c: Vec3) => 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  const irradiance = lum(light.color) * Math.max(0.05, lz / d) * ((light.refDistance * light.refDistance) / (d * d)) + lum(light.ambient);
  const exposure = rng.range(0.55, 1.05) / irradiance;
  // Auto white balance corrects most, not all, of the light's tint.
  const correct = rng.range(0.4, 1);
  const gain = [0, 1, 2].map((c) => (1 + (1 / light.color[c]! - 1) * correct) * rng.range(0.96, 1.04)) as [number, number, number];
  const blur = knobs.blur * rng.next() ** 1.5;
  return {
    exposure,
    gain,
    saturation: rng.range(0.7, 1.35),
    contrast: rng.range(0.85, 1.2),
    blur,
    noise: knobs.noise * rng.next(),
    sharpen: rng.next() < 0.3 ? rng.range(0.2, 0.8) : 0,
    jpegQuality: rng.next() < 0.75 ? rng.int(Math.min(95, knobs.jpegMin), 95) : 0,
  };
}
