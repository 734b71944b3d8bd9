/** The status LED on a GPIO pin (through a resistor to GND): on, off, or blinking; off and released on stop. */
import { systemClock, type Clock, type TimerHandle } from '../clock.js';
import { silentLogger, type Logger } from '../log.js';
import type { SourceStatus, StatusLed } from '../types.js';
import { resolveBase } from './gpio-buttons.js';
import { explainPinError, onoffDriver, type GpioPin, type PinDriver } from './pin.js';
import { SYSFS_GPIO_ROOT } from './sysfs.js';

export interface GpioLedOptions {
  pin: number;
  base: 'auto' | number;
  /** Half a blink period. */
  blinkMs?: number;
  log?: Logger;
  clock?: Clock;
  gpioRoot?: string;
  driver?: PinDriver;
}

export type LedMode = 'off' | 'on' | 'blink';

export class GpioLed implements StatusLed {
  private pin: GpioPin | null = null;
  private mode: LedMode = 'off';
  private lit = false;
  private timer: TimerHandle | null = null;
  private current: SourceStatus = { kind: 'led', ok: false, message: 'not started' };
  private readonly log: Logger;
  private readonly clock: Clock;

  constructor(private readonly options: GpioLedOptions) {
    this.log = options.log ?? silentLogger;
    this.clock = options.clock ?? systemClock;
  }

  async start(): Promise<void> {
    if (this.pin) return;
    const driver = this.options.driver ?? (await onoffDriver());
    if (!driver.accessible) {
      this.current = { kind: 'led', ok: false, message: `GPIO not available: ${driver.reason ?? ''}` };
      return;
    }
    const base = await resolveBase(this.options.base, this.options.gpioRoot ?? SYSFS_GPIO_ROOT, this.log, driver);
    if (!base.ok) {
      this.current = { kind: 'led', ok: false, message: `GPIO base unknown: ${base.reason}` };
      return;
    }
    const sysfs = base.base + this.options.pin;
    try {
      // 'low': an output that starts off, so the LED never flashes on at start.
      this.pin = driver.open(sysfs, { direction: 'low', edge: 'none', activeLow: false });
    } catch (error) {
      this.current = { kind: 'led', ok: false, message: `cannot open LED: ${explainPinError(error, this.options.pin, sysfs, driver.numbering)}` };
      this.log.error(`led: ${this.current.message}`);
      return;
    }
    this.current = { kind: 'led', ok: true, message: `status LED on BCM ${this.options.pin}` };
    this.apply();
  }

  set(mode: LedMode): void {
    this.mode = mode;
    this.apply();
  }

  /** What the LED shows now (for tests and health). */
  get state(): { mode: LedMode; lit: boolean } {
    return { mode: this.mode, lit: this.lit };
  }

  status(): SourceStatus {
    return { ...this.current };
  }

  async stop(): Promise<void> {
    this.stopBlink();
    if (!this.pin) return;
    try {
      this.write(false);
      this.pin.unexport();
    } catch (error) {
      this.log.warn(`led: releasing BCM ${this.options.pin} failed: ${(error as Error).message}`);
    }
    this.pin = null;
    this.current = { kind: 'led', ok: false, message: 'stopped' };
  }

  private apply(): void {
    this.stopBlink();
    if (!this.pin) return;
    if (this.mode === 'blink') {
      const toggle = () => {
        this.write(!this.lit);
        this.timer = this.clock.setTimeout(toggle, this.options.blinkMs ?? 500);
      };
      toggle();
    } else this.write(this.mode === 'on');
  }

  private write(on: boolean): void {
    this.lit = on;
    try {
      this.pin?.writeSync(on ? 1 : 0);
    } catch (error) {
      this.log.warn(`led: write failed: ${(error as Error).message}`);
    }
  }

  private stopBlink(): void {
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
