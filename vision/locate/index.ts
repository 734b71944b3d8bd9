/**
 * Finding dice in a frame, and naming their colour. `locateDice(image)` returns every die once as
 * a pixel box with a score; `dieColor(image, box, palette)` names a die's body colour from the
 * palette in play (names from DIE_COLORS in shared/dice.ts).
 *
 * The learned detector is optional: `const detector = await loadDieDetector()`, then
 * `locateDice(image, { detector })` adds the dice it is sure of to the classical ones.
 */
export { locateDice, type LocatedDie, type LocateOptions } from './locate.js';
export { learnTray, type TrayFit, type TrayReference } from './tray-reference.js';
export { dieShapeScore } from './pieces.js';
export { GUESSED_BOX_SCORE } from './pips.js';
export { dieColor, bodyColour, colorLab, nearestColor, whiteGains, estimateLight, namingDistance, type Lab } from './color.js';
export { loadDieDetector, type DieDetector, type LoadDetectorOptions } from './detector/index.js';
