/**
 * Tapeworm: one test per rule statement of the text, in the text's order. Positions use the
 * one-line notation (shared/games/tapeworm/notation.ts); the start card has red north, white
 * east, pink south and black west.
 */
import { describe, expect, it } from 'vitest';
import { hiddenKinds, kindsAfterDraw, tapeworm, TapewormErrors, toNotation } from '../../shared/games/tapeworm/index.js';
import { cut, draw, endTurn, expectRejected, openEndsOf, place, play, PLAYERS, position, start } from './helpers.js';

describe('Tapeworm: components and setup', () => {
  it('is for 1–4 players (one player is solo practice)', () => {
    expect(tapeworm.setup({ players: [] }).ok).toBe(false);
    expect(tapeworm.setup({ players: PLAYERS.slice(0, 1) }).ok).toBe(true);
    expect(tapeworm.setup({ players: PLAYERS }).ok).toBe(true);
    expect(tapeworm.setup({ players: [...PLAYERS, { id: 'p5', name: 'P5' }] })).toMatchObject({ ok: false, code: 'setup/invalid' });
  });

  it('places the start card in the middle and deals 5 cards to each player from the other 79', () => {
    const s = start({ players: PLAYERS.slice(0, 3) });
    expect(s.table).toEqual([{ card: 'start', x: 0, y: 0, rotation: 0 }]);
    expect(s.hands).toEqual([5, 5, 5]);
    expect(s.drawPile).toBe(79 - 15);
  });

  it('begins with the player who most resembles a worm (the first player option)', () => {
    const s = start({ players: PLAYERS.slice(0, 3), firstPlayer: 'p2' });
    expect(s.players.map((p) => p.id)).toEqual(['p2', 'p3', 'p1']);
    expect(tapeworm.status(s)).toEqual({ headline: 'Player 2: draw a card.', toAct: ['p2'], finished: false });
  });
});

describe('Tapeworm: gameplay', () => {
  it('the active player draws a card, then plays', () => {
    const s = start();
    expectRejected(s, place('p1', 'red-straight', 0, -1), 'move/wrong-phase');
    const drawn = play(s, draw('p1'));
    expect(drawn).toMatchObject({ phase: 'play', drawPile: 68, hands: [6, 5] });
    expectRejected(drawn, draw('p1'), 'move/wrong-phase');
  });

  it('the first card must match the colour of an open tapeworm segment', () => {
    const s = play(start(), draw('p1'));
    expectRejected(s, place('p1', 'pink-straight', 0, -1), 'move/edges-do-not-match');
    expect(play(s, place('p1', 'pink-straight', 0, 1)).lock).toBe('pink');
  });

  it('the player may continue with cards of that colour, but only that colour', () => {
    const s = play(start(), draw('p1'), place('p1', 'red-straight', 0, -1));
    expect(tapeworm.legalOptions(s).instruction).toBe('Player 1: play more red (or a red Cut), or end your turn.');
    const message = expectRejected(s, place('p1', 'white-straight', 1, 0, 1), TapewormErrors.colourLocked);
    expect(message).toContain('only red segments may be extended');
    expect(play(s, place('p1', 'red-straight', 0, -2))).toMatchObject({ phase: 'play', played: 2 });
  });

  it('A: a tapeworm head ends the tapeworm and the turn', () => {
    const s = play(start(), draw('p1'), place('p1', 'pink-head', 0, 1));
    expect(s).toMatchObject({ phase: 'draw', active: 1 });
    expect(openEndsOf(s)).toEqual(['0,0:E:white', '0,0:N:red', '0,0:W:black']);
  });

  it('B: a change of colour ends the turn', () => {
    const s = play(start(), draw('p1'), place('p1', 'red-black-straight', -1, 0, 3));
    expect(s).toMatchObject({ phase: 'draw', active: 1 });
    expect(openEndsOf(s)).toContain('-1,0:W:red');
  });

  it('C: with no more cards of that colour to play, the turn ends and play moves clockwise', () => {
    const s = play(start({ players: PLAYERS.slice(0, 3) }), draw('p1'), place('p1', 'red-straight', 0, -1), endTurn('p1'));
    expect(s).toMatchObject({ phase: 'draw', active: 1, lock: null, played: 0 });
    expectRejected(s, draw('p1'), 'move/not-your-turn');
  });
});

