import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GpioButtons } from '../../device/gpio/gpio-buttons.js';
import { GpioLed } from '../../device/gpio/led.js';
import { chooseHeaderChip, findGpioBase, readGpioChips } from '../../device/gpio/sysfs.js';
import { memoryLogger } from '../../device/log.js';
import { recordButtons } from './support/collect.js';
import { FakeClock } from './support/fake-clock.js';
import { fakeDriver } from './support/fake-gpio.js';
import { scratchDir } from '../support/scratch.js';

/** A temp folder laid out like /sys/class/gpio with the given chips. */
function sysfs(chips: [name: string, label: string, base: number, ngpio: number][]): string {
  const root = scratchDir('clew-sysfs-');
  writeFileSync(path.join(root, 'export'), '');
  writeFileSync(path.join(root, 'unexport'), '');
  for (const [name, label, base, ngpio] of chips) {
    mkdirSync(path.join(root, name));
    writeFileSync(path.join(root, name, 'label'), `${label}\n`);
    writeFileSync(path.join(root, name, 'base'), `${base}\n`);
    writeFileSync(path.join(root, name, 'ngpio'), `${ngpio}\n`);
  }
  return root;
}

const PI4_KERNEL_66 = sysfs([
  ['gpiochip512', 'pinctrl-bcm2711', 512, 58],
  ['gpiochip570', 'raspberrypi-exp-gpio', 570, 8],
]);
const PI5_KERNEL_66 = sysfs([
  ['gpiochip512', 'gpio-brcmstb@107d508500', 512, 32],
  ['gpiochip544', 'gpio-brcmstb@107d508520', 544, 4],
  ['gpiochip548', 'gpio-brcmstb@107d517c00', 548, 17],
  ['gpiochip565', 'gpio-brcmstb@107d517c20', 565, 6],
  ['gpiochip571', 'pinctrl-rp1', 571, 54],
]);
const PI3_OLD_KERNEL = sysfs([
  ['gpiochip0', 'pinctrl-bcm2835', 0, 54],
  ['gpiochip504', 'raspberrypi-exp-gpio', 504, 8],
]);

const pins = { NEXT: 17, BACK: 27, READ: 22, OK: 23 };
const timing = { debounceMs: 30, holdMs: 800 };

describe('sysfs GPIO base discovery', () => {
  it('Pi 4 on kernel 6.6+: base 512 (pinctrl-bcm2711)', async () => {
    expect(await findGpioBase(PI4_KERNEL_66)).toMatchObject({ ok: true, base: 512 });
  });

  it('Pi 5 on kernel 6.6+: base 571 (pinctrl-rp1, not the SoC chips below it)', async () => {
    expect(await findGpioBase(PI5_KERNEL_66)).toMatchObject({ ok: true, base: 571, chip: { label: 'pinctrl-rp1' } });
  });

  it('older kernels: base 0 (pinctrl-bcm2835)', async () => {
    expect(await findGpioBase(PI3_OLD_KERNEL)).toMatchObject({ ok: true, base: 0 });
  });

  it('reads every chip with its label, base and line count, in base order', async () => {
    expect(await readGpioChips(PI4_KERNEL_66)).toEqual([
      { name: 'gpiochip512', label: 'pinctrl-bcm2711', base: 512, ngpio: 58 },
      { name: 'gpiochip570', label: 'raspberrypi-exp-gpio', base: 570, ngpio: 8 },
    ]);
  });

  it('no sysfs folder, or chips it cannot tell apart: a reason that says to set the base', async () => {
    expect(await findGpioBase('/nonexistent/gpio')).toMatchObject({ ok: false, reason: expect.stringMatching(/no gpiochip/) });
    const two = chooseHeaderChip([
      { name: 'gpiochip0', label: 'a', base: 0, ngpio: 32 },
      { name: 'gpiochip32', label: 'b', base: 32, ngpio: 32 },
    ]);
    expect(two).toMatchObject({ ok: false, reason: expect.stringMatching(/set device\.gpio\.base/) });
  });

  it('an unknown board with one large chip: that chip, with a note', () => {
    const one = chooseHeaderChip([{ name: 'gpiochip0', label: 'sunxi', base: 0, ngpio: 224 }]);
    expect(one).toMatchObject({ ok: true, base: 0, note: expect.stringMatching(/only chip/) });
  });
});

