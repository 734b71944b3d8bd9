/**
 * The event log survives power cuts: what was acknowledged is there after a restart, a torn last
 * line is dropped with a warning, a corrupt line is reported by its number, compaction loses
 * nothing whenever the power goes.
 */
import { appendFile, mkdir, open, readFile, readdir, rmdir, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { fail, ok } from '../../shared/game.js';
import { EventLog, LogCorruptError, writeFileAtomic, type LogOptions } from '../../web/server/log.js';
import { collectingLogger } from '../../web/server/logger.js';
import { tempDir } from '../support/tmp.js';

interface Tally {
  n: number;
  sum: number;
}
type Add = { add: number };

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => ({ dir, remove } = await tempDir()));
afterEach(() => remove());

function options(over: Partial<LogOptions<Tally, Add>> = {}): LogOptions<Tally, Add> & { logger: ReturnType<typeof collectingLogger> } {
  return {
    dir,
    name: 'tally',
    eventSchema: z.object({ add: z.number() }),
    stateSchema: z.object({ n: z.number(), sum: z.number() }),
    // Negative additions do not fold: they stand for an event the rules no longer accept.
    fold: (s, e) => (e.add < 0 ? fail('move/illegal', 'negative') : ok({ n: (s?.n ?? 0) + 1, sum: (s?.sum ?? 0) + e.add })),
    onCorrupt: 'recover',
    compactEvery: 1000,
    now: () => 1_700_000_000_000,
    ...over,
    logger: collectingLogger(),
  };
}

async function write(adds: number[], over: Partial<LogOptions<Tally, Add>> = {}): Promise<void> {
  const { log } = await EventLog.open(options(over));
  let s: Tally = { n: 0, sum: 0 };
  for (const add of adds) {
    s = { n: s.n + 1, sum: s.sum + add };
    await log.append(s.n, { add }, s);
  }
  await log.close();
}

const file = () => path.join(dir, 'tally.jsonl');

