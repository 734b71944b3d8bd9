/**
 * "Show clew the empty tray". The referee clears the tray and asks (`tray/learn`): the table
 * camera's newest frame becomes the empty tray its later frames are compared with (vision's
 * locate/tray-reference.ts), kept as `CLEW_DATA/tray/camera.jpg` and taken up again at the next
 * start. `tray/forget` goes back to modelling the tray from each frame. The phones see the state
 * in the snapshot's `tray`, `moved` included: a frame that no longer fits it (the camera was
 * knocked, the tray swapped) is read as without it until the tray is shown empty again.
 *
 * Nobody has to ask (`vision.autoTray`, on by default): when the camera's frames settle with no
 * die found and no empty tray fits (none yet, or the camera moved), that still frame is taken as
 * the empty tray. Between two rolls the tray lies empty and still often enough. A frame whose
 * dice the modelled tray missed can be taken too; once those dice are moved, most such trays no
 * longer fit (the dice were its strongest edges) and the next empty frame replaces it
 * (docs/notes/server.md). `tray/forget` turns this off until the tray is shown again.
 *
 * Like a calibration this is not a table event: it changes how dice are found, not the game.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { fail, ok, type Result } from '../../shared/game.js';
import type { Intent, TrayStatus } from '../../shared/protocol.js';
import type { TrayReference } from '../../vision/locate/tray-reference.js';
import type { RgbImage } from '../../vision/types.js';
import type { CameraPipeline } from './camera.js';
import { writeFileAtomic } from './log.js';
import type { Logger } from './logger.js';
import { NO_TRAY } from './view.js';

export type TrayIntent = Extract<Intent, { type: 'tray/learn' | 'tray/forget' }>;

export interface TableTrayOptions {
  /** Where the empty tray is kept (`CLEW_DATA/tray`). */
  dir: string;
  /** The table camera's pipeline, if the table has one. */
  pipeline: () => CameraPipeline | null;
  decode(jpeg: Uint8Array): Promise<RgbImage>;
  /** The locator's working size (vision's LocateOptions.maxSide; default 640). */
  maxSide?: number;
  /** Take a still frame with no dice as the empty tray where none fits (`vision.autoTray`; default true). */
  auto?: boolean;
  /** Told when the tray was taken by itself (the phones see it). */
  onChange?: () => void;
  logger: Logger;
  now(): number;
}

/** What is kept beside the picture: who showed it, and whether clew may take one by itself. */
const keptState = z.object({ auto: z.boolean(), learnedAt: z.number().optional(), autoOff: z.boolean() });
type KeptState = z.infer<typeof keptState>;

