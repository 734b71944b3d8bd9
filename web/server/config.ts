/**
 * The server's configuration: embedded defaults, then a JSON file (`--config FILE`, else
 * `CLEW_CONFIG`, else `/etc/clew/config.json` when it exists), then the environment (`PORT`,
 * `HOST`, `CLEW_DATA`, `CLEW_LOG_LEVEL`), then the start command's `--port` and `--data`. Every
 * key is optional; unknown keys are errors, so a typo is caught instead of silently ignored, and
 * a bad value is said with where it came from (the file, the variable, the flag). The `device`
 * section belongs to device/ and is validated by its schema.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { GAME_IDS, type GameId } from '../../shared/game.js';
import { deviceConfigSchema, type DeviceConfig } from '../../device/config.js';
import { codeSchema } from './codes.js';
import { CAMERA_VIEWS, WORKING_SIZE_RANGE } from '../../vision/types.js';

export const SYSTEM_CONFIG = '/etc/clew/config.json';

/** A port: a whole number, or its digits as text (PORT comes as text); null, "", true, "0x1F90" or "1e3" are refused, not read as a port. */
const PORT_RULE = 'a port is a whole number 0–65535 (0: any free port)';
const port = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z.number({ error: (issue) => `${PORT_RULE}, not ${JSON.stringify(issue.input)}` }).int(PORT_RULE).min(0, PORT_RULE).max(65535, PORT_RULE),
);

