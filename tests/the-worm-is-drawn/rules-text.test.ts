/**
 * Every statement of the rules text (the-worm-is-drawn.txt), in its order, with the `seed`
 * preset that follows the text.
 */
import { describe, expect, it } from 'vitest';
import { EQUIPMENT, toNotation } from '../../shared/games/the-worm-is-drawn/index.js';
import { DICE_SETS } from '../../shared/dice.js';
import { detail, game, newGame, options, play, position, reject } from './helpers.js';

describe('the equipment', () => {
  it('8 dice whose faces range from 1 to 5 plus the worm symbol in place of 6', () => {
    expect(EQUIPMENT.dice).toBe(8);
    expect(DICE_SETS.worm.faces).toEqual(['1', '2', '3', '4', '5', 'worm']);
    expect(game.diceRequest(newGame())).toMatchObject({ sets: ['worm'], count: { min: 8, max: 8 } });
  });

  it('16 tiles ranging from 21 to 36, all face up on the table at the start', () => {
    const s = newGame();
    expect(s.tiles.map((t) => t.value)).toEqual(Array.from({ length: 16 }, (_, i) => 21 + i));
    expect(s.table).toEqual(s.tiles.map((t) => t.value));
  });
});

describe('game rules', () => {
  it('players proceed clockwise starting with the first player', () => {
    let s = newGame('seed', 3);
    const seen: string[] = [];
    for (let t = 0; t < 4; t++) {
      seen.push(options(s).player!);
      // Eight 1s: keep them all, total 8, nothing to take, pass.
      s = play(s, 'roll 11111111', 'keep 1');
    }
    expect(seen).toEqual(['p1', 'p2', 'p3', 'p1']);
  });

  it('once rolled, a value is selected and all dice of the same value are taken', () => {
    const s = play(newGame(), 'roll 12235553', 'keep 5');
    expect(s.kept).toEqual([{ face: '5', count: 3 }]);
  });

  it('a new roll is made with the unchosen dice only: the dice to roll shrink as dice are kept', () => {
    let s = play(newGame(), 'roll 12235553', 'keep 5');
    expect(options(s).roll).toBe(5);
    expect(game.diceRequest(s)?.count).toEqual({ min: 5, max: 5 });
    s = play(s, 'roll 22134', 'keep 2');
    expect(game.diceRequest(s)?.count).toEqual({ min: 3, max: 3 });
    expect(reject(s, 'roll 1234').code).toBe('move/wrong-dice-count');
  });

  it('only dice of a value that is not already possessed can be taken', () => {
    const s = play(newGame(), 'roll 12235553', 'keep 5', 'roll 51234');
    expect(options(s).moves).toEqual(['keep 1', 'keep 2', 'keep 3', 'keep 4']);
    expect(detail(s).blocked).toEqual(['5']);
    expect(reject(s, 'keep 5').code).toBe('move/face-already-kept');
  });

  it('rolling and choosing is repeated until all dice have been taken', () => {
    const s = play(newGame(), 'roll wwwwwwww', 'keep w');
    expect(s.phase).toBe('choose');
    expect(detail(s).total).toBe(48);
  });

  it('… or until no dice of a different value from those already possessed can be chosen', () => {
    // Worms and 5s kept (6 dice); the last two dice show 5 and worm again: the total is judged.
    const s = play(newGame(), 'roll wwww5512', 'keep w', 'roll 5531', 'keep 5', 'roll 5w');
    expect(s.phase).toBe('choose');
    expect(detail(s).total).toBe(34);
    expect(options(s).moves).toContain('take 34');
  });

  it('practical example: 1-1-3-4-6-6-5-5 keep the worms, 6-6-1-1-1-1 keep the 1s, 5-5 keep the 5s: 26', () => {
    let s = newGame();
    s = play(s, 'roll 1134ww55');
    expect(options(s).moves).toContain('keep worm');
    s = play(s, 'keep worm');
    expect(s.kept).toEqual([{ face: 'worm', count: 2 }]);

    s = play(s, 'roll ww1111');
    // "you cannot choose the 6s since you already possess them"
    expect(options(s).moves).toEqual(['keep 1']);
    s = play(s, 'keep 1');

    s = play(s, 'roll 55');
    s = play(s, 'keep 5');
    // "the 5s are taken and the turn ends": all eight dice are kept.
    const d = detail(s);
    expect(s.phase).toBe('choose');
    expect(d.total).toBe(26);
    expect(d.wormHeld).toBe(true);
    // "I can take an uncovered tile on the table with a value equal to or less than 26"
    expect(d.takeable.map((t) => t.value)).toEqual([21, 22, 23, 24, 25, 26]);
    expect(toNotation(s)).toBe('seed T:21-36 X:- S:-/-/- P:0/choose K:ww111155 R:-');
  });

  it('a total equal to or greater than an uncovered tile takes it, face up in front of you, on top of your tiles', () => {
    let s = position('seed T:21-24,26-36 X:- S:25/-/- P:0/keep K:ww1111 R:55');
    s = play(s, 'keep 5', 'take 23');
    expect(s.stacks[0]).toEqual([25, 23]);
    expect(s.table).not.toContain(23);
  });

  it("a total exactly equal to another player's uncovered tile may take that one instead; only the top one counts", () => {
    // p2 holds 26 on top of 31.
    const s = play(position('seed T:21,23-25,27-30,32-36 X:- S:-/31.26/22 P:0/keep K:ww1111 R:55'), 'keep 5');
    expect(detail(s).total).toBe(26);
    expect(detail(s).stealable).toEqual([{ tile: 26, worms: 2, from: 'p2' }]);
    const stolen = play(s, 'steal 26');
    expect(stolen.stacks).toEqual([[26], [31], [22]]);

    // A top tile below the total cannot be stolen, nor a covered one.
    const t = play(position('seed T:21,23-25,27-30,32-36 X:- S:-/26.31/22 P:0/keep K:ww1111 R:55'), 'keep 5');
    expect(detail(t).stealable).toEqual([]);
    expect(reject(t, 'steal 26').code).toBe('move/tile-not-stealable');
    expect(reject(t, 'steal 22').code).toBe('move/tile-not-stealable');
  });

  it('a player cannot steal from themselves', () => {
    const s = play(position('seed T:21-25,27-36 X:- S:26/-/- P:0/keep K:ww1111 R:55'), 'keep 5');
    expect(detail(s).stealable).toEqual([]);
  });

  it("the value is not enough to take any tile: if you don't have any tiles, you pass your turn", () => {
    const s = play(newGame(), 'roll 11111111', 'keep 1');
    expect(s.table).toHaveLength(16);
    expect(s.removed).toEqual([]);
    expect(s.last).toMatchObject({ kind: 'failed', total: 8, returned: null, flipped: null });
    expect(options(s)).toMatchObject({ player: 'p2', phase: 'roll', roll: 8 });
  });

  it('… if you already have some, the top one is put back, then the highest table tile is turned face down', () => {
    const s = play(position('seed T:21-24,26-30,32-36 X:- S:31.25/-/- P:0/roll K:- R:-'), 'roll 11111111', 'keep 1');
    expect(s.stacks[0]).toEqual([31]);
    expect(s.table).toContain(25);
    expect(s.removed).toEqual([36]);
    expect(s.last).toMatchObject({ kind: 'failed', returned: 25, flipped: 36 });
  });

  it('a tile turned face down is removed from the game: it cannot be taken or counted', () => {
    const s = play(position('seed T:21-35 X:36 S:-/-/- P:0/roll K:- R:-'), 'roll wwwwwwww', 'keep w');
    expect(detail(s).takeable.map((t) => t.value)).not.toContain(36);
    expect(reject(s, 'take 36').code).toBe('move/tile-not-takeable');
  });

  it('the game ends when all tiles in play are taken or eliminated', () => {
    let s = position('seed T:21 X:22-30 S:31.32.33/34.35/36 P:1/roll K:- R:-');
    s = play(s, 'roll wwww1111', 'keep w', 'roll 1111', 'keep 1', 'take 21');
    expect(s.phase).toBe('over');
    expect(game.status(s).finished).toBe(true);
    expect(options(s)).toEqual({ player: null, phase: 'over', roll: 0, moves: [] });
    expect(reject(s, 'roll 11111111').code).toBe('move/game-over');
  });

  it('a failure never empties the table (one tile back, one turned down), so the last tile is always taken', () => {
    const s = play(position('seed T:21 X:22-30 S:31.32.33/34.35/36 P:1/roll K:- R:-'), 'roll 11111111', 'keep 1');
    expect(s.last).toMatchObject({ kind: 'failed', returned: 35, flipped: 35 });
    expect(s.table).toEqual([21]);
    expect(s.phase).toBe('roll');
  });

  it('points are the worms on the tiles you possess', () => {
    const s = position('seed T:- X:22-30 S:21.31.32/33.34/35.36 P:0/over K:- R:-');
    const score = game.score(s);
    expect(score.lines.map((l) => [l.player, l.worms])).toEqual([
      ['p3', 8],
      ['p2', 8],
      ['p1', 7],
    ]);
  });

  it('in case of a tie, the player who took the tile with the highest number wins', () => {
    const s = position('seed T:- X:22-30 S:21.31.32/33.34/35.36 P:0/over K:- R:-');
    const ranking = game.status(s).ranking!;
    expect(ranking[0]).toEqual({ player: 'p3', rank: 1, score: 8 });
    expect(ranking[1]).toEqual({ player: 'p2', rank: 2, score: 8 });
    expect(game.status(s).headline).toBe('Game over: p3 wins with 8 worms');
  });
});
