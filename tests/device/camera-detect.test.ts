import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProcessCamera } from '../../device/camera/process-camera.js';
import { parseRpicamList, rpicamArgs } from '../../device/camera/rpicam.js';
import { chooseV4l2Mode, parseV4l2Formats, v4l2Args, videoDevices } from '../../device/camera/v4l2.js';
import { memoryLogger } from '../../device/log.js';
import { systemProbe } from '../../device/probe.js';
import { selectCamera } from '../../device/select.js';
import { fakeBin } from './support/fake-bin.js';
import { scratchDir } from '../support/scratch.js';

const text = (name: string) => readFileSync(new URL(`../fixtures/device/${name}`, import.meta.url), 'utf8');
const want = { width: 1280, height: 960, fps: 10 };

function devDir(...names: string[]): string {
  const dir = scratchDir('clew-dev-');
  for (const n of names) writeFileSync(path.join(dir, n), '');
  return dir;
}

describe('camera detection (pure parts)', () => {
  it('rpicam-vid runs endless MJPEG to stdout with no preview', () => {
    expect(rpicamArgs({ width: 1280, height: 960, fps: 10 }).join(' ')).toBe(
      '--codec mjpeg -t 0 --width 1280 --height 960 --framerate 10 --quality 85 --nopreview --flush -o -',
    );
  });

  it('reads the cameras rpicam-hello --list-cameras lists', () => {
    expect(parseRpicamList(text('rpicam-list.txt'))).toEqual([
      { index: 0, sensor: 'imx708_wide', width: 4608, height: 2592 },
      { index: 1, sensor: 'ov5647', width: 2592, height: 1944 },
    ]);
    expect(parseRpicamList('No cameras available!\n')).toEqual([]);
  });

  it('reads the formats ffmpeg lists for a webcam', () => {
    const formats = parseV4l2Formats(text('ffmpeg-formats-webcam.txt'));
    expect(formats.map((f) => [f.name, f.compressed, f.sizes.length])).toEqual([
      ['mjpeg', true, 12],
      ['yuyv422', false, 11],
    ]);
    expect(parseV4l2Formats(text('ffmpeg-formats-codec.txt'))).toEqual([]);
  });

  it('prefers MJPEG (copied, no re-encode) at the largest listed size within the request', () => {
    const choice = chooseV4l2Mode(parseV4l2Formats(text('ffmpeg-formats-webcam.txt')), want);
    expect(choice).toEqual({ format: 'mjpeg', copy: true, width: 1280, height: 720 });
    expect(v4l2Args('/dev/video0', choice!, 10).join(' ')).toBe(
      '-hide_banner -loglevel error -f v4l2 -input_format mjpeg -video_size 1280x720 -framerate 10 -i /dev/video0 -c:v copy -f mjpeg -',
    );
  });

  it('a raw-only webcam is encoded to MJPEG by ffmpeg', () => {
    const choice = chooseV4l2Mode(parseV4l2Formats(text('ffmpeg-formats-rawonly.txt')), want)!;
    expect(choice).toEqual({ format: 'yuyv422', copy: false, width: 640, height: 480 });
    expect(v4l2Args('/dev/video2', choice, 5)).toEqual(expect.arrayContaining(['-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p']));
  });

  it('a request smaller than every listed size takes the smallest', () => {
    const formats = [{ name: 'mjpeg', compressed: true, sizes: [{ width: 1920, height: 1080 }, { width: 1280, height: 720 }] }];
    expect(chooseV4l2Mode(formats, { width: 320, height: 240, fps: 5 })).toMatchObject({ width: 1280, height: 720 });
  });

  it('video devices in numeric order', () => {
    expect(videoDevices(['video10', 'tty0', 'video2', 'video0', 'videodev'], '/dev')).toEqual(['/dev/video0', '/dev/video2', '/dev/video10']);
  });
});

