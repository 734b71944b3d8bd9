/**
 * Picks the camera, buttons and status LED from config and what this machine has, and logs what
 * it chose and why. The sources come back unstarted: the caller starts and stops them.
 *
 *   const camera = await selectCamera(config, log);   // FrameSource with status()
 *   const buttons = await selectButtons(config, log); // ButtonSource[] (may be several)
 *   const led = await selectLed(config, log);         // StatusLed | null
 */
import { KeyboardButtons } from './buttons/keyboard.js';
import { NoCamera } from './camera/no-camera.js';
import { PhoneCamera } from './camera/phone.js';
import { ReplayCamera } from './camera/replay.js';
import { systemClock, type Clock } from './clock.js';
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
}

const defaultEnvironment = (): DeviceEnvironment => ({ clock: systemClock, stdin: process.stdin });

function config(input: DeviceConfig | DeviceConfigInput | undefined): DeviceConfig {
  return parseDeviceConfig(input ?? {});
}

export async function selectCamera(
  input: DeviceConfig | DeviceConfigInput | undefined,
  log: Logger,
  env: Partial<DeviceEnvironment> = {},
): Promise<CameraSource> {
  const cfg = config(input).camera;
  const { clock } = { ...defaultEnvironment(), ...env };
  const replay = () => new ReplayCamera({ folder: cfg.replay.folder, fps: cfg.replay.fps, loop: cfg.replay.loop, log, clock });
  switch (cfg.kind) {
    case 'none':
      log.info('camera: none (disabled in config); dice are entered by hand');
      return new NoCamera('camera disabled in config (device.camera.kind = none)', log);
    case 'phone':
      log.info('camera: phone (frames sent from the dashboard)');
      return new PhoneCamera({ maxBytes: cfg.phone.maxBytes, maxFps: cfg.phone.maxFps, stallMs: cfg.stallMs, log, clock });
    case 'replay':
      log.info(`camera: replay of ${cfg.replay.folder} at ${cfg.replay.fps} fps`);
      return replay();
    case 'rpicam':
    case 'v4l2':
    case 'auto':
      log.warn(`camera: ${cfg.kind} is not wired in this build yet; using replay of ${cfg.replay.folder}`);
      return replay();
  }
}

export async function selectButtons(
  input: DeviceConfig | DeviceConfigInput | undefined,
  log: Logger,
  env: Partial<DeviceEnvironment> = {},
): Promise<SelectedButtons[]> {
  const cfg = config(input);
  const { stdin } = { ...defaultEnvironment(), ...env };
  const sources: SelectedButtons[] = [];
  if (cfg.keyboard !== 'off') {
    log.info('buttons: keyboard (n=NEXT b=BACK r=READ o=OK)');
    sources.push(new KeyboardButtons({ input: stdin, log }));
  }
  return sources;
}

export async function selectLed(input: DeviceConfig | DeviceConfigInput | undefined, log: Logger): Promise<StatusLed | null> {
  const cfg = config(input);
  if (cfg.gpio.led === null || cfg.gpio.enabled === 'off') return null;
  log.info('status LED: none (GPIO is not wired in this build yet)');
  return null;
}
