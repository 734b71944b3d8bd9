/**
 * Contact sheets for looking at the renderer with your own eyes:
 *   tsx scripts/render-sheet.ts art    [--out DIR]   face art: our rasteriser next to librsvg's
 *   tsx scripts/render-sheet.ts crops  [--out DIR] [--seed S] [--count N]   rendered 64×64 crops
 *   tsx scripts/render-sheet.ts scenes [--out DIR] [--seed S] [--count N]   whole tray scenes
 * Writes PNGs (default to /tmp/clew-render) and prints their paths.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import sharp from 'sharp';
import { createRng } from '../shared/rng.js';
import { FACE_CLASSES } from '../vision/faces/classes.js';
import { faceArt, randomArtStyle } from '../vision/faces/art.js';
import { rasterizeArt } from '../vision/faces/raster.js';
import { classIcon, iconToSvg } from '../vision/faces/svg.js';
import { encodePng } from '../vision/image/decode.js';
import { createImage, paste } from '../vision/image/image.js';
import type { RgbImage } from '../vision/types.js';
import { decodeImage } from '../vision/image/decode.js';
import { squareCrop } from '../vision/image/crop.js';
import { resize } from '../vision/image/resize.js';
import { renderCrop } from '../vision/synth/crop.js';
import { renderScene } from '../vision/synth/scene.js';
import { readdir, readFile } from 'node:fs/promises';

const SHEETS = ['art', 'crops', 'compare', 'scenes'];
const program = new Command().name('render-sheet').argument('<what>', SHEETS.join(' | '))
  .option('--out <dir>', 'output folder', '/tmp/clew-render')
  .option('--seed <seed>', 'seed', '1')
  .option('--count <n>', 'how many', '0')
  .parse();
const what = program.args[0];
const opts = program.opts<{ out: string; seed: string; count: string }>();
if (!SHEETS.includes(what ?? '')) {
  process.stderr.write(`render-sheet: unknown sheet "${what}" (${SHEETS.join(', ')})\n`);
  process.exit(2);
}
await mkdir(opts.out, { recursive: true });

function grid(tiles: RgbImage[], cols: number, gap = 2): RgbImage {
  const tw = Math.max(...tiles.map((t) => t.width));
  const th = Math.max(...tiles.map((t) => t.height));
  const rows = Math.ceil(tiles.length / cols);
  const out = createImage(cols * (tw + gap) + gap, rows * (th + gap) + gap, [60, 60, 60]);
  tiles.forEach((t, i) => paste(out, t, gap + (i % cols) * (tw + gap), gap + Math.floor(i / cols) * (th + gap)));
  return out;
}

function maskTile(mask: Float32Array, size: number): RgbImage {
  const img = createImage(size, size);
  for (let i = 0; i < size * size; i++) {
    const v = Math.round(255 * (1 - mask[i]!));
    img.data[i * 3] = img.data[i * 3 + 1] = img.data[i * 3 + 2] = v;
  }
  return img;
}

async function svgTile(svg: string): Promise<RgbImage> {
  const { data, info } = await sharp(Buffer.from(svg)).flatten({ background: '#808080' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
}

async function save(name: string, image: RgbImage): Promise<void> {
  const file = path.join(opts.out, name);
  await writeFile(file, await encodePng(image));
  process.stdout.write(file + '\n');
}

if (what === 'art') {
  const tiles: RgbImage[] = [];
  for (const cls of FACE_CLASSES) {
    tiles.push(maskTile(rasterizeArt(faceArt(cls), 96), 96));
    tiles.push(await svgTile(iconToSvg(classIcon(cls, { body: 'ivory', ink: 'black' }), { size: 96 })));
  }
  await save('art-default.png', grid(tiles, 14));
  const rng = createRng(opts.seed);
  const styled: RgbImage[] = [];
  for (let k = 0; k < 4; k++) {
    for (const cls of FACE_CLASSES) styled.push(maskTile(rasterizeArt(faceArt(cls, randomArtStyle(rng)), 64), 64));
  }
  await save('art-styles.png', grid(styled, 14));
} else if (what === 'crops') {
  const rng = createRng(opts.seed);
  const n = Number(opts.count) || 96;
  const tiles: RgbImage[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) tiles.push(renderCrop(rng, FACE_CLASSES[i % FACE_CLASSES.length]!));
  process.stderr.write(`${((performance.now() - t0) / n).toFixed(2)} ms per crop\n`);
  await save('crops.png', grid(tiles, 12));
  // Pips only (the Catan comparison) and real crops beside them when the folder is there.
  const pipTiles: RgbImage[] = [];
  for (let i = 0; i < 48; i++) pipTiles.push(renderCrop(rng, `pips-${(i % 6) + 1}` as 'pips-1', { sets: ['d6'], palette: i < 24 ? ['red', 'yellow'] : undefined }));
  await save('crops-d6.png', grid(pipTiles, 12));
  const realDir = process.env.CLEW_REAL_CROPS;
  if (realDir) {
    const files = (await readdir(realDir)).filter((f) => f.endsWith('.jpg')).sort().slice(0, 48);
    const real: RgbImage[] = [];
    for (const f of files) {
      const img = await decodeImage(new Uint8Array(await readFile(path.join(realDir, f))));
      // The real crops are already cut around the die: frame them the same way (the whole image as the box).
      real.push(squareCrop(img, [0, 0, img.width, img.height], { size: 64, scale: 1 }));
    }
    await save('crops-real.png', grid(real, 12));
  }
} else if (what === 'compare') {
  // Real crops (top rows) and synthetic d6 crops in the same colours (bottom rows), 2× size.
  const realDir = process.env.CLEW_REAL_CROPS;
  if (!realDir) throw new Error('compare: set CLEW_REAL_CROPS to a folder of real die crops');
  const rng = createRng(opts.seed);
  const files = (await readdir(realDir)).filter((f) => f.endsWith('.jpg')).sort();
  const tiles: RgbImage[] = [];
  for (let i = 0; i < 8; i++) {
    const f = files[Math.floor((i * files.length) / 8)]!;
    const img = await decodeImage(new Uint8Array(await readFile(path.join(realDir, f))));
    tiles.push(resize(squareCrop(img, [0, 0, img.width, img.height], { size: 64, scale: 1.15 }), 128, 128));
  }
  for (let i = 0; i < 16; i++) {
    tiles.push(resize(renderCrop(rng, `pips-${(i % 6) + 1}` as 'pips-1', { sets: ['d6'], palette: ['red', 'yellow', 'ivory'] }), 128, 128));
  }
  await save('compare.png', grid(tiles, 8));
} else if (what === 'scenes') {
  const rng = createRng(opts.seed);
  const n = Number(opts.count) || 4;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const scene = renderScene(rng, { dice: [1, 6, 12, 25][i % 4] });
    process.stderr.write(`scene ${i}: ${scene.dice.length} dice, ${(performance.now() - t0).toFixed(0)} ms\n`);
    // Draw the true boxes in green.
    const img = scene.image;
    for (const d of scene.dice) {
      const [x0, y0, x1, y1] = d.box.map(Math.round) as [number, number, number, number];
      for (let x = x0; x < x1; x++) for (const y of [y0, y1 - 1]) img.data.set([0, 255, 0], (y * img.width + x) * 3);
      for (let y = y0; y < y1; y++) for (const x of [x0, x1 - 1]) img.data.set([0, 255, 0], (y * img.width + x) * 3);
    }
    await save(`scene-${i}.png`, img);
  }
}
