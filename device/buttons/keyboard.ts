/**
 * Terminal keys as buttons, the fallback when no GPIO or serial box is there:
 * n = NEXT, b = BACK, r = READ, o or Enter = OK; the capital letter (N, B, R, O) is a hold.
 * On a TTY, stdin goes to raw mode (one key at a time) and is restored on stop; Ctrl-C still
 * interrupts. Piped stdin is read a line at a time (`n`, `next`, an empty line = OK), which is how
 * scripts and tests drive it. Stdin that ends (or is /dev/null, as under systemd's
 * `StandardInput=null`) can never give a button: the status says so instead of "ok".
 */
import { fstatSync } from 'node:fs';
import type { ButtonName } from '../../shared/game.js';
import { silentLogger, type Logger } from '../log.js';
import { ButtonEmitter, isButtonName } from './emitter.js';

export interface KeyAction {
  button: ButtonName;
  hold: boolean;
}

const KEYS: Record<string, ButtonName> = { n: 'NEXT', b: 'BACK', r: 'READ', o: 'OK' };

/**
 * A terminal's escape sequences (arrow keys, function keys, Alt+key): CSI `ESC [ … final`, SS3
 * `ESC O x`, or ESC and one character. None is a button, wherever it sits in a chunk (fast typing
 * or an SSH session puts several keys in one).
 */
const ESCAPE_SEQUENCE = /\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|O.|.)?/gs;

/** Raw mode: the actions in one chunk of keystrokes. Escape sequences (arrow keys…) are skipped. */
export function keysToActions(chunk: string): KeyAction[] {
  const out: KeyAction[] = [];
  for (const ch of chunk.replace(ESCAPE_SEQUENCE, '')) {
    if (ch === '\r' || ch === '\n') out.push({ button: 'OK', hold: false });
    const lower = ch.toLowerCase();
    const button = KEYS[lower];
    if (button) out.push({ button, hold: ch !== lower });
  }
  return out;
}

/** Line mode: one line is one action (`n`, `N`, `next`, `hold next`, or empty for OK); null if unknown. */
export function lineToAction(line: string): KeyAction | null {
  const text = line.trim();
  if (text === '') return { button: 'OK', hold: false };
  const hold = /^hold\s+/i.test(text);
  const word = text.replace(/^hold\s+/i, '');
  if (isButtonName(word.toUpperCase()) && word.length > 1) return { button: word.toUpperCase() as ButtonName, hold };
  const button = word.length === 1 ? KEYS[word.toLowerCase()] : undefined;
  return button ? { button, hold: hold || word !== word.toLowerCase() } : null;
}

/** The bits of process.stdin the keyboard uses (a PassThrough or a fake TTY in tests). */
export interface KeyboardInput {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  isRaw?: boolean;
  /** process.stdin's descriptor (0); absent on a PassThrough. */
  fd?: number | null;
  readableEnded?: boolean;
  setEncoding(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  removeListener(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  removeListener(event: 'end', listener: () => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export const STDIN_CLOSED = 'stdin closed: no keyboard buttons';

/**
 * Why this input can never give a button, or null if it may: it has ended, or it is a device
 * that is not a terminal (/dev/null: a systemd service, `< /dev/null`, a closed stdin, which
 * Node reopens as /dev/null). A terminal, a pipe, a socket or a file may.
 */
export function keyboardInputClosed(input: KeyboardInput): string | null {
  if (input.readableEnded) return 'stdin has ended';
  if (input.isTTY || typeof input.fd !== 'number') return null;
  try {
    return fstatSync(input.fd).isCharacterDevice() ? 'stdin is /dev/null or another device that is not a terminal' : null;
  } catch {
    return 'stdin is closed';
  }
}

export interface KeyboardOptions {
  input?: KeyboardInput;
  log?: Logger;
  /** Ctrl-C in raw mode (default: send SIGINT to this process, so shutdown runs as usual). */
  onInterrupt?: () => void;
}

export class KeyboardButtons extends ButtonEmitter {
  private readonly input: KeyboardInput;
  private listener: ((chunk: string | Buffer) => void) | null = null;
  private readonly onEnd = (): void => {
    // A last line without its newline still counts.
    if (!this.rawMode && this.pendingLine !== '') this.onData('\n');
    if (this.current.ok) this.setStatus(false, STDIN_CLOSED);
  };
  private wasRaw = false;
  private rawMode = false;
  private pendingLine = '';

  constructor(private readonly options: KeyboardOptions = {}) {
    super('keyboard', options.log ?? silentLogger);
    this.input = options.input ?? process.stdin;
  }

  async start(): Promise<void> {
    if (this.listener) return;
    this.rawMode = Boolean(this.input.isTTY && this.input.setRawMode);
    if (this.rawMode) {
      this.wasRaw = Boolean(this.input.isRaw);
      this.input.setRawMode!(true);
    }
    this.input.setEncoding('utf8');
    this.listener = (chunk) => this.onData(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    this.input.on('data', this.listener);
    this.input.on('end', this.onEnd);
    this.input.resume();
    const closed = keyboardInputClosed(this.input);
    if (closed) this.setStatus(false, `${STDIN_CLOSED} (${closed})`);
    else this.setStatus(true, this.rawMode ? 'keys n=NEXT b=BACK r=READ o/Enter=OK (capital = hold)' : 'reading button lines from stdin');
  }

  async stop(): Promise<void> {
    if (!this.listener) return;
    this.input.removeListener('data', this.listener);
    this.input.removeListener('end', this.onEnd);
    this.listener = null;
    if (this.rawMode) this.input.setRawMode!(this.wasRaw);
    this.input.pause();
    this.setStatus(false, 'stopped', true);
  }

  private onData(chunk: string): void {
    if (this.rawMode) {
      if (chunk.includes('\x03')) {
        (this.options.onInterrupt ?? (() => process.kill(process.pid, 'SIGINT')))();
        return;
      }
      for (const action of keysToActions(chunk)) this.act(action);
      return;
    }
    const lines = (this.pendingLine + chunk).split(/\r?\n/);
    this.pendingLine = lines.pop() ?? '';
    if (this.pendingLine.length > 256) this.pendingLine = '';
    for (const line of lines) {
      const action = lineToAction(line);
      if (action) this.act(action);
      else this.log.warn(`buttons keyboard: ignored input line ${JSON.stringify(line.slice(0, 40))} (try n, b, r, o)`);
    }
  }

  /** A key has no release of its own: press then release (with hold between for a capital). */
  private act({ button, hold }: KeyAction): void {
    this.emit('press', button);
    if (hold) this.emit('hold', button);
    this.emit('release', button);
  }
}