describe('selectCamera', () => {
  it('auto: the Pi camera when rpicam-vid exists and lists a camera', async () => {
    const bin = fakeBin({ programs: ['rpicam-vid', 'rpicam-hello', 'ffmpeg'], list: text('rpicam-list.txt') });
    const log = memoryLogger();
    const camera = await selectCamera({ camera: { width: 640, height: 480, fps: 15 } }, log, { probe: systemProbe(bin.dir), devRoot: devDir() });
    expect(camera).toBeInstanceOf(ProcessCamera);
    expect(camera.kind).toBe('rpicam');
    expect((camera as ProcessCamera).commandLine).toBe(`${bin.bin('rpicam-vid')} ${rpicamArgs({ width: 640, height: 480, fps: 15 }).join(' ')}`);
    expect(log.messages('info').join('\n')).toMatch(/camera: rpicam \(imx708_wide\) at 640x480 15 fps/);
  });

  it('auto: rpicam installed but no camera attached → the first webcam ffmpeg can read', async () => {
    const dev = devDir('video0', 'video1', 'video10');
    const bin = fakeBin({
      programs: ['rpicam-vid', 'rpicam-hello', 'ffmpeg'],
      list: 'No cameras available!\n',
      formats: { [`${dev}/video0`]: text('ffmpeg-formats-codec.txt'), [`${dev}/video1`]: text('ffmpeg-formats-webcam.txt') },
    });
    const log = memoryLogger();
    const camera = await selectCamera({}, log, { probe: systemProbe(bin.dir), devRoot: dev });
    expect(camera.kind).toBe('v4l2');
    expect((camera as ProcessCamera).commandLine).toContain(`-i ${dev}/video1 -c:v copy`);
    expect(log.messages().join('\n')).toMatch(/video0 is not a usable capture device/);
  });

  it('auto: no camera at all → the replay folder', async () => {
    const log = memoryLogger();
    const camera = await selectCamera({}, log, { probe: systemProbe(devDir()), devRoot: devDir() });
    expect(camera.kind).toBe('replay');
    expect(log.messages('info').join('\n')).toMatch(/no camera found; using replay/);
  });

  it('explicit rpicam without rpicam-vid installed: an error is logged and the source keeps retrying', async () => {
    const log = memoryLogger();
    const camera = await selectCamera({ camera: { kind: 'rpicam' } }, log, { probe: systemProbe(devDir()), devRoot: devDir() });
    expect(camera.kind).toBe('rpicam');
    expect(log.messages('error').join('\n')).toMatch(/rpicam-vid is not installed/);
  });

  it('replay of a video file goes through ffmpeg, looped, at the replay fps', async () => {
    const bin = fakeBin({ programs: ['ffmpeg'] });
    const camera = await selectCamera({ camera: { kind: 'replay', replay: { folder: '/recordings/tray.mp4', fps: 5 } } }, memoryLogger(), { probe: systemProbe(bin.dir) });
    expect(camera.kind).toBe('replay');
    expect((camera as ProcessCamera).commandLine).toBe(
      `${bin.bin('ffmpeg')} -hide_banner -loglevel error -re -stream_loop -1 -i /recordings/tray.mp4 -an -vf fps=5 -c:v mjpeg -pix_fmt yuvj420p -q:v 4 -f mjpeg -`,
    );
  });

  it('phone and none', async () => {
    const log = memoryLogger();
    expect((await selectCamera({ camera: { kind: 'phone' } }, log)).kind).toBe('phone');
    const none = await selectCamera({ camera: { kind: 'none' } }, log);
    await none.start();
    expect(none.status()).toMatchObject({ kind: 'none', ok: false, message: expect.stringMatching(/disabled in config/) });
    await none.stop();
  });

  it('a bad config is refused with the key named', async () => {
    await expect(selectCamera({ camera: { fps: 0 } }, memoryLogger())).rejects.toThrow(/device\.camera\.fps/);
  });
});