export const configSchema = z
  .object({
    port: port.default(8080),
    /** Address to listen on; the default listens on every interface so phones can reach it. */
    host: z.string().min(1).default('0.0.0.0'),
    /** Folder for the event log, the join codes and the dice calibrations. */
    dataDir: z.string().min(1).default('./.clew-data'),
    logLevel: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    table: z
      .object({
        /** The game a fresh table starts with; the referee can start another from a phone. */
        game: z.enum(GAME_IDS as [GameId, ...GameId[]]).default('worm-and-cozy'),
        /** That game's setup options (its own schema checks them); default: the registry's for that game. */
        options: z.unknown().optional(),
        /** Fix the codes instead of generating them (a Pi without a screen: put the referee code here). */
        joinCode: codeSchema.optional(),
        refereeCode: codeSchema.optional(),
      })
      .strict()
      .prefault({}),
    log: z
      .object({
        /** A corrupt line in the middle of the log: 'recover' starts from the last good state (and keeps the file); 'refuse' stops. */
        onCorrupt: z.enum(['recover', 'refuse']).default('recover'),
        /** Snapshot the table and start an empty log after this many events. */
        compactEvery: z.number().int().min(2).max(1_000_000).default(1000),
      })
      .strict()
      .prefault({}),
    limits: z
      .object({
        /** Intents per second per phone (token bucket), with this burst. */
        intentsPerSecond: z.number().min(0.1).max(10_000).default(10),
        intentBurst: z.number().int().min(1).max(100_000).default(30),
        /** Camera frames per second from one phone (the phone camera has its own overall limit too). */
        framesPerSecond: z.number().min(0.5).max(60).default(10),
        /** Join attempts per minute, per phone and per address (join codes cannot be guessed). */
        joinsPerMinute: z.number().min(1).max(100_000).default(10),
        /** Largest image accepted by POST /api/dice/read, in bytes. */
        imageBytes: z.number().int().min(1024).max(50_000_000).default(8_000_000),
      })
      .strict()
      .prefault({}),
    vision: z
      .object({
        /** false: no dice reader at all (manual entry only; saves the memory of TensorFlow.js). */
        enabled: z.boolean().default(true),
        /** Model folder; default: the model shipped in vision/. */
        modelDir: z.string().min(1).optional(),
        /**
         * What teaching clew the dice adapts: 'net' (the whole net; about 10 s on a laptop core,
         * 30–40 s on a Pi 4) or 'head' (the last layer only; about 1 s, gains less).
         */
        calibrate: z.enum(['net', 'head']).default('net'),
        /** Training steps when the whole net adapts (fewer: faster and weaker). */
        adaptSteps: z.number().int().min(1).max(1000).default(60),
        /**
         * Dice checked during play teach clew too: when a camera roll is used, the dice a person
         * corrected in it and, when a phone used it, its dice marked "check" join their set's
         * labelled crops on the Teach tab, once the game has moved on (an undo first drops them).
         * Nothing is fitted until the referee saves, as with dice labelled on the Teach tab.
         */
        learnFromChecks: z.boolean().default(true),
        /**
         * The camera's dice still in doubt are read again in turned colours (RGB as GBR and as
         * BRG), the three readings averaged, as pictures and uploads always are: the reader then
         * reads dice of any colours as it reads its best ones. "auto" (the default): in frames of
         * up to 8 dice, the most any of clew's games rolls, where it costs a few milliseconds; on a
         * 25-dice frame most dice are in doubt and the frame would take about half as long again,
         * over its 60 ms. true: always; false: never (docs/notes/vision-model.md, "The colour
         * look").
         */
        colourLook: z.union([z.boolean(), z.literal('auto')]).default('auto'),
        /**
         * Threads that read the dice, this one included (vision/model/forward-pool.ts): "auto"
         * (the default since the thirty-first session: two where the machine has two cores) or
         * a number. Each further thread holds its own tfjs-core, tfjs-layers and wasm backend,
         * about 40–55 MB more resident (the companion's target is 300 MB), and takes up to a fifth
         * off a 25-dice frame on two cores here, with the same readings bit for bit.
         */
        threads: z.union([z.literal('auto'), z.number().int().min(1).max(8)]).default('auto'),
        /**
         * How the tray camera looks at the dice: 'auto' (the default since the twenty-fifth
         * session: read 'any' and learn the view from the settled rolls' dice, then read in it;
         * vision/view-learner.ts), 'overhead' (straight down, as a Pi camera over the tray and
         * the shipped replay; side faces show towards the frame's centre), 'side' (from above and
         * to one side, as a webcam on a stand or a photo; side faces show below each die's top)
         * or 'any' (not known: each die read in its four quarter turns, weighted by how upright
         * each looks, a frame's dice judged together). Why 'auto': read against the empty tray,
         * 'any' reads rendered trays within a few dice of the right view in every pose, and a
         * wrong view loses 10–15 points (docs/notes/vision-model.md, "Learning the tray camera's
         * view"). A phone's camera, held any way, is always read 'any'.
         */
        view: z.enum([...CAMERA_VIEWS, 'auto']).default('auto'),
        /**
         * The locator's working size: frames are located fitted within this many pixels (smaller
         * ones enlarged to it from above half of it). 640 suits dice of about 20–300 px in frames
         * up to 640 px, and the Pi's 1280×720 with dice from about 40 px; a camera so high that
         * the dice are smaller needs more (1280: four times the locating time).
         */
        workingSize: z.number().int().min(WORKING_SIZE_RANGE.min).max(WORKING_SIZE_RANGE.max).default(640),
        /**
         * Take the empty tray by itself (true, the default): when the table camera's frames
         * settle with no die found and no empty tray fits (none shown yet, or the camera moved),
         * that frame becomes the empty tray, as if the referee had shown it. \`tray/forget\`
         * turns this off until the tray is shown again. false: only the referee shows it.
         */
        autoTray: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    device: deviceConfigSchema.prefault({}),
  })
  .strict();

export type ServerConfig = z.output<typeof configSchema>;
export type ServerConfigInput = z.input<typeof configSchema>;
export type { DeviceConfig };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `where` names the source of each issue's key (a file, a variable, a flag). */
function describe(error: z.ZodError, where: (key: PropertyKey | undefined) => string): string {
  return error.issues.map((i) => `  ${where(i.path[0])}: ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('\n');
}

/** Config keys the environment may set, and the variable that sets each. */
const ENVIRONMENT: Readonly<Record<string, string>> = { port: 'PORT', host: 'HOST', dataDir: 'CLEW_DATA', logLevel: 'CLEW_LOG_LEVEL' };

/** The start command's flags that set a config key (they win over the environment). */
export interface StartFlags {
  port?: string;
  data?: string;
}
const FLAGS: Readonly<Record<keyof StartFlags, { key: string; flag: string }>> = { port: { key: 'port', flag: '--port' }, data: { key: 'dataDir', flag: '--data' } };

/** The config keys the flags set, each with the words that name where it came from. */
function fromFlags(flags: StartFlags): Map<string, { value: string; said: string }> {
  const out = new Map<string, { value: string; said: string }>();
  for (const [name, { key, flag }] of Object.entries(FLAGS) as [keyof StartFlags, { key: string; flag: string }][]) {
    const value = flags[name];
    if (value !== undefined) out.set(key, { value, said: `${flag} ${shown(value)}` });
  }
  return out;
}

/** A value as a person typed it; quoted where blanks or nothing would hide it. */
function shown(value: string): string {
  return /^[^\s"']+$/.test(value) ? value : JSON.stringify(value);
}

/** Environment variables the server reads, mapped onto config keys. */
export function fromEnvironment(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(ENVIRONMENT)) {
    const value = env[name];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

/**
 * Pure: file contents (already parsed JSON, or undefined) and the environment → config. Throws a
 * ConfigError naming every bad key and where it came from.
 */
export function parseConfig(file: unknown, env: NodeJS.ProcessEnv, where = 'config file', flags: StartFlags = {}): ServerConfig {
  if (file !== undefined && (typeof file !== 'object' || file === null || Array.isArray(file))) {
    throw new ConfigError(`invalid config:\n  ${where}: must be a JSON object`);
  }
  const fromFile = configSchema.safeParse(file ?? {});
  if (!fromFile.success) throw new ConfigError(`invalid config:\n${describe(fromFile.error, () => where)}`);
  const envKeys = fromEnvironment(env);
  const flagKeys = fromFlags(flags);
  const merged = configSchema.safeParse({ ...((file as Record<string, unknown> | undefined) ?? {}), ...envKeys, ...Object.fromEntries([...flagKeys].map(([k, f]) => [k, f.value])) });
  if (!merged.success) {
    // The file alone was good: what is bad came from a flag or a variable; say which, as typed.
    const source = (key: PropertyKey | undefined): string => {
      const flag = typeof key === 'string' ? flagKeys.get(key) : undefined;
      if (flag) return flag.said;
      const name = typeof key === 'string' ? ENVIRONMENT[key] : undefined;
      return name !== undefined && env[name] !== undefined ? `environment: ${name}=${shown(env[name])}` : 'environment';
    };
    throw new ConfigError(`invalid config:\n${describe(merged.error, source)}`);
  }
  return merged.data;
}

/** Which file to read: the flag, then CLEW_CONFIG, then the system file when it exists. */
export function configPath(flag: string | undefined, env: NodeJS.ProcessEnv, exists: (p: string) => boolean = existsSync): string | undefined {
  if (flag) return flag;
  if (env.CLEW_CONFIG) return env.CLEW_CONFIG;
  return exists(SYSTEM_CONFIG) ? SYSTEM_CONFIG : undefined;
}

/**
 * The config, where it came from, and the keys the config file sets that the environment (or the
 * start command's `--port` / `--data`) overrides: said at start, since the installed service sets
 * PORT and CLEW_DATA and an edit to the file's `port` or `dataDir` would otherwise do nothing.
 */
export async function loadConfig(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  flags: StartFlags = {},
): Promise<{ config: ServerConfig; source: string; overridden: string[] }> {
  const file = configPath(flag, env);
  if (!file) return { config: parseConfig(undefined, env, undefined, flags), source: 'embedded defaults', overridden: [] };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read the config file ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`the config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const config = parseConfig(json, env, file, flags);
  const given = json as Record<string, unknown>;
  // Relative folders in a config file are relative to that file, not to wherever clew was started.
  const here = (p: string) => (path.isAbsolute(p) ? p : path.resolve(path.dirname(file), p));
  if (!env.CLEW_DATA && flags.data === undefined && 'dataDir' in given) config.dataDir = here(config.dataDir);
  const camera = (given.device as { camera?: { replay?: { folder?: unknown } } } | undefined)?.camera;
  if (typeof camera?.replay?.folder === 'string') config.device.camera.replay.folder = here(config.device.camera.replay.folder);
  if (typeof (given.vision as { modelDir?: unknown } | undefined)?.modelDir === 'string' && config.vision.modelDir) config.vision.modelDir = here(config.vision.modelDir);
  // Each key said once, by what set it last: a flag wins over the variable.
  const winners = new Map<string, { value: unknown; said: string }>();
  for (const [k, value] of Object.entries(fromEnvironment(env))) {
    winners.set(k, { value, said: `${ENVIRONMENT[k]}=${String(value)} (the installed service sets PORT and CLEW_DATA in its unit)` });
  }
  for (const [k, { value, said }] of fromFlags(flags)) winners.set(k, { value, said });
  const overridden = [...winners]
    .filter(([k, { value }]) => k in given && String(given[k]) !== String(value))
    .map(([k, { said }]) => `${k} ${JSON.stringify(given[k])} in ${file} is overridden by ${said}`);
  return { config, source: file, overridden };
}
