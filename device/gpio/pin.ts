/**
 * One sysfs GPIO pin, as the buttons and LED use it. The real one is onoff's Gpio (this folder is
 * the only place that imports onoff); tests pass a fake factory with the same shape.
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
  /** False when /sys/class/gpio/export cannot be opened for writing (no sysfs GPIO, or no permission). */
  accessible: boolean;
  /** Why not, when not accessible. */
  reason?: string;
  open(sysfsNumber: number, options: PinOptions): GpioPin;
}

/** onoff, loaded lazily: a machine without the epoll native module still runs the rest of clew. */
export async function onoffDriver(): Promise<PinDriver> {
  let Gpio: typeof import('onoff').Gpio;
  try {
    ({ Gpio } = await import('onoff'));
  } catch (error) {
    return { accessible: false, reason: `onoff could not be loaded: ${(error as Error).message}`, open: unavailable };
  }
  const accessible = Gpio.accessible;
  return {
    accessible,
    ...(accessible ? {} : { reason: '/sys/class/gpio/export is missing or not writable (not a Pi, sysfs GPIO disabled, or the user is not in the gpio group)' }),
    open: (n, o) => new Gpio(n, o.direction, o.edge, { activeLow: o.activeLow }),
  };
}

function unavailable(): never {
  throw new Error('GPIO is not available on this machine');
}

/** A readable hint for the errors sysfs gives when exporting a pin. */
export function explainPinError(error: unknown, bcm: number, sysfs: number): string {
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
