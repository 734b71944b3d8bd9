/**
 * The HTTP side (express): health, the table snapshot, reading dice from an uploaded image, and
 * the dashboard's files. Errors are JSON `{code, message}`; never a stack trace.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { DICE_SET_IDS, DIE_COLORS, type DiceSetId, isDieColor } from '../../shared/dice.js';
import type { ErrorCode } from '../../shared/game.js';
import type { HardwareStatus, TableSnapshot } from '../../shared/protocol.js';
import { CAMERA_VIEWS, type CameraView } from '../../vision/types.js';
import type { Logger } from './logger.js';
import { KeyedBuckets } from './rate-limit.js';
import { UploadQueue, type UploadQueueOptions } from './upload-queue.js';

/** The dice command line's JSON for one image, as `npm run dice -- --json` prints it. */
export type DiceReadJson =
  | { file: string; dice: { set?: DiceSetId; face: string; confidence: number; box: [number, number, number, number]; color?: string; uncertain: boolean }[] }
  /**
   * `crop=1`: one die. `diceInPicture`: the picture shows that many whole dice (two or more), so
   * the reading is marked and capped (several-dice.ts); never `dice`, which marks a frame's answer.
   */
  | { file: string; set?: DiceSetId; face: string; confidence: number; color?: string; uncertain: boolean; diceInPicture?: number };

export type CropResult = { ok: true; jpeg: Uint8Array } | { ok: false; status: number; code: ErrorCode; message: string };

export type DiceReadResult = { ok: true; json: DiceReadJson } | { ok: false; status: number; code: ErrorCode; message: string };

