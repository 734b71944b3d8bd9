/**
 * A seat's id, as every game's setup takes it. The engines keep bids, scores and hands in objects
 * keyed by it, so an id that names a built-in property of every object ("__proto__",
 * "constructor", "toString") would set a prototype or read a function: a Worm-up seat
 * "__proto__" could never reveal its bid. Such ids are refused where the table is set up.
 */
import { z } from 'zod';

export function isReservedId(id: string): boolean {
  return id in Object.prototype;
}

export const playerIdSchema = z
  .string()
  .min(1)
  .max(64)
  .refine((id) => !isReservedId(id), { error: (iss) => `"${String(iss.input)}" cannot be a player id (it names a built-in property of JavaScript objects); use letters and digits such as p1` });
