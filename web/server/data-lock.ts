/**
 * One clew per data folder: two servers appending to one log would interleave their lines. The
 * lock file holds the owner's pid; a lock left by a killed process (power cut, SIGKILL) is stale
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

export async function lockDataDir(dir: string): Promise<{ release(): Promise<void> }> {
  const file = path.join(dir, 'clew.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new Error(`another clew (pid ${pid}) is using the data folder ${dir}; stop it first, or set CLEW_DATA to another folder`);
      }
      await rm(file, { force: true });
    }
  }
  throw new Error(`could not lock the data folder ${dir}`);
}
