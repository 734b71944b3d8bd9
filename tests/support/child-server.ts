/**
 * A clew server as a child process, for the kill test: the real composition root on the data
 * folder CLEW_DATA, no hardware, playing The worm is drawn. Prints one line
 * `READY {"port":…,"joinCode":…,"refereeCode":…}` once it listens. CLEW_COMPACT_EVERY sets how
 * often the log is compacted. With CLEW_STANDBY=1 it loads its code, then waits for a line on
 * stdin before opening the data folder, so the test can have the next server warm while the
 * current one is killed (loading code is slow; opening and replaying the log is what is tested).
 */
import { createInterface } from 'node:readline';
import { parseConfig } from '../../web/server/config.js';
import { consoleLogger } from '../../web/server/logger.js';
import { startClew } from '../../web/server/main.js';

if (process.env.CLEW_STANDBY === '1') {
  const lines = createInterface({ input: process.stdin });
  const go = await new Promise<boolean>((resolve) => {
    lines.once('line', () => resolve(true));
    // The test went away without releasing this one: leave quietly.
    lines.once('close', () => resolve(false));
  });
  lines.close();
  if (!go) process.exit(0);
}

const config = parseConfig(
  {
    port: 0,
    host: '127.0.0.1',
    table: { game: 'the-worm-is-drawn', options: { players: [{ id: 'ann', name: 'Ann' }, { id: 'bob', name: 'Bob' }] } },
    log: { compactEvery: Number(process.env.CLEW_COMPACT_EVERY ?? 1000) },
    limits: { intentsPerSecond: 10_000, intentBurst: 100_000 },
    vision: { enabled: false },
  },
  { CLEW_DATA: process.env.CLEW_DATA },
);
const clew = await startClew({
  config,
  logger: consoleLogger('warn'),
  adapters: { camera: null, phoneCamera: null, buttons: [], led: null },
  clientDir: '/nonexistent',
});
process.stdout.write(`READY ${JSON.stringify({ port: clew.port, joinCode: clew.codes.joinCode, refereeCode: clew.codes.refereeCode })}\n`);