describe('GPIO buttons', () => {
  async function started(root: string, base: 'auto' | number = 'auto') {
    const clock = new FakeClock();
    const driver = fakeDriver();
    const log = memoryLogger();
    const buttons = new GpioButtons({ pins, base, activeLow: true, ...timing, clock, driver, gpioRoot: root, log });
    const seen = recordButtons(buttons);
    await buttons.start();
    return { clock, driver, buttons, seen, log };
  }

  it('opens each BCM pin at base + BCM as a both-edge input, active low', async () => {
    const { driver, buttons } = await started(PI5_KERNEL_66);
    expect([...driver.pins.keys()].sort()).toEqual([571 + 17, 571 + 22, 571 + 23, 571 + 27].sort());
    expect(driver.pins.get(588)!.options).toEqual({ direction: 'in', edge: 'both', activeLow: true });
    expect(buttons.status()).toMatchObject({ ok: true, message: expect.stringMatching(/sysfs base 571/) });
  });

  it('a configured base wins over discovery', async () => {
    const { driver } = await started(PI5_KERNEL_66, 0);
    expect(driver.pins.has(17)).toBe(true);
  });

  it('a bouncing press of NEXT: one press, one release; held READ gives hold', async () => {
    const { clock, driver, seen, buttons } = await started(PI4_KERNEL_66);
    const next = driver.pins.get(512 + 17)!;
    const read = driver.pins.get(512 + 22)!;
    next.set(1);
    clock.advance(2);
    next.set(0);
    clock.advance(1);
    next.set(1);
    clock.advance(100);
    next.set(0);
    clock.advance(3);
    next.set(1);
    clock.advance(1);
    next.set(0);
    clock.advance(100);
    read.set(1);
    clock.advance(1000);
    read.set(0);
    clock.advance(100);
    expect(seen).toEqual(['press NEXT', 'release NEXT', 'press READ', 'hold READ', 'release READ']);
    await buttons.stop();
  });

  it('stop() unwatches and unexports every pin', async () => {
    const { driver, buttons } = await started(PI4_KERNEL_66);
    await buttons.stop();
    expect([...driver.pins.values()].map((p) => [p.exported, p.watched])).toEqual(Array(4).fill([false, false]));
  });

  it('a pin that reads pressed at start is warned about and sends nothing until released', async () => {
    const clock = new FakeClock();
    const driver = fakeDriver({ initial: { [512 + 23]: 1 } });
    const log = memoryLogger();
    const buttons = new GpioButtons({ pins, base: 'auto', activeLow: true, ...timing, clock, driver, gpioRoot: PI4_KERNEL_66, log });
    const seen = recordButtons(buttons);
    await buttons.start();
    clock.advance(5000);
    expect(seen).toEqual([]);
    expect(log.messages('warn').join()).toMatch(/OK \(BCM 23\) reads pressed at start.*gpio=23=ip,pu/);
    await buttons.stop();
  });

  it('an export that fails (EINVAL: wrong base) releases the pins already opened and explains', async () => {
    const driver = fakeDriver({ failOn: { 22: 'EINVAL' } });
    const buttons = new GpioButtons({ pins, base: 0, activeLow: true, ...timing, clock: new FakeClock(), driver, log: memoryLogger() });
    await buttons.start();
    expect(buttons.status()).toMatchObject({ ok: false, message: expect.stringMatching(/READ button: sysfs GPIO 22 \(BCM 22 \+ base 0\) does not exist.*512 on a Pi 4 and 571 on a Pi 5/) });
    expect([...driver.pins.values()].every((p) => !p.exported)).toBe(true);
  });

  it('no sysfs GPIO on this machine: status says so, nothing opened', async () => {
    const driver = fakeDriver({ accessible: false });
    const buttons = new GpioButtons({ pins, base: 'auto', activeLow: true, ...timing, driver });
    await buttons.start();
    expect(buttons.status()).toMatchObject({ ok: false, message: 'GPIO not available: no sysfs here' });
    expect(driver.pins.size).toBe(0);
  });
});

describe('status LED', () => {
  it('starts off, turns on, blinks on the clock, and is off and released on stop', async () => {
    const clock = new FakeClock();
    const driver = fakeDriver();
    const led = new GpioLed({ pin: 24, base: 'auto', blinkMs: 500, clock, driver, gpioRoot: PI4_KERNEL_66 });
    await led.start();
    const pin = driver.pins.get(512 + 24)!;
    expect(pin.options.direction).toBe('low');
    expect(pin.written).toEqual([0]);
    led.set('on');
    led.set('blink');
    clock.advance(1600);
    expect(pin.written).toEqual([0, 1, 0, 1, 0, 1]);
    led.set('off');
    clock.advance(2000);
    expect(pin.written.at(-1)).toBe(0);
    led.set('blink');
    await led.stop();
    expect(pin.value).toBe(0);
    expect(pin.exported).toBe(false);
    expect(clock.pending).toBe(0);
  });
});