describe('Tapeworm: card placement', () => {
  const s = play(start(), draw('p1'));

  it('each card goes side by side with a card already played', () => {
    expectRejected(s, place('p1', 'red-straight', 0, -2), 'move/not-attached');
  });

  it('cards may not overlap', () => {
    expectRejected(s, place('p1', 'red-straight', 0, 0), 'move/cell-taken');
  });

  it('all segments on the card must match the colour of the segments on adjacent cards', () => {
    // The white worm east of the start curls north and west: its open end faces the cell north of the start.
    const t = position('play @p1 t2 hands:p1=5,p2=5 | start@0,0 white-curve@1,0r3 white-curve@1,-1r2');
    expect(openEndsOf(t)).toContain('1,-1:W:white');
    const message = expectRejected(t, place('p1', 'red-curve', 0, -1, 1), 'move/edges-do-not-match');
    expect(message).toBe('red-curve at (0, -1): its red segment would meet a white one on the E edge');
    // A red/white curve matches both neighbours.
    expect(play(t, place('p1', 'white-red-curve', 0, -1, 1)).table).toHaveLength(4);
  });

  it('a card cannot fall off the edge of the table', () => {
    const small = play(start({ tableEdge: { north: 1, east: 3, south: 3, west: 3 } }), draw('p1'), place('p1', 'red-straight', 0, -1));
    const message = expectRejected(small, place('p1', 'red-straight', 0, -2), 'move/off-table');
    expect(message).toContain('would fall off the edge of the table');
  });

  it('open ends may not be placed against other cards unless they connect correctly', () => {
    // The black worm west of the start turns south, then east: its open end faces the cell south of the start.
    const t = position('play @p1 t2 hands:p1=5,p2=5 | start@0,0 black-curve@-1,0r1 black-curve@-1,1');
    expect(openEndsOf(t)).toContain('-1,1:E:black');
    const message = expectRejected(t, place('p1', 'pink-straight', 0, 1), 'move/edges-do-not-match');
    expect(message).toBe('pink-straight at (0, 1): the black open end of the card at (-1, 1) would meet a side with no segment on the W edge');
    expect(play(t, place('p1', 'black-pink-curve', 0, 1, 3)).table).toHaveLength(4);
  });
});

describe('Tapeworm: game end', () => {
  it('the first player with no cards in hand at the end of their turn wins', () => {
    const s = position('play @p2 t8 hands:p1=3,p2=1 | start@0,0');
    const won = play(s, place('p2', 'pink-head', 0, 1));
    expect(won).toMatchObject({ phase: 'over', winner: 'p2', end: 'emptied-hand' });
    expect(tapeworm.status(won)).toMatchObject({ finished: true, headline: 'p2 wins: no cards left at the end of the turn.', ranking: [{ player: 'p2', rank: 1, score: 0 }, { player: 'p1', rank: 2, score: 3 }] });
    expectRejected(won, draw('p1'), 'move/game-over');
  });

  it('a last card with an effect is resolved before the turn (and the game) ends', () => {
    const s = position('play @p2 t8 hands:p1=3,p2=1 | start@0,0');
    const hatching = play(s, place('p2', 'pink-curve-hatch', 0, 1));
    expect(hatching).toMatchObject({ phase: 'effect', pending: [{ effect: 'hatch', card: 'pink-curve-hatch' }] });
    const done = play(hatching, { type: 'hatch', player: 'p2', target: 'p1' });
    expect(done).toMatchObject({ phase: 'over', winner: 'p2', hands: [4, 0] });
  });
});

