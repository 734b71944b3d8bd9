/** Face classes and face art: one source of truth for how every die face looks. */
export { FACE_CLASSES, classOf, facesOfSet, faceOf, classesOfSets, isFaceClass, type FaceClass } from './classes.js';
export { faceArt, artForFace, randomArtStyle, pentominoCells, DEFAULT_ART_STYLE, type ArtStyle, type FaceArt, type InkRole } from './art.js';
export { rasterizeArt, pathToPolygons } from './raster.js';
export { faceIcon, classIcon, iconFromArt, iconToSvg, cssColor, BODY_PATH, type FaceIcon, type IconColors } from './svg.js';
