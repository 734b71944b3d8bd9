/**
 * The core of the synthetic renderer: ray casting rounded-cube dice standing on a textured table,
 * seen through a pinhole camera, lit by a point light with soft table shadows, die-on-die shadows,
 * sky ambient, gloss highlights (glare), engraved or printed face art, marbled and translucent
 * bodies. Each die's six faces carry their own art, so tilted and oblique views show true side
 * faces in perspective. Output is linear light plus, per pixel, which die (if any) covers it, from
 * which the caller takes tight boxes of every die's visible silhouette.
 */
import type { DiceSetId } from '../../shared/dice.js';
import type { FaceClass } from '../faces/classes.js';
import { inkMask, sampleMask } from './artCache.js';
import { project, roundedBoxHit, roundedBoxNormal, type Camera, type Mat3, type Vec3 } from './geometry.js';
import type { DieLook, TableLook } from './looks.js';
import { fbm3 } from './noise.js';

/** A die placed in the world. Local faces are ordered +x, −x, +y, −y, +z (top), −z. */
export interface SynthDie {
  set: DiceSetId;
  /** The face label on top (what a reader should report). */
  face: string;
  /** The visual class on top. */
  top: FaceClass;
  faces: FaceClass[];
  /** Quarter turns of each face's art. */
  turns: number[];
  look: DieLook;
  center: Vec3;
  /** Local → world rotation. */
  rot: Mat3;
  /** Half the side length (world units). */
  half: number;
  /** Tilt of the top face away from horizontal, radians. */
  tilt: number;
}

export interface Light {
  pos: Vec3;
  color: Vec3;
  ambient: Vec3;
  /** Distance at which the light's intensity is `color` (falls off with the square beyond). */
  refDistance: number;
  /** Angular radius of the lamp (radians): the size of its mirror image, the glare. */
  radius: number;
}

export interface World {
  dice: SynthDie[];
  table: TableLook;
  light: Light;
  camera: Camera;
  /** 0..1: how dark die shadows on the table are. */
  shadowStrength: number;
  /** Penumbra width multiplier (1 = typical room light). */
  shadowSoftness: number;
  /** A broad, diffuse light's soft shadow round each die's foot (absent: none). */
  occlusion?: Occlusion;
}

/**
 * The soft shadow a die casts under a broad light (a ceiling lamp's shade, a window, a room): the
 * table round its foot is darkened, most at the foot and fading over a fraction of a die's side,
 * on the side away from the light. A point light's cast shadow alone leaves the table next to a
 * die as bright as the rest; real photos of dice under room light show this dark rim, and a
 * locator that takes it for part of the die draws its box too big.
 */
export interface Occlusion {
  /** 0..1: how much of the light is lost right at the die's foot. */
  strength: number;
  /** How far it fades, in die sides (the darkening falls to 1/e this far from the foot). */
  reach: number;
  /** How far the shadow's centre is pushed away from the light, in die sides. */
  shift: number;
}

export interface TraceResult {
  width: number;
  height: number;
  /** Linear RGB, 3 floats per pixel. */
  rgb: Float32Array;
  /** Per pixel: index of the die covering most of it, or −1 for the table. */
  owner: Int16Array;
}

interface Prepared {
  die: SynthDie;
  r: Mat3;
  /** Camera position in the die's local frame. */
  lo: Vec3;
  b: number;
  rad: number;
  /** Squared radius of the die's bounding sphere. */
  bound2: number;
  masks: Float32Array[];
  /** Screen box of the die (window pixels). */
  box: [number, number, number, number];
  /** Screen box of its table shadow and contact darkening. */
  shadowBox: [number, number, number, number];
  /** Shadow capsule on the table: base point, tip, radius. */
  bx: number; by: number; sx: number; sy: number; srad: number;
  /** Centre of the broad light's shadow (`Occlusion`), pushed away from the light. */
  ox: number; oy: number;
  /** Indices of dice close enough to cast shadows on this one. */
  near: number[];
}

const TILE = 16;
/** A broad light's shadow is drawn out to this many of its fade lengths (e^-3: 5 % left). */
const OCCLUSION_FADES = 3;

