/**
 * Imported first by start.ts, so that it runs before the heavy modules load: a SIGINT or SIGTERM
 * while clew is still starting (systemd stopping a service that is coming up) is remembered
 * instead of killing the process with the data folder locked; start.ts stops cleanly once started.
 */
let asked: NodeJS.Signals | null = null;
const remember = (signal: NodeJS.Signals) => () => {
  asked ??= signal;
};
const onInt = remember('SIGINT');
const onTerm = remember('SIGTERM');
process.on('SIGINT', onInt);
process.on('SIGTERM', onTerm);

/** The stop asked for while starting, if any; from now on the caller's own handlers answer. */
export function takeEarlyStop(): NodeJS.Signals | null {
  process.off('SIGINT', onInt);
  process.off('SIGTERM', onTerm);
  return asked;
}
