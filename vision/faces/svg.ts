/**
 * Face art for screens and paper: colours substituted for the ink/body roles, as a path list
 * (`{ viewBox, paths: { d, fill }[] }`, ready for Preact or pdfkit's `doc.path(d).fill(c)`) or as
 * a complete SVG string with the die's rounded body behind the art.
 */
import type { DiceSetId } from '../../shared/dice.js';
import { DIE_COLORS } from '../../shared/dice.js';
import { artForFace, faceArt, type ArtStyle, type FaceArt } from './art.js';
import type { FaceClass } from './classes.js';

export interface IconColors {
  /** Colour of pips, numerals and icons (CSS colour). Default near-black. */
  ink?: string;
  /** Colour of the die body (CSS colour). Default white. */
  body?: string;
}

export interface FaceIcon {
  viewBox: string;
  /** Painted in order. The first is the die body (a rounded square) unless `withBody` is false. */
  paths: { d: string; fill: string }[];
}

const hex = (rgb: readonly [number, number, number]) => '#' + rgb.map((v) => v.toString(16).padStart(2, '0')).join('');

/** A named die colour from DIE_COLORS as CSS hex, or the string itself when it is not a name. */
export function cssColor(nameOrCss: string): string {
  const rgb = DIE_COLORS[nameOrCss];
  return rgb ? hex(rgb) : nameOrCss;
}

/** Body path of a die face: the face square with rounded corners. */
export const BODY_PATH = 'M12 0L88 0C94.63 0 100 5.37 100 12L100 88C100 94.63 94.63 100 88 100L12 100C5.37 100 0 94.63 0 88L0 12C0 5.37 5.37 0 12 0Z';

export function iconFromArt(art: FaceArt, colors: IconColors = {}, withBody = true): FaceIcon {
  const ink = cssColor(colors.ink ?? '#1d1d1f');
  const body = cssColor(colors.body ?? '#ffffff');
  const paths = art.paths.map((p) => ({ d: p.d, fill: p.fill === 'ink' ? ink : body }));
  return { viewBox: art.viewBox, paths: withBody ? [{ d: BODY_PATH, fill: body }, ...paths] : paths };
}

/** The icon of a set's face label, e.g. `faceIcon('cozy-organ', 'heart', { body: 'red', ink: 'white' })`. */
export function faceIcon(set: DiceSetId, face: string, colors: IconColors = {}, style: Partial<ArtStyle> = {}): FaceIcon {
  return iconFromArt(artForFace(set, face, style), colors);
}

export function classIcon(cls: FaceClass, colors: IconColors = {}, style: Partial<ArtStyle> = {}): FaceIcon {
  return iconFromArt(faceArt(cls, style), colors);
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A standalone SVG document of an icon; `size` sets width/height in px, `outline` a thin edge. */
export function iconToSvg(icon: FaceIcon, options: { size?: number; outline?: string; title?: string } = {}): string {
  const size = options.size ?? 64;
  const body = options.outline
    ? `<path d="${BODY_PATH}" fill="none" stroke="${escapeAttr(cssColor(options.outline))}" stroke-width="2"/>`
    : '';
  const title = options.title ? `<title>${escapeAttr(options.title)}</title>` : '';
  const paths = icon.paths.map((p) => `<path d="${p.d}" fill="${escapeAttr(p.fill)}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${icon.viewBox}" width="${size}" height="${size}">${title}${paths}${body}</svg>`;
}
