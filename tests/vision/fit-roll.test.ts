/**
 * A frame's reading fitted to the roll the game asks for (vision/fit-roll.ts). Dice are written
 * `set face confidence` for the net's best guess, then `/ set face confidence` for the die read as
 * the other set in play, and `?` when marked "check": `shape L .95 / organ eye .03`.
 */
import { describe, expect, it } from 'vitest';
import type { DiceSetId } from '../../shared/dice.js';
import { DIE_COLORS } from '../../shared/dice.js';
import { expectationOf, fitColours, fitToSlots, type FittableDie } from '../../vision/fit-roll.js';
import { colorLab, nearestColor, type Lab } from '../../vision/locate/color.js';

const SETS: Record<string, DiceSetId> = { shape: 'cozy-shape', organ: 'cozy-organ', d6: 'd6' };
const BELOW = 0.85;

/** `shape L .95 / organ eye .03` → a die read as a shape die, and as an organ die too. */
function die(text: string): FittableDie {
  const uncertain = text.trim().endsWith('?');
  const [own, ...others] = text.replace('?', '').split('/').map((part) => {
    const [set, face, p] = part.trim().split(/\s+/);
    return { set: SETS[set!]!, face: face!, confidence: Number(p), probabilities: { [face!]: Number(p) } };
  });
  const reading: FittableDie = { ...own!, uncertain: uncertain || own!.confidence < BELOW };
  if (others.length > 0) reading.bySet = [own!, ...others];
  return reading;
}
const show = (d: FittableDie) => `${Object.keys(SETS).find((k) => SETS[k] === d.set)} ${d.face}${d.uncertain ? '?' : ''}`;
const COZY = [{ set: 'cozy-shape' as const }, { set: 'cozy-organ' as const }, { set: 'cozy-organ' as const }];

describe('a reading fitted to Worm & Cozy’s roll: one shape die and two organ dice', () => {
  it('a reading that is such a roll comes back as it was', () => {
    const dice = [die('shape L .95 / organ eye .01'), die('organ eye .9 / shape T .02'), die('organ brain .97 / shape I .01')];
    const fitted = fitToSlots(dice, COZY, BELOW);
    expect(fitted.dice).toEqual(dice);
    expect(fitted.dice[0]).toBe(dice[0]);
    expect(fitted).toMatchObject({ dropped: [], moved: 0 });
  });

  it('two shape dice: the one likelier as an organ die is read as one, with that reading’s own confidence', () => {
    const fitted = fitToSlots([die('shape L .95 / organ eye .01'), die('shape T .5 / organ heart .45'), die('organ brain .97 / shape I .01')], COZY, BELOW);
    expect(fitted.dice.map(show)).toEqual(['shape L', 'organ heart?', 'organ brain']);
    expect(fitted.dice[1]).toMatchObject({ confidence: 0.45, probabilities: { heart: 0.45 } });
    expect(fitted.moved).toBe(1);
  });

  it('a die moved to the other set is marked unless the net was sure of that reading too', () => {
    // Read as three organ dice; the shape die had to be one of them: the likeliest as a shape.
    const fitted = fitToSlots([die('organ eye .6 / shape L .39'), die('organ mouth .99 / shape P .001'), die('organ tail .97 / shape U .01')], COZY, BELOW);
    expect(fitted.dice.map(show)).toEqual(['shape L?', 'organ mouth', 'organ tail']);
  });

  it('four boxes for three dice: the least likely box is left out', () => {
    const fitted = fitToSlots([die('shape L .95 / organ eye .01'), die('organ heart .4 / shape T .1 ?'), die('organ eye .9 / shape I .01'), die('organ brain .97 / shape I .01')], COZY, BELOW);
    expect(fitted.dice.map(show)).toEqual(['shape L', 'organ eye', 'organ brain']);
    expect(fitted.dropped.map(show)).toEqual(['organ heart?']);
  });

  it('a box left out that was read surely marks the least sure die kept: a person must look', () => {
    const fitted = fitToSlots([die('shape L .95 / organ eye .01'), die('organ heart .91 / shape T .01'), die('organ eye .93 / shape I .01'), die('organ brain .97 / shape I .01')], COZY, BELOW);
    expect(fitted.dropped.map(show)).toEqual(['organ heart']);
    expect(fitted.dice.map(show)).toEqual(['shape L', 'organ eye?', 'organ brain']);
  });

  it('fewer dice than slots: each still takes a slot of its own set where it can', () => {
    const fitted = fitToSlots([die('shape L .7 / organ eye .25'), die('shape T .8 / organ collar .15')], COZY, BELOW);
    expect(fitted.dice.map(show)).toEqual(['organ eye?', 'shape T?']);
    expect(fitted.dropped).toEqual([]);
  });

  it('a die read in one set only (no other reading given) keeps it, the others fit round it', () => {
    const fitted = fitToSlots([die('shape L .95'), die('shape T .6 / organ eye .3'), die('organ brain .97')], COZY, BELOW);
    expect(fitted.dice.map(show)).toEqual(['shape L', 'organ eye?', 'organ brain']);
  });

  it('a guessed box stays marked whatever its new reading', () => {
    const guessed = { ...die('shape T .5 / organ eye .49'), guessed: true };
    const fitted = fitToSlots([die('shape L .99 / organ eye .001'), guessed, die('organ brain .97 / shape I .01')], COZY, BELOW);
    expect(fitted.dice[1]).toMatchObject({ set: 'cozy-organ', face: 'eye', uncertain: true });
  });
});

