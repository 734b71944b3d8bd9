/**
 * The picture of one die of the pending camera roll, for "teach clew your dice" on the phones:
 * the frame the roll was read from (kept by its camera pipeline), cropped square around the die's
 * box the way the reader frames it, as JPEG. The same frame and box a `calibration/label` uses.
 */
import type { PendingRoll } from '../../shared/protocol.js';
import type { CameraPipeline } from './camera.js';
import type { CropResult } from './http.js';

/** Crop side in pixels: a phone shows it at about 72 CSS px, sharp on a 2x screen. */
const SIZE = 160;

export async function rollCrop(roll: PendingRoll | null, index: number, pipelineFor: (source: 'camera' | 'phone-camera') => CameraPipeline | null): Promise<CropResult> {
  if (!roll) return { ok: false, status: 404, code: 'dice/no-roll', message: 'there is no pending roll' };
  if (roll.source === 'manual') return { ok: false, status: 409, code: 'camera/no-crop', message: 'this roll was entered by hand: there is no picture of it' };
  const die = roll.dice[index];
  if (!die) return { ok: false, status: 404, code: 'dice/no-such-die', message: `the roll has ${roll.dice.length} dice; there is no die number ${index + 1}` };
  const frame = pipelineFor(roll.source)?.frameFor(roll);
  if (!die.box || !frame) return { ok: false, status: 404, code: 'camera/no-crop', message: 'the camera frame of this roll is no longer kept; roll again' };
  // vision's image helpers (sharp underneath) load only when a crop is first asked for.
  const { squareCrop, encodeJpeg } = await import('../../vision/image/index.js');
  return { ok: true, jpeg: await encodeJpeg(squareCrop(frame.image, die.box, { size: SIZE }), 85) };
}