export interface HttpDeps {
  /** The snapshot a viewer (no code) sees. */
  snapshot(): TableSnapshot;
  health(): HardwareStatus;
  /** Reads an uploaded image; absent when this server runs without a dice reader. */
  readDice?(image: Buffer, options: { sets: DiceSetId[]; crop: boolean; file: string; palette?: string[]; view?: CameraView }): Promise<DiceReadResult>;
  /** The dice sets a read uses when the request names none: the game's, or d6. */
  defaultSets(): DiceSetId[];
  /** Reads a photographed Worm & Cozy sheet (default: vision/sheet, loaded on first use). */
  readSheet?(image: Buffer, chapter: string): Promise<{ ok: true; json: unknown } | { ok: false; status: number; code: ErrorCode; message: string }>;
  /** Die `index` of the pending camera roll as the camera saw it (JPEG), for "teach clew your dice". */
  crop?(index: number): Promise<CropResult>;
  /** Built dashboard (dist/client); served when it exists. */
  clientDir: string;
  imageBytes: number;
  /** How many uploaded pictures may wait while one is read, and for how long (upload-queue.ts). */
  uploads?: UploadQueueOptions;
  /** Dice reads per second per address (each costs the reader some CPU), with a burst. */
  readsPerSecond?: number;
  now?: () => number;
  logger: Logger;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    /** Seconds after which to try again (a Retry-After header). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** Pictures wait their turn up to a minute (a 100 MP PNG took 8 s on two busy cores); eight may wait. */
const UPLOADS: UploadQueueOptions = { maxWaiting: 8, maxWaitMs: 60_000 };
const RETRY_AFTER_S = 10;

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>clew</title>
<style>body{font:18px/1.5 system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}code{background:#eee;padding:0 .3em}</style>
</head><body>
<h1>clew is running</h1>
<p>The phone dashboard is not built yet. Build it with <code>npm run build</code> and reload.</p>
<p>Meanwhile the table answers at <a href="/api/table">/api/table</a> and its health at <a href="/api/health">/api/health</a>.</p>
</body></html>
`;

function parseSets(value: unknown, fallback: DiceSetId[]): DiceSetId[] {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '') throw new HttpError(400, 'dice/bad-set', 'set= names one or more dice sets, comma separated');
  // As the command line reads --set: spaces trimmed, empty names dropped (`set=d6,` from a script
  // that joins with commas), a set named twice read once.
  const sets = [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
  if (sets.length === 0) throw new HttpError(400, 'dice/bad-set', 'set= names one or more dice sets, comma separated');
  const bad = sets.filter((s) => !(DICE_SET_IDS as string[]).includes(s));
  if (bad.length) throw new HttpError(400, 'dice/bad-set', `unknown dice set ${bad.map((b) => `"${b.slice(0, 20)}"`).join(', ')}; known: ${DICE_SET_IDS.join(', ')}`);
  return sets as DiceSetId[];
}

/** A yes/no query value: 1 / true or 0 / false (absent: no). */
function parseFlag(value: unknown, name: string): boolean {
  if (value === undefined || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new HttpError(400, 'dice/bad-query', `${name}= is 1 or true (yes), 0 or false (no)`);
}

function parsePalette(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const colours = typeof value === 'string' ? value.split(',').map((c) => c.trim()).filter(Boolean) : [];
  const bad = colours.find((c) => !isDieColor(c));
  if (!colours.length || bad !== undefined) {
    throw new HttpError(400, 'dice/bad-palette', `palette= names die colours, comma separated (${Object.keys(DIE_COLORS).join(', ')})${bad ? `; "${bad.slice(0, 20)}" is not one` : ''}`);
  }
  return colours;
}

export function createHttpApp(deps: HttpDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.get('/api/health', (_req, res) => {
    const health = deps.health();
    const ok = health.log.ok && health.camera.ok && health.buttons.every((b) => b.ok) && health.model.ok;
    res.json({ ok, ...health });
  });

  app.get('/api/table', (_req, res) => {
    res.json(deps.snapshot());
  });

  app.get('/api/camera/crop', async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (!deps.crop) throw new HttpError(503, 'camera/no-crop', 'this server keeps no camera frames (vision.enabled is false)');
      const index = Number(req.query.index);
      if (!Number.isInteger(index) || index < 0 || index > 31) throw new HttpError(400, 'camera/bad-index', 'index= is the number of a die of the pending roll, from 0');
      const result = await deps.crop(index);
      if (!result.ok) throw new HttpError(result.status, result.code, result.message);
      res.set('Cache-Control', 'no-store').type('image/jpeg').send(Buffer.from(result.jpeg));
    } catch (error) {
      next(error);
    }
  });

  const reads = new KeyedBuckets(deps.readsPerSecond ?? 2, 5, deps.now ?? (() => performance.now()));
  // One uploaded picture decoded and read at a time, dice and sheets alike (upload-queue.ts).
  const uploads = new UploadQueue(deps.uploads ?? UPLOADS);
  const inTurn = async <T>(job: () => Promise<T>): Promise<T> => {
    const turn = await uploads.run(job);
    if (turn.ok) return turn.value;
    throw new HttpError(503, 'server/busy', `the table is reading other pictures (${turn.reason === 'full' ? 'too many are waiting' : 'this one waited too long'}); send it again in ${RETRY_AFTER_S} seconds`, RETRY_AFTER_S);
  };
  app.post(
    '/api/dice/read',
    (req, _res, next) => next(reads.take(req.ip ?? '?') ? undefined : new HttpError(429, 'rate/limited', 'too many dice reads; wait a moment')),
    express.raw({ type: () => true, limit: deps.imageBytes }),
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        if (!deps.readDice) throw new HttpError(503, 'dice/no-reader', 'this server runs without a dice reader (vision.enabled is false)');
        const body = req.body as unknown;
        if (!Buffer.isBuffer(body) || body.length === 0) throw new HttpError(400, 'photo/empty', 'send the image as the request body (image/jpeg or image/png)');
        const sets = parseSets(req.query.set, deps.defaultSets());
        const crop = parseFlag(req.query.crop, 'crop');
        // A form upload wraps the image in multipart: say what to send instead of "not an image".
        if (/^multipart\//i.test(req.get('content-type') ?? '')) throw new HttpError(415, 'photo/multipart', 'send the image bytes themselves as the request body (e.g. curl --data-binary @photo.jpg), not as a form upload');
        const file = typeof req.query.file === 'string' ? req.query.file.slice(0, 200) : 'upload';
        const palette = parsePalette(req.query.palette);
        const view = req.query.view as CameraView | undefined;
        if (view !== undefined && !CAMERA_VIEWS.includes(view)) throw new HttpError(400, 'dice/bad-view', 'view= is any (the default: not known, each die read in its four quarter turns), side (a photo from above and to one side) or overhead (a camera straight down)');
        const readDice = deps.readDice;
        const result = await inTurn(() => readDice(body, { sets, crop, file, ...(palette ? { palette } : {}), ...(view ? { view } : {}) }));
        if (!result.ok) throw new HttpError(result.status, result.code, result.message);
        res.json(result.json);
      } catch (error) {
        next(error);
      }
    },
  );

  // A photographed sheet → the sheet read, its score and the readings to confirm (vision/sheet).
  app.post(
    '/api/sheet/read',
    (req, _res, next) => next(reads.take(req.ip ?? '?') ? undefined : new HttpError(429, 'rate/limited', 'too many reads; wait a moment')),
    express.raw({ type: () => true, limit: deps.imageBytes }),
    async (req: Request, res: Response, next: NextFunction) => {
      try {
        const body = req.body as unknown;
        if (!Buffer.isBuffer(body) || body.length === 0) throw new HttpError(400, 'photo/empty', 'send the photo of the sheet as the request body (image/jpeg or image/png)');
        // A form upload wraps the image in multipart: say what to send instead of "not an image" (as /api/dice/read).
        if (/^multipart\//i.test(req.get('content-type') ?? '')) throw new HttpError(415, 'photo/multipart', 'send the image bytes themselves as the request body (e.g. curl --data-binary @photo.jpg), not as a form upload');
        const chapter = req.query.chapter;
        if (typeof chapter !== 'string' || chapter === '') throw new HttpError(400, 'sheet/no-chapter', 'chapter= names the chapter printed on the sheet, e.g. chapter=clew-1');
        // Over 100 MP or not a format clew reads (SVG) is said from the header, as /api/dice/read says it.
        const { assertReadablePicture, ImageDecodeError } = await import('../../vision/image/decode.js');
        try {
          await assertReadablePicture(body);
        } catch (error) {
          if (!(error instanceof ImageDecodeError)) throw error;
          const message = `the photo is ${error.message.replace(/^decodeImage: /, '')}`;
          throw error.kind === 'too-large' ? new HttpError(413, 'photo/too-large', message) : new HttpError(415, 'photo/unreadable', message);
        }
        const read = deps.readSheet ?? (await import('../../vision/sheet/service.js')).readSheetForHttp;
        const result = await inTurn(() => read(body, chapter.slice(0, 40)));
        if (!result.ok) throw new HttpError(result.status, result.code, result.message);
        res.json(result.json);
      } catch (error) {
        next(error);
      }
    },
  );

  app.use('/api', (_req, _res, next) => next(new HttpError(404, 'server/not-found', 'no such API; try /api/health, /api/table, POST /api/dice/read or POST /api/sheet/read')));

  // Whether the dashboard is built is asked per request, not once at start: a server started
  // before `npm run build` finished (or during a rebuild) serves the app as soon as it exists.
  const index = path.join(deps.clientDir, 'index.html');
  const built = (): boolean => existsSync(index);
  // The page must be asked for afresh (it names this build's scripts): cached for an hour, a phone
  // kept asking for the scripts of the build before an update and showed a blank dashboard. The
  // scripts' names are content hashes, so they may be kept as long as a phone likes.
  const noCache = (res: Response) => res.set('Cache-Control', 'no-cache');
  const serveStatic = express.static(deps.clientDir, {
    index: 'index.html',
    maxAge: '1h',
    setHeaders: (res, file) => {
      if (path.basename(file) === 'index.html') noCache(res);
      else if (file.startsWith(path.join(deps.clientDir, 'assets') + path.sep)) res.set('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
  // The build leaves a gzipped twin of each script and style sheet (web/client/build.ts): a phone
  // that accepts gzip gets it, a third of the bytes over a table's Wi-Fi. Names are content hashes.
  app.get(/^\/assets\/[\w.-]+\.(js|css)$/, (req, res, next) => {
    const file = path.join(deps.clientDir, `${req.path}.gz`);
    if (!/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) || !existsSync(file)) return next();
    res.set({ 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding', 'Cache-Control': 'public, max-age=31536000, immutable' });
    res.type(req.path.endsWith('.js') ? 'application/javascript' : 'text/css');
    res.sendFile(file);
  });
  app.use((req, res, next) => (built() ? serveStatic(req, res, next) : next()));
  // A script or style sheet this build does not have (a page cached from the build before) is
  // missing, not the app: answered with the page, the browser ran HTML as a script and the phone stayed blank.
  app.get(/^\/assets\//, (req, res) => {
    res.status(404).type('text').send(`no such file in this build of the dashboard: ${req.path}; reload the page`);
  });
  // The dashboard routes on the client: any other page is the app (or the placeholder before a build).
  app.get(/^\/(?!api\/|socket\.io\/).*/, (_req, res) => {
    noCache(res);
    if (built()) res.sendFile(index);
    else res.type('html').send(PLACEHOLDER);
  });

  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof HttpError) {
      if (error.retryAfterS !== undefined) res.set('Retry-After', String(error.retryAfterS));
      res.status(error.status).json({ code: error.code, message: error.message });
      return;
    }
    const status = typeof error === 'object' && error !== null && 'status' in error ? Number((error as { status: unknown }).status) : 500;
    if (status === 413) {
      // Said so a player knows what to do: a phone's full-size photo (48 MP and more) can pass the limit.
      const length = typeof error === 'object' && error !== null && 'length' in error && typeof error.length === 'number' ? error.length : null;
      const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1).replace(/\.0$/, '')} MB`;
      res.status(413).json({
        code: 'payload/too-large',
        message: `the picture is too big to send${length !== null ? ` (${mb(length)})` : ''}: this table takes at most ${mb(deps.imageBytes)}. Take the photo at a lower resolution (12 MP is plenty), or share a smaller copy of it`,
      });
      return;
    }
    if (status >= 400 && status < 500) {
      res.status(status).json({ code: 'payload/invalid', message: 'the request could not be read' });
      return;
    }
    deps.logger.error(`http: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    res.status(500).json({ code: 'server/internal', message: 'something went wrong on the table server' });
  });

  return app;
}
