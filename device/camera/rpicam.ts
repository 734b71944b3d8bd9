/**
 * The Raspberry Pi camera through rpicam-vid (libcamera-vid on Bullseye), MJPEG on stdout, split
 * into frames by the MJPEG splitter and supervised by ProcessCamera.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Probe } from '../probe.js';
import { ProcessCamera } from './process-camera.js';

export interface CaptureSize {
  width: number;
  height: number;
  fps: number;
}

/** rpicam-vid's command line: endless MJPEG to stdout, no preview window, flushed per frame. */
export function rpicamArgs({ width, height, fps }: CaptureSize): string[] {
  return [
    '--codec', 'mjpeg',
    '-t', '0',
    '--width', String(width),
    '--height', String(height),
    '--framerate', String(fps),
    '--quality', '85',
    '--nopreview',
    '--flush',
    '-o', '-',
  ];
}

export interface RpicamCameraInfo {
  index: number;
  sensor: string;
  /** The sensor's full size, when listed. */
  width?: number;
  height?: number;
}

/**
 * Parses `rpicam-hello --list-cameras` output, e.g.
 * `0 : imx708 [4608x2592 10-bit RGGB] (/base/soc/i2c0mux/i2c@1/imx708@1a)`.
 * "No cameras available!" gives an empty list.
 */
export function parseRpicamList(text: string): RpicamCameraInfo[] {
  const cameras: RpicamCameraInfo[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(\d+)\s*:\s*([A-Za-z0-9_-]+)(?:\s*\[(\d+)x(\d+))?/.exec(line);
    if (!m) continue;
    const info: RpicamCameraInfo = { index: Number(m[1]), sensor: m[2]! };
    if (m[3] && m[4]) Object.assign(info, { width: Number(m[3]), height: Number(m[4]) });
    cameras.push(info);
  }
  return cameras;
}

export interface RpicamTools {
  vid: string;
  hello: string | null;
}

/** rpicam-vid (or the older libcamera-vid) and its -hello sibling, if installed. */
export async function findRpicam(probe: Probe): Promise<RpicamTools | null> {
  for (const prefix of ['rpicam', 'libcamera']) {
    const vid = await probe.findExecutable(`${prefix}-vid`);
    if (vid) return { vid, hello: await probe.findExecutable(`${prefix}-hello`) };
  }
  return null;
}

/** The cameras rpicam can see (empty when none, or when rpicam-hello is missing or fails). */
export async function listRpicamCameras(probe: Probe, tools: RpicamTools): Promise<RpicamCameraInfo[]> {
  if (!tools.hello) return [];
  const result = await probe.run(tools.hello, ['--list-cameras'], 8000);
  // Versions differ on whether the list goes to stdout or stderr.
  return parseRpicamList(`${result.stdout}\n${result.stderr}`);
}

export interface RpicamOptions extends CaptureSize {
  bin: string;
  stallMs: number;
  restart: { minMs: number; maxMs: number };
  log: Logger;
  clock: Clock;
}

export function createRpicamCamera(options: RpicamOptions): ProcessCamera {
  return new ProcessCamera('rpicam', { ...options, args: rpicamArgs(options) });
}
