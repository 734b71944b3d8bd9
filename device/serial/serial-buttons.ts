/**
 * The USB serial button box (any microcontroller: Arduino, Pico…): PRESS/RELEASE lines become
 * button events, a button held `holdMs` without its RELEASE also sends `hold`. The port is opened
 * at 115200 baud; clew sends `HELLO?` so the box can say who it is. A box that is unplugged is
 * reported, its pressed buttons are released, and the port is reopened with back-off.
 */
import type { ButtonName } from '../../shared/game.js';
import { ButtonEmitter } from '../buttons/emitter.js';
import { systemClock, type Clock, type TimerHandle } from '../clock.js';
import { silentLogger, type Logger } from '../log.js';
import { formatMs } from '../camera/process-camera.js';
import { feedLines, initialLineState, type LineState, type SerialMessage } from './line-parser.js';
import { closePort, openPort, openRealPort, type PortFactory, type SerialPortLike } from './port.js';

export interface SerialButtonsOptions {
  path: string;
  baudRate: number;
  holdMs: number;
  log?: Logger;
  clock?: Clock;
  openPort?: PortFactory;
  reconnect?: { minMs: number; maxMs: number };
}

/** After this many ignored lines, warnings are summarised (a noisy box must not flood the log). */
const WARN_LIMIT = 5;

export class SerialButtons extends ButtonEmitter {
  private port: SerialPortLike | null = null;
  private lines: LineState = initialLineState();
  private running = false;
  private failures = 0;
  private retry: TimerHandle | null = null;
  private readonly holds = new Map<ButtonName, TimerHandle | null>();
  private ignored = 0;
  private readonly clock: Clock;
  /** The box's HELLO, once heard. */
  box: { name: string; version: string } | null = null;

  constructor(private readonly options: SerialButtonsOptions) {
    super('serial', options.log ?? silentLogger);
    this.clock = options.clock ?? systemClock;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.failures = 0;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.retry) this.clock.clearTimeout(this.retry);
    this.retry = null;
    this.releaseAll(false);
    const port = this.port;
    this.port = null;
    if (port) {
      port.removeAllListeners();
      port.on('error', () => {});
      await closePort(port);
    }
    this.setStatus(false, 'stopped', true);
  }

  private async connect(): Promise<void> {
    this.retry = null;
    if (!this.running) return;
    const { path, baudRate } = this.options;
    const port = (this.options.openPort ?? openRealPort)({ path, baudRate });
    try {
      await openPort(port);
    } catch (error) {
      // Stopped while it was opening: nothing to retry, and the status stays "stopped".
      if (this.running) this.scheduleReconnect(`cannot open ${path}: ${(error as Error).message}`);
      return;
    }
    if (!this.running) {
      await closePort(port);
      return;
    }
    this.port = port;
    this.lines = initialLineState();
    port.on('data', (chunk: Buffer) => this.onData(chunk));
    port.on('error', (error: Error) => this.log.warn(`serial ${path}: ${error.message}`));
    port.on('close', () => {
      if (this.port !== port) return;
      this.port = null;
      this.releaseAll(true);
      if (this.running) this.scheduleReconnect(`serial box at ${path} disconnected`);
    });
    this.failures = 0;
    port.write('HELLO?\n');
    this.setStatus(true, this.box ? `serial box ${this.box.name} ${this.box.version} on ${path}` : `serial box on ${path}`);
  }

  private scheduleReconnect(why: string): void {
    const { minMs, maxMs } = this.options.reconnect ?? { minMs: 1000, maxMs: 30_000 };
    const delay = Math.min(maxMs, minMs * 2 ** this.failures);
    this.failures++;
    this.setStatus(false, `${why}; retrying in ${formatMs(delay)}`);
    this.retry = this.clock.setTimeout(() => void this.connect(), delay);
  }

  private onData(chunk: Uint8Array): void {
    const step = feedLines(this.lines, chunk);
    this.lines = step.state;
    for (const message of step.messages) this.handle(message);
  }

  private handle(message: SerialMessage): void {
    switch (message.kind) {
      case 'hello':
        // Said at the box's boot too: a box that restarted has no button down, whatever came before.
        this.releaseAll(true);
        this.box = { name: message.name, version: message.version };
        this.setStatus(true, `serial box ${message.name} ${message.version} on ${this.options.path}`.replace(/\s+on/, ' on'));
        return;
      case 'press':
        if (this.holds.has(message.button)) return; // already down: a repeated PRESS changes nothing
        this.holds.set(
          message.button,
          this.clock.setTimeout(() => {
            this.holds.set(message.button, null);
            this.emit('hold', message.button);
          }, this.options.holdMs),
        );
        this.emit('press', message.button);
        return;
      case 'release':
        if (!this.holds.has(message.button)) return; // a RELEASE without its PRESS (lost on connect)
        this.endPress(message.button, true);
        return;
      case 'ignored':
        this.ignored++;
        if (this.ignored <= WARN_LIMIT) this.log.warn(`serial: ignored line "${message.line}" (${message.reason})`);
        else if (this.ignored % 100 === 0) this.log.warn(`serial: ${this.ignored} lines ignored so far (last: "${message.line}", ${message.reason})`);
    }
  }

  private endPress(button: ButtonName, emit: boolean): void {
    const timer = this.holds.get(button);
    if (timer) this.clock.clearTimeout(timer);
    this.holds.delete(button);
    if (emit) this.emit('release', button);
  }

  private releaseAll(emit: boolean): void {
    for (const button of [...this.holds.keys()]) this.endPress(button, emit);
  }
}

export interface DetectedBox {
  path: string;
  name: string;
  version: string;
}

/**
 * Asks every candidate port at once (`HELLO?`) and returns the first whose first line within
 * `detectMs` is a HELLO. Every port opened is closed again before this returns.
 */
export async function detectSerialBox(
  candidates: readonly string[],
  options: { baudRate: number; detectMs: number; openPort?: PortFactory; clock?: Clock; log?: Logger },
): Promise<DetectedBox | null> {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const ask = async (path: string): Promise<DetectedBox | null> => {
    const port = (options.openPort ?? openRealPort)({ path, baudRate: options.baudRate });
    try {
      await openPort(port);
    } catch (error) {
      log.info(`serial: ${path} cannot be opened (${(error as Error).message})`);
      return null;
    }
    port.on('error', () => {});
    const answer = await new Promise<DetectedBox | null>((resolve) => {
      let state = initialLineState();
      const timer = clock.setTimeout(() => resolve(null), options.detectMs);
      port.on('data', (chunk: Buffer) => {
        const step = feedLines(state, chunk);
        state = step.state;
        const first = step.messages[0];
        if (!first) return;
        clock.clearTimeout(timer);
        resolve(first.kind === 'hello' ? { path, name: first.name, version: first.version } : null);
      });
      port.on('close', () => resolve(null));
      port.write('HELLO?\n');
    });
    port.removeAllListeners();
    port.on('error', () => {});
    await closePort(port);
    if (!answer) log.info(`serial: ${path} did not say HELLO within ${formatMs(options.detectMs)}`);
    return answer;
  };
  const answers = await Promise.all(candidates.map(ask));
  return answers.find((a) => a !== null) ?? null;
}
