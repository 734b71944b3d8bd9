/**
 * A replay camera's clock for tests that read its dice: real time, except that a frame falls due
 * only once the server's camera pipelines have finished the frame before. A pipeline drops the
 * frames that arrive while it reads one (by design: the tray is read as it is now), and a settled
 * roll needs four still frames read in a row; on a loaded machine a replay of only five or six
 * still frames per loop could then never settle. Paced, every frame is read, as on a fast machine.
 */
import { systemClock, type Clock, type TimerHandle } from '../../device/clock.js';
import type { Clew } from '../../web/server/main.js';

/** True while the server is not up yet, or any of its camera pipelines is working on a frame. */
export function pipelinesBusy(clew: Clew | undefined): boolean {
  return !clew || clew.pipelines.some((p) => p.working());
}

/** Real time; a timer that falls due waits further while `busy()` holds. */
export function pacedClock(busy: () => boolean): Clock {
  return {
    now: () => systemClock.now(),
    setTimeout(callback: () => void, ms: number): TimerHandle {
      const state = { cancelled: false };
      const due = () => {
        if (state.cancelled) return;
        if (busy()) setTimeout(due, 5).unref();
        else callback();
      };
      setTimeout(due, ms).unref();
      return { id: state };
    },
    clearTimeout(handle: TimerHandle) {
      (handle.id as { cancelled: boolean }).cancelled = true;
    },
  };
}
