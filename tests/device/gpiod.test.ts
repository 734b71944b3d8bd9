/**
 * GPIO through libgpiod's tools: the pure parts (versions, chips, arguments, edge lines) and the
 * driver itself, run against stand-in `gpiomon` / `gpioset` / `gpiodetect` scripts that behave
 * like the real tools at the process edge (their arguments, their output, holding a line until
 * they are stopped). This machine has no /dev/gpiochip, so the real tools cannot run here; their
 * options and formats are those of libgpiod 1.6.3 (checked with the Debian package's --help) and
 * of libgpiod 2.x's sources.
 */
import { chmodSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GpioButtons } from '../../device/gpio/gpio-buttons.js';
import { biasFor, gpiodDriver, monitorArgs, parseEdge, parseGpiodVersion, parseGpiodetect, setArgs, type GpiodTools } from '../../device/gpio/gpiod.js';
import { GpioLed } from '../../device/gpio/led.js';
import { choosePinDriver, type PinDriver } from '../../device/gpio/pin.js';
import { chooseHeaderChip } from '../../device/gpio/sysfs.js';
import { memoryLogger } from '../../device/log.js';
import { recordButtons } from './support/collect.js';
import { scratchDir } from '../support/scratch.js';

const PI5_GPIODETECT = `gpiochip0 [gpio-brcmstb@107d508500] (32 lines)
gpiochip1 [gpio-brcmstb@107d508520] (4 lines)
gpiochip2 [gpio-brcmstb@107d517c00] (17 lines)
gpiochip3 [gpio-brcmstb@107d517c20] (6 lines)
gpiochip4 [pinctrl-rp1] (54 lines)
`;
const PI4_GPIODETECT = `gpiochip0 [pinctrl-bcm2711] (58 lines)
gpiochip1 [raspberrypi-exp-gpio] (8 lines)
`;

describe('libgpiod tools: what they say and what they are told', () => {
  it('reads the major version of either generation', () => {
    expect(parseGpiodVersion('gpiomon (libgpiod) v1.6.3\nCopyright (C) 2017-2018 Bartosz Golaszewski')).toBe(1);
    expect(parseGpiodVersion('gpiomon (libgpiod) v2.1.3\nCopyright (C) 2017-2023 Bartosz Golaszewski')).toBe(2);
    expect(parseGpiodVersion('gpiomon (libgpiod) v3.0')).toBeNull();
    expect(parseGpiodVersion('command not found')).toBeNull();
  });

  it('lists the chips and picks the one behind the header: pinctrl-rp1 on a Pi 5, not the SoC chips', () => {
    const chips = parseGpiodetect(PI5_GPIODETECT);
    expect(chips).toHaveLength(5);
    expect(chooseHeaderChip(chips)).toMatchObject({ ok: true, chip: { name: 'gpiochip4', label: 'pinctrl-rp1', ngpio: 54 } });
    expect(chooseHeaderChip(parseGpiodetect(PI4_GPIODETECT))).toMatchObject({ ok: true, chip: { name: 'gpiochip0', label: 'pinctrl-bcm2711' } });
    expect(parseGpiodetect('nothing here\n')).toEqual([]);
  });

  it('pulls a button towards its released level (up for buttons to GND), and leaves outputs alone', () => {
    expect(biasFor({ direction: 'in', activeLow: true })).toBe('pull-up');
    expect(biasFor({ direction: 'in', activeLow: false })).toBe('pull-down');
    expect(biasFor({ direction: 'low', activeLow: false })).toBe('as-is');
  });

  it('asks gpiomon for one line per edge in each generation\'s own options', () => {
    const button = { direction: 'in', edge: 'both', activeLow: true } as const;
    expect(monitorArgs(1, 'gpiochip4', 17, button)).toEqual(['--bias=pull-up', '--active-low', '--line-buffered', '--format=%e', 'gpiochip4', '17']);
    expect(monitorArgs(2, 'gpiochip4', 17, button)).toEqual(['--chip', 'gpiochip4', '--bias', 'pull-up', '--active-low', '--edges', 'both', '--format', '%E', '17']);
    expect(monitorArgs(1, 'gpiochip0', 5, { ...button, activeLow: false })).toEqual(['--bias=pull-down', '--line-buffered', '--format=%e', 'gpiochip0', '5']);
  });

  it('reads an edge line as the active level after it, and ignores anything else', () => {
    expect([parseEdge(1, '1'), parseEdge(1, '0'), parseEdge(1, ' 1 \n'), parseEdge(1, 'rising')]).toEqual([1, 0, 1, null]);
    expect([parseEdge(2, 'rising'), parseEdge(2, 'falling'), parseEdge(2, '1')]).toEqual([1, 0, null]);
  });

  it('asks gpioset to hold the line until it is stopped', () => {
    expect(setArgs(1, 'gpiochip4', 24, 1)).toEqual(['--mode=signal', 'gpiochip4', '24=1']);
    expect(setArgs(2, 'gpiochip4', 24, 0)).toEqual(['--chip', 'gpiochip4', '24=0']);
  });
});