describe('Tapeworm: card effects', () => {
  const at = 'play @p1 t3 hands:p1=5,p2=5 | start@0,0';

  it('a card with an icon offers its effect at once; the player may decline it', () => {
    const s = play(position(at), place('p1', 'red-curve-peek', 0, -1, 1));
    expect(s.phase).toBe('effect');
    expect(tapeworm.legalOptions(s).moves).toEqual(['peek', 'decline']);
    expectRejected(s, place('p1', 'red-straight', 1, -1, 1), 'move/wrong-phase');
    expect(play(s, { type: 'decline', player: 'p1' })).toMatchObject({ phase: 'play', pending: [] });
  });

  it('Wild: a rainbow card may go on any segment and takes the colour of the card it is first attached to, for good', () => {
    let s = play(position(at), place('p1', 'wild-straight', 1, 0, 1));
    expect(s.table[1]).toEqual({ card: 'wild-straight', x: 1, y: 0, rotation: 1, color: 'white' });
    expect(s.lock).toBe('white');
    expect(openEndsOf(s)).toContain('1,0:E:white');
    // It stays white: pink does not continue from it.
    expectRejected(s, place('p1', 'pink-straight', 2, 0, 1), 'move/edges-do-not-match');
    s = play(s, place('p1', 'white-straight', 2, 0, 1));
    expect(s.lock).toBe('white');
  });

  it('Wild: a rainbow card joining two colours at once is refused', () => {
    // The cell north-east of the start touches a red end (west) and a white end (south).
    const s = position('play @p1 t3 hands:p1=5,p2=5 | start@0,0 red-curve@0,-1r1 white-curve@1,0r3');
    expect(openEndsOf(s)).toEqual(['0,-1:E:red', '0,0:S:pink', '0,0:W:black', '1,0:N:white']);
    expectRejected(s, place('p1', 'wild-curve', 1, -1, 2), 'move/edges-do-not-match');
  });

  it('Cut: discard a Cut card to sever a tapeworm, discarding every card beyond the line (away from the start card)', () => {
    const s = position('play @p1 t5 hands:p1=5,p2=5 | start@0,0 pink-straight@0,1 pink-straight@0,2 pink-head@0,3');
    const after = play(s, cut('p1', 'pink-straight-cut', 0, 1, 'S'));
    expect(after.table.map((c) => c.card)).toEqual(['start', 'pink-straight']);
    expect(after.discard).toEqual(['pink-straight-cut', 'pink-straight', 'pink-head']);
    expect(after).toMatchObject({ phase: 'play', lock: 'pink', hands: [4, 5] });
    expect(openEndsOf(after)).toContain('0,1:S:pink');
    // The same line named from the other side is the same cut.
    expect(play(s, cut('p1', 'pink-straight-cut', 0, 2, 'N')).discard).toEqual(after.discard);
  });

  it('Cut: the line must join two segments of the Cut card\'s colour', () => {
    const s = position('play @p1 t5 hands:p1=5,p2=5 | start@0,0 pink-straight@0,1 pink-head@0,2');
    expectRejected(s, cut('p1', 'red-straight-cut', 0, 1, 'S'), TapewormErrors.cutColour);
    expectRejected(s, cut('p1', 'pink-straight-cut', 0, 1, 'E'), 'move/no-cut-line');
    expectRejected(s, cut('p1', 'pink-straight', 0, 1, 'S'), TapewormErrors.notACutCard);
  });

  it('Cut: at the beginning or in the middle of the turn, but the Cut card and all cards played that turn are one colour', () => {
    const s = position('play @p1 t5 hands:p1=5,p2=5 | start@0,0 pink-straight@0,1 pink-head@0,2');
    const middle = play(s, place('p1', 'red-straight', 0, -1));
    expectRejected(middle, cut('p1', 'pink-straight-cut', 0, 1, 'S'), TapewormErrors.colourLocked);
    const first = play(s, cut('p1', 'pink-straight-cut', 0, 0, 'S'));
    expect(first.table.map((c) => c.card)).toEqual(['start']);
    expectRejected(first, place('p1', 'red-straight', 0, -1), TapewormErrors.colourLocked);
    expect(play(first, place('p1', 'pink-straight', 0, 1)).played).toBe(2);
  });

  it('Cut: a card with another colour on it is refused after the Cut, not played as a colour change; a rainbow card takes the Cut colour (thirty-eighth session)', () => {
    const s = position('play @p1 t3 hands:p1=5,p2=5 | start@0,0 red-straight@0,-1 red-straight@0,-2');
    const cutFirst = play(s, cut('p1', 'red-straight-cut', 0, -1, 'N'));
    expect(toNotation(cutFirst)).toMatch(/^play @p1 t3 lock:red played:1 cut /);
    expect(position(toNotation(cutFirst))).toEqual(cutFirst);
    expect(tapeworm.legalOptions(cutFirst).instruction).toBe('p1: this turn has a red Cut: play more cards all red (or another red Cut), or end your turn.');
    const message = expectRejected(cutFirst, place('p1', 'red-pink-curve', 0, -2, 2), TapewormErrors.cutTurnColour);
    expect(message).toBe('this turn has a red Cut: the Cut card and all cards played this turn must be red, and red-pink-curve is pink too');
    expect(tapeworm.legalOptions(cutFirst, { cards: ['red-pink-curve', 'red-pink-straight'] }).placements).toEqual([]);
    expect(play(cutFirst, place('p1', 'red-straight', 0, -2)).played).toBe(2);
    const wild = play(cutFirst, place('p1', 'wild-straight', 0, -2));
    expect(wild.table.at(-1)).toMatchObject({ card: 'wild-straight', color: 'red' });
    // Without a Cut the same card is a colour change that ends the turn.
    expect(play(s, place('p1', 'red-pink-curve', 0, -3, 2))).toMatchObject({ phase: 'draw', active: 1 });
    // The next turn has no Cut.
    expect(play(cutFirst, endTurn('p1'), draw('p2')).cut).toBeUndefined();
  });

  it('Peek: draw a card, then put a card from your hand on top of the deck', () => {
    const s = play(position(at), place('p1', 'red-curve-peek', 0, -1, 1));
    const after = play(s, { type: 'peek', player: 'p1' });
    expect(after).toMatchObject({ drawPile: s.drawPile, hands: s.hands, phase: 'play' });
  });

  it('Hatch: force another player to draw a card', () => {
    const s = play(position(at), place('p1', 'red-curve-hatch', 0, -1, 1));
    expect(tapeworm.legalOptions(s, { verbose: true }).detail).toEqual([
      { type: 'hatch', player: 'p1', target: 'p2' },
      { type: 'decline', player: 'p1' },
    ]);
    expectRejected(s, { type: 'hatch', player: 'p1', target: 'p1' }, TapewormErrors.targetSelf);
    expectRejected(s, { type: 'hatch', player: 'p1', target: 'zed' }, TapewormErrors.noSuchPlayer);
    expectRejected(s, { type: 'peek', player: 'p1' }, TapewormErrors.effectMismatch);
    expect(play(s, { type: 'hatch', player: 'p1', target: 'p2' })).toMatchObject({ drawPile: s.drawPile - 1, hands: [4, 6] });
  });

  it('Swap: look at a player\'s hand and you may trade a card for a card', () => {
    const s = play(position(at), place('p1', 'red-head-swap', 0, -1, 2));
    expect(s.phase).toBe('effect');
    const traded = play(s, { type: 'swap', player: 'p1', target: 'p2', traded: true });
    expect(traded).toMatchObject({ hands: [4, 5], phase: 'draw', active: 1 });
    const empty = position('play @p1 t3 hands:p1=5,p2=0 | start@0,0');
    const t = play(empty, place('p1', 'red-head-swap', 0, -1, 2));
    expectRejected(t, { type: 'swap', player: 'p1', target: 'p2', traded: true }, TapewormErrors.nothingToTrade);
    expect(play(t, { type: 'swap', player: 'p1', target: 'p2', traded: false }).phase).toBe('draw');
  });

  it('Dig: draw a card, then discard a card (it may be the one drawn)', () => {
    const s = play(position(at), place('p1', 'red-straight-dig', 0, -1));
    const after = play(s, { type: 'dig', player: 'p1', discard: 'black-head' });
    expect(after).toMatchObject({ drawPile: s.drawPile - 1, hands: [4, 5], discard: ['black-head'], phase: 'play' });
    expectRejected(s, { type: 'dig', player: 'p1', discard: 'start' }, TapewormErrors.startCard);
    expectRejected(s, { type: 'dig', player: 'p1', discard: 'green-head' }, TapewormErrors.unknownCard);
  });

  it('Dig from an empty deck: the discards are shuffled back first, so a discarded kind may be the one dug away (thirty-eighth session)', () => {
    const s = position('effect @p1 t30 lock:red played:1 pending:dig/red-straight-dig deck:0 hands:p1=40,p2=37 discard:white-head-swap | start@0,0 red-straight-dig@0,-1');
    expect(hiddenKinds(s).map((k) => k.id)).not.toContain('white-head-swap');
    expect(kindsAfterDraw(s).map((k) => k.id)).toContain('white-head-swap');
    expect(tapeworm.legalOptions(s, { verbose: true }).detail).toContainEqual({ type: 'dig', player: 'p1', discard: 'white-head-swap' });
    expect(play(s, { type: 'dig', player: 'p1', discard: 'white-head-swap' })).toMatchObject({ reshuffles: 1, drawPile: 0, discard: ['white-head-swap'], hands: [40, 37] });
    // With cards in the deck, nothing is shuffled back: a kind all discarded cannot be dug.
    const full = position('effect @p1 t30 lock:red played:1 pending:dig/red-straight-dig hands:p1=5,p2=5 discard:white-head-swap | start@0,0 red-straight-dig@0,-1');
    expect(kindsAfterDraw(full).map((k) => k.id)).not.toContain('white-head-swap');
  });
});

