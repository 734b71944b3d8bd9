/**
 * Photographs a sheet texture: the page bends (a curl lifting one edge and a gentle bow), a pinhole
 * camera looks at it from an angle, a mesh of the page is rasterised into the frame over a table,
 * then light (a falloff across the frame, shading of the bent paper, a soft shadow, a colour cast),
 * lens blur, sensor noise and JPEG. Seeded; pure pixel work on typed arrays, sharp for blur and JPEG.
 */
import sharp from 'sharp';
import type { Rng } from '../../../shared/rng.js';

export interface Texture {
  /** RGB, row-major. */
  data: Uint8Array;
  width: number;
  height: number;
  /** Texture pixels per page millimetre. */
  ppm: number;
}

export interface CameraSetup {
  width: number;
  height: number;
  /** Focal length in pixels. */
  f: number;
  /** Rotation (row-major 3x3) and translation: camera = R * page + t (page mm, z up from the table). */
  R: number[];
  t: [number, number, number];
  /** Page size in mm (page coordinates are centred: u in ±w/2, v in ±h/2). */
  page: { w: number; h: number };
  curl: { axis: 'u' | 'v'; sign: 1 | -1; lift: number; start: number; bow: number };
}

export interface Look {
  /** 0..1 light falloff across the frame. */
  falloff: number;
  falloffAngle: number;
  shadow: { strength: number; angle: number; offset: number; softness: number } | null;
  cast: [number, number, number];
  exposure: number;
  blur: number;
  noise: number;
  quality: number;
  table: [number, number, number];
}

function matMul(a: number[], b: number[]): number[] {
  const o = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) o[r * 3 + c]! += a[r * 3 + k]! * b[k * 3 + c]!;
  return o;
}
const rotX = (a: number) => [1, 0, 0, 0, Math.cos(a), -Math.sin(a), 0, Math.sin(a), Math.cos(a)];
const rotY = (a: number) => [Math.cos(a), 0, Math.sin(a), 0, 1, 0, -Math.sin(a), 0, Math.cos(a)];
const rotZ = (a: number) => [Math.cos(a), -Math.sin(a), 0, Math.sin(a), Math.cos(a), 0, 0, 0, 1];

/** Height of the bent page above the table at page point (u, v). */
export function pageHeight(c: CameraSetup['curl'], page: { w: number; h: number }, u: number, v: number): number {
  const s = c.axis === 'u' ? (c.sign * u) / (page.w / 2) : (c.sign * v) / (page.h / 2);
  const lift = s > c.start ? c.lift * ((s - c.start) / (1 - c.start)) ** 2 : 0;
  const other = c.axis === 'u' ? v / (page.h / 2) : u / (page.w / 2);
  return lift + c.bow * (1 - other * other);
}

export function project(cam: CameraSetup, u: number, v: number): [number, number, number] {
  const z = pageHeight(cam.curl, cam.page, u, v);
  const R = cam.R;
  const x = R[0]! * u + R[1]! * v + R[2]! * z + cam.t[0];
  const y = R[3]! * u + R[4]! * v + R[5]! * z + cam.t[1];
  const d = R[6]! * u + R[7]! * v + R[8]! * z + cam.t[2];
  return [cam.f * (x / d) + cam.width / 2, cam.f * (y / d) + cam.height / 2, d];
}

/**
 * A random camera that keeps `keep` (page-mm rectangle that must be in view: the printed frame)
 * inside the photo with a margin, the page covering a random share of it.
 */
