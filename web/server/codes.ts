/**
 * The table's two codes. Players join with the short join code, shown on the referee's screen
 * and in the terminal's QR code. The referee code is longer and is printed only in the terminal
 * (or fixed in the config for a Pi without a screen); a referee's phone shows both, so a referee
 * can bring in a second referee. Both survive restarts so phones rejoin by themselves.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './log.js';

export interface TableCodes {
  joinCode: string;
  refereeCode: string;
}

/** No 0/O, 1/I/L: a code read across a table is typed without guessing. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const JOIN_CODE_LENGTH = 5;
export const REFEREE_CODE_LENGTH = 8;

export const codeSchema = z
  .string()
  .regex(/^[A-Za-z0-9]{4,16}$/, 'a code is 4 to 16 letters or digits');

export function generateCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** Case-insensitive, in constant time, so a code cannot be guessed a letter at a time. */
export function codeMatches(given: string, expected: string): boolean {
  const a = Buffer.from(given.trim().toUpperCase());
  const b = Buffer.from(expected.toUpperCase());
  return a.length === b.length && timingSafeEqual(a, b);
}

const fileSchema = z.object({ joinCode: codeSchema, refereeCode: codeSchema });

/** Reads `codes.json` from the data folder, creating it on the first start. Config wins. */
export async function loadCodes(dataDir: string, fixed: Partial<TableCodes> = {}): Promise<TableCodes> {
  const file = path.join(dataDir, 'codes.json');
  let stored: TableCodes | null = null;
  try {
    const parsed = fileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (parsed.success) stored = parsed.data;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
  }
  const codes: TableCodes = {
    joinCode: (fixed.joinCode ?? stored?.joinCode ?? generateCode(JOIN_CODE_LENGTH)).toUpperCase(),
    refereeCode: (fixed.refereeCode ?? stored?.refereeCode ?? generateCode(REFEREE_CODE_LENGTH)).toUpperCase(),
  };
  if (codes.joinCode === codes.refereeCode) throw new Error('config: the join code and the referee code must differ');
  if (!stored || stored.joinCode !== codes.joinCode || stored.refereeCode !== codes.refereeCode) {
    await writeFileAtomic(file, JSON.stringify(codes, null, 2) + '\n');
  }
  return codes;
}
