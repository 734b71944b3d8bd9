/**
 * Configuration: embedded defaults, a file, then the environment; every bad key named, with where
 * it came from.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, SYSTEM_CONFIG, configPath, loadConfig, parseConfig } from '../../web/server/config.js';

describe('config', () => {
  it('with nothing given: port 8080, every interface, ./.clew-data, Worm & Cozy, the default device section', () => {
    const c = parseConfig(undefined, {});
    expect(c).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: './.clew-data', table: { game: 'worm-and-cozy' }, log: { onCorrupt: 'recover' } });
    expect(c.table.options).toBeUndefined();
    expect(c.device.camera.kind).toBe('auto');
    expect(c.vision.workingSize).toBe(640);
  });

  it('the locator\'s working size is a whole number of pixels from 160 to 4096', () => {
    expect(parseConfig({ vision: { workingSize: 1280 } }, {}).vision.workingSize).toBe(1280);
    expect(() => parseConfig({ vision: { workingSize: 100 } }, {})).toThrow(/vision\.workingSize:/);
    expect(() => parseConfig({ vision: { workingSize: 700.5 } }, {})).toThrow(/vision\.workingSize:/);
  });

  it('the companion reads dice on "auto" threads (two where there are two cores) unless told a number, up to 8', () => {
    expect(parseConfig(undefined, {}).vision.threads).toBe('auto');
    expect(parseConfig({ vision: { threads: 'auto' } }, {}).vision.threads).toBe('auto');
    expect(parseConfig({ vision: { threads: 1 } }, {}).vision.threads).toBe(1);
    expect(parseConfig({ vision: { threads: 3 } }, {}).vision.threads).toBe(3);
    expect(() => parseConfig({ vision: { threads: 'cores' } }, {})).toThrow(/vision\.threads:/);
    expect(() => parseConfig({ vision: { threads: 0 } }, {})).toThrow(/vision\.threads:/);
    expect(() => parseConfig({ vision: { threads: 1.5 } }, {})).toThrow(/vision\.threads:/);
    expect(() => parseConfig({ vision: { threads: 9 } }, {})).toThrow(/vision\.threads:/);
  });

  it('the tray camera learns its view from the rolls unless told overhead, side or any', () => {
    expect(parseConfig(undefined, {}).vision.view).toBe('auto');
    for (const view of ['overhead', 'side', 'any'] as const) expect(parseConfig({ vision: { view } }, {}).vision.view).toBe(view);
    expect(() => parseConfig({ vision: { view: 'sideways' } }, {})).toThrow(/vision\.view:/);
  });

  it('the environment wins over the file: PORT, HOST, CLEW_DATA, CLEW_LOG_LEVEL', () => {
    const c = parseConfig({ port: 9000, dataDir: '/srv/clew' }, { PORT: '8123', HOST: '127.0.0.1', CLEW_DATA: '/tmp/d', CLEW_LOG_LEVEL: 'debug' });
    expect(c).toMatchObject({ port: 8123, host: '127.0.0.1', dataDir: '/tmp/d', logLevel: 'debug' });
  });

  it('an unknown key is an error that names it (a typo is never silently ignored)', () => {
    expect(() => parseConfig({ prot: 8080 }, {}, '/etc/clew/config.json')).toThrow(/\/etc\/clew\/config\.json: \(root\): Unrecognized key: "prot"/);
  });

  it('a port is a whole number, or its digits as text; anything else is refused, not read as some port', () => {
    expect(parseConfig({ port: '8081' }, {}).port).toBe(8081);
    expect(parseConfig(undefined, { PORT: ' 9000 ' }).port).toBe(9000);
    expect(parseConfig({ port: 0 }, {}).port).toBe(0);
    for (const port of [null, '', ' ', false, true, [], [8081], '0x1F90', '1e3', 80.5, -1, 70000]) {
      expect(() => parseConfig({ port }, {}), JSON.stringify(port)).toThrow(/config file: port: a port is (a whole number )?0–65535/);
    }
    for (const PORT of [' ', '0x1F90', '8080abc']) expect(() => parseConfig(undefined, { PORT }), PORT).toThrow(/environment: PORT=(\S+|" "): port: a port is a whole number/);
  });

  it('every bad key is named with its path, including the device section', () => {
    let message = '';
    try {
      parseConfig({ port: 'eighty', table: { game: 'chess' }, device: { gpio: { pins: { NEXT: 99 } } } }, {});
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/port:/);
    expect(message).toMatch(/table\.game:/);
    expect(message).toMatch(/device\.gpio\.pins\.NEXT:/);
  });

  it('a bad PORT in the environment says it came from the environment', () => {
    expect(() => parseConfig({}, { PORT: '70000' })).toThrow(/environment: PORT=70000: port: a port is a whole number 0–65535/);
  });

  it('a bad value is said with the variable or the flag that gave it, as typed (since the thirty-eighth session)', () => {
    expect(() => parseConfig(undefined, { CLEW_LOG_LEVEL: 'verbose' })).toThrow(/^invalid config:\n  environment: CLEW_LOG_LEVEL=verbose: logLevel: /);
    expect(() => parseConfig(undefined, {}, undefined, { port: '99999' })).toThrow(/^invalid config:\n  --port 99999: port: a port is a whole number 0–65535/);
    expect(() => parseConfig(undefined, {}, undefined, { data: '' })).toThrow(/^invalid config:\n  --data "": dataDir: /);
    // The flag wins over the variable: a good PORT under a bad --port is not blamed.
    expect(() => parseConfig(undefined, { PORT: '8080' }, undefined, { port: 'eighty' })).toThrow(/^invalid config:\n  --port eighty: port: .*not "eighty"$/);
    expect(parseConfig(undefined, { PORT: 'eighty', CLEW_DATA: '/a' }, undefined, { port: '8081', data: '/b' })).toMatchObject({ port: 8081, dataDir: '/b' });
  });

  it('the file is a JSON object', () => {
    expect(() => parseConfig([1, 2], {})).toThrow(/must be a JSON object/);
  });

  it('which file: --config, then CLEW_CONFIG, then /etc/clew/config.json when it exists, else none', () => {
    expect(configPath('a.json', { CLEW_CONFIG: 'b.json' }, () => true)).toBe('a.json');
    expect(configPath(undefined, { CLEW_CONFIG: 'b.json' }, () => true)).toBe('b.json');
    expect(configPath(undefined, {}, (p) => p === SYSTEM_CONFIG)).toBe(SYSTEM_CONFIG);
    expect(configPath(undefined, {}, () => false)).toBeUndefined();
  });

  it('loading a file: not JSON, or missing, is a clear error; a relative data folder is relative to the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'clew-config-'));
    try {
      const file = path.join(dir, 'config.json');
      await writeFile(file, '{"port": 80,');
      await expect(loadConfig(file, {})).rejects.toThrow(/is not valid JSON/);
      await expect(loadConfig(path.join(dir, 'nope.json'), {})).rejects.toThrow(/cannot read the config file/);
      await writeFile(file, JSON.stringify({ dataDir: 'data', table: { game: 'tapeworm', options: { players: [] } } }));
      const { config, source } = await loadConfig(file, {});
      expect(source).toBe(file);
      expect(config.dataDir).toBe(path.join(dir, 'data'));
      expect(config.table).toMatchObject({ game: 'tapeworm', options: { players: [] } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('every relative folder in a config file is relative to the file; the environment overriding a key the file sets is said', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'clew-config-'));
    try {
      const file = path.join(dir, 'config.json');
      await writeFile(file, JSON.stringify({ port: 9000, dataDir: '/srv/clew', device: { camera: { kind: 'replay', replay: { folder: 'frames' } } }, vision: { modelDir: '../model' } }));
      const { config, overridden } = await loadConfig(file, { PORT: '8080', CLEW_DATA: '/var/lib/clew' });
      expect(config.device.camera.replay.folder).toBe(path.join(dir, 'frames'));
      expect(config.vision.modelDir).toBe(path.resolve(dir, '../model'));
      expect([config.port, config.dataDir]).toEqual([8080, '/var/lib/clew']);
      expect(overridden).toEqual([
        `port 9000 in ${file} is overridden by PORT=8080 (the installed service sets PORT and CLEW_DATA in its unit)`,
        `dataDir "/srv/clew" in ${file} is overridden by CLEW_DATA=/var/lib/clew (the installed service sets PORT and CLEW_DATA in its unit)`,
      ]);
      // The same values: nothing to say.
      expect((await loadConfig(file, { PORT: '9000' })).overridden).toEqual([]);
      // The start command's flags are said as themselves, not as the variables (since the thirty-eighth session).
      const flagged = await loadConfig(file, { PORT: '8080' }, { port: '8290', data: 'here' });
      expect([flagged.config.port, flagged.config.dataDir]).toEqual([8290, 'here']);
      expect(flagged.overridden).toEqual([`port 9000 in ${file} is overridden by --port 8290`, `dataDir "/srv/clew" in ${file} is overridden by --data here`]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
