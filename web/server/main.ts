/**
 * The composition root: reads nothing by itself (scripts/start.ts loads the config), picks the
 * real or fallback adapters through device/select.ts, opens the table (replaying the log), and
 * starts HTTP, socket.io, the buttons and the camera. `close()` stops everything in reverse order
 * and flushes the log. Tests and the bench start it in-process with their own adapters.
 */
import { createServer } from 'node:http';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CameraSource, PhoneCamera, SelectedButtons } from '../../device/select.js';
import type { StatusLed } from '../../device/types.js';
import { DEFAULT_OPTIONS, GAMES } from '../../shared/games/registry.js';
import type { ButtonName, GameId } from '../../shared/game.js';
import type { DiceSetId } from '../../shared/dice.js';
import type { HardwareStatus } from '../../shared/protocol.js';
import { TableCalibration } from './calibration.js';
import { TableTray } from './tray.js';
import { viewMemory } from './view-memory.js';
import { CameraPipeline, withViewLearning, type RollStream } from './camera.js';
import { loadCodes, type TableCodes } from './codes.js';
import { lazyReader, noReader, type ReaderHolder } from './dice-reader.js';
import type { ServerConfig } from './config.js';
import { lockDataDir } from './data-lock.js';
import { createHttpApp } from './http.js';
import { consoleLogger, type Logger } from './logger.js';
import { TableSession } from './session.js';
import { attachSocket, type Transport } from './socket.js';
import { lanInvite, localUrl } from './lan.js';
import type { GameLookup } from './table.js';
import type { ClewDiceReader } from '../../vision/reader.js';
import type { RgbImage } from '../../vision/types.js';
import { sharedSnapshot, forAudience } from './view.js';

/**
 * Labelled dice kept per face until the referee saves a calibration: the Teach tab asks for 5,
 * and the dice checked in play add more every game; the oldest go first, so a table that never
 * saves keeps its disk and start-up bounded (about 7 KB a crop on disk, 12 KB in memory).
 */
export const LABELS_KEPT_PER_FACE = 20;

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_CLIENT_DIR = path.join(REPO_ROOT, 'dist/client');

export const registryLookup: GameLookup = (id) => GAMES[id];

export interface Adapters {
  camera: CameraSource | null;
  /** Frames a phone sends over the socket ("use this phone as the camera"). */
  phoneCamera: PhoneCamera | null;
  buttons: SelectedButtons[];
  led: StatusLed | null;
}

export interface StartOptions {
  config: ServerConfig;
  logger?: Logger;
  /** The engines; default: shared/games/registry.ts. */
  games?: GameLookup;
  /** Replace any adapter (tests, bench); the rest are selected from config and the machine. */
  adapters?: Partial<Adapters>;
  clientDir?: string;
  now?: () => number;
  /** How often hardware status is polled for changes to show on the phones (ms). */
  statusPollMs?: number;
  /** Replaces loading vision's reader (tests: a reader loaded once for many servers). */
  loadReader?: () => Promise<ClewDiceReader>;
  /** Makes the stream reader the camera pipelines feed (default: vision's stream over the reader). */
  rollStream?: (reader: ClewDiceReader) => RollStream;
}

export interface Clew {
  url: string;
  port: number;
  session: TableSession;
  codes: TableCodes;
  transport: Transport;
  health(): HardwareStatus;
  reader: ReaderHolder;
  /** The camera pipelines running (the table's camera, a phone's camera). */
  pipelines: CameraPipeline[];
  close(): Promise<void>;
}

/** The configured game, or (when this build lacks its engine) the first game it has. */
function initialGame(config: ServerConfig, games: GameLookup, logger: Logger): { game: GameId; options: unknown } {
  const wanted = config.table.game;
  if (games(wanted)) return { game: wanted, options: config.table.options ?? DEFAULT_OPTIONS[wanted] };
  const available = (Object.keys(DEFAULT_OPTIONS) as GameId[]).find((id) => games(id));
  if (!available) throw new Error('this build has no game engines');
  logger.warn(`table: no engine for ${wanted} in this build; a fresh table starts with ${available}`);
  return { game: available, options: DEFAULT_OPTIONS[available] };
}

