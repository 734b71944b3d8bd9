/**
 * Taught pictures of one die whose up was not given (a folder of crops): the commit judges them
 * together as one camera's (`pictureUp`). The orientation head's weights name the likeliest
 * shared up; it is taken only where the pictures' labels read likelier with it than without.
 */
import { describe, expect, it } from 'vitest';
import { pictureUp } from '../../vision/calibrations.js';
import { CAMERA_HYPOTHESES } from '../../vision/model/frame-up.js';

/** Weights sure of turn `t`. */
const sure = (t: number, p = 0.8): Float64Array => Float64Array.from([0, 1, 2, 3], (k) => (k === t ? p : (1 - p) / 3));
const best = (camera: Float64Array) => CAMERA_HYPOTHESES[camera.indexOf(Math.max(...camera))];

describe('pictureUp', () => {
  it('takes the up the head finds shared where the labels read likelier with it, whichever quarter it is', () => {
    for (const shared of [0, 1, 2, 3]) {
      const weights = [sure(shared), sure(shared), sure(shared, 0.6), sure((shared + 2) % 4, 0.5)];
      const priors: (Float64Array | undefined)[] = [];
      const { up, camera } = pictureUp(weights, (prior) => (priors.push(prior), prior ? -3 : -5));
      expect(up).toBe(shared);
      expect(best(camera)).toBe(CAMERA_HYPOTHESES[shared]);
      // Read once with the evidence as the prior, once without.
      expect(priors).toEqual([camera, undefined]);
    }
  });

  it('turns the up down where the labels read no likelier with it (a turn common by chance)', () => {
    const { up, camera } = pictureUp([sure(1), sure(1), sure(1), sure(0)], (prior) => (prior ? -9 : -5));
    expect(best(camera)).toBe('side turned 1');
    expect(up).toBeNull();
  });

  it('reads no labels where the head finds no up shared (pictures turned every way)', () => {
    let reads = 0;
    const { up, camera } = pictureUp([0, 1, 2, 3, 0, 1, 2, 3].map((t) => sure(t)), () => (reads++, 0));
    expect(best(camera)).toBe('overhead');
    expect(up).toBeNull();
    expect(reads).toBe(0);
  });
});
