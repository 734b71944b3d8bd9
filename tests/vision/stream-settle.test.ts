/**
 * The stream reader on frame sequences: a tray that shakes, then lies still, is reported
 * settled once, after the configured number of still frames and still time, from the last
 * frames' reads; sensor noise and a change of exposure or lighting are not motion; dice are matched across frames by overlap
 * and voted; a die that flickers or disagrees is marked uncertain instead of guessed.
 */
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../shared/rng.js';
import type { DetailedReading } from '../../vision/reader.js';
import { learnTray } from '../../vision/locate/index.js';
import {
  DEFAULT_SETTLE, DiceStream, INITIAL_SETTLE, greyThumbnail, iou, motionBetween, settleStep, voteFrames,
  type FrameReader, type SettleState, type VoteInput,
} from '../../vision/stream.js';
import type { Box, ReadOptions, RgbImage } from '../../vision/types.js';

/** A 160×120 tray with dark squares ("dice") at the given places, plus sensor noise; `gain` brightens it all (a lamp), `shadow` darkens its left third. */
function frame(rng: Rng, squares: { x: number; y: number }[], options: { noise?: number; gain?: number; shadow?: number } = {}): RgbImage {
  const w = 160, h = 120;
  const data = new Uint8Array(w * h * 3);
  const noise = options.noise ?? 3;
  const gain = options.gain ?? 1;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const inDie = squares.some((s) => x >= s.x && x < s.x + 16 && y >= s.y && y < s.y + 16);
      const base = (inDie ? 40 : 180) * gain * (x < w / 3 ? (options.shadow ?? 1) : 1);
      for (let k = 0; k < 3; k++) data[(y * w + x) * 3 + k] = Math.max(0, Math.min(255, Math.round(base + noise * rng.normal())));
    }
  }
  return { width: w, height: h, data };
}

/** Frames 100 ms apart: 10 fps, the camera's default, where four still frames span 300 ms, more than the 270 ms a settle also needs. */
const FRAME_MS = 100;

function run(motions: (number | undefined)[], times = motions.map((_, i) => i * FRAME_MS)): { events: string[]; reads: number[] } {
  let state: SettleState = INITIAL_SETTLE;
  const events: string[] = [];
  const reads: number[] = [];
  motions.forEach((m, i) => {
    const step = settleStep(state, m, times[i]!);
    state = step.state;
    if (step.event) events.push(`${i}:${step.event}`);
    if (step.read) reads.push(i);
  });
  return { events, reads };
}

describe('motion between frames', () => {
  it('sensor noise and a global exposure change are not motion; a moved die is', () => {
    const rng = createRng('motion');
    const a = greyThumbnail(frame(rng, [{ x: 20, y: 20 }, { x: 90, y: 50 }]));
    const noisy = greyThumbnail(frame(rng, [{ x: 20, y: 20 }, { x: 90, y: 50 }], { noise: 6 }));
    const brighter = greyThumbnail(frame(rng, [{ x: 20, y: 20 }, { x: 90, y: 50 }], { gain: 1.06 }));
    const moved = greyThumbnail(frame(rng, [{ x: 28, y: 20 }, { x: 90, y: 50 }]));
    expect(motionBetween(a, noisy)).toBeLessThanOrEqual(DEFAULT_SETTLE.stillBelow);
    expect(motionBetween(a, brighter)).toBeLessThanOrEqual(DEFAULT_SETTLE.stillBelow);
    expect(motionBetween(a, moved)).toBeGreaterThan(DEFAULT_SETTLE.stillBelow);
  });

  it('a lamp switched on or dimmed (every grey level ×1.3, ×0.7) is not motion; a shadow over a third of the tray still is', () => {
    const rng = createRng('lamp');
    const dice = [{ x: 20, y: 20 }, { x: 90, y: 50 }];
    const a = greyThumbnail(frame(rng, dice));
    expect(motionBetween(a, greyThumbnail(frame(rng, dice, { gain: 1.3 })))).toBeLessThanOrEqual(DEFAULT_SETTLE.stillBelow);
    expect(motionBetween(a, greyThumbnail(frame(rng, dice, { gain: 0.7 })))).toBeLessThanOrEqual(DEFAULT_SETTLE.stillBelow);
    expect(motionBetween(a, greyThumbnail(frame(rng, dice, { shadow: 0.6 })))).toBeGreaterThan(0.1);
  });

  it('thumbnails keep the aspect and never exceed the asked side', () => {
    const t = greyThumbnail(frame(createRng(1), []), 40);
    expect(t.width).toBeLessThanOrEqual(40);
    expect(t.width / t.height).toBeCloseTo(160 / 120, 1);
  });

  it('refuses a malformed frame with a clear message', () => {
    expect(() => greyThumbnail({ width: 4, height: 4, data: new Uint8Array(10) })).toThrow(/well-formed/);
  });
});