export async function startClew(options: StartOptions): Promise<Clew> {
  const { config } = options;
  const logger = options.logger ?? consoleLogger(config.logLevel);
  const games = options.games ?? registryLookup;
  const now = options.now ?? Date.now;
  const dataDir = path.resolve(config.dataDir);
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch((e: unknown) => logger.error(`shutdown: ${(e as Error).message}`));
  };

  try {
    await mkdir(dataDir, { recursive: true });
    const lock = await lockDataDir(dataDir);
    cleanups.push(() => lock.release());

    const codes = await loadCodes(
      dataDir,
      {
        ...(config.table.joinCode ? { joinCode: config.table.joinCode } : {}),
        ...(config.table.refereeCode ? { refereeCode: config.table.refereeCode } : {}),
      },
      (message) => logger.warn(message),
    );
    const session = await TableSession.open({
      dataDir,
      games,
      initialGame: initialGame(config, games, logger),
      onCorrupt: config.log.onCorrupt,
      compactEvery: config.log.compactEvery,
      logger,
      now,
    });
    cleanups.push(() => session.close());
    logger.info(`log: ${session.logStatus().path} (version ${session.table.version})`);

    // device/ is loaded only when some adapter is to be selected (its camera code pulls in sharp).
    const given = options.adapters ?? {};
    const complete = given.camera !== undefined && given.buttons !== undefined && given.led !== undefined && given.phoneCamera !== undefined;
    const device = complete ? null : await import('../../device/select.js');
    const adapters: Adapters = {
      camera: given.camera !== undefined ? given.camera : await device!.selectCamera(config.device, logger),
      buttons: given.buttons ?? (await device!.selectButtons(config.device, logger)),
      led: given.led !== undefined ? given.led : await device!.selectLed(config.device, logger),
      phoneCamera: null,
    };
    // Any table can borrow a phone's camera; when the configured camera is the phone, it is this one.
    adapters.phoneCamera =
      given.phoneCamera !== undefined
        ? given.phoneCamera
        : adapters.camera instanceof device!.PhoneCamera
          ? adapters.camera
          : new device!.PhoneCamera({
              maxBytes: config.device.camera.phone.maxBytes,
              maxFps: config.device.camera.phone.maxFps,
              stallMs: config.device.camera.stallMs,
              log: logger,
            });

    let transport: Transport | null = null;
    const calibrationDir = path.join(dataDir, 'calibration');
    const reader: ReaderHolder = config.vision.enabled
      ? lazyReader(
          options.loadReader ??
            (async () => {
              const vision = await import('../../vision/reader.js');
              return vision.loadDiceReader({
                calibrationDir,
                calibrate: config.vision.calibrate,
                adapt: { steps: config.vision.adaptSteps },
                pendingPerFace: LABELS_KEPT_PER_FACE,
                threads: config.vision.threads,
                locate: { maxSide: config.vision.workingSize },
                ...(config.vision.modelDir ? { modelDir: config.vision.modelDir } : {}),
              });
            }),
          logger,
          () => transport?.broadcast(),
        )
      : noReader;
    cleanups.push(async () => reader.dispose());

    // One pipeline per source of frames; the reader and its stream load on the first frame that matters.
    const pipelines = new Map<'camera' | 'phone-camera', CameraPipeline>();
    // sharp (under vision's decoder) loads with the first frame, not with the server.
    const decode = async (jpeg: Uint8Array) => (await import('../../vision/image/decode.js')).decodeImage(jpeg);
    // A camera frame strictly: one cut short that kept its end marker decoded as a half-grey picture (taken for motion).
    const decodeFrame = async (jpeg: Uint8Array) => (await import('../../vision/image/decode.js')).decodeImage(jpeg, { strict: true });
    if (config.vision.enabled) {
      const makeStream = options.rollStream ?? (await import('./roll-stream.js')).visionRollStream;
      const sources: ['camera' | 'phone-camera', CameraSource | PhoneCamera | null][] = [
        ['camera', adapters.camera],
        ['phone-camera', adapters.phoneCamera !== adapters.camera ? adapters.phoneCamera : null],
      ];
      for (const [kind, source] of sources) {
        if (!source) continue;
        let stream: RollStream | null = null;
        pipelines.set(
          kind,
          new CameraPipeline({
            source,
            kind: source === adapters.phoneCamera ? 'phone-camera' : kind,
            session,
            games,
            decode: decodeFrame,
            stream: async () => (stream ??= makeStream(await reader.get())),
            logger,
            view: source === adapters.phoneCamera ? 'any' : config.vision.view,
            colourLook: config.vision.colourLook,
            ...(source !== adapters.phoneCamera ? { viewMemory: viewMemory(path.join(dataDir, 'camera-view.json'), logger) } : {}),
            // The frames of its last rolls, so a roll read before a restart can still be labelled and taught.
            framesDir: path.join(dataDir, 'roll-frames', kind),
            onTrayFit: () => transport?.broadcast(),
            // The table's own camera may take a still frame with no dice as its empty tray (below).
            ...(source !== adapters.phoneCamera ? { onSettledEmpty: (frame: { jpeg: Uint8Array; image: RgbImage }) => void tray.settledEmpty(frame) } : {}),
          }),
        );
      }
    }
    const keptUntil: number[] = [];
    for (const pipeline of pipelines.values()) {
      const latest = await pipeline.restoreFrames();
      if (latest !== null) keptUntil.push(latest);
      // A start that fails before the pipelines run still lets the index rewrite reading back may
      // have queued finish before the data folder's lock is released (stop is safe twice).
      cleanups.push(() => pipeline.stop());
    }
    const calibration = new TableCalibration(calibrationDir, reader, (source) => pipelines.get(source) ?? pipelines.get('camera') ?? null, logger, () => transport?.broadcast(), {
      learnFromChecks: config.vision.enabled && config.vision.learnFromChecks,
      file: path.join(dataDir, 'dice-in-play.json'),
      heldDir: path.join(dataDir, 'held-roll'),
    });
    cleanups.push(() => calibration.close());
    await calibration.load(session.table);
    // A Teach label names a die by frame time and box, whichever camera took it: every camera's
    // frames of this run are timed after all those kept and all the remembered labels name (a
    // frames index lost, unreadable or older than the labels does not bring them down onto theirs).
    const labelledUntil = calibration.latestLabelTime();
    if (labelledUntil !== null) keptUntil.push(labelledUntil);
    if (keptUntil.length > 0) for (const pipeline of pipelines.values()) pipeline.timeFramesAfter(Math.max(...keptUntil));
    // Dice checked during play teach clew too (vision.learnFromChecks).
    session.onChange((table, change) => calibration.played(change.event, change.before, table));
    // The empty tray the table camera compares its frames with (a phone's camera moves: never).
    const tray = new TableTray({
      dir: path.join(dataDir, 'tray'),
      pipeline: () => (adapters.camera && adapters.camera !== adapters.phoneCamera ? (pipelines.get('camera') ?? null) : null),
      decode,
      maxSide: config.vision.workingSize,
      auto: config.vision.autoTray,
      onChange: () => transport?.broadcast(),
      logger,
      now,
    });
    await tray.load();
    session.setSideEffects({
      read: async () => {
        const pipeline = pipelines.get('camera') ?? pipelines.get('phone-camera');
        if (!pipeline) return { ok: false, code: 'camera/none', message: config.vision.enabled ? 'this table has no camera' : 'dice reading is off (vision.enabled = false)' };
        return pipeline.readNow();
      },
      calibrate: async (intent, table) => {
        const result = await calibration.handle(intent, table);
        transport?.broadcast();
        return result;
      },
      tray: async (intent) => {
        const result = await tray.handle(intent);
        transport?.broadcast();
        return result;
      },
    });

    const health = (): HardwareStatus => {
      const camera = adapters.camera?.status() ?? { kind: 'none', ok: true, message: 'no camera: dice are entered by hand' };
      const problem = pipelines.get('camera')?.status();
      const log = session.logStatus();
      return {
        // A reader that cannot load is the model's problem (below), not the camera's.
        camera: problem && reader.status().ok ? { ...camera, ok: false, message: problem } : withViewLearning(camera, pipelines.get('camera')?.viewLearning() ?? null),
        buttons: adapters.buttons.map((b) => b.status()),
        model: reader.status(),
        log: { ok: log.ok, path: log.path, entries: log.entries, ...(log.message !== undefined ? { message: log.message } : {}) },
      };
    };
    const surroundings = () => ({ hardware: health(), calibration: calibration.status(), tray: tray.status() });

    const app = createHttpApp({
      snapshot: () => forAudience(sharedSnapshot(session.table, games, surroundings()), { role: 'viewer' }, codes),
      health,
      defaultSets: () => games(session.table.game)?.diceRequest(session.table.state)?.sets ?? ['d6'],
      ...(config.vision.enabled
        ? { crop: async (index: number) => (await import('./crop.js')).rollCrop(session.table.roll, index, (source) => pipelines.get(source) ?? pipelines.get('camera') ?? null) }
        : {}),
      ...(config.vision.enabled
        ? { readDice: async (image: Buffer, o: { sets: DiceSetId[]; crop: boolean; file: string; palette?: string[] }) => (await import('./dice-upload.js')).readUpload(reader, image, o) }
        : {}),
      clientDir: options.clientDir ?? DEFAULT_CLIENT_DIR,
      imageBytes: config.limits.imageBytes,
      logger,
    });
    const http = createServer(app);
    const phoneCamera = adapters.phoneCamera;
    let lanUrl: string | null = null;
    transport = attachSocket(http, {
      session,
      games,
      codes,
      lanUrl: () => lanUrl,
      surroundings,
      ...(phoneCamera ? { frame: (jpeg: Uint8Array) => phoneCamera.push(jpeg) } : {}),
      limits: config.limits,
      logger,
      now,
    });
    const live = transport;
    cleanups.push(() => live.close());

    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(config.port, config.host, () => {
        http.off('error', reject);
        resolve();
      });
    });
    const port = (http.address() as AddressInfo).port;
    lanUrl = lanInvite(config.host, port);
    const url = localUrl(config.host, port);
    logger.info(`http: listening on ${config.host}:${port}`);

    // Hardware comes up after the table is reachable: a slow or failing camera never blocks play.
    const onPress = (button: ButtonName) => {
      session.button(button).then(
        (ack) => {
          if (!ack.ok) logger.info(`button ${button}: ${ack.message}`);
        },
        // A press that fails (an engine's bug, a closed table) is said; the table keeps running.
        (error: unknown) => logger.error(`button ${button}: ${(error as Error).message}`),
      );
    };
    for (const source of adapters.buttons) {
      source.on('press', onPress);
      await source.start().catch((e: unknown) => logger.error(`buttons ${source.kind}: ${(e as Error).message}`));
      cleanups.push(async () => {
        source.off('press', onPress);
        await source.stop();
      });
    }
    if (adapters.led) {
      const led = adapters.led;
      await led.start().catch((e: unknown) => logger.error(`status LED: ${(e as Error).message}`));
      led.set('on');
      const stopBlink = session.onChange((t) => led.set(t.roll?.needsConfirmation ? 'blink' : 'on'));
      cleanups.push(async () => {
        stopBlink();
        led.set('off');
        await led.stop();
      });
    }
    if (phoneCamera && phoneCamera !== adapters.camera) {
      await phoneCamera.start();
      cleanups.push(() => phoneCamera.stop());
    }
    if (adapters.camera) {
      const camera = adapters.camera;
      await camera.start().catch((e: unknown) => logger.error(`camera ${camera.kind}: ${(e as Error).message}`));
      cleanups.push(() => camera.stop());
    }
    for (const pipeline of pipelines.values()) {
      pipeline.start();
      cleanups.push(() => pipeline.stop());
    }

    // Hardware changes (a camera unplugged, a button box found) reach the phones within a poll.
    let lastHealth = JSON.stringify(health());
    const poll = setInterval(() => {
      const next = JSON.stringify(health());
      if (next !== lastHealth) {
        lastHealth = next;
        live.broadcast();
      }
    }, options.statusPollMs ?? 2000);
    poll.unref();
    cleanups.push(async () => clearInterval(poll));

    let closing: Promise<void> | null = null;
    return {
      url,
      port,
      session,
      codes,
      transport: live,
      health,
      reader,
      pipelines: [...pipelines.values()],
      close: () => (closing ??= cleanup()),
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
