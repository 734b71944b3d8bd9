/**
 * The Tapeworm deck as data: card kinds with counts, shapes and colours (deck.json), validated on
 * load and expanded into lookup tables the geometry uses (each kind's edge colours for each of
 * its four rotations).
 *
 * The composition is not official (DECISIONS §5): the file says so, and an owner can correct it or
 * pass a corrected deck in the setup options.
 */
import { z } from 'zod';
import deckJson from './deck.json' with { type: 'json' };

/** Card edges as dealt face up: N is the top of the card; rotations turn it clockwise. */
export const EDGES = ['N', 'E', 'S', 'W'] as const;
export type EdgeName = (typeof EDGES)[number];
export const DECK_SIZE = 80;

export const EFFECTS = ['cut', 'peek', 'hatch', 'swap', 'dig'] as const;
export type Effect = (typeof EFFECTS)[number];

export const WILD = 'wild';

const edgeName = z.enum(EDGES);
const cardId = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'card ids are lower-case words joined by "-"').max(40);
const cardSchema = z.strictObject({
  id: cardId,
  shape: z.string().min(1).max(40),
  /** One colour for every segment end, or one per end in the order the shape lists them; "wild" for rainbow cards. */
  colors: z.array(z.string().min(1).max(20)).min(1).max(8),
  effect: z.enum(EFFECTS).optional(),
  count: z.number().int().min(1).max(DECK_SIZE),
});

type Shapes = Record<string, EdgeName[][]>;

/** A shape by name: own keys only, so a card of shape "toString" names no shape (not Object's). */
function shapeNamed(deck: { shapes: Shapes }, name: string): EdgeName[][] | undefined {
  return Object.hasOwn(deck.shapes, name) ? deck.shapes[name] : undefined;
}

export const deckDefinitionSchema = z
  .strictObject({
    name: z.string().min(1).max(80),
    official: z.boolean(),
    note: z.string().max(2000),
    colors: z.array(z.string().regex(/^[a-z]+$/).max(20)).min(1).max(8),
    /** Each shape is a list of segments; a segment is the list of edges it runs between. */
    shapes: z.record(z.string().min(1).max(40), z.array(z.array(edgeName).min(1).max(4)).min(1).max(4)),
    start: cardSchema.omit({ count: true, effect: true }),
    cards: z.array(cardSchema).min(1).max(DECK_SIZE),
  })
  .superRefine((deck, ctx) => {
    const palette = new Set(deck.colors);
    if (palette.has(WILD)) ctx.addIssue({ code: 'custom', path: ['colors'], message: `"${WILD}" is the rainbow card, not a colour` });
    for (const [name, segments] of Object.entries(deck.shapes)) {
      const edges = segments.flat();
      if (new Set(edges).size !== edges.length) ctx.addIssue({ code: 'custom', path: ['shapes', name], message: 'an edge is used by two segments' });
    }
    const checkCard = (card: { id: string; shape: string; colors: string[] }, path: (string | number)[], isStart: boolean) => {
      const shape = shapeNamed(deck, card.shape);
      if (!shape) {
        ctx.addIssue({ code: 'custom', path: [...path, 'shape'], message: `unknown shape "${card.shape}"` });
        return;
      }
      const ends = shape.flat().length;
      if (card.colors.length !== 1 && card.colors.length !== ends) {
        ctx.addIssue({ code: 'custom', path: [...path, 'colors'], message: `give 1 colour or ${ends} (one per segment end), not ${card.colors.length}` });
      }
      card.colors.forEach((c, i) => {
        if (c === WILD) {
          if (isStart || card.colors.length !== 1) ctx.addIssue({ code: 'custom', path: [...path, 'colors', i], message: 'a wild card is rainbow all over: colors must be ["wild"]' });
        } else if (!palette.has(c)) {
          ctx.addIssue({ code: 'custom', path: [...path, 'colors', i], message: `"${c}" is not one of the deck's colours (${deck.colors.join(', ')})` });
        }
      });
    };
    checkCard(deck.start, ['start'], true);
    const ids = new Set<string>([deck.start.id]);
    deck.cards.forEach((card, i) => {
      if (ids.has(card.id)) ctx.addIssue({ code: 'custom', path: ['cards', i, 'id'], message: `card id "${card.id}" is used twice` });
      ids.add(card.id);
      checkCard(card, ['cards', i], false);
      if (card.effect === 'cut' && (new Set(card.colors).size !== 1 || card.colors[0] === WILD)) {
        ctx.addIssue({ code: 'custom', path: ['cards', i, 'colors'], message: 'a Cut card has one colour (it cuts lines of that colour)' });
      }
    });
    const total = deck.cards.reduce((n, c) => n + c.count, 0) + 1;
    if (total !== DECK_SIZE) ctx.addIssue({ code: 'custom', path: ['cards'], message: `the deck has ${total} cards with the start card; Tapeworm has ${DECK_SIZE}` });
  });

