/** The small parts of the server: token buckets, table codes, the data-folder lock. */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeMatches, generateCode, loadCodes, JOIN_CODE_LENGTH, REFEREE_CODE_LENGTH } from '../../web/server/codes.js';
import { lockDataDir } from '../../web/server/data-lock.js';
import { KeyedBuckets, TokenBucket } from '../../web/server/rate-limit.js';
import { tempDir } from '../support/tmp.js';

describe('token buckets (on a test clock)', () => {
  it('a burst, then one more per 1/rate seconds', () => {
    let now = 0;
    const b = new TokenBucket(2, 3, () => now);
    expect([b.take(), b.take(), b.take(), b.take()]).toEqual([true, true, true, false]);
    now += 499;
    expect(b.take()).toBe(false);
    now += 1;
    expect(b.take()).toBe(true);
    now += 10_000; // refills to the burst, no further
    expect([b.take(), b.take(), b.take(), b.take()]).toEqual([true, true, true, false]);
  });

  it('keyed buckets are separate per key', () => {
    const now = 0;
    const k = new KeyedBuckets(1, 1, () => now);
    expect([k.take('a'), k.take('a'), k.take('b')]).toEqual([true, false, true]);
  });
});

describe('table codes', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => ({ dir, remove } = await tempDir()));
  afterEach(() => remove());

  it('are made of unambiguous letters and digits', () => {
    for (let i = 0; i < 200; i++) expect(generateCode(8)).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
  });

  it('match without regard to case or surrounding spaces, and only exactly', () => {
    expect(codeMatches(' ab3cd ', 'AB3CD')).toBe(true);
    expect(codeMatches('AB3C', 'AB3CD')).toBe(false);
    expect(codeMatches('AB3CE', 'AB3CD')).toBe(false);
  });

  it('are created on the first start and kept for the next', async () => {
    const first = await loadCodes(dir);
    expect(first.joinCode).toHaveLength(JOIN_CODE_LENGTH);
    expect(first.refereeCode).toHaveLength(REFEREE_CODE_LENGTH);
    expect(await loadCodes(dir)).toEqual(first);
    expect(JSON.parse(await readFile(path.join(dir, 'codes.json'), 'utf8'))).toEqual(first);
  });

  it('a code fixed in the config wins and is stored', async () => {
    await loadCodes(dir);
    const fixed = await loadCodes(dir, { refereeCode: 'tablemaster' });
    expect(fixed.refereeCode).toBe('TABLEMASTER');
    expect((await loadCodes(dir)).refereeCode).toBe('TABLEMASTER');
  });

  it('an unreadable codes file is said, kept aside and replaced by new codes', async () => {
    await writeFile(path.join(dir, 'codes.json'), '{oops');
    const said: string[] = [];
    expect((await loadCodes(dir, {}, (m) => said.push(m), () => 42)).joinCode).toHaveLength(JOIN_CODE_LENGTH);
    expect(said).toEqual([expect.stringMatching(/^codes: .*codes\.json could not be read \(.*JSON.*\); kept as codes\.json\.corrupt-42, and new codes made/)]);
    expect(await readFile(path.join(dir, 'codes.json.corrupt-42'), 'utf8')).toBe('{oops');
    // Two equal codes in the file are no codes either; in the config they are refused, naming it.
    await writeFile(path.join(dir, 'codes.json'), JSON.stringify({ joinCode: 'ABCDE', refereeCode: 'abcde' }));
    const again: string[] = [];
    await loadCodes(dir, {}, (m) => again.push(m), () => 43);
    expect(again).toEqual([expect.stringMatching(/the join code and the referee code are the same/)]);
    await expect(loadCodes(dir, { joinCode: 'SAME1', refereeCode: 'same1' })).rejects.toThrow(/must differ \(both SAME1, from the config/);
  });
});

describe('the data-folder lock', () => {
  let dir: string;
  let remove: () => Promise<void>;
  beforeEach(async () => ({ dir, remove } = await tempDir()));
  afterEach(() => remove());

  it('a second clew on the same folder is refused while the first runs', async () => {
    const lock = await lockDataDir(dir);
    // Another live process holds it (our parent stands in for it).
    await lock.release();
    await writeFile(path.join(dir, 'clew.lock'), JSON.stringify({ pid: process.ppid, boot: (await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => null))?.trim() ?? null }));
    await expect(lockDataDir(dir)).rejects.toThrow(/another clew \(pid \d+\) is using the data folder/);
  });

  it('a lock left by a killed process is taken over', async () => {
    await writeFile(path.join(dir, 'clew.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, boot: null }));
    const lock = await lockDataDir(dir);
    expect(JSON.parse(await readFile(path.join(dir, 'clew.lock'), 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it('a lock from before a power cut (another boot) is taken over even if its pid is alive now', async () => {
    await writeFile(path.join(dir, 'clew.lock'), JSON.stringify({ pid: process.ppid, boot: 'an-earlier-boot' }));
    const lock = await lockDataDir(dir);
    await lock.release();
  });

  it('two clews started at the same moment: exactly one takes the lock, and leaves no file behind', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const child = `
      import { lockDataDir } from './web/server/data-lock.ts';
      const [dir, at] = [process.argv[1], Number(process.argv[2])];
      while (Date.now() < at) {} // both call lockDataDir at the same moment
      try { const lock = await lockDataDir(dir); console.log('got'); await new Promise((r) => setTimeout(r, Math.max(0, at + 2000 - Date.now()))); await lock.release(); }
      catch (e) { console.log(/another clew/.test(e.message) ? 'refused' : 'error: ' + e.message); }
    `;
    // Each holds the lock until 2 s after the moment both try, so a slow start of one (a loaded
    // machine) cannot make the two tries a second apart: then both would rightly get it in turn.
    for (let trial = 0; trial < 3; trial++) {
      const at = Date.now() + 3000;
      const both = `for i in 1 2; do "${process.execPath}" --import tsx --input-type=module -e "$0" "$1" "$2" & done; wait`;
      const run = spawnSync('sh', ['-c', both, child, dir, String(at)], { cwd: root, encoding: 'utf8', timeout: 60_000 });
      expect(run.stdout.trim().split('\n').sort()).toEqual(['got', 'refused']);
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('a release leaves a lock another clew has taken since', async () => {
    const lock = await lockDataDir(dir);
    const theirs = JSON.stringify({ pid: process.ppid, boot: null });
    await writeFile(path.join(dir, 'clew.lock'), theirs);
    await lock.release();
    expect(await readFile(path.join(dir, 'clew.lock'), 'utf8')).toBe(theirs);
  });
});
