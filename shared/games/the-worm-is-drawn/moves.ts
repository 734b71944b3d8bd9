/**
 * Moves as JSON (validated with zod at the edge) and as short text for tests and logs:
 * `roll 1134ww55`, `keep worm`, `keep 1`, `stop`, `take 26`, `steal 26`.
 */
import { z } from 'zod';
import { FACES, type Face, type TwidMove } from './types.js';

const faceSchema = z.enum(FACES as unknown as [Face, ...Face[]]);

export const twidMoveSchema: z.ZodType<TwidMove> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('roll'), dice: z.array(faceSchema).min(1).max(16) }),
  z.object({ type: z.literal('keep'), face: faceSchema }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('take'), tile: z.number().int() }),
  z.object({ type: z.literal('steal'), tile: z.number().int() }),
]);

/** One character per die in a roll: 1–5, and w for the worm. */
export function faceChar(face: Face): string {
  return face === 'worm' ? 'w' : face;
}

/** Reads a face from text: 1–5, and the worm as `w`, `worm` or `6` (a d6 stand-in). */
export function parseFace(text: string): Face | null {
  const t = text.toLowerCase();
  if (t === 'w' || t === 'worm' || t === '6') return 'worm';
  return (['1', '2', '3', '4', '5'] as const).find((f) => f === t) ?? null;
}

export function moveText(move: TwidMove): string {
  switch (move.type) {
    case 'roll':
      return `roll ${move.dice.map(faceChar).join('')}`;
    case 'keep':
      return `keep ${move.face}`;
    case 'stop':
      return 'stop';
    case 'take':
    case 'steal':
      return `${move.type} ${move.tile}`;
  }
}

/** Parses move text; throws with the offending text (it is a test and tooling helper). */
export function parseMove(text: string): TwidMove {
  const [verb, arg, ...rest] = text.trim().split(/\s+/);
  const bad = (why: string) => new Error(`bad move text "${text}": ${why}`);
  if (rest.length) throw bad('too many words');
  switch (verb) {
    case 'roll': {
      if (!arg) throw bad('no dice');
      const dice = [...arg.replace(/[-,]/g, '')].map((c) => parseFace(c) ?? (() => { throw bad(`"${c}" is not a face`); })());
      if (dice.length === 0) throw bad('no dice');
      return { type: 'roll', dice };
    }
    case 'keep': {
      const face = arg ? parseFace(arg) : null;
      if (!face) throw bad('keep needs a face: 1–5 or worm');
      return { type: 'keep', face };
    }
    case 'stop':
      if (arg) throw bad('stop takes nothing');
      return { type: 'stop' };
    case 'take':
    case 'steal': {
      // Digits only: Number() would also read "0x1a" as 26 and "1e1" as 10.
      if (!arg || !/^\d+$/.test(arg)) throw bad(`${verb} needs a tile number`);
      const tile = Number(arg);
      return { type: verb, tile };
    }
    default:
      throw bad('expected roll, keep, stop, take or steal');
  }
}
