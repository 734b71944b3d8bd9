/**
 * Signalling a child process we started, safely. A child whose spawn failed (its program is
 * missing) has no pid until Node reports the error on the next tick, and `ChildProcess.kill()`
 * in that window calls kill(0, signal): it signals the whole process group, this process and
 * the shell or service manager that started it included (Node 20; it stopped CI runs of the
 * tests part-way, three times). Such a child has nothing to stop.
 */
import type { ChildProcess } from 'node:child_process';

/** Sends `signal` to `child` if it is a running process; says whether it did. */
export function signalChild(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return false;
  return child.kill(signal);
}
