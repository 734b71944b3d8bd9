/**
 * The visual face classes and their mapping from every set's face labels.
 */
import { describe, expect, it } from 'vitest';
import { DICE_SETS, DICE_SET_IDS } from '../../shared/dice.js';
import { FACE_CLASSES, classOf, classesOfSets, faceOf, facesOfSet } from '../../vision/faces/classes.js';

describe('face classes', () => {
  it('lists 28 distinct classes', () => {
    expect(FACE_CLASSES.length).toBe(28);
    expect(new Set(FACE_CLASSES).size).toBe(28);
  });

  it.each(DICE_SET_IDS)('maps every face of %s to a class, each face to a different one', (set) => {
    const faces = facesOfSet(set);
    expect(faces.map((f) => f.face)).toEqual([...DICE_SETS[set].faces]);
    expect(new Set(faces.map((f) => f.cls)).size).toBe(faces.length);
    for (const { face, cls } of faces) expect(faceOf(set, cls)).toBe(face);
  });

  it('uses every class somewhere', () => {
    expect(classesOfSets(DICE_SET_IDS)).toEqual([...FACE_CLASSES]);
  });

  it('shares looks across sets: a worm-set 4 is four pips, a piecepack 3 is a numeral 3', () => {
    expect(classOf('worm', '4')).toBe(classOf('d6', '4'));
    expect(classOf('worm', 'worm')).toBe('worm');
    expect(classOf('piecepack', '3')).toBe(classOf('wurmeln', '3'));
    expect(classOf('piecepack', 'null')).toBe('blank');
    expect(classOf('cozy-shape', 'W')).toBe('shape-W');
    expect(classOf('cozy-organ', 'heart')).toBe('organ-heart');
  });

  it('throws on a face the set does not have, naming the set and its faces', () => {
    expect(() => classOf('d6', '7')).toThrow(/"7" is not a face of dice set "d6" \(faces: 1, 2, 3, 4, 5, 6\)/);
    expect(() => classOf('piecepack', '6')).toThrow(/piecepack/);
    expect(() => classOf('d6', 'toString')).toThrow(/not a face/);
  });
});
