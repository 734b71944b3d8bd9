/**
 * One clew per data folder: two servers appending to one log would interleave their lines. The
 * lock file holds the owner's pid and the kernel's boot id. A lock left by a killed process, or
 * by a machine that lost power (a new boot id: the old pid may now belong to anything), is stale
 * and is taken over.
 */
import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Linux's id of this boot; null elsewhere (then only the pid is checked). */
async function bootId(): Promise<string | null> {
  return readFile('/proc/sys/kernel/random/boot_id', 'utf8').then(
    (t) => t.trim(),
    () => null,
  );
}

export async function lockDataDir(dir: string): Promise<{ release(): Promise<void> }> {
  const file = path.join(dir, 'clew.lock');
  const boot = await bootId();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(JSON.stringify({ pid: process.pid, boot }));
      await handle.close();
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner: { pid?: unknown; boot?: unknown } = {};
      try {
        owner = JSON.parse(await readFile(file, 'utf8')) as typeof owner;
      } catch {
        /* unreadable: stale */
      }
      const pid = typeof owner.pid === 'number' ? owner.pid : 0;
      const sameBoot = owner.boot === boot;
      if (pid > 0 && pid !== process.pid && sameBoot && alive(pid)) {
        throw new Error(`another clew (pid ${pid}) is using the data folder ${dir}; stop it first, or set CLEW_DATA to another folder`);
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`could not lock the data folder ${dir}`);
}
