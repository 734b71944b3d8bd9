/**
 * `npm start`: runs the table companion. Reads the config (--config FILE, CLEW_CONFIG, or
 * /etc/clew/config.json; then PORT, HOST, CLEW_DATA), starts everything, prints the URL and a QR
 * code for phones, and shuts down cleanly on SIGINT/SIGTERM (buttons and camera stopped, pins
 * released, the log flushed).
 */
// First: a stop asked for while the rest loads is remembered (early-stop.ts).
import { takeEarlyStop } from './early-stop.js';
import path from 'node:path';
import { Command } from 'commander';
import QRCode from 'qrcode';
import { ConfigError, loadConfig } from '../web/server/config.js';
import { phoneUrl } from '../web/server/lan.js';
import { consoleLogger } from '../web/server/logger.js';
import { startClew } from '../web/server/main.js';

const program = new Command()
  .name('clew')
  .description('the clew table companion: serves the dashboard, reads the dice, referees the hour')
  .option('-c, --config <file>', 'config file (JSON); default: $CLEW_CONFIG or /etc/clew/config.json when present')
  .option('-p, --port <port>', 'port to listen on (overrides PORT and the config file)')
  .option('-d, --data <dir>', 'data folder for the log and calibrations (overrides CLEW_DATA)')
  .option('--no-qr', 'do not print QR codes')
  // A usage error (an unknown option, a missing value) exits 2, as a bad config does; --help 0.
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
  .parse();
const opts = program.opts<{ config?: string; port?: string; data?: string; qr: boolean }>();

let loaded;
try {
  // The flags go in as themselves, so a bad --port or an override is said as the flag's.
  loaded = await loadConfig(opts.config, process.env, { port: opts.port, data: opts.data });
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `clew: ${(error as Error).message}`}\n`);
  process.exit(2);
}
const { config, source, overridden } = loaded;
const logger = consoleLogger(config.logLevel);
logger.info(`config: ${source}`);
for (const line of overridden) logger.warn(`config: ${line}`);

let clew;
try {
  clew = await startClew({ config, logger });
} catch (error) {
  // The ones a person can act on at once, said in their words.
  const { code, path: where } = error as NodeJS.ErrnoException;
  const dataDir = path.resolve(config.dataDir);
  // The data folder, a file in it, or a folder above it that it should be made in.
  const inDataDir = where !== undefined && [path.relative(dataDir, path.resolve(where)), path.relative(path.resolve(where), dataDir)].some((r) => !r.startsWith('..') && !path.isAbsolute(r));
  const otherFolder = 'choose another folder with --data <folder> or CLEW_DATA=<folder> (or "dataDir" in the config)';
  const hint =
    code === 'EADDRINUSE' ? `: port ${config.port} is taken by another program; stop it, or give clew another port (--port, PORT or "port" in the config)`
    : code === 'ENOTFOUND' || code === 'EADDRNOTAVAIL' ? `: this machine cannot listen on host "${config.host}"; set HOST (or "host" in the config) to one of its addresses, or 0.0.0.0 for all of them`
    : inDataDir && (code === 'ENOTDIR' || code === 'EEXIST') ? `: clew cannot make its data folder ${dataDir}, a file is in the way; ${otherFolder}`
    : inDataDir && code === 'EROFS' ? `: clew cannot write in its data folder ${dataDir}, the file system is read-only; ${otherFolder}`
    : inDataDir && (code === 'EACCES' || code === 'EPERM') ? `: clew may not write in its data folder ${dataDir}; let it (chown the folder to the user clew runs as), or ${otherFolder}`
    : '';
  logger.error(`could not start: ${(error as Error).message}${hint}`);
  process.exit(1);
}

const base = phoneUrl(config.host, clew.port);
const playerUrl = `${base}/?code=${clew.codes.joinCode}`;
const refereeUrl = `${base}/?referee=${clew.codes.refereeCode}`;
const lines = [
  '',
  `  clew is running: ${base}`,
  `  players: open ${playerUrl}  (join code ${clew.codes.joinCode})`,
  `  referee: open ${refereeUrl}  (referee code ${clew.codes.refereeCode})`,
  '',
];
process.stdout.write(lines.join('\n') + '\n');
if (opts.qr) {
  process.stdout.write('  Scan to join as a player:\n' + (await QRCode.toString(playerUrl, { type: 'terminal', small: true })) + '\n');
  process.stdout.write('  Scan to referee:\n' + (await QRCode.toString(refereeUrl, { type: 'terminal', small: true })) + '\n');
}

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal}: shutting down`);
  const force = setTimeout(() => {
    logger.error('shutdown took too long; exiting anyway (the log is fsynced per event, nothing acknowledged is lost)');
    process.exit(1);
  }, 10_000);
  force.unref();
  clew!.close().then(
    () => {
      logger.info('stopped');
      process.exit(0);
    },
    (error: unknown) => {
      logger.error(`shutdown: ${(error as Error).message}`);
      process.exit(1);
    },
  );
};
// A stop asked for while clew started waits for the start, then shuts down cleanly (the lock
// released, the camera and pins let go).
const stopAsked = takeEarlyStop();
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
if (stopAsked) stop(stopAsked);
