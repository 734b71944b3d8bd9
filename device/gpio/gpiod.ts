/**
 * GPIO through the kernel's character device (/dev/gpiochipN) with libgpiod's command line tools
 * (Debian package `gpiod`): `gpiomon` watches a button's line, `gpioset` drives the LED. This is
 * the interface the kernel supports (sysfs GPIO, which onoff uses, is deprecated and may be
 * switched off), and it sets the pull-ups itself, so buttons to GND work without a config.txt line.
 *
 * The tools are child processes, not a native module: nothing to compile on the Pi, and a machine
 * without them still runs clew. Both tool generations are spoken: libgpiod 1.6 (Raspberry Pi OS
 * Bookworm, Debian 12) and 2.x (Debian 13), whose options and output differ.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { signalChild } from '../child-signal.js';
import type { GpioPin, Level, PinDriver, PinOptions } from './pin.js';
import { chooseHeaderChip, type GpioChip } from './sysfs.js';

const run = promisify(execFile);

export type GpiodVersion = 1 | 2;

/** The major version from `gpiomon --version` ("gpiomon (libgpiod) v1.6.3"), or null. */
export function parseGpiodVersion(text: string): GpiodVersion | null {
  const m = /libgpiod\)\s*v(\d+)\./.exec(text);
  if (!m) return null;
  const major = Number(m[1]);
  return major === 1 || major === 2 ? major : null;
}

/** `gpiodetect` lines ("gpiochip0 [pinctrl-rp1] (54 lines)") as chips; lines are the chip's offsets 0…n−1. */
export function parseGpiodetect(text: string): GpioChip[] {
  const chips: GpioChip[] = [];
  for (const line of text.split('\n')) {
    const m = /^(gpiochip\d+)\s+\[([^\]]*)\]\s+\((\d+) lines?\)/.exec(line.trim());
    if (m) chips.push({ name: m[1]!, label: m[2]!, base: 0, ngpio: Number(m[3]) });
  }
  return chips;
}

/** Pull towards the level a released button reads: up for buttons to GND (active low). */
export function biasFor(options: Pick<PinOptions, 'activeLow' | 'direction'>): 'pull-up' | 'pull-down' | 'as-is' {
  if (options.direction !== 'in') return 'as-is';
  return options.activeLow ? 'pull-up' : 'pull-down';
}

/** `gpiomon` arguments that print one line per edge: the line's active level after it. */
export function monitorArgs(version: GpiodVersion, chip: string, offset: number, options: PinOptions): string[] {
  const bias = biasFor(options);
  const low = options.activeLow ? ['--active-low'] : [];
  if (version === 1) return [`--bias=${bias}`, ...low, '--line-buffered', '--format=%e', chip, String(offset)];
  return ['--chip', chip, '--bias', bias, ...low, '--edges', 'both', '--format', '%E', String(offset)];
}

/** One `gpiomon` output line (as `monitorArgs` asks for it) → the active level, or null. */
export function parseEdge(version: GpiodVersion, line: string): Level | null {
  const t = line.trim();
  if (version === 1) return t === '1' ? 1 : t === '0' ? 0 : null; // %e: 1 rising, 0 falling
  return t === 'rising' ? 1 : t === 'falling' ? 0 : null; // %E
}

/** `gpioset` arguments that drive a line and hold it until the process is stopped. */
export function setArgs(version: GpiodVersion, chip: string, offset: number, value: Level): string[] {
  if (version === 1) return ['--mode=signal', chip, `${offset}=${value}`];
  return ['--chip', chip, `${offset}=${value}`];
}

export interface GpiodTools {
  gpiomon: string;
  gpioset: string;
  gpiodetect: string;
}

const SYSTEM_TOOLS: GpiodTools = { gpiomon: 'gpiomon', gpioset: 'gpioset', gpiodetect: 'gpiodetect' };

/** A monitor that died is started again after this pause, doubled while it keeps dying, up to the most. */
const MONITOR_RETRY_MS = 1000;
const MONITOR_RETRY_MAX_MS = 30_000;
/** How long a gpioset is given to drive its level before it may be stopped at release. */
const GPIOSET_SETTLE_MS = 200;
/** A monitor started again counts as watching once it has stayed up this long. */
const MONITOR_UP_MS = 1000;

