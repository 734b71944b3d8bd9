/** A fake pin driver at the sysfs edge: pins hold a level, tests drive edges, opens/unexports are recorded. */
import type { GpioPin, Level, PinDriver, PinOptions } from '../../../device/gpio/pin.js';

export class FakePin implements GpioPin {
  value: Level;
  written: Level[] = [];
  exported = true;
  private watchers: ((error: Error | null | undefined, value: Level) => void)[] = [];

  constructor(
    readonly number: number,
    readonly options: PinOptions,
    initial: Level,
  ) {
    this.value = initial;
  }

  readSync(): Level {
    return this.value;
  }
  writeSync(value: Level): void {
    this.value = value;
    this.written.push(value);
  }
  watch(callback: (error: Error | null | undefined, value: Level) => void): void {
    this.watchers.push(callback);
  }
  unwatchAll(): void {
    this.watchers = [];
  }
  unexport(): void {
    this.exported = false;
  }
  get watched(): boolean {
    return this.watchers.length > 0;
  }
  /** An edge: the pin changes to `value` and watchers hear it (as onoff's both-edge interrupt). */
  set(value: Level): void {
    this.value = value;
    for (const w of [...this.watchers]) w(null, value);
  }
}

export function fakeDriver(options: { accessible?: boolean; initial?: Record<number, Level>; failOn?: Record<number, string> } = {}) {
  const pins = new Map<number, FakePin>();
  const driver: PinDriver & { pins: Map<number, FakePin> } = {
    accessible: options.accessible ?? true,
    ...(options.accessible === false ? { reason: 'no sysfs here' } : {}),
    pins,
    open(n, o) {
      const code = options.failOn?.[n];
      if (code) throw Object.assign(new Error(`${code}: write /sys/class/gpio/export`), { code });
      const pin = new FakePin(n, o, options.initial?.[n] ?? 0);
      pins.set(n, pin);
      return pin;
    },
  };
  return driver;
}