describe('settle detection', () => {
  it('a roll: shaking frames, then four still frames settle once, reading the last three', () => {
    const big = 0.2, calm = 0.001;
    const { events, reads } = run([undefined, big, big, big, calm, calm, calm, calm, calm]);
    // Frame 3 is the first of the still run (it matches frame 4); frames 4, 5, 6 complete it.
    expect(events).toEqual(['6:settled']);
    expect(reads).toEqual([4, 5, 6]);
  });

  it('a die nudged mid-wait restarts the wait quietly; moving after a settle is reported', () => {
    const big = 0.2, calm = 0.001;
    const { events } = run([undefined, calm, calm, big, calm, calm, calm, big, calm]);
    expect(events).toEqual(['6:settled', '7:moving']);
  });

  it('a tray that is still from the first frame settles after the configured frames', () => {
    const { events } = run([undefined, 0, 0, 0, 0, 0]);
    expect(events).toEqual(['3:settled']);
  });

  it('at 30 fps four still frames are not enough: the tray settles once it has been still for 270 ms', () => {
    const big = 0.2, calm = 0.001;
    // Still from frame 1 (33 ms): four frames are a tenth of a second (a hand held over the tray).
    // Frame 10 (330 ms) is the first 270 ms after it.
    const { events } = run([undefined, big, ...Array<number>(12).fill(calm)], Array.from({ length: 14 }, (_, i) => i * 33));
    expect(events).toEqual(['10:settled']);
  });

  it('at a webcam\'s 10 fps the fourth still frame settles, though the frames\' arrival times jitter by a millisecond', () => {
    const big = 0.2, calm = 0.001;
    // Timed on arrival: three intervals of about 99.7 ms, 299.1 ms in all (300 ms needed a fifth frame).
    const { events } = run([undefined, big, calm, calm, calm, calm], [900, 1000, 1099.6, 1199.3, 1299.1, 1398.8]);
    expect(events).toEqual(['4:settled']);
  });

  it('a frame time out of order does not shorten the wait: stillness is timed from the latest frame time seen', () => {
    const big = 0.2, calm = 0.001;
    // A frame stamped 800 ms comes after one stamped 1000 ms, and begins the still run.
    const { events } = run([undefined, big, big, calm, calm, calm, calm, calm, calm], [0, 1000, 800, 1050, 1100, 1150, 1200, 1250, 1300]);
    expect(events).toEqual(['8:settled']);
  });

  it('refuses voting over more frames than the still run', () => {
    expect(() => settleStep(INITIAL_SETTLE, 0, 0, { stillBelow: 0.01, stillFrames: 2, stillMs: 0, voteFrames: 3 })).toThrow(/voteFrames/);
  });
});

const box = (x: number, y: number, s = 20): Box => [x, y, x + s, y + s];
const reading = (b: Box, face: string, p: number): VoteInput => {
  const probabilities: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, '6': 0 };
  const rest = (1 - p) / 5;
  for (const k of Object.keys(probabilities)) probabilities[k] = k === face ? p : rest;
  return { set: 'd6', face, confidence: p, box: b, probabilities };
};