/** A line held by a tool process; stopping the process releases the line. */
class GpiodPin implements GpioPin {
  private value: Level = 0;
  private watchers: ((error: Error | null | undefined, value: Level) => void)[] = [];
  private child: ChildProcess | null = null;
  private closed = false;
  /** Times the monitor has been started again since it last stayed up. */
  private restarts = 0;
  /** When the running gpioset was started (an output's level). */
  private setAt = -Infinity;
  private retryTimer: NodeJS.Timeout | undefined;
  private upTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly tools: GpiodTools,
    private readonly version: GpiodVersion,
    private readonly chip: string,
    private readonly offset: number,
    private readonly options: PinOptions,
  ) {
    if (options.direction === 'in') this.monitor();
    else this.writeSync(0);
  }

  private monitor(): void {
    const child = spawn(this.tools.gpiomon, monitorArgs(this.version, this.chip, this.offset, this.options), { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    // Watching again once it has stayed up a moment: said to the watchers as the line's level now
    // (released: the pull holds it there), so a button whose monitor died comes back by itself.
    if (this.restarts > 0) {
      this.upTimer = setTimeout(() => {
        if (this.closed || this.child !== child) return;
        this.restarts = 0;
        this.value = 0;
        for (const w of this.watchers) w(null, 0);
      }, MONITOR_UP_MS);
      this.upTimer.unref();
    }
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-500)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const level = parseEdge(this.version, line);
      if (level === null) return;
      this.value = level;
      for (const w of this.watchers) w(null, level);
    });
    const fail = (why: string) => {
      if (this.closed || this.child !== child) return;
      this.child = null;
      if (this.upTimer) clearTimeout(this.upTimer);
      // Started again after a pause that grows while it keeps failing (a line another process
      // holds, a tool missing), so a monitor that died does not leave the button dead.
      const delay = Math.min(MONITOR_RETRY_MAX_MS, MONITOR_RETRY_MS * 2 ** this.restarts);
      this.restarts++;
      const error = new Error(`${this.tools.gpiomon} ${this.chip} line ${this.offset} ${why}${stderr.trim() ? `: ${stderr.trim()}` : ''}; watching it again in ${delay / 1000} s`);
      for (const w of this.watchers) w(error, this.value);
      this.retryTimer = setTimeout(() => {
        if (!this.closed && this.child === null) this.monitor();
      }, delay);
      this.retryTimer.unref();
    };
    child.on('error', (error) => fail(`could not start (${error.message}; apt install gpiod)`));
    // 'close', not 'exit': only then has all it wrote to stderr (why it stopped) been read.
    child.on('close', (code, signal) => fail(`stopped (${signal ?? `exit code ${code}`})`));
  }

  readSync(): Level {
    // The monitor holds the line, so no second process may read it: the last edge tells. A button
    // starts released (the pull brings it to its inactive level).
    return this.value;
  }

  writeSync(value: Level): void {
    if (this.options.direction === 'in') throw new Error(`line ${this.offset} is an input`);
    if (this.closed) return;
    // gpioset holds the line while it runs: a new level is a new process (LED changes are rare),
    // and the level already held costs nothing (killing a gpioset that is still starting races it).
    const held = this.child && this.child.exitCode === null && this.child.signalCode === null;
    if (held && value === this.value) return;
    this.stopChild();
    this.value = value;
    const child = spawn(this.tools.gpioset, setArgs(this.version, this.chip, this.offset, value), { stdio: 'ignore' });
    child.on('error', () => undefined); // reported by the driver's check; an LED is not worth a crash
    this.child = child;
    this.setAt = performance.now();
  }

  watch(callback: (error: Error | null | undefined, value: Level) => void): void {
    this.watchers.push(callback);
  }

  unwatchAll(): void {
    this.watchers = [];
  }

  unexport(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.upTimer);
    const child = this.child;
    const young = this.options.direction !== 'in' && child !== null && performance.now() - this.setAt < GPIOSET_SETTLE_MS;
    if (!young) {
      this.stopChild();
      return;
    }
    // The level just asked for (the LED's "off" at shutdown): a gpioset stopped while it starts
    // dies before it drives the line (libgpiod 1.6 handles the signal only after setting), and
    // the line keeps the level before. So it is stopped once it has had time to drive it.
    this.child = null;
    setTimeout(() => signalChild(child, 'SIGTERM'), GPIOSET_SETTLE_MS - (performance.now() - this.setAt));
  }

  private stopChild(): void {
    const child = this.child;
    this.child = null;
    if (child) signalChild(child, 'SIGTERM');
  }
}

export interface GpiodDriverOptions {
  tools?: Partial<GpiodTools>;
}

/**
 * The driver, or why not: the tools must run and a chip must drive the header (found by label as
 * for sysfs: `pinctrl-rp1` on a Pi 5, `pinctrl-bcm2711` on a Pi 4…). Pins are BCM numbers, which
 * are the line offsets on that chip.
 */
export async function gpiodDriver(options: GpiodDriverOptions = {}): Promise<PinDriver> {
  const tools = { ...SYSTEM_TOOLS, ...options.tools };
  const no = (reason: string): PinDriver => ({ accessible: false, reason, numbering: 'bcm', open: unavailable });
  let version: GpiodVersion | null;
  try {
    const { stdout } = await run(tools.gpiomon, ['--version'], { timeout: 5000 });
    version = parseGpiodVersion(stdout);
  } catch (error) {
    return no(`libgpiod's tools did not run (${(error as Error).message.split('\n')[0]}); apt install gpiod`);
  }
  if (version === null) return no(`${tools.gpiomon} --version did not name libgpiod 1.x or 2.x`);
  let chips: GpioChip[];
  try {
    const { stdout } = await run(tools.gpiodetect, [], { timeout: 5000 });
    chips = parseGpiodetect(stdout);
  } catch (error) {
    return no(`${tools.gpiodetect} failed (${(error as Error).message.split('\n')[0]}); is the user in the gpio group?`);
  }
  const choice = chooseHeaderChip(chips);
  if (!choice.ok) return no(choice.reason.replace('in the sysfs GPIO folder', 'from gpiodetect').replace('; set device.gpio.base in the config', ''));
  const chip = choice.chip;
  return {
    accessible: true,
    numbering: 'bcm',
    describe: `libgpiod ${version}.x, ${chip.name} "${chip.label}"`,
    open: (bcm, pinOptions) => {
      if (!Number.isInteger(bcm) || bcm < 0 || bcm >= chip.ngpio) throw new Error(`BCM ${bcm} is not a line of ${chip.name} (${chip.ngpio} lines)`);
      return new GpiodPin(tools, version, chip.name, bcm, pinOptions);
    },
  };
}

function unavailable(): never {
  throw new Error('GPIO is not available on this machine');
}
