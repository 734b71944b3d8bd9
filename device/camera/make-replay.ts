/**
 * Writes a shipped replay sequence: a dice tray photographed from above, rendered by the vision
 * renderer (vision/synth renderScene), where the dice slide in, tumbling and blurred, then lie
 * still, with fresh sensor noise on every frame. Seeded: the same bytes on every run. A scene of
 * several seeds renders one roll per seed, in turn in one folder (frames 00-11 the first roll,
 * 12-23 the second…), each from its own seed's stream, so adding a roll leaves the earlier
 * rolls' bytes as they were. `scene.json` beside the frames records each settled die (set,
 * face, colour, box) as ground truth for the dice reader: `settled` for a one-roll scene,
 * `rolls[]` (seed, frames, settled) for several. Two scenes are shipped (REPLAY_SCENES):
 *
 * - `four-d6` → device/camera/replay/: four plain d6 in two or more colours (the tests' tray; the
 *   committed frames came from an older renderer, and the same seed now renders other dice, so
 *   regenerating it changes what the tests that name it see);
 * - `worm-and-cozy` → device/camera/replay-worm-and-cozy/: two of the default game's rolls, three
 *   d6 of which exactly one is red (its shape die), so `npm start`'s first screen has a usable
 *   roll; `scene.json` lists the rolls, and the replay camera plays one and holds it still until
 *   the table wants dice, then the next (the camera does not offer the dice it read last again:
 *   with one roll looping the demo table got no second roll; with two, a waiting roll switched).
 *
 *   npx tsx device/camera/make-replay.ts [--scene four-d6|worm-and-cozy] [--seed S]… [--out DIR]
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { createRng, type Rng } from '../../shared/rng.js';
import { renderScene } from '../../vision/synth/index.js';

const W = 640;
const H = 480;
const MOVING = 6;
const STILL = 6;

/** What a replay shows: how many d6, in which colours, and which colourings of them will do. */
export interface ReplayScene {
  /** One seed per roll, played in this order. */
  seeds: readonly string[];
  /** Folder under device/camera/ the sequence is committed in. */
  folder: string;
  dice: number;
  palette: string[];
  /** Whether the settled dice's colours (in scene order) make the roll this replay is for. */
  colorsFit: (colors: readonly string[]) => boolean;
  /** scene.json's description, given the frames' moving and still ranges ("frames 00-05, moving" / "frames 06-11"; for several rolls, "frames 00-05 and 12-17, moving"). */
  describe: (moving: string, still: string) => string;
}

const regenerate = (scene: string) => `npx tsx device/camera/make-replay.ts${scene === 'four-d6' ? '' : ` --scene ${scene}`}`;

export const REPLAY_SCENES = {
  'four-d6': {
    seeds: ['clew-replay-2'],
    folder: 'replay',
    dice: 4,
    palette: ['white', 'red', 'blue', 'yellow', 'green'],
    colorsFit: (colors) => new Set(colors).size >= 2,
    describe: (moving, still) => `Four d6 slide into a felt tray (${moving}) and lie still (${still}). Rendered by vision/synth renderScene; regenerate with: ${regenerate('four-d6')}`,
  },
  // Worm & Cozy with standard dice (the default table): the red d6 is the shape die (every
  // bundled chapter's shapeDieColor), the two organ dice are any other colour. Two rolls: the
  // camera does not offer a settle on the dice it read last, so one roll looped is used once.
  'worm-and-cozy': {
    seeds: ['clew-replay-cozy-1', 'clew-replay-cozy-5'],
    folder: 'replay-worm-and-cozy',
    dice: 3,
    palette: ['red', 'white'],
    colorsFit: (colors) => colors.filter((c) => c === 'red').length === 1,
    describe: (moving, still) =>
      `Worm & Cozy's rolls, one after the other: three d6, one red (the shape die) and two organ dice, slide into a felt tray (${moving}) and lie still (${still}). The default replay of npm start: the replay camera plays one roll and holds it still until the table wants dice, then plays the next. Rendered by vision/synth renderScene; regenerate with: ${regenerate('worm-and-cozy')}`,
  },
} as const satisfies Record<string, ReplayScene>;
export type ReplaySceneName = keyof typeof REPLAY_SCENES;

type Raw = { data: Buffer; width: number; height: number };

const encode = (img: Raw, quality = 80) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).jpeg({ quality }).toBuffer();

function addNoise(img: Raw, rng: Rng, sigma: number): Raw {
  const data = Buffer.from(img.data);
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i]! + Math.round(rng.normal() * sigma)));
  return { ...img, data };
}

/**
 * The table without the dice: each die's box (and a small margin) is filled by blending the table
 * just outside it, left–right and top–bottom, plus noise (the felt is smooth, so this is invisible).
 */
