/**
 * The camera pipeline's stream reader: vision's `DiceStream` (settle on motion thumbnails, read
 * the last still frames, vote die by die) behind the pipeline's `RollStream` port. A stream is
 * made for the dice the game asks for; when the game asks for other dice, a fresh one starts, from
 * the scene the last one saw (a roll it reported is not reported again for the new request).
 */
import type { ClewDiceReader } from '../../vision/reader.js';
import { DiceStream, type DiceStreamOptions, type VotedDie } from '../../vision/stream.js';
import type { DieReading, ReadOptions } from '../../vision/types.js';
import type { RollStream } from './camera.js';

export function votedToReading(d: VotedDie): DieReading {
  return { set: d.set, face: d.face, confidence: d.confidence, box: d.box, uncertain: d.uncertain, ...(d.color !== undefined ? { color: d.color } : {}) };
}

export function visionRollStream(reader: ClewDiceReader, tuning: Pick<DiceStreamOptions, 'settle' | 'vote'> = {}): RollStream {
  let stream: DiceStream | null = null;
  let asked = '';
  return {
    async push(image, at, options: ReadOptions) {
      // The empty tray is passed on as it is, frame by frame: it changes how dice are found, not
      // which dice the stream votes on (and is far too big to serialise at every frame).
      const { tray, onTray, onCameraEvidence, cameraPrior, ...dice } = options;
      const key = JSON.stringify(dice);
      if (!stream || key !== asked) {
        const before = stream;
        stream = new DiceStream(reader, { ...dice, ...tuning, vote: { uncertainBelow: reader.uncertainBelow, ...tuning.vote } });
        // Dice already reported stay reported: the next player's request is not answered with them.
        if (before) stream.continueFrom(before);
        asked = key;
      }
      // So is what each frame's dice say about the camera, and what earlier rolls said (view 'auto', camera.ts).
      const frame = { ...(tray ? { tray, ...(onTray ? { onTray } : {}) } : {}), ...(onCameraEvidence ? { onCameraEvidence } : {}), ...(cameraPrior ? { cameraPrior } : {}) };
      const event = await stream.push(image, at, Object.keys(frame).length > 0 ? frame : undefined);
      return event?.type === 'settled' ? event.dice.map(votedToReading) : null;
    },
    readNow: (image, options) => reader.read(image, options),
    reset: () => stream?.reset(),
  };
}
