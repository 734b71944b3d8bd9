/**
 * POST /api/dice/read: an uploaded image → the same JSON the dice command line prints for one
 * file. A corrupt image is a 400 (`photo/corrupt`), a format not read here (an iPhone's HEIC) a 415
 * (`photo/unsupported`), a picture over 100 MP a 413 (`photo/too-large`), each saying so; no
 * reader is a 503. Boxes are in the upright picture's own pixels (EXIF orientation applied, not shrunk).
 */
import { DIE_COLORS, type DiceSetId } from '../../shared/dice.js';
import { decodePicture, ImageDecodeError, toPictureBox, type DecodedPicture } from '../../vision/image/decode.js';
import type { CameraView } from '../../vision/types.js';
import type { ReaderHolder } from './dice-reader.js';
import type { DiceReadResult } from './http.js';

/** As the command line rounds: four decimals. */
const round = (x: number) => Math.round(x * 1e4) / 1e4;

export async function readUpload(
  holder: ReaderHolder,
  bytes: Buffer,
  options: { sets: DiceSetId[]; crop: boolean; file: string; palette?: string[]; view?: CameraView },
): Promise<DiceReadResult> {
  let decoded: DecodedPicture;
  try {
    decoded = await decodePicture(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
  } catch (error) {
    const message = (error as Error).message.replace(/^decodeImage: /, 'the image could not be read: it is ');
    if (error instanceof ImageDecodeError && error.kind === 'too-large') return { ok: false, status: 413, code: 'photo/too-large', message };
    if (error instanceof ImageDecodeError && error.kind !== 'corrupt') return { ok: false, status: 415, code: 'photo/unsupported', message };
    return { ok: false, status: 400, code: 'photo/corrupt', message };
  }
  const image = decoded.image;
  let reader;
  try {
    reader = await holder.get();
  } catch (error) {
    return { ok: false, status: 503, code: 'dice/no-reader', message: (error as Error).message };
  }
  // Same defaults and fields as `npm run dice -- --json`: every colour named, a photo's view not
  // known ('any'), the set only when several are read.
  const read = { sets: options.sets, palette: options.palette ?? Object.keys(DIE_COLORS), view: options.view ?? 'any' };
  const several = options.sets.length > 1;
  if (options.crop) {
    const [r] = await reader.readCrops([image], read);
    if (!r) return { ok: false, status: 422, code: 'dice/none-seen', message: 'no die could be read in the image' };
    return {
      ok: true,
      json: { file: options.file, ...(several ? { set: r.set } : {}), face: r.face, confidence: round(r.confidence), ...(r.color ? { color: r.color } : {}), uncertain: r.uncertain, ...(r.diceInPicture ? { diceInPicture: r.diceInPicture } : {}) },
    };
  }
  const readings = await reader.read(image, { ...read, picture: true });
  return {
    ok: true,
    json: {
      file: options.file,
      dice: readings.map((r) => ({
        ...(several ? { set: r.set } : {}),
        face: r.face,
        confidence: round(r.confidence),
        // In the upright picture's own pixels, though a picture over 24 MP is read shrunk.
        box: toPictureBox(r.box, decoded).map((v) => Math.round(v)) as [number, number, number, number],
        ...(r.color ? { color: r.color } : {}),
        uncertain: r.uncertain,
      })),
    },
  };
}
