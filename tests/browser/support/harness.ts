/**
 * The browser harness: Debian's Chromium driven by playwright-core (headless, no sandbox, no GPU,
 * nothing fetched from the net, a fresh profile per launch), phones as 360 x 640 touch screens,
 * and the real clew server started in-process on an ephemeral port with a temporary CLEW_DATA,
 * serving the built dashboard. Used by the browser tests and by `npm run screenshots`.
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { GameId } from '../../../shared/game.js';
import { CLIENT_OUT, REPO, ensureClientBuilt } from '../../../web/client/build.js';
import { parseConfig, type ServerConfigInput } from '../../../web/server/config.js';
import { collectingLogger } from '../../../web/server/logger.js';
import { startClew, type Adapters, type Clew, type StartOptions } from '../../../web/server/main.js';
import { scratchDir } from '../../support/scratch.js';

export const CHROMIUM = process.env.CLEW_CHROMIUM ?? '/usr/bin/chromium';

/** The flags the brief (and .ci/run) launch Chromium with, plus fake media for "phone as camera". */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Even with background networking off, Chromium looks up update.googleapis.com and
  // accounts.google.com at start (seen with strace). The tests need no name but the server's,
  // so every other name fails at once, without a DNS query leaving the machine.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
];

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  await ensureClientBuilt({ quiet: true });
  // playwright's launch() gives every browser a fresh temporary profile (user-data dir). Its 30 s
  // for Chromium to start is short on a small machine busy with other tests (the hooks allow more).
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...extraArgs], timeout: 120_000 });
}

/** The dice reader needs the classifier's and the die detector's weights (committed by vision/). */
export const HAS_MODEL = ['vision/model/weights/meta.json', 'vision/locate/detector/weights/detector.json'].every((f) => existsSync(path.join(REPO, f)));

export const PHONE = { viewport: { width: 360, height: 640 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } as const;

/** A phone: its own context (own storage, like a separate device) and one page. */
export async function openPhone(browser: Browser, url: string, options: { permissions?: string[] } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE, ...(options.permissions ? { permissions: options.permissions } : {}) });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(url);
  return { context, page };
}

export const JOIN_CODE = 'WORMS';
export const REFEREE_CODE = 'REFEREE7';

export interface ServerOptions {
  game?: GameId;
  options?: unknown;
  dataDir?: string;
  /** device.camera config (default: no camera). */
  camera?: Record<string, unknown>;
  /** Keep the dice reader off (faster start when the test enters dice by hand). */
  vision?: boolean;
  adapters?: Partial<Adapters>;
  config?: ServerConfigInput;
  /** Passed to startClew (e.g. one dice reader shared by several servers). */
  start?: Partial<Pick<StartOptions, 'loadReader'>>;
}

export interface RunningServer {
  clew: Clew;
  url: string;
  port: number;
  dataDir: string;
  /** Stops the server and keeps the data (for a restart on the same folder). */
  stop(): Promise<void>;
  /** Stops it and removes the data folder when the harness made it. */
  close(): Promise<void>;
}

export async function tempDir(prefix: string): Promise<string> {
  return scratchDir(prefix);
}

export async function startServer(opts: ServerOptions = {}, port = 0): Promise<RunningServer> {
  // The dashboard must exist before a phone loads it (a fresh clone has no dist/).
  await ensureClientBuilt({ quiet: true });
  const made = opts.dataDir ? null : await tempDir('clew-browser-');
  const dataDir = opts.dataDir ?? made!;
  const config = parseConfig(
    {
      port,
      host: '127.0.0.1',
      dataDir,
      logLevel: 'error',
      table: { game: opts.game ?? 'worm-and-cozy', ...(opts.options !== undefined ? { options: opts.options } : {}), joinCode: JOIN_CODE, refereeCode: REFEREE_CODE },
      vision: { enabled: opts.vision ?? false },
      device: { camera: opts.camera ?? { kind: 'none' }, keyboard: 'off', gpio: { enabled: 'off' }, serial: { path: 'none' } },
      ...opts.config,
    },
    {},
  );
  const clew = await startClew({ config, logger: collectingLogger(), clientDir: CLIENT_OUT, ...(opts.adapters ? { adapters: opts.adapters } : {}), ...opts.start });
  return {
    clew,
    url: clew.url,
    port: clew.port,
    dataDir,
    stop: () => clew.close(),
    close: async () => {
      await clew.close();
      if (made) await rm(made, { recursive: true, force: true });
    },
  };
}
