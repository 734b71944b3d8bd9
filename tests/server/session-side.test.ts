/**
 * The session's queue and the slow side effect: fitting a calibration (the whole net is adapted,
 * tens of seconds on a Pi) runs beside the queue, so the table keeps playing meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../shared/game.js';
import { DEFAULT_OPTIONS } from '../../shared/games/registry.js';
import { silentLogger } from '../../web/server/logger.js';
import { registryLookup } from '../../web/server/main.js';
import { TableSession } from '../../web/server/session.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function openTable(): Promise<TableSession> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'clew-session-'));
  dirs.push(dataDir);
  return TableSession.open({ dataDir, games: registryLookup, initialGame: { game: 'worm-and-cozy', options: DEFAULT_OPTIONS['worm-and-cozy'] }, onCorrupt: 'refuse', compactEvery: 100, logger: silentLogger, now: () => 0 });
}

describe('a calibration being fitted', () => {
  it('does not hold up buttons or a table change; it answers when it is done, at any table version', async () => {
    const session = await openTable();
    let release!: () => void;
    const calls: string[] = [];
    session.setSideEffects({
      calibrate: async (intent) => {
        calls.push(intent.type);
        await new Promise<void>((r) => (release = r));
        return ok(null);
      },
    });
    let answered = false;
    const commit = session.submit({ kind: 'referee' }, { version: 0, intent: { type: 'calibration/commit', set: 'd6' } }).then((ack) => ((answered = true), ack));
    // A button press and a setup go through the queue while the fit is still running.
    await session.button('NEXT');
    const before = session.table.version;
    const setup = await session.submit({ kind: 'referee' }, { version: before, intent: { type: 'table/setup', game: 'worm-and-cozy', options: DEFAULT_OPTIONS['worm-and-cozy'] } });
    expect(setup).toMatchObject({ ok: true });
    expect(session.table.version).toBeGreaterThan(before);
    expect(answered).toBe(false);
    release();
    expect(await commit).toMatchObject({ ok: true, version: session.table.version });
    expect(calls).toEqual(['calibration/commit']);
    await session.close();
  });

  it('is still the referee\'s alone', async () => {
    const session = await openTable();
    session.setSideEffects({ calibrate: async () => ok(null) });
    const ack = await session.submit({ kind: 'player', player: 'p1' }, { version: 1, intent: { type: 'calibration/undo', set: 'd6' } });
    expect(ack).toMatchObject({ ok: false, code: 'auth/not-referee' });
    await session.close();
  });
});
