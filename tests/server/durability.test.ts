/**
 * The table's log through the whole server: a torn last line after a power cut, a corrupt line in
 * the middle (reported on /api/health, or refused by config), and compaction in a long game.
 */
import { appendFile, open, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RaceState } from '../support/race-game.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { tempDir } from '../support/tmp.js';

let servers: TestServer[] = [];
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of servers) await s.stop().catch(() => undefined);
  for (const c of cleanup) await c();
  servers = [];
  cleanup = [];
});

async function folder(): Promise<string> {
  const t = await tempDir('clew-durable-');
  cleanup.push(t.remove);
  return t.dir;
}

/** A short game at the table in `dataDir`: Ann rolls 3, the turn passes, Bob rolls 5. */
async function play(dataDir: string, config = {}): Promise<TestServer> {
  const server = await startTestServer({ dataDir, config });
  servers.push(server);
  const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
  for (const intent of [
    { type: 'move', move: { type: 'roll', player: 'ann', face: 3 } },
    { type: 'button', button: 'NEXT' },
    { type: 'move', move: { type: 'roll', player: 'bob', face: 5 } },
  ]) {
    expect(await referee.send(intent)).toMatchObject({ ok: true });
    await referee.snapshot((s) => s.version === server.clew.session.table.version);
  }
  return server;
}