// Local aliases: under tsx/esbuild's CommonJS interop every use of an imported binding is a
// property getter, which costs real time in per-pixel loops.
const boxHit = roundedBoxHit;
const boxNormal = roundedBoxNormal;
const maskAt = sampleMask;
const marbleNoise = fbm3;

function screenBox(cam: Camera, pts: Vec3[], x0: number, y0: number): [number, number, number, number] {
  let a = Infinity, b = Infinity, c = -Infinity, d = -Infinity;
  for (const p of pts) {
    const q = project(cam, p);
    if (!q) return [-1e9, -1e9, 1e9, 1e9];
    a = Math.min(a, q[0]); b = Math.min(b, q[1]); c = Math.max(c, q[0]); d = Math.max(d, q[1]);
  }
  return [a - x0 - 1.5, b - y0 - 1.5, c - x0 + 1.5, d - y0 + 1.5];
}

/** World-space sample points bounding a die's silhouette (corner spheres of the rounded cube). */
export function dieHullPoints(die: SynthDie, cam: Camera): Vec3[] {
  const rad = die.half * die.look.rounding;
  const b = die.half - rad;
  const m = die.rot;
  const pts: Vec3[] = [];
  const dirs: Vec3[] = [cam.right, cam.down, cam.forward];
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
    const lx = sx * b, ly = sy * b, lz = sz * b;
    const c: Vec3 = [die.center[0] + m[0] * lx + m[1] * ly + m[2] * lz, die.center[1] + m[3] * lx + m[4] * ly + m[5] * lz, die.center[2] + m[6] * lx + m[7] * ly + m[8] * lz];
    for (const d of dirs) for (const s of [-1, 1]) pts.push([c[0] + s * rad * d[0], c[1] + s * rad * d[1], c[2] + s * rad * d[2]]);
  }
  return pts;
}

function prepare(world: World, x0: number, y0: number): Prepared[] {
  const cam = world.camera;
  const L = world.light.pos;
  const out = world.dice.map((die): Prepared => {
    const m = die.rot;
    const rad = die.half * die.look.rounding;
    const d: Vec3 = [cam.pos[0] - die.center[0], cam.pos[1] - die.center[1], cam.pos[2] - die.center[2]];
    const lo: Vec3 = [m[0] * d[0] + m[3] * d[1] + m[6] * d[2], m[1] * d[0] + m[4] * d[1] + m[7] * d[2], m[2] * d[0] + m[5] * d[1] + m[8] * d[2]];
    // Shadow capsule: from the die's foot to where the light projects its centre onto the table.
    const cz = Math.max(die.center[2], 0.05);
    const k = cz / Math.max(L[2] - cz, 0.05);
    const bx = die.center[0], by = die.center[1];
    let sx = bx + (bx - L[0]) * k, sy = by + (by - L[1]) * k;
    const len = Math.sqrt((sx - bx) ** 2 + (sy - by) ** 2);
    const maxLen = die.half * 6;
    if (len > maxLen) {
      sx = bx + ((sx - bx) * maxLen) / len;
      sy = by + ((sy - by) * maxLen) / len;
    }
    const srad = die.half * 1.02;
    // Away from the light, on the table: where a broad light's shadow leans.
    const away = Math.hypot(bx - L[0], by - L[1]) || 1;
    const occ = world.occlusion;
    const lean = occ ? 2 * die.half * occ.shift : 0;
    const ox = bx + ((bx - L[0]) / away) * lean, oy = by + ((by - L[1]) / away) * lean;
    const occReach = occ ? lean + die.half * (1 + 2 * occ.reach * OCCLUSION_FADES) : 0;
    const reach = Math.max(srad + die.half * 1.6 * world.shadowSoftness + die.half * 0.8, occReach);
    const shadowPts: Vec3[] = [];
    for (const [px, py] of [[bx, by], [sx, sy]] as const) {
      for (const [dx, dy] of [[-1, -1], [1, -1], [-1, 1], [1, 1]] as const) shadowPts.push([px + dx * reach, py + dy * reach, 0]);
    }
    return {
      die, r: m, lo, b: die.half - rad, rad, bound2: 3 * die.half * die.half,
      masks: die.faces.map((cls) => inkMask(cls, die.look.style)),
      box: screenBox(cam, dieHullPoints(die, cam), x0, y0),
      shadowBox: screenBox(cam, shadowPts, x0, y0),
      bx, by, sx, sy, srad, ox, oy,
      near: [],
    };
  });
  for (let i = 0; i < out.length; i++) {
    for (let j = 0; j < out.length; j++) {
      if (i === j) continue;
      const a = out[i]!.die, b = out[j]!.die;
      const dist = Math.sqrt((a.center[0] - b.center[0]) ** 2 + (a.center[1] - b.center[1]) ** 2 + (a.center[2] - b.center[2]) ** 2);
      if (dist < (a.half + b.half) * 3.2) out[i]!.near.push(j);
    }
  }
  return out;
}

