/**
 * One clew per data folder: two servers appending to one log would interleave their lines. The
 * lock file holds the owner's pid and the kernel's boot id. A lock left by a killed process, or
 * by a machine that lost power (a new boot id: the old pid may now belong to anything), is stale
 * and is taken over.
 */
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
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

/**
 * Takes the data folder's lock. The lock file appears with its owner already in it (written
 * beside it, then hard-linked into place, which fails if one is there): two servers starting at
 * once could both take a lock created empty and written after. A stale lock is moved aside under
 * a name of this process's own before it is judged again, so two starts cannot both take over one.
 */
export async function lockDataDir(dir: string): Promise<{ release(): Promise<void> }> {
  const file = path.join(dir, 'clew.lock');
  const boot = await bootId();
  const mine = JSON.stringify({ pid: process.pid, boot });
  const draft = `${file}.${process.pid}`;
  await writeFile(draft, mine);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(draft, file);
        return { release: () => releaseIfMine(file, mine) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const held = await holder(file, boot);
      if (held) throw inUse(held, dir);
      // Stale: moved aside, and judged again there (another start may have put its own in place meanwhile).
      const aside = `${file}.stale-${process.pid}`;
      try {
        await rename(file, aside);
      } catch {
        continue; // gone already
      }
      const taken = await holder(aside, boot);
      if (taken) {
        // A live lock was moved: put it back where it was, and yield to its owner.
        await link(aside, file).catch(() => undefined);
        await rm(aside, { force: true });
        throw inUse(taken, dir);
      }
      await rm(aside, { force: true });
    }
  } finally {
    await rm(draft, { force: true });
  }
  throw new Error(`could not lock the data folder ${dir}`);
}

function inUse(pid: number, dir: string): Error {
  return new Error(`another clew (pid ${pid}) is using the data folder ${dir}; stop it first, or set CLEW_DATA to another folder`);
}

/** The pid of the live clew that holds the lock in `file`, or null when it is stale or unreadable. */
async function holder(file: string, boot: string | null): Promise<number | null> {
  let owner: { pid?: unknown; boot?: unknown } = {};
  try {
    owner = JSON.parse(await readFile(file, 'utf8')) as typeof owner;
  } catch {
    return null; // unreadable (a lock of an older clew, written after it was made): stale
  }
  const pid = typeof owner.pid === 'number' ? owner.pid : 0;
  return pid > 0 && pid !== process.pid && owner.boot === boot && alive(pid) ? pid : null;
}

/** Removes the lock only while it is still this process's (not one a later owner took over). */
async function releaseIfMine(file: string, mine: string): Promise<void> {
  const now = await readFile(file, 'utf8').catch(() => null);
  if (now === mine) await rm(file, { force: true });
}