describe('slots of one set (a fixed number of d6)', () => {
  it('the surplus is left out, the least sure first; no die changes', () => {
    const slots = [{ set: 'd6' as const }, { set: 'd6' as const }];
    const fitted = fitToSlots([die('d6 4 .99'), die('d6 2 .3 ?'), die('d6 6 .95')], slots, BELOW);
    expect(fitted.dice.map(show)).toEqual(['d6 4', 'd6 6']);
    expect(fitted.moved).toBe(0);
  });
});

describe('the dice a game’s request asks for', () => {
  it('its slots: each die’s set, and its colour where the game tells that die by it', () => {
    expect(expectationOf({ sets: ['cozy-shape', 'cozy-organ'], slots: [{ set: 'cozy-shape', role: 'shape' }, { set: 'cozy-organ', role: 'organ' }], prompt: '' })).toEqual({
      slots: [{ set: 'cozy-shape' }, { set: 'cozy-organ' }],
    });
    expect(expectationOf({ sets: ['d6'], slots: [{ set: 'd6', role: 'shape', color: 'red' }, { set: 'd6' }], prompt: '' })).toEqual({ slots: [{ set: 'd6', color: 'red' }, { set: 'd6' }] });
    expect(expectationOf({ sets: ['worm'], count: { min: 8, max: 8 }, prompt: '' })).toBeUndefined();
  });
});

describe('colours fitted to the slots that name them', () => {
  const lab = (name: string) => colorLab(name);
  /** A colour between two names: `share` of the way from `a` to `b`. */
  const between = (a: string, b: string, share: number): Lab => [0, 1, 2].map((k) => lab(a)[k]! + share * (lab(b)[k]! - lab(a)[k]!)) as Lab;
  const PALETTE = Object.keys(DIE_COLORS);
  const SHAPE_D6 = [{ color: 'red' }, {}, {}];

  it('a roll already named as the slots say keeps its names', () => {
    const fit = fitColours([lab('white'), lab('red'), lab('blue')], SHAPE_D6, PALETTE, 8)!;
    expect(fit.colors).toEqual(['white', 'red', 'blue']);
    expect(fit.doubtful).toEqual([false, false, false]);
  });

  it('a red die the light turned brown is still the one red die: the nearest to red of the three', () => {
    const darkRed = between('red', 'brown', 0.6);
    expect(nearestColor(darkRed, PALETTE)).toBe('brown');
    const fit = fitColours([lab('white'), darkRed, lab('black')], SHAPE_D6, PALETTE, 8)!;
    expect(fit.colors).toEqual(['white', 'red', 'black']);
    expect(fit.doubtful).toEqual([false, false, false]);
  });

  it('two dice named red: the redder is the shape die, the other takes its nearest other name', () => {
    const fit = fitColours([between('red', 'pink', 0.45), lab('red'), lab('white')], SHAPE_D6, PALETTE, 8)!;
    expect(fit.colors).toEqual(['pink', 'red', 'white']);
  });

  it('where the fit changed a colour and another die was nearly as red, both are for a person to check', () => {
    const fit = fitColours([between('red', 'brown', 0.6), between('red', 'brown', 0.62), lab('white')], SHAPE_D6, PALETTE, 8)!;
    expect(fit.colors.filter((c) => c === 'red')).toHaveLength(1);
    expect(fit.doubtful).toEqual([true, true, false]);
  });

  it('every slot coloured (a bid per player): one die each, matched at the least total distance', () => {
    const fit = fitColours([between('yellow', 'orange', 0.55), lab('orange')], [{ color: 'yellow' }, { color: 'orange' }], ['yellow', 'orange'], 8)!;
    expect(fit.colors).toEqual(['yellow', 'orange']);
  });

  it('not as many dice as slots, or no slot coloured: named one by one', () => {
    expect(fitColours([lab('red')], SHAPE_D6, PALETTE, 8)).toBeNull();
    expect(fitColours([lab('red'), lab('red')], [{}, {}], PALETTE, 8)).toBeNull();
  });
});
