import { createReadStream, mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { SerialPortMock } from 'serialport';
import { beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../device/log.js';
import { systemProbe } from '../../device/probe.js';
import { selectButtons, selectLed, type DeviceEnvironment } from '../../device/select.js';
import type { PortFactory } from '../../device/serial/port.js';
import { fakeDriver } from './support/fake-gpio.js';
import { scratchDir } from '../support/scratch.js';

const MockBinding = SerialPortMock.binding;
const openSerialPort: PortFactory = ({ path, baudRate }) => new SerialPortMock({ path, baudRate, autoOpen: false });

/** A /dev with the named entries, and a /sys/class/gpio of a Pi 4 on kernel 6.6. */
function machine(devNames: string[] = []): Partial<DeviceEnvironment> {
  const dev = scratchDir('clew-dev-');
  for (const n of devNames) writeFileSync(path.join(dev, n), '');
  const gpio = scratchDir('clew-gpio-');
  mkdirSync(path.join(gpio, 'gpiochip512'));
  writeFileSync(path.join(gpio, 'gpiochip512', 'label'), 'pinctrl-bcm2711\n');
  writeFileSync(path.join(gpio, 'gpiochip512', 'base'), '512\n');
  writeFileSync(path.join(gpio, 'gpiochip512', 'ngpio'), '58\n');
  return { devRoot: dev, gpioRoot: gpio, probe: systemProbe(''), stdin: new PassThrough() as unknown as NodeJS.ReadStream, openSerialPort };
}

beforeEach(() => MockBinding.reset());

describe('selectButtons', () => {
  it('a plain computer (no GPIO, no serial box): the keyboard', async () => {
    const log = memoryLogger();
    const sources = await selectButtons({}, log, { ...machine(), pinDriver: async () => fakeDriver({ accessible: false }) });
    expect(sources.map((s) => s.kind)).toEqual(['keyboard']);
    expect(log.messages('info').join('\n')).toMatch(/no GPIO \(no sysfs here\)/);
  });

  it('a service without GPIO or serial box, stdin /dev/null: no keyboard in auto, and the "none" warning', async () => {
    const devNull = createReadStream('', { fd: openSync('/dev/null', 'r') }) as unknown as NodeJS.ReadStream;
    const noGpio = async () => fakeDriver({ accessible: false });
    const log = memoryLogger();
    expect(await selectButtons({}, log, { ...machine(), stdin: devNull, pinDriver: noGpio })).toEqual([]);
    expect(log.messages('info').join('\n')).toMatch(/no keyboard \(stdin is \/dev\/null/);
    expect(log.messages('warn').join('\n')).toMatch(/buttons: none/);
    // Asked for, it is kept, and says why it is not ok.
    const [keyboard] = await selectButtons({ keyboard: 'on' }, memoryLogger(), { ...machine(), stdin: devNull, pinDriver: noGpio });
    await keyboard!.start();
    expect(keyboard!.status()).toMatchObject({ kind: 'keyboard', ok: false, message: expect.stringMatching(/^stdin closed/) });
    await keyboard!.stop();
    devNull.destroy();
  });

  it('a Pi with GPIO: GPIO buttons, and no keyboard in auto', async () => {
    const driver = fakeDriver();
    const sources = await selectButtons({}, memoryLogger(), { ...machine(), pinDriver: async () => driver });
    expect(sources.map((s) => s.kind)).toEqual(['gpio']);
    await sources[0]!.start();
    expect([...driver.pins.keys()].sort()).toEqual([529, 534, 535, 539]);
    await sources[0]!.stop();
  });

  it('a serial box that says HELLO is found among the USB serial ports', async () => {
    MockBinding.createPort('/dev/ttyACM0', { readyData: Buffer.from('HELLO clew-box 1.0\n') });
    const env = machine(['ttyACM0', 'ttyS0']);
    // The mock binding knows ports by name; map the temp /dev's path onto it.
    const log = memoryLogger();
    const sources = await selectButtons({ serial: { detectMs: 300 } }, log, {
      ...env,
      pinDriver: async () => fakeDriver({ accessible: false }),
      openSerialPort: ({ path: p, baudRate }) => openSerialPort({ path: p.replace(env.devRoot!, '/dev'), baudRate }),
    });
    expect(sources.map((s) => s.kind)).toEqual(['serial']);
    expect(log.messages('info').join('\n')).toMatch(/serial box clew-box 1\.0 on .*ttyACM0/);
  });

  it('config: keyboard on adds it to the others; serial none and gpio off skip those', async () => {
    MockBinding.createPort('/dev/ttyUSB3');
    const sources = await selectButtons({ keyboard: 'on', serial: { path: '/dev/ttyUSB3' } }, memoryLogger(), { ...machine(), pinDriver: async () => fakeDriver() });
    expect(sources.map((s) => s.kind)).toEqual(['gpio', 'serial', 'keyboard']);
    const none = await selectButtons({ keyboard: 'off', serial: { path: 'none' }, gpio: { enabled: 'off' } }, memoryLogger(), machine());
    expect(none).toEqual([]);
  });

  it('gpio on without GPIO: an error is logged and the source reports why', async () => {
    const log = memoryLogger();
    const [gpio] = await selectButtons({ gpio: { enabled: 'on' }, serial: { path: 'none' } }, log, { ...machine(), pinDriver: async () => fakeDriver({ accessible: false }) });
    expect(log.messages('error').join()).toMatch(/GPIO is on in the config but not available/);
    await gpio!.start();
    expect(gpio!.status()).toMatchObject({ ok: false });
  });
});

describe('selectLed', () => {
  it('the LED on BCM 24 when GPIO is there; null without GPIO or with led: null', async () => {
    const driver = fakeDriver();
    const led = await selectLed({}, memoryLogger(), { ...machine(), pinDriver: async () => driver });
    await led!.start();
    expect(driver.pins.has(512 + 24)).toBe(true);
    await led!.stop();
    expect(await selectLed({}, memoryLogger(), { ...machine(), pinDriver: async () => fakeDriver({ accessible: false }) })).toBeNull();
    expect(await selectLed({ gpio: { led: null } }, memoryLogger(), { ...machine(), pinDriver: async () => driver })).toBeNull();
  });
});