describe('Tapeworm: ringworm', () => {
  // A red curve north of the start turns east; a white/red curve east of it turns north: one red cell closes the loop.
  const open = 'play @p1 t5 hands:p1=5,p2=5 | start@0,0 red-curve@0,-1r1 white-red-curve@1,0r3';

  it('completing a fully connected ring lets the player discard 2 cards', () => {
    const s = play(position(open), place('p1', 'red-curve', 1, -1, 2));
    expect(s).toMatchObject({ phase: 'effect', pending: [{ effect: 'ringworm', card: 'red-curve' }] });
    expect(openEndsOf(s)).toEqual(['0,0:S:pink', '0,0:W:black']);
    const after = play(s, { type: 'ringworm', player: 'p1', discard: ['pink-head', 'black-head'] });
    expect(after).toMatchObject({ hands: [2, 5], discard: ['pink-head', 'black-head'], phase: 'play' });
    expectRejected(s, { type: 'ringworm', player: 'p1', discard: ['pink-head-swap', 'pink-head-swap'] }, 'move/card-not-available');
    const short = play(position(open.replace('p1=5', 'p1=2')), place('p1', 'red-curve', 1, -1, 2));
    expectRejected(short, { type: 'ringworm', player: 'p1', discard: ['pink-head', 'black-head'] }, TapewormErrors.tooManyDiscards);
    expect(play(short, { type: 'ringworm', player: 'p1', discard: ['pink-head'] })).toMatchObject({ phase: 'over', winner: 'p1' });
  });

  it('a segment that is part of a ringworm cannot be cut: only one whose cut detaches everything beyond it', () => {
    // The ring (start, red curve, red curve, white/red curve) and a black worm with a head, west.
    const s = position('play @p1 t5 hands:p1=5,p2=5 | start@0,0 red-curve@0,-1r1 white-red-curve@1,0r3 red-curve@1,-1r2 black-curve@-1,0r1 black-head@-1,1');
    const cuts = tapeworm.legalOptions(s, { cards: ['red-straight-cut', 'black-straight-cut', 'white-straight-cut'] }).cuts!;
    expect(cuts.map((c) => `${c.card} ${c.x},${c.y} ${c.edge} removes ${c.removes}`)).toEqual([
      'black-straight-cut -1,0 E removes 2',
      'black-straight-cut -1,0 S removes 1',
    ]);
    const message = expectRejected(s, cut('p1', 'red-straight-cut', 0, 0, 'N'), 'move/cut-inside-ringworm');
    expect(message).toContain('part of a ringworm');
    expect(play(s, cut('p1', 'black-straight-cut', -1, 0, 'E')).table.map((c) => c.card)).toEqual(['start', 'red-curve', 'white-red-curve', 'red-curve']);
  });
});

