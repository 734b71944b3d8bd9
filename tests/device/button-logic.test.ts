import { describe, expect, it } from 'vitest';
import { initialButtonState, stepButton, type ButtonInput } from '../../device/buttons/button-logic.js';
import { ButtonMachine } from '../../device/buttons/button-machine.js';
import { createRng } from '../../shared/rng.js';
import { FakeClock } from './support/fake-clock.js';

const timing = { debounceMs: 30, holdMs: 800 };

/** Runs inputs through the pure step function, waking it exactly when it asks; returns "t:event" strings. */
function run(inputs: ButtonInput[], until: number): string[] {
  let state = initialButtonState(false, 0);
  let wake: number | null = null;
  const out: string[] = [];
  const queue = [...inputs];
  for (;;) {
    const nextEdge = queue[0]?.at ?? Infinity;
    const t = Math.min(nextEdge, wake ?? Infinity);
    if (t > until) break;
    const input: ButtonInput = nextEdge <= (wake ?? Infinity) ? queue.shift()! : { kind: 'tick', at: t };
    const step = stepButton(state, input, timing);
    state = step.state;
    wake = step.wakeAt;
    out.push(...step.events.map((e) => `${t}:${e}`));
  }
  return out;
}

const edges = (...pairs: [number, boolean][]): ButtonInput[] => pairs.map(([at, pressed]) => ({ kind: 'edge', at, pressed }));

describe('button logic (debounce, press, release, hold)', () => {
  it('a clean press and release: press once the level has held 30 ms, release likewise', () => {
    expect(run(edges([100, true], [300, false]), 2000)).toEqual(['130:press', '330:release']);
  });

  it('contact bounce gives exactly one press and one release', () => {
    const bouncyPress = edges([100, true], [102, false], [103, true], [107, false], [108, true]);
    const bouncyRelease = edges([400, false], [401, true], [404, false]);
    expect(run([...bouncyPress, ...bouncyRelease], 2000)).toEqual(['138:press', '434:release']);
  });

  it('a glitch shorter than the debounce time is ignored', () => {
    expect(run(edges([100, true], [110, false]), 2000)).toEqual([]);
  });

  it('held 800 ms: hold once, then release', () => {
    expect(run(edges([100, true], [2000, false]), 3000)).toEqual(['130:press', '900:hold', '2030:release']);
  });

  it('a second hold needs a new press', () => {
    expect(run(edges([0, true], [1000, false], [1100, true], [2500, false]), 3000)).toEqual([
      '30:press',
      '800:hold',
      '1030:release',
      '1130:press',
      '1900:hold',
      '2530:release',
    ]);
  });

  it('a button already down at start sends nothing until it is released and pressed again', () => {
    let state = initialButtonState(true, 0);
    const events: string[] = [];
    for (const input of [{ kind: 'tick', at: 5000 }, { kind: 'edge', at: 6000, pressed: false }, { kind: 'tick', at: 6030 }] as ButtonInput[]) {
      const step = stepButton(state, input, timing);
      state = step.state;
      events.push(...step.events);
    }
    expect(events).toEqual(['release']);
  });

  it('seeded random bounce: presses and releases alternate, one pair per real press', () => {
    const rng = createRng('bounce-1');
    const inputs: ButtonInput[] = [];
    let t = 0;
    const presses = 50;
    for (let p = 0; p < presses; p++) {
      t += rng.int(100, 400);
      // up to 6 bounces of at most 4 ms each, then a steady level
      for (const level of [true, false]) {
        for (let b = rng.int(0, 6); b > 0; b--) {
          inputs.push({ kind: 'edge', at: t, pressed: level });
          t += rng.int(1, 4);
          inputs.push({ kind: 'edge', at: t, pressed: !level });
          t += rng.int(1, 4);
        }
        inputs.push({ kind: 'edge', at: t, pressed: level });
        t += rng.int(60, 300);
      }
    }
    const events = run(inputs, t + 5000).map((e) => e.split(':')[1]);
    expect(events.filter((e) => e === 'press')).toHaveLength(presses);
    expect(events.filter((e) => e !== 'hold')).toEqual(Array.from({ length: presses }, () => ['press', 'release']).flat());
  });
});

describe('button machine on a clock', () => {
  it('wakes itself for the debounce and hold times', () => {
    const clock = new FakeClock();
    const seen: string[] = [];
    const machine = new ButtonMachine(clock, timing, (event, button) => seen.push(`${clock.now()} ${event} ${button}`));
    machine.add('READ', false);
    machine.add('OK', false);
    clock.advance(100);
    machine.edge('READ', true);
    clock.advance(2);
    machine.edge('READ', false);
    clock.advance(1);
    machine.edge('READ', true);
    machine.edge('OK', true);
    clock.advance(1000);
    machine.edge('READ', false);
    clock.advance(100);
    expect(seen).toEqual(['133 press READ', '133 press OK', '903 hold READ', '903 hold OK', '1133 release READ']);
    expect(machine.isPressed('OK')).toBe(true);
    machine.clear();
    expect(clock.pending).toBe(0);
  });
});
