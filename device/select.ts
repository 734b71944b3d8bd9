/**
 * Picks the camera, buttons and status LED from config and what this machine has, and logs what
 * it chose and why. The sources come back unstarted: the caller starts and stops them.
 *
 *   const camera = await selectCamera(config, log);   // FrameSource with status()
 *   const buttons = await selectButtons(config, log); // ButtonSource[] (may be several)
 *   const led = await selectLed(config, log);         // StatusLed | null
 */
import { KeyboardButtons, keyboardInputClosed } from './buttons/keyboard.js';
import { NoCamera } from './camera/no-camera.js';
import { PhoneCamera } from './camera/phone.js';
import { ReplayCamera } from './camera/replay.js';
import { ProcessCamera } from './camera/process-camera.js';
import { createRpicamCamera, findRpicam, listRpicamCameras } from './camera/rpicam.js';
import { createV4l2Camera, findV4l2 } from './camera/v4l2.js';
import { createVideoReplay, VIDEO_FILE } from './camera/video-replay.js';
import { systemClock, type Clock } from './clock.js';
import { systemProbe, type Probe } from './probe.js';
import { GpioButtons } from './gpio/gpio-buttons.js';
import { GpioLed } from './gpio/led.js';
import { choosePinDriver, type PinDriver, type PinDriverChoice } from './gpio/pin.js';
import { SYSFS_GPIO_ROOT } from './gpio/sysfs.js';
import { serialCandidates, type PortFactory } from './serial/port.js';
import { SerialButtons, detectSerialBox } from './serial/serial-buttons.js';
import { parseDeviceConfig, type DeviceConfig, type DeviceConfigInput } from './config.js';
import type { Logger } from './log.js';
import type { ButtonSource, CameraFrame, FrameSource, SourceStatus, StatusLed } from './types.js';

export { deviceConfigSchema, parseDeviceConfig, type DeviceConfig, type DeviceConfigInput } from './config.js';
export type { Logger } from './log.js';
export { PhoneCamera, type PushResult } from './camera/phone.js';

/** A camera as selected: any FrameSource of device/, with its status and newest frame. */
export type CameraSource = FrameSource & { status(): SourceStatus; latest(): CameraFrame | null };
export type SelectedButtons = ButtonSource & { status(): SourceStatus };

/** The parts of the machine the selection looks at; tests replace them. */
export interface DeviceEnvironment {
  clock: Clock;
  stdin: NodeJS.ReadStream;
  probe: Probe;
  /** Where `video*` and serial devices are listed. */
  devRoot: string;
  /** The sysfs GPIO folder (for the base discovery). */
  gpioRoot: string;
  /** GPIO pins (onoff or libgpiod's tools, loaded only when GPIO is wanted). */
  pinDriver: (choice: PinDriverChoice) => Promise<PinDriver>;
  /** Serial ports (serialport). */
  openSerialPort?: PortFactory;
}

const defaultEnvironment = (): DeviceEnvironment => ({
  clock: systemClock,
  stdin: process.stdin,
  probe: systemProbe(),
  devRoot: '/dev',
  gpioRoot: SYSFS_GPIO_ROOT,
  pinDriver: (choice) => choosePinDriver(choice),
});

function config(input: DeviceConfig | DeviceConfigInput | undefined): DeviceConfig {
  return parseDeviceConfig(input ?? {});
}

/**
 * The camera: `auto` tries the Pi camera (rpicam-vid lists one), then a webcam ffmpeg can read,
 * then the replay folder. An explicit kind is honoured even when its tool is missing (logged as
 * an error; the source reports it and keeps retrying, so installing the tool is enough).
 */
