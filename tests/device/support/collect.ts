import type { ButtonName } from '../../../shared/game.js';
import type { ButtonEvent, ButtonSource, CameraFrame } from '../../../device/types.js';

/** Records every button event of a source as "press NEXT" strings. */
export function recordButtons(source: ButtonSource): string[] {
  const seen: string[] = [];
  for (const event of ['press', 'release', 'hold'] as ButtonEvent[]) source.on(event, (b: ButtonName) => seen.push(`${event} ${b}`));
  return seen;
}

/** Takes the next `n` frames of an async frame stream. */
export async function take(frames: AsyncIterable<CameraFrame>, n: number): Promise<CameraFrame[]> {
  const out: CameraFrame[] = [];
  if (n <= 0) return out;
  for await (const frame of frames) {
    out.push(frame);
    if (out.length >= n) break;
  }
  return out;
}

/** Lets pending promise callbacks run (after a fake-clock step). */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