describe('voting across frames', () => {
  it('matches dice by overlap even when they jitter a few pixels, and keeps the agreed face', () => {
    const frames = [
      [reading(box(10, 10), '4', 0.97), reading(box(60, 10), '2', 0.95)],
      [reading(box(61, 11), '2', 0.96), reading(box(11, 10), '4', 0.98)],
      [reading(box(10, 11), '4', 0.96), reading(box(60, 10), '2', 0.97)],
    ];
    const voted = voteFrames(frames);
    expect(voted.map((d) => [d.face, d.seen, d.uncertain])).toEqual([['4', 3, false], ['2', 3, false]]);
    expect(voted[0]!.confidence).toBeCloseTo((0.97 + 0.98 + 0.96) / 3, 6);
  });

  it('a die read differently in one frame keeps the majority face but is marked uncertain', () => {
    const frames = [
      [reading(box(10, 10), '6', 0.9)],
      [reading(box(10, 10), '5', 0.55)],
      [reading(box(10, 10), '6', 0.92)],
    ];
    const [d] = voteFrames(frames);
    expect(d!.face).toBe('6');
    expect(d!.uncertain).toBe(true);
  });

  it('a die missing from one frame is uncertain; a flicker seen once is dropped', () => {
    const frames = [
      [reading(box(10, 10), '3', 0.99), reading(box(100, 80), '1', 0.99)],
      [reading(box(10, 10), '3', 0.99)],
      [],
    ];
    const voted = voteFrames(frames);
    expect(voted).toHaveLength(1);
    expect(voted[0]).toMatchObject({ face: '3', seen: 2, uncertain: true });
  });

  it('a die whose box the locator guessed in any frame is uncertain however sure its face', () => {
    const guessed = { ...reading(box(10, 10), '5', 0.99), guessed: true };
    const frames = [[reading(box(10, 10), '5', 0.99)], [guessed], [reading(box(10, 10), '5', 0.99)]];
    const [d] = voteFrames(frames);
    expect(d).toMatchObject({ face: '5', seen: 3, uncertain: true, guessed: true });
    const [sure] = voteFrames([[reading(box(10, 10), '5', 0.99)], [reading(box(10, 10), '5', 0.99)]]);
    expect(sure).toMatchObject({ uncertain: false });
    expect(sure!.guessed).toBeUndefined();
  });

  it('box overlap is symmetric and 0 for disjoint boxes', () => {
    expect(iou(box(0, 0), box(10, 0))).toBeCloseTo(iou(box(10, 0), box(0, 0)));
    expect(iou(box(0, 0), box(10, 0))).toBeCloseTo(200 / 600);
    expect(iou(box(0, 0), box(50, 50))).toBe(0);
  });
});

/** A reader that reports a dark square wherever the frame has one (the frames above are exact). */
class SquareReader implements FrameReader {
  calls = 0;
  asked: ReadOptions[] = [];
  async readDetailed(image: RgbImage, options: ReadOptions): Promise<DetailedReading[]> {
    this.calls++;
    this.asked.push(options);
    const out: DetailedReading[] = [];
    const dark = (x: number, y: number) => x >= 0 && y >= 0 && image.data[(y * image.width + x) * 3]! < 100;
    for (let y = 0; y + 16 <= image.height; y++) {
      for (let x = 0; x + 16 <= image.width; x++) {
        // A square's top-left corner: dark here and below-right, light to the left and above.
        if (dark(x, y) && dark(x + 8, y + 8) && !dark(x - 1, y + 8) && !dark(x + 8, y - 1)) {
          out.push({ set: 'd6', face: '5', confidence: 0.95, box: box(x, y, 16), uncertain: false, probabilities: { '1': 0.01, '2': 0.01, '3': 0.01, '4': 0.01, '5': 0.95, '6': 0.01 } });
        }
      }
    }
    return out;
  }
}

