/**
 * Writes the default replay sequence (device/camera/replay/): a top-down dice tray where four d6
 * roll in, tumble and settle, then lie still, with sensor noise on every frame. Seeded: the same
 * bytes on every run. `scene.json` beside the frames records the settled faces and boxes.
 *
 *   npx tsx device/camera/make-replay.ts [outDir]
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { DIE_COLORS } from '../../shared/dice.js';
import { createRng } from '../../shared/rng.js';

const W = 640;
const H = 480;
const DIE = 58;
const MOVING = 6;
const STILL = 6;

const PIPS: Record<number, [number, number][]> = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

interface DiePose {
  x: number;
  y: number;
  angle: number;
  face: number;
  color: string;
}

const rgb = (c: readonly [number, number, number]) => `rgb(${c[0]},${c[1]},${c[2]})`;

function dieSvg(d: DiePose, blur: number): string {
  const body = DIE_COLORS[d.color] ?? [235, 235, 230];
  const light = body[0] + body[1] + body[2] > 400;
  const pip = light ? '#111' : '#f4f4f4';
  const s = DIE / 2;
  const step = DIE * 0.27;
  const pips = (PIPS[d.face] ?? []).map(([px, py]) => `<circle cx="${px * step}" cy="${py * step}" r="${DIE * 0.085}" fill="${pip}"/>`).join('');
  return `<g transform="translate(${d.x.toFixed(1)} ${d.y.toFixed(1)}) rotate(${d.angle.toFixed(1)})"${blur ? ` filter="url(#b${blur})"` : ''}>
    <rect x="${-s + 4}" y="${-s + 6}" width="${DIE}" height="${DIE}" rx="9" fill="rgba(0,0,0,0.35)"/>
    <rect x="${-s}" y="${-s}" width="${DIE}" height="${DIE}" rx="9" fill="${rgb(body)}" stroke="rgba(0,0,0,0.35)" stroke-width="1.5"/>
    <rect x="${-s + 5}" y="${-s + 4}" width="${DIE * 0.45}" height="${DIE * 0.18}" rx="5" fill="rgba(255,255,255,0.22)"/>
    ${pips}</g>`;
}

function sceneSvg(dice: DiePose[], blur: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <defs>
    <radialGradient id="felt" cx="50%" cy="45%" r="70%"><stop offset="0" stop-color="#2f7a4a"/><stop offset="1" stop-color="#1d5132"/></radialGradient>
    <linearGradient id="wood" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8a5a2b"/><stop offset="1" stop-color="#5e3b1a"/></linearGradient>
    <filter id="b1"><feGaussianBlur stdDeviation="1.5"/></filter>
    <filter id="b2"><feGaussianBlur stdDeviation="3"/></filter>
  </defs>
  <rect width="${W}" height="${H}" fill="#3a2a1c"/>
  <rect x="30" y="25" width="${W - 60}" height="${H - 50}" rx="18" fill="url(#wood)"/>
  <rect x="58" y="52" width="${W - 116}" height="${H - 104}" rx="10" fill="url(#felt)"/>
  ${dice.map((d) => dieSvg(d, blur)).join('\n')}
</svg>`;
}

export async function makeReplay(outDir: string, seed = 'clew-replay-1'): Promise<void> {
  const rng = createRng(seed);
  const colors = ['white', 'red', 'blue', 'yellow'];
  const settled: DiePose[] = colors.map((color, i) => ({
    x: 150 + i * 110 + rng.range(-15, 15),
    y: 220 + rng.range(-60, 60),
    angle: rng.range(-40, 40),
    face: rng.int(1, 6),
    color,
  }));
  await mkdir(outDir, { recursive: true });
  for (const name of await readdir(outDir)) if (/\.(jpe?g|png)$|^scene\.json$/.test(name)) await rm(path.join(outDir, name));
  for (let f = 0; f < MOVING + STILL; f++) {
    // Moving frames come in from the left and slow down; the last STILL frames are the same pose.
    const t = Math.min(1, f / MOVING);
    const ease = 1 - (1 - t) ** 3;
    const dice = settled.map((d) =>
      f >= MOVING
        ? d
        : {
            ...d,
            x: d.x - (1 - ease) * 260 + rng.range(-6, 6),
            y: d.y + (1 - ease) * rng.range(-80, 80),
            angle: d.angle + (1 - ease) * rng.range(-180, 180),
            face: rng.int(1, 6),
          },
    );
    const blur = f >= MOVING ? 0 : f < MOVING / 2 ? 2 : 1;
    const { data, info } = await sharp(Buffer.from(sceneSvg(dice, blur))).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + Math.round(rng.normal() * 3)));
    const jpeg = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 72 }).toBuffer();
    await writeFile(path.join(outDir, `frame-${String(f).padStart(2, '0')}.jpg`), jpeg);
  }
  const scene = {
    description: 'Four d6 roll into a felt tray (frames 00-05, moving) and lie still (frames 06-11).',
    seed,
    size: [W, H],
    movingFrames: MOVING,
    stillFrames: STILL,
    settled: settled.map((d) => ({
      set: 'd6',
      face: String(d.face),
      color: d.color,
      center: [Math.round(d.x), Math.round(d.y)],
      box: [Math.round(d.x - DIE * 0.71), Math.round(d.y - DIE * 0.71), Math.round(d.x + DIE * 0.71), Math.round(d.y + DIE * 0.71)],
    })),
  };
  await writeFile(path.join(outDir, 'scene.json'), JSON.stringify(scene, null, 2) + '\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? fileURLToPath(new URL('./replay/', import.meta.url));
  await makeReplay(out);
  process.stdout.write(`wrote replay frames to ${out}\n`);
}