/**
 * Stand-in tools in a temp folder. gpiomon writes its arguments and pid to the folder, prints the
 * edges the test drops into `edges-<offset>` (one per line, as the real tool would on a press),
 * and runs until stopped; gpioset records its arguments and holds until stopped.
 */
function fakeTools(version: '1.6.3' | '2.1.3', detect = PI5_GPIODETECT, gpiomonFails = '', failOnce = false): { dir: string; tools: GpiodTools; press: (offset: number, lines: string[]) => void } {
  const dir = scratchDir('clew-gpiod-');
  const script = (name: string, body: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const gpiomon = script('gpiomon', `
if [ "$1" = "--version" ]; then echo "gpiomon (libgpiod) v${version}"; echo "Copyright (C) 2017-2023 Bartosz Golaszewski"; exit 0; fi
for last; do :; done
${gpiomonFails && failOnce ? `if [ ! -f "${dir}/failed-$last" ]; then : > "${dir}/failed-$last"; echo "${gpiomonFails}" >&2; exit 1; fi` : gpiomonFails ? `echo "${gpiomonFails}" >&2; exit 1` : ''}
trap 'echo "$$" >> "${dir}/gpiomon.stopped"; exit 0' TERM
echo "$$ $*" >> "${dir}/gpiomon.calls"
seen=0
while true; do
  if [ -f "${dir}/edges-$last" ]; then
    n=$(wc -l < "${dir}/edges-$last")
    if [ "$n" -gt "$seen" ]; then tail -n +$((seen + 1)) "${dir}/edges-$last" | head -n $((n - seen)); seen=$n; fi
  fi
  sleep 0.05
done`);
  // As libgpiod 1.6: the signal is handled only once the level is driven (a moment after start).
  const gpioset = script('gpioset', `
trap 'echo "$$" >> "${dir}/gpioset.stopped"; exit 0' TERM
echo "$$ $*" >> "${dir}/gpioset.calls"
sleep 0.05
echo "$*" >> "${dir}/gpioset.driven"
while true; do sleep 0.05; done`);
  const gpiodetect = script('gpiodetect', `printf '%s' "${detect}"`);
  const press = (offset: number, lines: string[]) => writeFileSync(path.join(dir, `edges-${offset}`), lines.map((l) => `${l}\n`).join(''), { flag: 'a' });
  return { dir, tools: { gpiomon, gpioset, gpiodetect }, press };
}

/**
 * The whole lines a stand-in tool has written so far. The shell opens the file before it writes
 * (`>>`), so a loaded machine can show it empty or with a line not yet ended: neither counts.
 */
const lines = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(0, -1).filter((l) => l.length > 0) : []);
const calls = (dir: string, tool: string): { pid: number; args: string[] }[] =>
  lines(path.join(dir, `${tool}.calls`)).map((l) => { const [pid, ...args] = l.split(' '); return { pid: Number(pid), args }; });
const stopped = (dir: string, tool: string): number[] => lines(path.join(dir, `${tool}.stopped`)).map(Number);

