/**
 * USB webcams through ffmpeg's v4l2 input. A webcam that offers MJPEG is copied through untouched
 * (no re-encode, almost no CPU); one that offers only raw frames is encoded to MJPEG by ffmpeg.
 * Either way ffmpeg writes MJPEG to stdout and the MJPEG splitter cuts it into frames.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Probe } from '../probe.js';
import { ProcessCamera } from './process-camera.js';
import type { CaptureSize } from './rpicam.js';

export interface V4l2Format {
  /** ffmpeg's name: 'mjpeg', 'yuyv422', 'nv12'… */
  name: string;
  compressed: boolean;
  /** Listed frame sizes; empty when the driver gives a range instead. */
  sizes: { width: number; height: number }[];
}

/**
 * Parses `ffmpeg -f v4l2 -list_formats all -i /dev/videoN` (stderr), e.g.
 * `[video4linux2,v4l2 @ 0x5f1] Compressed:       mjpeg :          Motion-JPEG : 640x480 1280x720`
 * `[video4linux2,v4l2 @ 0x5f1] Raw       :     yuyv422 :           YUYV 4:2:2 : 640x480 320x240`
 */
export function parseV4l2Formats(text: string): V4l2Format[] {
  const formats: V4l2Format[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /\]\s*(Compressed|Raw)\s*:\s*(\S+)\s*:[^:]*:(.*)$/.exec(line);
    if (!m) continue;
    const sizes = [...m[3]!.matchAll(/\b(\d+)x(\d+)\b/g)].map((s) => ({ width: Number(s[1]), height: Number(s[2]) }));
    formats.push({ name: m[2]!, compressed: m[1] === 'Compressed', sizes });
  }
  return formats;
}

/** Raw formats ffmpeg can encode to MJPEG (Bayer and other sensor formats are not for us). */
const USABLE_RAW = new Set(['yuyv422', 'uyvy422', 'nv12', 'nv21', 'yuv420p', 'rgb24', 'bgr24', 'gray']);

export interface V4l2Choice {
  format: string;
  /** Copy MJPEG through, or encode raw frames. */
  copy: boolean;
  width: number;
  height: number;
}

/** Picks MJPEG when offered, else a usable raw format; the listed size nearest the request. Null: not a usable capture device. */
export function chooseV4l2Mode(formats: V4l2Format[], want: CaptureSize): V4l2Choice | null {
  const format = formats.find((f) => f.compressed && f.name === 'mjpeg') ?? formats.find((f) => !f.compressed && USABLE_RAW.has(f.name));
  if (!format) return null;
  const size = nearestSize(format.sizes, want) ?? { width: want.width, height: want.height };
  return { format: format.name, copy: format.compressed, ...size };
}

function nearestSize(sizes: V4l2Format['sizes'], want: CaptureSize): { width: number; height: number } | null {
  if (sizes.length === 0) return null;
  const area = want.width * want.height;
  // Prefer the largest size not above the requested area (less to move and decode), else the smallest above.
  const below = sizes.filter((s) => s.width * s.height <= area).sort((a, b) => b.width * b.height - a.width * a.height);
  const above = sizes.filter((s) => s.width * s.height > area).sort((a, b) => a.width * a.height - b.width * b.height);
  return below[0] ?? above[0] ?? null;
}

export function v4l2Args(device: string, choice: V4l2Choice, fps: number): string[] {
  const input = ['-hide_banner', '-loglevel', 'error', '-f', 'v4l2', '-input_format', choice.format, '-video_size', `${choice.width}x${choice.height}`, '-framerate', String(fps), '-i', device];
  const output = choice.copy ? ['-c:v', 'copy'] : ['-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p', '-q:v', '4'];
  return [...input, ...output, '-f', 'mjpeg', '-'];
}

/** `/dev/video*` names in numeric order (video2 before video10). */
export function videoDevices(names: readonly string[], devRoot = '/dev'): string[] {
  return names
    .filter((n) => /^video\d+$/.test(n))
    .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)))
    .map((n) => `${devRoot}/${n}`);
}

export interface V4l2Found {
  ffmpeg: string;
  device: string;
  choice: V4l2Choice;
}

/** The first video device (or the configured one) that ffmpeg can capture from, and how. */
export async function findV4l2(probe: Probe, configured: string, want: CaptureSize, devRoot = '/dev', log?: Logger): Promise<V4l2Found | null> {
  const ffmpeg = await probe.findExecutable('ffmpeg');
  if (!ffmpeg) {
    log?.info('camera: ffmpeg not found, USB webcams cannot be used');
    return null;
  }
  const devices = configured === 'auto' ? videoDevices(await probe.listDir(devRoot), devRoot) : [configured];
  for (const device of devices) {
    const result = await probe.run(ffmpeg, ['-hide_banner', '-f', 'v4l2', '-list_formats', 'all', '-i', device], 8000);
    const choice = chooseV4l2Mode(parseV4l2Formats(result.stderr), want);
    if (choice) return { ffmpeg, device, choice };
    log?.info(`camera: ${device} is not a usable capture device`);
  }
  return null;
}

export interface V4l2Options {
  bin: string;
  device: string;
  choice: V4l2Choice;
  fps: number;
  stallMs: number;
  restart: { minMs: number; maxMs: number };
  log: Logger;
  clock: Clock;
}

export function createV4l2Camera(options: V4l2Options): ProcessCamera {
  return new ProcessCamera('v4l2', { ...options, args: v4l2Args(options.device, options.choice, options.fps) });
}