describe('DiceStream', () => {
  it('reports a shaken-then-still tray once, with the dice voted, after reading only the last still frames', async () => {
    const rng = createRng('stream');
    const reader = new SquareReader();
    const stream = new DiceStream(reader, { sets: ['d6'] });
    const events = [];
    const place = [{ x: 20, y: 30 }, { x: 100, y: 60 }];
    for (let i = 0; i < 4; i++) events.push(await stream.push(frame(rng, [{ x: 10 + 15 * i, y: 20 + 7 * i }, { x: 120 - 9 * i, y: 30 + 5 * i }]), i * FRAME_MS));
    for (let i = 4; i < 12; i++) events.push(await stream.push(frame(rng, place), i * FRAME_MS));
    const happened = events.filter((e) => e !== undefined);
    expect(happened).toHaveLength(1);
    expect(happened[0]).toMatchObject({ type: 'settled', at: 7 * FRAME_MS, frames: 3 });
    const settled = happened[0] as { dice: { face: string; box: Box; uncertain: boolean }[] };
    expect(settled.dice.map((d) => [d.face, d.box[0], d.box[1], d.uncertain])).toEqual([['5', 20, 30, false], ['5', 100, 60, false]]);
    expect(reader.calls).toBe(3);
    const moved = await stream.push(frame(rng, [{ x: 40, y: 30 }, { x: 100, y: 60 }]), 12 * FRAME_MS);
    expect(moved).toEqual({ type: 'moving', at: 12 * FRAME_MS });
    expect(reader.asked.every((o) => o.view === undefined && o.sets.join() === 'd6')).toBe(true);
  });

  it('reads every frame with the sets, colours and camera view it was made for', async () => {
    const rng = createRng('stream-view');
    const reader = new SquareReader();
    const stream = new DiceStream(reader, { sets: ['d6'], palette: ['red'], view: 'overhead' });
    for (let i = 0; i < 8; i++) await stream.push(frame(rng, [{ x: 20, y: 30 }]), i * FRAME_MS);
    expect(reader.asked.length).toBeGreaterThan(0);
    for (const o of reader.asked) expect(o).toEqual({ sets: ['d6'], palette: ['red'], view: 'overhead' });
  });

  it('reads every frame with the colour look, or with it up to a number of dice, when made so (vision.colourLook)', async () => {
    const rng = createRng('stream-colour-look');
    const reader = new SquareReader();
    const stream = new DiceStream(reader, { sets: ['d6'], colourLook: true });
    for (let i = 0; i < 8; i++) await stream.push(frame(rng, [{ x: 20, y: 30 }]), i * FRAME_MS);
    expect(reader.asked.length).toBeGreaterThan(0);
    for (const o of reader.asked) expect(o).toEqual({ sets: ['d6'], colourLook: true });
    const upTo = new SquareReader();
    const few = new DiceStream(upTo, { sets: ['d6'], colourLookUpTo: 8 });
    for (let i = 0; i < 8; i++) await few.push(frame(rng, [{ x: 20, y: 30 }]), i * FRAME_MS);
    for (const o of upTo.asked) expect(o).toEqual({ sets: ['d6'], colourLookUpTo: 8 });
  });

  it('a frame that cannot be read on the way to settling does not lose the roll: the next still frame settles it', async () => {
    const rng = createRng('stream-read-fails');
    const reader = new SquareReader();
    // Reads are of the last three still frames: the third read is of the frame that would settle.
    let failOn = 3;
    const failing: FrameReader = {
      readDetailed: (image, options) => (++reader.calls === failOn ? Promise.reject(new Error('reader: a worker thread died')) : new SquareReader().readDetailed(image, options)),
    };
    const stream = new DiceStream(failing, { sets: ['d6'] });
    const place = [{ x: 20, y: 30 }];
    const events: unknown[] = [];
    for (let i = 0; i < 8; i++) {
      try {
        events.push(await stream.push(frame(rng, place), i * FRAME_MS));
      } catch (error) {
        events.push(`threw: ${(error as Error).message}`);
      }
    }
    expect(events.slice(0, 4)).toEqual([undefined, undefined, undefined, 'threw: reader: a worker thread died']);
    expect(events[4]).toMatchObject({ type: 'settled', at: 4 * FRAME_MS });
    expect(events.slice(5)).toEqual([undefined, undefined, undefined]);
    failOn = 0;
  });

  it('frames of another size are motion, even where they shrink to the same thumbnail', async () => {
    const rng = createRng('stream-size');
    const stream = new DiceStream(new SquareReader(), { sets: ['d6'] });
    const small = frame(rng, [{ x: 20, y: 30 }]);
    // The same tray at twice the size (160×120 → 320×240: both 80×60 thumbnails).
    const large: RgbImage = { width: 320, height: 240, data: new Uint8Array(320 * 240 * 3) };
    for (let y = 0; y < 240; y++) for (let x = 0; x < 320; x++) for (let k = 0; k < 3; k++) large.data[(y * 320 + x) * 3 + k] = small.data[((y >> 1) * 160 + (x >> 1)) * 3 + k]!;
    const events = [];
    for (let i = 0; i < 3; i++) events.push(await stream.push(small, i * FRAME_MS));
    for (let i = 3; i < 8; i++) events.push(await stream.push(large, i * FRAME_MS));
    const settled = events.filter((e) => e?.type === 'settled');
    // Settled on the large frames' own run (four still frames after the size changed), not earlier.
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ at: 6 * FRAME_MS, frames: 3 });
    expect((settled[0] as { dice: { box: Box }[] }).dice.map((d) => d.box.slice(0, 2))).toEqual([[40, 60]]);
  });

  it('a stream made for another request takes over the scene: a roll already reported is not reported again', async () => {
    const rng = createRng('stream-continue');
    const first = new DiceStream(new SquareReader(), { sets: ['d6'], palette: ['red'] });
    const place = [{ x: 20, y: 30 }];
    const events = [];
    for (let i = 0; i < 6; i++) events.push(await first.push(frame(rng, place), i * FRAME_MS));
    expect(events.filter((e) => e?.type === 'settled')).toHaveLength(1);
    // The next player's die is asked for; the tray has not been touched.
    const reader = new SquareReader();
    const next = new DiceStream(reader, { sets: ['d6'], palette: ['blue'] });
    next.continueFrom(first);
    const after = [];
    for (let i = 6; i < 14; i++) after.push(await next.push(frame(rng, place), i * FRAME_MS));
    expect(after.filter((e) => e !== undefined)).toEqual([]);
    expect(reader.calls).toBe(0);
    // The next roll is reported as usual, read for the new request.
    after.push(await next.push(frame(rng, [{ x: 90, y: 50 }]), 14 * FRAME_MS));
    for (let i = 15; i < 20; i++) after.push(await next.push(frame(rng, [{ x: 90, y: 50 }]), i * FRAME_MS));
    expect(after.filter((e) => e !== undefined).map((e) => e!.type)).toEqual(['moving', 'settled']);
    expect(reader.asked.every((o) => o.palette?.join() === 'blue')).toBe(true);
    // A stream that had not reported yet hands over nothing: the new one waits for its own still run.
    const waiting = new DiceStream(new SquareReader(), { sets: ['d6'] });
    await waiting.push(frame(rng, place), 0);
    const fresh = new DiceStream(new SquareReader(), { sets: ['d6'] });
    fresh.continueFrom(waiting);
    const own = [];
    for (let i = 1; i < 5; i++) own.push(await fresh.push(frame(rng, place), i * FRAME_MS));
    expect(own.map((e) => e?.type)).toEqual([undefined, undefined, undefined, 'settled']);
  });

  it('reads every frame against the empty tray it was given, and tells who asked how each fitted', async () => {
    const rng = createRng('stream-tray');
    const reader = new SquareReader();
    const tray = learnTray(frame(rng, []));
    const onTray = (): void => {};
    const stream = new DiceStream(reader, { sets: ['d6'], tray, onTray });
    for (let i = 0; i < 8; i++) await stream.push(frame(rng, [{ x: 20, y: 30 }]), i * FRAME_MS);
    expect(reader.asked.length).toBeGreaterThan(0);
    for (const o of reader.asked) expect(o).toEqual({ sets: ['d6'], tray, onTray });
  });
});