export class TableTray {
  private learnedAt: number | null = null;
  /** The tray in use was taken by clew itself, not shown by the referee. */
  private takenByItself = false;
  /** `tray/forget` said: do not take one by itself until the tray is shown again. */
  private autoOff = false;
  /** A still frame is being judged or taken (frames settle faster than a tray is learned). */
  private taking = false;
  /** The tray's changes, one after another (oneAtATime). */
  private changes: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: TableTrayOptions) {}

  private get file(): string {
    return path.join(this.opts.dir, 'camera.jpg');
  }

  private get stateFile(): string {
    return path.join(this.opts.dir, 'state.json');
  }

  private get auto(): boolean {
    return (this.opts.auto ?? true) && !this.autoOff;
  }

  /** Takes up the empty tray kept by an earlier run, if any (a damaged file is said and set aside). */
  async load(): Promise<void> {
    const pipeline = this.opts.pipeline();
    if (!pipeline) return;
    const kept = await this.readState();
    this.autoOff = kept?.autoOff ?? false;
    let jpeg: Uint8Array;
    try {
      jpeg = new Uint8Array(await readFile(this.file));
    } catch {
      return; // none kept
    }
    try {
      pipeline.setTray(await this.learn(await this.opts.decode(jpeg)));
      this.learnedAt = kept?.learnedAt ?? this.opts.now();
      this.takenByItself = kept?.auto ?? false;
      this.opts.logger.info(`tray: the empty tray kept in ${this.file} is in use`);
    } catch (error) {
      this.opts.logger.warn(`tray: ${this.file} could not be used (${(error as Error).message}); the tray is modelled from each frame`);
      await rm(this.file, { force: true });
    }
  }

  /**
   * The referee's intent, after any tray being taken by itself is kept: a `tray/forget` while a
   * still frame was being written as the tray brought that tray back once the write was done.
   */
  handle(intent: TrayIntent): Promise<Result<unknown>> {
    return this.oneAtATime(() => this.handleNow(intent));
  }

  /** Runs `work` after the tray's earlier changes, never beside one. */
  private oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = this.changes.then(work, work);
    this.changes = run.catch(() => undefined);
    return run;
  }

  private async handleNow(intent: TrayIntent): Promise<Result<unknown>> {
    const pipeline = this.opts.pipeline();
    if (!pipeline) return fail('camera/none', 'this table has no tray camera');
    if (intent.type === 'tray/forget') {
      pipeline.setTray(null);
      this.learnedAt = null;
      this.takenByItself = false;
      this.autoOff = true;
      await rm(this.file, { force: true });
      await this.writeState();
      this.opts.logger.info('tray: forgotten; the tray is modelled from each frame until it is shown empty again');
      return ok(null);
    }
    let frame, tray;
    try {
      frame = await pipeline.newestFrame();
      if (!frame) return fail('camera/no-frame', pipeline.notDelivering() ?? 'no frame from the tray camera yet');
      tray = await this.learn(frame.image);
    } catch (error) {
      return fail('camera/bad-frame', `the empty tray could not be learned from the camera's newest frame: ${(error as Error).message}`);
    }
    await this.keep(pipeline, frame, tray, false);
    this.opts.logger.info(`tray: the empty tray learned from a ${frame.image.width}×${frame.image.height} frame, kept in ${this.file}`);
    return ok(null);
  }

  /**
   * The camera's frames settled with no die found (CameraPipeline's `onSettledEmpty`): where no
   * empty tray fits and clew may take one, this frame becomes it, if the locator with the tray
   * modelled finds no die in it either (the settled roll's vote drops a die seen in too few frames).
   */
  async settledEmpty(frame: { jpeg: Uint8Array; image: RgbImage }): Promise<boolean> {
    if (this.taking) return false;
    this.taking = true;
    try {
      return await this.oneAtATime(() => this.takeIfEmpty(frame));
    } finally {
      this.taking = false;
    }
  }

  private async takeIfEmpty(frame: { jpeg: Uint8Array; image: RgbImage }): Promise<boolean> {
    const pipeline = this.opts.pipeline();
    if (!pipeline || !this.auto) return false;
    const { tray, fit } = pipeline.trayState();
    // In use and fitting (or not judged yet): nothing to take.
    if (tray && fit?.used !== false) return false;
    try {
      const { looksEmpty } = await import('../../vision/empty-tray.js');
      if (!looksEmpty(frame.image, this.opts.maxSide)) return false;
      const learned = await this.learn(frame.image, 0);
      // Forgotten or shown by the referee meanwhile: theirs stands.
      if (!this.auto || pipeline.trayState().tray !== tray) return false;
      await this.keep(pipeline, frame, learned, true);
      this.opts.logger.info(`tray: ${tray ? 'the frames no longer fitted the empty tray; ' : ''}a still frame with no dice taken as the empty tray, kept in ${this.file}`);
      this.opts.onChange?.();
      return true;
    } catch (error) {
      this.opts.logger.warn(`tray: a still frame with no dice could not be taken as the empty tray: ${(error as Error).message}`);
      return false;
    }
  }

  status(): TrayStatus {
    const pipeline = this.opts.pipeline();
    const state = pipeline?.trayState();
    if (!state?.tray || this.learnedAt === null) {
      if (!pipeline) return NO_TRAY;
      if (this.auto) return { state: 'none', auto: true, message: 'clew takes it by itself the next time the tray lies still with no dice on it' };
      if (this.autoOff) return { state: 'none', auto: false, message: 'forgotten: the tray is modelled from each frame until it is shown empty again' };
      return { ...NO_TRAY, auto: false };
    }
    const at = { learnedAt: this.learnedAt, ...(this.takenByItself ? { auto: true } : {}) };
    if (state.fit && !state.fit.used) {
      const why = state.fit.reason === 'size' ? 'the camera now sends frames of another size' : 'the camera moved, the tray changed, or it was not empty when shown';
      const again = this.auto ? 'clew takes it again by itself the next time the tray lies still with no dice on it, or show it' : 'show clew the empty tray again';
      return { state: 'moved', ...at, message: `the last frame no longer fits the empty tray (${why}): ${again}` };
    }
    const how = this.takenByItself ? 'taken by clew from a still frame with no dice; ' : '';
    return { state: 'learned', ...at, message: `${how}the dice are found by comparing each frame with the empty tray` };
  }

  private async keep(pipeline: CameraPipeline, frame: { jpeg: Uint8Array }, tray: TrayReference, auto: boolean): Promise<void> {
    await mkdir(this.opts.dir, { recursive: true });
    await writeFileAtomic(this.file, frame.jpeg);
    pipeline.setTray(tray);
    this.learnedAt = this.opts.now();
    this.takenByItself = auto;
    // Shown by the referee: clew may take one by itself again (the camera may move later).
    if (!auto) this.autoOff = false;
    await this.writeState();
  }

  private async readState(): Promise<KeptState | null> {
    let text: string;
    try {
      text = await readFile(this.stateFile, 'utf8');
    } catch {
      return null;
    }
    try {
      return keptState.parse(JSON.parse(text));
    } catch (error) {
      this.opts.logger.warn(`tray: ${this.stateFile} is not what clew writes (${(error as Error).message.split('\n')[0]}); set aside`);
      await rm(this.stateFile, { force: true });
      return null;
    }
  }

  private async writeState(): Promise<void> {
    await mkdir(this.opts.dir, { recursive: true });
    const state: KeptState = { auto: this.takenByItself, autoOff: this.autoOff, ...(this.learnedAt !== null ? { learnedAt: this.learnedAt } : {}) };
    await writeFileAtomic(this.stateFile, JSON.stringify(state));
  }

  /** `modelledSees`: the dice the modelled locator found in it, where just counted (none, after `looksEmpty`). */
  private async learn(image: RgbImage, modelledSees?: number): Promise<TrayReference> {
    const { learnEmptyTray } = await import('../../vision/empty-tray.js');
    return learnEmptyTray(image, this.opts.maxSide, modelledSees);
  }
}