describe('the event log', () => {
  it('what was appended is folded back on the next start', async () => {
    await write([1, 2, 3]);
    const { log, state, version } = await EventLog.open(options());
    expect(state).toEqual({ n: 3, sum: 6 });
    expect(version).toBe(3);
    expect(log.status()).toMatchObject({ ok: true, entries: 3, version: 3 });
    await log.close();
  });

  it('one JSON line per event, with its version', async () => {
    await write([5, 7]);
    const lines = (await readFile(file(), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { v: 1, t: 1_700_000_000_000, e: { add: 5 } },
      { v: 2, t: 1_700_000_000_000, e: { add: 7 } },
    ]);
  });

  it('a torn last line is dropped with a warning and nothing else is lost', async () => {
    await write([1, 2, 3]);
    await appendFile(file(), '{"v":4,"t":1,"e":{"ad');
    const opts = options();
    const { log, state } = await EventLog.open(opts);
    expect(state).toEqual({ n: 3, sum: 6 });
    expect(opts.logger.lines.some((l) => l.level === 'warn' && /torn last line/.test(l.message))).toBe(true);
    expect(log.status().ok).toBe(true);
    // The next event starts on a line of its own.
    await log.append(4, { add: 10 }, { n: 4, sum: 16 });
    await log.close();
    const again = await EventLog.open(options());
    expect(again.state).toEqual({ n: 4, sum: 16 });
    await again.log.close();
  });

  it('a tail of zero bytes (a power cut after the size grew) is a torn line too', async () => {
    await write([1, 2]);
    await appendFile(file(), Buffer.alloc(300));
    const { log, state } = await EventLog.open(options());
    expect(state).toEqual({ n: 2, sum: 3 });
    await log.close();
    expect((await readFile(file(), 'utf8')).endsWith('}\n')).toBe(true);
  });

  describe('a corrupt line in the middle', () => {
    async function corruptLine2(): Promise<void> {
      await write([1, 2, 3, 4]);
      const lines = (await readFile(file(), 'utf8')).split('\n');
      lines[1] = '{"v":2,"t":1,"e":{"add":2}'; // a byte lost in the middle of the file
      await writeFile(file(), lines.join('\n'));
    }

    it('recover (default): starts from the last good state, says which line, keeps the original', async () => {
      await corruptLine2();
      const opts = options();
      const { log, state, version } = await EventLog.open(opts);
      expect(state).toEqual({ n: 1, sum: 1 });
      expect(version).toBe(1);
      const status = log.status();
      expect(status.ok).toBe(false);
      expect(status.message).toMatch(/line 2 of tally\.jsonl is corrupt: not JSON .*\(2 later lines not replayed\)/);
      const kept = (await readdir(dir)).filter((f) => f.startsWith('tally.jsonl.corrupt-'));
      expect(kept).toHaveLength(1);
      expect((await readFile(path.join(dir, kept[0]!), 'utf8')).split('\n')).toHaveLength(5);
      await log.append(2, { add: 20 }, { n: 2, sum: 21 });
      await log.close();
      const again = await EventLog.open(options());
      expect(again.state).toEqual({ n: 2, sum: 21 });
      expect(again.log.status().ok).toBe(true);
      await again.log.close();
    });

    it('refuse: opening throws with the file and the line number', async () => {
      await corruptLine2();
      const error = await EventLog.open(options({ onCorrupt: 'refuse' })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LogCorruptError);
      expect((error as LogCorruptError).line).toBe(2);
      expect((error as Error).message).toMatch(/tally\.jsonl, line 2: not JSON/);
    });
  });

  it('a version out of sequence is corrupt', async () => {
    await write([1, 2]);
    await appendFile(file(), '{"v":7,"t":1,"e":{"add":1}}\n{"v":8,"t":1,"e":{"add":1}}\n');
    const error = await EventLog.open(options({ onCorrupt: 'refuse' })).catch((e: unknown) => e);
    expect((error as LogCorruptError).line).toBe(3);
    expect((error as Error).message).toMatch(/version 7 out of sequence \(expected 3\)/);
  });

  it('an event that no longer replays is reported like a corrupt line', async () => {
    await write([1]);
    await appendFile(file(), '{"v":2,"t":1,"e":{"add":-1}}\n');
    const error = await EventLog.open(options({ onCorrupt: 'refuse' })).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/line 2: the event does not replay: move\/illegal/);
  });

  describe('harmless flaws cost no event (since the thirty-eighth session)', () => {
    /** The log's text with `edit` applied to its lines (the last one the empty string after the final newline). */
    async function edit(change: (lines: string[]) => void): Promise<void> {
      const lines = (await readFile(file(), 'utf8')).split('\n');
      change(lines);
      await writeFile(file(), lines.join('\n'));
    }

    async function opensWhole(adds: number[]): Promise<ReturnType<typeof options>> {
      const opts = options();
      const { log, state, version } = await EventLog.open(opts);
      expect([state, version]).toEqual([{ n: adds.length, sum: adds.reduce((a, b) => a + b, 0) }, adds.length]);
      expect(log.status()).toMatchObject({ ok: true, version: adds.length });
      expect((await readdir(dir)).filter((f) => f.includes('.corrupt-'))).toEqual([]);
      // And the table goes on: the next event is read back after it.
      await log.append(adds.length + 1, { add: 100 }, { n: adds.length + 1, sum: 0 });
      await log.close();
      const again = await EventLog.open(options());
      expect(again.version).toBe(adds.length + 1);
      await again.log.close();
      return opts;
    }

    it('a blank line in the middle (an editor, a sync tool) is read past', async () => {
      await write([1, 2, 3, 4]);
      await edit((l) => l.splice(2, 0, '', '  \t'));
      await opensWhole([1, 2, 3, 4]);
    });

    it('a blank line at the end is read past, not called corrupt', async () => {
      await write([1, 2, 3]);
      await appendFile(file(), '\n');
      await opensWhole([1, 2, 3]);
    });

    it('a line whose time is damaged still replays its event (the time is not needed for it)', async () => {
      await write([1, 2, 3, 4]);
      await edit((l) => (l[1] = JSON.stringify({ ...JSON.parse(l[1]!), t: 'yesterday' })));
      await opensWhole([1, 2, 3, 4]);
    });

    it('a byte-order mark an editor put at the start loses nothing', async () => {
      await write([1, 2, 3]);
      await writeFile(file(), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), await readFile(file())]));
      await opensWhole([1, 2, 3]);
    });

    it('a last line of zero bytes, with a newline after it, is a torn tail (dropped with a warning), not corruption', async () => {
      await write([1, 2, 3]);
      await appendFile(file(), Buffer.concat([Buffer.alloc(300), Buffer.from('\n')]));
      const opts = await opensWhole([1, 2, 3]);
      expect(opts.logger.lines.some((l) => l.level === 'warn' && /torn last line \(301 bytes\)/.test(l.message))).toBe(true);
    });

    it('zero bytes with good lines after them are real damage: said, and the original kept', async () => {
      await write([1, 2, 3]);
      await edit((l) => (l[1] = '\0'.repeat(40)));
      const { log, version } = await EventLog.open(options());
      expect(version).toBe(1);
      expect(log.status().message).toMatch(/line 2 of tally\.jsonl is corrupt: not JSON .*\(1 later line not replayed\)/);
      expect((await readdir(dir)).filter((f) => f.startsWith('tally.jsonl.corrupt-'))).toHaveLength(1);
      await log.close();
    });
  });

  it('an event whose fold throws (a state the game cannot read) is a corrupt line, not a crash', async () => {
    await write([1, 2, 3]);
    const throwing = options({
      onCorrupt: 'refuse',
      fold: (s, e) => {
        if (e.add === 2) throw new TypeError("Cannot read properties of null (reading 'phase')");
        return ok({ n: (s?.n ?? 0) + 1, sum: (s?.sum ?? 0) + e.add });
      },
    });
    const error = await EventLog.open(throwing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LogCorruptError);
    expect((error as Error).message).toMatch(/tally\.jsonl, line 2: the event does not replay: it failed \(Cannot read properties of null/);
  });

  describe('a snapshot whose state the owner cannot use (since the thirty-eighth session)', () => {
    /** Sums above 1000 stand for a state the game cannot use, though it fits the schema. */
    const check = (s: Tally) => (s.sum > 1000 ? `a sum of ${s.sum} is past the end of the board` : null);

    it('is set aside by name and the log starts from what is left, as an unreadable snapshot is', async () => {
      await writeFile(path.join(dir, 'tally.snapshot.json'), JSON.stringify({ v: 3, t: 1, state: { n: 3, sum: 5000 } }));
      const opts = options({ check });
      const { log, state, version } = await EventLog.open(opts);
      expect([state, version]).toEqual([null, 0]);
      expect(log.status().message).toMatch(/^the snapshot .*tally\.snapshot\.json is unreadable: bad state \(a sum of 5000 is past the end of the board\); kept as tally\.snapshot\.json\.corrupt-\d+$/);
      expect((await readdir(dir)).filter((f) => f.startsWith('tally.snapshot.json.corrupt-'))).toHaveLength(1);
      await log.close();
    });

    it('with refuse, opening throws naming the snapshot', async () => {
      await writeFile(path.join(dir, 'tally.snapshot.json'), JSON.stringify({ v: 3, t: 1, state: { n: 3, sum: 5000 } }));
      await expect(EventLog.open(options({ check, onCorrupt: 'refuse' }))).rejects.toThrow(/tally\.snapshot\.json, line 1: .*bad state \(a sum of 5000/);
    });

    it('a usable one is taken as it is', async () => {
      await writeFile(path.join(dir, 'tally.snapshot.json'), JSON.stringify({ v: 3, t: 1, state: { n: 3, sum: 6 } }));
      const { log, state } = await EventLog.open(options({ check }));
      expect(state).toEqual({ n: 3, sum: 6 });
      expect(log.status().ok).toBe(true);
      await log.close();
    });
  });

  describe('compaction', () => {
    it('after compactEvery events the state is snapshotted and the log starts empty; a restart sees it all', async () => {
      await write([1, 2, 3, 4, 5, 6, 7], { compactEvery: 3 });
      expect((await readFile(file(), 'utf8')).trimEnd().split('\n')).toHaveLength(1);
      const { log, state, version } = await EventLog.open(options({ compactEvery: 3 }));
      expect(state).toEqual({ n: 7, sum: 28 });
      expect(version).toBe(7);
      await log.close();
    });

    it('a power cut between writing the snapshot and emptying the log loses and repeats nothing', async () => {
      await write([1, 2, 3]);
      // The snapshot landed (atomically) but the old lines are still in the log.
      await writeFile(path.join(dir, 'tally.snapshot.json'), JSON.stringify({ v: 3, t: 1, state: { n: 3, sum: 6 } }));
      const { log, state } = await EventLog.open(options());
      expect(state).toEqual({ n: 3, sum: 6 });
      await log.append(4, { add: 4 }, { n: 4, sum: 10 });
      await log.close();
      const again = await EventLog.open(options());
      expect(again.state).toEqual({ n: 4, sum: 10 });
      await again.log.close();
    });
  });

  it('appends out of sequence are refused (a bug, never silently written)', async () => {
    const { log } = await EventLog.open(options());
    await expect(log.append(2, { add: 1 }, { n: 2, sum: 1 })).rejects.toThrow(/out of sequence/);
    await log.close();
  });
});

