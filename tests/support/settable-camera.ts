import type { CameraSource } from '../../device/select.js';
import type { CameraFrame } from '../../device/types.js';

/** A camera whose newest frame the test sets (READ reads it); it sends no frames of its own. */
export function settableCamera(): { camera: CameraSource; show(frame: CameraFrame | null): void } {
  let current: CameraFrame | null = null;
  const camera: CameraSource = {
    kind: 'fake',
    start: async () => {},
    stop: async () => {},
    status: () => ({ kind: 'fake', ok: true, message: 'ok' }),
    latest: () => current,
    frames: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<CameraFrame>>(() => {}), return: async () => ({ done: true as const, value: undefined }) }) }),
  };
  return { camera, show: (frame) => (current = frame) };
}
