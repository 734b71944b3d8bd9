/**
 * One GPIO pin, as the buttons and LED use it. The real ones are onoff's Gpio (sysfs; this folder
 * is the only place that imports onoff) and a libgpiod tool process (gpiod.ts); tests pass a fake
 * factory with the same shape.
 */
export type Level = 0 | 1;

export interface GpioPin {
  readSync(): Level;
  writeSync(value: Level): void;
  watch(callback: (error: Error | null | undefined, value: Level) => void): void;
  unwatchAll(): void;
  unexport(): void;
}

export interface PinOptions {
  direction: 'in' | 'low';
  edge: 'both' | 'none';
  activeLow: boolean;
}

export interface PinDriver {
  /** False when the driver cannot reach the pins (no sysfs GPIO or libgpiod tools, or no permission). */
  accessible: boolean;
  /** Why not, when not accessible. */
  reason?: string;
  /**
   * What `open` takes: 'sysfs' (default) numbers are base + BCM (onoff); 'bcm' is the BCM number
   * itself, the line offset on the header's chip (libgpiod).
   */
  numbering?: 'sysfs' | 'bcm';
  /** For status lines: which interface and chip. */
  describe?: string;
  open(pinNumber: number, options: PinOptions): GpioPin;
}

export type PinDriverChoice = 'auto' | 'onoff' | 'gpiod';

/**
 * The driver the config asks for. 'auto' takes onoff (sysfs) when sysfs GPIO is there, else
 * libgpiod's tools (character device), else says why neither works.
 */
export async function choosePinDriver(choice: PinDriverChoice = 'auto', drivers: { onoff?: () => Promise<PinDriver>; gpiod?: () => Promise<PinDriver> } = {}): Promise<PinDriver> {
  const onoff = drivers.onoff ?? onoffDriver;
  const gpiod = drivers.gpiod ?? (async () => (await import('./gpiod.js')).gpiodDriver());
  if (choice === 'onoff') return onoff();
  if (choice === 'gpiod') return gpiod();
  const first = await onoff();
  if (first.accessible) return first;
  const second = await gpiod();
  if (second.accessible) return second;
  return { ...first, reason: `sysfs: ${first.reason ?? 'not accessible'}; libgpiod: ${second.reason ?? 'not accessible'}` };
}

/**
 * What clew uses of onoff's Gpio. Typed here, not imported: onoff is an optional dependency (its
 * epoll module is compiled at install, and `npm ci` skips it on a machine with no C++ compiler),
 * so the type check must not need it installed.
 */
interface OnoffGpio {
  new (gpio: number, direction: PinOptions['direction'], edge: PinOptions['edge'], options: { activeLow: boolean }): GpioPin;
  readonly accessible: boolean;
}

/** A name, not a literal: TypeScript then does not look for onoff's types (absent where it was skipped). */
const ONOFF_MODULE = 'onoff';

/** onoff, loaded lazily: a machine without onoff or its epoll native module still runs the rest of clew. */
export async function onoffDriver(): Promise<PinDriver> {
  let Gpio: OnoffGpio;
  try {
    ({ Gpio } = (await import(ONOFF_MODULE)) as { Gpio: OnoffGpio });
  } catch (error) {
    return { accessible: false, reason: `onoff could not be loaded: ${(error as Error).message}`, open: unavailable };
  }
  const accessible = Gpio.accessible;
  return {
    accessible,
    ...(accessible ? {} : { reason: '/sys/class/gpio/export is missing or not writable (not a Pi, sysfs GPIO disabled, or the user is not in the gpio group)' }),
    numbering: 'sysfs',
    describe: 'sysfs (onoff)',
    open: (n, o) => new Gpio(n, o.direction, o.edge, { activeLow: o.activeLow }),
  };
}

function unavailable(): never {
  throw new Error('GPIO is not available on this machine');
}

/** A readable hint for the errors sysfs gives when exporting a pin (libgpiod's own messages say enough). */
export function explainPinError(error: unknown, bcm: number, sysfs: number, numbering: PinDriver['numbering'] = 'sysfs'): string {
  if (numbering === 'bcm') return `BCM ${bcm}: ${(error as Error).message}`;
  const code = (error as NodeJS.ErrnoException).code;
  const base = sysfs - bcm;
  switch (code) {
    case 'EINVAL':
      return `sysfs GPIO ${sysfs} (BCM ${bcm} + base ${base}) does not exist: on kernel 6.6+ the base is 512 on a Pi 4 and 571 on a Pi 5; leave device.gpio.base at "auto" or set it`;
    case 'EBUSY':
      return `BCM ${bcm} (sysfs ${sysfs}) is in use by another driver or program (an overlay in config.txt?)`;
    case 'EACCES':
    case 'EPERM':
      return `no permission for BCM ${bcm} (sysfs ${sysfs}): add the user to the gpio group`;
    default:
      return `BCM ${bcm} (sysfs ${sysfs}): ${(error as Error).message}`;
  }
}