describe('Tapeworm: clarifications', () => {
  it('when the deck runs out, the discards are shuffled into a new face-down deck', () => {
    const s = position('draw @p1 t30 deck:0 hands:p1=30,p2=41 discard:red-head,pink-head,black-head | start@0,0 red-straight@0,-1 pink-straight@0,1 black-straight@-1,0r1 white-straight@1,0r1 wild-straight@0,-2=red');
    const after = play(s, draw('p1'));
    expect(after).toMatchObject({ drawPile: 2, discard: [], hands: [31, 41], reshuffles: 1 });
  });

  it('after drawing, a player with no legal play skips the rest of the turn', () => {
    const s = play(start(), draw('p1'), endTurn('p1'));
    expect(s).toMatchObject({ phase: 'draw', active: 1, passes: 1 });
    expect(tapeworm.legalOptions(play(start(), draw('p1'))).moves).toContain('end-turn');
  });

  it('with every tapeworm headed and no Cut in hand, the player skips too', () => {
    const headed = 'play @p1 t9 last:p2 hands:p1=4,p2=4 | start@0,0 red-head@0,-1r2 white-head@1,0r3 pink-head@0,1 black-head@-1,0r1';
    const s = position(headed);
    expect(openEndsOf(s)).toEqual([]);
    const passed = play(s, endTurn('p1'));
    expect(passed).toMatchObject({ phase: 'draw', active: 1, passes: 1 });
  });

  it('open ends of cards may not be put against other cards unless they connect (the straight here would face a head\'s blank side)', () => {
    const s = position('play @p1 t5 hands:p1=5,p2=5 | start@0,0 red-curve@0,-1r1 red-head@1,-1r3');
    expectRejected(s, place('p1', 'white-straight', 1, 0, 0), 'move/edges-do-not-match');
    expect(toNotation(s)).toContain('red-head@1,-1r3');
  });
});