export async function selectCamera(
  input: DeviceConfig | DeviceConfigInput | undefined,
  log: Logger,
  env: Partial<DeviceEnvironment> = {},
): Promise<CameraSource> {
  const cfg = config(input).camera;
  const { clock, probe, devRoot } = { ...defaultEnvironment(), ...env };
  const size = { width: cfg.width, height: cfg.height, fps: cfg.fps };
  const supervision = { stallMs: cfg.stallMs, restart: cfg.restart, log, clock };
  const replay = async (): Promise<CameraSource> => {
    const { folder, fps, loop } = cfg.replay;
    if (!VIDEO_FILE.test(folder)) return new ReplayCamera({ folder, fps, loop, log, clock });
    const ffmpeg = await probe.findExecutable('ffmpeg');
    if (!ffmpeg) log.error(`camera: replaying the video ${folder} needs ffmpeg (apt install ffmpeg); the camera will keep retrying`);
    return createVideoReplay({ ffmpeg: ffmpeg ?? 'ffmpeg', file: folder, fps, loop, ...supervision });
  };

  const rpicam = async (): Promise<ProcessCamera | null> => {
    const tools = await findRpicam(probe);
    if (!tools) {
      if (cfg.kind === 'rpicam') log.error('camera: rpicam-vid is not installed (apt install rpicam-apps); the camera will keep retrying');
      else log.info('camera: rpicam-vid not found');
      return cfg.kind === 'rpicam' ? createRpicamCamera({ bin: 'rpicam-vid', ...size, ...supervision }) : null;
    }
    const cameras = await listRpicamCameras(probe, tools);
    if (cameras.length === 0) {
      if (cfg.kind !== 'rpicam') {
        log.info('camera: rpicam lists no camera');
        return null;
      }
      log.warn('camera: rpicam lists no camera (check the ribbon cable); starting rpicam-vid anyway, it will retry');
    }
    const which = cameras[0] ? ` (${cameras[0].sensor})` : '';
    log.info(`camera: rpicam${which} at ${size.width}x${size.height} ${size.fps} fps`);
    return createRpicamCamera({ bin: tools.vid, ...size, ...supervision });
  };

  const v4l2 = async (): Promise<ProcessCamera | null> => {
    const found = await findV4l2(probe, cfg.device, size, devRoot, log);
    if (found) {
      const how = found.choice.copy ? 'MJPEG copied' : `${found.choice.format} encoded to MJPEG`;
      log.info(`camera: v4l2 ${found.device} at ${found.choice.width}x${found.choice.height} ${size.fps} fps (${how})`);
      return createV4l2Camera({ bin: found.ffmpeg, device: found.device, choice: found.choice, fps: size.fps, ...supervision });
    }
    if (cfg.kind !== 'v4l2') return null;
    const device = cfg.device === 'auto' ? `${devRoot}/video0` : cfg.device;
    log.error(`camera: no usable v4l2 device (${device}) or ffmpeg missing; the camera will keep retrying`);
    return createV4l2Camera({ bin: 'ffmpeg', device, choice: { format: 'mjpeg', copy: true, width: size.width, height: size.height }, fps: size.fps, ...supervision });
  };

  switch (cfg.kind) {
    case 'none':
      log.info('camera: none (disabled in config); dice are entered by hand');
      return new NoCamera('camera disabled in config (device.camera.kind = none)', log);
    case 'phone':
      log.info('camera: phone (frames sent from the dashboard)');
      return new PhoneCamera({ maxBytes: cfg.phone.maxBytes, maxFps: cfg.phone.maxFps, stallMs: cfg.stallMs, log, clock });
    case 'replay':
      log.info(`camera: replay of ${cfg.replay.folder} at ${cfg.replay.fps} fps`);
      return await replay();
    case 'rpicam':
      return (await rpicam())!;
    case 'v4l2':
      return (await v4l2())!;
    case 'auto': {
      const found = (await rpicam()) ?? (await v4l2());
      if (found) return found;
      log.info(`camera: no camera found; using replay of ${cfg.replay.folder} at ${cfg.replay.fps} fps`);
      return await replay();
    }
  }
}

/**
 * Every button source that is there: GPIO (when sysfs GPIO is accessible, or `gpio.enabled: on`),
 * the serial box (the configured path, or the first USB serial port that says HELLO), and the
 * keyboard (`on`, or `auto` when neither of the others was found).
 */
