/**
 * A camera that is a child process writing MJPEG to stdout (rpicam-vid, ffmpeg). It is supervised:
 * a process that cannot start, exits, or stops delivering frames for `stallMs` is reported in
 * status() and restarted with exponential back-off (reset by the next good frame). stop() ends
 * the process (SIGTERM, then SIGKILL) and waits for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { signalChild } from '../child-signal.js';
import type { Clock, TimerHandle } from '../clock.js';
import type { Logger } from '../log.js';
import { CameraBase } from './camera-base.js';
import { MjpegSplitter } from './mjpeg-splitter.js';

export interface ProcessCameraOptions {
  bin: string;
  args: string[];
  /** No frame for this long (after the first) restarts the process. */
  stallMs: number;
  /** Allowance for the first frame (camera start-up, auto-exposure): default max(stallMs, 10 s). */
  firstFrameMs?: number;
  restart: { minMs: number; maxMs: number };
  log: Logger;
  clock: Clock;
  /** Grace between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** The process ends by itself when done (a video played once): exit code 0 ends the stream instead of a restart. */
  finite?: boolean;
}

const STDERR_LINES = 5;

export class ProcessCamera extends CameraBase {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private running = false;
  private failures = 0;
  private gotFrame = false;
  private watchdog: TimerHandle | null = null;
  private retry: TimerHandle | null = null;
  private stderrTail: string[] = [];
  private readonly name: string;

  constructor(
    kind: string,
    private readonly options: ProcessCameraOptions,
  ) {
    super(kind, options.log, options.clock);
    this.name = options.bin.split('/').pop() ?? options.bin;
  }

  /** The command line, for logs and tests. */
  get commandLine(): string {
    return [this.options.bin, ...this.options.args].join(' ');
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.failures = 0;
    this.hub.reopen();
    this.log.info(`camera ${this.kind}: ${this.commandLine}`);
    this.launch();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.clearTimer('retry');
    this.clearTimer('watchdog');
    this.terminate();
    await this.exited;
    this.hub.close();
    this.setStatus(false, 'stopped', true);
  }

  private launch(): void {
    this.retry = null;
    if (!this.running) return;
    const splitter = new MjpegSplitter();
    this.gotFrame = false;
    this.stderrTail = [];
    this.setStatus(false, `starting ${this.name}`, true);
    let child: ChildProcess;
    try {
      child = spawn(this.options.bin, this.options.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      this.failed(`${this.name} could not be started: ${(error as Error).message}`);
      return;
    }
    this.child = child;
    let spawnError: Error | null = null;
    this.exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        this.clearTimer('watchdog');
        if (this.child === child) this.child = null;
        resolve();
        if (!this.running) return;
        if (this.options.finite && code === 0 && !spawnError) {
          this.running = false;
          this.setStatus(true, `${this.name} finished`);
          this.hub.close();
          return;
        }
        const why = spawnError
          ? (spawnError as NodeJS.ErrnoException).code === 'ENOENT'
            ? `${this.name} not found (is it installed and on PATH?)`
            : `${this.name} could not be started: ${spawnError.message}`
          : `${this.name} exited (${signal ? `signal ${signal}` : `code ${code}`})` + (this.stderrTail.length ? `: ${this.stderrTail.at(-1)}` : '');
        this.failed(why);
      });
    });
    child.once('error', (error) => {
      spawnError = error;
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const jpeg of splitter.push(chunk)) this.frame(jpeg);
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      for (const line of text.split(/\r?\n/)) if (line.trim()) this.stderrTail.push(line.trim().slice(0, 200));
      this.stderrTail.splice(0, Math.max(0, this.stderrTail.length - STDERR_LINES));
    });
    this.arm(this.options.firstFrameMs ?? Math.max(this.options.stallMs, 10_000));
  }

  private frame(jpeg: Uint8Array): void {
    if (!this.gotFrame) {
      this.gotFrame = true;
      this.failures = 0;
      this.setStatus(true, `streaming from ${this.name}`);
    }
    this.emit(jpeg);
    this.arm(this.options.stallMs);
  }

  private arm(ms: number): void {
    this.clearTimer('watchdog');
    this.watchdog = this.clock.setTimeout(() => {
      this.watchdog = null;
      this.setStatus(false, `no frame from ${this.name} for ${formatMs(ms)}; restarting it`);
      // The close handler schedules the restart.
      this.terminate();
    }, ms);
  }

  private failed(why: string): void {
    const { minMs, maxMs } = this.options.restart;
    const delay = Math.min(maxMs, minMs * 2 ** this.failures);
    this.failures++;
    this.setStatus(false, `${why}; retrying in ${formatMs(delay)}`);
    this.retry = this.clock.setTimeout(() => this.launch(), delay);
  }

  private terminate(): void {
    const child = this.child;
    if (!child || !signalChild(child, 'SIGTERM')) return;
    const kill = this.clock.setTimeout(() => signalChild(child, 'SIGKILL'), this.options.killGraceMs ?? 2000);
    child.once('close', () => this.clock.clearTimeout(kill));
  }

  private clearTimer(which: 'retry' | 'watchdog'): void {
    const handle = this[which];
    if (handle) this.clock.clearTimeout(handle);
    this[which] = null;
  }
}

/** 400 → "400 ms", 2500 → "2.5 s". */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}