const FACE_U: readonly Vec3[] = [[0, 1, 0], [0, -1, 0], [-1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]];
const FACE_V: readonly Vec3[] = [[0, 0, -1], [0, 0, -1], [0, 0, -1], [0, 0, -1], [0, -1, 0], [0, 1, 0]];

function faceIndex(px: number, py: number, pz: number): number {
  const ax = Math.abs(px), ay = Math.abs(py), az = Math.abs(pz);
  if (az >= ax && az >= ay) return pz >= 0 ? 4 : 5;
  if (ax >= ay) return px >= 0 ? 0 : 1;
  return py >= 0 ? 2 : 3;
}

/** Art coordinates (u, v in 0..1, turned) of a local point on a given face. */
function faceUv(f: number, turn: number, half: number, px: number, py: number, pz: number, out: number[]): void {
  const U = FACE_U[f]!, V = FACE_V[f]!;
  const u = 0.5 + (U[0]! * px + U[1]! * py + U[2]! * pz) / (2 * half);
  const v = 0.5 + (V[0]! * px + V[1]! * py + V[2]! * pz) / (2 * half);
  if (turn === 0) {
    out[0] = u;
    out[1] = v;
  } else if (turn === 1) {
    out[0] = v;
    out[1] = 1 - u;
  } else if (turn === 2) {
    out[0] = 1 - u;
    out[1] = 1 - v;
  } else {
    out[0] = 1 - v;
    out[1] = u;
  }
}