export async function selectButtons(
  input: DeviceConfig | DeviceConfigInput | undefined,
  log: Logger,
  env: Partial<DeviceEnvironment> = {},
): Promise<SelectedButtons[]> {
  const cfg = config(input);
  const e = { ...defaultEnvironment(), ...env };
  const timing = { debounceMs: cfg.debounceMs, holdMs: cfg.holdMs };
  const sources: SelectedButtons[] = [];

  if (cfg.gpio.enabled !== 'off') {
    const driver = await e.pinDriver(cfg.gpio.driver);
    if (driver.accessible || cfg.gpio.enabled === 'on') {
      if (!driver.accessible) log.error(`buttons: GPIO is on in the config but not available: ${driver.reason ?? ''}`);
      const pins = Object.entries(cfg.gpio.pins).map(([b, p]) => `${b}=${p}`).join(' ');
      log.info(`buttons: GPIO on BCM ${pins} (${driver.numbering === 'bcm' ? (driver.describe ?? 'libgpiod') : `sysfs, base ${cfg.gpio.base}`})`);
      sources.push(new GpioButtons({ pins: cfg.gpio.pins, base: cfg.gpio.base, activeLow: cfg.gpio.activeLow, ...timing, log, clock: e.clock, gpioRoot: e.gpioRoot, driver }));
    } else log.info(`buttons: no GPIO (${driver.reason ?? 'not accessible'})`);
  }

  if (cfg.serial.path !== 'none') {
    let path: string | null = cfg.serial.path;
    if (path === 'auto') {
      const candidates = serialCandidates(await e.probe.listDir(`${e.devRoot}/serial/by-id`), await e.probe.listDir(e.devRoot), e.devRoot);
      const found = candidates.length
        ? await detectSerialBox(candidates, { baudRate: cfg.serial.baudRate, detectMs: cfg.serial.detectMs, openPort: e.openSerialPort, clock: e.clock, log })
        : null;
      path = found?.path ?? null;
      if (found) log.info(`buttons: serial box ${found.name} ${found.version} on ${found.path}`);
      else log.info(candidates.length ? `buttons: no serial box said HELLO (${candidates.join(', ')})` : 'buttons: no USB serial port');
    } else log.info(`buttons: serial box on ${path} (from config)`);
    if (path) {
      sources.push(new SerialButtons({ path, baudRate: cfg.serial.baudRate, holdMs: cfg.holdMs, log, clock: e.clock, openPort: e.openSerialPort }));
    }
  }

  if (cfg.keyboard === 'on' || (cfg.keyboard === 'auto' && sources.length === 0)) {
    // Under systemd stdin is /dev/null: in auto that is no button source, so "none" is warned
    // about below; `on` keeps it, and its status says why it is not ok.
    const closed = cfg.keyboard === 'auto' ? keyboardInputClosed(e.stdin) : null;
    if (closed) log.info(`buttons: no keyboard (${closed})`);
    else {
      log.info('buttons: keyboard (n=NEXT b=BACK r=READ o/Enter=OK, capital = hold)');
      sources.push(new KeyboardButtons({ input: e.stdin, log }));
    }
  }
  if (sources.length === 0) log.warn('buttons: none (the dashboard buttons still work)');
  return sources;
}

/** The status LED on its GPIO pin, or null (no LED configured, or no GPIO here). */
export async function selectLed(
  input: DeviceConfig | DeviceConfigInput | undefined,
  log: Logger,
  env: Partial<DeviceEnvironment> = {},
): Promise<(StatusLed & { status(): SourceStatus }) | null> {
  const cfg = config(input);
  if (cfg.gpio.led === null || cfg.gpio.enabled === 'off') return null;
  const e = { ...defaultEnvironment(), ...env };
  const driver = await e.pinDriver(cfg.gpio.driver);
  if (!driver.accessible && cfg.gpio.enabled !== 'on') {
    log.info('status LED: none (no GPIO)');
    return null;
  }
  log.info(`status LED: BCM ${cfg.gpio.led}`);
  return new GpioLed({ pin: cfg.gpio.led, base: cfg.gpio.base, log, clock: e.clock, gpioRoot: e.gpioRoot, driver });
}
