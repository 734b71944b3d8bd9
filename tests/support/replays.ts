/**
 * The shipped replay sequences by what they show (device/camera/make-replay.ts REPLAY_SCENES), for
 * tests that need one particular tray rather than whatever `npm start` replays by default
 * (DEFAULT_REPLAY_FOLDER, the default game's roll since the forty-second session).
 */
import { fileURLToPath } from 'node:url';

/** Four plain d6 (yellow, ivory/white) sliding into a felt tray, then still: frames 00-11, scene.json. */
export const FOUR_D6_REPLAY = fileURLToPath(new URL('../../device/camera/replay/', import.meta.url));

/** Worm & Cozy's roll, three d6 with one red shape die, the same way: npm start's default. */
export const COZY_REPLAY = fileURLToPath(new URL('../../device/camera/replay-worm-and-cozy/', import.meta.url));