/** Trace a window of the camera image: pixel (i, j) of the window is image pixel (x0 + i, y0 + j). */
export function traceWindow(world: World, x0: number, y0: number, width: number, height: number): TraceResult {
  const cam = world.camera;
  const dice = prepare(world, x0, y0);
  const tilesX = Math.ceil(width / TILE), tilesY = Math.ceil(height / TILE);
  const hitTiles: number[][] = Array.from({ length: tilesX * tilesY }, () => []);
  const shadowTiles: number[][] = Array.from({ length: tilesX * tilesY }, () => []);
  const bin = (lists: number[][], box: readonly number[], k: number) => {
    const tx0 = Math.max(0, Math.floor(box[0]! / TILE)), ty0 = Math.max(0, Math.floor(box[1]! / TILE));
    const tx1 = Math.min(tilesX - 1, Math.floor(box[2]! / TILE)), ty1 = Math.min(tilesY - 1, Math.floor(box[3]! / TILE));
    for (let ty = ty0; ty <= ty1; ty++) for (let tx = tx0; tx <= tx1; tx++) lists[ty * tilesX + tx]!.push(k);
  };
  dice.forEach((d, k) => {
    bin(hitTiles, d.box, k);
    bin(shadowTiles, d.shadowBox, k);
  });

  const L = world.light;
  const refD2 = L.refDistance * L.refDistance;
  // The lamp's disc: full glare within its angular radius, fading out to 1.5 radii.
  const lampInner = Math.cos(L.radius), lampOuter = Math.cos(L.radius * 1.5);
  const tableRgb = new Float64Array(3);
  const nrm: Vec3 = [0, 0, 0];
  const uv = [0, 0];
  const col = new Float64Array(3);

  /** Shade one ray through image point (x, y); writes col, returns the die index or −1. */
  const shade = (x: number, y: number): number => {
    const ix = Math.min(tilesX - 1, Math.max(0, Math.floor((x - x0) / TILE)));
    const iy = Math.min(tilesY - 1, Math.max(0, Math.floor((y - y0) / TILE)));
    const tile = iy * tilesX + ix;
    const fx = (x - cam.cx) / cam.focal, fy = (y - cam.cy) / cam.focal;
    let dx = cam.forward[0] + fx * cam.right[0] + fy * cam.down[0];
    let dy = cam.forward[1] + fx * cam.right[1] + fy * cam.down[1];
    let dz = cam.forward[2] + fx * cam.right[2] + fy * cam.down[2];
    const dl = Math.sqrt(dx * dx + dy * dy + dz * dz);
    dx /= dl; dy /= dl; dz /= dl;
    let best = -1, bestT = Infinity;
    const wx = x - x0, wy = y - y0;
    const hits = hitTiles[tile]!;
    for (let q = 0; q < hits.length; q++) {
      const k = hits[q]!;
      const d = dice[k]!;
      if (wx < d.box[0] || wx > d.box[2] || wy < d.box[1] || wy > d.box[3]) continue;
      const m = d.r;
      const rx = m[0] * dx + m[3] * dy + m[6] * dz, ry = m[1] * dx + m[4] * dy + m[7] * dz, rz = m[2] * dx + m[5] * dy + m[8] * dz;
      const t = boxHit(d.lo[0], d.lo[1], d.lo[2], rx, ry, rz, d.b, d.rad);
      if (t > 0 && t < bestT) {
        bestT = t;
        best = k;
      }
    }
    const px = cam.pos[0] + dx * bestT, py = cam.pos[1] + dy * bestT, pz = cam.pos[2] + dz * bestT;
    if (best >= 0) {
      shadeDie(dice, best, bestT, dx, dy, dz, px, py, pz);
      return best;
    }
    shadeTable(tile, dx, dy, dz);
    return -1;
  };

  const shadeDie = (all: Prepared[], k: number, t: number, dx: number, dy: number, dz: number, px: number, py: number, pz: number) => {
    const d = all[k]!;
    const m = d.r;
    const look = d.die.look;
    const rdx = m[0] * dx + m[3] * dy + m[6] * dz, rdy = m[1] * dx + m[4] * dy + m[7] * dz, rdz = m[2] * dx + m[5] * dy + m[8] * dz;
    const lx = d.lo[0] + t * rdx, ly = d.lo[1] + t * rdy, lz = d.lo[2] + t * rdz;
    boxNormal(lx, ly, lz, d.b, nrm);
    const nx = m[0] * nrm[0] + m[1] * nrm[1] + m[2] * nrm[2];
    const ny = m[3] * nrm[0] + m[4] * nrm[1] + m[5] * nrm[2];
    const nz = m[6] * nrm[0] + m[7] * nrm[1] + m[8] * nrm[2];
    // Light direction, in world and local frames.
    let Lx = L.pos[0] - px, Ly = L.pos[1] - py, Lz = L.pos[2] - pz;
    const L2 = Lx * Lx + Ly * Ly + Lz * Lz;
    const Ll = Math.sqrt(L2);
    Lx /= Ll; Ly /= Ll; Lz /= Ll;
    const falloff = refD2 / L2;
    // Body colour (marbled swirl in the die's own coordinates).
    let br = look.body[0], bg = look.body[1], bb = look.body[2];
    if (look.marble) {
      // Two-tone swirls: a noise field warped by another, thresholded softly.
      const mb = look.marble;
      const s = mb.freq / (2 * d.die.half);
      const wx = lx * s, wy = ly * s, wz = lz * s;
      const warp = mb.turbulence * (marbleNoise(wx * 0.5, wy * 0.5, wz * 0.5, mb.seed + 1, 1) - 0.5);
      const q = marbleNoise(wx + warp, wy - warp, wz + 0.5 * warp, mb.seed, 2);
      const e = 0.5 / mb.sharpness;
      let w = (q - 0.5 + e) / (2 * e);
      w = w <= 0 ? 0 : w >= 1 ? 1 : w * w * (3 - 2 * w);
      br += (mb.color[0] - br) * w; bg += (mb.color[1] - bg) * w; bb += (mb.color[2] - bb) * w;
    }
    // Face art.
    const f = faceIndex(lx, ly, lz);
    faceUv(f, d.die.turns[f]!, d.die.half, lx, ly, lz, uv);
    const mask = d.masks[f]!;
    let ink = maskAt(mask, uv[0]!, uv[1]!);
    let inkShade = 1;
    if (ink > 0.001 && look.engraved) {
      // Recessed art: where stepping toward the light leaves the art, the wall shades the floor.
      const llx = m[0] * Lx + m[3] * Ly + m[6] * Lz, lly = m[1] * Lx + m[4] * Ly + m[7] * Lz, llz = m[2] * Lx + m[5] * Ly + m[8] * Lz;
      const nl = llx * nrm[0] + lly * nrm[1] + llz * nrm[2];
      const depth = d.die.half * 0.09 / Math.max(0.25, nl);
      const tx = (llx - nl * nrm[0]) * depth, ty = (lly - nl * nrm[1]) * depth, tz = (llz - nl * nrm[2]) * depth;
      faceUv(f, d.die.turns[f]!, d.die.half, lx + tx, ly + ty, lz + tz, uv);
      const ahead = maskAt(mask, uv[0]!, uv[1]!);
      inkShade = 1 - 0.65 * Math.max(0, 1 - ahead);
      ink = Math.min(1, ink * 1.05);
    }
    const ar = br + (look.ink[0] * inkShade - br) * ink;
    const ag = bg + (look.ink[1] * inkShade - bg) * ink;
    const ab = bb + (look.ink[2] * inkShade - bb) * ink;
    // Direct light, with die-on-die shadows.
    const ndl = nx * Lx + ny * Ly + nz * Lz;
    const tr = look.translucency;
    let diffuse = tr > 0 ? Math.max(0, (ndl + 0.5 * tr) / (1 + 0.5 * tr)) : Math.max(0, ndl);
    let lit = 1;
    if (ndl > 0 && d.near.length > 0) {
      const ox = px + nx * 1e-3 * d.die.half, oy = py + ny * 1e-3 * d.die.half, oz = pz + nz * 1e-3 * d.die.half;
      for (let q = 0; q < d.near.length; q++) {
        const o = all[d.near[q]!]!;
        const cx = ox - o.die.center[0], cy = oy - o.die.center[1], cz = oz - o.die.center[2];
        // Cheap rejection first: the ray must pass within the die's bounding sphere, ahead of us.
        const along = -(cx * Lx + cy * Ly + cz * Lz);
        if (along < 0) continue;
        const perp2 = cx * cx + cy * cy + cz * cz - along * along;
        if (perp2 > o.bound2) continue;
        const om = o.r;
        const lox = om[0] * cx + om[3] * cy + om[6] * cz, loy = om[1] * cx + om[4] * cy + om[7] * cz, loz = om[2] * cx + om[5] * cy + om[8] * cz;
        const rlx = om[0] * Lx + om[3] * Ly + om[6] * Lz, rly = om[1] * Lx + om[4] * Ly + om[7] * Lz, rlz = om[2] * Lx + om[5] * Ly + om[8] * Lz;
        const th = boxHit(lox, loy, loz, rlx, rly, rlz, o.b, o.rad);
        if (th > 0 && th < Ll) {
          lit = 1 - 0.85 * world.shadowStrength;
          break;
        }
      }
    }
    diffuse *= lit * falloff;
    // Gloss: the lamp mirrored in the surface (a glare blob the size of the lamp's disc, which on
    // a small die can cover a pip or half a face) plus a broad sheen on the rounded edges.
    let vx = cam.pos[0] - px, vy = cam.pos[1] - py, vz = cam.pos[2] - pz;
    const vl = Math.sqrt(vx * vx + vy * vy + vz * vz);
    vx /= vl; vy /= vl; vz /= vl;
    let spec = 0;
    if (ndl > 0 && look.gloss > 0) {
      const ndv = nx * vx + ny * vy + nz * vz;
      const rlx = 2 * ndv * nx - vx, rly = 2 * ndv * ny - vy, rlz = 2 * ndv * nz - vz;
      const cosRL = rlx * Lx + rly * Ly + rlz * Lz;
      if (cosRL > lampOuter) {
        const t = cosRL >= lampInner ? 1 : (cosRL - lampOuter) / (lampInner - lampOuter);
        spec = t * t * (3 - 2 * t) * 2.5;
      }
      let hx = Lx + vx, hy = Ly + vy, hz = Lz + vz;
      const hl = Math.sqrt(hx * hx + hy * hy + hz * hz);
      hx /= hl; hy /= hl; hz /= hl;
      const ndh = nx * hx + ny * hy + nz * hz;
      // (ndh below 0.6 gives under 1e-3 of the peak for any shininess used: skip the pow.)
      if (ndh > 0.6) spec += 0.35 * Math.pow(ndh, look.shininess);
      spec *= look.gloss * lit * falloff;
    }
    const sky = 0.45 + 0.55 * (0.5 + 0.5 * nz);
    const glow = tr * 0.25 * falloff;
    col[0] = ar * (L.color[0] * (diffuse + glow) + L.ambient[0] * sky) + L.color[0] * spec;
    col[1] = ag * (L.color[1] * (diffuse + glow) + L.ambient[1] * sky) + L.color[1] * spec;
    col[2] = ab * (L.color[2] * (diffuse + glow) + L.ambient[2] * sky) + L.color[2] * spec;
  };

  const occlusion = world.occlusion;
  const shadeTable = (tile: number, dx: number, dy: number, dz: number) => {
    if (dz >= -1e-6) {
      col[0] = col[1] = col[2] = 0.02;
      return;
    }
    const t = -cam.pos[2] / dz;
    const px = cam.pos[0] + dx * t, py = cam.pos[1] + dy * t;
    world.table.sample(px, py, tableRgb);
    let Lx = L.pos[0] - px, Ly = L.pos[1] - py;
    const Lz = L.pos[2];
    const L2 = Lx * Lx + Ly * Ly + Lz * Lz;
    const Ll = Math.sqrt(L2);
    const falloff = refD2 / L2;
    let direct = Math.max(0, Lz / Ll) * falloff;
    let ambient = 1;
    const shadows = shadowTiles[tile]!;
    for (let q = 0; q < shadows.length; q++) {
      const d = dice[shadows[q]!]!;
      // Distance to the shadow capsule.
      const ex = d.sx - d.bx, ey = d.sy - d.by;
      const e2 = ex * ex + ey * ey;
      const s = e2 > 0 ? Math.max(0, Math.min(1, ((px - d.bx) * ex + (py - d.by) * ey) / e2)) : 0;
      const qx = d.bx + ex * s - px, qy = d.by + ey * s - py;
      const dist = Math.sqrt(qx * qx + qy * qy) - d.srad;
      const pen = d.die.half * (0.12 + 1.0 * s) * world.shadowSoftness + 1e-3;
      if (dist < pen) {
        const tt = Math.max(0, Math.min(1, (dist + pen) / (2 * pen)));
        const occ = 1 - tt * tt * (3 - 2 * tt);
        direct *= 1 - world.shadowStrength * occ;
      }
      // Contact darkening right around the die's foot.
      const fd = Math.sqrt((px - d.bx) ** 2 + (py - d.by) ** 2) - d.die.half;
      if (fd < d.die.half * 0.8) ambient *= 1 - 0.5 * Math.exp(-Math.max(0, fd) / (d.die.half * 0.18));
      if (occlusion) {
        // The broad light's shadow: all light, direct and ambient, fades in towards the foot.
        const od = Math.sqrt((px - d.ox) ** 2 + (py - d.oy) ** 2) - d.die.half;
        const fall = 2 * d.die.half * occlusion.reach;
        if (od < fall * OCCLUSION_FADES) {
          const keep = 1 - occlusion.strength * Math.exp(-Math.max(0, od) / fall);
          direct *= keep;
          ambient *= keep;
        }
      }
    }
    // Lx, Ly normalised only for the highlight term.
    Lx /= Ll; Ly /= Ll;
    let spec = 0;
    if (world.table.gloss > 0) {
      // The lamp mirrored in a glossy table: reflect the view ray (flip z) and compare with the light.
      const vl = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const cosRL = (dx * Lx + dy * Ly - dz * (Lz / Ll)) / vl;
      if (cosRL > lampOuter) {
        const t = cosRL >= lampInner ? 1 : (cosRL - lampOuter) / (lampInner - lampOuter);
        spec = world.table.gloss * t * t * (3 - 2 * t) * 2.5 * direct;
      }
    }
    for (let c = 0; c < 3; c++) col[c] = tableRgb[c]! * (L.color[c]! * direct + L.ambient[c]! * ambient) + L.color[c]! * spec;
  };

  const rgb = new Float32Array(width * height * 3);
  const owner = new Int16Array(width * height);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const o = j * width + i;
      owner[o] = shade(x0 + i + 0.5, y0 + j + 0.5);
      rgb[o * 3] = col[0]!;
      rgb[o * 3 + 1] = col[1]!;
      rgb[o * 3 + 2] = col[2]!;
    }
  }
  // Anti-aliasing where the covering die changes: four rotated-grid samples per edge pixel.
  const SUB_X = [-0.125, 0.375, 0.125, -0.375], SUB_Y = [-0.375, -0.125, 0.375, 0.125];
  const edge = new Uint8Array(width * height);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const o = j * width + i;
      const w = owner[o]!;
      if ((i + 1 < width && owner[o + 1] !== w) || (j + 1 < height && owner[o + width] !== w)) {
        edge[o] = 1;
        if (i + 1 < width) edge[o + 1] = 1;
        if (j + 1 < height) edge[o + width] = 1;
      }
    }
  }
  const seen = [0, 0, 0, 0];
  for (let o = 0; o < width * height; o++) {
    if (!edge[o]) continue;
    const i = o % width, j = (o - i) / width;
    let r = 0, g = 0, b = 0;
    for (let s = 0; s < 4; s++) {
      seen[s] = shade(x0 + i + 0.5 + SUB_X[s]!, y0 + j + 0.5 + SUB_Y[s]!);
      r += col[0]!; g += col[1]!; b += col[2]!;
    }
    rgb[o * 3] = r / 4;
    rgb[o * 3 + 1] = g / 4;
    rgb[o * 3 + 2] = b / 4;
    // The pixel belongs to a die when at least half its samples see it (ties: the centre's die).
    let bestK = -1, bestN = 0;
    for (let s = 0; s < 4; s++) {
      const k = seen[s]!;
      if (k < 0) continue;
      let n = 0;
      for (let t = 0; t < 4; t++) if (seen[t] === k) n++;
      if (n > bestN || (n === bestN && k === owner[o])) {
        bestK = k;
        bestN = n;
      }
    }
    owner[o] = bestN >= 2 ? bestK : -1;
  }
  return { width, height, rgb, owner };
}

/** Tight boxes [x0, y0, x1, y1] (window pixel edges) of each die's visible pixels; null if unseen. */
export function ownerBoxes(result: TraceResult, count: number): ([number, number, number, number] | null)[] {
  const boxes: ([number, number, number, number] | null)[] = Array.from({ length: count }, () => null);
  const { width, height, owner } = result;
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const k = owner[j * width + i]!;
      if (k < 0) continue;
      const b = boxes[k];
      if (!b) boxes[k] = [i, j, i + 1, j + 1];
      else {
        if (i < b[0]) b[0] = i;
        if (j < b[1]) b[1] = j;
        if (i + 1 > b[2]) b[2] = i + 1;
        if (j + 1 > b[3]) b[3] = j + 1;
      }
    }
  }
  return boxes;
}
