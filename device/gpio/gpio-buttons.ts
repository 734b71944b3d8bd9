/**
 * Buttons on GPIO pins (BCM numbers from config), through onoff's sysfs interface. Each pin is an
 * input watching both edges; raw edges go to the pure debounce/press/hold logic on a clock.
 * Buttons are wired to GND with pull-ups, so with `activeLow` a pressed button reads 1.
 * Every pin opened is released (unwatched and unexported) on stop, and on a failed start.
 */
import type { ButtonName } from '../../shared/game.js';
import { ButtonMachine } from '../buttons/button-machine.js';
import { ButtonEmitter } from '../buttons/emitter.js';
import { systemClock, type Clock } from '../clock.js';
import { silentLogger, type Logger } from '../log.js';
import { explainPinError, onoffDriver, type GpioPin, type PinDriver } from './pin.js';
import { findGpioBase, SYSFS_GPIO_ROOT } from './sysfs.js';

export interface GpioButtonsOptions {
  pins: Readonly<Record<ButtonName, number>>;
  base: 'auto' | number;
  activeLow: boolean;
  debounceMs: number;
  holdMs: number;
  log?: Logger;
  clock?: Clock;
  /** The sysfs folder the base is read from (a temp folder in tests). */
  gpioRoot?: string;
  /** The pin driver (onoff unless a test gives a fake). */
  driver?: PinDriver;
}

/**
 * The number a driver's `open` takes is base + BCM: for sysfs the base comes from the config or
 * gpiochip discovery; a driver that numbers by BCM (libgpiod) has base 0.
 */
export async function resolveBase(base: 'auto' | number, root: string, log: Logger, driver?: Pick<PinDriver, 'numbering'>): Promise<{ ok: true; base: number } | { ok: false; reason: string }> {
  if (driver?.numbering === 'bcm') return { ok: true, base: 0 };
  if (base !== 'auto') return { ok: true, base };
  const found = await findGpioBase(root);
  if (!found.ok) return found;
  if (found.note) log.warn(`gpio: ${found.note}`);
  log.info(`gpio: sysfs base ${found.base} (${found.chip.name} "${found.chip.label}")`);
  return { ok: true, base: found.base };
}

export class GpioButtons extends ButtonEmitter {
  private opened: { button: ButtonName; pin: GpioPin }[] = [];
  private machine: ButtonMachine | null = null;
  /** Buttons whose pin is not watched now (its monitor died), and why. */
  private readonly failing = new Map<ButtonName, string>();
  /** The status while every button is watched. */
  private watching = '';

  constructor(private readonly options: GpioButtonsOptions) {
    super('gpio', options.log ?? silentLogger);
  }

  /** The sysfs numbers in use (after start). */
  sysfsNumbers: number[] = [];

  async start(): Promise<void> {
    if (this.machine) return;
    const driver = this.options.driver ?? (await onoffDriver());
    if (!driver.accessible) {
      this.setStatus(false, `GPIO not available: ${driver.reason ?? 'GPIO not accessible'}`);
      return;
    }
    const base = await resolveBase(this.options.base, this.options.gpioRoot ?? SYSFS_GPIO_ROOT, this.log, driver);
    if (!base.ok) {
      this.setStatus(false, `GPIO base unknown: ${base.reason}`);
      return;
    }
    const clock = this.options.clock ?? systemClock;
    const machine = new ButtonMachine(clock, this.options, (event, button) => this.emit(event, button));
    for (const [button, bcm] of Object.entries(this.options.pins) as [ButtonName, number][]) {
      const sysfs = base.base + bcm;
      let pin: GpioPin;
      try {
        pin = driver.open(sysfs, { direction: 'in', edge: 'both', activeLow: this.options.activeLow });
      } catch (error) {
        this.release();
        machine.clear();
        this.setStatus(false, `cannot open ${button} button: ${explainPinError(error, bcm, sysfs, driver.numbering)}`);
        this.log.error(`gpio: cannot open ${button} on BCM ${bcm}`, { sysfs, error: (error as Error).message });
        return;
      }
      this.opened.push({ button, pin });
      const pressed = pin.readSync() === 1;
      if (pressed) this.log.warn(`gpio: ${button} (BCM ${bcm}) reads pressed at start; ignored until released. A floating pin? Enable its pull-up (config.txt: gpio=${bcm}=ip,pu) or add a resistor to 3V3`);
      machine.add(button, pressed);
      pin.watch((error, value) => {
        if (this.machine !== machine) return; // stopped meanwhile
        if (error) {
          // Not watched now: said on /api/health, and a press in progress let go (no hold fires).
          this.log.warn(`gpio: ${button} watch error: ${error.message}`);
          this.failing.set(button, error.message);
          machine.edge(button, false);
          this.setStatus(false, `${button} button (BCM ${bcm}) not watched: ${error.message}`);
          return;
        }
        machine.edge(button, value === 1);
        if (this.failing.delete(button)) {
          this.log.info(`gpio: ${button} watched again`);
          const still = [...this.failing.entries()][0];
          this.setStatus(still === undefined, still === undefined ? this.watching : `${still[0]} button (BCM ${this.options.pins[still[0]]}) not watched: ${still[1]}`);
        }
      });
    }
    this.machine = machine;
    this.sysfsNumbers = this.opened.map(({ button }) => base.base + this.options.pins[button]);
    const list = (Object.entries(this.options.pins) as [ButtonName, number][]).map(([b, p]) => `${b}=${p}`).join(' ');
    this.watching = `GPIO buttons on BCM ${list} (${driver.numbering === 'bcm' ? (driver.describe ?? 'libgpiod') : `sysfs base ${base.base}`})`;
    this.setStatus(true, this.watching);
  }

  async stop(): Promise<void> {
    this.machine?.clear();
    this.machine = null;
    this.failing.clear();
    this.release();
    if (this.current.ok) this.setStatus(false, 'stopped', true);
  }

  private release(): void {
    for (const { button, pin } of this.opened) {
      try {
        pin.unwatchAll();
        pin.unexport();
      } catch (error) {
        this.log.warn(`gpio: releasing ${button} failed: ${(error as Error).message}`);
      }
    }
    this.opened = [];
  }
}
