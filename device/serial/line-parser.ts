/**
 * The serial button box protocol, as pure functions on bytes (tested on byte fixtures).
 * ASCII lines at 115200 baud, ended by LF, CRLF or CR:
 *   PRESS <NEXT|BACK|READ|OK>     RELEASE <NEXT|BACK|READ|OK>     HELLO <name> <version>
 * Anything else (unknown words, non-ASCII bytes, lines over MAX_LINE bytes) is reported as
 * `ignored` with the reason, and the stream goes on at the next line.
 */
import type { ButtonName } from '../../shared/game.js';
import { isButtonName } from '../buttons/emitter.js';

export const MAX_LINE = 80;

export type SerialMessage =
  | { kind: 'press' | 'release'; button: ButtonName }
  | { kind: 'hello'; name: string; version: string }
  | { kind: 'ignored'; line: string; reason: string };

export interface LineState {
  /** Bytes of the line not yet ended. */
  pending: Uint8Array;
  /** Inside a line already reported as too long: drop bytes to its end. */
  skipping: boolean;
}

export const initialLineState = (): LineState => ({ pending: new Uint8Array(0), skipping: false });

const LF = 0x0a;
const CR = 0x0d;

/** Feeds a chunk of bytes; returns the new state and the messages of the lines it completed. */
export function feedLines(state: LineState, chunk: Uint8Array): { state: LineState; messages: SerialMessage[] } {
  const messages: SerialMessage[] = [];
  let skipping = state.skipping;
  let line: number[] = Array.from(state.pending);
  for (const byte of chunk) {
    if (byte === LF || byte === CR) {
      if (!skipping && line.length > 0) messages.push(parseLine(line));
      line = [];
      skipping = false;
      continue;
    }
    if (skipping) continue;
    line.push(byte);
    if (line.length > MAX_LINE) {
      messages.push({ kind: 'ignored', line: printable(line.slice(0, 24)) + '…', reason: `line longer than ${MAX_LINE} bytes` });
      line = [];
      skipping = true;
    }
  }
  return { state: { pending: Uint8Array.from(line), skipping }, messages };
}

/** One line's bytes (no terminator) as a message. */
export function parseLine(bytes: readonly number[]): SerialMessage {
  const text = printable(bytes);
  if (bytes.some((b) => b > 0x7e || (b < 0x20 && b !== 0x09))) return { kind: 'ignored', line: text, reason: 'not ASCII text' };
  const words = String.fromCharCode(...bytes).trim().split(/[ \t]+/);
  const verb = (words[0] ?? '').toUpperCase();
  if (verb === 'PRESS' || verb === 'RELEASE') {
    const button = (words[1] ?? '').toUpperCase();
    if (words.length !== 2) return { kind: 'ignored', line: text, reason: `${verb} takes one button name` };
    if (!isButtonName(button)) return { kind: 'ignored', line: text, reason: `unknown button "${words[1]}" (NEXT, BACK, READ or OK)` };
    return { kind: verb === 'PRESS' ? 'press' : 'release', button };
  }
  if (verb === 'HELLO') {
    if (words.length < 2 || words.length > 3) return { kind: 'ignored', line: text, reason: 'HELLO takes a name and a version' };
    return { kind: 'hello', name: words[1]!, version: words[2] ?? '' };
  }
  return { kind: 'ignored', line: text, reason: 'not a PRESS, RELEASE or HELLO line' };
}

/** The line as text for logs: non-printable bytes as \xNN. */
function printable(bytes: readonly number[]): string {
  return bytes.map((b) => (b >= 0x20 && b <= 0x7e ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
}