async function until(what: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const pins = { NEXT: 17, BACK: 27, READ: 22, OK: 23 };
const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

describe('the libgpiod driver, with stand-in tools', () => {
  it('says why not when the tools are missing, and when no chip drives the header', async () => {
    const missing = await gpiodDriver({ tools: { gpiomon: '/nonexistent/gpiomon' } });
    expect(missing).toMatchObject({ accessible: false, reason: expect.stringMatching(/apt install gpiod/) });
    const { tools } = fakeTools('1.6.3', 'gpiochip0 [some-expander] (8 lines)\ngpiochip1 [other] (8 lines)\n');
    const nochip = await gpiodDriver({ tools });
    expect(nochip).toMatchObject({ accessible: false, reason: expect.stringMatching(/cannot tell which gpiochip drives the header/) });
  });

  it.each([['1.6.3', '1'], ['2.1.3', 'rising']] as const)('buttons on libgpiod %s: pull-ups set, presses arrive, lines released on stop', async (version, risingWord) => {
    const { dir, tools, press } = fakeTools(version);
    const driver = await gpiodDriver({ tools });
    expect(driver).toMatchObject({ accessible: true, numbering: 'bcm', describe: expect.stringMatching(/gpiochip4 "pinctrl-rp1"/) });
    const log = memoryLogger();
    const buttons = new GpioButtons({ pins, base: 'auto', activeLow: true, debounceMs: 30, holdMs: 800, log, driver });
    running.push(buttons);
    const seen = recordButtons(buttons);
    await buttons.start();
    expect(buttons.status()).toMatchObject({ ok: true, message: expect.stringMatching(/BCM NEXT=17 .* \(libgpiod \d\.x, gpiochip4 "pinctrl-rp1"\)/) });
    await until(() => calls(dir, 'gpiomon').length === 4);
    const next = calls(dir, 'gpiomon').find((c) => c.args.at(-1) === '17')!;
    expect(next.args).toEqual(monitorArgs(version === '1.6.3' ? 1 : 2, 'gpiochip4', 17, { direction: 'in', edge: 'both', activeLow: true }));
    expect(next.args.join(' ')).toMatch(/pull-up/);
    // A press: the line goes active, and 200 ms later back.
    press(17, [risingWord]);
    await until(() => seen.includes('press NEXT'));
    press(17, [risingWord === '1' ? '0' : 'falling']);
    await until(() => seen.includes('release NEXT'));
    expect(seen).toEqual(['press NEXT', 'release NEXT']);
    await buttons.stop();
    running.length = 0;
    const pids = calls(dir, 'gpiomon').map((c) => c.pid).sort();
    await until(() => stopped(dir, 'gpiomon').length === 4);
    expect(stopped(dir, 'gpiomon').sort()).toEqual(pids);
  });

  it('a line another program holds: the monitor\'s error reaches the log, and the rest keeps working', async () => {
    const { tools } = fakeTools('1.6.3', PI5_GPIODETECT, 'gpiomon: error waiting for events: Device or resource busy');
    const log = memoryLogger();
    const buttons = new GpioButtons({ pins, base: 'auto', activeLow: true, debounceMs: 30, holdMs: 800, log, driver: await gpiodDriver({ tools }) });
    running.push(buttons);
    await buttons.start();
    await until(() => log.messages('warn').some((m) => /watch error: .*gpiochip4 line \d+ stopped \(exit code 1\): gpiomon: error waiting for events: Device or resource busy/.test(m)));
  });

  it('a monitor that dies: the buttons say so on their status, it is started again, and presses arrive once more', async () => {
    const { tools, press } = fakeTools('1.6.3', PI5_GPIODETECT, 'gpiomon: error waiting for events: Device or resource busy', true);
    const log = memoryLogger();
    const buttons = new GpioButtons({ pins, base: 'auto', activeLow: true, debounceMs: 30, holdMs: 800, log, driver: await gpiodDriver({ tools }) });
    running.push(buttons);
    const seen = recordButtons(buttons);
    await buttons.start();
    await until(() => !buttons.status().ok);
    expect(buttons.status().message).toMatch(/button \(BCM \d+\) not watched: .*Device or resource busy; watching it again in 1 s/);
    // Started again after a second, and counted as watching a second later.
    await until(() => buttons.status().ok, 8000);
    expect(log.messages('info').filter((m) => /watched again/.test(m))).toHaveLength(4);
    press(17, ['1']);
    await until(() => seen.includes('press NEXT'));
  });

  it('the status LED: gpioset holds each level; a new level replaces the old process, the same level keeps it; stop releases it', async () => {
    const { dir, tools } = fakeTools('2.1.3', PI4_GPIODETECT);
    const led = new GpioLed({ pin: 24, base: 'auto', driver: await gpiodDriver({ tools }), log: memoryLogger() });
    running.push(led);
    await led.start();
    expect(led.status()).toMatchObject({ ok: true });
    await until(() => calls(dir, 'gpioset').length === 1);
    expect(calls(dir, 'gpioset')[0]!.args).toEqual(['--chip', 'gpiochip0', '24=0']);
    led.set('on');
    await until(() => calls(dir, 'gpioset').length === 2 && stopped(dir, 'gpioset').length === 1);
    expect(calls(dir, 'gpioset')[1]!.args).toEqual(['--chip', 'gpiochip0', '24=1']);
    // The level already held starts nothing new; the next change does.
    led.set('on');
    led.set('off');
    await until(() => calls(dir, 'gpioset').length >= 3 && stopped(dir, 'gpioset').length === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(calls(dir, 'gpioset').map((c) => c.args.at(-1))).toEqual(['24=0', '24=1', '24=0']);
    await led.stop();
    running.length = 0;
    const all = calls(dir, 'gpioset').map((c) => c.pid);
    await until(() => all.every((pid) => stopped(dir, 'gpioset').includes(pid)));
  });

  it('the LED\'s last level is driven before its line is released (clew stopping: "off", then stop at once)', async () => {
    const { dir, tools } = fakeTools('1.6.3', PI4_GPIODETECT);
    const led = new GpioLed({ pin: 24, base: 'auto', driver: await gpiodDriver({ tools }), log: memoryLogger() });
    const driven = () => lines(path.join(dir, 'gpioset.driven')).map((l) => l.split(' ').at(-1));
    await led.start();
    await until(() => driven().length === 1);
    led.set('on');
    await until(() => driven().length === 2);
    led.set('off');
    await led.stop();
    // Every gpioset started has stopped: the last one after it drove its level.
    await until(() => calls(dir, 'gpioset').length === 3 && stopped(dir, 'gpioset').length === 3);
    expect(driven()).toEqual(['24=0', '24=1', '24=0']);
  });

  it('a BCM number the chip does not have is refused with the chip\'s size', async () => {
    const { tools } = fakeTools('1.6.3', PI4_GPIODETECT);
    const driver = await gpiodDriver({ tools });
    expect(() => driver.open(60, { direction: 'in', edge: 'both', activeLow: true })).toThrow(/BCM 60 is not a line of gpiochip0 \(58 lines\)/);
  });
});

describe('choosing the pin driver', () => {
  const yes = (describe: string): PinDriver => ({ accessible: true, describe, open: () => { throw new Error('not in this test'); } });
  const no = (reason: string): PinDriver => ({ accessible: false, reason, open: () => { throw new Error('not available'); } });

  it('auto: sysfs when it is there, else libgpiod, else both reasons', async () => {
    expect((await choosePinDriver('auto', { onoff: async () => yes('sysfs'), gpiod: async () => yes('gpiod') })).describe).toBe('sysfs');
    expect((await choosePinDriver('auto', { onoff: async () => no('no sysfs'), gpiod: async () => yes('gpiod') })).describe).toBe('gpiod');
    const neither = await choosePinDriver('auto', { onoff: async () => no('no sysfs'), gpiod: async () => no('no tools') });
    expect(neither).toMatchObject({ accessible: false, reason: 'sysfs: no sysfs; libgpiod: no tools' });
  });

  it('the config can name one', async () => {
    expect((await choosePinDriver('gpiod', { onoff: async () => yes('sysfs'), gpiod: async () => yes('gpiod') })).describe).toBe('gpiod');
    expect((await choosePinDriver('onoff', { onoff: async () => no('no sysfs'), gpiod: async () => yes('gpiod') })).accessible).toBe(false);
  });

  const noGpioHere = !existsSync('/sys/class/gpio/export') && !readdirSync('/dev').some((n) => n.startsWith('gpiochip'));
  it.runIf(noGpioHere)('on a machine with neither sysfs GPIO nor a gpiochip, auto says why for both', async () => {
    const driver = await choosePinDriver('auto');
    expect(driver.accessible).toBe(false);
    expect(driver.reason).toMatch(/^sysfs: .*; libgpiod: /);
  });
});
