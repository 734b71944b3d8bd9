/**
 * Replay of a video file (a recording of a real tray) through ffmpeg: decoded at its own pace
 * (-re), looped, resampled to the replay fps and written as MJPEG to stdout, like a live camera.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { ProcessCamera } from './process-camera.js';

export const VIDEO_FILE = /\.(mp4|mkv|mov|avi|webm|mjpe?g)$/i;

export function videoReplayArgs(file: string, fps: number, loop: boolean): string[] {
  return [
    '-hide_banner', '-loglevel', 'error',
    '-re',
    ...(loop ? ['-stream_loop', '-1'] : []),
    '-i', file,
    '-an',
    '-vf', `fps=${fps}`,
    '-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p', '-q:v', '4',
    '-f', 'mjpeg', '-',
  ];
}

export interface VideoReplayOptions {
  ffmpeg: string;
  file: string;
  fps: number;
  loop: boolean;
  stallMs: number;
  restart: { minMs: number; maxMs: number };
  log: Logger;
  clock: Clock;
}

export function createVideoReplay(options: VideoReplayOptions): ProcessCamera & { replayDiceWanted(): void } {
  // Played once (no loop), ffmpeg's normal exit is the end of the replay, not a failure.
  const camera = new ProcessCamera('replay', { ...options, bin: options.ffmpeg, args: videoReplayArgs(options.file, options.fps, options.loop), finite: !options.loop });
  // The replay's cue (FrameSource.replayDiceWanted): the video plays on regardless, but with the
  // cue the pipeline takes each loop's roll as a throw, not as the tray settling on the dice read
  // last (else a looped video gave one roll per start).
  return Object.assign(camera, { replayDiceWanted: () => {} });
}
