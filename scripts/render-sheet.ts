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

const program = new Command().name('render-sheet').argument('<what>', 'art | crops | scenes')
  .option('--out <dir>', 'output folder', '/tmp/clew-render')
  .option('--seed <seed>', 'seed', '1')
  .option('--count <n>', 'how many', '0')
  .parse();
const what = program.args[0];
const opts = program.opts<{ out: string; seed: string; count: string }>();
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
} else {
  throw new Error(`render-sheet: unknown sheet "${what}" (art, crops, scenes)`);
}
