/**
 * Starts a real clew server in-process on an ephemeral port with a temporary data folder: the
 * real table, log, socket.io and express; the hardware replaced by test buttons and no camera.
 */
import type { GameId } from '../../shared/game.js';
import { parseConfig, type ServerConfigInput } from '../../web/server/config.js';
import { collectingLogger } from '../../web/server/logger.js';
import { startClew, type Adapters, type Clew, type StartOptions } from '../../web/server/main.js';
import type { GameLookup } from '../../web/server/table.js';
import { FakeButtons } from './fake-buttons.js';
import { RACE, raceOnly } from './games.js';
import { connectPhone, type Phone } from './phone.js';
import { tempDir } from './tmp.js';

export interface TestServer {
  clew: Clew;
  url: string;
  dataDir: string;
  buttons: FakeButtons;
  logger: ReturnType<typeof collectingLogger>;
  phone(auth?: Record<string, unknown>): Promise<Phone>;
  /** Stops the server, keeping the data folder (for restarts). */
  stop(): Promise<void>;
  /** Stops the server and removes the data folder. */
  close(): Promise<void>;
}

export interface TestServerOptions {
  games?: GameLookup;
  game?: GameId;
  options?: unknown;
  dataDir?: string;
  config?: ServerConfigInput;
  adapters?: Partial<Adapters>;
  /** More start options (a shared dice reader, a stream tuning). */
  start?: Pick<StartOptions, 'loadReader' | 'rollStream' | 'clientDir'>;
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const tmp = opts.dataDir ? null : await tempDir('clew-server-');
  const dataDir = opts.dataDir ?? tmp!.dir;
  const config = parseConfig(
    {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      table: { game: opts.game ?? RACE, options: opts.options ?? {} },
      vision: { enabled: false },
      ...opts.config,
    },
    {},
  );
  const buttons = new FakeButtons();
  const logger = collectingLogger();
  const clew = await startClew({
    config,
    logger,
    games: opts.games ?? raceOnly,
    adapters: { camera: null, buttons: [buttons], led: null, ...opts.adapters },
    clientDir: '/nonexistent',
    ...opts.start,
  });
  const phones: Phone[] = [];
  return {
    clew,
    url: clew.url,
    dataDir,
    buttons,
    logger,
    async phone(auth) {
      const p = await connectPhone(clew.url, auth ? { auth } : {});
      phones.push(p);
      return p;
    },
    async stop() {
      for (const p of phones) p.close();
      await clew.close();
    },
    async close() {
      for (const p of phones) p.close();
      await clew.close();
      await tmp?.remove();
    },
  };
}
