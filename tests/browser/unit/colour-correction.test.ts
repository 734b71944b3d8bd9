/**
 * Correcting a die's colour (added to `dice/correct` for the dashboard): the table records the
 * colour the camera read, refuses a colour that is no die colour, and the camera pipeline still
 * knows the tray it read (so a still tray does not undo the person's correction).
 */
import { describe, expect, it } from 'vitest';
import { GAMES } from '../../../shared/games/registry.js';
import { sameRoll } from '../../../web/server/camera.js';
import { decide, evolve, type TableState } from '../../../web/server/table.js';

const games = (id: keyof typeof GAMES) => GAMES[id];

function cozyTable(): TableState {
  const setup = evolve(null, { type: 'setup', game: 'worm-and-cozy', options: {} }, games);
  if (!setup.ok) throw new Error(setup.message);
  const rolled = evolve(
    setup.state,
    {
      type: 'roll',
      source: 'camera',
      by: { kind: 'camera', source: 'camera' },
      dice: [
        { set: 'd6', face: '3', color: 'pink', confidence: 0.9 },
        { set: 'd6', face: '4', color: 'ivory', confidence: 0.9 },
        { set: 'd6', face: '1', color: 'white', confidence: 0.9 },
      ],
    },
    games,
  );
  if (!rolled.ok) throw new Error(rolled.message);
  return rolled.state;
}

describe('a die’s colour corrected by a person', () => {
  it('the red shape die read as pink is put right, and the roll then means a U with a collar and an eye', () => {
    const t = cozyTable();
    expect(GAMES['worm-and-cozy'].diceMove(t.state, t.roll!.dice).ok).toBe(false); // no red die: no shape die
    const d = decide(t, { kind: 'player', player: 'solo' }, { type: 'dice/correct', index: 0, face: '3', color: 'red' }, games);
    if (!d.ok) throw new Error(d.message);
    expect(d.table.roll!.dice[0]).toEqual({ set: 'd6', face: '3', color: 'red', corrected: true, readAs: '3', readColor: 'pink' });
    expect(GAMES['worm-and-cozy'].diceMove(d.table.state, d.table.roll!.dice)).toEqual({ ok: true, state: { type: 'roll', shape: 'U', organs: ['collar', 'eye'] } });
  });

  it('a later face correction keeps the colour the camera read', () => {
    const t = cozyTable();
    const once = decide(t, { kind: 'referee' }, { type: 'dice/correct', index: 0, face: '3', color: 'red' }, games);
    if (!once.ok) throw new Error(once.message);
    const twice = decide(once.table, { kind: 'referee' }, { type: 'dice/correct', index: 0, face: '5' }, games);
    if (!twice.ok) throw new Error(twice.message);
    expect(twice.table.roll!.dice[0]).toMatchObject({ face: '5', color: 'red', readAs: '3', readColor: 'pink' });
  });

  it('a colour that is no die colour is refused, and nothing changes', () => {
    const t = cozyTable();
    const d = decide(t, { kind: 'referee' }, { type: 'dice/correct', index: 0, face: '3', color: 'mauve' }, games);
    expect(d).toMatchObject({ ok: false, code: 'dice/bad-color' });
    expect(t.roll!.dice[0]!.color).toBe('pink');
  });

  it('the camera seeing the same tray again is the same roll, corrections aside', () => {
    const t = cozyTable();
    const d = decide(t, { kind: 'referee' }, { type: 'dice/correct', index: 0, face: '3', color: 'red' }, games);
    if (!d.ok) throw new Error(d.message);
    const seenAgain = t.roll!.dice.map(({ set, face, color }) => ({ set, face, ...(color ? { color } : {}) }));
    expect(sameRoll(seenAgain, d.table.roll!.dice)).toBe(true);
  });
});
