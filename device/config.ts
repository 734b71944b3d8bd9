/**
 * The `device` section of clew's config file, validated with zod. Every key has a default, so an
 * empty object (or no section at all) gives a working setup: auto-detected camera (replay when
 * none), GPIO buttons on the default BCM pins when the Pi exposes them, a serial box when one
 * answers, and the keyboard when neither is there.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ButtonName } from '../shared/game.js';

/**
 * The tray sequence `npm start` replays when there is no camera: the default game's roll (Worm &
 * Cozy: three d6, the red one the shape die) rolling, then settling, so the first screen offers a
 * roll it can use. (Through the forty-second session it was camera/replay/, four plain d6 that the
 * default game refused; that folder stays for the tests that name it.)
 */
export const DEFAULT_REPLAY_FOLDER = fileURLToPath(new URL('./camera/replay-worm-and-cozy/', import.meta.url));

/** Default BCM pins (the design's wiring): buttons to GND, status LED through a resistor. */
export const DEFAULT_PINS: Readonly<Record<ButtonName, number>> = { NEXT: 17, BACK: 27, READ: 22, OK: 23 };
export const DEFAULT_LED_PIN = 24;

const bcmPin = z.number().int().min(0).max(27);

export const cameraKinds = ['auto', 'rpicam', 'v4l2', 'replay', 'phone', 'none'] as const;
export type CameraKind = (typeof cameraKinds)[number];

const cameraSchema = z
  .object({
    kind: z.enum(cameraKinds).default('auto'),
    /** v4l2 device (`/dev/video0`), or 'auto' to take the first one ffmpeg can read. */
    device: z.string().min(1).default('auto'),
    width: z.number().int().min(160).max(4096).default(1280),
    height: z.number().int().min(120).max(3072).default(960),
    fps: z.number().min(1).max(60).default(10),
    replay: z
      .object({
        /** A folder of .jpg/.jpeg/.png frames, or a video file (.mp4, .mkv, .mjpeg…, played through ffmpeg); default: the shipped Worm & Cozy roll in device/camera/replay-worm-and-cozy/. */
        folder: z.string().min(1).default(DEFAULT_REPLAY_FOLDER),
        fps: z.number().min(0.5).max(60).default(4),
        loop: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    phone: z
      .object({
        maxBytes: z.number().int().min(1024).max(5_000_000).default(800_000),
        maxFps: z.number().min(0.5).max(30).default(8),
      })
      .strict()
      .prefault({}),
    /** A running camera that delivers no frame for this long is restarted. */
    stallMs: z.number().int().min(500).max(120_000).default(5000),
    /** Restart back-off: doubles from `minMs` up to `maxMs`, back to `minMs` after a good frame. */
    restart: z
      .object({ minMs: z.number().int().min(50).default(1000), maxMs: z.number().int().min(100).default(30_000) })
      .strict()
      .prefault({})
      .refine((r) => r.maxMs >= r.minMs, { message: 'restart.maxMs must be at least restart.minMs' }),
  })
  .strict();

const pinsSchema = z
  .object({ NEXT: bcmPin.default(17), BACK: bcmPin.default(27), READ: bcmPin.default(22), OK: bcmPin.default(23) })
  .strict()
  .refine((p) => new Set(Object.values(p)).size === 4, { message: 'each button needs its own pin' });

const onOffAuto = z.union([z.enum(['auto', 'on', 'off']), z.boolean().transform((b) => (b ? 'on' : 'off'))]);

const gpioSchema = z
  .object({
    /** 'auto': use GPIO when the pins can be reached; 'on': insist (log an error if not); 'off'. */
    enabled: onOffAuto.default('auto'),
    /**
     * How the pins are reached: 'onoff' (sysfs), 'gpiod' (the character device through libgpiod's
     * tools, `apt install gpiod`; sets the pull-ups itself), or 'auto' (sysfs if there, else gpiod).
     */
    driver: z.enum(['auto', 'onoff', 'gpiod']).default('auto'),
    /** sysfs number of BCM pin 0: 'auto' reads it from /sys/class/gpio/gpiochip*; 512 on a Pi 4 and 571 on a Pi 5 with kernel 6.6+, 0 before. */
    base: z.union([z.literal('auto'), z.number().int().min(0).max(4096)]).default('auto'),
    pins: pinsSchema.prefault({}),
    /** Status LED pin, or null for none. */
    led: bcmPin.nullable().default(DEFAULT_LED_PIN),
    /** Buttons wired to GND with pull-ups read 0 when pressed. */
    activeLow: z.boolean().default(true),
  })
  .strict()
  .refine((g) => g.led === null || !Object.values(g.pins).includes(g.led), { message: 'the LED pin is also a button pin' });

const serialSchema = z
  .object({
    /** 'auto': the first USB serial port that says HELLO; a path (`/dev/ttyACM0`); 'none'. */
    path: z.string().min(1).default('auto'),
    baudRate: z.number().int().min(1200).max(2_000_000).default(115_200),
    /** How long auto-detection waits for a HELLO line (an Arduino Uno resets on open: give it 2500). */
    detectMs: z.number().int().min(100).max(10_000).default(1000),
  })
  .strict();

export const deviceConfigSchema = z
  .object({
    camera: cameraSchema.prefault({}),
    gpio: gpioSchema.prefault({}),
    serial: serialSchema.prefault({}),
    /** Terminal keys: 'auto' = only when no GPIO and no serial box is found. */
    keyboard: onOffAuto.default('auto'),
    /** A level must hold this long to count (contact bounce is shorter). */
    debounceMs: z.number().int().min(0).max(500).default(30),
    /** Held this long, a button also sends `hold`. */
    holdMs: z.number().int().min(100).max(10_000).default(800),
  })
  .strict();

export type DeviceConfig = z.output<typeof deviceConfigSchema>;
export type DeviceConfigInput = z.input<typeof deviceConfigSchema>;

/** Parses the `device` section, throwing one readable error that names every bad key. */
export function parseDeviceConfig(input: unknown, where = 'device'): DeviceConfig {
  const result = deviceConfigSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${[where, ...i.path.map(String)].join('.')}: ${i.message}`);
  throw new Error(`invalid device config:\n${lines.join('\n')}`);
}