export function randomCamera(rng: Rng, width: number, height: number, page: { w: number; h: number }, keep: { x0: number; y0: number; x1: number; y1: number }, difficulty = 1): CameraSetup {
  const f = (Math.max(width, height) / 2) / Math.tan(((rng.range(55, 72) / 2) * Math.PI) / 180);
  // Mostly upright or sideways, sometimes at any angle.
  const base = rng.pick([0, 0, 0, Math.PI / 2, -Math.PI / 2, Math.PI]);
  const roll = rng.next() < 0.7 ? base + rng.normal() * 0.08 : rng.range(-Math.PI, Math.PI);
  const pitch = rng.normal() * 0.2 * difficulty;
  const yaw = rng.normal() * 0.16 * difficulty;
  const R0 = [1, 0, 0, 0, 1, 0, 0, 0, -1];
  const R = matMul(rotX(Math.max(-0.5, Math.min(0.5, pitch))), matMul(rotY(Math.max(-0.4, Math.min(0.4, yaw))), matMul(rotZ(roll), R0)));
  const curl: CameraSetup['curl'] = {
    axis: rng.next() < 0.5 ? 'u' : 'v',
    sign: rng.next() < 0.5 ? 1 : -1,
    lift: rng.next() < 0.6 ? rng.range(0, 14) * difficulty : rng.range(0, 3),
    start: rng.range(0.2, 0.7),
    bow: rng.range(-2, 5) * difficulty,
  };
  const cam: CameraSetup = { width, height, f, R, t: [0, 0, 1000], page, curl };
  const coverage = rng.range(0.66, 0.93);
  // Find the distance that makes the kept rectangle span `coverage` of the frame, then nudge it
  // off-centre as far as the margins allow.
  const corners: [number, number][] = [];
  for (let i = 0; i <= 8; i++) {
    corners.push([keep.x0 + ((keep.x1 - keep.x0) * i) / 8, keep.y0], [keep.x0 + ((keep.x1 - keep.x0) * i) / 8, keep.y1]);
    corners.push([keep.x0, keep.y0 + ((keep.y1 - keep.y0) * i) / 8], [keep.x1, keep.y0 + ((keep.y1 - keep.y0) * i) / 8]);
  }
  const extent = () => {
    let x0 = Infinity;
    let y0 = Infinity;
    let x1 = -Infinity;
    let y1 = -Infinity;
    for (const [u, v] of corners) {
      const [x, y] = project(cam, u, v);
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
    return { x0, y0, x1, y1 };
  };
  for (let it = 0; it < 6; it++) {
    const e = extent();
    const scale = Math.max((e.x1 - e.x0) / (width * coverage), (e.y1 - e.y0) / (height * coverage));
    cam.t[2] *= scale;
    const e2 = extent();
    cam.t[0] -= (((e2.x0 + e2.x1) / 2 - width / 2) * cam.t[2]) / f;
    cam.t[1] -= (((e2.y0 + e2.y1) / 2 - height / 2) * cam.t[2]) / f;
  }
  const e = extent();
  const slackX = Math.max(0, (width - (e.x1 - e.x0)) / 2 - width * 0.02);
  const slackY = Math.max(0, (height - (e.y1 - e.y0)) / 2 - height * 0.02);
  cam.t[0] += (rng.range(-1, 1) * slackX * cam.t[2]) / f;
  cam.t[1] += (rng.range(-1, 1) * slackY * cam.t[2]) / f;
  return cam;
}

export function randomLook(rng: Rng, difficulty = 1): Look {
  const warm = rng.normal() * 0.05;
  return {
    falloff: rng.range(0, 0.35) * difficulty,
    falloffAngle: rng.range(0, Math.PI * 2),
    shadow: rng.next() < 0.45 * difficulty ? { strength: rng.range(0.15, 0.5), angle: rng.range(0, Math.PI * 2), offset: rng.range(-0.35, 0.35), softness: rng.range(0.015, 0.12) } : null,
    cast: [1 + warm, 1, 1 - warm * 1.2],
    exposure: rng.range(0.72, 1.02),
    blur: rng.next() < 0.3 ? rng.range(0.8, 1.8) * difficulty : rng.range(0.2, 0.9),
    noise: rng.range(0.8, 4),
    quality: rng.int(62, 94),
    table: rng.pick([
      [120, 85, 55],
      [160, 120, 80],
      [70, 70, 72],
      [200, 196, 188],
      [95, 110, 90],
      [45, 40, 38],
    ] as [number, number, number][]),
  };
}

/** The light over the frame (falloff, vignette, a soft shadow edge, exposure) at a pixel. */
function lightAt(look: Look, W: number, H: number, x: number, y: number): number {
  const diag = Math.hypot(W, H);
  const cx = (x - W / 2) / diag;
  const cy = (y - H / 2) / diag;
  let k = look.exposure * (1 - look.falloff * (0.5 + cx * Math.cos(look.falloffAngle) + cy * Math.sin(look.falloffAngle))) * (1 - 0.25 * (cx * cx + cy * cy));
  const sh = look.shadow;
  if (sh) {
    const d = cx * Math.cos(sh.angle) + cy * Math.sin(sh.angle) - sh.offset;
    const t = Math.min(1, Math.max(0, 0.5 + d / sh.softness));
    k *= 1 - sh.strength * t * t * (3 - 2 * t);
  }
  return k;
}

/** Rasterises the page mesh into the frame over a table, lit; returns 8-bit RGB. */
export function renderPhoto(rng: Rng, tex: Texture, cam: CameraSetup, look: Look): Uint8Array {
  const { width: W, height: H } = cam;
  const out = new Uint8Array(W * H * 3);
  // The light is smooth: computed on a coarse grid and interpolated.
  const STEP = 8;
  const LW = Math.ceil(W / STEP) + 2;
  const LH = Math.ceil(H / STEP) + 2;
  const lightGrid = new Float32Array(LW * LH);
  for (let j = 0; j < LH; j++) for (let i = 0; i < LW; i++) lightGrid[j * LW + i] = lightAt(look, W, H, i * STEP, j * STEP);
  const lightRow = new Float32Array(W);
  const lightRowAt = (y: number) => {
    const gy = y / STEP;
    const j = Math.floor(gy);
    const fy = gy - j;
    for (let x = 0; x < W; x++) {
      const gx = x / STEP;
      const i = Math.floor(gx);
      const fx = gx - i;
      const a = lightGrid[j * LW + i]!;
      const b = lightGrid[j * LW + i + 1]!;
      const c = lightGrid[(j + 1) * LW + i]!;
      const d = lightGrid[(j + 1) * LW + i + 1]!;
      lightRow[x] = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
    }
  };
  // The table: its colour with a wood-like grain along one direction.
  const [tr, tg, tb] = look.table;
  const grainAngle = rng.range(0, Math.PI);
  const gx = Math.cos(grainAngle);
  const gy = Math.sin(grainAngle);
  const ph = rng.range(0, 100);
  const M = Math.max(W, H);
  const grainLut = new Float32Array(4 * M + 2);
  for (let k = 0; k < grainLut.length; k++) {
    const s = (k - 2 * M) / M;
    grainLut[k] = 1 + 0.06 * Math.sin(s * 60 + ph) + 0.04 * Math.sin(s * 211 + ph * 2);
  }
  const cr = look.cast[0];
  const cg = look.cast[1];
  const cb = look.cast[2];
  for (let y = 0; y < H; y++) {
    lightRowAt(y);
    for (let x = 0; x < W; x++) {
      const v = grainLut[Math.round(x * gx + y * gy) + 2 * M]! * lightRow[x]!;
      const i = (y * W + x) * 3;
      out[i] = Math.min(255, tr * v * cr);
      out[i + 1] = Math.min(255, tg * v * cg);
      out[i + 2] = Math.min(255, tb * v * cb);
    }
  }

  // The page mesh: vertices with texture coordinates and a shading factor from the bent surface.
  const NU = 40;
  const NV = 56;
  const { w: pw, h: ph2 } = cam.page;
  const vx = new Float32Array((NU + 1) * (NV + 1));
  const vy = new Float32Array((NU + 1) * (NV + 1));
  const vs = new Float32Array((NU + 1) * (NV + 1));
  const light = [rng.normal() * 0.3, rng.normal() * 0.3, 1];
  const ll = Math.hypot(light[0]!, light[1]!, light[2]!);
  for (let j = 0; j <= NV; j++)
    for (let i = 0; i <= NU; i++) {
      const u = -pw / 2 + (pw * i) / NU;
      const v = -ph2 / 2 + (ph2 * j) / NV;
      const [x, y] = project(cam, u, v);
      const k = j * (NU + 1) + i;
      vx[k] = x;
      vy[k] = y;
      const e = 0.5;
      const dzu = (pageHeight(cam.curl, cam.page, u + e, v) - pageHeight(cam.curl, cam.page, u - e, v)) / (2 * e);
      const dzv = (pageHeight(cam.curl, cam.page, u, v + e) - pageHeight(cam.curl, cam.page, u, v - e)) / (2 * e);
      const nl = Math.hypot(dzu, dzv, 1);
      const lambert = (-dzu * light[0]! - dzv * light[1]! + light[2]!) / (nl * ll);
      vs[k] = 0.55 + 0.45 * Math.max(0, lambert);
    }
  const T = tex.data;
  const TW = tex.width;
  const TH = tex.height;
  const ppm = tex.ppm;
  const tri = (a: number, b: number, c: number, ua: number, va: number, ub: number, vb: number, uc: number, vc: number) => {
    const ax = vx[a]!;
    const ay = vy[a]!;
    const bx = vx[b]!;
    const by = vy[b]!;
    const cx = vx[c]!;
    const cy = vy[c]!;
    const den = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy);
    if (Math.abs(den) < 1e-9) return;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(W - 1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(H - 1, Math.ceil(Math.max(ay, by, cy)));
    const sa = vs[a]!;
    const sb = vs[b]!;
    const sc = vs[c]!;
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      const gyy = y / STEP;
      const gj = Math.floor(gyy);
      const fy = gyy - gj;
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        const l1 = ((by - cy) * (px - cx) + (cx - bx) * (py - cy)) / den;
        const l2 = ((cy - ay) * (px - cx) + (ax - cx) * (py - cy)) / den;
        const l3 = 1 - l1 - l2;
        if (l1 < -1e-6 || l2 < -1e-6 || l3 < -1e-6) continue;
        let tu = (l1 * ua + l2 * ub + l3 * uc) * ppm;
        let tv = (l1 * va + l2 * vb + l3 * vc) * ppm;
        tu = tu < 0 ? 0 : tu > TW - 1.001 ? TW - 1.001 : tu;
        tv = tv < 0 ? 0 : tv > TH - 1.001 ? TH - 1.001 : tv;
        const ix = tu | 0;
        const iy = tv | 0;
        const fx = tu - ix;
        const fyy = tv - iy;
        const i00 = (iy * TW + ix) * 3;
        const i01 = i00 + TW * 3;
        const gx2 = x / STEP;
        const gi = Math.floor(gx2);
        const gfx = gx2 - gi;
        const li = gj * LW + gi;
        const lk = (lightGrid[li]! * (1 - gfx) + lightGrid[li + 1]! * gfx) * (1 - fy) + (lightGrid[li + LW]! * (1 - gfx) + lightGrid[li + LW + 1]! * gfx) * fy;
        const k = (l1 * sa + l2 * sb + l3 * sc) * lk;
        const w00 = (1 - fx) * (1 - fyy);
        const w10 = fx * (1 - fyy);
        const w01 = (1 - fx) * fyy;
        const w11 = fx * fyy;
        const i = (y * W + x) * 3;
        out[i] = Math.min(255, (T[i00]! * w00 + T[i00 + 3]! * w10 + T[i01]! * w01 + T[i01 + 3]! * w11) * k * cr);
        out[i + 1] = Math.min(255, (T[i00 + 1]! * w00 + T[i00 + 4]! * w10 + T[i01 + 1]! * w01 + T[i01 + 4]! * w11) * k * cg);
        out[i + 2] = Math.min(255, (T[i00 + 2]! * w00 + T[i00 + 5]! * w10 + T[i01 + 2]! * w01 + T[i01 + 5]! * w11) * k * cb);
      }
    }
  };
  for (let j = 0; j < NV; j++)
    for (let i = 0; i < NU; i++) {
      const k00 = j * (NU + 1) + i;
      const k10 = k00 + 1;
      const k01 = k00 + NU + 1;
      const k11 = k01 + 1;
      const u0 = (pw * i) / NU;
      const u1 = (pw * (i + 1)) / NU;
      const v0 = (ph2 * j) / NV;
      const v1 = (ph2 * (j + 1)) / NV;
      tri(k00, k10, k11, u0, v0, u1, v0, u1, v1);
      tri(k00, k11, k01, u0, v0, u1, v1, u0, v1);
    }
  return out;
}

/** Blur (the lens), noise (the sensor), JPEG (the phone). */
export async function develop(rng: Rng, rgb: Uint8Array, width: number, height: number, look: Look): Promise<Uint8Array> {
  let data: Uint8Array = rgb;
  if (look.blur >= 0.3) data = new Uint8Array(await sharp(rgb, { raw: { width, height, channels: 3 } }).blur(look.blur).raw().toBuffer());
  const table = new Float32Array(4096);
  for (let i = 0; i < table.length; i++) table[i] = rng.normal() * look.noise;
  let seed = rng.int(0, 4095);
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const v = data[i]! + table[(seed >>> 8) & 4095]!;
    data[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  return new Uint8Array(await sharp(data, { raw: { width, height, channels: 3 } }).jpeg({ quality: look.quality, chromaSubsampling: '4:2:0' }).toBuffer());
}