function emptyTable(img: Raw, boxes: [number, number, number, number][], rng: Rng): { table: Raw; felt: [number, number, number] } {
  const data = Buffer.from(img.data);
  const at = (x: number, y: number, c: number) => img.data[(Math.max(0, Math.min(H - 1, y)) * W + Math.max(0, Math.min(W - 1, x))) * 3 + c]!;
  const feltSamples: number[][] = [[], [], []];
  for (const [bx0, by0, bx1, by1] of boxes) {
    const x0 = bx0 - 4, y0 = by0 - 4, x1 = bx1 + 4, y1 = by1 + 4;
    for (let y = Math.max(0, y0); y < Math.min(H, y1); y++) {
      for (let x = Math.max(0, x0); x < Math.min(W, x1); x++) {
        const tx = (x - x0) / (x1 - x0), ty = (y - y0) / (y1 - y0);
        for (let c = 0; c < 3; c++) {
          const horizontal = at(x0 - 1, y, c) * (1 - tx) + at(x1, y, c) * tx;
          const vertical = at(x, y0 - 1, c) * (1 - ty) + at(x, y1, c) * ty;
          data[(y * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round((horizontal + vertical) / 2 + rng.normal() * 1.5)));
        }
      }
    }
    for (let c = 0; c < 3; c++) feltSamples[c]!.push(at(x0 - 1, by0, c), at(x1, by1, c));
  }
  const felt = feltSamples.map((v) => v.sort((p, q) => p - q)[Math.floor(v.length / 2)] ?? 0) as [number, number, number];
  return { table: { ...img, data }, felt };
}

const apart = (a: number[], b: number[], gap: number) => a[2]! + gap <= b[0]! || b[2]! + gap <= a[0]! || a[3]! + gap <= b[1]! || b[3]! + gap <= a[1]!;

/** Renders tried per seed (the first that fits is taken, so a larger cap leaves earlier picks as they were). */
const ATTEMPTS = 200;

/** The first scene of the seed's stream with all its dice, apart (each slides in on its own), in colours that fit the spec. */
function pickScene(rng: Rng, spec: ReplayScene) {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const scene = renderScene(rng.fork(), { width: W, height: H, dice: spec.dice, sets: ['d6'], difficulty: 0.15, dieSize: [60, 80], table: 'felt', palette: [...spec.palette] });
    const boxes = scene.dice.map((d) => d.box);
    const separate = boxes.every((a, i) => boxes.every((b, j) => i === j || apart(a, b, 12)));
    if (scene.dice.length === spec.dice && separate && spec.colorsFit(scene.dice.map((d) => d.color))) return scene;
  }
  throw new Error(`no suitable scene in ${ATTEMPTS} renders; try another seed`);
}

/** A die's patch with the table made transparent (alpha ramps with the distance from the felt colour). */
async function cutOut(img: Raw, [x0, y0, x1, y1]: [number, number, number, number], felt: [number, number, number]): Promise<Buffer> {
  const w = x1 - x0;
  const h = y1 - y0;
  const rgba = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const src = ((y0 + y) * W + (x0 + x)) * 3;
      const dst = (y * w + x) * 4;
      let dist = 0;
      for (let c = 0; c < 3; c++) {
        rgba[dst + c] = img.data[src + c]!;
        dist += Math.abs(img.data[src + c]! - felt[c]!);
      }
      rgba[dst + 3] = Math.max(0, Math.min(255, Math.round(((dist - 25) / 50) * 255)));
    }
  }
  return sharp(rgba, { raw: { width: w, height: h, channels: 4 } }).png().toBuffer();
}

/** A settled die as scene.json records it. */
export interface SettledDie {
  set: string;
  face: string;
  color: string;
  tilted: boolean;
  box: number[];
}

/** One roll of a several-roll scene.json: its seed, its first and last frame ("12", "23"), its settled dice. */
export interface ReplayRollTruth {
  seed: string;
  frames: [string, string];
  settled: SettledDie[];
}

/** scene.json: one roll's `seed` and `settled`, or several rolls' `rolls`; movingFrames and stillFrames are per roll. */
export type ReplayTruth = { description: string; size: [number, number]; movingFrames: number; stillFrames: number } & ({ seed: string; settled: SettledDie[] } | { rolls: ReplayRollTruth[] });

const two = (n: number) => String(n).padStart(2, '0');

