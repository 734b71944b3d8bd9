/**
 * "Show clew the empty tray". The referee clears the tray and asks (`tray/learn`): the table
 * camera's newest frame becomes the empty tray its later frames are compared with (vision's
 * locate/tray-reference.ts), kept as `CLEW_DATA/tray/camera.jpg` and taken up again at the next
 * start. `tray/forget` goes back to modelling the tray from each frame. The phones see the state
 * in the snapshot's `tray`, `moved` included: a frame that no longer fits it (the camera was
 * knocked, the tray swapped) is read as without it until the tray is shown empty again.
 *
 * Like a calibration this is not a table event: it changes how dice are found, not the game.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fail, ok, type Result } from '../../shared/game.js';
import type { Intent, TrayStatus } from '../../shared/protocol.js';
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
  logger: Logger;
  now(): number;
}

export class TableTray {
  private learnedAt: number | null = null;

  constructor(private readonly opts: TableTrayOptions) {}

  private get file(): string {
    return path.join(this.opts.dir, 'camera.jpg');
  }

  /** Takes up the empty tray kept by an earlier run, if any (a damaged file is said and set aside). */
  async load(): Promise<void> {
    const pipeline = this.opts.pipeline();
    if (!pipeline) return;
    let jpeg: Uint8Array;
    try {
      jpeg = new Uint8Array(await readFile(this.file));
    } catch {
      return; // none kept
    }
    try {
      pipeline.setTray(await this.learn(await this.opts.decode(jpeg)));
      this.learnedAt = this.opts.now();
      this.opts.logger.info(`tray: the empty tray kept in ${this.file} is in use`);
    } catch (error) {
      this.opts.logger.warn(`tray: ${this.file} could not be used (${(error as Error).message}); the tray is modelled from each frame`);
      await rm(this.file, { force: true });
    }
  }

  async handle(intent: TrayIntent): Promise<Result<unknown>> {
    const pipeline = this.opts.pipeline();
    if (!pipeline) return fail('camera/none', 'this table has no tray camera');
    if (intent.type === 'tray/forget') {
      pipeline.setTray(null);
      this.learnedAt = null;
      await rm(this.file, { force: true });
      this.opts.logger.info('tray: forgotten; the tray is modelled from each frame');
      return ok(null);
    }
    let frame, tray;
    try {
      frame = await pipeline.newestFrame();
      if (!frame) return fail('camera/no-frame', 'no frame from the tray camera yet');
      tray = await this.learn(frame.image);
    } catch (error) {
      return fail('camera/bad-frame', `the empty tray could not be learned from the camera's newest frame: ${(error as Error).message}`);
    }
    await mkdir(this.opts.dir, { recursive: true });
    await writeFileAtomic(this.file, frame.jpeg);
    pipeline.setTray(tray);
    this.learnedAt = this.opts.now();
    this.opts.logger.info(`tray: the empty tray learned from a ${frame.image.width}×${frame.image.height} frame, kept in ${this.file}`);
    return ok(null);
  }

  status(): TrayStatus {
    const pipeline = this.opts.pipeline();
    const state = pipeline?.trayState();
    if (!state?.tray || this.learnedAt === null) return NO_TRAY;
    const at = { learnedAt: this.learnedAt };
    if (state.fit && !state.fit.used) {
      const why = state.fit.reason === 'size' ? 'the camera now sends frames of another size' : 'the camera moved, the tray changed, or it was not empty when shown';
      return { state: 'moved', ...at, message: `the last frame no longer fits the empty tray (${why}): show clew the empty tray again` };
    }
    return { state: 'learned', ...at, message: 'the dice are found by comparing each frame with the empty tray' };
  }

  private async learn(image: RgbImage) {
    const { learnEmptyTray } = await import('../../vision/empty-tray.js');
    return learnEmptyTray(image, this.opts.maxSide);
  }
}