describe('the log through the server', () => {
  it('a torn last line (the power went mid-write) is dropped; everything acknowledged is there', async () => {
    const dataDir = await folder();
    const first = await play(dataDir);
    const table = first.clew.session.table;
    await first.stop();
    await appendFile(path.join(dataDir, 'table.jsonl'), '{"v":5,"t":17,"e":{"type":"move","mo');
    const second = await startTestServer({ dataDir });
    servers.push(second);
    expect(second.clew.session.table).toEqual(table);
    expect(second.logger.lines.some((l) => l.level === 'warn' && /torn last line/.test(l.message))).toBe(true);
    expect(((await (await fetch(`${second.url}/api/health`)).json()) as { log: unknown }).log).toMatchObject({ ok: true });
  });

  it('a corrupt line in the middle: the table starts from the last good state and /api/health says which line', async () => {
    const dataDir = await folder();
    const first = await play(dataDir);
    await first.stop();
    const file = path.join(dataDir, 'table.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[2] = lines[2]!.replace('"next"', '"ne'); // line 3: the button press, damaged
    await writeFile(file, lines.join('\n'));
    const second = await startTestServer({ dataDir });
    servers.push(second);
    expect(second.clew.session.table.version).toBe(2);
    expect((second.clew.session.table.state as RaceState).positions).toEqual({ ann: 3, bob: 0 });
    const health = (await (await fetch(`${second.url}/api/health`)).json()) as { ok: boolean; log: { ok: boolean; message: string } };
    expect(health.ok).toBe(false);
    expect(health.log.message).toMatch(/line 3 of table\.jsonl is corrupt/);
    expect((await readdir(dataDir)).some((f) => f.startsWith('table.jsonl.corrupt-'))).toBe(true);
    // The table plays on from there.
    const referee = await second.phone({ role: 'referee', code: second.clew.codes.refereeCode });
    expect(await referee.send({ type: 'button', button: 'NEXT' })).toEqual({ ok: true, version: 3 });
  });

  it('with log.onCorrupt = refuse the server does not start, and says which line', async () => {
    const dataDir = await folder();
    const first = await play(dataDir);
    await first.stop();
    const file = path.join(dataDir, 'table.jsonl');
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[1] = 'garbage';
    await writeFile(file, lines.join('\n'));
    await expect(startTestServer({ dataDir, config: { log: { onCorrupt: 'refuse' } } })).rejects.toThrow(/table\.jsonl, line 2: not JSON/);
    // Nothing was changed on disk, and the lock was released.
    expect((await readFile(file, 'utf8')).split('\n')[1]).toBe('garbage');
    await expect(readFile(path.join(dataDir, 'clew.lock'))).rejects.toThrow();
  });

  describe('a snapshot whose game state the game cannot use (since the thirty-eighth session)', () => {
    type Health = { ok: boolean; log: { ok: boolean; message?: string } };

    /** The short game compacted (the log empty after it), then the snapshot's table changed by `damage`. */
    async function damagedSnapshot(damage: (table: { state: unknown; undo: { state: unknown }[] }) => void): Promise<string> {
      const dataDir = await folder();
      const first = await play(dataDir, { log: { compactEvery: 2 } });
      await first.stop();
      const file = path.join(dataDir, 'table.snapshot.json');
      const snapshot = JSON.parse(await readFile(file, 'utf8')) as { v: number; state: { state: unknown; undo: { state: unknown }[] } };
      expect(snapshot.v).toBe(4);
      damage(snapshot.state);
      await writeFile(file, JSON.stringify(snapshot));
      return dataDir;
    }

    async function startsFresh(dataDir: string, why: RegExp): Promise<void> {
      const second = await startTestServer({ dataDir });
      servers.push(second);
      const health = (await (await fetch(`${second.url}/api/health`)).json()) as Health;
      expect(health.log.ok).toBe(false);
      expect(health.log.message).toMatch(/the snapshot \S*table\.snapshot\.json is unreadable: bad state \(/);
      expect(health.log.message).toMatch(why);
      expect(health.log.message).toMatch(/kept as table\.snapshot\.json\.corrupt-\d+/);
      expect((await readdir(dataDir)).filter((f) => f.startsWith('table.snapshot.json.corrupt-'))).toHaveLength(1);
      // A fresh table that plays: Ann rolls.
      expect(second.clew.session.table.version).toBe(1);
      const referee = await second.phone({ role: 'referee', code: second.clew.codes.refereeCode });
      expect(await referee.send({ type: 'move', move: { type: 'roll', player: 'ann', face: 2 } })).toEqual({ ok: true, version: 2 });
    }

    it('no state at all (null): clew starts, sets the snapshot aside and says so by name', async () => {
      const dataDir = await damagedSnapshot((table) => (table.state = null));
      await startsFresh(dataDir, /the game's state is not one "Worm race \(test game\)" can use: Cannot read properties of null/);
    });

    it('a damaged undo entry is not loaded silently (BACK would bring it back)', async () => {
      const dataDir = await damagedSnapshot((table) => (table.undo[1]!.state = { junk: 1 }));
      await startsFresh(dataDir, /undo entry 2 of 3 is not a state "Worm race \(test game\)" can use/);
    });
  });

  describe('a disk that refuses a write (since the thirty-eighth session)', () => {
    /** The prototype of the handles the log writes through (one call of it is made to fail). */
    async function fileHandles(dir: string): Promise<{ write: () => Promise<unknown>; truncate: () => Promise<void> }> {
      const probe = await open(path.join(dir, 'probe'), 'w');
      await probe.close();
      return Object.getPrototypeOf(probe) as { write: () => Promise<unknown>; truncate: () => Promise<void> };
    }
    const full = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const health = async (server: TestServer) => ((await (await fetch(`${server.url}/api/health`)).json()) as { log: { ok: boolean; message?: string } }).log;

    it('the change is not made and /api/health says so, until a later change reaches the disk', async () => {
      const dataDir = await folder();
      const server = await play(dataDir);
      const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
      vi.spyOn(await fileHandles(dataDir), 'write').mockRejectedValueOnce(full());
      expect(await referee.send({ type: 'button', button: 'NEXT' })).toMatchObject({ ok: false, code: 'log/write-failed', message: expect.stringMatching(/not made; check the disk$/) });
      expect(await health(server)).toMatchObject({ ok: false, message: 'write failed: ENOSPC: no space left on device, write' });
      // Room again: the same press is made, and the health no longer says the write failed.
      expect(await referee.send({ type: 'button', button: 'NEXT' })).toEqual({ ok: true, version: 5 });
      expect(await health(server)).toEqual({ ok: true, path: path.join(dataDir, 'table.jsonl'), entries: 5 });
    });

    it('a failed write that cannot be cut back: every later change says to restart clew once the disk is fixed', async () => {
      const dataDir = await folder();
      const server = await play(dataDir);
      const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
      const handles = await fileHandles(dataDir);
      vi.spyOn(handles, 'write').mockRejectedValueOnce(full());
      vi.spyOn(handles, 'truncate').mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' }));
      const restart = { ok: false, code: 'log/write-failed', message: expect.stringMatching(/cannot save any until clew is restarted; restart clew once the disk is fixed$/) };
      expect(await referee.send({ type: 'button', button: 'NEXT' })).toMatchObject(restart);
      // The disk is fine again, but what the failed write left behind is still in the log.
      expect(await referee.send({ type: 'button', button: 'NEXT' })).toMatchObject(restart);
      expect((await health(server)).message).toMatch(/restart clew once the disk is fixed/);
      expect(server.clew.session.table.version).toBe(4);
    });
  });

  it('a long game compacts its log and resumes exactly', async () => {
    const dataDir = await folder();
    const server = await startTestServer({ dataDir, options: { goal: 100 }, config: { log: { compactEvery: 5 } } });
    servers.push(server);
    const referee = await server.phone({ role: 'referee', code: server.clew.codes.refereeCode });
    for (let i = 0; i < 23; i++) {
      const who = i % 4 < 2 ? 'ann' : 'bob';
      const ack = await referee.send(i % 2 === 0 ? { type: 'move', move: { type: 'roll', player: who, face: 1 + (i % 6) } } : { type: 'button', button: 'NEXT' });
      expect(ack.ok).toBe(true);
      await referee.snapshot((s) => s.version === server.clew.session.table.version);
    }
    const table = server.clew.session.table;
    expect(table.version).toBe(24);
    expect((await readFile(path.join(dataDir, 'table.jsonl'), 'utf8')).trim().split('\n').length).toBeLessThan(5);
    await server.stop();
    servers = servers.filter((s) => s !== server);
    const again = await startTestServer({ dataDir, config: { log: { compactEvery: 5 } } });
    servers.push(again);
    expect(again.clew.session.table).toEqual(table);
  });
});
