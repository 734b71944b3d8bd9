/**
 * The tray camera's learnt view, kept over a restart (`vision.view: "auto"`): a Pi restarted in
 * the middle of a game should not read `any` for another 8–33 rolls. One small JSON file in the
 * data folder; a file that cannot be read is reported and ignored (the view is learnt again),
 * and it is removed when the camera moves.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { CAMERA_HYPOTHESES } from '../../vision/model/frame-up.js';
import type { KnownView, ViewLearnerState } from '../../vision/view-learner.js';
import { writeFileAtomic } from './log.js';
import type { Logger } from './logger.js';

const FILE_SHAPE = z.strictObject({
  learnt: z.enum(CAMERA_HYPOTHESES),
  rolls: z.number().int().min(0),
  dice: z.number().int().min(0),
  at: z.string(),
});

export interface ViewMemory {
  /** The view learnt before, if a readable file holds one. */
  load(): KnownView | null;
  /** Keep what was learnt (or forget it: `learnt` null). */
  save(state: Pick<ViewLearnerState, 'learnt' | 'rolls' | 'dice'>): Promise<void>;
}

export function viewMemory(file: string, logger: Logger, now: () => Date = () => new Date()): ViewMemory {
  return {
    load() {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logger.warn(`camera view: ${file} could not be read (${(error as Error).message}); the view is learnt again`);
        return null;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        logger.warn(`camera view: ${file} is not JSON (${(error as Error).message}); the view is learnt again`);
        return null;
      }
      const shape = FILE_SHAPE.safeParse(parsed);
      if (!shape.success) {
        logger.warn(`camera view: ${file} is not a learnt view (${shape.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}); the view is learnt again`);
        return null;
      }
      return { learnt: shape.data.learnt, rolls: shape.data.rolls, dice: shape.data.dice };
    },
    async save(state) {
      if (state.learnt === null) await rm(file, { force: true });
      else await writeFileAtomic(file, JSON.stringify({ learnt: state.learnt, rolls: state.rolls, dice: state.dice, at: now().toISOString() }) + '\n');
    },
  };
}
