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
import { ProcessCamera } from './camera/process-camera.js';
import { createRpicamCamera, findRpicam, listRpicamCameras } from './camera/rpicam.js';
import { createV4l2Camera, findV4l2 } from './camera/v4l2.js';
import { systemClock, type Clock } from './clock.js';
import { systemProbe, type Probe } from './probe.js';
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
}

const defaultEnvironment = (): DeviceEnvironment => ({ clock: systemClock, stdin: process.stdin, probe: systemProbe(), devRoot: '/dev' });

function config(input: DeviceConfig | DeviceConfigInput | undefined): DeviceConfig {
  return parseDeviceConfig(input ?? {});
}

export async function selectCamera(
  input: DeviceConfig | DeviceConfigInput | undefined,
  log: Logger,
  env: Partial<DeviceEnvironment> = {},
): Promise<CameraSource> {
  const cfg = config(input).camera;
  const { clock, probe, devRoot } = { ...defaultEnvironment(), ...env };
  const size = { width: cfg.width, height: cfg.height, fps: cfg.fps };
  const supervision = { stallMs: cfg.stallMs, restart: cfg.restart, log, clock };
  const replay = () => new ReplayCamera({ folder: cfg.replay.folder, fps: cfg.replay.fps, loop: cfg.replay.loop, log, clock });

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
      return replay();
    case 'rpicam':
      return (await rpicam())!;
    case 'v4l2':
      return (await v4l2())!;
    case 'auto': {
      const found = (await rpicam()) ?? (await v4l2());
      if (found) return found;
      log.info(`camera: no camera found; using replay of ${cfg.replay.folder} at ${cfg.replay.fps} fps`);
      return replay();
    }
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
