/**
 * POST /api/dice/read: an uploaded image → the same JSON the dice command line prints for one
 * file. A corrupt or unsupported image is a 400 that says so; no reader is a 503.
 */
import { DIE_COLORS, type DiceSetId } from '../../shared/dice.js';
import { decodeImage } from '../../vision/image/decode.js';
import type { RgbImage } from '../../vision/types.js';
import type { ReaderHolder } from './dice-reader.js';
import type { DiceReadResult } from './http.js';

/** Confidences as the command line prints them: enough digits to compare, no float noise. */
const round = (x: number) => Math.round(x * 1000) / 1000;

export async function readUpload(
  holder: ReaderHolder,
  bytes: Buffer,
  options: { sets: DiceSetId[]; crop: boolean; file: string; palette?: string[] },
): Promise<DiceReadResult> {
  let image: RgbImage;
  try {
    image = await decodeImage(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  } catch (error) {
    return { ok: false, status: 400, code: 'photo/corrupt', message: (error as Error).message.replace(/^decodeImage: /, 'the image could not be read: ') };
  }
  let reader;
  try {
    reader = await holder.get();
  } catch (error) {
    return { ok: false, status: 503, code: 'dice/no-reader', message: (error as Error).message };
  }
  const palette = options.palette ?? Object.keys(DIE_COLORS);
  if (options.crop) {
    const [r] = await reader.readCrops([image], { sets: options.sets });
    if (!r) return { ok: false, status: 422, code: 'dice/none-seen', message: 'no die could be read in the image' };
    return { ok: true, json: { file: options.file, face: r.face, confidence: round(r.confidence) } };
  }
  const readings = await reader.read(image, { sets: options.sets, palette });
  return {
    ok: true,
    json: {
      file: options.file,
      dice: readings.map((r) => ({
        face: r.face,
        confidence: round(r.confidence),
        box: r.box.map(Math.round) as [number, number, number, number],
        ...(r.color !== undefined ? { color: r.color } : {}),
      })),
    },
  };
}
