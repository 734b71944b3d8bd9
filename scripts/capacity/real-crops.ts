/**
 * The real photos' crops as the committed net sees them, for scripts/capacity/real-transfer.py:
 * each picture of one die framed as `readCrops` frames it (the die found inside it, framed as
 * loosely as the model was trained), 64×64, in the dataset cache's record format (class, set,
 * 64×64×3 bytes) as DIR/real.bin. Prints the committed net's accuracy on exactly these inputs,
 * one view and no second look, the way capacity.py scores its nets.
 *
 * Evaluation only: nothing here trains on the real photos.
 *
 *   node --import tsx scripts/capacity/real-crops.ts DIR [REAL_DIR (default ../shared/dice-real)]
 *
 * With CUTS="1.3,1.45" it also writes DIR/real-cut1.3.bin …: the same pictures cut looser round
 * their centre and framed whole, as eval:dice's "cut tighter or looser" row frames them.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadClassifier } from '../../vision/model/classifier.js';
import { frameDieImage } from '../../vision/model/framing.js';
import { trainingFraming } from '../../vision/reader.js';
import { decodeImage } from '../../vision/image/decode.js';
import { FACE_CLASSES, classOf } from '../../vision/faces/classes.js';
import { DICE_SET_IDS } from '../../shared/dice.js';
import { bestFace, classMask, maskedSoftmax } from '../../vision/model/postprocess.js';
import { CROP_PIXELS } from '../../vision/model/dataset.js';
import { CROP_SCALE, squareCrop } from '../../vision/image/crop.js';
import type { RgbImage } from '../../vision/types.js';

const [dir, realArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: real-crops.ts DIR [REAL_DIR]');
const real = realArg ?? '../shared/dice-real';
const rows = (await readFile(path.join(real, 'labels.csv'), 'utf8')).trim().split(/\r?\n/).slice(1).map((r) => r.split(','));
const classifier = await loadClassifier();
const scale = classifier.meta.crop.scale * trainingFraming(classifier.meta);
const setIndex = DICE_SET_IDS.indexOf('d6');
const pictures = await Promise.all(rows.map(async ([file]) => decodeImage(new Uint8Array(await readFile(path.join(real, file!))))));
const framed = pictures.map((p) => frameDieImage(p, 'locate', {}, { scale }).crop);
/** The crops in the dataset cache's record format. */
const records = (crops: RgbImage[]): Uint8Array => {
  const out = new Uint8Array(rows.length * (2 + CROP_PIXELS));
  rows.forEach(([, face], i) => {
    out[i * (2 + CROP_PIXELS)] = FACE_CLASSES.indexOf(classOf('d6', face!));
    out[i * (2 + CROP_PIXELS) + 1] = setIndex;
    out.set(crops[i]!.data, i * (2 + CROP_PIXELS) + 2);
  });
  return out;
};
await mkdir(dir, { recursive: true });
await writeFile(path.join(dir, 'real.bin'), records(framed));
for (const cut of (process.env.CUTS ?? '').split(',').filter(Boolean).map(Number)) {
  if (!(cut > 0)) throw new Error(`CUTS: positive factors, got ${process.env.CUTS}`);
  await writeFile(path.join(dir, `real-cut${cut}.bin`), records(pictures.map((c) => squareCrop(c, [0, 0, c.width, c.height], { size: 64, scale: CROP_SCALE * cut }))));
}
const mask = classMask(['d6']);
const { logits } = classifier.score(framed);
const wrong: string[] = [];
logits.forEach((l, i) => {
  const { face } = bestFace(maskedSoftmax(l, mask), ['d6']);
  if (face !== rows[i]![1]) wrong.push(`${path.basename(rows[i]![0]!)} ${rows[i]![1]} as ${face}`);
});
console.log(JSON.stringify({ name: 'committed (tfjs)', real_acc: Math.round((1 - wrong.length / rows.length) * 1e4) / 100, real_n: rows.length, wrong }));
classifier.dispose();
