/**
 * The cell network (vision/sheet/cnn.ts): its gradients are the loss's true slopes, it learns a
 * small drawing task it has never seen, its JSON keeps it exactly, and the committed cell model
 * fits the reader.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../shared/rng.js';
import { CELL_CLASSES } from '../../vision/sheet/assemble.js';
import { CELL_EXTRAS, CELL_IMAGE } from '../../vision/sheet/cells.js';
import { loadCellModel } from '../../vision/sheet/classify.js';
import { classify, cnnFromJson, cnnToJson, createCnn, lossAndGradients, trainCnn, type CnnSample } from '../../vision/sheet/cnn.js';

describe('the cell network', () => {
  it('back-propagates the true gradient of the loss (central differences agree)', () => {
    const rng = createRng('cnn-gradient');
    const m = createCnn(rng, 12, 3, 4, [3, 4], [3, 3], 5);
    for (const L of m.convs) L.b.fill(0.1);
    const image = Float32Array.from({ length: 144 }, () => rng.next());
    const extras = Float32Array.from([0.2, 0.5, 0.9]);
    const label = 2;
    const { loss, grads, params } = lossAndGradients(m, image, extras, label);
    expect(loss).toBeCloseTo(-Math.log(classify(m, image, extras)[label]!), 5);
    const lossAt = () => -Math.log(classify(m, image, extras)[label]!);
    let checked = 0;
    for (let q = 0; q < params.length; q++)
      for (let t = 0; t < 6; t++) {
        const p = params[q]!;
        const i = rng.int(0, p.length - 1);
        const old = p[i]!;
        const e = 1e-3;
        p[i] = old + e;
        const up = lossAt();
        p[i] = old - e;
        const down = lossAt();
        p[i] = old;
        const numeric = (up - down) / (2 * e);
        // Float32 weights and ReLU/max-pool kinks: agreement within 2% is the true gradient.
        expect(Math.abs(grads[q]![i]! - numeric), `parameter ${q}[${i}]: ${grads[q]![i]} vs ${numeric}`).toBeLessThanOrEqual(0.02 * Math.max(1, Math.abs(numeric)));
        checked++;
      }
    expect(checked).toBe(params.length * 6);
  });

  it('learns to tell a vertical bar from a horizontal one and a ring, wherever they are drawn', () => {
    const rng = createRng('cnn-bars');
    const size = 12;
    const draw = (kind: number): CnnSample => {
      const image = new Float32Array(size * size);
      const cx = rng.int(3, 8);
      const cy = rng.int(3, 8);
      for (let y = 0; y < size; y++)
        for (let x = 0; x < size; x++) {
          const on = kind === 0 ? Math.abs(x - cx) < 1 && Math.abs(y - cy) < 3 : kind === 1 ? Math.abs(y - cy) < 1 && Math.abs(x - cx) < 3 : Math.abs(Math.hypot(x - cx, y - cy) - 2.5) < 0.7;
          image[y * size + x] = on ? rng.range(0.7, 1) : rng.range(0, 0.1);
        }
      return { image, extras: new Float32Array(1), label: kind };
    };
    const train = Array.from({ length: 240 }, (_, i) => draw(i % 3));
    const test = Array.from({ length: 60 }, (_, i) => draw(i % 3));
    const m = createCnn(rng, size, 1, 3, [4, 6], [3, 3], 12);
    trainCnn(m, train, rng, { epochs: 8, batch: 16, lr: 0.01, classWeights: [1, 1, 1] });
    const right = test.filter((s) => {
      const p = classify(m, s.image, s.extras);
      return p.indexOf(Math.max(...p)) === s.label;
    }).length;
    expect(right).toBeGreaterThanOrEqual(57);
  });

  it('is kept by its JSON (weights to 5 decimals)', () => {
    const rng = createRng('cnn-json');
    const m = createCnn(rng, 12, 2, 3, [2, 3], [5, 3], 4);
    const back = cnnFromJson(JSON.parse(JSON.stringify(cnnToJson(m))));
    const image = Float32Array.from({ length: 144 }, () => rng.next());
    const a = classify(m, image, [0.3, 0.7]);
    const b = classify(back, image, [0.3, 0.7]);
    for (let k = 0; k < 3; k++) expect(b[k]!).toBeCloseTo(a[k]!, 3);
    const broken = cnnToJson(m) as { hidden: { w: number[] } };
    broken.hidden.w.pop();
    expect(() => cnnFromJson(broken)).toThrow(/wrong number of weights/);
  });

  it('the committed cell model reads the reader\'s cell images, over the reader\'s classes', () => {
    const { model, net } = loadCellModel();
    expect(model.classes).toEqual([...CELL_CLASSES]);
    expect([net.size, net.extras, net.classes]).toEqual([CELL_IMAGE, CELL_EXTRAS, CELL_CLASSES.length]);
    expect(model.trainedOn.heldOutAccuracy).toBeGreaterThanOrEqual(0.99);
    const p = classify(net, new Float32Array(CELL_IMAGE * CELL_IMAGE), new Float32Array(CELL_EXTRAS));
    expect(CELL_CLASSES[p.indexOf(Math.max(...p))]).toBe('blank');
  });
});
