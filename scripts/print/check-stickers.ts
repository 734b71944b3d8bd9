/**
 * Do dice made with our stickers read right? Renders every sticker face from the same paths the
 * sticker PDF prints (stickerFacePaths), stuck on a 16 mm die (1 mm of the die's own colour round
 * it), at camera scale (64 px) in a few turns and blurs, and reads them with the real dice reader:
 *
 *   npx tsx scripts/print/check-stickers.ts [--set cozy-organ] [--body white] [--die red]
 *
 * Prints one line per set: faces read right / faces shown. Needs the dice model (vision/model/weights).
 */
import { Command } from 'commander';
import sharp from 'sharp';
import { DICE_SETS, DICE_SET_IDS, type DiceSetId } from '../../shared/dice.js';
import { cssColor } from '../../vision/faces/svg.js';
import { loadDiceReader } from '../../vision/reader.js';
import type { RgbImage } from '../../vision/types.js';
import { stickerFacePaths } from './stickers-pdf.js';

const program = new Command().option('--set <set>', 'one dice set (default: all)').option('--body <colour>', 'sticker colour', 'white').option('--die <colour>', 'the die under the sticker', 'red').parse();
const o = program.opts<{ set?: string; body: string; die: string }>();
const sets = (o.set ? [o.set] : DICE_SET_IDS) as DiceSetId[];

async function render(set: DiceSetId, face: string, turn: number, blur: number): Promise<RgbImage> {
  const paths = stickerFacePaths(set, face, '#1d1d1f', cssColor(o.body));
  // A 16 mm die face (its own colour, rounded), the 14 mm sticker centred on it, a little table round it.
  const body = paths.map((p) => `<path d="${p.d}" fill="${p.fill}"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="-14 -14 128 128"><rect x="-14" y="-14" width="128" height="128" fill="#7a6a58"/><rect x="-7.1" y="-7.1" width="114.2" height="114.2" rx="16" fill="${cssColor(o.die)}"/><g transform="rotate(${turn} 50 50)">${body}</g></svg>`;
  let img = sharp(Buffer.from(svg)).removeAlpha();
  if (blur > 0) img = img.blur(blur);
  const { data, info } = await img.resize(64, 64).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

const reader = await loadDiceReader();
try {
  for (const set of sets) {
    const crops: RgbImage[] = [];
    const truth: string[] = [];
    for (const face of DICE_SETS[set].faces)
      for (const turn of [0, 90, 180, 270, 17])
        for (const blur of [0, 1.5]) {
          crops.push(await render(set, face, turn, blur));
          truth.push(face);
        }
    const read = await reader.readCrops(crops, { sets: [set] });
    const right = read.filter((r, i) => r.face === truth[i]).length;
    const wrong = read.map((r, i) => (r.face === truth[i] ? '' : `${truth[i]}→${r.face}`)).filter(Boolean);
    process.stdout.write(`${set.padEnd(11)} ${right}/${read.length} read right${wrong.length ? `; wrong: ${[...new Set(wrong)].join(', ')}` : ''}\n`);
  }
} finally {
  reader.dispose();
}
