/** Each row of DECISIONS.md §2 (The worm is drawn), one describe per row. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PRESETS } from '../../shared/games/the-worm-is-drawn/index.js';
import { equipmentSchema, loadData, presetsSchema } from '../../shared/games/the-worm-is-drawn/data.js';
import { detail, game, newGame, options, play, position, reject } from './helpers.js';

describe('presets: seed (the default) follows the text, classic the published Pickomino rules', () => {
  it('seed is the default and the state says which preset is in force', () => {
    const r = game.optionsSchema.safeParse({ players: [{ name: 'Ann' }, { name: 'Bo' }] });
    expect(r.success && r.data.preset).toBe('seed');
    const s = newGame();
    expect(s.preset).toBe('seed');
    expect(s.rules.label).toMatch(/rules text/);
  });

  it('classic can be chosen', () => {
    const s = newGame('classic');
    expect(s.preset).toBe('classic');
    expect(s.rules).toEqual(PRESETS.classic);
  });
});

describe('worm value: seed 6, classic 5', () => {
  it('seed: the worked example sums 6-6-1-1-1-1-5-5 to 26', () => {
    const s = play(newGame('seed'), 'roll 1134ww55', 'keep w', 'roll ww1111', 'keep 1', 'roll 55', 'keep 5');
    expect(detail(s).total).toBe(26);
  });

  it('classic: the same dice sum to 24', () => {
    const s = play(newGame('classic'), 'roll 1134ww55', 'keep w', 'roll ww1111', 'keep 1', 'roll 55', 'keep 5');
    expect(detail(s).total).toBe(24);
    expect(options(s).moves).toEqual(['take 24']);
  });
});

describe('tiles: 21–24 one worm, 25–28 two, 29–32 three, 33–36 four (data)', () => {
  it('the shipped tiles file has the published distribution', () => {
    const worms = (v: number) => newGame().tiles.find((t) => t.value === v)!.worms;
    expect([21, 24, 25, 28, 29, 32, 33, 36].map(worms)).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it('a broken tiles file is refused on load, naming the file and the field', () => {
    const broken = { dice: 8, tiles: [{ value: 21, worms: 1 }, { value: 21, worms: 2 }] };
    expect(() => loadData(equipmentSchema, broken, 'data/tiles.json')).toThrow(/data\/tiles\.json is invalid: tiles\.1\.value: tile 21 appears twice/);
    expect(() => loadData(equipmentSchema, { dice: 8, tiles: [{ value: 21, worms: 'one' }] }, 'data/tiles.json')).toThrow(/tiles\.0\.worms/);
  });

  it('a broken presets file is refused on load', () => {
    const bad = { seed: { ...PRESETS.seed, take: 'lowest' }, classic: PRESETS.classic };
    expect(() => loadData(presetsSchema as z.ZodType<unknown>, bad, 'data/presets.json')).toThrow(/seed\.take/);
  });
});

describe('a turn', () => {
  it('seed: there is no stopping; the turn goes on until all dice are kept or no new face can be kept', () => {
    const s = play(newGame('seed'), 'roll wwww1123', 'keep w');
    expect(options(s)).toMatchObject({ phase: 'roll', roll: 4, moves: [] });
    expect(reject(s, 'stop').code).toBe('move/cannot-stop');
  });

  it('seed: once every face has been kept no new face can be kept, so the turn ends without another roll', () => {
    const s = play(newGame('seed'), 'roll 12222222', 'keep 1', 'roll 2333333', 'keep 2', 'roll 344444', 'keep 3', 'roll 45555', 'keep 4', 'roll 5www', 'keep 5', 'roll w11', 'keep w');
    expect(s.phase).toBe('choose');
    expect(detail(s)).toMatchObject({ total: 21, diceLeft: 2 });
    expect(options(s).moves).toEqual(['take 21']);
  });

  it('seed: a roll with no new face ends the turn and the total is judged (no bust)', () => {
    const s = play(newGame('seed'), 'roll wwww5512', 'keep w', 'roll 5531', 'keep 5', 'roll 5w');
    expect(s.phase).toBe('choose');
  });

  it('classic: the player may stop after any keep', () => {
    let s = play(newGame('classic'), 'roll wwww5512', 'keep w');
    expect(options(s).moves).toEqual(['stop']);
    s = play(s, 'roll 5531', 'keep 5', 'stop');
    expect(detail(s).total).toBe(30);
    expect(options(s).moves).toEqual(['take 30']);
  });

  it('classic: stopping before keeping anything is refused', () => {
    expect(reject(newGame('classic'), 'stop').code).toBe('move/cannot-stop');
  });

  it('classic: rolling no new face is a bust', () => {
    const s = play(newGame('classic'), 'roll wwww5512', 'keep w', 'roll 5531', 'keep 5', 'roll 5w');
    expect(s.last).toMatchObject({ kind: 'failed', reason: 'the roll showed no face that was not kept before' });
    expect(options(s).player).toBe('p2');
  });

  it('classic: with every face kept the turn does not end by itself: the player stops (or rolls and busts)', () => {
    const s = play(newGame('classic'), 'roll 12222222', 'keep 1', 'roll 2333333', 'keep 2', 'roll 344444', 'keep 3', 'roll 45555', 'keep 4', 'roll 5www', 'keep 5', 'roll w11', 'keep w');
    expect(options(s)).toMatchObject({ phase: 'roll', roll: 2, moves: ['stop'] });
    // 1 + 2 + 3 + 4 + 5 + a worm worth 5 = 20: short of every tile.
    expect(play(s, 'stop').last).toMatchObject({ kind: 'failed', total: 20 });
  });

  it('classic: at least one worm must be kept to take or steal', () => {
    const s = play(newGame('classic'), 'roll 55551123', 'keep 5', 'roll 4441', 'keep 4');
    expect(detail(s)).toMatchObject({ total: 32, wormHeld: false, takeable: [], stealable: [], whyNot: 'no worm was kept' });
    expect(play(s, 'stop').last).toMatchObject({ kind: 'failed', total: 32, reason: 'no worm was kept' });
    // With all eight dice kept and still no worm, the turn fails by itself.
    const all = play(newGame('classic'), 'roll 55551111', 'keep 5', 'roll 4444', 'keep 4');
    expect(all.last).toMatchObject({ kind: 'failed', total: 36, reason: 'no worm was kept' });
  });

  it('classic: a turn with all eight dice kept ends by itself', () => {
    const s = play(newGame('classic'), 'roll wwwwwwww', 'keep w');
    expect(s.phase).toBe('choose');
    expect(options(s).moves).toEqual(['take 36']);
  });

  it('seed: no worm is needed', () => {
    const s = play(newGame('seed'), 'roll 55551111', 'keep 5', 'roll 4444', 'keep 4');
    expect(s.phase).toBe('choose');
    expect(options(s).moves).toContain('take 36');
  });
});

describe('taking', () => {
  it('seed: any face-up table tile up to the total, or the exact opponent top tile', () => {
    const s = play(position('seed T:21-25,27-36 X:- S:-/26/- P:0/keep K:ww1111 R:55'), 'keep 5');
    expect(options(s).moves).toEqual(['take 21', 'take 22', 'take 23', 'take 24', 'take 25', 'steal 26']);
  });

  it('classic: only the highest table tile up to the total, or the exact opponent top tile', () => {
    const s = play(position('classic T:21-25,27-36 X:- S:-/26/- P:0/keep K:ww1111 R:55'), 'keep 5');
    // classic total: 5+5+4+10 = 24
    expect(detail(s).total).toBe(24);
    expect(options(s).moves).toEqual(['take 24']);
    const r = reject(s, 'take 22');
    expect(r.code).toBe('move/tile-not-takeable');
    expect(r.message).toMatch(/only the highest tile within 24/);
  });

  it('classic: when the exact tile is gone, the next lower face-up tile is the one', () => {
    const s = play(position('classic T:21-23,25-36 X:24 S:-/-/- P:0/keep K:ww1111 R:55'), 'keep 5');
    expect(options(s).moves).toEqual(['take 23']);
  });

  it('classic: an exact steal', () => {
    const s = play(position('classic T:21-23,25-36 X:- S:-/24/- P:0/keep K:ww1111 R:55'), 'keep 5');
    expect(options(s).moves).toEqual(['take 23', 'steal 24']);
    expect(play(s, 'steal 24').stacks).toEqual([[24], [], []]);
  });
});

describe('failing', () => {
  it('seed and classic: with no tiles, the player passes and nothing is turned down', () => {
    for (const preset of ['seed', 'classic'] as const) {
      const s = play(newGame(preset), 'roll 11111111', 'keep 1');
      expect(s.last).toMatchObject({ kind: 'failed', returned: null, flipped: null });
      expect(s.table).toHaveLength(16);
    }
  });

  it('seed: the top tile goes back, then the highest table tile is turned down, even when it is the returned one', () => {
    const s = play(position('seed T:21-30 X:31-35 S:36/-/- P:0/roll K:- R:-'), 'roll 11111111', 'keep 1');
    expect(s.last).toMatchObject({ kind: 'failed', returned: 36, flipped: 36 });
    expect(s.table).toEqual([21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    expect(s.removed).toEqual([31, 32, 33, 34, 35, 36]);
  });

  it('classic: the same, except the flip is skipped when the returned tile is itself the highest', () => {
    const s = play(position('classic T:21-30 X:31-35 S:36/-/- P:0/roll K:- R:-'), 'roll 11111111', 'keep 1');
    expect(s.last).toMatchObject({ kind: 'failed', returned: 36, flipped: null });
    expect(s.table).toContain(36);
    expect(s.removed).toEqual([31, 32, 33, 34, 35]);
  });

  it('classic: a returned tile that is not the highest is followed by the flip', () => {
    const s = play(position('classic T:21-30,36 X:31-34 S:35/-/- P:0/roll K:- R:-'), 'roll 11111111', 'keep 1');
    expect(s.last).toMatchObject({ kind: 'failed', returned: 35, flipped: 36 });
  });

  it('the verbose options say what a failure would cost right now', () => {
    expect(detail(position('seed T:21-30,36 X:31-34 S:35/-/- P:0/roll K:- R:-')).ifFail).toEqual({ returned: 35, flipped: 36 });
    expect(detail(position('classic T:21-30 X:31-35 S:36/-/- P:0/roll K:- R:-')).ifFail).toEqual({ returned: 36, flipped: null });
  });
});

describe('end and tie', () => {
  it('the game ends when no face-up tile is left on the table', () => {
    const s = play(position('classic T:36 X:21-30 S:31.32.33/34/35 P:2/roll K:- R:-'), 'roll wwwwwwww', 'keep w', 'take 36');
    expect(s.phase).toBe('over');
  });

  it('most worms wins', () => {
    const s = position('seed T:- X:22-30 S:21/31.32/33.34.35.36 P:0/over K:- R:-');
    expect(game.score(s).lines.map((l) => [l.player, l.worms, l.rank])).toEqual([
      ['p3', 16, 1],
      ['p2', 6, 2],
      ['p1', 1, 3],
    ]);
  });

  it('a tie goes to whoever holds the highest tile; players holding nothing share the last place', () => {
    // p1: 25 + 21 = 3 worms, highest 25; p2: 29 = 3 worms, highest 29; p3 and p4 hold nothing.
    const s = position('seed T:- X:22-24,26-28,30-36 S:25.21/29/-/- P:0/over K:- R:-');
    expect(game.score(s).lines.map((l) => [l.player, l.worms, l.highest, l.rank])).toEqual([
      ['p2', 3, 29, 1],
      ['p1', 3, 25, 2],
      ['p3', 0, null, 3],
      ['p4', 0, null, 3],
    ]);
    expect(game.status(s).headline).toBe('Game over: p2 wins with 3 worms');
  });
});
