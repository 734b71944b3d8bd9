/** Every statement of the rules text (worm-up.txt), in its order. */
import { describe, expect, it } from 'vitest';
import { DICE_SETS } from '../../shared/dice.js';
import { EQUIPMENT, toNotation } from '../../shared/games/worm-up/index.js';
import { detail, game, judged, newRace, options, order, play, reject } from './helpers.js';

describe('equipment and preparations', () => {
  it('a lunatic worm-race for 2 to 5 players', () => {
    expect(game.setup({ players: [{ name: 'A' }] }).ok).toBe(false);
    expect(game.setup({ players: [{ name: 'A' }, { name: 'B' }] }).ok).toBe(true);
    expect(game.setup({ players: Array.from({ length: 5 }, (_, i) => ({ name: `P${i}` })) }).ok).toBe(true);
    expect(game.setup({ players: Array.from({ length: 6 }, (_, i) => ({ name: `P${i}` })) }).ok).toBe(false);
  });

  it('5 dice in the 5 colours with faces marked 3, 4, 5, 6, 7, X; 7 segments per worm', () => {
    expect(DICE_SETS.wurmeln.faces).toEqual(['3', '4', '5', '6', '7', 'X']);
    expect(EQUIPMENT.colors).toHaveLength(5);
    expect(EQUIPMENT.segments).toBe(7);
  });

  it('each player chooses a colour and receives the corresponding die', () => {
    const r = game.setup({ players: [{ name: 'Ann', color: 'blue' }, { name: 'Bo' }] });
    expect(r.ok && game.players(r.state)).toEqual([
      { id: 'p1', name: 'Ann', color: 'blue' },
      { id: 'p2', name: 'Bo', color: 'red' },
    ]);
    const clash = game.setup({ players: [{ name: 'Ann', color: 'red' }, { name: 'Bo', color: 'red' }] });
    expect(!clash.ok && clash.message).toMatch(/players\.1\.color: colour red names two players/);
  });
});

describe('bidding', () => {
  it('the dice are not thrown but used only for bidding: the camera reads one die per player, by colour', () => {
    const s = newRace(3);
    expect(game.diceRequest(s)).toMatchObject({
      sets: ['wurmeln'],
      slots: [
        { set: 'wurmeln', role: 'p1', color: 'red' },
        { set: 'wurmeln', role: 'p2', color: 'yellow' },
        { set: 'wurmeln', role: 'p3', color: 'green' },
      ],
    });
    const move = game.diceMove(s, [
      { set: 'wurmeln', face: '4', color: 'green' },
      { set: 'wurmeln', face: 'X', color: 'red' },
      { set: 'wurmeln', face: '7', color: 'yellow' },
    ]);
    expect(move).toEqual({ ok: true, state: { type: 'reveal', bids: { p3: '4', p1: 'X', p2: '7' } } });
  });

  it('the bids are made secretly and uncovered simultaneously: one reveal holds every bid', () => {
    const s = newRace(3);
    const r = reject(s, 'reveal p1=4 p2=5');
    expect(r.code).toBe('move/missing-bid');
    expect(r.message).toMatch(/missing Player 3 \(green\)/);
    expect(options(s)).toMatchObject({ phase: 'bid', awaiting: 'bids', toAct: ['p1', 'p2', 'p3'] });
  });

  it('a bid indicates by how many segments you intend to advance your worm', () => {
    const s = play(newRace(3), 'reveal p1=4 p2=6 p3=3');
    expect(detail(s).order).toEqual([
      { player: 'p3', bid: '3', steps: 3 },
      { player: 'p1', bid: '4', steps: 4 },
      { player: 'p2', bid: '6', steps: 6 },
    ]);
  });

  it('X means a bid for a number of your choice not bid by any other player', () => {
    const s = play(newRace(3), 'reveal p1=4 p2=X p3=6');
    expect(options(s)).toMatchObject({ phase: 'x', toAct: ['p2'], moves: ['x 3', 'x 5', 'x 7'] });
    expect(reject(s, 'x 4').code).toBe('move/number-taken');
    expect(reject(s, 'x 6').message).toMatch(/nobody bid this round: 3, 5, 7 \(6 was bid\)/);
    expect(reject(s, 'x 8').code).toBe('move/number-taken');
    expect(game.authority(s, { type: 'x', number: 5 })).toEqual({ kind: 'player', player: 'p2' });
    expect(order(play(s, 'x 5'))).toEqual(['p1 4', 'p2 5', 'p3 6']);
  });

  it('X also lets you move one of the finish line posts', () => {
    const s = play(newRace(3), 'reveal p1=4 p2=X p3=6', 'x 7', 'moved', 'moved');
    expect(options(s).moves.slice(0, 3)).toEqual(['moved', 'moved post=left', 'moved post=right']);
    const after = play(s, 'moved post=left');
    expect(after.history[0]!.post).toBe('left');
    // Nobody else may move a post.
    expect(reject(play(newRace(3), 'reveal p1=4 p2=X p3=6', 'x 7'), 'moved post=right').message).toMatch(/only the X may move a finish post/);
  });

  it('if 2 or more players bid the same number, their bids are invalid: worms don’t move', () => {
    const s = play(newRace(4), 'reveal p1=5 p2=5 p3=3 p4=6');
    expect(judged(s)).toEqual(['p1:5 collision', 'p2:5 collision', 'p3:3', 'p4:6']);
    expect(order(s)).toEqual(['p3 3', 'p4 6']);
  });

  it('… or X', () => {
    const s = play(newRace(3), 'reveal p1=X p2=X p3=4');
    expect(judged(s)).toEqual(['p1:X collision', 'p2:X collision', 'p3:4']);
    expect(s.phase).toBe('move');
    expect(order(s)).toEqual(['p3 4']);
  });

  it('three players on one number are all invalid; when every bid is void no worm moves and the next round begins', () => {
    const s = play(newRace(3), 'reveal p1=6 p2=6 p3=6');
    expect(s.phase).toBe('bid');
    expect(s.round).toBe(2);
    expect(judged(s)).toEqual(['p1:6 collision', 'p2:6 collision', 'p3:6 collision']);
    expect(order(s)).toEqual([]);
  });

  it('restriction: you may not bid 7 or X twice in succession', () => {
    let s = play(newRace(3), 'reveal p1=7 p2=4 p3=5', 'moved', 'moved', 'moved');
    expect(s.restricted).toEqual(['p1']);
    s = play(s, 'reveal p1=7 p2=3 p3=6');
    expect(judged(s)).toEqual(['p1:7 restricted', 'p2:3', 'p3:6']);
    let t = play(newRace(3), 'reveal p1=X p2=4 p3=5', 'x 6', 'moved', 'moved', 'moved');
    t = play(t, 'reveal p1=7 p2=3 p3=6');
    expect(judged(t)).toEqual(['p1:7 restricted', 'p2:3', 'p3:6']);
  });

  it('this applies only to valid bids: two players bidding 7 cancel each other and are free to bid 7 again', () => {
    let s = play(newRace(3), 'reveal p1=7 p2=7 p3=5', 'moved');
    expect(s.restricted).toEqual([]);
    s = play(s, 'reveal p1=7 p2=4 p3=3');
    expect(judged(s)).toEqual(['p1:7', 'p2:4', 'p3:3']);
  });
});

