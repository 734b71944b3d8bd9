/**
 * Small dice in a large frame (a 1080p webcam's photo of a whole table, the Pi camera's 1280×960
 * from high up): at the locator's 640 px working size dice of 24–40 px are 8–20 px, and many are
 * lost. A still picture whose dice come out smaller than 24 px there is located again closer
 * (locate.ts, CLOSER_SMALL_SIDE); so is a tray camera's frame, against its empty tray learnt at
 * twice the size (TrayReference.closer); a stream's frame with no empty tray is not.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { learnEmptyTray } from '../../vision/empty-tray.js';
import { locateDice, type TrayReference } from '../../vision/locate/index.js';
import { loadDiceReader } from '../../vision/reader.js';
import { renderScene } from '../../vision/synth/scene.js';
import type { Box } from '../../vision/types.js';
import { matchBoxes } from './locate-scenes.js';

const scene = (seed: string, width: number, height: number) =>
  renderScene(createRng(seed), { dice: 8, sets: ['d6'], difficulty: 0.3, dieSize: [24, 40], width, height, empty: true, knobs: { maxOblique: 30, roll: 10 } });

/** The same empty tray without its closer twin, as before the twin was learnt. */
const withoutCloser = (tray: TrayReference): TrayReference => {
  const { closer: _closer, ...rest } = tray;
  return rest;
};

describe('small dice in a large picture', () => {
  it.each(['small-dice-2', 'small-dice-3'])('%s (1920×1080, 8 d6 of 24–40 px): found when located as a still picture', (seed) => {
    const { image, dice } = scene(seed, 1920, 1080);
    const truth = dice.map((d) => d.box as Box);
    const asPicture = matchBoxes(truth, locateDice(image, { lookCloserWhenNone: true }).map((d) => d.box), 0.5);
    const asStream = matchBoxes(truth, locateDice(image).map((d) => d.box), 0.5);
    expect(truth).toHaveLength(8);
    expect(asPicture.missed.length).toBeLessThanOrEqual(1);
    expect(asPicture.spurious.length).toBeLessThanOrEqual(1);
    // The stream's frame is located at the working size only: most of these dice are lost there.
    expect(asStream.missed.length).toBeGreaterThanOrEqual(asPicture.missed.length + 4);
  });

  it('keeps no closer look that cuts dice it saw whole into pieces (a clump on a camouflage cloth at 1280 px)', () => {
    // eval:dice's "large-1280-side-12": at 640 px 5 of 8 dice boxed well (IoU ≥ 0.5) and no box on
    // no die; at 1280 px the clumps came apart into their pips (26 boxes on no die) before
    // CLOSER_SAME_DICE.
    const { image, dice } = renderScene(createRng('large-1280-side-12'), { dice: 8, sets: ['d6'], difficulty: 0.4, dieSize: [24, 48], width: 1280, height: 960, knobs: { maxOblique: 45, roll: 10 } });
    const truth = dice.map((d) => d.box as Box);
    const m = matchBoxes(truth, locateDice(image, { lookCloserWhenNone: true }).map((d) => d.box), 0.5);
    expect(m.hits).toBeGreaterThanOrEqual(5);
    expect(m.spurious.length).toBeLessThanOrEqual(1);
  });

  it('leaves a picture under one and a half times the working size as it was', () => {
    const { image } = scene('small-dice-3', 900, 600);
    const boxes = (found: { box: Box }[]) => found.map((d) => d.box.map((v) => Math.round(v)));
    expect(boxes(locateDice(image, { lookCloserWhenNone: true }))).toEqual(boxes(locateDice(image)));
  });
});

describe('small dice in a tray camera\'s large frame, against the empty tray', () => {
  it('learns the empty tray at twice the working size when first asked, once, only for a frame that large', () => {
    const { empty } = scene('tray-small-dice-2', 1280, 960);
    const tray = learnEmptyTray(empty!);
    expect(tray.maxSide).toBe(640);
    const closer = tray.closer!();
    expect({ maxSide: closer.maxSide, width: closer.width, height: closer.height }).toEqual({ maxSide: 1280, width: 1280, height: 960 });
    expect(tray.closer!()).toBe(closer);
    expect(closer.closer).toBeUndefined();
    // 1280×960 worked at 1280 already, or a frame under twice the working size: no twin.
    expect(learnEmptyTray(empty!, 1280).closer).toBeUndefined();
    expect(learnEmptyTray(scene('tray-small-dice-2', 1000, 750).empty!).closer).toBeUndefined();
  });

  it('does not look closer at a frame that no longer fits its empty tray (another tray, the camera moved)', () => {
    // Small dice on a printed cloth: looked at closer against the cloth's own empty tray, not
    // against another table's.
    const onCloth = renderScene(createRng('tray-small-dice-2'), { dice: 8, sets: ['d6'], difficulty: 0.3, dieSize: [24, 40], width: 1280, height: 960, empty: true, table: 'pattern', knobs: { maxOblique: 30, roll: 10 } });
    const look = (tray: TrayReference) => {
      const fits: boolean[] = [];
      let closer = false;
      locateDice(onCloth.image, { tray, onTray: (fit) => fits.push(fit.used), onLookedCloser: () => (closer = true) });
      return { fits, closer };
    };
    expect(look(learnEmptyTray(onCloth.empty!))).toEqual({ fits: [true], closer: true });
    expect(look(learnEmptyTray(scene('tray-small-dice-2', 1280, 960).empty!))).toEqual({ fits: [false], closer: false });
  });

  it.each(['tray-small-dice-2', 'tray-small-dice-3'])('%s (1280×960, 8 d6 of 24–40 px): found closer against the tray at 1280, and the reader reads them', async (seed) => {
    const { image, empty, dice } = scene(seed, 1280, 960);
    const truth = dice.map((d) => d.box as Box);
    const tray = learnEmptyTray(empty!);
    let told: TrayReference | undefined;
    const closer = matchBoxes(truth, locateDice(image, { tray, onLookedCloser: (t) => (told = t) }).map((d) => d.box), 0.5);
    const atSize = matchBoxes(truth, locateDice(image, { tray: withoutCloser(tray) }).map((d) => d.box), 0.5);
    expect(told).toBe(tray.closer!());
    expect(closer.missed.length).toBeLessThanOrEqual(1);
    expect(closer.spurious).toEqual([]);
    expect(atSize.missed.length).toBeGreaterThanOrEqual(closer.missed.length + 3);
    // The reader's tray reading, and its modelled second reading at the same size, keep them.
    const reader = await loadDiceReader();
    try {
      const read = matchBoxes(truth, (await reader.read(image, { sets: ['d6'], view: 'side', tray })).map((d) => d.box), 0.5);
      expect(read.missed.length).toBeLessThanOrEqual(1);
      expect(read.spurious).toEqual([]);
    } finally {
      reader.dispose();
    }
  });
});
