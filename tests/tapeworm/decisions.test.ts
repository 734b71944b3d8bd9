/** DECISIONS.md §5 (Tapeworm): one test per row, plus the solo practice mode. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DECK, expandDeck, onlyCutsRemain, parseDeck, tapeworm, type DeckDefinition } from '../../shared/games/tapeworm/index.js';
import { draw, endTurn, expectRejected, place, play, PLAYERS, position, start } from './helpers.js';

const deckFile = path.resolve(import.meta.dirname, '../../shared/games/tapeworm/deck.json');

describe('DECISIONS §5 role: a turn referee', () => {
  it('shows whose turn, the locked colour, hand sizes, deck and discard counts, and the effects to resolve', () => {
    const s = play(start({ players: PLAYERS.slice(0, 3) }), draw('p1'), place('p1', 'red-curve-peek', 0, -1, 1));
    const legal = tapeworm.legalOptions(s);
    expect(legal).toMatchObject({
      phase: 'effect',
      player: 'p1',
      lock: 'red',
      drawPile: 63,
      discard: 0,
      hands: [
        { player: 'p1', cards: 5 },
        { player: 'p2', cards: 5 },
        { player: 'p3', cards: 5 },
      ],
      pending: [{ effect: 'peek', card: 'red-curve-peek' }],
      deck: { name: 'clew reconstruction', official: false },
    });
    expect(legal.instruction).toBe('Player 1: Peek: draw a card, then put a card from your hand on top of the deck (it may be the one you drew), or decline.');
  });

  it('the colour is locked once chosen, and released when the turn ends', () => {
    let s = play(start(), draw('p1'), place('p1', 'white-straight', 1, 0, 1));
    expect(s.lock).toBe('white');
    s = play(s, place('p1', 'white-curve', 2, 0, 3));
    expect(s.lock).toBe('white');
    s = play(s, endTurn('p1'), draw('p2'));
    expect(s.lock).toBeNull();
    expect(play(s, place('p2', 'red-straight', 0, -1)).lock).toBe('red');
  });
});

describe('DECISIONS §5 deck (data, not official)', () => {
  it('is the data file: 80 cards with the start card, four colours, every effect icon and wilds', () => {
    const file = parseDeck(JSON.parse(readFileSync(deckFile, 'utf8')), 'deck.json');
    expect(file.ok && file.deck).toEqual(DEFAULT_DECK);
    expect(DEFAULT_DECK.official).toBe(false);
    expect(DEFAULT_DECK.note).toMatch(/not the publisher's/);
    expect(DEFAULT_DECK.colors).toEqual(['red', 'pink', 'white', 'black']);
    const deck = expandDeck(DEFAULT_DECK);
    expect(deck.playable.reduce((n, k) => n + k.count, 0) + 1).toBe(80);
    const byEffect = (e: string) => deck.playable.filter((k) => k.effect === e).reduce((n, k) => n + k.count, 0);
    expect(['cut', 'peek', 'hatch', 'swap', 'dig'].map(byEffect)).toEqual([8, 4, 4, 4, 4]);
    expect(deck.playable.filter((k) => k.wild).reduce((n, k) => n + k.count, 0)).toBe(5);
    for (const c of DEFAULT_DECK.colors) {
      expect(deck.playable.filter((k) => k.colors.includes(c)).reduce((n, k) => n + k.count, 0)).toBe(23);
    }
  });

  it('a corrected deck in the options is used, and the dashboard sees its name', () => {
    const mine: DeckDefinition = structuredClone(DEFAULT_DECK);
    mine.name = 'my printed deck';
    mine.official = true;
    mine.cards.find((c) => c.id === 'red-straight')!.count = 2;
    mine.cards.find((c) => c.id === 'wild-straight')!.count = 4;
    const s = start({ deck: mine });
    expect(tapeworm.legalOptions(s).deck).toEqual({ name: 'my printed deck', official: true });
    expect(tapeworm.score(s).deck.official).toBe(true);
  });

  it('a deck that is not 80 cards, or names an unknown colour or shape, is refused with the place of the error', () => {
    const short: DeckDefinition = structuredClone(DEFAULT_DECK);
    short.cards.find((c) => c.id === 'red-straight')!.count = 2;
    const result = tapeworm.setup({ players: PLAYERS.slice(0, 2), deck: short });
    expect(result).toMatchObject({ ok: false, code: 'setup/invalid' });
    if (!result.ok) expect(result.message).toContain('deck.cards: the deck has 79 cards with the start card; Tapeworm has 80');
    const green = structuredClone(DEFAULT_DECK) as DeckDefinition;
    green.cards[0]!.colors = ['green'];
    const bad = parseDeck(green, 'my-deck.json');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toBe('my-deck.json is not a valid Tapeworm deck: cards.0.colors.0: "green" is not one of the deck\'s colours (red, pink, white, black)');
    const blob = structuredClone(DEFAULT_DECK) as DeckDefinition;
    blob.cards[1]!.shape = 'blob';
    expect(parseDeck(blob, 'x')).toMatchObject({ ok: false, message: 'x is not a valid Tapeworm deck: cards.1.shape: unknown shape "blob"' });
    // Object's own names are no shape either (thirty-eighth session: "toString" crashed setup).
    for (const shape of ['toString', 'constructor', '__proto__']) {
      const proto = structuredClone(DEFAULT_DECK) as DeckDefinition;
      proto.cards[0]!.shape = shape;
      expect(tapeworm.setup({ players: PLAYERS.slice(0, 2), deck: proto }), shape).toMatchObject({ ok: false, code: 'setup/invalid', message: expect.stringContaining(`cards.0.shape: unknown shape "${shape}"`) });
    }
  });
});

describe('DECISIONS §5 no legal play', () => {
  const headed = 'play @p1 t9 last:p2 hands:p1=4,p2=4 | start@0,0 red-head@0,-1r2 white-head@1,0r3 pink-head@0,1 black-head@-1,0r1';

  it('the player skips the rest of the turn', () => {
    const s = play(position(headed), endTurn('p1'));
    expect(s).toMatchObject({ phase: 'draw', active: 1, passes: 1 });
  });

  it('if the only legal play left for everyone is a Cut nobody holds, the last player to play wins', () => {
    const s = position(headed);
    expect(onlyCutsRemain(s)).toBe(true);
    const over = play(s, endTurn('p1'), draw('p2'), endTurn('p2'));
    expect(over).toMatchObject({ phase: 'over', winner: 'p2', end: 'stalled' });
    expect(tapeworm.status(over).headline).toBe('No one can play but with a Cut nobody holds: p2, the last to play, wins.');
  });

  it('a Cut played in that round reopens a worm and the game goes on', () => {
    const s = play(position(headed), endTurn('p1'), draw('p2'), { type: 'cut', player: 'p2', card: 'pink-straight-cut', x: 0, y: 0, edge: 'S' });
    expect(onlyCutsRemain(s)).toBe(false);
    expect(play(s, endTurn('p2'))).toMatchObject({ phase: 'draw', active: 0, passes: 0, lastToPlay: 'p2' });
  });

  it('a Cut is not the only legal play left while cards that fit lie in the discard: the reshuffle brings them back', () => {
    // The text: "if no player runs out of cards before the deck runs out, shuffle the discarded
    // tapeworm cards, form a new facedown deck, and continue playing". Only the red arm is open,
    // and every card that fits a red end (red, red and another colour, wild) was discarded.
    const redFitters = [
      'red-straight', 'red-straight', 'red-straight', 'red-straight-dig', 'red-straight-cut', 'red-straight-cut',
      'red-curve', 'red-curve', 'red-curve', 'red-curve-peek', 'red-curve-hatch', 'red-head', 'red-head', 'red-head-swap',
      'red-pink-straight', 'red-pink-curve', 'pink-red-curve', 'red-white-straight', 'red-white-curve', 'white-red-curve',
      'red-black-straight', 'red-black-curve', 'black-red-curve', 'wild-straight', 'wild-straight', 'wild-straight', 'wild-curve', 'wild-curve',
    ];
    const s = position(`play @p1 t30 last:p2 hands:p1=4,p2=4 discard:${redFitters.join(',')} | start@0,0 white-head@1,0r3 pink-head@0,1 black-head@-1,0r1`);
    expect(s.drawPile).toBe(40);
    expect(tapeworm.legalOptions(s).openEnds.map((e) => e.color)).toEqual(['red']);
    expect(onlyCutsRemain(s)).toBe(false);
    const after = play(s, endTurn('p1'), draw('p2'), endTurn('p2'));
    expect(after).toMatchObject({ phase: 'draw', active: 0, passes: 2, winner: null, end: null });
  });

  it('a full round of passes while cards can still be placed and drawn does not end the game', () => {
    const s = play(start(), draw('p1'), endTurn('p1'), draw('p2'), endTurn('p2'));
    expect(s).toMatchObject({ phase: 'draw', passes: 2 });
  });

  it('nor does it end the game while a worm is open, unless nothing is left to draw (no hand can change)', () => {
    const open = 'play @p1 t40 last:p1 deck:0 hands:p1=40,p2=39 | start@0,0';
    const s = play(position(open), endTurn('p1'), draw('p2'), endTurn('p2'));
    expect(s).toMatchObject({ phase: 'over', winner: 'p1', end: 'stalled' });
    // The headline gives that reason, not the Cut nobody holds (thirty-eighth session).
    expect(tapeworm.status(s).headline).toBe('Nothing is left to draw and no one can play: p1, the last to play, wins.');
  });
});

describe('DECISIONS §5 cards by camera: not in scope', () => {
  it('asks the camera for nothing and turns no dice into moves', () => {
    const s = start();
    expect(tapeworm.diceRequest(s)).toBeNull();
    expect(tapeworm.diceMove(s, [{ set: 'd6', face: '3' }])).toMatchObject({ ok: false, code: 'dice/not-expected' });
  });
});

describe('Tapeworm solo practice (the text says 1–4 players)', () => {
  it('one player plays to empty their hand; Hatch and Swap have no one to act on, so they are not offered', () => {
    const s = start({ players: PLAYERS.slice(0, 1) });
    expect(s).toMatchObject({ hands: [5], drawPile: 74 });
    const hatch = play(s, draw('p1'), place('p1', 'red-curve-hatch', 0, -1, 1));
    expect(hatch).toMatchObject({ phase: 'play', pending: [] });
    const swap = play(s, draw('p1'), place('p1', 'red-head-swap', 0, -1, 2));
    expect(swap).toMatchObject({ phase: 'draw', active: 0, turn: 2, pending: [] });
  });

  it('emptying the hand ends the practice with the number of turns', () => {
    const s = position('play @p1 t12 hands:p1=1 | start@0,0');
    const done = play(s, place('p1', 'black-head', -1, 0, 1));
    expect(done).toMatchObject({ phase: 'over', winner: 'p1', end: 'emptied-hand' });
    expect(tapeworm.status(done).headline).toBe('p1 emptied their hand in 12 turns.');
    expect(tapeworm.score(done)).toMatchObject({ winner: 'p1', turns: 12 });
  });

  it('a stuck table ends the practice with no winner', () => {
    const s = position('play @p1 t12 last:p1 hands:p1=3 | start@0,0 red-head@0,-1r2 white-head@1,0r3 pink-head@0,1 black-head@-1,0r1');
    const stuck = play(s, endTurn('p1'));
    expect(stuck).toMatchObject({ phase: 'over', winner: null, end: 'stalled' });
    expect(tapeworm.status(stuck).headline).toBe('Practice over: no card can be played any more.');
    expectRejected(stuck, draw('p1'), 'move/game-over');
  });
});