describe('motion', () => {
  it('the player who made the lowest bid starts the round, followed by next lowest, and so on', () => {
    let s = play(newRace(5), 'reveal p1=7 p2=3 p3=6 p4=4 p5=5');
    const movers: string[] = [];
    while (s.phase === 'move') {
      movers.push(game.status(s).headline);
      s = play(s, 'moved');
    }
    expect(movers).toEqual([
      'Round 1: Player 2 moves 3',
      'Round 1: Player 4 moves 4',
      'Round 1: Player 5 moves 5',
      'Round 1: Player 3 moves 6',
      'Round 1: Player 1 moves 7',
    ]);
    expect(s.phase).toBe('bid');
  });

  it('X moves a number not bid by any other player, in that number’s slot', () => {
    const s = play(newRace(4), 'reveal p1=3 p2=X p3=7 p4=6', 'x 5');
    expect(order(s)).toEqual(['p1 3', 'p2 5', 'p4 6', 'p3 7']);
    expect(toNotation(s)).toBe('r1 move red:3 yellow:X=5 green:7 blue:6 ghost:- moved:0/4');
  });
});

describe('end of race', () => {
  it('the race ends the moment the head of a worm touches the card: the referee declares the winner', () => {
    let s = play(newRace(3), 'reveal p1=4 p2=6 p3=3', 'moved');
    expect(options(s).moves).toContain('finish p3');
    s = play(s, 'finish p3');
    expect(s.phase).toBe('over');
    expect(game.status(s)).toMatchObject({ headline: 'Player 3 wins the race', finished: true });
    expect(game.status(s).ranking).toEqual([
      { player: 'p3', rank: 1, score: 1 },
      { player: 'p1', rank: 2, score: 0 },
      { player: 'p2', rank: 2, score: 0 },
    ]);
    expect(game.score(s)).toEqual({ finished: true, winner: 'p3', rounds: 1, advanced: { p1: 0, p2: 0, p3: 3 } });
    expect(reject(s, 'reveal p1=3 p2=4 p3=5').code).toBe('move/game-over');
  });

  it('a worm moved by the finish post can win too: any player may be declared', () => {
    const s = play(newRace(3), 'reveal p1=4 p2=X p3=6', 'x 7', 'moved', 'moved', 'finish p1');
    expect(s.winner).toBe('p1');
  });
});

describe('the game for 2 players: the ghost', () => {
  it('after both bids two more dice are thrown', () => {
    const s = play(newRace(2), 'reveal p1=4 p2=6');
    expect(options(s)).toMatchObject({ phase: 'ghost', awaiting: 'ghost', toAct: [] });
    // Two slots; the bids may still lie in the tray beside them (at most the box's five dice).
    expect(game.diceRequest(s)).toMatchObject({ count: { min: 2, max: 5 }, prompt: 'Roll two spare dice for the ghost' });
    expect(game.status(s).headline).toBe('Round 1: roll two dice for the ghost');
  });

  it('the higher of the two shows the number bid by the ghost', () => {
    const s = play(newRace(2), 'reveal p1=4 p2=6', 'ghost 35');
    expect(s.current!.ghost).toEqual({ dice: ['3', '5'], bid: '5' });
  });

  it('if the dice show X and 7, X is higher', () => {
    const s = play(newRace(2), 'reveal p1=4 p2=6', 'ghost 7X');
    expect(s.current!.ghost!.bid).toBe('X');
  });

  it('if one of you bid the same number as the ghost, the bid is invalid and your worm doesn’t move', () => {
    const s = play(newRace(2), 'reveal p1=4 p2=6', 'ghost 63');
    expect(judged(s)).toEqual(['p1:4', 'p2:6 ghost']);
    expect(order(s)).toEqual(['p1 4']);
  });

  it('everything else is as above: the two players still cancel each other', () => {
    const s = play(newRace(2), 'reveal p1=5 p2=5', 'ghost 33');
    expect(judged(s)).toEqual(['p1:5 collision', 'p2:5 collision']);
    expect(s.phase).toBe('bid');
  });
});
