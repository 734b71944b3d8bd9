/** The camera when config says `none`: never a frame; the table runs on manual dice entry. */
import { systemClock } from '../clock.js';
import { silentLogger, type Logger } from '../log.js';
import { CameraBase } from './camera-base.js';

export class NoCamera extends CameraBase {
  constructor(private readonly reason: string, log: Logger = silentLogger) {
    super('none', log, systemClock);
  }

  async start(): Promise<void> {
    this.hub.reopen();
    this.setStatus(false, this.reason);
  }

  async stop(): Promise<void> {
    this.hub.close();
  }
}
