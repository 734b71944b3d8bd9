/**
 * Moves as JSON (validated with zod at the edge) and as short text for tests and logs:
 * `reveal p1=5 p2=X`, `ghost 7X`, `x 4`, `moved`, `moved post=left`, `finish p2`.
 */
import { z } from 'zod';
import { BIDS, type Bid, type WormUpMove } from './types.js';

const bidSchema = z.enum(BIDS as unknown as [Bid, ...Bid[]]);

export const wormUpMoveSchema: z.ZodType<WormUpMove> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('reveal'), bids: z.record(z.string().min(1).max(64), bidSchema) }),
  z.object({ type: z.literal('ghost'), dice: z.tuple([bidSchema, bidSchema]) }),
  z.object({ type: z.literal('x'), number: z.number().int() }),
  z.object({ type: z.literal('moved'), post: z.enum(['left', 'right']).optional() }),
  z.object({ type: z.literal('finish'), winner: z.string().min(1).max(64) }),
]);

export function moveText(move: WormUpMove): string {
  switch (move.type) {
    case 'reveal':
      return `reveal ${Object.entries(move.bids).map(([p, b]) => `${p}=${b}`).join(' ')}`;
    case 'ghost':
      return `ghost ${move.dice.join('')}`;
    case 'x':
      return `x ${move.number}`;
    case 'moved':
      return move.post ? `moved post=${move.post}` : 'moved';
    case 'finish':
      return `finish ${move.winner}`;
  }
}

const asBid = (t: string): Bid | undefined => BIDS.find((b) => b === t.toUpperCase());

/** Parses move text (player ids without spaces); throws with the offending text. */
export function parseMove(text: string): WormUpMove {
  const [verb, ...args] = text.trim().split(/\s+/);
  const bad = (why: string) => new Error(`bad move text "${text}": ${why}`);
  switch (verb) {
    case 'reveal': {
      const bids: Record<string, Bid> = {};
      for (const a of args) {
        const [player, face, ...more] = a.split('=');
        const bid = face === undefined || more.length ? undefined : asBid(face);
        if (!player || !bid) throw bad(`"${a}" is not player=bid (bids 3–7 or X)`);
        // One die each: a second bid for a player would silently replace the first.
        if (Object.hasOwn(bids, player)) throw bad(`${player} bids twice`);
        bids[player] = bid;
      }
      return { type: 'reveal', bids };
    }
    case 'ghost': {
      const dice = [...(args[0] ?? '')].map(asBid);
      if (dice.length !== 2 || !dice[0] || !dice[1] || args.length !== 1) throw bad('the ghost rolls two dice, e.g. ghost 7X');
      return { type: 'ghost', dice: [dice[0], dice[1]] };
    }
    case 'x': {
      const n = Number(args[0]);
      if (args.length !== 1 || !/^\d+$/.test(args[0]!)) throw bad('x needs a number');
      return { type: 'x', number: n };
    }
    case 'moved': {
      if (args.length === 0) return { type: 'moved' };
      const post = args[0] === 'post=left' ? 'left' : args[0] === 'post=right' ? 'right' : null;
      if (!post || args.length > 1) throw bad('moved takes post=left or post=right');
      return { type: 'moved', post };
    }
    case 'finish':
      if (args.length !== 1) throw bad('finish needs the winner');
      return { type: 'finish', winner: args[0]! };
    default:
      throw bad('expected reveal, ghost, x, moved or finish');
  }
}