export type DeckDefinition = z.infer<typeof deckDefinitionSchema>;

/** A card kind ready for geometry: its edge colours for each rotation. */
export interface CardKind {
  id: string;
  shape: string;
  effect: Effect | null;
  count: number;
  wild: boolean;
  start: boolean;
  /** Has a one-ended segment that is not a start arm: playing it ends a tapeworm. */
  head: boolean;
  /** The distinct colours on the card (none for a wild). */
  colors: string[];
  /** edges[rotation][edge]: the colour at that world edge (N, E, S, W), "wild", or null for none. */
  edges: (string | null)[][];
  /** segment[rotation][edge]: which segment reaches that edge, or -1. */
  segment: number[][];
}

export interface Deck {
  definition: DeckDefinition;
  colors: string[];
  start: CardKind;
  kinds: ReadonlyMap<string, CardKind>;
  /** The kinds dealt in the deck (not the start card), in file order. */
  playable: CardKind[];
}

function expandKind(deck: DeckDefinition, card: { id: string; shape: string; colors: string[]; effect?: Effect; count?: number }, start: boolean): CardKind {
  const segments = shapeNamed(deck, card.shape)!;
  const ends = segments.flat();
  const colourOf = (i: number) => (card.colors.length === 1 ? card.colors[0]! : card.colors[i]!);
  const edges: (string | null)[][] = [];
  const segment: number[][] = [];
  for (let r = 0; r < 4; r++) {
    const e: (string | null)[] = [null, null, null, null];
    const s = [-1, -1, -1, -1];
    let k = 0;
    segments.forEach((seg, si) => {
      for (const edge of seg) {
        const world = (EDGES.indexOf(edge) + r) % 4;
        e[world] = colourOf(k++);
        s[world] = si;
      }
    });
    edges.push(e);
    segment.push(s);
  }
  const wild = card.colors.length === 1 && card.colors[0] === WILD;
  return {
    id: card.id,
    shape: card.shape,
    effect: card.effect ?? null,
    count: card.count ?? 1,
    wild,
    start,
    head: !start && segments.some((seg) => seg.length === 1),
    colors: wild ? [] : [...new Set(ends.map((_, i) => colourOf(i)))],
    edges,
    segment,
  };
}

const cache = new WeakMap<DeckDefinition, Deck>();

/** The lookup tables for a validated deck definition (cached per definition object). */
export function expandDeck(definition: DeckDefinition): Deck {
  const hit = cache.get(definition);
  if (hit) return hit;
  const start = expandKind(definition, definition.start, true);
  const playable = definition.cards.map((c) => expandKind(definition, c, false));
  const kinds = new Map<string, CardKind>([[start.id, start], ...playable.map((k): [string, CardKind] => [k.id, k])]);
  const deck: Deck = { definition, colors: definition.colors.slice(), start, kinds, playable };
  cache.set(definition, deck);
  return deck;
}

export function parseDeck(json: unknown, origin: string): { ok: true; deck: DeckDefinition } | { ok: false; message: string } {
  const parsed = deckDefinitionSchema.safeParse(json);
  if (parsed.success) return { ok: true, deck: parsed.data };
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
  return { ok: false, message: `${origin} is not a valid Tapeworm deck: ${issues}` };
}

function loadDefault(): DeckDefinition {
  const result = parseDeck(deckJson, 'shared/games/tapeworm/deck.json');
  if (!result.ok) throw new Error(result.message);
  return result.deck;
}

/** The deck in force when the options give none: clew's reconstruction, marked not official. */
export const DEFAULT_DECK: DeckDefinition = loadDefault();
