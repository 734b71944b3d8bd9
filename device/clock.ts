/**
 * Time as a port: adapters take a `Clock` so the button logic, back-off and replay pacing run on a
 * fake clock in tests. `now()` is monotonic milliseconds (never the wall clock).
 */
export type TimerHandle = { readonly id: unknown };

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => {
    const id = setTimeout(callback, ms);
    // A pending retry or blink must never keep the process alive on shutdown.
    id.unref?.();
    return { id };
  },
  clearTimeout: (handle) => clearTimeout(handle.id as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` on the given clock. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}
