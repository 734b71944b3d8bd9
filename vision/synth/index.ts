/** The seeded synthetic renderer: training crops and whole tray scenes. */
export { renderCrop, renderCropDetail, type RenderCropOptions, type CropDetail } from './crop.js';
export { renderScene, type RenderSceneOptions, type Scene, type SceneDie } from './scene.js';
export { knobsFor, EASY_KNOBS, HARD_KNOBS, DEFAULT_DIFFICULTY, type SynthKnobs } from './knobs.js';
export { TABLE_KINDS, type TableKind } from './looks.js';
export { jpegArtefacts } from './jpeg.js';
