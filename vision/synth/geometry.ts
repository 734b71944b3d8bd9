/**
 * 3-D geometry of dice: rotations, the rounded-cube ray intersection (after Iñigo Quilez's
 * analytic rounded-box intersector), its surface normal, and a pinhole camera.
 * Vectors are plain tuples; hot loops in the renderer inline the arithmetic.
 */

export type Vec3 = [number, number, number];
/** Row-major 3×3 rotation matrix; columns are the local axes expressed in world coordinates. */
export type Mat3 = [number, number, number, number, number, number, number, number, number];

export const IDENTITY: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

export function mul(a: Mat3, b: Mat3): Mat3 {
  const o = new Array(9).fill(0) as Mat3;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) o[r * 3 + c] = a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]!;
  }
  return o;
}

/** Rotation by `angle` radians about a unit axis (Rodrigues). */
export function axisAngle(axis: Vec3, angle: number): Mat3 {
  const [x, y, z] = normalize(axis);
  const c = Math.cos(angle), s = Math.sin(angle), t = 1 - c;
  return [t * x * x + c, t * x * y - s * z, t * x * z + s * y, t * x * y + s * z, t * y * y + c, t * y * z - s * x, t * x * z - s * y, t * y * z + s * x, t * z * z + c];
}

export function apply(m: Mat3, v: Vec3): Vec3 {
  return [m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2], m[6] * v[0] + m[7] * v[1] + m[8] * v[2]];
}

/** Mᵀ v (the inverse of a rotation). */
export function applyT(m: Mat3, v: Vec3): Vec3 {
  return [m[0] * v[0] + m[3] * v[1] + m[6] * v[2], m[1] * v[0] + m[4] * v[1] + m[7] * v[2], m[2] * v[0] + m[5] * v[1] + m[8] * v[2]];
}

