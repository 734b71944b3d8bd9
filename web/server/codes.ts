/**
 * The table's two codes. Players join with the short join code, shown on the referee's screen
 * and in the terminal's QR code. The referee code is longer and is printed only in the terminal
 * (or fixed in the config for a Pi without a screen); a referee's phone shows both, so a referee
 * can bring in a second referee. Both survive restarts so phones rejoin by themselves.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { readFile, rename } from 'node:fs/promises';
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

/**
 * Reads `codes.json` from the data folder, creating it on the first start. Config wins. A file
 * that cannot be read as codes is said, kept aside as `codes.json.corrupt-<ms>` (the phones'
 * codes change: a screenless Pi's referee must read the new ones in the log) and replaced.
 */
export async function loadCodes(dataDir: string, fixed: Partial<TableCodes> = {}, warn: (message: string) => void = () => {}, now: () => number = Date.now): Promise<TableCodes> {
  const file = path.join(dataDir, 'codes.json');
  let stored: TableCodes | null = null;
  let text: string | null = null;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read the table's codes in ${file}: ${(error as Error).message}`);
  }
  if (text !== null) {
    let why: string | null = null;
    try {
      const parsed = fileSchema.safeParse(JSON.parse(text));
      if (parsed.success && parsed.data.joinCode.toUpperCase() === parsed.data.refereeCode.toUpperCase()) why = 'the join code and the referee code are the same';
      else if (parsed.success) stored = parsed.data;
      else why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    } catch (error) {
      why = (error as Error).message;
    }
    if (why !== null) {
      const aside = `${file}.corrupt-${now()}`;
      await rename(file, aside);
      warn(`codes: ${file} could not be read (${why}); kept as ${path.basename(aside)}, and new codes made: phones must join again with them`);
    }
  }
  const codes: TableCodes = {
    joinCode: (fixed.joinCode ?? stored?.joinCode ?? generateCode(JOIN_CODE_LENGTH)).toUpperCase(),
    refereeCode: (fixed.refereeCode ?? stored?.refereeCode ?? generateCode(REFEREE_CODE_LENGTH)).toUpperCase(),
  };
  if (codes.joinCode === codes.refereeCode) {
    const from = fixed.joinCode || fixed.refereeCode ? 'the config (table.joinCode, table.refereeCode)' : file;
    throw new Error(`the join code and the referee code must differ (both ${codes.joinCode}, from ${from})`);
  }
  if (!stored || stored.joinCode !== codes.joinCode || stored.refereeCode !== codes.refereeCode) {
    await writeFileAtomic(file, JSON.stringify(codes, null, 2) + '\n');
  }
  return codes;
}