describe('the event log on a failing disk', () => {
  it('a compaction that fails keeps the event made, appends go on, and the next compaction catches up', async () => {
    const { log } = await EventLog.open(options({ compactEvery: 3 }));
    // The snapshot's place taken by a folder: its write fails, as on a full or failing card.
    await mkdir(path.join(dir, 'tally.snapshot.json'));
    let s: Tally = { n: 0, sum: 0 };
    for (const add of [1, 2, 3, 4]) {
      s = { n: s.n + 1, sum: s.sum + add };
      await log.append(s.n, { add }, s);
    }
    expect(log.status()).toMatchObject({ ok: false, version: 4, entries: 4, message: expect.stringMatching(/^compaction failed: /) });
    expect((await readdir(dir)).sort()).toEqual(['tally.jsonl', 'tally.snapshot.json']);
    await rmdir(path.join(dir, 'tally.snapshot.json'));
    s = { n: 5, sum: 15 };
    await log.append(5, { add: 5 }, s);
    expect(log.status()).toMatchObject({ ok: true, version: 5, entries: 0 });
    await log.close();
    const again = await EventLog.open(options());
    expect([again.state, again.version]).toEqual([{ n: 5, sum: 15 }, 5]);
    await again.log.close();
  });

  describe('a write the disk refuses (since the thirty-eighth session)', () => {
    /** The prototype of the handles the log writes through: one call of it made to fail. */
    async function fileHandles(): Promise<object> {
      const probe = await open(path.join(dir, 'probe'), 'w');
      await probe.close();
      return Object.getPrototypeOf(probe) as object;
    }
    const full = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    afterEach(() => vi.restoreAllMocks());

    it('is said until a later write reaches the disk; then the log is ok again', async () => {
      const { log } = await EventLog.open(options());
      await log.append(1, { add: 1 }, { n: 1, sum: 1 });
      vi.spyOn((await fileHandles()) as { write: () => Promise<unknown> }, 'write').mockRejectedValueOnce(full());
      await expect(log.append(2, { add: 2 }, { n: 2, sum: 3 })).rejects.toThrow(/ENOSPC/);
      expect(log.status()).toMatchObject({ ok: false, version: 1, message: 'write failed: ENOSPC: no space left on device, write' });
      // The disk has room again: the same event is written, and nothing is left to say.
      await log.append(2, { add: 2 }, { n: 2, sum: 3 });
      expect(log.status()).toEqual({ ok: true, path: file(), entries: 2, version: 2 });
      await log.close();
      const again = await EventLog.open(options());
      expect(again.state).toEqual({ n: 2, sum: 3 });
      await again.log.close();
    });

    it('what was found wrong at start is still said after a later write succeeds', async () => {
      await write([1, 2, 3]);
      await appendFile(file(), 'garbage\n{"v":4,"t":1,"e":{"add":4}}\n');
      const { log } = await EventLog.open(options());
      vi.spyOn((await fileHandles()) as { datasync: () => Promise<void> }, 'datasync').mockRejectedValueOnce(full());
      await expect(log.append(4, { add: 9 }, { n: 4, sum: 15 })).rejects.toThrow(/ENOSPC/);
      expect(log.status().message).toMatch(/line 4 of tally\.jsonl is corrupt: .*; write failed: ENOSPC/);
      await log.append(4, { add: 9 }, { n: 4, sum: 15 });
      expect(log.status()).toMatchObject({ ok: false, message: expect.stringMatching(/^line 4 of tally\.jsonl is corrupt: [^;]*; started from the last good state .*corrupt-\d+$/) });
      await log.close();
    });

    it('a failed write that cannot be cut back stops appends until a restart, and says to restart clew', async () => {
      const { log } = await EventLog.open(options());
      await log.append(1, { add: 1 }, { n: 1, sum: 1 });
      const handles = (await fileHandles()) as { write: () => Promise<unknown>; truncate: () => Promise<void> };
      vi.spyOn(handles, 'write').mockRejectedValueOnce(full());
      vi.spyOn(handles, 'truncate').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' }));
      await expect(log.append(2, { add: 2 }, { n: 2, sum: 3 })).rejects.toThrow(/ENOSPC/);
      expect(log.needsRestart()).toMatch(/could not be cut back \(EIO/);
      // However the disk is now, no later event is written after what the failed write may have left.
      await expect(log.append(2, { add: 2 }, { n: 2, sum: 3 })).rejects.toThrow(/cannot be written safely/);
      expect(log.status().message).toMatch(/write failed: ENOSPC.*; a failed write could not be cut back \(EIO: i\/o error, ftruncate\); restart clew once the disk is fixed/);
      await log.close();
    });
  });

  it('a line the disk takes only in part is not acknowledged, and every acknowledged one survives (a file-size limit for a full disk)', () => {
    // A child process under `ulimit -f 1` (512 bytes): appends until one is refused.
    const script = `
      import { EventLog } from './web/server/log.ts';
      import { collectingLogger } from './web/server/logger.ts';
      import { z } from 'zod';
      const { log } = await EventLog.open({ dir: process.argv[1], name: 'tally', eventSchema: z.object({ add: z.number() }), stateSchema: z.object({ n: z.number(), sum: z.number() }),
        fold: (s, e) => ({ ok: true, state: { n: (s?.n ?? 0) + 1, sum: (s?.sum ?? 0) + e.add } }), onCorrupt: 'refuse', compactEvery: 1000, now: () => 1, logger: collectingLogger() });
      let acked = 0;
      for (let n = 1; n < 100; n++) {
        try { await log.append(n, { add: 1000000 + n }, { n, sum: 0 }); acked = n; } catch { break; }
      }
      const refusedAt = acked + 1;
      // A short line still fits where the refused one did not: it goes on the line after the last acknowledged.
      try { await log.append(acked + 1, { add: 1 }, { n: acked + 1, sum: 0 }); acked++; } catch {}
      console.log(JSON.stringify({ acked, refusedAt }));
    `;
    const root = path.resolve(import.meta.dirname, '../..');
    const run = spawnSync('sh', ['-c', `ulimit -f 1; "${process.execPath}" --import tsx --input-type=module -e "$0" "$1"`, script, dir], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const { acked, refusedAt } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { acked: number; refusedAt: number };
    expect(refusedAt).toBeGreaterThan(5);
    expect(refusedAt).toBeLessThan(99);
    return EventLog.open(options({ onCorrupt: 'refuse' })).then(async ({ log, version }) => {
      expect(version).toBe(acked);
      await log.close();
    });
  });
});

describe('a small file written whole (writeFileAtomic)', () => {
  it('two writes of one file at once both finish, leaving one of them whole and no temporary file', async () => {
    const { dir, remove } = await tempDir();
    try {
      const file = path.join(dir, 'state.json');
      const a = 'a'.repeat(200_000), b = 'b'.repeat(100_000);
      await Promise.all([writeFileAtomic(file, a), writeFileAtomic(file, b)]);
      expect([a, b]).toContain(await readFile(file, 'utf8'));
      expect(await readdir(dir)).toEqual(['state.json']);
    } finally {
      await remove();
    }
  });
});