export function normalize(v: Vec3): Vec3 {
  const l = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export const dot = (a: Vec3, b: Vec3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];

/**
 * Distance t along the ray (ro + t·rd, rd unit) to a rounded box centred at the origin with inner
 * half-size b on every axis and rounding radius r (outer half-size b + r); −1 on a miss.
 */
export function roundedBoxHit(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, b: number, r: number): number {
  const k = b + r;
  // Axis-parallel rays: keep 1/d finite (0 · ∞ would poison the slab test with NaN).
  if (dx === 0) dx = 1e-12;
  if (dy === 0) dy = 1e-12;
  if (dz === 0) dz = 1e-12;
  const mx = 1 / dx, my = 1 / dy, mz = 1 / dz;
  const nx = mx * ox, ny = my * oy, nz = mz * oz;
  const kx = Math.abs(mx) * k, ky = Math.abs(my) * k, kz = Math.abs(mz) * k;
  const tN = Math.max(-nx - kx, -ny - ky, -nz - kz);
  const tF = Math.min(-nx + kx, -ny + ky, -nz + kz);
  if (tN > tF || tF < 0) return -1;
  let t = tN;
  let px = ox + t * dx, py = oy + t * dy, pz = oz + t * dz;
  const sx = px < 0 ? -1 : 1, sy = py < 0 ? -1 : 1, sz = pz < 0 ? -1 : 1;
  // Fold into the first octant.
  ox *= sx; oy *= sy; oz *= sz;
  dx *= sx; dy *= sy; dz *= sz;
  px = px * sx - b; py = py * sy - b; pz = pz * sz - b;
  // On a flat face region of the bounding box: that is the hit.
  if (Math.min(Math.max(px, py), Math.max(py, pz), Math.max(pz, px)) < 0) return t;
  const ocx = ox - b, ocy = oy - b, ocz = oz - b;
  const ddx = dx * dx, ddy = dy * dy, ddz = dz * dz;
  const oox = ocx * ocx, ooy = ocy * ocy, ooz = ocz * ocz;
  const odx = ocx * dx, ody = ocy * dy, odz = ocz * dz;
  const ra2 = r * r;
  t = 1e20;
  {
    const bb = odx + ody + odz;
    const c = oox + ooy + ooz - ra2;
    const h = bb * bb - c;
    if (h > 0) t = -bb - Math.sqrt(h);
  }
  {
    const a = ddy + ddz, bb = ody + odz, c = ooy + ooz - ra2;
    let h = bb * bb - a * c;
    if (h > 0) {
      h = (-bb - Math.sqrt(h)) / a;
      if (h > 0 && h < t && Math.abs(ox + dx * h) < b) t = h;
    }
  }
  {
    const a = ddz + ddx, bb = odz + odx, c = ooz + oox - ra2;
    let h = bb * bb - a * c;
    if (h > 0) {
      h = (-bb - Math.sqrt(h)) / a;
      if (h > 0 && h < t && Math.abs(oy + dy * h) < b) t = h;
    }
  }
  {
    const a = ddx + ddy, bb = odx + ody, c = oox + ooy - ra2;
    let h = bb * bb - a * c;
    if (h > 0) {
      h = (-bb - Math.sqrt(h)) / a;
      if (h > 0 && h < t && Math.abs(oz + dz * h) < b) t = h;
    }
  }
  return t > 1e19 ? -1 : t;
}

/** Outward unit normal of the rounded box at a surface point p (local coordinates). */
export function roundedBoxNormal(px: number, py: number, pz: number, b: number, out: Vec3): Vec3 {
  const qx = Math.max(Math.abs(px) - b, 0), qy = Math.max(Math.abs(py) - b, 0), qz = Math.max(Math.abs(pz) - b, 0);
  const l = Math.sqrt(qx * qx + qy * qy + qz * qz);
  if (l < 1e-9) {
    // Numerically inside the flat part: the dominant axis.
    const ax = Math.abs(px), ay = Math.abs(py), az = Math.abs(pz);
    out[0] = ax >= ay && ax >= az ? Math.sign(px) : 0;
    out[1] = ay > ax && ay >= az ? Math.sign(py) : 0;
    out[2] = az > ax && az > ay ? Math.sign(pz) : 0;
    return out;
  }
  out[0] = (px < 0 ? -qx : qx) / l;
  out[1] = (py < 0 ? -qy : qy) / l;
  out[2] = (pz < 0 ? -qz : qz) / l;
  return out;
}

/**
 * A pinhole camera: position, right/down/forward axes (right-handed: right × down = forward) and
 * focal length in pixels; image point (x, y) relative to the principal point (cx, cy).
 */
export interface Camera {
  pos: Vec3;
  right: Vec3;
  down: Vec3;
  forward: Vec3;
  focal: number;
  cx: number;
  cy: number;
}

/**
 * A camera at `pos` looking at `target`, rolled by `roll` radians about its view axis. Upright:
 * world up points up in the picture at roll 0 however steeply the camera looks down (short of
 * straight down); otherwise a camera within 26° of vertical keeps +y up instead (the renders
 * made so keep their bytes).
 */
export function lookAt(pos: Vec3, target: Vec3, focal: number, cx: number, cy: number, roll = 0, upright = false): Camera {
  const forward = normalize(sub(target, pos));
  const ref: Vec3 = Math.abs(forward[2]) < (upright ? 1 - 1e-9 : 0.9) ? [0, 0, 1] : [0, 1, 0];
  // forward × ref keeps world "up" (or +y, looking straight down) pointing up in the image.
  let right = normalize(cross(forward, ref));
  let down = cross(forward, right);
  if (roll !== 0) {
    const c = Math.cos(roll), s = Math.sin(roll);
    const r2: Vec3 = [right[0] * c + down[0] * s, right[1] * c + down[1] * s, right[2] * c + down[2] * s];
    down = cross(forward, r2);
    right = r2;
  }
  return { pos, right, down, forward, focal, cx, cy };
}

/** Project a world point to image coordinates; `null` behind the camera. */
export function project(cam: Camera, p: Vec3): [number, number] | null {
  const d = sub(p, cam.pos);
  const z = dot(d, cam.forward);
  if (z <= 1e-6) return null;
  return [cam.cx + (cam.focal * dot(d, cam.right)) / z, cam.cy + (cam.focal * dot(d, cam.down)) / z];
}