export async function makeReplay(outDir: string, spec: ReplayScene = REPLAY_SCENES['four-d6'], seeds: readonly string[] = spec.seeds): Promise<void> {
  if (seeds.length === 0) throw new Error('a replay needs at least one seed');
  await mkdir(outDir, { recursive: true });
  for (const name of await readdir(outDir)) if (/\.(jpe?g|png)$|^scene\.json$/.test(name)) await rm(path.join(outDir, name));
  const perRoll = MOVING + STILL;
  const rolls: ReplayRollTruth[] = [];
  for (const [i, seed] of seeds.entries()) {
    const first = i * perRoll;
    rolls.push({ seed, frames: [two(first), two(first + perRoll - 1)], settled: await writeRoll(outDir, spec, seed, first) });
  }
  const ranges = (from: number, count: number) => rolls.map((_, i) => `${two(i * perRoll + from)}-${two(i * perRoll + from + count - 1)}`).join(' and ');
  const frames = { size: [W, H] as [number, number], movingFrames: MOVING, stillFrames: STILL };
  const description = spec.describe(`frames ${ranges(0, MOVING)}, moving`, `frames ${ranges(MOVING, STILL)}`);
  // One roll keeps the shape scene.json always had (replay/ is committed so).
  const truth: ReplayTruth = rolls.length === 1 ? { description, seed: rolls[0]!.seed, ...frames, settled: rolls[0]!.settled } : { description, ...frames, rolls };
  await writeFile(path.join(outDir, 'scene.json'), JSON.stringify(truth, null, 2) + '\n');
}

/** Writes one roll's frames, numbered from `first`, from its seed's own stream; says its settled dice. */
async function writeRoll(outDir: string, spec: ReplayScene, seed: string, first: number): Promise<SettledDie[]> {
  const rng = createRng(seed);
  const scene = pickScene(rng, spec);
  const settled: Raw = { data: Buffer.from(scene.image.data), width: W, height: H };
  const boxes = scene.dice.map((d) => d.box.map(Math.round) as [number, number, number, number]);
  const { table, felt } = emptyTable(settled, boxes, rng);

  // Each die comes in from the left along its own line, spinning less and slowing down (ease-out).
  const paths = boxes.map(() => ({ dx: rng.range(180, 320), dy: rng.range(-70, 70), spin: rng.range(-200, 200) }));
  const patches = await Promise.all(boxes.map((box) => cutOut(settled, box, felt)));
  for (let f = 0; f < MOVING + STILL; f++) {
    let frame: Raw;
    if (f < MOVING) {
      const left = 1 - f / MOVING;
      const remaining = left * left * left;
      const overlays = await Promise.all(
        boxes.map(async ([x0, y0, x1, y1], i) => {
          const p = paths[i]!;
          const angle = p.spin * remaining;
          const moved = await sharp(patches[i]!)
            .rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
            .blur(0.3 + 4 * remaining)
            .png()
            .toBuffer({ resolveWithObject: true });
          const cx = (x0 + x1) / 2 - p.dx * remaining;
          const cy = (y0 + y1) / 2 + p.dy * remaining;
          const leftPx = Math.round(cx - moved.info.width / 2);
          const topPx = Math.round(cy - moved.info.height / 2);
          return { input: moved.data, left: leftPx, top: topPx, w: moved.info.width, h: moved.info.height };
        }),
      );
      // A die that would stick out of the frame is held at its edge (it rolls in from there).
      const placed = overlays.map((o) => ({ input: o.input, left: Math.max(0, Math.min(W - o.w, o.left)), top: Math.max(0, Math.min(H - o.h, o.top)) }));
      const composed = await sharp(table.data, { raw: { width: W, height: H, channels: 3 } })
        .composite(placed)
        .removeAlpha()
        .raw()
        .toBuffer();
      frame = { data: composed, width: W, height: H };
    } else frame = settled;
    const jpeg = await encode(addNoise(frame, rng, 2.5));
    await writeFile(path.join(outDir, `frame-${two(first + f)}.jpg`), jpeg);
  }
  return scene.dice.map((d) => ({ set: d.set, face: d.face, color: d.color, tilted: d.tilted, box: d.box.map((v) => Math.round(v)) }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ options: { scene: { type: 'string', default: 'four-d6' }, seed: { type: 'string', multiple: true }, out: { type: 'string' } }, allowPositionals: true });
  const name = values.scene;
  if (!Object.hasOwn(REPLAY_SCENES, name)) throw new Error(`--scene must be one of ${Object.keys(REPLAY_SCENES).join(', ')}, got "${name}"`);
  const spec: ReplayScene = REPLAY_SCENES[name as ReplaySceneName];
  // A bare folder argument is the output folder, as before --out.
  const out = values.out ?? positionals[0] ?? fileURLToPath(new URL(`./${spec.folder}/`, import.meta.url));
  // --seed once per roll replaces the scene's seeds.
  await makeReplay(out, spec, values.seed ?? spec.seeds);
  process.stdout.write(`wrote the ${name} replay frames to ${out}\n`);
}
